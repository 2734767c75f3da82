package solver_test

import (
	"fmt"

	"github.com/aucopt/aucopt/engine/solver"
)

func ExampleParams() {
	spec, err := solver.Lookup("opauc")
	if err != nil {
		panic(err)
	}
	p := spec.Params() // the defaults, the caller's to set
	if err := p.SetAll([]string{"eta=2^-6", "lambda=1e-3"}); err != nil {
		panic(err)
	}
	q := p.Clone() // an independent copy: a grid point
	if err := q.Set("eta", "0.5"); err != nil {
		panic(err)
	}
	fmt.Println(p.Keys())
	fmt.Println(p)
	fmt.Println(q)
	fmt.Println(p.Set("beta", "1"))
	// Output:
	// [eta lambda]
	// eta=0.015625 lambda=0.001
	// eta=0.5 lambda=0.001
	// bad parameter: unknown key "beta" (valid: eta, lambda)
}
