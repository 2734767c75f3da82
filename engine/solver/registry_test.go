package solver

import (
	"fmt"
	"slices"
	"testing"
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
