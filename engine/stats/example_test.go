package stats_test

import (
	"context"
	"fmt"

	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/fallback"
)

// The oracle from one pass of per-class moments: no pair is ever formed.
func ExampleOracle() {
	b := fallback.New()
	pos, neg := stats.NewMoments(b, 2), stats.NewMoments(b, 2)
	x := b.NewVec(2)
	for _, r := range [][]float64{{2, 1}, {3, 1}} {
		b.Upload(x, r)
		pos.Add(x)
	}
	for _, r := range [][]float64{{0, 0}, {1, 0}} {
		b.Upload(x, r)
		neg.Add(x)
	}
	w, err := stats.Oracle(context.Background(), pos, neg, 0.1)
	if err != nil {
		panic(err)
	}
	// δ = (2, 1), S₊ = S₋ = diag(¼, 0): (S₊ + S₋ + δδᵀ + 0.1·I) w = δ gives w = (0.2, 0.6)/1.06.
	fmt.Printf("w* = [%.4f %.4f]\n", w[0], w[1])
	// Output: w* = [0.1887 0.5660]
}
