package solver

import (
	"encoding"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// naiveOPAUC is a plain transcription of Algorithm 1 of Gao et al. (2013) with the
// covariance fix of docs/ALGORITHMS.md, "OPAUC": full d×d matrices, O(d²) per step, float64.
type naiveOPAUC struct {
	d           int
	eta, lambda float64
	w           []float64
	n           [2]int       // T₋, T₊
	c           [2][]float64 // c₋, c₊
	cov         [2][]float64 // Γ₋, Γ₊ (full d×d)
}

func newNaiveOPAUC(d int, eta, lambda float64) *naiveOPAUC {
	s := &naiveOPAUC{d: d, eta: eta, lambda: lambda, w: make([]float64, d)}
	for i := range 2 {
		s.c[i], s.cov[i] = make([]float64, d), make([]float64, d*d)
	}
	return s
}

// observe takes a dense x, steps w ← w − ηg and returns the pre-update score.
func (s *naiveOPAUC) observe(x []float64, y int8) float64 {
	score, g := s.gradient(x, y)
	for i := range g {
		s.w[i] -= s.eta * g[i]
	}
	return score
}

// gradient updates the class statistics with x and returns the pre-update score and
// the gradient (nil while the other class is empty).
func (s *naiveOPAUC) gradient(x []float64, y int8) (float64, []float64) {
	d := s.d
	var score float64
	for i := range d {
		score += s.w[i] * x[i]
	}
	own := 0
	if y == 1 {
		own = 1
	}
	oth := 1 - own
	// T += 1; c_t = c_{t−1} + (x − c_{t−1})/T;
	// Γ_t = Γ_{t−1} + (xxᵀ − Γ_{t−1} − c_{t−1}c_{t−1}ᵀ)/T + c_{t−1}c_{t−1}ᵀ − c_t c_tᵀ
	s.n[own]++
	T := float64(s.n[own])
	prev := slices.Clone(s.c[own])
	for i := range d {
		s.c[own][i] += (x[i] - prev[i]) / T
	}
	c, G := s.c[own], s.cov[own]
	for i := range d {
		for j := range d {
			G[i*d+j] += (x[i]*x[j]-G[i*d+j]-prev[i]*prev[j])/T + prev[i]*prev[j] - c[i]*c[j]
		}
	}
	if s.n[oth] == 0 {
		return score, nil
	}
	// y = +1: g = λw − x + c₋ + (x − c₋)(x − c₋)ᵀw + S₋w; y = −1: g = λw + x − c₊ + (x − c₊)(x − c₊)ᵀw + S₊w
	co, So := s.c[oth], s.cov[oth]
	var vw float64
	for i := range d {
		vw += (x[i] - co[i]) * s.w[i]
	}
	g := make([]float64, d)
	for i := range d {
		g[i] = s.lambda*s.w[i] - float64(y)*(x[i]-co[i]) + (x[i]-co[i])*vw
		for j := range d {
			g[i] += So[i*d+j] * s.w[j]
		}
	}
	return score, g
}

// naiveOPAUCr is a plain transcription of OPAUCr (Gao et al. 2013, Eqs. 8–11, with the
// 1/√τ fix and Ŝ = (1/T) Ẑ Ẑᵀ, Ẑ = Z − c sᵀ), drawing the r_t as OPAUCr does.
type naiveOPAUCr struct {
	d, tau      int
	eta, lambda float64
	w           []float64
	n           [2]int
	c, s, z     [2][]float64 // means, s = Σ r/√τ, Z = Σ x rᵀ/√τ (d×τ)
	rng         *rand.Rand
}

func newNaiveOPAUCr(d, tau int, eta, lambda float64, seed uint64) *naiveOPAUCr {
	s := &naiveOPAUCr{d: d, tau: tau, eta: eta, lambda: lambda, w: make([]float64, d),
		rng: rand.New(rand.NewPCG(seed, 0x6f7061756372))}
	for i := range 2 {
		s.c[i], s.s[i], s.z[i] = make([]float64, d), make([]float64, tau), make([]float64, d*tau)
	}
	return s
}

func (s *naiveOPAUCr) observe(x []float64, y int8) float64 {
	d, tau := s.d, s.tau
	var score float64
	for i := range d {
		score += s.w[i] * x[i]
	}
	own := 0
	if y == 1 {
		own = 1
	}
	oth := 1 - own
	if T := float64(s.n[oth]); T > 0 {
		c, sv, z := s.c[oth], s.s[oth], s.z[oth]
		zh := make([]float64, d*tau) // Ẑ = Z − c sᵀ
		for i := range d {
			for k := range tau {
				zh[i*tau+k] = z[i*tau+k] - c[i]*sv[k]
			}
		}
		q := make([]float64, tau) // Ẑᵀw
		for i := range d {
			for k := range tau {
				q[k] += zh[i*tau+k] * s.w[i]
			}
		}
		var vw float64
		for i := range d {
			vw += (x[i] - c[i]) * s.w[i]
		}
		g := make([]float64, d)
		for i := range d {
			g[i] = s.lambda*s.w[i] + (vw-float64(y))*(x[i]-c[i])
			for k := range tau {
				g[i] += zh[i*tau+k] * q[k] / T
			}
		}
		for i := range d {
			s.w[i] -= s.eta * g[i]
		}
	}
	s.n[own]++
	T := float64(s.n[own])
	r := make([]float64, tau)
	for k := range r {
		r[k] = s.rng.NormFloat64() / math.Sqrt(float64(tau))
	}
	for i := range d {
		s.c[own][i] += (x[i] - s.c[own][i]) / T
		for k := range tau {
			s.z[own][i*tau+k] += x[i] * r[k]
		}
	}
	for k := range tau {
		s.s[own][k] += r[k]
	}
	return score
}

// opaucStream returns n rows of dimension d, a third dense (all d indices) and the
// rest sparse, with non-zero class means; the first lead rows are positive, so that the
// negative class is empty at the start.
func opaucStream(n, d, lead int, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 7))
	ds := &data.Dataset{Name: "mixed", Dim: d, Ptr: []int64{0}}
	for i := range n {
		y := int8(1)
		if i >= lead && r.IntN(5) < 2 {
			y = -1
		}
		var x kernels.Sparse
		dense := r.IntN(3) == 0
		for j := range d {
			if dense || r.Float64() < 0.4 {
				x.Idx = append(x.Idx, int32(j))
				x.Val = append(x.Val, 2*r.Float64()-1+0.3*float64(y)+0.2*float64(j%3))
			}
		}
		ds.Append(y, float64(y), x)
	}
	return ds
}

