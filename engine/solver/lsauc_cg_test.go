package solver

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// wideSparse is n rows over d features, each with k features drawn at random (the
// positives' first ten shifted), like hashed text.
func wideSparse(n, d, k int, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 3))
	ds := &data.Dataset{Name: "wide", Dim: d, Ptr: []int64{0}}
	for i := range n {
		y := int8(1 - 2*(i%2))
		seen := map[int32]float64{}
		for range k {
			seen[int32(r.IntN(d))] = r.NormFloat64()
		}
		for j := range int32(10) {
			seen[j] += 0.3 * float64(y)
		}
		var x kernels.Sparse
		for j := range int32(d) {
			if v, ok := seen[j]; ok {
				x.Idx, x.Val = append(x.Idx, j), append(x.Val, v)
			}
		}
		ds.Append(y, float64(y), x)
	}
	return ds
}

// TestLSAUCWide: above LSAUCDirectMax features Fit takes conjugate gradients (no d×d
// matrix: MomentsOnly is false) and reaches the ORACLE's optimality, checked against
// the gradient of the explicit pair sum, 1/N Σ −(1 − w·z) z + λw over every pair z =
// x₊ − x₋. CG that does not converge in its steps fails with ErrDiverged instead of
// returning its iterate.
func TestLSAUCWide(t *testing.T) {
	const d = LSAUCDirectMax + 1000
	ds := wideSparse(120, d, 30, 2)
	l, err := NewLSAUC(testBackends(t)[0], d, LSAUCParams{Lambda: 1e-2}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l.MomentsOnly() {
		t.Error("MomentsOnly at", d, "features: want false (the rows are needed)")
	}
	if err := l.Fit(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	w := l.Weights()
	grad := make([]float64, d)
	var rhs []float64 = make([]float64, d)
	npairs := 0
	for i := range ds.Rows() {
		if ds.Y[i] != 1 {
			continue
		}
		for j := range ds.Rows() {
			if ds.Y[j] != -1 {
				continue
			}
			npairs++
			z := map[int32]float64{}
			xi, xj := ds.Row(i), ds.Row(j)
			for q, f := range xi.Idx {
				z[f] += xi.Val[q]
			}
			for q, f := range xj.Idx {
				z[f] -= xj.Val[q]
			}
			var wz float64
			for f, v := range z {
				wz += w[f] * v
			}
			for f, v := range z {
				grad[f] -= (1 - wz) * v
				rhs[f] += v
			}
		}
	}
	var gn, rn float64
	for f := range grad {
		g := grad[f]/float64(npairs) + 1e-2*w[f]
		gn += g * g
		rn += (rhs[f] / float64(npairs)) * (rhs[f] / float64(npairs))
	}
	if r := math.Sqrt(gn / rn); r > 1e-6 {
		t.Errorf("‖∇L(w)‖/‖δ‖ = %.3g from the pair sum, want ≤ 1e-6", r)
	}
	short, _ := NewLSAUC(testBackends(t)[0], d, LSAUCParams{Lambda: 1e-2}, 0)
	short.cgMaxIter = 3
	if err := short.Fit(context.Background(), ds); !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "after 3 steps") {
		t.Errorf("CG stopped after 3 steps: %v, want ErrDiverged naming the steps", err)
	}
}
