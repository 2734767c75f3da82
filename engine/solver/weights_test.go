package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

// fitBatch fits algorithm name at params on ds with the generic backend.
func fitBatch(t *testing.T, name string, params []string, ds *data.Dataset) ([]float64, error) {
	t.Helper()
	spec, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p := spec.Params()
	if err := p.SetAll(params); err != nil {
		t.Fatal(err)
	}
	l, err := spec.NewBatch(fallback.New(), ds.Dim, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Fit(context.Background(), ds); err != nil {
		return nil, err
	}
	return l.Weights(), nil
}

// repeated returns ds with integer weights 0…3 drawn by seed (each class's first row
// weighing 2, so that both classes stay), and the same rows each repeated its weight's
// times without weights.
func repeated(ds *data.Dataset, seed uint64) (weighted, dup *data.Dataset) {
	r := rand.New(rand.NewPCG(seed, 7))
	w := make([]float64, ds.Rows())
	var rows []int
	first := map[int8]bool{}
	for i := range w {
		w[i] = float64(r.IntN(4))
		if !first[ds.Y[i]] {
			w[i], first[ds.Y[i]] = 2, true
		}
		for range int(w[i]) {
			rows = append(rows, i)
		}
	}
	weighted = ds.Subset(allRows(ds.Rows()))
	if err := weighted.SetWeights(w); err != nil {
		panic(err)
	}
	return weighted, ds.Subset(rows)
}

func allRows(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// weightedLearners are the algorithms and parameters that take sample weights, each
// path of their fits: unilog's Newton-CG, ls-auc's moments and its conjugate gradients
// on the rows (steps), MBA with every pair by Cholesky (ℓ2) and coordinate descent
// (ℓ1, elastic net).
var weightedLearners = []struct {
	name   string
	params []string
	tol    float64 // relative distance allowed between weighted and repeated rows
}{
	{"unilog", []string{"eps=1e-3"}, 1e-12},
	{"unilog", []string{"class-weight=1:3"}, 1e-12},
	{"ls-auc", nil, 1e-12},
	{"ls-auc", []string{"steps=5"}, 1e-12},
	{"mba-l2", []string{"pairs=all"}, 1e-12},
	{"mba-l1", []string{"pairs=all", "lambda1=1e-3"}, 1e-12},
	{"mba-el", []string{"pairs=all"}, 1e-12},
	// OCAS stops within eps of min F, along a path of discrete choices (the QP's pairs,
	// the line search) that rounding can flip: F − F* ≤ eps bounds ‖w − w*‖ by
	// √(2·eps/λ) = 1.4·10⁻⁴ here. rocHinge's weighted planes are exact (TestRocHingeWeighted).
	{"svm-or", []string{"lambda=1e-2", "eps=1e-10", "iters=10000"}, 1e-4},
}

// TestSampleWeightsAreRepeatedRows: an integer sample weight k is the row repeated k
// times (0: the row left out), to 1e-12 relative, on sparse and dense rows; weights
// all 1 are no weights, bit for bit.
func TestSampleWeightsAreRepeatedRows(t *testing.T) {
	base := gaussian(120, 6, 0.3, 1.5, 11)
	for _, tc := range weightedLearners {
		for _, dense := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s%v/dense=%v", tc.name, tc.params, dense), func(t *testing.T) {
				if ok, why := TakesSampleWeights(tc.name, paramsFor(t, tc.name, tc.params)); !ok {
					t.Fatalf("TakesSampleWeights = false (%s)", why)
				}
				ds := base
				if dense {
					ds = ds.ToDense()
				}
				weighted, dup := repeated(ds, 3)
				ww, err := fitBatch(t, tc.name, tc.params, weighted)
				if err != nil {
					t.Fatal(err)
				}
				wd, err := fitBatch(t, tc.name, tc.params, dup)
				if err != nil {
					t.Fatal(err)
				}
				if e := dist(ww, wd); e > tc.tol {
					t.Errorf("weighted and repeated rows differ by %.3g (relative): %v against %v", e, ww, wd)
				}
				ones := ds.Subset(allRows(ds.Rows()))
				if err := ones.SetWeights(slices.Repeat([]float64{1}, ds.Rows())); err != nil {
					t.Fatal(err)
				}
				w1, err := fitBatch(t, tc.name, tc.params, ones)
				if err != nil {
					t.Fatal(err)
				}
				w0, err := fitBatch(t, tc.name, tc.params, ds)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(w1, w0) {
					t.Errorf("weights all 1 give %v, no weights %v", w1, w0)
				}
			})
		}
	}
}

func paramsFor(t *testing.T, name string, kv []string) Params {
	t.Helper()
	spec, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	p := spec.Params()
	if err := p.SetAll(kv); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSampleWeightsRefused: learners whose objective does not take the weights refuse
// them (ErrWeights), and a class of zero total weight is a single class.
func TestSampleWeightsRefused(t *testing.T) {
	ds := gaussian(60, 4, 0.4, 1, 5)
	w := make([]float64, ds.Rows())
	for i := range w {
		w[i] = float64(1 + i%2)
	}
	if err := ds.SetWeights(w); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		params []string
	}{
		{"spdam", nil}, {"ubauc-batch", nil}, {"mb-psl", nil}, {"mb-phl", nil},
		{"mba-l2", []string{"pairs=sampled"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ok, _ := TakesSampleWeights(tc.name, paramsFor(t, tc.name, tc.params)); ok {
				t.Error("TakesSampleWeights = true")
			}
			if _, err := fitBatch(t, tc.name, tc.params, ds); !errors.Is(err, ErrWeights) {
				t.Errorf("Fit = %v, want ErrWeights", err)
			}
		})
	}
	zero := ds.Subset(allRows(ds.Rows()))
	zw := slices.Clone(w)
	for i, y := range zero.Y {
		if y == 1 {
			zw[i] = 0
		}
	}
	if err := zero.SetWeights(zw); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"unilog", "ls-auc"} {
		if _, err := fitBatch(t, name, nil, zero); !errors.Is(err, ErrOneClass) {
			t.Errorf("%s on positives of weight 0: %v, want ErrOneClass", name, err)
		}
	}
}