func opaucDense(x kernels.Sparse, d int) []float64 {
	out := make([]float64, d)
	for k, j := range x.Idx {
		out[j] = x.Val[k]
	}
	return out
}

func TestOPAUCMatchesNaive(t *testing.T) {
	const d, n = 9, 400
	ds := opaucStream(n, d, 10, 3)
	p := OPAUCParams{Eta: 0.05, Lambda: 0.01}
	for _, b := range testBackends(t) {
		for _, block := range []int{1, 3, 8, opaucBlock} {
			t.Run(fmt.Sprintf("backend=%s/block=%d", b.Name(), block), func(t *testing.T) {
				s, err := newOPAUCBlock(b, d, p, block)
				if err != nil {
					t.Fatal(err)
				}
				ref := newNaiveOPAUC(d, p.Eta, p.Lambda)
				var worst float64
				for i := range ds.Rows() {
					x := ds.Row(i)
					got, want := s.Observe(x, ds.Y[i]), ref.observe(opaucDense(x, d), ds.Y[i])
					if e := math.Abs(got-want) / max(1, math.Abs(want)); e > 1e-10 {
						t.Fatalf("example %d: score %v, want %v", i, got, want)
					}
					if i%50 == 49 || i == ds.Rows()-1 {
						worst = max(worst, dist(s.Weights(), ref.w))
					}
				}
				if worst > 1e-10 {
					t.Errorf("‖w − w_naive‖/‖w_naive‖ = %.3g, want ≤ 1e-10", worst)
				}
				t.Logf("relative distance to the naive transcription: %.3g", worst)
			})
		}
	}
}

