package data

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// TestLabelRulesAgree checks that the label rules give the same answer on every path:
// a Reader of the whole file (mapLabel), a LabelSet noted shard by shard and merged in
// file order (the out-of-core chunks, Beam's shards), and a LabelSet added to row by
// row (a streamed file): the same ±1 labels, and the same first bad line.
func TestLabelRulesAgree(t *testing.T) {
	tests := []struct {
		name     string
		labels   []float64
		positive string
		badLine  int // 0: the labels make a binary problem
	}{
		{"plus minus", []float64{1, -1, -1, 1}, "", 0},
		{"one zero", []float64{0, 0, 1}, "", 0},
		{"one two", []float64{2, 1, 2}, "", 0},
		{"one class", []float64{-1, -1}, "", 0},
		{"two conventions", []float64{1, 0, 1, -1, 0}, "", 4},
		{"no convention", []float64{3, 5}, "", 1},
		{"second breaks", []float64{0, 2}, "", 2},
		{"three classes", []float64{1, 2, 3}, "", 3},
		{"one vs rest", []float64{1, 2, 3, 2}, "2", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var text strings.Builder
			for _, l := range tt.labels {
				fmt.Fprintf(&text, "%v 1:1\n", l)
			}
			rule, err := NewLabelRule(tt.positive)
			if err != nil {
				t.Fatal(err)
			}
			// The whole file, one Reader.
			r, err := NewReader(strings.NewReader(text.String()), "f.svm", Options{Positive: tt.positive})
			if err != nil {
				t.Fatal(err)
			}
			var readerLine int
			for i := 0; ; i++ {
				ex, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					var pe *ParseError
					if !errors.As(err, &pe) || !errors.Is(err, ErrLabel) {
						t.Fatalf("reader: %v, want a label ParseError", err)
					}
					readerLine = pe.Line
					break
				}
				if want := rule.Y(tt.labels[i]); ex.Y != want {
					t.Errorf("row %d: reader's label %d, the rule's %d", i+1, ex.Y, want)
				}
			}
			// Shards of one and two rows, merged in file order.
			for _, size := range []int{1, 2, 3} {
				var all LabelSet
				for s := 0; s < len(tt.labels); s += size {
					var shard LabelSet
					for i := s; i < min(s+size, len(tt.labels)); i++ {
						if shard.Note(tt.labels[i], "f.svm", i+1) {
							break
						}
					}
					all.Merge(shard)
				}
				if got := lineOf(t, all.Check(tt.positive)); got != tt.badLine {
					t.Errorf("shards of %d: bad line %d, want %d", size, got, tt.badLine)
				}
			}
			// Row by row.
			var seen LabelSet
			added := 0
			for i, l := range tt.labels {
				if err := seen.Add(rule, l, "f.svm", i+1); err != nil {
					added = lineOf(t, err)
					break
				}
			}
			if readerLine != tt.badLine || added != tt.badLine {
				t.Errorf("bad line: reader %d, added %d; want %d", readerLine, added, tt.badLine)
			}
		})
	}
}

// lineOf is the line of a label ParseError, 0 for nil.
func lineOf(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrLabel) || !strings.Contains(err.Error(), "does not make a binary problem") {
		t.Fatalf("%v: want a label ParseError", err)
	}
	return pe.Line
}

// TestNewLabelRule checks the positive label's parsing and mapping.
func TestNewLabelRule(t *testing.T) {
	tests := []struct {
		positive string
		ok       bool
		label    float64
		y        int8
	}{
		{"", true, 1, 1},
		{"", true, 0, -1},
		{"+1", true, 1, 1},
		{"1.0", true, 2, -1},
		{"3", true, 3, 1},
		{"x", false, 0, 0},
		{"NaN", false, 0, 0},
	}
	for _, tt := range tests {
		r, err := NewLabelRule(tt.positive)
		if (err == nil) != tt.ok {
			t.Errorf("NewLabelRule(%q): %v, want ok %v", tt.positive, err, tt.ok)
			continue
		}
		if tt.ok && r.Y(tt.label) != tt.y {
			t.Errorf("rule %q: Y(%v) = %d, want %d", tt.positive, tt.label, r.Y(tt.label), tt.y)
		}
	}
}
