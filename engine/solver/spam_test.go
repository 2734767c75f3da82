package solver

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// denseSPAM is a plain transcription of SPAM (thesis Alg. 20) with running moments
// (the current example included) or fixed ones: a(w), b(w), α(w) in closed form, the
// full ∂w of F, and the prox of (β/2)‖w‖² + β₁‖w‖₁.
type denseSPAM struct {
	p             SPAMParams
	t, nPos, nNeg float64
	fixed         bool
	pFix          float64
	w, mPos, mNeg []float64
	sum           []float64 // Σ w_t from step AvgFrom on
	k             float64
}

func newDenseSPAM(dim int, p SPAMParams) *denseSPAM {
	return &denseSPAM{p: p, w: make([]float64, dim), mPos: make([]float64, dim), mNeg: make([]float64, dim)}
}

func dotDense(a, b []float64) float64 {
	var s float64
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

func (d *denseSPAM) observe(x []float64, y int8) float64 {
	d.t++
	wx := dotDense(d.w, x)
	p := d.pFix
	if !d.fixed {
		if y == 1 {
			d.nPos++
			for j := range x {
				d.mPos[j] += (x[j] - d.mPos[j]) / d.nPos
			}
		} else {
			d.nNeg++
			for j := range x {
				d.mNeg[j] += (x[j] - d.mNeg[j]) / d.nNeg
			}
		}
		p = d.nPos / d.t
	}
	a, b := dotDense(d.w, d.mPos), dotDense(d.w, d.mNeg)
	alpha := b - a
	ip, in := 0.0, 0.0
	if y == 1 {
		ip = 1
	} else {
		in = 1
	}
	cx := 2*(1-p)*(wx-a)*ip + 2*p*(wx-b)*in + 2*(1+alpha)*(p*in-(1-p)*ip)
	eta := d.p.Eta / math.Pow(d.t, d.p.Theta)
	div := 1 + eta*d.p.Beta
	tau := eta * d.p.Beta1 / div
	for j := range d.w {
		v := (d.w[j] - eta*cx*x[j]) / div
		d.w[j] = math.Copysign(max(0, math.Abs(v)-tau), v)
	}
	if d.p.AvgFrom > 0 && d.t >= float64(d.p.AvgFrom) {
		if d.sum == nil {
			d.sum = make([]float64, len(d.w))
		}
		d.k++
		for j := range d.w {
			d.sum[j] += d.w[j]
		}
	}
	return wx
}

// weights is the last iterate, or the average from AvgFrom on once there is one.
func (d *denseSPAM) weights() []float64 {
	if d.k == 0 {
		return d.w
	}
	out := make([]float64, len(d.w))
	for j := range out {
		out[j] = d.sum[j] / d.k
	}
	return out
}

func TestSPAMMatchesDense(t *testing.T) {
	cases := []struct {
		name  string
		d     *data.Dataset
		p     SPAMParams
		fixed bool
	}{
		{"sparse-l2", sparseStream(3000, 200, 12, 1), SPAMParams{Eta: 0.2, Theta: 0.5, Beta: 0.01}, false},
		{"sparse-l2-fixed", sparseStream(3000, 200, 12, 2), SPAMParams{Eta: 0.2, Theta: 0.7, Beta: 0.1}, true},
		{"sparse-net", sparseStream(2000, 200, 12, 3), SPAMParams{Eta: 0.2, Theta: 0.5, Beta: 0.01, Beta1: 0.001}, false},
		{"dense-l2", gaussian(2000, 20, 0.3, 1, 4), SPAMParams{Eta: 0.05, Theta: 0.5, Beta: 1e-3}, false},
		{"dense-net-const", gaussian(2000, 20, 0.3, 1, 5), SPAMParams{Eta: 0.005, Theta: 0, Beta: 1, Beta1: 0.01}, false},
		{"sparse-l2-avg", sparseStream(3000, 200, 12, 6), SPAMParams{Eta: 0.2, Theta: 0, Beta: 0.01, AvgFrom: 1200}, false},
		{"sparse-l2-avg-fixed", sparseStream(3000, 200, 12, 7), SPAMParams{Eta: 0.2, Theta: 0.5, Beta: 0.1, AvgFrom: 1}, true},
		// a strong ridge and a tiny step drive the lazy scale S through its rescaling
		{"dense-l2-avg-rescale", gaussian(3000, 20, 0.3, 1, 8), SPAMParams{Eta: 0.02, Theta: 0, Beta: 40, AvgFrom: 500}, false},
		{"dense-net-avg", gaussian(2000, 20, 0.3, 1, 9), SPAMParams{Eta: 0.005, Theta: 0, Beta: 1, Beta1: 0.01, AvgFrom: 1000}, false},
	}
	for _, c := range cases {
		for _, b := range testBackends(t) {
			t.Run(c.name+"/"+b.Name(), func(t *testing.T) {
				s, err := NewSPAM(b, c.d.Dim, c.p, 1)
				if err != nil {
					t.Fatal(err)
				}
				ref := newDenseSPAM(c.d.Dim, c.p)
				if c.fixed {
					mp, mn := make([]float64, c.d.Dim), make([]float64, c.d.Dim)
					pos, neg := c.d.Counts()
					for i := range c.d.Rows() {
						x := densify(c.d.Row(i), c.d.Dim)
						m, n := mn, float64(neg)
						if c.d.Y[i] == 1 {
							m, n = mp, float64(pos)
						}
						for j := range x {
							m[j] += x[j] / n
						}
					}
					pp := float64(pos) / float64(c.d.Rows())
					if err := s.SetMoments(mp, mn, pp); err != nil {
						t.Fatal(err)
					}
					ref.fixed, ref.pFix, ref.mPos, ref.mNeg = true, pp, mp, mn
				}
				for i := range c.d.Rows() {
					x := c.d.Row(i)
					got, want := s.Observe(x, c.d.Y[i]), ref.observe(densify(x, c.d.Dim), c.d.Y[i])
					if math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) {
						t.Fatalf("example %d: score %v, dense %v", i, got, want)
					}
				}
				if e := maxRelDiff(s.Weights(), ref.weights()); e > 1e-10 {
					t.Errorf("w differs from the dense transcription by %.3g", e)
				}
				mp, mn, _ := s.Means()
				if e := max(maxRelDiff(mp, ref.mPos), maxRelDiff(mn, ref.mNeg)); e > 1e-10 {
					t.Errorf("means differ from the dense transcription by %.3g", e)
				}
			})
		}
	}
}

