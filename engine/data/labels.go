package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/aucopt/aucopt/engine/fault"
)

// Label rules, written once for every path that reads labelled rows (a Reader of a
// file or stream, the parallel loader, a table, the out-of-core chunks, Beam's shards,
// rows in memory):
//
//   - without a positive label, the labels must make a binary problem by one of the
//     LIBSVM collection's conventions ({+1, −1}, {1, 0}, {1, 2}): 1 is positive, the
//     other label negative; the first label, in file order, that makes no binary
//     problem with the labels before it is an error naming it (BinaryLabels, LabelSet);
//   - with a positive label (one-vs-rest), that label is positive and every other one
//     negative (LabelRule).

// conventions are the binary label sets, positive first.
var conventions = [][2]float64{{1, -1}, {1, 0}, {1, 2}}

// BinaryLabels reports whether the distinct labels seen make a binary problem by one
// of the conventions.
func BinaryLabels(seen []float64) bool {
	for _, c := range conventions {
		all := true
		for _, s := range seen {
			if s != c[0] && s != c[1] {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// labelError is the error for label v, which makes no binary problem with the labels
// before it; hint says how the user names the positive class.
func labelError(v float64, before []float64, hint string) error {
	// hint is part of the format: its braces name settings (fault.Settingf).
	return fault.Settingf("%w: %v does not make a binary problem with the labels seen before (%v); "+hint, ErrLabel, v, before)
}

// LabelRule maps a label as read to ±1: the positive label when one is named, else 1
// is positive and any other label (of a binary file, BinaryLabels) negative.
type LabelRule struct {
	positive string
	pos      float64
}

// NewLabelRule returns the rule for the positive label positive ("" for none); a
// positive label that is not a number is an error.
func NewLabelRule(positive string) (LabelRule, error) {
	r := LabelRule{positive: positive}
	if positive != "" {
		v, err := strconv.ParseFloat(positive, 64)
		if err != nil || math.IsNaN(v) {
			return r, fmt.Errorf("positive label %q is not a number", positive)
		}
		r.pos = v
	}
	return r, nil
}

// Positive is the positive label the rule was made with ("" for none).
func (r LabelRule) Positive() string { return r.positive }

// Y maps label to ±1.
func (r LabelRule) Y(label float64) int8 {
	if r.positive != "" {
		if label == r.pos {
			return 1
		}
		return -1
	}
	if label == 1 {
		return 1
	}
	return -1
}

// LabelSet notes the first occurrence of each distinct label of a shard of labelled
// rows (a chunk of a file, one file of several), up to the three that decide whether
// the labels make a binary problem: merged over shards in file order, it lets a
// sharded reader report the same first bad label line as one reader of the whole file.
type LabelSet struct {
	Labels []LabelAt // in order of first occurrence, at most 3
}

// LabelAt is where a label first occurred.
type LabelAt struct {
	Label float64
	File  string
	Line  int
}

// Note records label at file:line if it is new (calls come in file order); it returns
// true when this is a third distinct label, after which a binary problem is impossible
// and further rows of the shard need not be read.
func (s *LabelSet) Note(label float64, file string, line int) bool {
	for _, l := range s.Labels {
		if l.Label == label {
			return false
		}
	}
	s.Labels = append(s.Labels, LabelAt{Label: label, File: file, Line: line})
	return len(s.Labels) >= 3
}

// Merge adds o's labels, which come after s's in file order.
func (s *LabelSet) Merge(o LabelSet) {
	for _, l := range o.Labels {
		if len(s.Labels) >= 3 {
			return
		}
		s.Note(l.Label, l.File, l.Line)
	}
}

// Check returns the error a Reader gives at the first label (in file order) that makes
// no binary problem with the labels before it, as a *ParseError naming its file and
// line; nil when the labels fit one of the binary conventions. positive, when not "",
// is the positive label of a one-vs-rest problem: every label fits.
func (s *LabelSet) Check(positive string) error {
	if positive != "" {
		return nil
	}
	for k, l := range s.Labels {
		if BinaryLabels(labelValues(s.Labels[:k+1])) {
			continue
		}
		return &ParseError{Path: l.File, Line: l.Line, Token: strconv.FormatFloat(l.Label, 'g', -1, 64),
			Err: labelError(l.Label, labelValues(s.Labels[:k]), "name the positive class ({Positive}) or group the classes")}
	}
	return nil
}

// labelValues are the labels of ls.
func labelValues(ls []LabelAt) []float64 {
	v := make([]float64, len(ls))
	for i, l := range ls {
		v[i] = l.Label
	}
	return v
}

// Add notes label at file:line in the whole file's set s (calls in file order) and
// checks it by rule: the streamed form of a Reader's check.
func (s *LabelSet) Add(rule LabelRule, label float64, file string, line int) error {
	if len(s.Labels) < 3 {
		s.Note(label, file, line)
	}
	return s.Check(rule.positive)
}

// labelMap holds the distinct labels a Reader has seen, in order, to check each new
// one against the conventions.
type labelMap struct {
	seen []float64
}

// mapLabel maps the label v of the Reader's next row to ±1 by the rules, or returns
// the error of a label that makes no binary problem with those seen before.
func (r *Reader) mapLabel(v float64) (int8, error) {
	if r.rule.positive == "" && !slices.Contains(r.labels.seen, v) {
		if !BinaryLabels(append(r.labels.seen, v)) {
			return 0, labelError(v, r.labels.seen, "name the positive class ({Positive} LABEL) or group the classes")
		}
		r.labels.seen = append(r.labels.seen, v)
	}
	return r.rule.Y(v), nil
}
