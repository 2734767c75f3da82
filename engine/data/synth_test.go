package data

import (
	"io"
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/metric"
)

func TestMixtureNeymanPearsonAUC(t *testing.T) {
	// The MBA paper's Table II: NP AUC 92.13 / 83.71 / 80.22 (%) for k = 1, 2, 3.
	want := []float64{92.13, 83.71, 80.22}
	for k := 1; k <= 3; k++ {
		m, err := MBAMixture(k)
		if err != nil {
			t.Fatal(err)
		}
		test := m.Sample(100_000, 2026)
		scores := make([]float64, test.Rows())
		for i := range scores {
			scores[i] = m.NPScore(test.Row(i).Val)
		}
		auc, err := metric.AUC(scores, test.Y)
		if err != nil {
			t.Fatal(err)
		}
		pos, _ := test.Counts()
		t.Logf("k=%d: NP AUC %.2f%% on %d points (%d positive)", k, 100*auc, test.Rows(), pos)
		if math.Abs(100*auc-want[k-1]) > 0.2 {
			t.Errorf("k=%d: NP AUC = %.2f%%, want %.2f ± 0.2", k, 100*auc, want[k-1])
		}
		if f := float64(pos) / float64(test.Rows()); math.Abs(f-0.1) > 0.005 {
			t.Errorf("k=%d: %.3f positive, want about 0.1", k, f)
		}
	}
	// k = 1 analytically: Φ(‖μ₊ − μ₋‖/√2) = Φ(0.2·√100/√2) = Φ(√2).
	if phi := 0.5 * math.Erfc(-math.Sqrt2/math.Sqrt2); math.Abs(100*phi-92.13) > 0.01 {
		t.Errorf("Φ(√2) = %.4f, want 92.13%%", 100*phi)
	}
	if _, err := MBAMixture(4); err == nil {
		t.Error("k = 4: want an error")
	}
	a, b := func() *Dataset { m, _ := MBAMixture(2); return m.Sample(50, 1) }(), func() *Dataset { m, _ := MBAMixture(2); return m.Sample(50, 1) }()
	if !slices.Equal(a.Val, b.Val) || !slices.Equal(a.Y, b.Y) {
		t.Error("same seed, different sample")
	}
}

func TestLinearStream(t *testing.T) {
	for _, s := range []*LinearStream{
		{Rows: 20_000, Dim: 20, PosFrac: 0.2, Noise: 1, Seed: 3},
		{Rows: 5_000, Dim: 1_000_000, Nnz: 60, PosFrac: 0.05, Noise: 0.5, Seed: 4},
	} {
		truth := s.Truth()
		var scores []float64
		var ys []int8
		for {
			ex, err := s.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			want := s.Nnz
			if want == 0 {
				want = s.Dim
			}
			if len(ex.X.Idx) != want || len(ex.X.Val) != want {
				t.Fatalf("row %d has %d indices, want %d", ex.Line, len(ex.X.Idx), want)
			}
			for k := 1; k < len(ex.X.Idx); k++ {
				if ex.X.Idx[k] <= ex.X.Idx[k-1] {
					t.Fatalf("row %d: indices not strictly increasing", ex.Line)
				}
			}
			var sc float64
			for k, j := range ex.X.Idx {
				sc += truth[j] * ex.X.Val[k]
			}
			scores = append(scores, sc)
			ys = append(ys, ex.Y)
		}
		if len(ys) != s.Rows {
			t.Fatalf("%d rows, want %d", len(ys), s.Rows)
		}
		pos := 0
		for _, y := range ys {
			if y == 1 {
				pos++
			}
		}
		if f := float64(pos) / float64(s.Rows); math.Abs(f-s.PosFrac) > 0.25*s.PosFrac {
			t.Errorf("dim %d: positive share %.3f, want about %.3f", s.Dim, f, s.PosFrac)
		}
		auc, _ := metric.AUC(scores, ys)
		if auc < 0.9 {
			t.Errorf("dim %d: the ground truth ranks with AUC %.3f, want > 0.9", s.Dim, auc)
		}
		// Row i is reproducible on its own.
		var ex Example
		s.Row(17, &ex)
		var sc float64
		for k, j := range ex.X.Idx {
			sc += truth[j] * ex.X.Val[k]
		}
		if sc != scores[17] || ex.Y != ys[17] {
			t.Errorf("dim %d: Row(17) differs from the 18th row of the pass", s.Dim)
		}
		// A pass allocates nothing per row.
		s.Reset()
		s.Next()
		if a := testing.AllocsPerRun(100, func() { s.Next() }); a != 0 {
			t.Errorf("dim %d: %v allocations per row, want 0", s.Dim, a)
		}
	}
	e, n := EpsilonLike(0.5, 1), News20Like(0.5, 1)
	if e.Rows != 400_000 || e.Dim != 2000 || n.Dim != 1_355_191 || n.Nnz != 450 {
		t.Errorf("workload sizes: epsilon %d×%d, news20 %d features %d nnz", e.Rows, e.Dim, n.Dim, n.Nnz)
	}
}
