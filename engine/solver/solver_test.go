package solver

import (
	"math"
	"slices"
	"testing"
)

func TestGrid(t *testing.T) {
	g := Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{Pow2(-1, 0), {3, 4, 5}}}
	pts := g.Points()
	if len(pts) != 6 || !slices.Equal(pts[0], []string{"eta=0.5", "lambda=3"}) || !slices.Equal(pts[5], []string{"eta=1", "lambda=5"}) {
		t.Errorf("Points = %v", pts)
	}
	if p := Pow10(-2, 1); len(p) != 4 || math.Abs(p[0]-0.01) > 1e-18 {
		t.Errorf("Pow10 = %v", p)
	}
}

// TestRegistryShapes: every algorithm has exactly one constructor, valid defaults and a
// grid whose keys are parameter keys.
func TestRegistryShapes(t *testing.T) {
	seen := map[string]bool{}
	for _, spec := range Registry() {
		if seen[spec.Name] {
			t.Errorf("%s registered twice", spec.Name)
		}
		seen[spec.Name] = true
		if (spec.NewOnline == nil) == (spec.NewBatch == nil) {
			t.Errorf("%s: want exactly one of NewOnline and NewBatch", spec.Name)
		}
		keys := spec.Params().Keys()
		for _, k := range spec.Grid.Keys {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: grid key %q is not a parameter (keys %v)", spec.Name, k, keys)
			}
		}
	}
}
