package solver

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/optimize"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// uniLogHost is Uni-Log's objective and gradient at x = (w, b) (the bias last) by
// plain loops, the test's oracle.
func uniLogHost(ds *data.Dataset, x []float64, lambda float64) (float64, []float64) {
	pos, neg := ds.Counts()
	w, bias := x[:len(x)-1], x[len(x)-1]
	g := make([]float64, len(x))
	var f float64
	for i := range ds.Rows() {
		r := ds.Row(i)
		s := bias
		for k, j := range r.Idx {
			s += w[j] * r.Val[k]
		}
		c, y := 1/float64(neg), float64(ds.Y[i])
		if ds.Y[i] == 1 {
			c = 1 / float64(pos)
		}
		f += c * math.Log(1+math.Exp(-y*s))
		sig := 1 / (1 + math.Exp(y*s))
		for k, j := range r.Idx {
			g[j] -= c * y * sig * r.Val[k]
		}
		g[len(w)] -= c * y * sig
	}
	for j, v := range w {
		f += 0.5 * lambda * v * v
		g[j] += lambda * v
	}
	return f, g
}

// uniLogLBFGS is the minimiser of Uni-Log's objective by the solver this one replaced:
// gonum's L-BFGS on the plain loops (uniLogHost), from 0, to ‖∇f‖∞ ≤ 10⁻¹⁰·‖∇f(0)‖∞.
func uniLogLBFGS(t *testing.T, ds *data.Dataset, lambda float64) []float64 {
	t.Helper()
	x0 := make([]float64, ds.Dim+1)
	_, g0 := uniLogHost(ds, x0, lambda)
	prob := optimize.Problem{
		Func: func(x []float64) float64 { f, _ := uniLogHost(ds, x, lambda); return f },
		Grad: func(g, x []float64) { _, gx := uniLogHost(ds, x, lambda); copy(g, gx) },
	}
	res, err := optimize.Minimize(prob, x0, &optimize.Settings{GradientThreshold: 1e-10 * infNorm(g0), MajorIterations: 10000}, &optimize.LBFGS{})
	if err != nil && res == nil {
		t.Fatal(err)
	}
	_, g := uniLogHost(ds, res.X, lambda)
	if rel := infNorm(g) / infNorm(g0); rel > 1e-8 {
		t.Fatalf("the L-BFGS oracle stopped at ‖∇f‖∞ relative %.2g (%v)", rel, res.Status)
	}
	return res.X
}

// unilogSets are the training sets of the Uni-Log tests: sparse and dense, balanced and
// not, well and badly conditioned.
func unilogSets() []struct {
	name   string
	ds     *data.Dataset
	lambda float64
} {
	sp := randomSparse(300, 8, 0.4, 0.3, 2)
	rare := randomSparse(400, 6, 0.05, 0.8, 5)
	ill := hashedSparse(600, 40, 4, true, 3)
	return []struct {
		name   string
		ds     *data.Dataset
		lambda float64
	}{
		{"sparse", sp, 1e-2},
		{"dense", sp.ToDense(), 1e-2},
		{"sparse small λ", sp, 1e-5},
		{"rare positives", rare, 1e-3},
		{"rare positives dense", rare.ToDense(), 1e-3},
		{"collinear", ill, 1e-4},
		{"collinear dense", ill.ToDense(), 1e-4},
	}
}

// unilogBackends are the backends the Uni-Log tests run on: the host ones (rows in
// place), and the first without its view and concurrency (the two-pass products of a
// device backend).
func unilogBackends(t *testing.T) []kernels.Backend {
	return append(testBackends(t), noView{fallback0(t)})
}

func fallback0(t *testing.T) kernels.Backend { return testBackends(t)[0] }

