package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// TestLSAUCWide: above LSAUCDirectMax features Fit takes conjugate gradients (no d×d
// matrix: MomentsOnly is false) and reaches the ORACLE's optimality, checked against
// the gradient of the explicit pair sum, 1/N Σ −(1 − w·z) z + λw over every pair z =
// x₊ − x₋. CG that does not converge in its steps fails with ErrDiverged instead of
// returning its iterate.
func TestLSAUCWide(t *testing.T) {
	const d = LSAUCDirectMax + 1000
	ds := hashedSparse(120, d, 30, false, 2)
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
	grad, rhs := make([]float64, d), make([]float64, d)
	npairs := 0
	forPairs(ds, func(i, j int) {
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
	})
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

// TestLSAUCEarlyStop: with Steps = k, B-LS-SVM's weights are the iterate after k steps
// of Jacobi-preconditioned conjugate gradients from 0 on the ORACLE system, checked
// against a dense transcription on the explicit matrix (S₊ + S₋ + δδᵀ + λI from the
// pair sum) to 10⁻⁹; enough steps give the exact minimiser; a grid of steps and λ
// (FitGrid: one path per λ) gives each point the bits of its own fit, the exact
// points included.
func TestLSAUCEarlyStop(t *testing.T) {
	ds := randomSparse(200, 12, 0.3, 0.5, 3)
	const lambda = 1e-3
	// The dense transcription: A and δ from the pairs, then plain PCG.
	z := pairs(ds)
	d, nf := ds.Dim, float64(len(z))
	a := make([]float64, d*d)
	delta := make([]float64, d)
	for _, row := range z {
		for p := range d {
			delta[p] += row[p] / nf
			for q := range d {
				a[p*d+q] += row[p] * row[q] / nf
			}
		}
	}
	for p := range d {
		a[p*d+p] += lambda
	}
	iterates := map[int][]float64{}
	w, r := make([]float64, d), append([]float64(nil), delta...)
	pre := func(v []float64) []float64 {
		out := make([]float64, d)
		for j := range v {
			out[j] = v[j] / a[j*d+j]
		}
		return out
	}
	zz := pre(r)
	p := append([]float64(nil), zz...)
	rz := hostDot(r, zz)
	for k := 1; k <= 6; k++ {
		ap := make([]float64, d)
		for i := range d {
			ap[i] = hostDot(a[i*d:(i+1)*d], p)
		}
		alpha := rz / hostDot(p, ap)
		for j := range w {
			w[j] += alpha * p[j]
			r[j] -= alpha * ap[j]
		}
		zz = pre(r)
		rz1 := hostDot(r, zz)
		for j := range p {
			p[j] = zz[j] + rz1/rz*p[j]
		}
		rz = rz1
		iterates[k] = append([]float64(nil), w...)
	}
	b := testBackends(t)[0]
	fit := func(pp LSAUCParams) []float64 {
		l, err := NewLSAUC(b, d, pp, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Fit(context.Background(), ds); err != nil {
			t.Fatal(err)
		}
		if pp.Steps > 0 && l.MomentsOnly() {
			t.Errorf("steps=%d: MomentsOnly, want false", pp.Steps)
		}
		return l.Weights()
	}
	for _, k := range []int{1, 2, 3, 6} {
		if e := dist(fit(LSAUCParams{Lambda: lambda, Steps: k}), iterates[k]); e > 1e-9 {
			t.Errorf("steps=%d: %.3g from the dense transcription's iterate, want ≤ 1e-9", k, e)
		}
	}
	if e := dist(fit(LSAUCParams{Lambda: lambda, Steps: 500}), fit(LSAUCParams{Lambda: lambda})); e > 1e-6 {
		t.Errorf("500 steps: %.3g from the exact minimiser, want ≤ 1e-6", e)
	}
	spec, err := Lookup("ls-auc")
	if err != nil {
		t.Fatal(err)
	}
	l, _ := NewLSAUC(b, d, DefaultLSAUCParams(), 0)
	// grid checks that FitGrid of the points given as key=value settings gives each
	// point the weights of its own fit, bit for bit.
	grid := func(what string, points [][]string) {
		var params []Params
		for _, kvs := range points {
			p := spec.Params()
			if err := p.SetAll(kvs); err != nil {
				t.Fatal(err)
			}
			params = append(params, p)
		}
		ws, errs, ok, err := l.FitGrid(context.Background(), ds, params)
		if err != nil || !ok {
			t.Fatalf("FitGrid of %s: ok %v, %v", what, ok, err)
		}
		for g, p := range params {
			pp := *p.ptr.(*LSAUCParams)
			if errs[g] != nil {
				t.Fatalf("%s, point %d: %v", what, g, errs[g])
			}
			if want := fit(pp); !slices.Equal(ws[g], want) {
				t.Errorf("%s, point %+v: the grid's weights are not its own fit's", what, pp)
			}
		}
	}
	var mixed [][]string
	for _, pp := range []LSAUCParams{{lambda, 3}, {1e-2, 2}, {lambda, 1}, {lambda, 0}, {1e-2, 5}, {lambda, 6}} {
		mixed = append(mixed, []string{fmt.Sprintf("lambda=%g", pp.Lambda), fmt.Sprintf("steps=%d", pp.Steps)})
	}
	grid("early-stopped and exact points", mixed)
	// A grid of exact points alone shares one accumulation of the class moments.
	grid("exact points", [][]string{{"lambda=1e-4"}, {"lambda=1e-2"}, {"lambda=1"}})
}

// noView hides a host backend's Viewer capability, so that the learners take the paths
// of a device backend: the two-pass product, no conjugate gradients first.
type noView struct{ kernels.Backend }

// gaussianDense is n dense rows of d features, the positives (a third) shifted by 0.2
// in the first 50: standard normal features scaled by 1 + j/d (so that the Jacobi
// preconditioner has work), or when ill the differences z_j − z_{j−1} of standard
// normal z, whose covariance (the second-difference matrix) has a condition number of
// order d².
func gaussianDense(n, d int, ill bool, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 7))
	y, xs := make([]int8, n), make([]float64, n*d)
	z := make([]float64, d+1)
	for i := range n {
		y[i] = -1
		if i%3 == 0 {
			y[i] = 1
		}
		for j := range z {
			z[j] = r.NormFloat64()
		}
		x := xs[i*d : (i+1)*d]
		for j := range x {
			x[j] = z[j+1] * (1 + float64(j)/float64(d))
			if ill {
				x[j] = z[j+1] - z[j]
			}
			if j < 50 && y[i] == 1 {
				x[j] += 0.2
			}
		}
	}
	ds, err := data.NewDense("gaussian", d, y, xs)
	if err != nil {
		panic(err)
	}
	return ds
}

