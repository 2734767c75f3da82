package solver

import (
	"encoding"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// blCkpt is an online learner with a checkpoint.
type blCkpt interface {
	Online
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// blSparse returns n sparse rows of dimension d with nnz standard normal values at
// random indices each, labelled by the sign of a random linear score plus noise,
// shifted so that about pos of them are positive.
func blSparse(n, d, nnz int, pos float64, seed uint64) *data.Dataset {
	r := rand.New(rand.NewPCG(seed, 7))
	truth := make([]float64, d)
	for j := range truth {
		truth[j] = r.NormFloat64()
	}
	shift := math.Sqrt(float64(nnz)) * math.Sqrt2 * math.Erfinv(1-2*pos)
	ds := &data.Dataset{Name: "sparse", Dim: d, Ptr: []int64{0}}
	for range n {
		idx := make([]int32, 0, nnz)
		for _, j := range r.Perm(d)[:nnz] {
			idx = append(idx, int32(j))
		}
		slices.Sort(idx)
		x := kernels.Sparse{Idx: idx, Val: make([]float64, nnz)}
		score := r.NormFloat64()
		for k, j := range idx {
			x.Val[k] = r.NormFloat64()
			score += truth[j] * x.Val[k]
		}
		y := int8(-1)
		if score > shift {
			y = 1
		}
		ds.Append(y, float64(y), x)
	}
	return ds
}

// blDense is row i of d as a dense slice.
func blDense(d *data.Dataset, i int) []float64 {
	x := make([]float64, d.Dim)
	r := d.Row(i)
	for k, j := range r.Idx {
		x[j] = r.Val[k]
	}
	return x
}

// blDot is a·b.
func blDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// blRun feeds rows [lo, hi) of d in order and returns the scores.
func blRun(s Online, d *data.Dataset, lo, hi int) []float64 {
	out := make([]float64, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, s.Observe(d.Row(i), d.Y[i]))
	}
	return out
}

// blClose fails unless ‖got − want‖ ≤ tol·‖want‖ (or both are tiny).
func blClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	var num, den float64
	for i := range want {
		num += (got[i] - want[i]) * (got[i] - want[i])
		den += want[i] * want[i]
	}
	if math.IsNaN(num) || math.Sqrt(num) > tol*math.Max(math.Sqrt(den), 1e-300) {
		t.Errorf("%s: relative distance %.3g > %g", what, math.Sqrt(num/den), tol)
	}
}

// naiveOLR is OLR written out densely, with its unregularised bias b.
func naiveOLR(d *data.Dataset, p OLRParams) (w, scores []float64) {
	w = make([]float64, d.Dim)
	var b float64
	for i := range d.Rows() {
		x, y := blDense(d, i), float64(d.Y[i])
		s := blDot(w, x)
		scores = append(scores, s)
		eta := p.Eta / math.Sqrt(float64(i+1))
		g := y / (1 + math.Exp(y*(s+b)))
		for j := range w {
			w[j] = (1-eta*p.Lambda)*w[j] + eta*g*x[j]
		}
		b += eta * g
	}
	return w, scores
}

// naiveFTRL is FTRL-Proximal written out densely: every coordinate's weight is
// recomputed for every example, and every coordinate is updated (a zero feature has
// g_i = 0 and leaves z_i, n_i unchanged). The bias is the last coordinate, of a
// feature always 1, without λ₁ and λ₂.
func naiveFTRL(d *data.Dataset, p FTRLParams) (w, scores []float64) {
	z, n := make([]float64, d.Dim+1), make([]float64, d.Dim+1)
	w = make([]float64, d.Dim+1)
	weights := func() {
		for i := range w {
			w[i] = 0
			if i == d.Dim {
				w[i] = -z[i] / ((p.Beta + math.Sqrt(n[i])) / p.Alpha)
			} else if math.Abs(z[i]) > p.L1 {
				sgn := 1.0
				if z[i] < 0 {
					sgn = -1
				}
				w[i] = -(z[i] - sgn*p.L1) / ((p.Beta+math.Sqrt(n[i]))/p.Alpha + p.L2)
			}
		}
	}
	for r := range d.Rows() {
		x := append(blDense(d, r), 1)
		weights()
		s := blDot(w[:d.Dim], x[:d.Dim])
		scores = append(scores, s)
		pr := 1 / (1 + math.Exp(-(s + w[d.Dim])))
		y01 := 0.0
		if d.Y[r] == 1 {
			y01 = 1
		}
		for i := range w {
			g := (pr - y01) * x[i]
			sigma := (math.Sqrt(n[i]+g*g) - math.Sqrt(n[i])) / p.Alpha
			z[i] += g - sigma*w[i]
			n[i] += g * g
		}
	}
	weights()
	return w[:d.Dim], scores
}