// TestUniLogDerivatives: the objective, gradient (from a pass, and after a step from the
// moved scores), Hessian product and diagonal of the Newton solver against plain loops
// and central differences of the plain loops' gradient, on every set and backend.
func TestUniLogDerivatives(t *testing.T) {
	for _, tc := range unilogSets() {
		for _, b := range unilogBackends(t) {
			t.Run(fmt.Sprintf("%s/%s/%T", tc.name, b.Name(), b), func(t *testing.T) {
				ds, lambda := tc.ds, tc.lambda
				d := ds.Dim
				p := newUniLogProblem(b, ds, d, ClassWeightBalanced)
				r := rand.New(rand.NewPCG(3, 3))
				x, v := make([]float64, d+1), make([]float64, d+1)
				for j := range x {
					x[j], v[j] = 0.5*r.NormFloat64(), r.NormFloat64()
				}
				g := make([]float64, d+1)
				f := p.funcGrad(x, lambda, g)
				fh, gh := uniLogHost(ds, x, lambda)
				if math.Abs(f-fh) > 1e-12*math.Abs(fh) || dist(g, gh) > 1e-12 {
					t.Errorf("funcGrad = %v, %v; plain loops %v, %v", f, g, fh, gh)
				}
				// ∇²f·v by central differences of the plain loops' gradient
				const h = 1e-5
				xp, xm := slices.Clone(x), slices.Clone(x)
				for j := range x {
					xp[j] += h * v[j]
					xm[j] -= h * v[j]
				}
				_, gp := uniLogHost(ds, xp, lambda)
				_, gm := uniLogHost(ds, xm, lambda)
				fd := make([]float64, d+1)
				for j := range fd {
					fd[j] = (gp[j] - gm[j]) / (2 * h)
				}
				hv := make([]float64, d+1)
				p.hess(v, lambda, hv)
				if e := dist(hv, fd); e > 1e-7 {
					t.Errorf("∇²f·v off the finite differences by %.3g (relative)", e)
				}
				// the gradient after a step of 0.3 along v, from the scores moved with it
				x2, g2 := slices.Clone(x), make([]float64, d+1)
				for j := range x2 {
					x2[j] += 0.3 * v[j]
				}
				p.pass.scores(v[:d], p.xs)
				p.step(x2, 0.3, v[d], lambda, g2)
				if _, gh2 := uniLogHost(ds, x2, lambda); dist(g2, gh2) > 1e-12 {
					t.Errorf("the gradient after a step %v, plain loops %v", g2, gh2)
				}
				p.funcGrad(x, lambda, g)
				// the diagonal: e_jᵀ∇²f e_j
				m := make([]float64, d+1)
				p.diag(lambda, m)
				for j := range m {
					e := make([]float64, d+1)
					e[j] = 1
					p.hess(e, lambda, hv)
					if math.Abs(m[j]-hv[j]) > 1e-12*max(1, math.Abs(hv[j])) {
						t.Errorf("diagonal %d = %v, e_jᵀ∇²f e_j = %v", j, m[j], hv[j])
					}
				}
			})
		}
	}
}

// TestUniLogOracle: at a tight eps the Newton solver's (w, b) is the L-BFGS oracle's
// to 10⁻⁶ (relative), and at the default eps its gradient, by the plain loops, meets
// LIBLINEAR's rule, on every set and backend.
func TestUniLogOracle(t *testing.T) {
	for _, tc := range unilogSets() {
		want := uniLogLBFGS(t, tc.ds, tc.lambda)
		_, g0 := uniLogHost(tc.ds, make([]float64, tc.ds.Dim+1), tc.lambda)
		pos, neg := tc.ds.Counts()
		for _, b := range unilogBackends(t) {
			t.Run(fmt.Sprintf("%s/%s/%T", tc.name, b.Name(), b), func(t *testing.T) {
				for _, eps := range []float64{1e-7, 0.01} {
					u, err := NewUniLog(b, tc.ds.Dim, UniLogParams{Lambda: tc.lambda, Eps: eps, Iters: 1000}, 0)
					if err != nil {
						t.Fatal(err)
					}
					if err := u.Fit(context.Background(), tc.ds); err != nil {
						t.Fatal(err)
					}
					got := append(u.Weights(), u.Bias())
					_, g := uniLogHost(tc.ds, got, tc.lambda)
					rel := math.Sqrt(hostDot(g, g)) / math.Sqrt(hostDot(g0, g0))
					t.Logf("eps %g: %d Newton steps, %d CG steps, ‖∇f‖/‖∇f(0)‖ %.2g, ‖x − x*‖/‖x*‖ %.2g",
						eps, u.Iterations(), u.CGIterations(), rel, dist(got, want))
					if limit := eps * float64(max(min(pos, neg), 1)) / float64(tc.ds.Rows()); !u.Converged() || rel > limit*(1+1e-6) {
						t.Errorf("eps %g: converged %t, ‖∇f‖/‖∇f(0)‖ = %.3g, want ≤ %.3g", eps, u.Converged(), rel, limit)
					}
					if e := dist(got, want); eps < 1e-3 && e > 1e-6 {
						t.Errorf("‖x − x*‖/‖x*‖ = %.3g, want ≤ 1e-6", e)
					}
				}
			})
		}
	}
}

// TestUniLogCores: the same bits on one core as on all, on sparse rows split in parts
// (sparseProduct) and dense rows (fusedProduct).
func TestUniLogCores(t *testing.T) {
	sp := hashedSparse(20000, 64, 5, false, 4)
	if p := sparseParts(sp.Rows(), 64, sp.Nnz()); p < 2 {
		t.Fatalf("%d parts, want several", p)
	}
	for _, ds := range []*data.Dataset{sp, sp.ToDense()} {
		for _, b := range testBackends(t) {
			fit := func(procs int) []float64 {
				prev := runtime.GOMAXPROCS(procs)
				defer runtime.GOMAXPROCS(prev)
				u, err := NewUniLog(b, ds.Dim, UniLogParams{Lambda: 1e-4, Eps: 1e-4, Iters: 1000}, 0)
				if err != nil {
					t.Fatal(err)
				}
				if err := u.Fit(context.Background(), ds); err != nil {
					t.Fatal(err)
				}
				return append(u.Weights(), u.Bias())
			}
			if one, all := fit(1), fit(4); !slices.Equal(one, all) {
				t.Errorf("%s dense=%t: one core's weights differ from four's by %.3g", b.Name(), ds.IsDense(), dist(one, all))
			}
		}
	}
}

