package solvertest_test

import (
	"testing"

	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/engine/solver/solvertest"
)

// TestRegistry runs the contract on every registered algorithm.
func TestRegistry(t *testing.T) {
	for _, spec := range solver.Registry() {
		t.Run(spec.Name, func(t *testing.T) {
			solvertest.Check(t, spec, solvertest.Options{})
		})
	}
}