func TestOPAUCrMatchesNaive(t *testing.T) {
	const d, n, tau = 9, 300, 5
	ds := opaucStream(n, d, 10, 4)
	p := OPAUCrParams{Eta: 0.05, Lambda: 0.01, Tau: tau}
	for _, b := range testBackends(t) {
		s, err := NewOPAUCr(b, d, p, 3)
		if err != nil {
			t.Fatal(err)
		}
		ref := newNaiveOPAUCr(d, tau, p.Eta, p.Lambda, 3)
		for i := range ds.Rows() {
			x := ds.Row(i)
			got, want := s.Observe(x, ds.Y[i]), ref.observe(opaucDense(x, d), ds.Y[i])
			if e := math.Abs(got-want) / max(1, math.Abs(want)); e > 1e-10 {
				t.Fatalf("%s: example %d: score %v, want %v", b.Name(), i, got, want)
			}
		}
		if e := dist(s.Weights(), ref.w); e > 1e-10 {
			t.Errorf("%s: ‖w − w_naive‖/‖w_naive‖ = %.3g, want ≤ 1e-10", b.Name(), e)
		}
	}
}

// TestOPAUCfAll: keeping every feature, OPAUC^f is OPAUC bit for bit.
func TestOPAUCfAll(t *testing.T) {
	const d = 20
	ds := opaucStream(300, d, 3, 6)
	for _, b := range testBackends(t) {
		s, _ := NewOPAUC(b, d, OPAUCParams{Eta: 0.03, Lambda: 0.01}, 0)
		f, _ := NewOPAUCf(b, d, OPAUCfParams{Eta: 0.03, Lambda: 0.01, Features: 1000}, 5)
		opaucRun(t, s, ds, 0, ds.Rows())
		opaucRun(t, f, ds, 0, ds.Rows())
		if !slices.Equal(s.Weights(), f.Weights()) {
			t.Errorf("%s: OPAUC^f with all features differs from OPAUC by %.3g", b.Name(), dist(f.Weights(), s.Weights()))
		}
		// a subset: zero weights off the kept features
		f, _ = NewOPAUCf(b, d, OPAUCfParams{Eta: 0.03, Lambda: 0.01, Features: 7}, 5)
		opaucRun(t, f, ds, 0, ds.Rows())
		kept := f.Features()
		for j, wj := range f.Weights() {
			if _, in := slices.BinarySearch(kept, int32(j)); !in && wj != 0 {
				t.Errorf("%s: w[%d] = %v off the kept features %v", b.Name(), j, wj, kept)
			}
		}
	}
}

// TestOPAUCrpMatchesNaive: OPAUC^rp is OPAUC on x̂ = Rᵀx, and its scores are w·x with
// w = R ŵ.
func TestOPAUCrpMatchesNaive(t *testing.T) {
	const d, k = 15, 6
	ds := opaucStream(300, d, 4, 8)
	for _, b := range testBackends(t) {
		s, _ := NewOPAUCrp(b, d, OPAUCrpParams{Eta: 0.03, Lambda: 0.01, Dims: k}, 2)
		r := make([]float64, d*k)
		b.Download(r, s.r)
		ref := newNaiveOPAUC(k, 0.03, 0.01)
		for i := range ds.Rows() {
			x := opaucDense(ds.Row(i), d)
			xh := make([]float64, k)
			for j := range d {
				for l := range k {
					xh[l] += r[j*k+l] * x[j]
				}
			}
			var wx float64
			for j, wj := range s.Weights() {
				wx += wj * x[j]
			}
			got, want := s.Observe(ds.Row(i), ds.Y[i]), ref.observe(xh, ds.Y[i])
			if math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) || math.Abs(wx-want) > 1e-10*max(1, math.Abs(want)) {
				t.Fatalf("%s: example %d: score %v (w·x %v), want %v", b.Name(), i, got, wx, want)
			}
		}
		if e := dist(s.core.weights(), ref.w); e > 1e-10 {
			t.Errorf("%s: ‖ŵ − ŵ_naive‖/‖ŵ_naive‖ = %.3g", b.Name(), e)
		}
	}
}

