package solver

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

// ubaucObjective evaluates objective (8) from its definition at w with λ chosen by
// brute force: the minimum over every score and every midpoint of adjacent scores (the
// λ-part is piecewise linear with its kinks at the scores).
func ubaucObjective(ds *data.Dataset, w []float64, beta, gamma float64) (f, lambda float64) {
	c := make([]float64, ds.Rows())
	for i := range c {
		r := ds.Row(i)
		for k, j := range r.Idx {
			c[i] += w[j] * r.Val[k]
		}
	}
	hinge := func(l float64) float64 {
		var h float64
		for i, ci := range c {
			h += max(float64(ds.Y[i])*(l-ci), 0)
		}
		return h
	}
	s := slices.Clone(c)
	slices.Sort(s)
	s = slices.Compact(s)
	best, lambda := math.Inf(1), 0.0
	// The kinks are a superset of the minimisers' interval ends; for large n test only
	// those near the sorted position N₋ (the slope k − N₋ changes sign there).
	_, nNeg := ds.Counts()
	lo, hi := 0, len(s)
	if len(s) > 400 {
		pos, _ := slices.BinarySearch(s, slices.Sorted(slices.Values(c))[nNeg-1])
		lo, hi = max(pos-100, 0), min(pos+100, len(s))
	}
	for k := lo; k < hi; k++ {
		for _, l := range []float64{s[k], 0.5 * (s[k] + s[min(k+1, len(s)-1)])} {
			if h := hinge(l); h < best {
				best, lambda = h, l
			}
		}
	}
	f = best + 0.5*gamma*hostDot(w, w)
	for i, ci := range c {
		e := 1 - float64(ds.Y[i])*ci
		f += 0.5 * beta * e * e
	}
	return f, lambda
}

// ubaucMonotone fails the test if the objective rose between iterations by more than
// the w-step's certified suboptimality (duality gap ≤ Tol/100 of its objective, which
// is (8) less βn/2).
func ubaucMonotone(t *testing.T, obj []float64, p UBAUCBatchParams, n int) {
	t.Helper()
	for k := 1; k < len(obj); k++ {
		slack := p.Tol / 100 * max(math.Abs(obj[k-1]-0.5*p.Beta*float64(n)), 1)
		if obj[k] > obj[k-1]+slack {
			t.Errorf("objective rose by %.3g (slack %.3g) at iteration %d: %v", obj[k]-obj[k-1], slack, k, obj)
		}
	}
}

// TestUBAUCLambdaStep: the λ-step's midpoint minimises Σ_i [y_i(λ − c_i)]₊, checked
// against every score and midpoint, ties included.
func TestUBAUCLambdaStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		n    int
		ties bool
	}{{"n=2", 2, false}, {"n=7", 7, false}, {"n=50 ties", 50, true}, {"n=301", 301, false}} {
		for trial := range 5 {
			c, y := make([]float64, tc.n), make([]int8, tc.n)
			nNeg := 0
			for i := range c {
				c[i] = rng.NormFloat64()
				if tc.ties {
					c[i] = math.Round(c[i] * 2)
				}
				y[i] = 1
				if i%2 == 0 || rng.Float64() < 0.3 {
					y[i], nNeg = -1, nNeg+1
				}
			}
			if nNeg == tc.n {
				y[0], nNeg = 1, nNeg-1
			}
			f := func(l float64) float64 {
				var h float64
				for i := range c {
					h += max(float64(y[i])*(l-c[i]), 0)
				}
				return h
			}
			got := f(ubaucLambda(c, nNeg))
			want := math.Inf(1)
			for _, a := range c {
				for _, b := range c {
					want = min(want, f(0.5*(a+b)))
				}
			}
			if got > want+1e-12 {
				t.Errorf("%s trial %d: λ-step value %v, want the minimum %v", tc.name, trial, got, want)
			}
		}
	}
}

