package solver

import (
	"errors"
	"math"
	"slices"
	"testing"
)

type testParams struct {
	Eta    float64 `param:"eta"`
	Tau    int     `param:"tau"`
	Dense  bool    `param:"dense"`
	Mode   string  `param:"mode"`
	hidden float64
}

func TestSet(t *testing.T) {
	p := &testParams{Eta: 1}
	for _, kv := range []struct{ k, v string }{{"eta", "2^-4"}, {"tau", "50"}, {"dense", "true"}, {"mode", "pre"}} {
		if err := Set(p, kv.k, kv.v); err != nil {
			t.Fatal(err)
		}
	}
	if p.Eta != 1.0/16 || p.Tau != 50 || !p.Dense || p.Mode != "pre" {
		t.Errorf("Set gave %+v", p)
	}
	if err := SetAll(p, []string{"eta=1e-3", " tau = 7 "}); err != nil || p.Eta != 1e-3 || p.Tau != 7 {
		t.Errorf("SetAll: %+v, %v", p, err)
	}
	for _, bad := range []string{"lambda=1", "eta=abc", "tau=1.5", "dense=maybe", "eta", "eta=nan"} {
		err := SetAll(p, []string{bad})
		if !errors.Is(err, ErrParam) {
			t.Errorf("%q: error %v, want ErrParam", bad, err)
		}
	}
	if err := Set(p, "lambda", "1"); err == nil || err.Error() != `bad parameter: unknown key "lambda" (valid: eta, tau, dense, mode)` {
		t.Errorf("unknown key: %v", err)
	}
	if v := Values(p); len(v) != 4 || v["tau"] != 7 {
		t.Errorf("Values = %v", v)
	}
}

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
		keys := Keys(spec.Params())
		for _, k := range spec.Grid.Keys {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: grid key %q is not a parameter (keys %v)", spec.Name, k, keys)
			}
		}
	}
}