// TestOPAUCrpIdentity: from Dims ≥ d, OPAUC^rp is OPAUC on the rows as read: the same
// scores and weights, bit for bit, on dense and sparse rows.
func TestOPAUCrpIdentity(t *testing.T) {
	const d = 12
	for _, dense := range []bool{false, true} {
		ds := opaucStream(200, d, 4, 9)
		if dense {
			ds = ds.ToDense()
		}
		for _, b := range testBackends(t) {
			for _, dims := range []int{d, 1000} {
				rp, err := NewOPAUCrp(b, d, OPAUCrpParams{Eta: 0.03, Lambda: 0.01, Dims: dims}, 2)
				if err != nil {
					t.Fatal(err)
				}
				op, _ := NewOPAUC(b, d, OPAUCParams{Eta: 0.03, Lambda: 0.01}, 2)
				for i := range ds.Rows() {
					if got, want := rp.Observe(ds.Row(i), ds.Y[i]), op.Observe(ds.Row(i), ds.Y[i]); got != want {
						t.Fatalf("%s, dense %t, dims %d: example %d: score %v, OPAUC %v", b.Name(), dense, dims, i, got, want)
					}
				}
				if !slices.Equal(rp.Weights(), op.Weights()) {
					t.Errorf("%s, dense %t, dims %d: weights differ from OPAUC's", b.Name(), dense, dims)
				}
			}
		}
	}
}

// opaucVariants are the solvers of this file (and AdaOAM) behind one shape, for the
// table-driven tests.
type opaucCheckpointer interface {
	Online
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

type opaucVariant struct {
	name string
	make func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error)
}

var opaucVariants = []opaucVariant{
	{"OPAUC", func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error) {
		return NewOPAUC(b, dim, OPAUCParams{Eta: 0.02, Lambda: 0.01}, seed)
	}},
	{"OPAUCr", func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error) {
		return NewOPAUCr(b, dim, OPAUCrParams{Eta: 0.02, Lambda: 0.01, Tau: 7}, seed)
	}},
	{"OPAUCr, τ ≥ d", func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error) {
		return NewOPAUCr(b, dim, OPAUCrParams{Eta: 0.02, Lambda: 0.01, Tau: dim}, seed)
	}},
	{"OPAUCf", func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error) {
		return NewOPAUCf(b, dim, OPAUCfParams{Eta: 0.02, Lambda: 0.01, Features: dim / 2}, seed)
	}},
	{"OPAUCrp", func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error) {
		return NewOPAUCrp(b, dim, OPAUCrpParams{Eta: 0.02, Lambda: 0.01, Dims: dim / 3}, seed)
	}},
	{"OPAUCrp, R = I", func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error) {
		return NewOPAUCrp(b, dim, OPAUCrpParams{Eta: 0.02, Lambda: 0.01, Dims: dim}, seed)
	}},
	{"AdaOAM", func(b kernels.Backend, dim int, seed uint64) (opaucCheckpointer, error) {
		return NewAdaOAM(b, dim, AdaOAMParams{Eta: 0.05, Lambda: 0.01, Delta: 1e-8}, seed)
	}},
}

func opaucRun(t *testing.T, s Online, ds *data.Dataset, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		if sc := s.Observe(ds.Row(i), ds.Y[i]); math.IsNaN(sc) || math.IsInf(sc, 0) {
			t.Fatalf("example %d: score %v", i, sc)
		}
	}
}