// naiveUniExp is online Uni-Exp written out densely.
func naiveUniExp(d *data.Dataset, p UniExpParams) (w, scores []float64) {
	w = make([]float64, d.Dim)
	var nPos, bias float64
	for i := range d.Rows() {
		x, y := blDense(d, i), float64(d.Y[i])
		if y == 1 {
			nPos++
		}
		pHat := (nPos + 1) / (float64(i+1) + 2)
		rho := 1 / (2 * (1 - pHat))
		if y == 1 {
			rho = 1 / (2 * pHat)
		}
		s := blDot(w, x)
		scores = append(scores, s)
		eta := p.Eta / math.Sqrt(float64(i+1))
		// The implicit step a = ηρ e^{−y(w⁺·x + b⁺)}, by bisection of the increasing
		// a − ηρ e^{−(m + a k)} on [0, ηρ e^{−m}] (the explicit step bounds it).
		m, k := y*(s+bias), 1+blDot(x, x) // the score reported excludes the bias
		lo, hi := 0.0, eta*rho*math.Exp(-m)
		for range 200 {
			mid := (lo + hi) / 2
			if mid-eta*rho*math.Exp(-(m+mid*k)) < 0 {
				lo = mid
			} else {
				hi = mid
			}
		}
		a := (lo + hi) / 2
		for j := range w {
			w[j] = (1-eta*p.Lambda)*w[j] + a*y*x[j]
		}
		bias += a * y
	}
	return w, scores
}

// TestLambertWExp: W(e^L) solves u·e^u = e^L (checked as u + ln u = L) across the
// ranges of both iterations, including e^L far beyond float64.
func TestLambertWExp(t *testing.T) {
	for _, L := range []float64{-700, -50, -5, -1, 0, 0.5, 1, 1.0000001, 2, 10, 100, 709, 710, 1e4, 1e300} {
		u := lambertWExp(L)
		if !(u > 0) {
			t.Errorf("W(e^%g) = %v, want > 0", L, u)
			continue
		}
		if got := u + math.Log(u); math.Abs(got-L) > 1e-13*max(1, math.Abs(L)) {
			t.Errorf("W(e^%g) = %v: u + ln u = %v", L, u, got)
		}
	}
	if u := lambertWExp(math.Inf(-1)); u != 0 {
		t.Errorf("W(0) = %v, want 0", u)
	}
}

