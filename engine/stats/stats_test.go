package stats

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// sample returns n rows of dimension d with a class-dependent shift.
func sample(r *rand.Rand, n, d int, shift float64) [][]float64 {
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = make([]float64, d)
		for j := range rows[i] {
			rows[i][j] = r.NormFloat64()*float64(j+1)/float64(d) + shift + 100 // offset tests stability
		}
	}
	return rows
}

// naive computes mean and biased covariance by two passes.
func naive(rows [][]float64) (mean, cov []float64) {
	d := len(rows[0])
	mean = make([]float64, d)
	for _, x := range rows {
		for j, v := range x {
			mean[j] += v / float64(len(rows))
		}
	}
	cov = make([]float64, d*d)
	for _, x := range rows {
		for i := range d {
			for j := range d {
				cov[i*d+j] += (x[i] - mean[i]) * (x[j] - mean[j]) / float64(len(rows))
			}
		}
	}
	return mean, cov
}

func addRows(b kernels.Backend, m *Moments, rows [][]float64, block int) {
	d := m.Dim()
	if block <= 1 {
		v := b.NewVec(d)
		for _, x := range rows {
			b.Upload(v, x)
			m.Add(v)
		}
		return
	}
	for lo := 0; lo < len(rows); lo += block {
		hi := min(lo+block, len(rows))
		flat := make([]float64, 0, (hi-lo)*d)
		for _, x := range rows[lo:hi] {
			flat = append(flat, x...)
		}
		xm := b.NewMat(hi-lo, d)
		b.Upload(xm, flat)
		m.AddBlock(xm)
	}
}

func near(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol*(1+math.Abs(want[i])) {
			t.Fatalf("%s[%d] = %v, want %v", what, i, got[i], want[i])
		}
	}
}

func TestMoments(t *testing.T) {
	b := fallback.New()
	r := rand.New(rand.NewPCG(3, 4))
	rows := sample(r, 517, 9, 0)
	wantMean, wantCov := naive(rows)
	for _, block := range []int{1, 2, 7, 64, 517, 1000} {
		m := NewMoments(b, 9)
		addRows(b, m, rows, block)
		if m.N() != 517 {
			t.Fatalf("block %d: N = %d, want 517", block, m.N())
		}
		near(t, "mean", m.Mean(), wantMean, 1e-13)
		near(t, "cov", m.Cov(), wantCov, 1e-10)
	}
}

func TestMomentsMerge(t *testing.T) {
	b := fallback.New()
	r := rand.New(rand.NewPCG(5, 6))
	rows := sample(r, 300, 6, 0)
	wantMean, wantCov := naive(rows)
	for _, cuts := range [][]int{{0, 300}, {0, 1, 300}, {0, 150, 151, 300}, {0, 10, 100, 299, 300}} {
		total := NewMoments(b, 6)
		total.Merge(NewMoments(b, 6)) // merging nothing is a no-op
		for k := 0; k+1 < len(cuts); k++ {
			shard := NewMoments(b, 6)
			addRows(b, shard, rows[cuts[k]:cuts[k+1]], 16)
			total.Merge(shard)
		}
		near(t, "merged mean", total.Mean(), wantMean, 1e-13)
		near(t, "merged cov", total.Cov(), wantCov, 1e-10)
	}
}

// pairLoss is the O(n₊n₋) definition of the oracle's objective.
func pairLoss(pos, neg [][]float64, w []float64, lambda float64) float64 {
	var s float64
	for _, p := range pos {
		for _, q := range neg {
			m := 1.0
			for j := range w {
				m -= w[j] * (p[j] - q[j])
			}
			s += m * m
		}
	}
	var ww float64
	for _, v := range w {
		ww += v * v
	}
	return s/(2*float64(len(pos)*len(neg))) + lambda/2*ww
}

