package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// denseFSAUC is a plain transcription of FSAUC (Liu et al. 2018, Alg. 1–2) on dense
// vectors: PDSG stages with the paper's schedule, the two projections in turn, the
// stage average as the next start and α₁ = w̄·(m̂− − m̂+).
type denseFSAUC struct {
	p                    FSAUCParams
	m                    int
	n0                   int64
	stage                int
	tk, npos             int64
	eta, rad, dd         float64
	w, w1, sumW          []float64
	sumPos, sumNeg       []float64
	a, b, alpha          float64
	a1, b1, alpha1       float64
	aSum, bSum, alphaSum float64
}

func newDenseFSAUC(dim int, p FSAUCParams) *denseFSAUC {
	m, n0 := p.stages()
	r0 := 2 * math.Sqrt(1+2*p.Kappa*p.Kappa) * p.R
	return &denseFSAUC{
		p: p, m: m, n0: n0, stage: 1, eta: p.Eta, rad: r0, dd: 2 * math.Sqrt(2) * p.Kappa * r0,
		w: make([]float64, dim), w1: make([]float64, dim), sumW: make([]float64, dim),
		sumPos: make([]float64, dim), sumNeg: make([]float64, dim),
	}
}

func (d *denseFSAUC) observe(x []float64, y int8) float64 {
	d.tk++
	ip, in := 0.0, 1.0
	if y == 1 {
		ip, in = 1, 0
		d.npos++
	}
	for j := range x {
		d.sumPos[j] += ip * x[j]
		d.sumNeg[j] += in * x[j]
	}
	p := float64(d.npos) / float64(d.tk)
	var wx float64
	for j := range x {
		wx += d.w[j] * x[j]
	}
	for j := range d.w {
		d.sumW[j] += d.w[j]
	}
	d.aSum += d.a
	d.bSum += d.b
	d.alphaSum += d.alpha
	// ∂w = 2(1−p)(w·x − a)x I+ + 2p(w·x − b)x I− + 2(1+α)(p x I− − (1−p) x I+)
	cx := 2*(1-p)*(wx-d.a)*ip + 2*p*(wx-d.b)*in + 2*(1+d.alpha)*(p*in-(1-p)*ip)
	da := -2 * (1 - p) * (wx - d.a) * ip
	db := -2 * p * (wx - d.b) * in
	dal := 2*(p*wx*in-(1-p)*wx*ip) - 2*p*(1-p)*d.alpha
	var n2 float64
	for j := range d.w {
		d.w[j] -= d.eta * cx * x[j]
		n2 += d.w[j] * d.w[j]
	}
	a, b, alpha := d.a-d.eta*da, d.b-d.eta*db, d.alpha+d.eta*dal
	// Ω1, then the ball around the stage's start.
	r, rk := d.p.R, d.p.R*d.p.Kappa
	if n := math.Sqrt(n2); n > r {
		for j := range d.w {
			d.w[j] *= r / n
		}
	}
	a, b = max(-rk, min(rk, a)), max(-rk, min(rk, b))
	dist2 := (a-d.a1)*(a-d.a1) + (b-d.b1)*(b-d.b1)
	for j := range d.w {
		dist2 += (d.w[j] - d.w1[j]) * (d.w[j] - d.w1[j])
	}
	if dist := math.Sqrt(dist2); dist > d.rad {
		th := d.rad / dist
		for j := range d.w {
			d.w[j] = d.w1[j] + th*(d.w[j]-d.w1[j])
		}
		a, b = d.a1+th*(a-d.a1), d.b1+th*(b-d.b1)
	}
	d.a, d.b = a, b
	alpha = max(-2*rk, min(2*rk, alpha))
	d.alpha = max(d.alpha1-d.dd, min(d.alpha1+d.dd, alpha))

	if d.tk == d.n0 && d.stage < d.m {
		d.next()
	}
	return wx
}