// TestUBAUCBatchKKT checks the final w-step by its optimality conditions in the
// original variables, on every backend: Qw − q − Σ α_i z_i = 0 with α_i = 1 where
// y_iλ − z_i·w > 0 and α_i = 0 where it is < 0; the joint condition Σ y_i α_i ≈ 0; the
// descent's monotone objective, whose last value is (8) evaluated independently.
func TestUBAUCBatchKKT(t *testing.T) {
	for _, tc := range []struct {
		name        string
		ds          *data.Dataset
		beta, gamma float64
	}{
		{"gaussian", gaussian(400, 6, 0.3, 1, 11), 1, 1},
		{"gaussian beta=0.3", gaussian(300, 4, 0.5, 2, 12), 0.3, 0.1},
		{"gaussian beta=0", gaussian(300, 5, 0.4, 1, 13).ToSparse(), 0, 2},
	} {
		ds := tc.ds
		n, d := ds.Rows(), ds.Dim
		for _, be := range testBackends(t) {
			p := DefaultUBAUCBatchParams()
			p.Beta, p.Gamma = tc.beta, tc.gamma
			u, err := NewUBAUCBatch(be, d, p, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Fit(context.Background(), ds); err != nil {
				t.Fatalf("%s/%s: %v", tc.name, be.Name(), err)
			}
			st := u.Stats()
			w, lambda := u.Weights(), u.wLambda
			// Residual Qw − q − Σ α_i z_i and the margins, from the data.
			res := make([]float64, d)
			for j := range res {
				res[j] = tc.gamma * w[j]
			}
			var sumYA, scale float64
			for i := range n {
				x := make([]float64, d)
				r := ds.Row(i)
				for k, j := range r.Idx {
					x[j] = r.Val[k]
				}
				y := float64(ds.Y[i])
				xw := hostDot(x, w)
				for j := range res {
					res[j] += tc.beta*xw*x[j] - tc.beta*y*x[j] - u.alpha[i]*y*x[j]
				}
				scale += math.Abs(tc.beta * y * hostDot(x, x))
				if m := y*lambda - y*xw; m > 1e-7 && u.alpha[i] != 1 || m < -1e-7 && u.alpha[i] != 0 {
					t.Errorf("%s/%s: example %d: margin %.3g with α = %v", tc.name, be.Name(), i, m, u.alpha[i])
				}
				sumYA += y * u.alpha[i]
			}
			var rn float64
			for _, r := range res {
				rn = max(rn, math.Abs(r))
			}
			t.Logf("%s/%s: %d iterations, %d sweeps, %s; max|Qw − q − Zᵀα| = %.2e; Σ y_i α_i = %.2e; objective %v",
				tc.name, be.Name(), st.Iters, st.Epochs, st.Reason, rn, sumYA, st.Objective)
			if rn > 1e-5*(1+scale/float64(n)) {
				t.Errorf("%s/%s: stationarity residual %.3g", tc.name, be.Name(), rn)
			}
			if math.Abs(sumYA) > 1e-2 {
				t.Errorf("%s/%s: Σ y_i α_i = %.3g, want ≈ 0 (joint optimality in λ)", tc.name, be.Name(), sumYA)
			}
			ubaucMonotone(t, st.Objective, p, n)
			f, _ := ubaucObjective(ds, w, tc.beta, tc.gamma)
			if last := st.Objective[len(st.Objective)-1]; math.Abs(f-last) > 1e-8*f {
				t.Errorf("%s/%s: final objective %v, (8) evaluated from the data gives %v", tc.name, be.Name(), last, f)
			}
		}
	}
}

// TestUBAUCBatchA9a: on a9a (β = γ = 1) the objective decreases monotonically, ends
// below ol-UBAUC's objective (its weights with the best λ; 3 passes) and the test AUC
// is at least .89 (the paper's Table 2: ba-UBAUC .9009 ± .0041 on a9a).
func TestUBAUCBatchA9a(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: ba-UBAUC on a9a (~3 s)")
	}
	train, test := a9a(t)
	bs := testBackends(t)
	p := DefaultUBAUCBatchParams()
	u, err := NewUBAUCBatch(bs[len(bs)-1], train.Dim, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := u.Fit(context.Background(), train); err != nil {
		t.Fatal(err)
	}
	st := u.Stats()
	ubaucMonotone(t, st.Objective, p, train.Rows())
	fBatch, _ := ubaucObjective(train, u.Weights(), p.Beta, p.Gamma)
	ol, err := NewUBAUC(bs[0], train.Dim, UBAUCParams{Eta: 0.1, Beta: p.Beta, Gamma: p.Gamma}, 1)
	if err != nil {
		t.Fatal(err)
	}
	feed(t, ol, train, 3, 1)
	fOnline, _ := ubaucObjective(train, ol.Weights(), p.Beta, p.Gamma)
	auc, aucOnline := testAUC(t, u.Weights(), test), testAUC(t, ol.Weights(), test)
	t.Logf("ba-UBAUC: %d iterations, %d sweeps, %s, λ = %.4f, objective %v; (8) = %.6f, test AUC %.4f; ol-UBAUC: (8) = %.6f, test AUC %.4f",
		st.Iters, st.Epochs, st.Reason, st.Lambda, st.Objective, fBatch, auc, fOnline, aucOnline)
	if fBatch >= fOnline {
		t.Errorf("ba-UBAUC objective %v not below ol-UBAUC's %v", fBatch, fOnline)
	}
	if auc < 0.89 {
		t.Errorf("test AUC %.4f, want ≥ 0.89", auc)
	}
}

// TestUBAUCBatchIllConditioned: at β = 10⁻³, γ = 10⁻² (a point of UBAUCBatchGrid) on
// a9a the w-step's primal is about −4.4, so tol·|P| asks for a duality gap of
// 4.4·10⁻¹¹ that rounding leaves at 0.8–4·10⁻¹⁰; before the rounding floors the
// coordinate descent swept until cancelled (over 17 minutes in one experiment). It must
// now stop by its tolerance well within a minute, with a monotone objective.
func TestUBAUCBatchIllConditioned(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: ba-UBAUC on a9a")
	}
	train, _ := a9a(t)
	p := DefaultUBAUCBatchParams()
	p.Beta, p.Gamma = 1e-3, 1e-2
	u, err := NewUBAUCBatch(testBackends(t)[0], train.Dim, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := u.Fit(ctx, train); err != nil {
		t.Fatalf("fit: %v (stats %+v)", err, u.Stats())
	}
	st := u.Stats()
	t.Logf("%d iterations, %d sweeps, %s", st.Iters, st.Epochs, st.Reason)
	if st.Reason != "tolerance" {
		t.Errorf("stopped by %s, want tolerance", st.Reason)
	}
	ubaucMonotone(t, st.Objective, p, train.Rows())
}

func TestUBAUCBatchErrors(t *testing.T) {
	be := fallback.New()
	for _, tc := range []struct {
		name string
		edit func(*UBAUCBatchParams)
	}{
		{"beta<0", func(p *UBAUCBatchParams) { p.Beta = -1 }},
		{"gamma=0", func(p *UBAUCBatchParams) { p.Gamma = 0 }},
		{"gamma<0", func(p *UBAUCBatchParams) { p.Gamma = -1 }},
		{"gamma=inf", func(p *UBAUCBatchParams) { p.Gamma = math.Inf(1) }},
		{"iters=0", func(p *UBAUCBatchParams) { p.Iters = 0 }},
		{"tol=0", func(p *UBAUCBatchParams) { p.Tol = 0 }},
	} {
		p := DefaultUBAUCBatchParams()
		tc.edit(&p)
		if _, err := NewUBAUCBatch(be, 3, p, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%s: error %v, want ErrParam", tc.name, err)
		}
	}
	ds := gaussian(40, 3, 0.5, 1, 1)
	oneClass := ds.Subset(slices.DeleteFunc(seqInts(ds.Rows()), func(i int) bool { return ds.Y[i] == 1 }))
	u, _ := NewUBAUCBatch(be, 3, DefaultUBAUCBatchParams(), 1)
	if err := u.Fit(context.Background(), oneClass); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: error %v, want ErrOneClass", err)
	}
	if err := u.Fit(context.Background(), gaussian(10, 4, 0.5, 1, 1)); err == nil {
		t.Error("dimension mismatch: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := u.Fit(ctx, ds); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// TestUBAUCBatchDeterminism: a seed gives the same weights twice, refits included.
func TestUBAUCBatchDeterminism(t *testing.T) {
	ds := gaussian(300, 5, 0.3, 1, 21)
	fit := func() []float64 {
		u, err := NewUBAUCBatch(fallback.New(), ds.Dim, DefaultUBAUCBatchParams(), 7)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := u.Fit(context.Background(), ds); err != nil {
				t.Fatal(err)
			}
		}
		return u.Weights()
	}
	if a, b := fit(), fit(); !slices.Equal(a, b) {
		t.Errorf("same seed: %v and %v", a, b)
	}
}

// TestUBAUCBatchZeroModel: where β is so small that (8) is minimised at w = 0, the fit
// returns exactly w = 0 (and λ = 0), not the rounding residue of the dual's sum; with
// β = 1 on the same data it does not.
func TestUBAUCBatchZeroModel(t *testing.T) {
	ds := gaussian(400, 6, 0.3, 1, 11)
	for _, be := range testBackends(t) {
		for _, beta := range []float64{1e-3, 1} {
			p := DefaultUBAUCBatchParams()
			p.Beta = beta
			u, err := NewUBAUCBatch(be, ds.Dim, p, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Fit(context.Background(), ds); err != nil {
				t.Fatal(err)
			}
			zero := !slices.ContainsFunc(u.Weights(), func(w float64) bool { return w != 0 })
			if zero != (beta < 1) || zero && u.Threshold() != 0 {
				t.Errorf("%s β=%g: weights %v, threshold %v; want zero: %v", be.Name(), beta, u.Weights(), u.Threshold(), beta < 1)
			}
		}
	}
}

// TestUBAUCBatchCenter: with Center, ba-UBAUC fits (8) to the centred rows: the same w
// as a fit without it on data centred beforehand, and Threshold = λ + w·x̄.
func TestUBAUCBatchCenter(t *testing.T) {
	ds := gaussian(400, 6, 0.3, 1, 5)
	n, d := ds.Rows(), ds.Dim
	mu := make([]float64, d)
	for i := range n {
		for j, v := range densify(ds.Row(i), d) {
			mu[j] += (v + 2) / float64(n) // the rows are shifted by 2 below
		}
	}
	shifted, centred := make([]float64, 0, n*d), make([]float64, 0, n*d)
	for i := range n {
		for j, v := range densify(ds.Row(i), d) {
			shifted = append(shifted, v+2)
			centred = append(centred, v+2-mu[j])
		}
	}
	raw, err := data.NewDense("shifted", d, ds.Y, shifted)
	if err != nil {
		t.Fatal(err)
	}
	pre, err := data.NewDense("centred", d, ds.Y, centred)
	if err != nil {
		t.Fatal(err)
	}
	fit := func(ds *data.Dataset, center bool) *UBAUCBatch {
		p := DefaultUBAUCBatchParams()
		p.Center = center
		u, err := NewUBAUCBatch(fallback.New(), d, p, 3)
		if err != nil {
			t.Fatal(err)
		}
		if err := u.Fit(context.Background(), ds); err != nil {
			t.Fatal(err)
		}
		return u
	}
	got, want := fit(raw, true), fit(pre, false)
	if e := maxRelDiff(got.Weights(), want.Weights()); e > 1e-6 {
		t.Errorf("w differs from the fit on centred data by %.3g: %v, %v", e, got.Weights(), want.Weights())
	}
	if lam := want.Threshold() + dotDense(want.Weights(), mu); math.Abs(got.Threshold()-lam) > 1e-6*max(1, math.Abs(lam)) {
		t.Errorf("threshold %v, want λ + w·x̄ = %v", got.Threshold(), lam)
	}
	if plain := fit(raw, false); maxRelDiff(plain.Weights(), got.Weights()) < 1e-3 {
		t.Error("centring changed nothing on shifted data")
	}
}
