package solver

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// denseSOLAM is a plain transcription of SOLAM / regSOLAM (thesis Alg. 10/18) on dense
// vectors, with the authors' start point and symmetric projections.
type denseSOLAM struct {
	p                 SOLAMParams
	r                 float64
	t, nPos           float64
	w, sum            []float64
	a, b, alpha, gsum float64
}

func newDenseSOLAM(dim int, p SOLAMParams) *denseSOLAM {
	d := &denseSOLAM{p: p, r: p.radius(), w: make([]float64, dim), sum: make([]float64, dim)}
	for j := range d.w {
		d.w[j] = d.r / math.Sqrt(float64(dim))
	}
	d.a, d.b, d.alpha = d.r*p.Kappa, d.r*p.Kappa, 2*d.r*p.Kappa
	return d
}

func (d *denseSOLAM) observe(x []float64, y int8) float64 {
	d.t++
	if y == 1 {
		d.nPos++
	}
	p := d.nPos / d.t
	gamma := d.p.Zeta / math.Sqrt(d.t)
	var wx float64
	for j := range x {
		wx += d.w[j] * x[j]
	}
	d.gsum += gamma
	for j := range d.sum {
		d.sum[j] += gamma * d.w[j]
	}
	ip, in := 0.0, 0.0
	if y == 1 {
		ip = 1
	} else {
		in = 1
	}
	// ∂w = 2(1−p)(w·x − a)x I+ + 2p(w·x − b)x I− + 2(1+α)(p x I− − (1−p) x I+) + λw
	cx := 2*(1-p)*(wx-d.a)*ip + 2*p*(wx-d.b)*in + 2*(1+d.alpha)*(p*in-(1-p)*ip)
	da := -2 * (1 - p) * (wx - d.a) * ip
	db := -2 * p * (wx - d.b) * in
	dal := 2*(p*wx*in-(1-p)*wx*ip) - 2*p*(1-p)*d.alpha
	var n2 float64
	for j := range d.w {
		d.w[j] -= gamma * (cx*x[j] + d.p.Lambda*d.w[j])
		n2 += d.w[j] * d.w[j]
	}
	if n := math.Sqrt(n2); n > d.r {
		for j := range d.w {
			d.w[j] *= d.r / n
		}
	}
	rk := d.r * d.p.Kappa
	d.a = max(-rk, min(rk, d.a-gamma*da))
	d.b = max(-rk, min(rk, d.b-gamma*db))
	d.alpha = max(-2*rk, min(2*rk, d.alpha+gamma*dal))
	return wx
}

func (d *denseSOLAM) weights() []float64 {
	out := make([]float64, len(d.sum))
	for j := range out {
		out[j] = d.sum[j] / d.gsum
	}
	return out
}

// densify returns row x of dimension dim as a dense slice.
func densify(x kernels.Sparse, dim int) []float64 {
	out := make([]float64, dim)
	for k, j := range x.Idx {
		out[j] = x.Val[k]
	}
	return out
}

// sparseStream returns a small sparse dataset with a signal, for transcription tests.
func sparseStream(n, dim, nnz int, seed uint64) *data.Dataset {
	s := &data.LinearStream{Rows: n, Dim: dim, Nnz: nnz, PosFrac: 0.3, Noise: 0.5, Seed: seed}
	d := &data.Dataset{Name: "sparse", Dim: dim, Ptr: []int64{0}}
	for {
		ex, err := s.Next()
		if err != nil {
			break
		}
		d.Append(ex.Y, float64(ex.Y), ex.X)
	}
	return d
}

// maxRelDiff is max_j |a_j − b_j| / max(1, max_j |b_j|).
func maxRelDiff(a, b []float64) float64 {
	var scale, diff float64
	for j := range b {
		scale = max(scale, math.Abs(b[j]))
		diff = max(diff, math.Abs(a[j]-b[j]))
	}
	return diff / max(1, scale)
}