func (d *denseFSAUC) next() {
	tk := float64(d.tk)
	wbar := d.weights()
	alpha := d.alphaSum / tk
	if nneg := d.tk - d.npos; d.npos > 0 && nneg > 0 {
		alpha = 0
		for j := range wbar {
			alpha += wbar[j] * (d.sumNeg[j]/float64(nneg) - d.sumPos[j]/float64(d.npos))
		}
	}
	rk := d.p.R * d.p.Kappa
	alpha = max(-2*rk, min(2*rk, alpha))
	p, n0 := float64(d.npos)/tk, float64(d.n0)
	l := math.Log(12 / 0.1)
	d.stage++
	d.eta /= 2
	d.rad /= 2
	d.dd = math.Inf(1)
	if den := min(p, 1-p)*n0 - math.Sqrt(2*n0*l); den > 0 {
		d.dd = 12 * math.Sqrt(2) * (2 + math.Sqrt(2*l)) * rk / math.Sqrt(den)
	}
	d.dd += 2 * math.Sqrt(2) * d.p.Kappa * d.rad
	copy(d.w1, wbar)
	copy(d.w, wbar)
	clear(d.sumW)
	clear(d.sumPos)
	clear(d.sumNeg)
	d.a, d.b, d.alpha = d.aSum/tk, d.bSum/tk, alpha
	d.a1, d.b1, d.alpha1 = d.a, d.b, d.alpha
	d.aSum, d.bSum, d.alphaSum = 0, 0, 0
	d.tk, d.npos = 0, 0
}

func (d *denseFSAUC) weights() []float64 {
	out := slices.Clone(d.w1)
	if d.tk > 0 {
		for j := range out {
			out[j] = d.sumW[j] / float64(d.tk)
		}
	}
	return out
}

