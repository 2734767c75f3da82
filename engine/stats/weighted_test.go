package stats

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// addWeighted adds rows with weights w in blocks of block rows by AddBlockWeighted.
func addWeighted(b kernels.Backend, m *Moments, rows [][]float64, w []float64, block int) {
	d := m.Dim()
	for lo := 0; lo < len(rows); lo += block {
		hi := min(lo+block, len(rows))
		flat := make([]float64, 0, (hi-lo)*d)
		for i, x := range rows[lo:hi] {
			s := math.Sqrt(w[lo+i])
			for _, v := range x {
				flat = append(flat, s*v)
			}
		}
		xm := b.NewMat(hi-lo, d)
		b.Upload(xm, flat)
		m.AddBlockWeighted(xm, w[lo:hi])
	}
}

// TestMomentsWeightedIsRepeated checks that integer weights give the moments of the
// rows repeated that many times (a weight 0 drops the row), and fractional weights
// the weighted mean and covariance computed naively.
func TestMomentsWeightedIsRepeated(t *testing.T) {
	b := fallback.New()
	r := rand.New(rand.NewPCG(5, 6))
	rows := sample(r, 203, 7, 0)
	w := make([]float64, len(rows))
	var rep [][]float64
	for i := range rows {
		w[i] = float64(r.IntN(4)) // 0…3
		for range int(w[i]) {
			rep = append(rep, rows[i])
		}
	}
	wantMean, wantCov := naive(rep)
	for _, block := range []int{1, 5, 64, 203} {
		m := NewMoments(b, 7)
		addWeighted(b, m, rows, w, block)
		if m.N() != 203 || m.W() != float64(len(rep)) || !m.Weighted() {
			t.Fatalf("block %d: N %d W %g weighted %v, want 203, %d, true", block, m.N(), m.W(), m.Weighted(), len(rep))
		}
		near(t, "mean", m.Mean(), wantMean, 1e-12)
		near(t, "cov", m.Cov(), wantCov, 1e-10)
	}
	// Merged halves equal one pass.
	a, c := NewMoments(b, 7), NewMoments(b, 7)
	addWeighted(b, a, rows[:100], w[:100], 16)
	addWeighted(b, c, rows[100:], w[100:], 16)
	a.Merge(c)
	near(t, "merged mean", a.Mean(), wantMean, 1e-12)
	near(t, "merged cov", a.Cov(), wantCov, 1e-10)
	if _, err := a.MarshalBinary(); err == nil {
		t.Error("weighted moments encoded: the encoding has no weights")
	}
}

// TestOracleZeroWeightClass checks that a class whose weights are all 0 is an empty
// class, not NaN weights.
func TestOracleZeroWeightClass(t *testing.T) {
	b := fallback.New()
	r := rand.New(rand.NewPCG(7, 8))
	pos, neg := NewMoments(b, 3), NewMoments(b, 3)
	addWeighted(b, pos, sample(r, 10, 3, 1), make([]float64, 10), 4)
	addRows(b, neg, sample(r, 10, 3, 0), 4)
	if _, err := Oracle(context.Background(), pos, neg, 1e-3); err == nil {
		t.Fatal("a zero-weight class solved")
	}
}
