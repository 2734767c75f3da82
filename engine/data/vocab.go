package data

import (
	"cmp"
	"math"
	"slices"
)

// Vocabulary bounds: a Vocab counts the strings of the first VocabRows rows of a file
// (a lookup per hashed cell would otherwise add about half to a table's reading time),
// at most MaxVocabKeys distinct ones (about 10 MB; later new strings go uncounted and
// Truncated is set), and a model keeps at most VocabPerBucket of them per bucket and
// VocabTerms in all (Vocab.Terms).
const (
	VocabRows      = 1 << 15
	MaxVocabKeys   = 1 << 18
	VocabPerBucket = 4
	VocabTerms     = 8192
)

// Vocab counts the column=value strings of a table's hashed (categorical) columns as
// they are read (Options.Vocab), so that a model can name its buckets: which strings
// fell in each and how often. Two strings of one column with the same 32-bit hash are
// one entry (they are one feature to the model too). A Vocab is not safe for
// concurrent use; one reader fills it.
type Vocab struct {
	index     map[uint64]int32 // entries' index by column slot << 32 | hash (no pointers for the collector to scan)
	entries   []vocabEntry
	truncated bool
	rows      int
}

type vocabEntry struct {
	term    string
	feature int32
	sign    int8
	count   int32
}

// VocabTerm is a column=value string of a hashed column, the feature (bucket, 0-based
// like the model's weights) it is hashed to with its sign (±1: the value the row gets),
// and the number of training rows that had it.
type VocabTerm struct {
	Feature int    `json:"feature"`
	Term    string `json:"term"`
	Sign    int8   `json:"sign"`
	Count   int    `json:"count"`
}

// NewVocab returns an empty Vocab.
func NewVocab() *Vocab { return &Vocab{index: map[uint64]int32{}} }

// Truncated reports whether distinct strings beyond MaxVocabKeys went uncounted.
func (v *Vocab) Truncated() bool { return v.truncated }

// Rows is the number of rows whose strings were counted: the file's, up to VocabRows.
func (v *Vocab) Rows() int { return v.rows }

// startRow counts a row begun and reports whether its strings are to be counted.
func (v *Vocab) startRow() bool {
	if v.rows >= VocabRows {
		return false
	}
	v.rows++
	return true
}

// add counts key (column=value), column slot, hash h, hashed to feature with sign.
func (v *Vocab) add(slot int, h uint32, key []byte, feature int, sign float64) {
	id := uint64(slot)<<32 | uint64(h)
	if i, ok := v.index[id]; ok {
		if v.entries[i].count < math.MaxInt32 {
			v.entries[i].count++
		}
		return
	}
	if len(v.entries) >= MaxVocabKeys {
		v.truncated = true
		return
	}
	s := int8(1)
	if sign < 0 {
		s = -1
	}
	v.index[id] = int32(len(v.entries))
	v.entries = append(v.entries, vocabEntry{term: string(key), feature: int32(feature), sign: s, count: 1})
}

// Terms returns the strings to record in a model with weights w: the buckets in
// decreasing |w| (then increasing feature), each with its at most perBucket most
// frequent strings (then in string order), until total strings are taken. Buckets with
// weight 0 are left out.
func (v *Vocab) Terms(w []float64, perBucket, total int) []VocabTerm {
	byFeature := map[int][]VocabTerm{}
	for _, e := range v.entries {
		if f := int(e.feature); f < len(w) && w[f] != 0 {
			byFeature[f] = append(byFeature[f], VocabTerm{Feature: f, Term: e.term, Sign: e.sign, Count: int(e.count)})
		}
	}
	features := make([]int, 0, len(byFeature))
	for f := range byFeature {
		features = append(features, f)
	}
	slices.SortFunc(features, func(a, b int) int {
		return cmp.Or(cmp.Compare(math.Abs(w[b]), math.Abs(w[a])), cmp.Compare(a, b))
	})
	var out []VocabTerm
	for _, f := range features {
		terms := byFeature[f]
		slices.SortFunc(terms, func(a, b VocabTerm) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Term, b.Term)) })
		terms = terms[:min(len(terms), perBucket, total-len(out))]
		out = append(out, terms...)
		if len(out) >= total {
			break
		}
	}
	return out
}