func TestOPAUCCheckpoint(t *testing.T) {
	const d, n, k = 30, 500, 137
	ds := opaucStream(n, d, 5, 11)
	for _, v := range opaucVariants {
		for _, b := range testBackends(t) {
			t.Run(v.name+"/backend="+b.Name(), func(t *testing.T) {
				s1, err := v.make(b, d, 42)
				if err != nil {
					t.Fatal(err)
				}
				s2, _ := v.make(b, d, 42)
				opaucRun(t, s1, ds, 0, k)
				blob, err := s1.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				fresh, _ := v.make(b, d, 7) // another seed: the checkpoint's must win
				if err := fresh.UnmarshalBinary(blob); err != nil {
					t.Fatal(err)
				}
				opaucRun(t, s1, ds, k, n)
				opaucRun(t, fresh, ds, k, n)
				opaucRun(t, s2, ds, 0, n)
				w1, wr, w2 := s1.Weights(), fresh.Weights(), s2.Weights()
				if !slices.Equal(w1, wr) {
					t.Errorf("restored after %d examples: weights differ from the uninterrupted run (distance %.3g)", k, dist(wr, w1))
				}
				if !slices.Equal(w1, w2) {
					t.Errorf("same seed: weights differ (distance %.3g)", dist(w2, w1))
				}
				if err := fresh.UnmarshalBinary(blob[:len(blob)/2]); err == nil {
					t.Errorf("truncated state: no error")
				}
			})
		}
	}
}

func TestOPAUCBackendsAgree(t *testing.T) {
	bs := testBackends(t)
	if len(bs) < 2 {
		t.Skip("avx2 backend not available")
	}
	train, _ := a9a(t)
	sub := train.Subset(data.Shuffle(train.Rows(), 5)[:3000])
	for _, v := range opaucVariants {
		t.Run(v.name, func(t *testing.T) {
			var ws [][]float64
			for _, b := range bs {
				s, err := v.make(b, sub.Dim, 9)
				if err != nil {
					t.Fatal(err)
				}
				opaucRun(t, s, sub, 0, sub.Rows())
				ws = append(ws, s.Weights())
			}
			if e := dist(ws[1], ws[0]); e > 1e-9 {
				t.Errorf("‖w_avx2 − w_generic‖/‖w_generic‖ = %.3g, want ≤ 1e-9", e)
			} else {
				t.Logf("‖w_avx2 − w_generic‖/‖w_generic‖ = %.3g", e)
			}
		})
	}
}

func TestOPAUCParams(t *testing.T) {
	b := fallback.New()
	ok := DefaultOPAUCParams()
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"eta=0", func() error { p := ok; p.Eta = 0; _, err := NewOPAUC(b, 3, p, 0); return err }()},
		{"eta<0", func() error { p := ok; p.Eta = -1; _, err := NewOPAUC(b, 3, p, 0); return err }()},
		{"eta=inf", func() error { p := ok; p.Eta = math.Inf(1); _, err := NewOPAUC(b, 3, p, 0); return err }()},
		{"lambda<0", func() error { p := ok; p.Lambda = -1e-3; _, err := NewOPAUC(b, 3, p, 0); return err }()},
		{"dim=0", func() error { _, err := NewOPAUC(b, 0, ok, 0); return err }()},
		{"tau=0", func() error {
			p := DefaultOPAUCrParams()
			p.Tau = 0
			_, err := NewOPAUCr(b, 3, p, 0)
			return err
		}()},
		{"opaucr eta=0", func() error {
			p := DefaultOPAUCrParams()
			p.Eta = 0
			_, err := NewOPAUCr(b, 3, p, 0)
			return err
		}()},
		{"features=0", func() error {
			p := DefaultOPAUCfParams()
			p.Features = 0
			_, err := NewOPAUCf(b, 3, p, 0)
			return err
		}()},
		{"dims=0", func() error {
			p := DefaultOPAUCrpParams()
			p.Dims = 0
			_, err := NewOPAUCrp(b, 3, p, 0)
			return err
		}()},
		{"opaucrp lambda<0", func() error {
			p := DefaultOPAUCrpParams()
			p.Lambda = -1
			_, err := NewOPAUCrp(b, 3, p, 0)
			return err
		}()},
		{"delta<0", func() error {
			p := DefaultAdaOAMParams()
			p.Delta = -1
			_, err := NewAdaOAM(b, 3, p, 0)
			return err
		}()},
		{"adaoam eta=0", func() error {
			p := DefaultAdaOAMParams()
			p.Eta = 0
			_, err := NewAdaOAM(b, 3, p, 0)
			return err
		}()},
	} {
		if !errors.Is(tc.err, ErrParam) {
			t.Errorf("%s: error %v, want one wrapping ErrParam", tc.name, tc.err)
		}
	}
	// lambda = 0 is allowed; the keys are the documented ones
	if _, err := NewOPAUC(b, 3, OPAUCParams{Eta: 1, Lambda: 0}, 0); err != nil {
		t.Errorf("lambda=0: %v", err)
	}
	for _, tc := range []struct {
		p    Params
		keys []string
	}{
		{paramsOf(&OPAUCParams{}), []string{"eta", "lambda"}},
		{paramsOf(&OPAUCrParams{}), []string{"eta", "lambda", "tau"}},
		{paramsOf(&OPAUCfParams{}), []string{"eta", "lambda", "features"}},
		{paramsOf(&OPAUCrpParams{}), []string{"eta", "lambda", "dims"}},
		{paramsOf(&AdaOAMParams{}), []string{"eta", "lambda", "delta"}},
	} {
		if got := tc.p.Keys(); !slices.Equal(got, tc.keys) {
			t.Errorf("Keys(%T) = %v, want %v", tc.p.ptr, got, tc.keys)
		}
	}
	if n := len(OPAUCGrid.Points()); n != 23*13 {
		t.Errorf("OPAUCGrid has %d points, want %d", n, 23*13)
	}
}

func TestOPAUCAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop pooled jobs at random, so Observe allocates now and then")
	}
	const d = 40
	ds := opaucStream(600, d, 0, 5)
	for _, v := range opaucVariants {
		for _, b := range testBackends(t) {
			s, err := v.make(b, d, 1)
			if err != nil {
				t.Fatal(err)
			}
			opaucRun(t, s, ds, 0, 300) // warm up: every view and pool job made
			i := 300
			allocs := testing.AllocsPerRun(200, func() {
				s.Observe(ds.Row(i), ds.Y[i])
				i++
			})
			if allocs != 0 {
				t.Errorf("%s/%s: %v allocations per Observe, want 0", v.name, b.Name(), allocs)
			}
		}
	}
}

// TestOPAUCrApproachesOPAUC: the sketched covariances are unbiased with variance
// O(1/τ), so OPAUCr's weights approach OPAUC's on the same stream as τ grows; from
// τ ≥ d OPAUCr is OPAUC, bit for bit.
func TestOPAUCrApproachesOPAUC(t *testing.T) {
	const d = 40
	ds := gaussian(3000, d, 0.4, 1.5, 21)
	b := testBackends(t)[len(testBackends(t))-1]
	p := OPAUCParams{Eta: 0x1p-8, Lambda: 0x1p-6}
	ref, _ := NewOPAUC(b, d, p, 0)
	opaucRun(t, ref, ds, 0, ds.Rows())
	wRef := ref.Weights()
	var prev float64 = math.Inf(1)
	for _, tau := range []int{4, 8, 16, 32} {
		var mean float64
		const seeds = 6
		for seed := range uint64(seeds) {
			s, _ := NewOPAUCr(b, d, OPAUCrParams{Eta: p.Eta, Lambda: p.Lambda, Tau: tau}, seed)
			opaucRun(t, s, ds, 0, ds.Rows())
			mean += dist(s.Weights(), wRef) / seeds
		}
		t.Logf("τ = %3d: mean ‖w_OPAUCr − w_OPAUC‖/‖w_OPAUC‖ = %.4f", tau, mean)
		if mean > prev*1.05 {
			t.Errorf("τ = %d: distance %.4f did not fall (previous %.4f)", tau, mean, prev)
		}
		prev = mean
	}
	// At τ < d the sketch's noise stays: τ = 4 → 32 takes the distance from about .41 to
	// .31 on this stream.
	if prev > 0.35 {
		t.Errorf("τ = 32: distance %.4f, want ≤ 0.35", prev)
	}
	s, _ := NewOPAUCr(b, d, OPAUCrParams{Eta: p.Eta, Lambda: p.Lambda, Tau: d}, 1)
	opaucRun(t, s, ds, 0, ds.Rows())
	if !slices.Equal(s.Weights(), wRef) {
		t.Errorf("τ = d: weights differ from OPAUC's (distance %.3g)", dist(s.Weights(), wRef))
	}
}

