package solver

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// testBackends returns the CPU backends to run a solver test on: generic always, avx2
// where it is built and the CPU has it.
func testBackends(t testing.TB) []kernels.Backend {
	t.Helper()
	bs := []kernels.Backend{fallback.New()}
	if a, err := asm.New(); err == nil {
		bs = append(bs, a)
	}
	return bs
}

var a9aOnce struct {
	sync.Once
	train, test *data.Dataset
	err         error
}

// a9a returns the embedded a9a split scaled to [−1, 1] (fitted on the training part),
// as the OPAUC paper prepares it. The datasets are shared: do not modify them.
func a9a(t testing.TB) (train, test *data.Dataset) {
	t.Helper()
	a9aOnce.Do(func() {
		sp, err := data.Load("a9a", data.LoadOptions{Layout: data.LayoutSparse})
		if err != nil {
			a9aOnce.err = err
			return
		}
		s, err := data.FitMinMax(sp.Train, -1, 1)
		if err != nil {
			a9aOnce.err = err
			return
		}
		a9aOnce.train, a9aOnce.test = s.Apply(sp.Train), s.Apply(sp.Test)
	})
	if a9aOnce.err != nil {
		t.Fatal(a9aOnce.err)
	}
	return a9aOnce.train, a9aOnce.test
}

// feed runs passes over d through s in a seeded shuffled order (every pass its own
// permutation), failing the test on a non-finite score.
func feed(t testing.TB, s Online, d *data.Dataset, passes int, seed uint64) {
	t.Helper()
	for p := range passes {
		for k, i := range data.Shuffle(d.Rows(), seed+uint64(p)) {
			if sc := s.Observe(d.Row(i), d.Y[i]); math.IsNaN(sc) || math.IsInf(sc, 0) {
				t.Fatalf("pass %d, example %d (row %d): score %v", p, k, i, sc)
			}
		}
	}
}

// testAUC scores d with w and returns the AUC.
func testAUC(t testing.TB, w []float64, d *data.Dataset) float64 {
	t.Helper()
	scores := make([]float64, d.Rows())
	for i := range scores {
		r := d.Row(i)
		for k, j := range r.Idx {
			if int(j) < len(w) {
				scores[i] += w[j] * r.Val[k]
			}
		}
	}
	auc, err := metric.AUC(scores, d.Y)
	if err != nil {
		t.Fatal(err)
	}
	return auc
}

// oracle returns the exact minimiser of the λ-regularised pairwise square loss on d.
func oracle(t testing.TB, d *data.Dataset, lambda float64) []float64 {
	t.Helper()
	w, err := problem(t, d).Solve(context.Background(), lambda)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// problem returns the exact pairwise square-loss problem of d (the oracle's), from the
// class moments accumulated row by row on the pure-Go backend.
func problem(t testing.TB, d *data.Dataset) *stats.Problem {
	t.Helper()
	b := fallback.New()
	pos, neg := stats.NewMoments(b, d.Dim), stats.NewMoments(b, d.Dim)
	x := b.NewVec(d.Dim)
	dense := make([]float64, d.Dim)
	for i := range d.Rows() {
		clear(dense)
		r := d.Row(i)
		for k, j := range r.Idx {
			dense[j] = r.Val[k]
		}
		b.Upload(x, dense)
		if d.Y[i] == 1 {
			pos.Add(x)
		} else {
			neg.Add(x)
		}
	}
	p, err := stats.NewProblem(pos, neg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gaussian returns n dense rows of dimension d: positives (share pos) centred at
// +shift·u, negatives at −shift·u for a random unit direction u, plus unit noise and a
// random scaling of each feature — a problem whose square-loss oracle is easy to reach.
func gaussian(n, d int, pos, shift float64, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 99))
	u := make([]float64, d)
	scale := make([]float64, d)
	var norm float64
	for j := range u {
		u[j] = r.NormFloat64()
		norm += u[j] * u[j]
		scale[j] = 0.5 + r.Float64()
	}
	ds := &data.Dataset{Name: "gaussian", Dim: d, Ptr: []int64{0}}
	x := kernels.Sparse{Idx: make([]int32, d), Val: make([]float64, d)}
	for j := range x.Idx {
		x.Idx[j] = int32(j)
	}
	for range n {
		y := int8(-1)
		if r.Float64() < pos {
			y = 1
		}
		for j := range x.Val {
			x.Val[j] = (float64(y)*shift*u[j]/math.Sqrt(norm) + r.NormFloat64()) * scale[j]
		}
		ds.Append(y, float64(y), x)
	}
	return ds
}

// dist is ‖a − b‖ / ‖b‖.
func dist(a, b []float64) float64 {
	var num, den float64
	for i := range b {
		num += (a[i] - b[i]) * (a[i] - b[i])
		den += b[i] * b[i]
	}
	return math.Sqrt(num / den)
}

// checkSeeded fails unless fit gives the same weights twice for seed s1, bit for bit,
// and other weights for seed s2.
func checkSeeded(t *testing.T, fit func(seed uint64) []float64, s1, s2 uint64) {
	t.Helper()
	a, b, c := fit(s1), fit(s1), fit(s2)
	if !slices.Equal(a, b) {
		t.Errorf("seed %d twice: %v and %v", s1, a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds %d and %d gave the same weights %v", s1, s2, a)
	}
}
