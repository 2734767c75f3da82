package solver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// randomSparse returns n rows of dimension d with about half the entries stored
// (normal values, the positives shifted by +shift), labels with positive share pos;
// both classes are present.
func randomSparse(n, d int, pos, shift float64, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 7))
	ds := &data.Dataset{Name: "random", Dim: d, Ptr: []int64{0}}
	for i := range n {
		y := int8(-1)
		if i == 0 || (i > 1 && r.Float64() < pos) {
			y = 1
		}
		var x kernels.Sparse
		for j := range d {
			if r.Float64() < 0.5 {
				x.Idx = append(x.Idx, int32(j))
				x.Val = append(x.Val, r.NormFloat64()+float64(y)*shift)
			}
		}
		ds.Append(y, float64(y), x)
	}
	ds.Dim = d
	return ds
}

// forPairs calls f(i, j) for every pair of a positive row i and a negative row j of ds.
func forPairs(ds *data.Dataset, f func(i, j int)) {
	for i := range ds.Rows() {
		if ds.Y[i] != 1 {
			continue
		}
		for j := range ds.Rows() {
			if ds.Y[j] == -1 {
				f(i, j)
			}
		}
	}
}

// pairs returns the explicit pair differences z = x_i − x_j (i positive, j negative)
// of ds as dense rows.
func pairs(ds *data.Dataset) [][]float64 {
	dd := ds.ToDense()
	var z [][]float64
	forPairs(dd, func(i, j int) {
		row := make([]float64, dd.Dim)
		for k := range row {
			row[k] = dd.DenseRow(i)[k] - dd.DenseRow(j)[k]
		}
		z = append(z, row)
	})
	return z
}

// bruteSquare solves the normal equations of the explicit pair sum
// 1/(2N) Σ (1 − w·z)² + (λ/2)‖w‖²: (Σ zzᵀ/N + λI) w = Σ z/N.
func bruteSquare(t *testing.T, ds *data.Dataset, lambda float64) []float64 {
	t.Helper()
	z := pairs(ds)
	d, nf := ds.Dim, float64(len(z))
	a := mat.NewDense(d, d, nil)
	rhs := mat.NewVecDense(d, nil)
	for _, row := range z {
		for p := range d {
			rhs.SetVec(p, rhs.AtVec(p)+row[p]/nf)
			for q := range d {
				a.Set(p, q, a.At(p, q)+row[p]*row[q]/nf)
			}
		}
	}
	for p := range d {
		a.Set(p, p, a.At(p, p)+lambda)
	}
	var w mat.VecDense
	if err := w.SolveVec(a, rhs); err != nil {
		t.Fatal(err)
	}
	return w.RawVector().Data
}

// TestLSAUCBruteForce: B-LS-SVM's Cholesky solution is the explicit pair sum's to
// 10⁻⁹; fitCG, its solver above LSAUCDirectMax features, called on the same data gives
// it to 10⁻⁶ (its relative residual is 10⁻⁸), λ = 0 included, and in an order the bits
// of the reordered copy.
func TestLSAUCBruteForce(t *testing.T) {
	for _, b := range testBackends(t) {
		for _, tc := range []struct {
			name   string
			n, d   int
			lambda float64
			dense  bool
		}{
			{"sparse/lambda=0.1", 60, 5, 0.1, false},
			{"sparse/lambda=0", 60, 5, 0, false},
			{"dense/lambda=1e-3", 70, 7, 1e-3, true},
			{"blocks", 2500, 3, 1e-2, false}, // more rows of each class than a block
			{"sparse/d=40", 300, 40, 1e-4, false},
		} {
			t.Run(b.Name()+"/"+tc.name, func(t *testing.T) {
				ds := randomSparse(tc.n, tc.d, 0.3, 0.5, 1)
				if tc.dense {
					ds = ds.ToDense()
				}
				l, err := NewLSAUC(b, tc.d, LSAUCParams{Lambda: tc.lambda}, 0)
				if err != nil {
					t.Fatal(err)
				}
				if err := l.Fit(context.Background(), ds); err != nil {
					t.Fatal(err)
				}
				want := bruteSquare(t, ds, tc.lambda)
				if e := dist(l.Weights(), want); e > 1e-9 {
					t.Errorf("‖w − w_brute‖/‖w_brute‖ = %.3g, want ≤ 1e-9", e)
				}
				cg, _ := NewLSAUC(b, tc.d, LSAUCParams{Lambda: tc.lambda}, 0)
				if err := cg.fitCG(context.Background(), ds); err != nil {
					t.Fatal(err)
				}
				if e := dist(cg.Weights(), want); e > 1e-6 {
					t.Errorf("conjugate gradients: ‖w − w_brute‖/‖w_brute‖ = %.3g, want ≤ 1e-6", e)
				}
				// Conjugate gradients read the rows as stored whatever the order (early
				// stopping takes them at any size): the same bits in any order, and the
				// reordered copy's iterate to rounding.
				order := data.Shuffle(ds.Rows(), 5)
				p := LSAUCParams{Lambda: tc.lambda, Steps: 3}
				stored, ordered, copied := mustLSAUC(t, b, tc.d, p), mustLSAUC(t, b, tc.d, p), mustLSAUC(t, b, tc.d, p)
				if err := stored.FitOrdered(context.Background(), ds, nil); err != nil {
					t.Fatal(err)
				}
				if err := ordered.FitOrdered(context.Background(), ds, order); err != nil {
					t.Fatal(err)
				}
				if err := copied.Fit(context.Background(), ds.Subset(order)); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(stored.Weights(), ordered.Weights()) {
					t.Error("conjugate gradients in an order: not the bits of the stored order")
				}
				if e := dist(ordered.Weights(), copied.Weights()); e > 1e-12 {
					t.Errorf("conjugate gradients on the reordered copy: %.3g off (relative), want rounding", e)
				}
			})
		}
	}
}