func TestSOLAMMatchesDense(t *testing.T) {
	cases := []struct {
		name string
		d    *data.Dataset
		p    SOLAMParams
	}{
		{"sparse-reg", sparseStream(3000, 200, 12, 1), SOLAMParams{Zeta: 0.5, Lambda: 0.1, Kappa: 1}},
		{"sparse-plain", sparseStream(3000, 200, 12, 2), SOLAMParams{Zeta: 0.3, R: 2, Kappa: 2}},
		{"dense-reg", gaussian(2000, 20, 0.4, 1, 3), SOLAMParams{Zeta: 0.05, Lambda: 1, Kappa: 5}},
		{"dense-bigstep", gaussian(1000, 20, 0.4, 1, 4), SOLAMParams{Zeta: 3, Lambda: 1, Kappa: 1}},
	}
	for _, c := range cases {
		for _, b := range testBackends(t) {
			t.Run(c.name+"/"+b.Name(), func(t *testing.T) {
				s, err := NewSOLAM(b, c.d.Dim, c.p, 1)
				if err != nil {
					t.Fatal(err)
				}
				ref := newDenseSOLAM(c.d.Dim, c.p)
				for i := range c.d.Rows() {
					x := c.d.Row(i)
					got, want := s.Observe(x, c.d.Y[i]), ref.observe(densify(x, c.d.Dim), c.d.Y[i])
					if math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) {
						t.Fatalf("example %d: score %v, dense %v", i, got, want)
					}
				}
				if e := maxRelDiff(s.Weights(), ref.weights()); e > 1e-10 {
					t.Errorf("average differs from the dense transcription by %.3g", e)
				}
				if e := maxRelDiff(s.Current(), ref.w); e > 1e-10 {
					t.Errorf("iterate differs from the dense transcription by %.3g", e)
				}
			})
		}
	}
}

// ckptOnline is an Online learner with a checkpoint.
type ckptOnline interface {
	Online
	MarshalBinary() ([]byte, error)
	UnmarshalBinary([]byte) error
}

// lazySolvers are the solvers of solam.go, spam.go, ubauc.go and fsauc.go with
// parameters that move on small synthetic data, for the common tests.
var lazySolvers = []struct {
	name string
	make func(b kernels.Backend, dim int, seed uint64) (ckptOnline, error)
}{
	{"regsolam", func(b kernels.Backend, dim int, seed uint64) (ckptOnline, error) {
		return NewSOLAM(b, dim, SOLAMParams{Zeta: 0.5, Lambda: 0.01, Kappa: 1}, seed)
	}},
	{"solam", func(b kernels.Backend, dim int, seed uint64) (ckptOnline, error) {
		return NewSOLAM(b, dim, SOLAMParams{Zeta: 0.5, R: 3, Kappa: 1}, seed)
	}},
	{"spam-l2", func(b kernels.Backend, dim int, seed uint64) (ckptOnline, error) {
		return NewSPAM(b, dim, SPAMParams{Eta: 0.1, Theta: 0.5, Beta: 0.01}, seed)
	}},
	{"spam-net", func(b kernels.Backend, dim int, seed uint64) (ckptOnline, error) {
		return NewSPAM(b, dim, SPAMParams{Eta: 0.1, Theta: 0.5, Beta: 0.01, Beta1: 0.01}, seed)
	}},
	{"ubauc", func(b kernels.Backend, dim int, seed uint64) (ckptOnline, error) {
		return NewUBAUC(b, dim, UBAUCParams{Eta: 0.1, Beta: 0.1, Gamma: 0.01}, seed)
	}},
}