// TestFSAUCMatchesDense: the O(nnz) solver follows the dense transcription example by
// example, across stage changes and past the budget n (the last stage goes on), with
// the projections inactive and active.
func TestFSAUCMatchesDense(t *testing.T) {
	cases := []struct {
		name string
		d    *data.Dataset
		rows int // examples streamed (cycling through d)
		p    FSAUCParams
	}{
		{"sparse", sparseStream(3000, 200, 12, 1), 4000, FSAUCParams{Eta: 0.05, R: 10, Kappa: 1, N: 3000}},
		{"sparse-smallR", sparseStream(3000, 200, 12, 2), 3500, FSAUCParams{Eta: 0.3, R: 0.2, Kappa: 2, N: 3000}},
		{"dense", gaussian(2000, 20, 0.4, 1, 3), 2500, FSAUCParams{Eta: 0.01, R: 2, Kappa: 5, N: 1500}},
		{"dense-bigstep", gaussian(1000, 20, 0.4, 1, 4), 3000, FSAUCParams{Eta: 2, R: 1, Kappa: 1, N: 2000}},
		{"one-stage", gaussian(500, 5, 0.5, 1, 5), 800, FSAUCParams{Eta: 0.05, R: 3, Kappa: 3, N: 10}},
	}
	for _, c := range cases {
		for _, b := range testBackends(t) {
			t.Run(c.name+"/"+b.Name(), func(t *testing.T) {
				s, err := NewFSAUC(b, c.d.Dim, c.p, 1)
				if err != nil {
					t.Fatal(err)
				}
				ref := newDenseFSAUC(c.d.Dim, c.p)
				for k := range c.rows {
					i := k % c.d.Rows()
					x := c.d.Row(i)
					got, want := s.Observe(x, c.d.Y[i]), ref.observe(densify(x, c.d.Dim), c.d.Y[i])
					if math.Abs(got-want) > 1e-10*max(1, math.Abs(want)) {
						t.Fatalf("example %d (stage %d): score %v, dense %v", k, ref.stage, got, want)
					}
				}
				if k, m := s.Stage(); k != m || k != ref.stage {
					t.Errorf("ended in stage %d of %d, dense in %d", k, m, ref.stage)
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

func TestFSAUCStages(t *testing.T) {
	for _, c := range []struct {
		n  int
		m  int
		n0 int64
	}{
		// m = ⌊½·log₂(2n/log₂n)⌋ − 1, by hand: n = 32,561: log₂n = 14.99,
		// 2n/log₂n = 4344, log₂ = 12.08, half 6.04 → m = 5, n₀ = 6512.
		{1, 1, 1}, {2, 1, 2}, {10, 1, 10}, {100, 1, 100}, {1500, 3, 500}, {3000, 3, 1000},
		{32561, 5, 6512}, {100_000, 5, 20_000}, {10_000_000, 8, 1_250_000},
	} {
		m, n0 := FSAUCParams{N: c.n}.stages()
		if m != c.m || n0 != c.n0 {
			t.Errorf("n = %d: m = %d, n₀ = %d; want %d, %d", c.n, m, n0, c.m, c.n0)
		}
	}
}

func TestFSAUCParams(t *testing.T) {
	b := testBackends(t)[0]
	good := DefaultFSAUCParams()
	for _, c := range []struct {
		name string
		edit func(*FSAUCParams)
	}{
		{"eta=0", func(p *FSAUCParams) { p.Eta = 0 }},
		{"eta<0", func(p *FSAUCParams) { p.Eta = -1 }},
		{"eta=NaN", func(p *FSAUCParams) { p.Eta = math.NaN() }},
		{"eta=Inf", func(p *FSAUCParams) { p.Eta = math.Inf(1) }},
		{"R=0", func(p *FSAUCParams) { p.R = 0 }},
		{"R<0", func(p *FSAUCParams) { p.R = -2 }},
		{"R=Inf", func(p *FSAUCParams) { p.R = math.Inf(1) }},
		{"kappa=0", func(p *FSAUCParams) { p.Kappa = 0 }},
		{"n=0", func(p *FSAUCParams) { p.N = 0 }},
		{"n<0", func(p *FSAUCParams) { p.N = -5 }},
	} {
		p := good
		c.edit(&p)
		if _, err := NewFSAUC(b, 10, p, 1); !errors.Is(err, ErrParam) {
			t.Errorf("%s: error %v, want ErrParam", c.name, err)
		}
	}
	if _, err := NewFSAUC(b, 0, good, 1); !errors.Is(err, ErrParam) {
		t.Errorf("dim 0: error %v, want ErrParam", err)
	}
	if _, err := NewFSAUC(b, 10, good, 1); err != nil {
		t.Fatal(err)
	}
	p := good
	if err := paramsOf(&p).SetAll([]string{"eta=2^-3", "R=5", "n=32561"}); err != nil || p.Eta != 0.125 || p.R != 5 || p.N != 32561 {
		t.Errorf("SetAll: %v, %+v", err, p)
	}
	if got := paramsOf(&p).Keys(); !slices.Equal(got, []string{"eta", "R", "kappa", "n"}) {
		t.Errorf("keys %v", got)
	}
	if n := len(FSAUCGrid.Points()); n != 11*5 {
		t.Errorf("grid has %d points, want 55", n)
	}
}

// TestFSAUCCheckpoint: the same seed gives identical weights, and a solver restored
// from a checkpoint taken inside a stage, at a stage change or in the last stage
// continues bit-identically; bad checkpoints are refused.
func TestFSAUCCheckpoint(t *testing.T) {
	d := sparseStream(1500, 300, 20, 7)
	p := FSAUCParams{Eta: 0.1, R: 2, Kappa: 1, N: 1500} // 3 stages of 500
	for _, b := range testBackends(t) {
		for _, k := range []int{1, 499, 500, 700, 1200} {
			s1, err := NewFSAUC(b, d.Dim, p, 5)
			if err != nil {
				t.Fatal(err)
			}
			s2, _ := NewFSAUC(b, d.Dim, p, 5)
			for i := range k {
				s1.Observe(d.Row(i), d.Y[i])
				s2.Observe(d.Row(i), d.Y[i])
			}
			blob, err := s1.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			s3, _ := NewFSAUC(b, d.Dim, DefaultFSAUCParams(), 99)
			if err := s3.UnmarshalBinary(blob); err != nil {
				t.Fatal(err)
			}
			if s3.Params() != p {
				t.Errorf("restored parameters %+v, want %+v", s3.Params(), p)
			}
			for i := k; i < d.Rows(); i++ {
				a, bb, cc := s1.Observe(d.Row(i), d.Y[i]), s2.Observe(d.Row(i), d.Y[i]), s3.Observe(d.Row(i), d.Y[i])
				if a != bb || a != cc {
					t.Fatalf("%s, checkpoint at %d: example %d: scores %v, %v (same seed), %v (restored)", b.Name(), k, i, a, bb, cc)
				}
			}
			if w1, w2, w3 := s1.Weights(), s2.Weights(), s3.Weights(); !slices.Equal(w1, w2) || !slices.Equal(w1, w3) {
				t.Errorf("%s, checkpoint at %d: weights differ (same seed %t, restored %t)", b.Name(), k, slices.Equal(w1, w2), slices.Equal(w1, w3))
			}
			if k != 700 {
				continue
			}
			if err := s3.UnmarshalBinary(blob[:len(blob)/2]); err == nil {
				t.Error("a truncated checkpoint was accepted")
			}
			other, _ := NewFSAUC(b, d.Dim+1, p, 5)
			if err := other.UnmarshalBinary(blob); err == nil {
				t.Error("a checkpoint of another dimension was accepted")
			}
		}
	}
}

// TestFSAUCBounded: whatever the data and step, the iterates stay in Ω1 (‖w‖ ≤ R,
// |a|, |b| ≤ Rκ) and in the stage's ball, so the weights are finite and ‖w̄‖ ≤ R
// — also on rows far outside ‖x‖ ≤ κ; Observe allocates nothing, stage changes
// included.
func TestFSAUCBounded(t *testing.T) {
	d := sparseStream(2000, 100, 10, 3)
	big := &data.Dataset{Name: "big", Dim: d.Dim, Ptr: []int64{0}}
	for i := range d.Rows() {
		r := d.Row(i)
		val := make([]float64, len(r.Val))
		for k, v := range r.Val {
			val[k] = 100 * v
		}
		big.Append(d.Y[i], d.Labels[i], kernels.Sparse{Idx: r.Idx, Val: val})
	}
	b := testBackends(t)[0]
	for _, c := range []struct {
		name string
		d    *data.Dataset
		p    FSAUCParams
	}{
		{"default", d, DefaultFSAUCParams()},
		{"huge-rows", big, FSAUCParams{Eta: 4, R: 3, Kappa: 1, N: 1000}},
		{"huge-step", d, FSAUCParams{Eta: 1e6, R: 0.5, Kappa: 1, N: 3000}},
	} {
		s, err := NewFSAUC(b, c.d.Dim, c.p, 1)
		if err != nil {
			t.Fatal(err)
		}
		feed(t, s, c.d, 3, 1)
		for what, w := range map[string][]float64{"average": s.Weights(), "iterate": s.Current()} {
			var n2 float64
			for _, v := range w {
				n2 += v * v
			}
			if n := math.Sqrt(n2); !(n <= c.p.R*(1+1e-9)) {
				t.Errorf("%s: ‖%s‖ = %v, want ≤ R = %v", c.name, what, n, c.p.R)
			}
		}
		if rk := c.p.R * c.p.Kappa; math.Abs(s.st.A) > rk || math.Abs(s.st.B) > rk || math.Abs(s.st.Alpha) > 2*rk {
			t.Errorf("%s: a, b, α = %v, %v, %v outside Ω1 × Ω2 (Rκ = %v)", c.name, s.st.A, s.st.B, s.st.Alpha, rk)
		}
	}
	s, _ := NewFSAUC(b, d.Dim, FSAUCParams{Eta: 0.1, R: 1, Kappa: 1, N: 300}, 1) // stages of 150
	i := 0
	if n := testing.AllocsPerRun(1000, func() {
		s.Observe(d.Row(i%d.Rows()), d.Y[i%d.Rows()])
		i++
	}); n != 0 {
		t.Errorf("%v allocations per Observe", n)
	}
}

// TestFSAUCOracle: with R above ‖w*‖ the ball ‖w‖ ≤ R is inactive and FSAUC minimises
// the unregularised pairwise square loss, so its output approaches the exact minimiser
// w* (the ORACLE with λ = 0) as the budget n = passes × rows grows, and its AUC that
// of w*.
func TestFSAUCOracle(t *testing.T) {
	d := gaussian(4000, 10, 0.4, 1.5, 11)
	ws := oracle(t, d, 0)
	var wn, kappa float64
	for _, v := range ws {
		wn += v * v
	}
	wn = math.Sqrt(wn)
	for i := range d.Rows() {
		kappa = max(kappa, math.Sqrt(lazySqNorm(d.Row(i))))
	}
	aucStar := testAUC(t, ws, d)
	b := testBackends(t)[0]
	// η₁ ≈ 0.25/E‖x‖² as for a9a's unit rows; R = 2‖w*‖ keeps the optimum inside Ω1.
	var xx float64
	for i := range d.Rows() {
		xx += lazySqNorm(d.Row(i))
	}
	p := FSAUCParams{Eta: 0.25 * float64(d.Rows()) / xx, R: 2 * wn, Kappa: kappa}
	prev := math.Inf(1)
	var last float64
	for _, passes := range []int{1, 4, 16} {
		p.N = passes * d.Rows()
		s, err := NewFSAUC(b, d.Dim, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		feed(t, s, d, passes, 1)
		w := s.Weights()
		e, auc := dist(w, ws), testAUC(t, w, d)
		k, m := s.Stage()
		t.Logf("passes %2d (stage %d of %d): ‖w̄ − w*‖/‖w*‖ = %.4f, 1 − cos = %.2g, AUC %.5f (w*: %.5f)",
			passes, k, m, e, 1-cosine(w, ws), auc, aucStar)
		if e > prev {
			t.Errorf("passes %d: distance %.4f, not below %.4f", passes, e, prev)
		}
		if auc < aucStar-0.002 {
			t.Errorf("passes %d: AUC %.5f, w*'s %.5f", passes, auc, aucStar)
		}
		prev, last = e, e
	}
	if last > 0.05 {
		t.Errorf("final ‖w̄ − w*‖/‖w*‖ = %.4f, want ≤ 0.05", last)
	}
}

// TestFSAUCA9A: FSAUC with its defaults on a9a (rows normalised as for SOLAM), one
// pass with n = rows, reaches the level of SOLAM and SPAM (thesis Table 3.2 and 4.2:
// about .897–.900).
func TestFSAUCA9A(t *testing.T) {
	if testing.Short() {
		t.Skip("a9a")
	}
	train, test := a9a(t)
	train = normalized(train)
	p := DefaultFSAUCParams()
	p.N = train.Rows()
	for _, b := range testBackends(t) {
		s, err := NewFSAUC(b, train.Dim, p, 1)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		feed(t, s, train, 1, 1)
		el := time.Since(start)
		auc := testAUC(t, s.Weights(), test)
		k, m := s.Stage()
		t.Logf("%s: FSAUC η₁=%g R=%g n=%d (stage %d of %d), one pass in %v: test AUC %.4f",
			b.Name(), p.Eta, p.R, p.N, k, m, el.Round(time.Millisecond), auc)
		if auc < 0.89 {
			t.Errorf("test AUC %.4f, want ≥ 0.89", auc)
		}
	}
}

// TestFSAUCResume: through the driver, a run cancelled inside a stage and resumed from
// its checkpoint in a fresh learner ends with the weights of an uninterrupted run, bit
// for bit, the stage schedule spanning the passes.
func TestFSAUCResume(t *testing.T) {
	d := sparseStream(3000, 50, 8, 4)
	p := FSAUCParams{Eta: 0.1, R: 3, Kappa: 1, N: 2 * d.Rows()} // 3 stages of 2000
	src := DatasetSource{D: d, Shuffle: true, Seed: 2}
	b := testBackends(t)[0]
	want, _ := NewFSAUC(b, d.Dim, p, 1)
	if _, err := Run(context.Background(), want, src, RunOptions{Passes: 2}); err != nil {
		t.Fatal(err)
	}
	// The driver notices cancellation every 1024 examples of a pass: these stop in
	// stage 1, in stage 2 and (second pass) in stage 3.
	for _, stopAt := range []int64{1024, 2048, 3000 + 1024} {
		ckpt := filepath.Join(t.TempDir(), "run.ckpt")
		ctx, cancel := context.WithCancel(context.Background())
		first, _ := NewFSAUC(b, d.Dim, p, 1)
		opts := RunOptions{Passes: 2, Checkpoint: ckpt, Resume: true, Algo: "fsauc", ProgressEvery: 1,
			Progress: func(pr Progress) {
				if pr.Seen >= stopAt {
					cancel()
				}
			}}
		if _, err := Run(ctx, first, src, opts); !errors.Is(err, context.Canceled) {
			t.Fatalf("stop at %d: error %v, want context.Canceled", stopAt, err)
		}
		opts.Progress = nil
		resumed, _ := NewFSAUC(b, d.Dim, p, 1)
		res, err := Run(context.Background(), resumed, src, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Resumed || !slices.Equal(resumed.Weights(), want.Weights()) {
			t.Errorf("stop at %d: resumed run differs (resumed %t)", stopAt, res.Resumed)
		}
	}
}

// BenchmarkFSAUCA9A times one pass over a9a (32,561 rows, 14 nonzeros each) with the
// defaults and n = one pass.
func BenchmarkFSAUCA9A(b *testing.B) {
	train, _ := a9a(b)
	train = normalized(train)
	p := DefaultFSAUCParams()
	p.N = train.Rows()
	for _, be := range testBackends(b) {
		b.Run(fmt.Sprintf("backend=%s", be.Name()), func(b *testing.B) {
			for b.Loop() {
				s, err := NewFSAUC(be, train.Dim, p, 1)
				if err != nil {
					b.Fatal(err)
				}
				for i := range train.Rows() {
					s.Observe(train.Row(i), train.Y[i])
				}
			}
			b.ReportMetric(float64(train.Rows())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
		})
	}
}
