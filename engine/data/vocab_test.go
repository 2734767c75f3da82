package data

import (
	"reflect"
	"testing"
)

// TestVocabTerms: the buckets of largest |w| first, each with its most frequent strings
// (at most perBucket), until total; buckets of weight 0 left out; the rows counted stop
// at VocabRows.
func TestVocabTerms(t *testing.T) {
	v := NewVocab()
	add := func(slot int, h uint32, key string, feature int, sign float64, n int) {
		for range n {
			v.add(slot, h, []byte(key), feature, sign)
		}
	}
	add(0, 1, "a=x", 2, 1, 5)
	add(0, 2, "a=y", 2, -1, 9)
	add(1, 1, "b=x", 2, 1, 1) // same hash, other column: its own entry
	add(0, 3, "a=z", 0, 1, 4)
	add(1, 4, "b=w", 1, 1, 7) // weight 0
	w := []float64{0.5, 0, -2}
	want := []VocabTerm{{2, "a=y", -1, 9}, {2, "a=x", 1, 5}, {0, "a=z", 1, 4}}
	if got := v.Terms(w, 2, 10); !reflect.DeepEqual(got, want) {
		t.Errorf("Terms(2 per bucket) = %v, want %v", got, want)
	}
	if got := v.Terms(w, 4, 2); !reflect.DeepEqual(got, []VocabTerm{{2, "a=y", -1, 9}, {2, "a=x", 1, 5}}) {
		t.Errorf("Terms(total 2) = %v", got)
	}
	for range VocabRows + 3 {
		v.startRow()
	}
	if v.Rows() != VocabRows || v.Truncated() {
		t.Errorf("rows %d truncated %v, want %d false", v.Rows(), v.Truncated(), VocabRows)
	}
}
