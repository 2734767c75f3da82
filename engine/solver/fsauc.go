package solver

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// FSAUCParams are the hyper-parameters of FSAUC (Liu, Zhang, Chen, Wang, Yang, ICML
// 2018, Alg. 1–2; thesis Alg. 11–12). Start from DefaultFSAUCParams.
//
// The stage schedule needs the length n of the stream in advance, which a streaming
// driver does not know: N is that budget. Set it to passes × rows (aucopt train
// --passes P -p n=P·rows) to run the paper's schedule exactly; on a shorter stream the
// output is the running average of the stage in progress, on a longer one the last
// stage goes on (constant step, same ball) and its average keeps improving.
type FSAUCParams struct {
	// Eta is the step η₁ of the first stage, > 0; stage k uses η_k = η₁/2^(k−1).
	// Default 0.25, tuned on a9a with rows normalised to ‖x‖ = 1 (see
	// DefaultFSAUCParams); the step multiplies gradients of size ‖x‖², so scale it
	// with 1/κ² for other data. The paper derives η₁ from G and β₀ instead
	// (η₁ = √β₀·R₀/(G√(2n₀))); implementations take it as a parameter.
	Eta float64 `param:"eta"`
	// R is the radius of the domain Ω1 = {‖w‖ ≤ R, |a| ≤ Rκ, |b| ≤ Rκ}, with |α| ≤ 2Rκ,
	// > 0. It fixes the initial ball radius R₀ = 2√(1+2κ²)·R (the diameter of Ω1, so
	// that the first stage's ball contains the whole domain), halved every stage.
	// Default 10 (on a9a normalised, any R ≥ 10 gives the same model: the ball
	// ‖w‖ ≤ R is then inactive).
	R float64 `param:"R"`
	// Kappa is κ = sup‖x‖, > 0, used in the bounds of a, b, α and in R₀. Default 1 (rows
	// normalised to unit norm, as for SOLAM).
	Kappa float64 `param:"kappa"`
	// N is the expected number of examples n, ≥ 1: it sets the number of stages
	// m = max(1, ⌊½·log₂(2n/log₂n)⌋ − 1) and their length n₀ = ⌊n/m⌋ (the paper's
	// Alg. 1). Default 100,000; aucopt's train, cv, grids and traces set it to the
	// examples a fit sees (passes × its training rows) unless it is given.
	N int `param:"n"`
}

// DefaultFSAUCParams returns η₁ = 0.25, R = 10, κ = 1, n = 100,000. Like SOLAM's
// defaults they assume normalised rows (‖x‖ ≤ 1: x ← x/‖x‖). Picked from the grid
// η₁ ∈ 2^[-4..4] × R ∈ {1, 3, 10, 30, 100} on a9a so prepared (minmax to [−1, 1], then
// unit rows): test AUC 0.9004 after one pass with n = 32,561 (one pass) and 0.9003
// with the default n; 0.9005 after three passes with n = 3 × 32,561. At R = 10,
// η₁ ∈ [1/8, 1/2] stays within 0.0015 of that in all three settings; R ≤ 3 costs
// 0.007 or more, and steps η₁ ≥ 1 cost up to 0.03 when n overstates the stream.
func DefaultFSAUCParams() FSAUCParams {
	return FSAUCParams{Eta: 0.25, R: 10, Kappa: 1, N: 100_000}
}

// FSAUCGrid is aucopt's grid for FSAUC (the thesis runs no FSAUC experiment; the paper
// tunes R and the step): η₁ ∈ 2^[-6..4], R ∈ 10^[-1..3].
var FSAUCGrid = Grid{
	Keys:   []string{"eta", "R"},
	Values: [][]float64{Pow2(-6, 4), Pow10(-1, 3)},
}