// TestLazySolversCheckpoint: the same seed gives identical weights, and a solver
// restored from a checkpoint taken mid-stream continues bit-identically.
func TestLazySolversCheckpoint(t *testing.T) {
	d := sparseStream(1500, 300, 20, 7)
	for _, c := range lazySolvers {
		for _, b := range testBackends(t) {
			t.Run(c.name+"/"+b.Name(), func(t *testing.T) {
				s1, err := c.make(b, d.Dim, 5)
				if err != nil {
					t.Fatal(err)
				}
				s2, _ := c.make(b, d.Dim, 5)
				const k = 700
				for i := range k {
					s1.Observe(d.Row(i), d.Y[i])
					s2.Observe(d.Row(i), d.Y[i])
				}
				blob, err := s1.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				s3, _ := c.make(b, d.Dim, 99)
				if err := s3.UnmarshalBinary(blob); err != nil {
					t.Fatal(err)
				}
				for i := k; i < d.Rows(); i++ {
					a, bb, cc := s1.Observe(d.Row(i), d.Y[i]), s2.Observe(d.Row(i), d.Y[i]), s3.Observe(d.Row(i), d.Y[i])
					if a != bb || a != cc {
						t.Fatalf("example %d: scores %v, %v (same seed), %v (restored)", i, a, bb, cc)
					}
				}
				w1, w2, w3 := s1.Weights(), s2.Weights(), s3.Weights()
				for j := range w1 {
					if w1[j] != w2[j] || w1[j] != w3[j] {
						t.Fatalf("w[%d]: %v, %v (same seed), %v (restored)", j, w1[j], w2[j], w3[j])
					}
				}
				if err := s3.UnmarshalBinary(blob[:len(blob)/2]); err == nil {
					t.Error("a truncated checkpoint was accepted")
				}
				other, _ := c.make(b, d.Dim+1, 5)
				if err := other.UnmarshalBinary(blob); err == nil {
					t.Error("a checkpoint of another dimension was accepted")
				}
			})
		}
	}
}

// TestLazySolversBackendsAgree: generic and avx2 give the same weights to 1e-9.
func TestLazySolversBackendsAgree(t *testing.T) {
	bs := testBackends(t)
	if len(bs) < 2 {
		t.Skip("only one backend")
	}
	d := sparseStream(2000, 300, 20, 8)
	for _, c := range lazySolvers {
		var ws [][]float64
		for _, b := range bs {
			s, err := c.make(b, d.Dim, 1)
			if err != nil {
				t.Fatal(err)
			}
			feed(t, s, d, 2, 3)
			ws = append(ws, s.Weights())
		}
		for k := 1; k < len(ws); k++ {
			if e := maxRelDiff(ws[k], ws[0]); e > 1e-9 {
				t.Errorf("%s: %s and %s differ by %.3g", c.name, bs[0].Name(), bs[k].Name(), e)
			}
		}
	}
}

// TestLazySolversNoAllocs: Observe allocates nothing in steady state.
func TestLazySolversNoAllocs(t *testing.T) {
	d := sparseStream(400, 300, 20, 9)
	for _, c := range lazySolvers {
		for _, b := range testBackends(t) {
			s, err := c.make(b, d.Dim, 1)
			if err != nil {
				t.Fatal(err)
			}
			feed(t, s, d, 1, 1)
			i := 0
			if n := testing.AllocsPerRun(200, func() {
				s.Observe(d.Row(i%d.Rows()), d.Y[i%d.Rows()])
				i++
			}); n != 0 {
				t.Errorf("%s/%s: %v allocations per Observe", c.name, b.Name(), n)
			}
		}
	}
}

func TestSOLAMParams(t *testing.T) {
	b := testBackends(t)[0]
	for _, p := range []SOLAMParams{
		{Zeta: 0, Lambda: 1, Kappa: 1},
		{Zeta: math.Inf(1), Lambda: 1, Kappa: 1},
		{Zeta: 1, Lambda: -1, Kappa: 1},
		{Zeta: 1, Lambda: 0, R: 0, Kappa: 1},
		{Zeta: 1, Lambda: 1, R: -1, Kappa: 1},
		{Zeta: 1, Lambda: 1, Kappa: 0},
	} {
		if _, err := NewSOLAM(b, 10, p, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%+v: error %v, want ErrParam", p, err)
		}
	}
	if _, err := NewSOLAM(b, 0, DefaultSOLAMParams(), 1); !errors.Is(err, ErrParam) {
		t.Errorf("dim 0: error %v, want ErrParam", err)
	}
	p := DefaultSOLAMParams()
	if _, err := NewSOLAM(b, 10, p, 1); err != nil {
		t.Fatal(err)
	}
	if got := p.radius(); got != 10 {
		t.Errorf("default radius %v, want 10", got)
	}
	p.R = 0
	if got, want := p.radius(), math.Sqrt(2/p.Lambda); got != want {
		t.Errorf("radius with R = 0: %v, want √(2/λ) = %v", got, want)
	}
	if err := Set(&p, "zeta", "28"); err != nil || p.Zeta != 28 {
		t.Errorf("Set zeta: %v, %v", err, p.Zeta)
	}
	if got := Keys(&p); !slices.Equal(got, []string{"zeta", "R", "lambda", "kappa"}) {
		t.Errorf("keys %v", got)
	}
	if n := len(SOLAMGrid.Points()); n != 12*11 {
		t.Errorf("grid has %d points, want 132", n)
	}
}

