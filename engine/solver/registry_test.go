package solver

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// TestSetStreamLength checks the stream-length fact against the parameters: an
// algorithm with a parameter n (the expected number of examples) has SetStreamLength,
// which sets exactly n; the others have none.
func TestSetStreamLength(t *testing.T) {
	var with []string
	for _, s := range Registry() {
		p := s.Params()
		hasN := slices.Contains(p.Keys(), "n")
		if (s.SetStreamLength != nil) != hasN {
			t.Errorf("%s: SetStreamLength set %v, parameter n %v", s.Name, s.SetStreamLength != nil, hasN)
			continue
		}
		if !hasN {
			continue
		}
		with = append(with, s.Name)
		want := s.Params()
		if err := want.Set("n", "1234"); err != nil {
			t.Fatal(err)
		}
		s.SetStreamLength(p, 1234)
		if got, w := fmt.Sprint(p), fmt.Sprint(want); got != w {
			t.Errorf("%s: SetStreamLength(1234) gives %s, want %s", s.Name, got, w)
		}
	}
	if !slices.Equal(with, []string{"fsauc"}) {
		t.Errorf("algorithms that need the stream length: %v, want [fsauc]", with)
	}
}

// TestDefaultPasses: ⌈MinSteps/rows⌉ passes for the learners with MinSteps, capped at
// MaxDefaultPasses, one on large sets (from OnePassRows) and without MinSteps or rows,
// none for batch.
func TestDefaultPasses(t *testing.T) {
	tests := []struct {
		algo string
		rows int
		want int
	}{
		{"solam", 1000, 20},
		{"solam", 1284, 16},
		{"spam-l2", 146, MaxDefaultPasses},
		{"spam-net", 19_999, 2},
		{"adaoam", 20_000, 1},
		{"adaoam", 32_561, 1},
		{"solam", 0, 1},
		{"opauc", 100, MaxDefaultPasses},
		{"opauc", 899, 56},
		{"opaucr", 19_999, 3},
		{"opauc", 32_561, 1}, // OnePassRows: though MinSteps is 50,000
		{"oam-seq", 100, MaxDefaultPasses},
		{"oam-gra", 899, 34},
		{"oam-seq", 32_561, 1},
		{"fsauc", 100, 1},
		{"ls-auc", 100, 0},
		{"mba-l2", 100, 0},
	}
	for _, tt := range tests {
		spec, err := Lookup(tt.algo)
		if err != nil {
			t.Fatal(err)
		}
		if got := spec.DefaultPasses(tt.rows); got != tt.want {
			t.Errorf("%s.DefaultPasses(%d) = %d, want %d", tt.algo, tt.rows, got, tt.want)
		}
	}
}

// TestSpecCheck: every registered Spec declares what the registry requires, and a Spec
// that lacks a part of it is refused, naming what is missing.
func TestSpecCheck(t *testing.T) {
	for _, s := range Registry() {
		if err := s.check(); err != nil {
			t.Errorf("registered %s: %v", s.Name, err)
		}
	}
	full, err := Lookup("opauc")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(s *Spec)
		want   string
	}{
		{"no state size", func(s *Spec) { s.StateBytes = nil }, "no state size"},
		{"no help line", func(s *Spec) { s.Doc = "" }, "help line"},
		{"no params", func(s *Spec) { s.Params = nil }, "Params"},
		{"two constructors", func(s *Spec) {
			s.NewBatch = func(kernels.Backend, int, Params, uint64) (Batch, error) { return nil, nil }
		}, "exactly one"},
		{"no constructor", func(s *Spec) { s.NewOnline = nil }, "exactly one"},
	}
	for _, tt := range tests {
		s := full
		tt.change(&s)
		err := s.check()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: check() = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}