// TestSquareOpFused: on dense rows a host backend views in place, the operator's
// product is one pass over blocks of rows (fusedProduct); it equals the two-pass
// product of the rows as a device backend has them, and so do the means and the
// diagonal (denseClassSums against the general loop, bit for bit).
func TestSquareOpFused(t *testing.T) {
	for _, b := range testBackends(t) {
		for _, n := range []int{7, 1003} {
			ds := gaussianDense(n, 300, false, 1)
			fused, plain := newSquareOp(b, ds, 300, 0.5), newSquareOp(noView{b}, ds, 300, 0.5)
			for c := range 2 {
				if !slices.Equal(fused.mean[c], plain.mean[c]) {
					t.Fatalf("%s n=%d: class %d means differ", b.Name(), n, c)
				}
			}
			if !slices.Equal(fused.diag, plain.diag) {
				t.Fatalf("%s n=%d: diagonals differ", b.Name(), n)
			}
			v := make([]float64, 300)
			for j := range v {
				v[j] = math.Sin(float64(j))
			}
			got, want := make([]float64, 300), make([]float64, 300)
			fused.apply(v, got)
			plain.apply(v, want)
			if diff, norm := maxAbs(sub(got, want)), maxAbs(want); diff > 1e-13*norm {
				t.Errorf("%s n=%d: fused product off by %.3g of %.3g", b.Name(), n, diff, norm)
			}
		}
	}
}

// hashedSparse is n sparse rows of d features, k of them drawn at random in each row
// (hashed click-through data), the positives (a third) shifted by 0.3 in the first
// ten; when ill, each drawn feature j comes with j+1 at nearly the same value, so that
// neighbouring columns are nearly collinear.
func hashedSparse(n, d, k int, ill bool, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 9))
	ds := &data.Dataset{Name: "hashed", Dim: d, Ptr: []int64{0}}
	for i := range n {
		y := int8(-1)
		if i%3 == 0 {
			y = 1
		}
		row := map[int32]float64{}
		for range k {
			j := int32(r.IntN(d - 1))
			v := r.NormFloat64()
			row[j] += v
			if ill {
				row[j+1] += v * (1 + 1e-4*r.NormFloat64())
			}
		}
		if y == 1 {
			for j := range int32(10) {
				row[j] += 0.3
			}
		}
		var x kernels.Sparse
		for j := range int32(d) {
			if v, ok := row[j]; ok {
				x.Idx, x.Val = append(x.Idx, j), append(x.Val, v)
			}
		}
		ds.Append(y, float64(y), x)
	}
	return ds
}