// TestUniExpLargeSteps: steps large enough that plain SGD on the exponential loss
// overflows (η = 8 on rows of norm about 10, the explicit gradient reaching e^{1000})
// stay finite with the implicit step and still rank well.
func TestUniExpLargeSteps(t *testing.T) {
	d := gaussian(2000, 20, 0.2, 2, 3)
	for i := range d.Val {
		d.Val[i] *= 3
	}
	u, err := NewUniExp(testBackends(t)[0], d.Dim, UniExpParams{Eta: 8, Lambda: 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	feed(t, u, d, 1, 1) // fails on a non-finite score
	if auc := testAUC(t, u.Weights(), d); auc < 0.8 {
		t.Errorf("training AUC %.4f, want ≥ 0.8", auc)
	}
}

// blCase is one baseline learner with a setting and its dense transcription.
type blCase struct {
	name  string
	make  func(b kernels.Backend, dim int) (blCkpt, error)
	naive func(d *data.Dataset) (w, scores []float64)
}

func blCases() []blCase {
	olr := func(p OLRParams) blCase {
		return blCase{
			make:  func(b kernels.Backend, dim int) (blCkpt, error) { return NewOLR(b, dim, p, 1) },
			naive: func(d *data.Dataset) ([]float64, []float64) { return naiveOLR(d, p) },
		}
	}
	ftrl := func(p FTRLParams) blCase {
		return blCase{
			make:  func(b kernels.Backend, dim int) (blCkpt, error) { return NewFTRL(b, dim, p, 1) },
			naive: func(d *data.Dataset) ([]float64, []float64) { return naiveFTRL(d, p) },
		}
	}
	uni := func(p UniExpParams) blCase {
		return blCase{
			make:  func(b kernels.Backend, dim int) (blCkpt, error) { return NewUniExp(b, dim, p, 1) },
			naive: func(d *data.Dataset) ([]float64, []float64) { return naiveUniExp(d, p) },
		}
	}
	cases := []blCase{
		olr(OLRParams{Eta: 0.5, Lambda: 1e-3}),
		olr(OLRParams{Eta: 0.9, Lambda: 0.9}), // s falls below 1e-9: the rescale path
		olr(OLRParams{Eta: 0.1, Lambda: 0}),
		ftrl(FTRLParams{Alpha: 0.1, Beta: 1}),
		ftrl(FTRLParams{Alpha: 0.5, Beta: 0.5, L1: 0.5, L2: 0.1}), // some w_i are exactly 0
		uni(UniExpParams{Eta: 0.01, Lambda: 1e-3}),
		uni(UniExpParams{Eta: 0.02, Lambda: 0}),
	}
	names := []string{"OLR", "OLR/strong-l2", "OLR/no-l2", "FTRL", "FTRL/l1-l2", "UniExp", "UniExp/no-l2"}
	for i := range cases {
		cases[i].name = names[i]
	}
	return cases
}

// blData are the small streams of the transcription tests: sparse rows and dense rows
// (the dense layout).
func blData() []*data.Dataset {
	sp := blSparse(400, 60, 8, 0.3, 3)
	sp.Name = "sparse"
	de := gaussian(400, 20, 0.3, 1, 4).ToDense()
	de.Name = "dense"
	return []*data.Dataset{sp, de}
}

func TestBaselinesMatchNaive(t *testing.T) {
	for _, d := range blData() {
		for _, c := range blCases() {
			want, wantScores := c.naive(d)
			for _, b := range testBackends(t) {
				t.Run(d.Name+"/"+c.name+"/"+b.Name(), func(t *testing.T) {
					s, err := c.make(b, d.Dim)
					if err != nil {
						t.Fatal(err)
					}
					scores := blRun(s, d, 0, d.Rows())
					blClose(t, "scores", scores, wantScores, 1e-10)
					blClose(t, "weights", s.Weights(), want, 1e-10)
				})
			}
		}
	}
}

// TestBaselinesBackendsAgree runs each learner on every backend over a longer stream.
func TestBaselinesBackendsAgree(t *testing.T) {
	bs := testBackends(t)
	if len(bs) < 2 {
		t.Skip("one backend only")
	}
	d := blSparse(3000, 200, 20, 0.3, 5)
	for _, c := range blCases() {
		var ref []float64
		for k, b := range bs {
			s, err := c.make(b, d.Dim)
			if err != nil {
				t.Fatal(err)
			}
			blRun(s, d, 0, d.Rows())
			if k == 0 {
				ref = s.Weights()
			} else {
				blClose(t, c.name+" "+b.Name()+" vs "+bs[0].Name(), s.Weights(), ref, 1e-9)
			}
		}
	}
}

// blResume checkpoints a learner after k examples, restores the checkpoint into a
// fresh learner made by mk (with another seed) and checks that both continue
// bit-identically; it also checks that mk with one seed twice gives identical weights.
func blResume(t *testing.T, mk func(seed uint64) (blCkpt, error), d *data.Dataset, k int) {
	t.Helper()
	s1, err := mk(11)
	if err != nil {
		t.Fatal(err)
	}
	blRun(s1, d, 0, k)
	blob, err := s1.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	s2, err := mk(12)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.UnmarshalBinary(blob); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s1.Weights(), s2.Weights()) {
		t.Fatal("restored weights differ")
	}
	sc1, sc2 := blRun(s1, d, k, d.Rows()), blRun(s2, d, k, d.Rows())
	if !slices.Equal(sc1, sc2) || !slices.Equal(s1.Weights(), s2.Weights()) {
		t.Error("the restored learner does not continue bit-identically")
	}
	s3, err := mk(11)
	if err != nil {
		t.Fatal(err)
	}
	blRun(s3, d, 0, d.Rows())
	if !slices.Equal(s1.Weights(), s3.Weights()) {
		t.Error("one seed gave different weights")
	}
	if err := s2.UnmarshalBinary(blob[:len(blob)/2]); err == nil {
		t.Error("a truncated checkpoint was accepted")
	}
}

func TestBaselinesResume(t *testing.T) {
	d := blSparse(600, 60, 8, 0.3, 6)
	for _, c := range blCases() {
		for _, b := range testBackends(t) {
			t.Run(c.name+"/"+b.Name(), func(t *testing.T) {
				blResume(t, func(uint64) (blCkpt, error) { return c.make(b, d.Dim) }, d, 250)
			})
		}
	}
	// A checkpoint of another dimension is refused.
	b := testBackends(t)[0]
	for _, c := range blCases() {
		s, _ := c.make(b, 10)
		blob, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		s2, _ := c.make(b, 11)
		if err := s2.UnmarshalBinary(blob); err == nil {
			t.Errorf("%s: a checkpoint of dimension 10 restored into dimension 11", c.name)
		}
	}
}

func TestBaselinesParams(t *testing.T) {
	b := testBackends(t)[0]
	inf, nan := math.Inf(1), math.NaN()
	olr := func(eta, lambda float64) error { _, err := NewOLR(b, 5, OLRParams{eta, lambda}, 0); return err }
	uni := func(eta, lambda float64) error { _, err := NewUniExp(b, 5, UniExpParams{eta, lambda}, 0); return err }
	ftrl := func(p FTRLParams) error { _, err := NewFTRL(b, 5, p, 0); return err }
	ok := DefaultFTRLParams()
	with := func(f func(*FTRLParams)) FTRLParams { p := ok; f(&p); return p }
	for _, c := range []struct {
		name string
		err  error
	}{
		{"olr eta=0", olr(0, 0)}, {"olr eta<0", olr(-1, 0)}, {"olr eta=inf", olr(inf, 0)},
		{"olr eta=nan", olr(nan, 0)}, {"olr lambda<0", olr(1, -1)}, {"olr eta*lambda=1", olr(2, 0.5)},
		{"olr dim=0", func() error { _, err := NewOLR(b, 0, DefaultOLRParams(), 0); return err }()},
		{"uni eta=0", uni(0, 0)}, {"uni lambda=nan", uni(1, nan)}, {"uni eta*lambda>1", uni(4, 1)},
		{"uni dim<0", func() error { _, err := NewUniExp(b, -1, DefaultUniExpParams(), 0); return err }()},
		{"ftrl alpha=0", ftrl(with(func(p *FTRLParams) { p.Alpha = 0 }))},
		{"ftrl alpha=inf", ftrl(with(func(p *FTRLParams) { p.Alpha = inf }))},
		{"ftrl beta<0", ftrl(with(func(p *FTRLParams) { p.Beta = -1 }))},
		{"ftrl l1<0", ftrl(with(func(p *FTRLParams) { p.L1 = -1e-9 }))},
		{"ftrl l2=nan", ftrl(with(func(p *FTRLParams) { p.L2 = nan }))},
		{"ftrl dim=0", func() error { _, err := NewFTRL(b, 0, ok, 0); return err }()},
	} {
		if !errors.Is(c.err, ErrParam) {
			t.Errorf("%s: error %v, want ErrParam", c.name, c.err)
		}
	}
	for _, err := range []error{olr(1, 0), uni(1, 0.5), ftrl(ok), ftrl(FTRLParams{Alpha: 1})} {
		if err != nil {
			t.Errorf("a valid setting was refused: %v", err)
		}
	}
	// Keys, defaults and grids line up.
	for _, c := range []struct {
		p    Params
		keys []string
		grid Grid
	}{
		{paramsOf(&OLRParams{}), []string{"eta", "lambda"}, OLRGrid},
		{paramsOf(&FTRLParams{}), []string{"alpha", "beta", "l1", "l2"}, FTRLGrid},
		{paramsOf(&UniExpParams{}), []string{"eta", "lambda"}, UniExpGrid},
	} {
		if k := c.p.Keys(); !slices.Equal(k, c.keys) || !slices.Equal(c.grid.Keys, c.keys) {
			t.Errorf("%T: keys %v, grid keys %v, want %v", c.p.ptr, k, c.grid.Keys, c.keys)
		}
		for _, pt := range c.grid.Points()[:3] {
			if err := c.p.SetAll(pt); err != nil {
				t.Error(err)
			}
		}
	}
}

// blAllocs checks that Observe allocates nothing once warmed up.
func blAllocs(t *testing.T, s Online, d *data.Dataset) {
	t.Helper()
	blRun(s, d, 0, d.Rows()/2)
	i := d.Rows() / 2
	if n := testing.AllocsPerRun(200, func() {
		s.Observe(d.Row(i), d.Y[i])
		i++
		if i == d.Rows() {
			i = d.Rows() / 2
		}
	}); n != 0 {
		t.Errorf("%v allocations per Observe", n)
	}
}

func TestBaselinesAllocs(t *testing.T) {
	d := blSparse(600, 60, 8, 0.3, 8)
	for _, c := range blCases() {
		for _, b := range testBackends(t) {
			t.Run(c.name+"/"+b.Name(), func(t *testing.T) {
				s, err := c.make(b, d.Dim)
				if err != nil {
					t.Fatal(err)
				}
				blAllocs(t, s, d)
			})
		}
	}
}

func TestBaselinesPanicOnLabel(t *testing.T) {
	b := testBackends(t)[0]
	for _, c := range blCases()[:1] {
		s, _ := c.make(b, 3)
		func() {
			defer func() {
				if recover() == nil {
					t.Error("label 0 accepted")
				}
			}()
			s.Observe(kernels.Sparse{}, 0)
		}()
	}
	f, _ := NewFTRL(b, 3, DefaultFTRLParams(), 0)
	defer func() {
		if recover() == nil {
			t.Error("FTRL: index 3 accepted for dimension 3")
		}
	}()
	f.Observe(kernels.Sparse{Idx: []int32{3}, Val: []float64{1}}, 1)
}

// TestBaselinesA9A: one pass over a9a (scaled to [−1, 1]) in a seeded shuffled order
// reaches the univariate methods' usual test AUC (the papers' OPAUC is .900 there).
// Settings from a short search (one pass, seed 1): OLR η ∈ 2^[-8..3] best at 2⁻²
// (.9018, flat in λ ≤ 10⁻³); FTRL α ∈ 2^[-8..3] best at 2⁻⁴ (.9021; λ₁, λ₂ ≤ 1 change
// the fourth digit); Uni-Exp η ∈ 2^[-12..0] best at 2⁻⁷ (.896; 2⁻⁶ diverges).
func TestBaselinesA9A(t *testing.T) {
	train, test := a9a(t)
	b := testBackends(t)[len(testBackends(t))-1]
	for _, c := range []struct {
		name string
		make func() (Online, error)
		min  float64
	}{
		{"OLR", func() (Online, error) { return NewOLR(b, train.Dim, OLRParams{Eta: 0.25, Lambda: 1e-5}, 1) }, 0.89},
		{"FTRL", func() (Online, error) { return NewFTRL(b, train.Dim, FTRLParams{Alpha: 1.0 / 16, Beta: 1}, 1) }, 0.89},
		{"FTRL/l1", func() (Online, error) {
			return NewFTRL(b, train.Dim, FTRLParams{Alpha: 1.0 / 16, Beta: 1, L1: 1, L2: 1}, 1)
		}, 0.89},
		{"UniExp", func() (Online, error) { return NewUniExp(b, train.Dim, UniExpParams{Eta: 1.0 / 128, Lambda: 1e-5}, 1) }, 0.89},
		{"OLR/default", func() (Online, error) { return NewOLR(b, train.Dim, DefaultOLRParams(), 1) }, 0.89},
		{"FTRL/default", func() (Online, error) { return NewFTRL(b, train.Dim, DefaultFTRLParams(), 1) }, 0.89},
		{"UniExp/default", func() (Online, error) { return NewUniExp(b, train.Dim, DefaultUniExpParams(), 1) }, 0.89},
	} {
		s, err := c.make()
		if err != nil {
			t.Fatal(err)
		}
		feed(t, s, train, 1, 1)
		auc := testAUC(t, s.Weights(), test)
		t.Logf("%s: a9a test AUC %.4f", c.name, auc)
		if auc < c.min {
			t.Errorf("%s: a9a test AUC %.4f < %.2f", c.name, auc, c.min)
		}
	}
}