// TestSOLAMOracleDirection: on a well-conditioned Gaussian problem regSOLAM's average
// approaches the direction of the exact λ-regularised square-loss minimiser as passes
// grow (slowly: the γ-weighted average keeps its early iterates), and its last iterate
// gets close.
func TestSOLAMOracleDirection(t *testing.T) {
	d := gaussian(4000, 10, 0.4, 1.5, 11)
	const lambda = 0.1
	ws := oracle(t, d, lambda)
	b := testBackends(t)[0]
	prev := 2.0
	var s *SOLAM
	for _, passes := range []int{1, 4, 16} {
		var err error
		s, err = NewSOLAM(b, d.Dim, SOLAMParams{Zeta: 0.2, Lambda: lambda, Kappa: 5}, 1)
		if err != nil {
			t.Fatal(err)
		}
		feed(t, s, d, passes, 1)
		c := 1 - cosine(s.Weights(), ws)
		t.Logf("passes %d: 1 − cos(w̄, w*) = %.3g, last iterate %.3g", passes, c, 1-cosine(s.Current(), ws))
		if c > prev {
			t.Errorf("passes %d: 1 − cos = %.3g, not below %.3g", passes, c, prev)
		}
		prev = c
	}
	if prev > 0.02 {
		t.Errorf("final 1 − cos(w̄, w*) = %.3g, want ≤ 0.02", prev)
	}
	if c := 1 - cosine(s.Current(), ws); c > 0.005 {
		t.Errorf("final 1 − cos(w, w*) = %.3g, want ≤ 0.005", c)
	}
}

// normalized returns d with every row scaled to unit norm, the thesis's preparation
// for SOLAM (x ← x/‖x‖; κ = 1).
func normalized(d *data.Dataset) *data.Dataset {
	out := &data.Dataset{Name: d.Name + "-normalized", Dim: d.Dim, Ptr: []int64{0}}
	var val []float64
	for i := range d.Rows() {
		r := d.Row(i)
		n := math.Sqrt(lazySqNorm(r))
		val = val[:0]
		for _, v := range r.Val {
			val = append(val, v/n)
		}
		out.Append(d.Y[i], d.Labels[i], kernels.Sparse{Idx: r.Idx, Val: val})
	}
	return out
}

// TestSOLAMA9A: regSOLAM on a9a (rows normalised as in the thesis, 3 passes) reaches the
// paper's level (thesis Table 3.2: .8970 ± .0048).
func TestSOLAMA9A(t *testing.T) {
	if testing.Short() {
		t.Skip("a9a")
	}
	train, test := a9a(t)
	train = normalized(train)
	p := SOLAMParams{Zeta: 28, Lambda: 1e-3, Kappa: 1}
	for _, b := range testBackends(t) {
		s, err := NewSOLAM(b, train.Dim, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		feed(t, s, train, 3, 1)
		auc := testAUC(t, s.Weights(), test)
		t.Logf("%s: regSOLAM ζ=%g λ=%g, 3 passes: test AUC %.4f", b.Name(), p.Zeta, p.Lambda, auc)
		if auc < 0.89 {
			t.Errorf("test AUC %.4f, want ≥ 0.89", auc)
		}
	}
}

// cosine is a·b/(‖a‖‖b‖).
func cosine(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	return ab / math.Sqrt(aa*bb)
}
