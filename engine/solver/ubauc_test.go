package solver

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

// denseUBAUC is a plain transcription of ol-UBAUC, eq. (9) of Lyu & Ying.
type denseUBAUC struct {
	p      UBAUCParams
	t      float64
	w      []float64
	lambda float64
}

func (d *denseUBAUC) observe(x []float64, y int8) float64 {
	d.t++
	eta := d.p.Eta / math.Sqrt(d.t)
	yf := float64(y)
	wx := dotDense(d.w, x)
	h := 0.0
	if yf*(d.lambda-wx) > 0 {
		h = 1
	}
	// (γI + β x xᵀ)w − (β + h)y x
	g := make([]float64, len(d.w))
	for j := range g {
		g[j] = d.p.Gamma*d.w[j] + d.p.Beta*x[j]*wx - (d.p.Beta+h)*yf*x[j]
	}
	for j := range d.w {
		d.w[j] -= eta * g[j]
	}
	d.lambda -= eta * yf * h
	return wx
}

func TestUBAUCMatchesDense(t *testing.T) {
	cases := []struct {
		name string
		d    *data.Dataset
		p    UBAUCParams
	}{
		{"sparse", sparseStream(3000, 200, 12, 1), UBAUCParams{Eta: 0.1, Beta: 0.1, Gamma: 0.01}},
		{"sparse-bigstep", sparseStream(1000, 200, 12, 2), UBAUCParams{Eta: 0.05, Beta: 0.01, Gamma: 20}},
		{"dense", gaussian(2000, 20, 0.3, 1, 4), UBAUCParams{Eta: 0.01, Beta: 1, Gamma: 1e-3}},
	}
	for _, c := range cases {
		for _, b := range testBackends(t) {
			t.Run(c.name+"/"+b.Name(), func(t *testing.T) {
				u, err := NewUBAUC(b, c.d.Dim, c.p, 1)
				if err != nil {
					t.Fatal(err)
				}
				ref := &denseUBAUC{p: c.p, w: make([]float64, c.d.Dim)}
				for i := range c.d.Rows() {
					x := c.d.Row(i)
					got, want := u.Observe(x, c.d.Y[i]), ref.observe(densify(x, c.d.Dim), c.d.Y[i])
					if math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) {
						t.Fatalf("example %d: score %v, dense %v", i, got, want)
					}
				}
				if e := maxRelDiff(u.Weights(), ref.w); e > 1e-10 {
					t.Errorf("w differs from the dense transcription by %.3g", e)
				}
				if math.Abs(u.Threshold()-ref.lambda) > 1e-10*max(1, math.Abs(ref.lambda)) {
					t.Errorf("λ = %v, dense %v", u.Threshold(), ref.lambda)
				}
			})
		}
	}
}

func TestUBAUCParams(t *testing.T) {
	b := testBackends(t)[0]
	for _, p := range []UBAUCParams{
		{Eta: 0, Beta: 1},
		{Eta: math.NaN(), Beta: 1},
		{Eta: 1, Beta: -1},
		{Eta: 1, Beta: 1, Gamma: -1},
		{Eta: 1, Beta: math.Inf(1)},
	} {
		if _, err := NewUBAUC(b, 10, p, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%+v: error %v, want ErrParam", p, err)
		}
	}
	if _, err := NewUBAUC(b, 10, DefaultUBAUCParams(), 1); err != nil {
		t.Error(err)
	}
}

// TestSPAMUBAUCA9A: one pass of SPAM-L2 and ol-UBAUC over a9a ([−1, 1]-scaled, as OPAUC's paper)
// reaches the papers' level (SPAM-L2 .8998, ol-UBAUC .9005).
func TestSPAMUBAUCA9A(t *testing.T) {
	if testing.Short() {
		t.Skip("a9a")
	}
	train, test := a9a(t)
	cases := []struct {
		name string
		make func() (Online, error)
	}{
		{"spam-l2 eta=0.003 theta=0.25 beta=1e-4", func() (Online, error) {
			return NewSPAM(fallback.New(), train.Dim, SPAMParams{Eta: 0.003, Theta: 0.25, Beta: 1e-4}, 1)
		}},
		{"ubauc eta=0.01 beta=1 gamma=1e-5", func() (Online, error) {
			return NewUBAUC(fallback.New(), train.Dim, UBAUCParams{Eta: 0.01, Beta: 1, Gamma: 1e-5}, 1)
		}},
	}
	for _, c := range cases {
		s, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		feed(t, s, train, 1, 1)
		auc := testAUC(t, s.Weights(), test)
		t.Logf("%s, 1 pass: test AUC %.4f", c.name, auc)
		if auc < 0.89 {
			t.Errorf("%s: test AUC %.4f, want ≥ 0.89", c.name, auc)
		}
	}
}

// TestUBAUCCenter: with Center, ol-UBAUC is eq. (9) on x − x̄_t, x̄_t the running mean
// (this example included), as a dense transcription takes it; its Threshold is λ + w·x̄.
// A checkpoint taken midway continues bit-identically.
func TestUBAUCCenter(t *testing.T) {
	ds := sparseStream(1500, 60, 8, 3)
	p := UBAUCParams{Eta: 0.1, Beta: 1, Gamma: 0.01, Center: true}
	b := fallback.New()
	u, err := NewUBAUC(b, ds.Dim, p, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref := &denseUBAUC{p: p, w: make([]float64, ds.Dim)}
	mu := make([]float64, ds.Dim)
	var resumed *UBAUC
	for i := range ds.Rows() {
		x := densify(ds.Row(i), ds.Dim)
		for j := range mu {
			mu[j] += (x[j] - mu[j]) / float64(i+1)
		}
		xc := make([]float64, len(x))
		for j := range x {
			xc[j] = x[j] - mu[j]
		}
		got, want := u.Observe(ds.Row(i), ds.Y[i]), ref.observe(xc, ds.Y[i])
		if math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) {
			t.Fatalf("example %d: score %v, dense %v", i, got, want)
		}
		if resumed != nil {
			resumed.Observe(ds.Row(i), ds.Y[i])
		}
		if i == ds.Rows()/2 {
			state, err := u.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if resumed, err = NewUBAUC(b, ds.Dim, DefaultUBAUCParams(), 1); err != nil {
				t.Fatal(err)
			}
			if err := resumed.UnmarshalBinary(state); err != nil {
				t.Fatal(err)
			}
		}
	}
	if e := maxRelDiff(u.Weights(), ref.w); e > 1e-10 {
		t.Errorf("w differs from the dense transcription by %.3g", e)
	}
	if want := ref.lambda + dotDense(ref.w, mu); math.Abs(u.Threshold()-want) > 1e-10*max(1, math.Abs(want)) {
		t.Errorf("threshold %v, want λ + w·x̄ = %v", u.Threshold(), want)
	}
	if !slices.Equal(resumed.Weights(), u.Weights()) || resumed.Threshold() != u.Threshold() {
		t.Error("the resumed run differs")
	}
}