// TestUniLogClassWeights: balanced is n/(2·n_c) per class (the explicit P:N of those
// values fits the default to rounding); P:N is the ratio of the classes' terms (1:3 is
// 1:1 with every negative weighing 3, at λ scaled by the totals' ratio); bad values are
// parameter errors; pairwise learners take no class weights.
func TestUniLogClassWeights(t *testing.T) {
	ds := gaussian(150, 5, 0.25, 1.2, 9)
	pos, neg := ds.Counts()
	n := float64(pos + neg)
	tight := "eps=1e-9"
	def, err := fitBatch(t, "unilog", []string{tight}, ds)
	if err != nil {
		t.Fatal(err)
	}
	bal := fmt.Sprintf("class-weight=%v:%v", n/(2*float64(pos)), n/(2*float64(neg)))
	wb, err := fitBatch(t, "unilog", []string{tight, bal}, ds)
	if err != nil {
		t.Fatal(err)
	}
	if e := dist(wb, def); e > 1e-7 { // the same objective to rounding, Newton stopped at eps
		t.Errorf("%s differs from balanced by %.3g", bal, e)
	}
	w13, err := fitBatch(t, "unilog", []string{tight, "class-weight=1:3"}, ds)
	if err != nil {
		t.Fatal(err)
	}
	sw := make([]float64, ds.Rows())
	for i, y := range ds.Y {
		sw[i] = 1
		if y == -1 {
			sw[i] = 3
		}
	}
	neg3 := ds.Subset(allRows(ds.Rows()))
	if err := neg3.SetWeights(sw); err != nil {
		t.Fatal(err)
	}
	lambda := 1e-2 * n / (float64(pos) + 3*float64(neg))
	w11, err := fitBatch(t, "unilog", []string{tight, "class-weight=1:1", fmt.Sprintf("lambda=%v", lambda)}, neg3)
	if err != nil {
		t.Fatal(err)
	}
	if e := dist(w13, w11); e > 1e-7 {
		t.Errorf("class weights 1:3 and sample weights 3 on negatives differ by %.3g", e)
	}
	if dist(w13, def) < 1e-3 {
		t.Error("class weights 1:3 fit the balanced weights")
	}
	for _, bad := range []string{"1", "0:1", "1:-2", "a:b", "1:inf", "balance"} {
		spec, _ := Lookup("unilog")
		p := spec.Params()
		if err := p.Set(ClassWeightKey, bad); err != nil {
			t.Fatal(err)
		}
		if _, err := spec.NewBatch(fallback.New(), 3, p, 1); !errors.Is(err, ErrParam) {
			t.Errorf("class-weight=%s: %v, want ErrParam", bad, err)
		}
	}
	if ok, _ := TakesClassWeights("unilog"); !ok {
		t.Error("unilog takes no class weights")
	}
	for _, name := range []string{"ls-auc", "opauc", "mba-l2", "svm-or"} {
		ok, why := TakesClassWeights(name)
		if ok || !strings.Contains(why, "pairwise") {
			t.Errorf("TakesClassWeights(%s) = %v, %q", name, ok, why)
		}
	}
	for _, name := range Names() {
		if ok, _ := TakesClassWeights(name); ok {
			if _, err := Lookup(name); err != nil {
				t.Error(err)
			}
			if !slices.Contains(paramsFor(t, name, nil).Keys(), ClassWeightKey) {
				t.Errorf("%s takes class weights but has no %s parameter", name, ClassWeightKey)
			}
		}
	}
}

// TestRocHingeWeighted: the weighted pairwise hinge risk, its offset and its
// subgradient's coefficients (summed over a row's copies) are the repeated rows'.
func TestRocHingeWeighted(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{7, 40, 600} { // 600: the radix sort
		s, y, w := make([]float64, n), make([]int8, n), make([]float64, n)
		var ds []float64
		var dy []int8
		var from []int
		for i := range n {
			s[i] = math.Round(r.NormFloat64()*8) / 4 // ties and margins hit exactly
			y[i] = int8(2*(i%3%2) - 1)
			w[i] = float64(r.IntN(4))
			if i < 2 {
				w[i] = 1
			}
			for range int(w[i]) {
				ds, dy, from = append(ds, s[i]), append(dy, y[i]), append(from, i)
			}
		}
		g, dg := make([]float64, n), make([]float64, len(ds))
		rw, bw := rocHinge(s, y, g, &hingeScratch{w: w})
		rd, bd := rocHinge(ds, dy, dg, &hingeScratch{})
		sum := make([]float64, n)
		for k, i := range from {
			sum[i] += dg[k]
		}
		if math.Abs(rw-rd) > 1e-13*math.Abs(rd) || math.Abs(bw-bd) > 1e-13*math.Abs(bd) {
			t.Errorf("n %d: R %v, b %v weighted; %v, %v repeated", n, rw, bw, rd, bd)
		}
		for i := range n {
			if math.Abs(g[i]-sum[i]) > 1e-13*(math.Abs(sum[i])+1e-300) {
				t.Fatalf("n %d: γ_%d = %v weighted, %v repeated", n, i, g[i], sum[i])
			}
		}
	}
}