func TestOracle(t *testing.T) {
	b := fallback.New()
	r := rand.New(rand.NewPCG(8, 9))
	const d = 5
	pos, neg := sample(r, 80, d, 0.3), sample(r, 120, d, -0.2)
	mp, mn := NewMoments(b, d), NewMoments(b, d)
	addRows(b, mp, pos, 32)
	addRows(b, mn, neg, 1)
	p, err := NewProblem(mp, mn)
	if err != nil {
		t.Fatal(err)
	}
	for _, lambda := range []float64{0, 1e-3, 1} {
		w, err := p.Solve(context.Background(), lambda)
		if err != nil {
			t.Fatalf("λ=%g: %v", lambda, err)
		}
		// The closed-form loss is the pairwise definition.
		got, want := p.Loss(w, lambda), pairLoss(pos, neg, w, lambda)
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("λ=%g: Loss(w*) = %v, pairwise definition %v", lambda, got, want)
		}
		// w* is the minimiser: every perturbation increases the pairwise loss.
		for k := range 20 {
			v := append([]float64(nil), w...)
			v[k%d] += (r.Float64() - 0.5) * 1e-3
			if l := pairLoss(pos, neg, v, lambda); l < want {
				t.Errorf("λ=%g: perturbed w has loss %v < %v at w*", lambda, l, want)
			}
		}
	}
	ws, _ := Oracle(context.Background(), mp, mn, 0.5)
	wp, _ := p.Solve(context.Background(), 0.5)
	near(t, "Oracle", ws, wp, 0)
}

func TestOracleErrors(t *testing.T) {
	b := fallback.New()
	empty := NewMoments(b, 2)
	one := NewMoments(b, 2)
	v := b.NewVec(2)
	b.Upload(v, []float64{1, 1})
	one.Add(v)
	if _, err := Oracle(context.Background(), one, empty, 1); !errors.Is(err, ErrEmptyClass) {
		t.Errorf("empty class: error %v, want ErrEmptyClass", err)
	}
	// One example per class, feature 2 equal in both: A = δδᵀ is singular without λ.
	other := NewMoments(b, 2)
	b.Upload(v, []float64{0, 1})
	other.Add(v)
	if _, err := Oracle(context.Background(), one, other, 0); !errors.Is(err, ErrSingular) {
		t.Errorf("singular system: error %v, want ErrSingular", err)
	}
	if w, err := Oracle(context.Background(), one, other, 1); err != nil || math.Abs(w[0]-0.5) > 1e-15 || w[1] != 0 {
		// (δδᵀ + I)w = δ with δ = (1, 0): w = (½, 0)
		t.Errorf("λ=1: Oracle = %v, %v; want [0.5 0]", w, err)
	}
}

// TestShardsEqualOnePass: moments accumulated in shards (by Add, by blocks of any size)
// and merged equal one pass over all rows to 1e-12 relative (normwise, per matrix).
func TestShardsEqualOnePass(t *testing.T) {
	b := fallback.New()
	r := rand.New(rand.NewPCG(11, 12))
	const d = 40
	rows := sample(r, 5000, d, 0.7)
	one := NewMoments(b, d)
	addRows(b, one, rows, 1)
	wantMean, wantCov := one.Mean(), one.Cov()
	for _, tc := range []struct {
		cuts  []int
		block int
	}{
		{[]int{0, 2500, 5000}, 1},
		{[]int{0, 1, 2, 4999, 5000}, 64},
		{[]int{0, 1000, 2000, 3000, 4000, 5000}, 333},
		{[]int{0, 17, 1234, 5000}, 5000},
	} {
		total := NewMoments(b, d)
		for k := 0; k+1 < len(tc.cuts); k++ {
			shard := NewMoments(b, d)
			addRows(b, shard, rows[tc.cuts[k]:tc.cuts[k+1]], tc.block)
			total.Merge(shard)
		}
		if total.N() != one.N() {
			t.Fatalf("merged N = %d, want %d", total.N(), one.N())
		}
		if e := relErr(total.Mean(), wantMean); e > 1e-12 {
			t.Errorf("cuts %v block %d: mean relative error %.2g > 1e-12", tc.cuts, tc.block, e)
		}
		if e := relErr(total.Cov(), wantCov); e > 1e-12 {
			t.Errorf("cuts %v block %d: covariance relative error %.2g > 1e-12", tc.cuts, tc.block, e)
		}
	}
}

// relErr is max|got − want| / max|want|.
func relErr(got, want []float64) float64 {
	var num, den float64
	for i := range want {
		num = math.Max(num, math.Abs(got[i]-want[i]))
		den = math.Max(den, math.Abs(want[i]))
	}
	return num / den
}