// mustLSAUC makes an LS-AUC learner or fails the test.
func mustLSAUC(t *testing.T, b kernels.Backend, d int, p LSAUCParams) *LSAUC {
	t.Helper()
	l, err := NewLSAUC(b, d, p, 0)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestMBPSLOracle: MB-PSL's last iterate approaches the oracle of the same λ as T grows.
func TestMBPSLOracle(t *testing.T) {
	const lambda = 1e-2
	ds := gaussian(2000, 5, 0.3, 1, 4)
	want := oracle(t, ds, lambda)
	var prev float64
	for k, T := range []int{100, 1000, 10000} {
		m, err := NewMBPSL(fallback.New(), ds.Dim, MBPairParams{Eta: 0.1, B: 10, T: T, Lambda: lambda}, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Fit(context.Background(), ds); err != nil {
			t.Fatal(err)
		}
		e := dist(m.Weights(), want)
		t.Logf("T = %5d: ‖w − w*‖/‖w*‖ = %.4f", T, e)
		if k > 0 && !(e < prev) {
			t.Errorf("T = %d: distance %.4f did not fall below %.4f", T, e, prev)
		}
		prev = e
	}
	if prev > 0.05 {
		t.Errorf("T = 10000: distance %.4f, want ≤ 0.05", prev)
	}
}

// TestBatchLayouts: every batch baseline gives the same weights on the sparse and the
// dense layout of a dataset, on every backend.
func TestBatchLayouts(t *testing.T) {
	ds := randomSparse(300, 8, 0.3, 0.4, 6)
	dense := ds.ToDense()
	for _, name := range []string{"ls-auc", "unilog", "mb-psl", "mb-phl", "svm-or"} {
		spec, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		p := spec.Params()
		switch spec.Name {
		case "mb-psl", "mb-phl":
			err = p.SetAll([]string{"T=200"})
		case "svm-or":
			// Its weights are determined only to within the gap (sort ties and
			// rounding pick other planes); a tiny gap pins them down.
			err = p.SetAll([]string{"lambda=0.1", "eps=1e-12"})
		}
		if err != nil {
			t.Fatal(err)
		}
		var ref []float64
		for _, b := range testBackends(t) {
			for _, d := range []*data.Dataset{ds, dense} {
				l, err := spec.NewBatch(b, ds.Dim, p, 9)
				if err != nil {
					t.Fatal(err)
				}
				if err := l.Fit(context.Background(), d); err != nil {
					t.Fatalf("%s on %s: %v", name, b.Name(), err)
				}
				w := l.Weights()
				if ref == nil {
					ref = w
				} else if e := dist(w, ref); e > 1e-8 {
					t.Errorf("%s, %s, dense %t: weights differ from generic/sparse by %.3g", name, b.Name(), d.IsDense(), e)
				}
			}
		}
	}
}

func TestBatchDeterminism(t *testing.T) {
	ds := randomSparse(300, 8, 0.3, 0.4, 6)
	for _, newFn := range []func(kernels.Backend, int, MBPairParams, uint64) (*MBPair, error){NewMBPSL, NewMBPHL} {
		p := DefaultMBPSLParams()
		p.T = 100
		fit := func(seed uint64) []float64 {
			m, err := newFn(fallback.New(), ds.Dim, p, seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Fit(context.Background(), ds); err != nil {
				t.Fatal(err)
			}
			return m.Weights()
		}
		checkSeeded(t, fit, 1, 2)
	}
}

func TestBatchErrors(t *testing.T) {
	b := fallback.New()
	bad := []struct {
		name string
		mk   func() error
	}{
		{"ls-auc lambda<0", func() error { _, err := NewLSAUC(b, 3, LSAUCParams{Lambda: -1}, 0); return err }},
		{"ls-auc dim", func() error { _, err := NewLSAUC(b, 0, DefaultLSAUCParams(), 0); return err }},
		{"unilog lambda<0", func() error { _, err := NewUniLog(b, 3, UniLogParams{Lambda: -1, Eps: 0.01, Iters: 10}, 0); return err }},
		{"unilog eps", func() error { _, err := NewUniLog(b, 3, UniLogParams{Lambda: 1, Eps: 0, Iters: 10}, 0); return err }},
		{"unilog eps=1", func() error { _, err := NewUniLog(b, 3, UniLogParams{Lambda: 1, Eps: 1, Iters: 10}, 0); return err }},
		{"unilog iters", func() error { _, err := NewUniLog(b, 3, UniLogParams{Lambda: 1, Eps: 0.01, Iters: 0}, 0); return err }},
		{"mb-psl B", func() error { _, err := NewMBPSL(b, 3, MBPairParams{Eta: 1, B: 0, T: 1}, 0); return err }},
		{"mb-psl T", func() error { _, err := NewMBPSL(b, 3, MBPairParams{Eta: 1, B: 1, T: 0}, 0); return err }},
		{"mb-phl eta", func() error { _, err := NewMBPHL(b, 3, MBPairParams{Eta: 0, B: 1, T: 1}, 0); return err }},
		{"mb-phl lambda<0", func() error { _, err := NewMBPHL(b, 3, MBPairParams{Eta: 1, B: 1, T: 1, Lambda: -1}, 0); return err }},
		{"mb-phl eta*lambda", func() error { _, err := NewMBPHL(b, 3, MBPairParams{Eta: 1, B: 1, T: 1, Lambda: 1}, 0); return err }},
		{"svm-or lambda=0", func() error { _, err := NewSVMOR(b, 3, SVMORParams{Lambda: 0, Eps: 1e-3, Iters: 10}, 0); return err }},
		{"svm-or eps", func() error { _, err := NewSVMOR(b, 3, SVMORParams{Lambda: 1, Eps: 0, Iters: 10}, 0); return err }},
		{"svm-or iters", func() error { _, err := NewSVMOR(b, 3, SVMORParams{Lambda: 1, Eps: 1, Iters: 0}, 0); return err }},
	}
	for _, tc := range bad {
		if err := tc.mk(); !errors.Is(err, ErrParam) {
			t.Errorf("%s: error %v, want ErrParam", tc.name, err)
		}
	}

	// the square loss's steps grow geometrically when η₀ is far too large
	if m, err := NewMBPSL(b, 3, MBPairParams{Eta: 1e3, B: 4, T: 500}, 0); err != nil {
		t.Fatal(err)
	} else if err := m.Fit(context.Background(), randomSparse(50, 3, 0.5, 0, 1)); !errors.Is(err, ErrDiverged) {
		t.Errorf("mb-psl with η₀ = 1000: error %v, want ErrDiverged", err)
	}

	one := randomSparse(20, 3, 0, 0, 1).Subset([]int{1, 2, 3, 4, 5}) // negatives only
	if p, _ := one.Counts(); p != 0 {
		t.Fatalf("test set has %d positives", p)
	}
	two := randomSparse(50, 3, 0.5, 0.5, 1)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, spec := range Registry() {
		if !spec.IsBatch() || !slices.Contains([]string{"ls-auc", "unilog", "mb-psl", "mb-phl", "svm-or"}, spec.Name) {
			continue
		}
		l, err := spec.NewBatch(b, 3, spec.Params(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Fit(context.Background(), one); !errors.Is(err, ErrOneClass) {
			t.Errorf("%s on one class: error %v, want ErrOneClass", spec.Name, err)
		}
		if err := l.Fit(cancelled, two); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", spec.Name, err)
		}
		if w := l.Weights(); len(w) != 3 || slices.ContainsFunc(w, func(v float64) bool { return v != 0 }) {
			t.Errorf("%s: weights %v after failed fits, want zeros", spec.Name, w)
		}
		wide := randomSparse(20, 5, 0.5, 0, 1)
		if err := l.Fit(context.Background(), wide); err == nil {
			t.Errorf("%s: no error on a dataset of dimension 5 for a learner of 3", spec.Name)
		}
	}
}

// TestBatchBaselinesA9A: test AUC on a9a (scaled to [−1, 1]) with the defaults.
func TestBatchBaselinesA9A(t *testing.T) {
	if testing.Short() {
		t.Skip("a9a fits take seconds; skipped with -short")
	}
	train, test := a9a(t)
	for _, tc := range []struct {
		name string
		min  float64
	}{
		{"ls-auc", 0.89}, {"unilog", 0.89}, {"mb-psl", 0.88}, {"mb-phl", 0.88}, {"svm-or", 0.89},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := Lookup(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			l, err := spec.NewBatch(testBackends(t)[len(testBackends(t))-1], train.Dim, spec.Params(), 1)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if err := l.Fit(context.Background(), train); err != nil {
				t.Fatal(err)
			}
			el := time.Since(start)
			auc := testAUC(t, l.Weights(), test)
			extra := ""
			switch s := l.(type) {
			case *UniLog:
				extra = fmt.Sprintf(" (%d Newton steps, %d CG steps)", s.Iterations(), s.CGIterations())
			case *SVMOR:
				extra = fmt.Sprintf(" (%d planes, gap %.2g, F %.5f)", s.Iterations(), s.Gap(), s.Objective())
			}
			t.Logf("%s: test AUC %.4f in %v%s", tc.name, auc, el.Round(time.Millisecond), extra)
			if auc < tc.min {
				t.Errorf("test AUC %.4f, want ≥ %.2f", auc, tc.min)
			}
		})
	}
}

// TestUniLogBias: on uncentred features the logistic fit needs its bias. Shifting
// every row by a constant vector c changes no pairwise difference, so the AUC-optimal
// direction is unchanged; with the bias, Uni-Log's w is shift-invariant (the bias
// absorbs −w·c), without it w tilts towards c.
func TestUniLogBias(t *testing.T) {
	const lambda = 1e-3
	sp := gaussian(2000, 5, 0.3, 1, 6)
	ds, shifted := sp.ToDense(), sp.ToDense() // two copies
	for i := range shifted.Rows() {
		for j := range shifted.Dim {
			shifted.Dense[i*shifted.Dim+j] += 3 + float64(j)
		}
	}
	for _, b := range testBackends(t) {
		t.Run(b.Name(), func(t *testing.T) {
			var ws [2][]float64
			for k, d := range []*data.Dataset{ds, shifted} {
				u, err := NewUniLog(b, d.Dim, UniLogParams{Lambda: lambda, Eps: 1e-9, Iters: 2000}, 0)
				if err != nil {
					t.Fatal(err)
				}
				if err := u.Fit(context.Background(), d); err != nil {
					t.Fatal(err)
				}
				ws[k] = u.Weights()
			}
			if e := dist(ws[1], ws[0]); e > 1e-4 {
				t.Errorf("shifted rows: ‖w' − w‖/‖w‖ = %.3g, want ≤ 1e-4 (w %v, w' %v)", e, ws[0], ws[1])
			}
		})
	}
}

// TestMBPairFewRows: MB-PSL and MB-PHL on dense data of fewer rows than pairs per
// mini-batch (B = 100 pairs from 30 rows) gather rows more than once; they used to
// slice their per-row scratch past its end and panic.
func TestMBPairFewRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 30*4)
	y := make([]int8, 30)
	for i := range y {
		y[i] = 1 - 2*int8(i%2)
		for j := range 4 {
			x[i*4+j] = r.NormFloat64() + 0.5*float64(y[i])
		}
	}
	d, err := data.NewDense("few", 4, y, x)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range testBackends(t) {
		for _, hinge := range []bool{false, true} {
			m, err := newMBPair(b, 4, DefaultMBPSLParams(), 1, hinge)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Fit(context.Background(), d); err != nil {
				t.Fatalf("%s on %s: %v", m.name(), b.Name(), err)
			}
			if auc := testAUC(t, m.Weights(), d); auc < 0.8 {
				t.Errorf("%s on %s: training AUC %.3f", m.name(), b.Name(), auc)
			}
		}
	}
}
