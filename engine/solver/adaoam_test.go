package solver

import (
	"math"
	"testing"
)

// naiveAdaOAM is thesis Algorithm 9 transcribed: OPAUC's gradient (naiveOPAUC), the
// running sums of squares, H = δI + diag(s) and the projection on ‖w‖ ≤ 1/√λ.
type naiveAdaOAM struct {
	opauc *naiveOPAUC
	delta float64
	sq    []float64
}

func (s *naiveAdaOAM) observe(x []float64, y int8) float64 {
	o := s.opauc
	score, g := o.gradient(x, y)
	if g == nil {
		return score
	}
	var nn float64
	for i, gi := range g {
		s.sq[i] += gi * gi
		if h := s.delta + math.Sqrt(s.sq[i]); h > 0 {
			o.w[i] -= o.eta * gi / h
		}
		nn += o.w[i] * o.w[i]
	}
	if r := 1 / math.Sqrt(o.lambda); math.Sqrt(nn) > r {
		for i := range o.w {
			o.w[i] *= r / math.Sqrt(nn)
		}
	}
	return score
}

func TestAdaOAMMatchesNaive(t *testing.T) {
	const d, n = 9, 400
	ds := opaucStream(n, d, 10, 13)
	for _, tc := range []struct {
		name string
		p    AdaOAMParams
	}{
		{"free", AdaOAMParams{Eta: 0.1, Lambda: 0.01, Delta: 1e-8}},
		{"projected", AdaOAMParams{Eta: 0.5, Lambda: 4, Delta: 0.1}},
		{"delta=0", AdaOAMParams{Eta: 0.1, Lambda: 0.01, Delta: 0}},
	} {
		for _, b := range testBackends(t) {
			s, err := NewAdaOAM(b, d, tc.p, 0)
			if err != nil {
				t.Fatal(err)
			}
			ref := &naiveAdaOAM{opauc: newNaiveOPAUC(d, tc.p.Eta, tc.p.Lambda), delta: tc.p.Delta, sq: make([]float64, d)}
			projected := 0
			for i := range ds.Rows() {
				x := ds.Row(i)
				got, want := s.Observe(x, ds.Y[i]), ref.observe(opaucDense(x, d), ds.Y[i])
				if e := math.Abs(got-want) / max(1, math.Abs(want)); e > 1e-10 {
					t.Fatalf("%s/%s: example %d: score %v, want %v", tc.name, b.Name(), i, got, want)
				}
				var nn float64
				for _, wi := range ref.opauc.w {
					nn += wi * wi
				}
				if math.Abs(nn*tc.p.Lambda-1) < 1e-9 {
					projected++
				}
			}
			if e := dist(s.Weights(), ref.opauc.w); e > 1e-10 {
				t.Errorf("%s/%s: ‖w − w_naive‖/‖w_naive‖ = %.3g, want ≤ 1e-10", tc.name, b.Name(), e)
			}
			if tc.name == "projected" && projected == 0 {
				t.Errorf("%s: the projection never acted", tc.name)
			}
		}
	}
}

// TestAdaOAMA9a: one pass over a9a scaled to [−1, 1] (OPAUC's protocol); the OPAUC paper
// reports OPAUC 0.9002 on a9a.
func TestAdaOAMA9a(t *testing.T) {
	train, test := a9a(t)
	b := testBackends(t)[len(testBackends(t))-1]
	p := AdaOAMParams{Eta: 0x1p-8, Lambda: 0x1p-10, Delta: 1e-8}
	s, err := NewAdaOAM(b, train.Dim, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	feed(t, s, train, 1, 1)
	auc := testAUC(t, s.Weights(), test)
	t.Logf("AdaOAM on a9a, η = 2⁻⁸, λ = 2⁻¹⁰, δ = 1e-8, one pass: test AUC %.4f", auc)
	if auc < 0.89 {
		t.Errorf("AdaOAM: test AUC %.4f, want ≥ 0.89", auc)
	}
}