func TestSPAMParams(t *testing.T) {
	b := testBackends(t)[0]
	for _, p := range []SPAMParams{
		{Eta: 0, Theta: 0.5},
		{Eta: math.Inf(1), Theta: 0.5},
		{Eta: 1, Theta: -0.1},
		{Eta: 1, Theta: 1.5},
		{Eta: 1, Theta: 0.5, Beta: -1},
		{Eta: 1, Theta: 0.5, Beta1: -1},
	} {
		if _, err := NewSPAM(b, 10, p, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%+v: error %v, want ErrParam", p, err)
		}
	}
	s, err := NewSPAM(b, 10, DefaultSPAMParams(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetMoments(make([]float64, 11), make([]float64, 10), 0.5); err == nil {
		t.Error("SetMoments accepted means longer than the dimension")
	}
	p := DefaultSPAMParams()
	if err := paramsOf(&p).Set("prepass", "yes"); !errors.Is(err, ErrParam) {
		t.Errorf("prepass=yes: error %v, want ErrParam", err)
	}
	if err := s.SetMoments(make([]float64, 10), make([]float64, 10), 1); err == nil {
		t.Error("SetMoments accepted p = 1")
	}
}

// TestSPAMOracleDirection: SPAM-L2 with fixed moments and with running ones approaches
// the direction of the exact square-loss minimiser as passes grow.
func TestSPAMOracleDirection(t *testing.T) {
	d := gaussian(4000, 10, 0.4, 1.5, 11)
	ws := oracle(t, d, 0)
	b := testBackends(t)[0]
	for _, running := range []bool{true, false} {
		prev := 2.0
		for _, passes := range []int{1, 4, 16} {
			s, err := NewSPAM(b, d.Dim, SPAMParams{Eta: 0.05, Theta: 0.5, Beta: 1e-5}, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !running {
				mp, mn, pp := s0Moments(d)
				if err := s.SetMoments(mp, mn, pp); err != nil {
					t.Fatal(err)
				}
			}
			feed(t, s, d, passes, 1)
			c := 1 - cosine(s.Weights(), ws)
			t.Logf("running moments %v, passes %d: 1 − cos(w, w*) = %.3g", running, passes, c)
			if c > prev*1.05 {
				t.Errorf("passes %d: 1 − cos = %.3g, not below %.3g", passes, c, prev)
			}
			prev = c
		}
		if prev > 1e-3 {
			t.Errorf("running %v: final 1 − cos = %.3g, want ≤ 1e-3", running, prev)
		}
	}
}

// s0Moments returns the class means and p of d.
func s0Moments(d *data.Dataset) (mp, mn []float64, p float64) {
	mp, mn = make([]float64, d.Dim), make([]float64, d.Dim)
	pos, neg := d.Counts()
	for i := range d.Rows() {
		r := d.Row(i)
		m, n := mn, float64(neg)
		if d.Y[i] == 1 {
			m, n = mp, float64(pos)
		}
		for k, j := range r.Idx {
			m[j] += r.Val[k] / n
		}
	}
	return mp, mn, float64(pos) / float64(d.Rows())
}

// TestSPAMPrePass: prepass=true takes p and the class means of the whole training
// set before the first step, whichever way the learner is trained: solver.Run reading the
// source once more (in the pass's shuffled order), or PrePass on an in-memory set (in
// row order); both equal SetMoments with the exact moments up to the rounding of the
// means, and differ from the running estimates on imbalanced data. The
// grid search, which cannot make the pre-pass, refuses it, and so does a learner fed
// without one.
func TestSPAMPrePass(t *testing.T) {
	d := gaussian(3000, 12, 0.1, 1.0, 5)
	b := testBackends(t)[0]
	p := SPAMParams{Eta: 0.05, Theta: 0.5, Beta: 1e-4, PrePass: true}
	newSPAM := func(p SPAMParams) *SPAM {
		t.Helper()
		s, err := NewSPAM(b, d.Dim, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// The reference: running moments replaced by the exact ones.
	ref := newSPAM(SPAMParams{Eta: p.Eta, Theta: p.Theta, Beta: p.Beta})
	mp, mn, pp := s0Moments(d)
	if err := ref.SetMoments(mp, mn, pp); err != nil {
		t.Fatal(err)
	}
	feed(t, ref, d, 2, 1)

	viaRun := newSPAM(p)
	if !viaRun.WantsPrePass() {
		t.Fatal("prepass=true: WantsPrePass false before training")
	}
	if _, err := Run(context.Background(), viaRun, DatasetSource{D: d, Shuffle: true, Seed: 1}, RunOptions{Passes: 2}); err != nil {
		t.Fatal(err)
	}
	viaHelper := newSPAM(p)
	if err := PrePass(viaHelper, d); err != nil {
		t.Fatal(err)
	}
	feed(t, viaHelper, d, 2, 1)
	running := newSPAM(DefaultSPAMParams())
	running.p.Eta, running.p.Theta = p.Eta, p.Theta
	feed(t, running, d, 2, 1)

	want := ref.Weights()
	for _, c := range []struct {
		name string
		s    *SPAM
	}{{"Run", viaRun}, {"PrePass", viaHelper}} {
		if c.s.WantsPrePass() {
			t.Errorf("%s: WantsPrePass still true after training", c.name)
		}
		if e := maxRelDiff(c.s.Weights(), want); e > 1e-10 {
			t.Errorf("%s: weights differ from SetMoments with the exact moments by %.3g", c.name, e)
		}
	}
	if e := maxRelDiff(running.Weights(), want); e < 1e-3 {
		t.Errorf("running moments give the pre-pass weights to %.3g: the test data do not tell them apart", e)
	}
	spec, err := Lookup("spam-l2")
	if err != nil {
		t.Fatal(err)
	}
	pg := spec.Params()
	pg.ptr.(*SPAMParams).PrePass = true
	if _, err := NewMulti(spec, b, d.Dim, []Params{pg}, 1, 1); !errors.Is(err, ErrNoPrePass) || !errors.Is(err, ErrParam) {
		t.Errorf("NewMulti with prepass=true: error %v, want ErrNoPrePass and ErrParam", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("Observe without the pre-pass did not panic")
		}
	}()
	newSPAM(p).Observe(d.Row(0), d.Y[0])
}

// TestSPAMAverageResume checkpoints SPAM-L2 and SPAM-NET inside their averaging tail
// and checks that the restored solver continues bit for bit (blResume), and that the
// output is the tail average, not the last iterate.
func TestSPAMAverageResume(t *testing.T) {
	d := sparseStream(2000, 100, 10, 12)
	b := testBackends(t)[0]
	for _, p := range []SPAMParams{
		{Eta: 0.1, Theta: 0, Beta: 0.01, AvgFrom: 800},
		{Eta: 0.1, Theta: 0, Beta: 0.01, Beta1: 1e-3, AvgFrom: 800},
	} {
		mk := func(seed uint64) (blCkpt, error) { return NewSPAM(b, d.Dim, p, seed) }
		blResume(t, mk, d, 1200) // checkpointed 400 steps into the tail
		s, err := NewSPAM(b, d.Dim, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		blRun(s, d, 0, d.Rows())
		if got := s.Weights(); slices.Equal(got, scaledCopy(s.st.S, s.v)) {
			t.Errorf("%+v: the weights are the last iterate, want the tail average", p)
		}
	}
}
