package engine

import (
	"testing"

	"github.com/aucopt/aucopt/engine/solver"
)

// testParams returns algo's Params with the key=values kv set (TrainConfig.Params);
// the zero Params for none.
func testParams(t testing.TB, algo string, kv ...string) solver.Params {
	t.Helper()
	if len(kv) == 0 {
		return solver.Params{}
	}
	spec, err := solver.Lookup(algo)
	if err != nil {
		t.Fatal(err)
	}
	p := spec.Params()
	if err := p.SetAll(kv); err != nil {
		t.Fatalf("%s: %v", algo, err)
	}
	return p
}