// TestOPAUCOracle: OPAUC's expected gradient is (S₊ + S₋ + δδᵀ + λI)w − δ, so its
// stationary point is the oracle w* with the same λ. With a constant η the iterate
// settles within O(η) of it: for a small η the distance falls pass after pass, and the
// floor it reaches falls with η.
func TestOPAUCOracle(t *testing.T) {
	const d = 10
	ds := gaussian(2000, d, 0.3, 1.5, 8)
	lambda := 0x1p-4
	want := oracle(t, ds, lambda)
	b := testBackends(t)[len(testBackends(t))-1]
	floor := math.Inf(1)
	for _, eta := range []float64{0x1p-9, 0x1p-12, 0x1p-14} {
		s, _ := NewOPAUC(b, d, OPAUCParams{Eta: eta, Lambda: lambda}, 0)
		var dists []float64
		passes := 0
		for _, upto := range []int{1, 4, 16, 64} {
			feed(t, s, ds, upto-passes, uint64(100+passes))
			passes = upto
			dists = append(dists, dist(s.Weights(), want))
			t.Logf("η = 2^%d, %2d passes: ‖w − w*‖/‖w*‖ = %.4f", int(math.Log2(eta)), passes, dists[len(dists)-1])
		}
		last := dists[len(dists)-1]
		if last >= floor {
			t.Errorf("η = %g: distance %.4f after %d passes, not below %.4f of the larger η", eta, last, passes, floor)
		}
		floor = last
		if eta == 0x1p-14 {
			for i := 1; i < len(dists); i++ {
				if dists[i] >= dists[i-1] {
					t.Errorf("η = 2^-14: distance rose from %.4f to %.4f", dists[i-1], dists[i])
				}
			}
			if last > 0.005 {
				t.Errorf("η = 2^-14: distance to the oracle %.4f after %d passes, want ≤ 0.005", last, passes)
			}
		}
	}
}

// TestOPAUCA9a: paper-like setting (features in [−1, 1], one pass, constant η on the
// paper's grid); the paper reports OPAUC 0.9002 on a9a.
func TestOPAUCA9a(t *testing.T) {
	train, test := a9a(t)
	b := testBackends(t)[len(testBackends(t))-1]
	for _, tc := range []struct {
		name string
		s    Online
		err  error
		want float64
	}{
		{name: "OPAUC", want: 0.89},
		{name: "OPAUCr", want: 0.89},
	} {
		switch tc.name {
		case "OPAUC":
			tc.s, tc.err = NewOPAUC(b, train.Dim, OPAUCParams{Eta: 0x1p-12, Lambda: 0x1p-10}, 1)
		case "OPAUCr":
			tc.s, tc.err = NewOPAUCr(b, train.Dim, OPAUCrParams{Eta: 0x1p-12, Lambda: 0x1p-10, Tau: 50}, 1)
		}
		if tc.err != nil {
			t.Fatal(tc.err)
		}
		feed(t, tc.s, train, 1, 1)
		auc := testAUC(t, tc.s.Weights(), test)
		t.Logf("%s on a9a, η = 2⁻¹², λ = 2⁻¹⁰, one pass: test AUC %.4f", tc.name, auc)
		if auc < tc.want {
			t.Errorf("%s: test AUC %.4f, want ≥ %.2f", tc.name, auc, tc.want)
		}
	}
}