func (p FSAUCParams) check() error {
	for _, err := range []error{
		Check(p.Eta > 0 && !math.IsInf(p.Eta, 0), "eta", p.Eta, "a finite number > 0"),
		Check(p.R > 0 && !math.IsInf(p.R, 0), "R", p.R, "a finite number > 0"),
		Check(p.Kappa > 0 && !math.IsInf(p.Kappa, 0), "kappa", p.Kappa, "a finite number > 0"),
		Check(p.N >= 1, "n", p.N, "≥ 1"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// stages returns the paper's number of stages m and stage length n₀ for a budget of n
// examples: m = ⌊½·log₂(2n/log₂n)⌋ − 1 (at least 1), n₀ = ⌊n/m⌋.
func (p FSAUCParams) stages() (m int, n0 int64) {
	m = 1
	if n := float64(p.N); p.N > 2 {
		m = max(1, int(math.Floor(0.5*math.Log2(2*n/math.Log2(n))))-1)
	}
	return m, max(1, int64(p.N)/int64(m))
}

// fsaucDelta is the confidence δ of the paper's Lemma 1 in the α-ball radius D_k; 0.1
// as in the C implementation (baojianzhou/sparse-auc).
const fsaucDelta = 0.1

// FSAUC is the fast stochastic AUC maximisation of Liu et al. (ICML 2018): SOLAM's
// saddle point F over v = (w, a, b) and α (see SOLAM), solved in m stages of n₀
// examples by PDSG, a primal-dual stochastic gradient method with a constant step. In
// stage k, from the start point (v₁, α₁) = the previous stage's output:
//
//	p̂, m̂± = running class ratio and class means of the stage's examples so far
//	v ← Π_{Ω1 ∩ B(v₁, r_k)}(v − η_k ∂_v F̂(v, α; x, y))
//	α ← Π_{Ω2 ∩ [α₁ − D_k, α₁ + D_k]}(α + η_k ∂_α F̂(v, α; x, y))
//
// and the stage's output is the average v̄ of its iterates v_1 … v_{n₀} (before each
// update) with α̂ = w̄·(m̂− − m̂+), the maximiser of F over α for v̄. Then η and r halve:
// η_k = η₁/2^(k−1), r_k = R₀/2^(k−1), R₀ = 2√(1+2κ²)R. The α-radius is D₁ = 2√2κR₀
// and, by the paper's Lemma 1 (constants as in the public C implementation in
// baojianzhou/sparse-auc, which has κ = 1; scaled here by κ, as α = w·(m− − m+) is),
//
//	D_k = 2√2κ r_k + 12√2(2 + √(2 ln(12/δ)))Rκ / √(min(p̂, 1−p̂)n₀ − √(2n₀ ln(12/δ)))
//
// (unbounded while the denominator is not positive), with p̂ of the previous stage and
// δ = 0.1 (that implementation's). The paper starts at v = 0, α = 0. Weights returns the running average of the
// stage in progress (its start point before its first example). After stage m the
// schedule stops: the last stage continues for as long as the stream does.
//
// Departures, documented: the step halves exactly (the paper scales it further by
// √(β_k/β_{k−1}), whose β of Lemma 1 changes only with p̂; the C implementation
// multiplies η by min(1, √(β_k/β_{k−1})/2)); the projection onto Ω1 ∩ B(v₁, r) is done
// as two projections in turn, onto Ω1 then onto the ball, as in the C implementation
// (the result is a convex combination of v₁ and a point of Ω1, so it lies in both
// sets, but it is not always the nearest such point); Ω1 uses the ℓ2 ball ‖w‖ ≤ R of
// the paper (the C implementation projects onto an ℓ1 ball, pools p̂ and m̂± over all
// stages and averages the post-update iterates); the gradients are those of
// docs/ALGORITHMS.md, "SOLAM" (the C implementation halves them, so its step is twice ours).
//
// Cost per example is O(nnz(x)). The gradient in w is a multiple of x and both
// projections are affine in w, so w = s·u + c·w₁ with scalars s, c and the stage's start
// w₁ fixed: a step scatters into u, the projections change only s and c, and ‖w‖² and
// ‖w − w₁‖² follow from ‖u‖², u·w₁ and ‖w₁‖², kept incrementally (recomputed exactly
// every max(d, 64) examples, amortised O(1)). The stage sum Σ_t w_t = G·u − B + C·w₁
// uses SOLAM's lazy form (G = Σ s_t, C = Σ c_t, B = Σ_t G_t Δu_t); the class sums are
// sparse scatters. A stage change costs O(d), once every n₀ examples.
type FSAUC struct {
	b      kernels.Backend
	dim    int
	p      FSAUCParams
	m      int   // number of stages
	n0     int64 // stage length
	st     fsaucScalars
	u      kernels.Vec // w = S·u + C·w1
	w1     kernels.Vec // w of the stage's start point
	avg    kernels.Vec // B of the lazy stage sum
	sumPos kernels.Vec // Σ x over the stage's positives
	sumNeg kernels.Vec // Σ x over the stage's negatives
	h1, h2 []float64   // host scratch for stage changes and Weights
}

// fsaucScalars is the scalar state of FSAUC, checkpointed as is.
type fsaucScalars struct {
	T                 int64   // examples seen
	Stage             int     // current stage k, 1-based
	TK, NPos          int64   // examples and positives seen in the stage
	Eta, Rad, D       float64 // η_k, r_k, D_k
	S, C              float64 // w = S·u + C·w₁
	UU, UW, W1W1      float64 // ‖u‖², u·w₁, ‖w₁‖²
	A, B, Alpha       float64 // a, b, α
	A1, B1, Alpha1    float64 // the stage's start a, b, α
	G, CSum           float64 // Σ s_t since the last fold, Σ c_t over the stage
	ASum, BSum, AlSum float64 // Σ a_t, Σ b_t, Σ α_t over the stage
}

// NewFSAUC returns FSAUC for dim features on backend b. The seed is unused (the method
// is deterministic) and kept for the common signature.
func NewFSAUC(b kernels.Backend, dim int, p FSAUCParams, seed uint64) (*FSAUC, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	f := &FSAUC{
		b: b, dim: dim, p: p,
		u: b.NewVec(dim), w1: b.NewVec(dim), avg: b.NewVec(dim),
		sumPos: b.NewVec(dim), sumNeg: b.NewVec(dim),
		h1: make([]float64, dim), h2: make([]float64, dim),
	}
	f.m, f.n0 = p.stages()
	r0 := f.r0()
	f.st = fsaucScalars{Stage: 1, Eta: p.Eta, Rad: r0, D: 2 * math.Sqrt2 * p.Kappa * r0, S: 1, C: 1}
	return f, nil
}

// r0 is the initial ball radius R₀ = 2√(1+2κ²)R.
func (f *FSAUC) r0() float64 {
	return 2 * math.Sqrt(1+2*f.p.Kappa*f.p.Kappa) * f.p.R
}

// Params returns the parameters the solver was made with.
func (f *FSAUC) Params() FSAUCParams { return f.p }

// Stage returns the current stage k (1-based) and the number of stages m of the
// schedule.
func (f *FSAUC) Stage() (k, m int) { return f.st.Stage, f.m }

// Observe takes one PDSG step on (x, y) and returns w·x before it.
func (f *FSAUC) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("FSAUC", y)
	st := &f.st
	st.T++
	st.TK++
	if y == 1 {
		st.NPos++
		f.b.AxpySparse(1, x, f.sumPos)
	} else {
		f.b.AxpySparse(1, x, f.sumNeg)
	}
	p := float64(st.NPos) / float64(st.TK)
	ux, w1x := f.b.DotSparse(x, f.u), f.b.DotSparse(x, f.w1)
	wx := st.S*ux + st.C*w1x

	// The stage average takes the pre-update iterate.
	st.G += st.S
	st.CSum += st.C
	st.ASum += st.A
	st.BSum += st.B
	st.AlSum += st.Alpha

	// Gradients of F̂ at the pre-update point (∂w = c·x).
	var c, da, db, dalpha float64
	if y == 1 {
		c = 2*(1-p)*(wx-st.A) - 2*(1+st.Alpha)*(1-p)
		da = -2 * (1 - p) * (wx - st.A)
		dalpha = -2*(1-p)*wx - 2*p*(1-p)*st.Alpha
	} else {
		c = 2*p*(wx-st.B) + 2*(1+st.Alpha)*p
		db = -2 * p * (wx - st.B)
		dalpha = 2*p*wx - 2*p*(1-p)*st.Alpha
	}

	// w ← w − η c x, as u ← u + δx.
	eta := st.Eta
	delta := -eta * c / st.S
	f.b.AxpySparse(delta, x, f.u)
	f.b.AxpySparse(st.G*delta, x, f.avg)
	st.UU += 2*delta*ux + delta*delta*lazySqNorm(x)
	st.UW += delta * w1x
	a, bb := st.A-eta*da, st.B-eta*db
	alpha := st.Alpha + eta*dalpha

	// Onto Ω1: ‖w‖ ≤ R, |a|, |b| ≤ Rκ.
	r, rk := f.p.R, f.p.R*f.p.Kappa
	if n2 := st.S*st.S*st.UU + 2*st.S*st.C*st.UW + st.C*st.C*st.W1W1; n2 > r*r {
		rho := r / math.Sqrt(n2)
		st.S *= rho
		st.C *= rho
	}
	a, bb = lazyClamp(a, rk), lazyClamp(bb, rk)

	// Onto the ball ‖v − v₁‖ ≤ r_k: v ← v₁ + θ(v − v₁).
	cm := st.C - 1
	dn2 := st.S*st.S*st.UU + 2*st.S*cm*st.UW + cm*cm*st.W1W1 + (a-st.A1)*(a-st.A1) + (bb-st.B1)*(bb-st.B1)
	if dn2 > st.Rad*st.Rad {
		th := st.Rad / math.Sqrt(dn2)
		st.S *= th
		st.C = 1 + th*cm
		a, bb = st.A1+th*(a-st.A1), st.B1+th*(bb-st.B1)
	}
	st.A, st.B = a, bb

	// α onto [−2Rκ, 2Rκ] ∩ [α₁ − D, α₁ + D], an interval.
	st.Alpha = max(-2*rk, st.Alpha1-st.D, min(2*rk, st.Alpha1+st.D, alpha))

	if s := math.Abs(st.S); s < solamFoldLow || s > 1/solamFoldLow {
		f.fold()
	}
	if st.T%int64(max(f.dim, 64)) == 0 {
		st.UU = f.b.Dot(f.u, f.u)
		st.UW = f.b.Dot(f.u, f.w1)
	}
	if st.TK == f.n0 && st.Stage < f.m {
		f.nextStage()
	}
	return wx
}

// fold moves the scale s into u (B ← B − G·u, G ← 0, u ← s·u, s ← 1), keeping w and the
// stage sum unchanged. O(d); called only when |s| leaves [solamFoldLow, 1/solamFoldLow].
func (f *FSAUC) fold() {
	st := &f.st
	f.b.Axpy(-st.G, f.u, f.avg)
	st.G = 0
	f.b.Scal(st.S, f.u)
	st.UU *= st.S * st.S
	st.UW *= st.S
	st.S = 1
}

// stageAverage writes the stage's average w̄ = (G·u − B + C·w₁)/T_k into out (the
// start point w₁ when the stage has seen no example).
func (f *FSAUC) stageAverage(out []float64) {
	st := &f.st
	f.b.Download(out, f.w1)
	if st.TK == 0 {
		return
	}
	f.b.Download(f.h2, f.u)
	for j := range out {
		out[j] *= st.CSum
		out[j] += st.G * f.h2[j]
	}
	f.b.Download(f.h2, f.avg)
	inv := 1 / float64(st.TK)
	for j := range out {
		out[j] = (out[j] - f.h2[j]) * inv
	}
}

// nextStage ends the stage: its average becomes the next start point, α₁ = w̄·(m̂− −
// m̂+) (the stage average of α when the stage saw one class only), and η, r and D are
// updated.
func (f *FSAUC) nextStage() {
	st := &f.st
	wbar := f.h1
	f.stageAverage(wbar)
	tk := float64(st.TK)
	abar, bbar := st.ASum/tk, st.BSum/tk
	alpha := st.AlSum / tk
	if nNeg := st.TK - st.NPos; st.NPos > 0 && nNeg > 0 {
		// α̂ = w̄·Â−/T− − w̄·Â+/T+, one dot product each, through the backend.
		f.b.Upload(f.u, wbar)
		alpha = f.b.Dot(f.u, f.sumNeg)/float64(nNeg) - f.b.Dot(f.u, f.sumPos)/float64(st.NPos)
	}
	rk := f.p.R * f.p.Kappa
	alpha = lazyClamp(alpha, 2*rk)
	p := float64(st.NPos) / tk

	st.Stage++
	st.Eta /= 2
	st.Rad /= 2
	st.D = 2*math.Sqrt2*f.p.Kappa*st.Rad + fsaucSlack(p, float64(f.n0), rk)

	f.b.Upload(f.w1, wbar)
	f.b.Scal(0, f.u)
	f.b.Scal(0, f.avg)
	f.b.Scal(0, f.sumPos)
	f.b.Scal(0, f.sumNeg)
	st.S, st.C, st.UU, st.UW = 1, 1, 0, 0
	st.W1W1 = f.b.Dot(f.w1, f.w1)
	st.A, st.B, st.Alpha = abar, bbar, alpha
	st.A1, st.B1, st.Alpha1 = abar, bbar, alpha
	st.TK, st.NPos = 0, 0
	st.G, st.CSum, st.ASum, st.BSum, st.AlSum = 0, 0, 0, 0, 0
}

// fsaucSlack is the statistical part of Lemma 1's α-radius,
// 12√2(2 + √(2 ln(12/δ)))Rκ / √(min(p, 1−p)n₀ − √(2n₀ ln(12/δ))), or +Inf where the
// denominator is not positive (too few examples of a class for the bound).
func fsaucSlack(p, n0, rk float64) float64 {
	l := math.Log(12 / fsaucDelta)
	den := min(p, 1-p)*n0 - math.Sqrt(2*n0*l)
	if den <= 0 {
		return math.Inf(1)
	}
	return 12 * math.Sqrt2 * (2 + math.Sqrt(2*l)) * rk / math.Sqrt(den)
}

// Weights returns the average of the current stage's iterates so far: the output v̄ of
// the last completed stage right after it, the start point (0 before any example)
// when the stage in progress has seen no example.
func (f *FSAUC) Weights() []float64 {
	out := make([]float64, f.dim)
	f.stageAverage(out)
	return out
}

// Current returns a copy of the current iterate w.
func (f *FSAUC) Current() []float64 {
	out := make([]float64, f.dim)
	f.b.Download(out, f.w1)
	f.b.Download(f.h2, f.u)
	for j := range out {
		out[j] = f.st.S*f.h2[j] + f.st.C*out[j]
	}
	return out
}

// fsaucState is FSAUC's checkpoint.
type fsaucState struct {
	Dim                        int
	Params                     FSAUCParams
	Scalars                    fsaucScalars
	U, W1, Avg, SumPos, SumNeg []float64
}

// MarshalBinary encodes the solver's state (gob); UnmarshalBinary into a solver made
// with the same dimension continues bit-identically.
func (f *FSAUC) MarshalBinary() ([]byte, error) {
	st := fsaucState{Dim: f.dim, Params: f.p, Scalars: f.st}
	for _, v := range []struct {
		dst *[]float64
		src kernels.Vec
	}{{&st.U, f.u}, {&st.W1, f.w1}, {&st.Avg, f.avg}, {&st.SumPos, f.sumPos}, {&st.SumNeg, f.sumNeg}} {
		*v.dst = make([]float64, f.dim)
		f.b.Download(*v.dst, v.src)
	}
	b, err := encodeState(st)
	if err != nil {
		return nil, fmt.Errorf("fsauc checkpoint: %w", err)
	}
	return b, nil
}

// UnmarshalBinary restores a state written by MarshalBinary, parameters included.
func (f *FSAUC) UnmarshalBinary(data []byte) error {
	var st fsaucState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("fsauc checkpoint: %w", err)
	}
	vecs := [][]float64{st.U, st.W1, st.Avg, st.SumPos, st.SumNeg}
	for _, v := range vecs {
		if st.Dim != f.dim || len(v) != f.dim {
			return fmt.Errorf("fsauc checkpoint: dimension %d, solver has %d", st.Dim, f.dim)
		}
	}
	if err := st.Params.check(); err != nil {
		return fmt.Errorf("fsauc checkpoint: %w", err)
	}
	m, n0 := st.Params.stages()
	if k := st.Scalars.Stage; k < 1 || k > m || st.Scalars.TK < 0 || (k < m && st.Scalars.TK >= n0) {
		return fmt.Errorf("fsauc checkpoint: stage %d at example %d, schedule has %d stages of %d", k, st.Scalars.TK, m, n0)
	}
	f.p, f.m, f.n0, f.st = st.Params, m, n0, st.Scalars
	for i, v := range []kernels.Vec{f.u, f.w1, f.avg, f.sumPos, f.sumNeg} {
		f.b.Upload(v, vecs[i])
	}
	return nil
}

// fsaucSpec is FSAUC's Spec: eight vectors of state; it assumes rows of norm at most 1
// (κ = 1) and sizes its stages from the stream's length n. Its defaults are not scaled
// to the data (issue 14).
func fsaucSpec() Spec {
	s := online("fsauc", "fast stochastic AUC maximisation: multi-stage primal-dual, shrinking balls (n: passes x rows unless set)", "Liu et al. 2018, Alg. 1-2; thesis Alg. 11-12",
		DefaultFSAUCParams, FSAUCGrid, NewFSAUC)
	s.UnitRows = true
	withStreamLength(&s, "n", func(p *FSAUCParams, n int) { p.N = n })
	withState(&s, vectors[FSAUCParams](8))
	return s
}