// TestCGFirst: on dense rows that a host backend views in place (d/64 steps from 1,024
// features) and on sparse ones (hashed, 2,048 features), ls-auc and mba-l2 with every
// pair try conjugate gradients before the direct solve (cgFirstSteps) and give its
// solution to 10⁻⁷ (relative); a system that does not converge in the steps allowed
// falls back to the direct solve and returns its bits; a device backend (no view)
// solves directly.
func TestCGFirst(t *testing.T) {
	const n = 3000
	ctx := context.Background()
	bs := testBackends(t)
	b := bs[len(bs)-1]
	for _, c := range []struct {
		name   string
		d      int
		sparse bool
		ill    bool
	}{{"dense", 1024, false, false}, {"dense ill", 1024, false, true}, {"sparse", 2048, true, false}, {"sparse ill", 2048, true, true}} {
		d, ill := c.d, c.ill
		var ds *data.Dataset
		lambda := 20.0
		if c.sparse {
			ds, lambda = hashedSparse(n, d, 20, ill, 3), 1
		} else {
			ds = gaussianDense(n, d, ill, 3)
		}
		if ill {
			lambda = 1e-9
		}
		steps := cgFirstSteps(b, ds, d)
		if !c.sparse && steps != d/64 || steps < cgFirstMin {
			t.Fatalf("%s: cgFirstSteps = %d, want d/64 = %d for dense rows, at least %d", c.name, steps, d/64, cgFirstMin)
		}
		if got := cgFirstSteps(noView{b}, ds, d); got != 0 {
			t.Fatalf("%s: cgFirstSteps without a view = %d, want 0", c.name, got)
		}
		// ls-auc, against its direct solve (classMoments, FitMoments).
		l, err := NewLSAUC(b, d, LSAUCParams{Lambda: lambda}, 0)
		if err != nil {
			t.Fatal(err)
		}
		direct, _ := NewLSAUC(b, d, LSAUCParams{Lambda: lambda}, 0)
		pos, neg, err := classMoments(ctx, b, ds, nil, d)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Fit(ctx, ds); err != nil {
			t.Fatal(err)
		}
		if err := direct.FitMoments(ctx, pos, neg); err != nil {
			t.Fatal(err)
		}
		checkCGFirst(t, c.name+" ls-auc", ill, l.Weights(), direct.Weights())
		// mba-l2 with every pair, against its Cholesky solve (accumulate, fitSolve).
		p := DefaultMBAL2Params()
		p.Pairs, p.Lambda2 = MBAPairsAll, lambda
		m, err := NewMBAL2(b, d, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		chol, _ := NewMBAL2(b, d, p, 1)
		if err := m.Fit(ctx, ds); err != nil {
			t.Fatal(err)
		}
		if err := chol.accumulate(ctx, ds, nil); err != nil {
			t.Fatal(err)
		}
		if err := chol.fitSolve(ctx); err != nil {
			t.Fatal(err)
		}
		want := map[bool]string{false: "cg", true: "cholesky"}[ill]
		if got := m.Info().Solver; got != want {
			t.Errorf("%s mba-l2: solved by %q, want %q", c.name, got, want)
		}
		checkCGFirst(t, c.name+" mba-l2", ill, m.Weights(), chol.Weights())
	}
}

// checkCGFirst compares TestCGFirst's weights with the direct solve's: the same bits
// after a fallback (ill), else to 10⁻⁷.
func checkCGFirst(t *testing.T, algo string, ill bool, got, want []float64) {
	t.Helper()
	if ill {
		if !slices.Equal(got, want) {
			t.Errorf("%s: the fallback's weights differ from the direct solve's", algo)
		}
		return
	}
	if r := dist(got, want); !(r <= 1e-7) {
		t.Errorf("%s: conjugate gradients' weights off the direct solve's by %.3g (relative)", algo, r)
	}
}

// TestSquareOpSparse: on sparse rows a host backend reads in place, the operator's
// product is one pass in parts (sparseProduct: 8 here, on all cores); it equals the
// two-pass product of the rows as a device backend has them, and gives the same bits
// on one core as on all.
func TestSquareOpSparse(t *testing.T) {
	ds := hashedSparse(20000, 64, 5, false, 4)
	if p := sparseParts(ds.Rows(), 64, ds.Nnz()); p != sparseMaxParts {
		t.Fatalf("%d parts, want %d", p, sparseMaxParts)
	}
	v := make([]float64, 64)
	for j := range v {
		v[j] = math.Cos(float64(j))
	}
	for _, b := range testBackends(t) {
		got, want, one := make([]float64, 64), make([]float64, 64), make([]float64, 64)
		newSquareOp(b, ds, 64, 0.5).apply(v, got)
		newSquareOp(noView{b}, ds, 64, 0.5).apply(v, want)
		if diff, norm := maxAbs(sub(got, want)), maxAbs(want); diff > 1e-13*norm {
			t.Errorf("%s: the parts' product off by %.3g of %.3g", b.Name(), diff, norm)
		}
		prev := runtime.GOMAXPROCS(1)
		newSquareOp(b, ds, 64, 0.5).apply(v, one)
		runtime.GOMAXPROCS(prev)
		if !slices.Equal(one, got) {
			t.Errorf("%s: the product on one core differs from all cores'", b.Name())
		}
	}
}