// TestUniLogFitGrid: the warm-started λ path gives every point the solution a cold
// Fit gives (to 10⁻⁶ at a tight eps), in the caller's order, a point's own error for
// an invalid λ, and declines points that differ in eps or iters.
func TestUniLogFitGrid(t *testing.T) {
	ds := randomSparse(500, 10, 0.3, 0.3, 7)
	spec, err := Lookup("unilog")
	if err != nil {
		t.Fatal(err)
	}
	lambdas := []float64{1e-4, 1, -1, 1e-2}
	params := make([]Params, len(lambdas))
	for g, l := range lambdas {
		params[g] = spec.Params()
		*params[g].ptr.(*UniLogParams) = UniLogParams{Lambda: l, Eps: 1e-9, Iters: 1000}
	}
	for _, b := range testBackends(t) {
		u, err := NewUniLog(b, ds.Dim, *params[0].ptr.(*UniLogParams), 0)
		if err != nil {
			t.Fatal(err)
		}
		ws, errs, ok, err := u.FitGrid(context.Background(), ds, params)
		if err != nil || !ok {
			t.Fatalf("FitGrid: ok %t, %v", ok, err)
		}
		for g, l := range lambdas {
			if l < 0 {
				if errs[g] == nil || ws[g] != nil {
					t.Errorf("λ = %g: no error", l)
				}
				continue
			}
			one, _ := NewUniLog(b, ds.Dim, UniLogParams{Lambda: l, Eps: 1e-9, Iters: 1000}, 0)
			if err := one.Fit(context.Background(), ds); err != nil {
				t.Fatal(err)
			}
			if errs[g] != nil || dist(ws[g], one.Weights()) > 1e-6 {
				t.Errorf("%s λ = %g: path %v (%v), cold fit %v", b.Name(), l, ws[g], errs[g], one.Weights())
			}
		}
		other := slices.Clone(params)
		other[1] = spec.Params()
		*other[1].ptr.(*UniLogParams) = UniLogParams{Lambda: 1, Eps: 1e-9, Iters: 7}
		if _, _, ok, err := u.FitGrid(context.Background(), ds, other); ok || err != nil {
			t.Errorf("points with different iters: ok %t, %v; want declined", ok, err)
		}
	}
}

// TestUniLogBiasReg: with bias-reg r the bias is in the ℓ2 term, (λ/2)·r·b² (r = 1:
// LIBLINEAR's -B 1), and Newton's method reaches the stationary point of that objective
// (the host gradient plus λ·r·b on the bias) to eps 10⁻⁷; r = 0 is the free bias's fit
// bit for bit; a negative r is refused.
func TestUniLogBiasReg(t *testing.T) {
	for _, tc := range unilogSets() {
		b := unilogBackends(t)[0]
		_, g0 := uniLogHost(tc.ds, make([]float64, tc.ds.Dim+1), tc.lambda)
		fit := func(r float64) []float64 {
			u, err := NewUniLog(b, tc.ds.Dim, UniLogParams{Lambda: tc.lambda, Eps: 1e-7, Iters: 1000, BiasReg: r}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Fit(context.Background(), tc.ds); err != nil {
				t.Fatal(err)
			}
			return append(u.Weights(), u.Bias())
		}
		for _, r := range []float64{0.5, 1} {
			got := fit(r)
			_, g := uniLogHost(tc.ds, got, tc.lambda)
			g[len(g)-1] += tc.lambda * r * got[len(got)-1]
			if rel := math.Sqrt(hostDot(g, g)) / math.Sqrt(hostDot(g0, g0)); rel > 1e-6 {
				t.Errorf("%s r=%g: ‖∇f‖/‖∇f(0)‖ = %.3g at the fit", tc.name, r, rel)
			}
		}
		u0, err := NewUniLog(b, tc.ds.Dim, UniLogParams{Lambda: tc.lambda, Eps: 1e-7, Iters: 1000}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := u0.Fit(context.Background(), tc.ds); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(fit(0), append(u0.Weights(), u0.Bias())) {
			t.Errorf("%s: bias-reg 0 differs from the default fit", tc.name)
		}
	}
	if _, err := NewUniLog(nil, 3, UniLogParams{Lambda: 1, Eps: 0.01, Iters: 10, ClassWeight: ClassWeightBalanced, BiasReg: -1}, 0); err == nil {
		t.Error("bias-reg -1 accepted")
	}
}
