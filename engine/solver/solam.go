package solver

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// SOLAMParams are the hyper-parameters of SOLAM (Ying, Wen, Lyu, NIPS 2016; thesis
// Alg. 10) and regSOLAM (thesis Alg. 18). Start from DefaultSOLAMParams.
//
// Lambda = 0 is plain SOLAM, which needs an explicit radius R. Lambda > 0 is regSOLAM:
// the gradient gains λw and, when R is 0 ("not given"), the radius is the thesis's
// bound R = √(2/λ) on ‖w*‖ (thesis §3.3); an explicit R > 0 overrides it.
type SOLAMParams struct {
	// Zeta is ζ in the step γ_t = ζ/√t, > 0. Default 5. Grid [1:9:100] (the authors'
	// and the thesis's).
	Zeta float64 `param:"zeta"`
	// R is the radius of Ω1 (‖w‖ ≤ R, |a|, |b| ≤ Rκ) and of Ω2 (|α| ≤ 2Rκ), ≥ 0; 0 means
	// √(2/λ), which needs λ > 0. Default 3. Grid 10^[-1..5] (the authors' script).
	R float64 `param:"R"`
	// Lambda is the ℓ2 weight λ ≥ 0 of regSOLAM; 0 is plain SOLAM. Default 10⁻⁴.
	// Thesis grid 10^[-5..5] (with R = √(2/λ)); not in the registry grid (plain SOLAM).
	Lambda float64 `param:"lambda"`
	// Kappa is κ = sup‖x‖, > 0, used only in the bounds of a, b and α. Default 1, as the
	// authors' code, which assumes normalised rows.
	Kappa float64 `param:"kappa"`
}

// DefaultSOLAMParams returns regSOLAM with ζ = 5, R = 3, λ = 10⁻⁴, κ = 1. Like the
// authors' code it assumes normalised rows (‖x‖ ≤ 1; aucopt's automatic scaling
// normalises rows for SOLAM).
//
// One fixed (ζ, R) has to serve both a few hundred rows and tens of thousands: one pass
// over a small set stays near the start point w = (R/√d)·1 and lets large early steps
// push a, b and α onto their bounds, so small sets want small ζ and R, while a9a wants
// R ≥ 3. Measured with `aucopt experiment --protocol thesis --algos solam` at one grid
// point (5 × 5-fold CV; a9a: 1 trial, hold-out selection), test AUC for diabetes,
// fourclass, german, splice / a9a (thesis: .8178, .8212, .7765, .9100 / .8951):
//
//	ζ = 28, R = 10 (the old default)  .4392 .7004 .6044  —    / .8970
//	ζ = 1,  R = 1                     .8016 .8157 .7618  —    / .8726
//	ζ = 5,  R = 2                     .8143 .8128 .7751 .9076 / .8897
//	ζ = 5,  R = 3                     .8051 .8061 .7683 .9058 / .8979
//	ζ = 10, R = 3                     .8093 .7999 .7683 .9113 / .8986
//	ζ = 5,  R = 5                     .7740 .7924 .7413 .8867 / .8961
//
// ζ = 5, R = 3 is the only point tried within one published std on all five; the old
// default R = √(2/λ) (141 at λ = 10⁻⁴) put diabetes at .31.
func DefaultSOLAMParams() SOLAMParams {
	return SOLAMParams{Zeta: 5, R: 3, Lambda: 1e-4, Kappa: 1}
}

// SOLAMGrid is the grid of the SOLAM authors' cross-validation script
// (fnEP_CV_SOLAM.m, NIPS 2016 code): ζ ∈ [1:9:100] × R ∈ 10^[-1..5], plain SOLAM
// (λ = 0). The thesis's regSOLAM grid, ζ × λ ∈ 10^[-5..5] with R = √(2/λ), does worse
// with one pass: fourclass .7958 (thesis .8212 ± .0209) and a9a .8833 (.8951 ± .0046)
// against .8052 and .8966 with this grid (thesis protocol, same runs); adding R to it
// (ζ × λ × R, 1,056 points) gave no better (.7894 and .8965) at 8 times the cost.
var SOLAMGrid = Grid{
	Keys:   []string{"zeta", "R", "lambda"},
	Values: [][]float64{{1, 10, 19, 28, 37, 46, 55, 64, 73, 82, 91, 100}, Pow10(-1, 5), {0}},
}

// radius returns the radius of Ω1 the parameters imply.
func (p SOLAMParams) radius() float64 {
	if p.R > 0 {
		return p.R
	}
	return math.Sqrt(2 / p.Lambda)
}

func (p SOLAMParams) check() error {
	for _, err := range []error{
		Check(p.Zeta > 0 && !math.IsInf(p.Zeta, 0), "zeta", p.Zeta, "a finite number > 0"),
		Check(p.Lambda >= 0 && !math.IsInf(p.Lambda, 0), "lambda", p.Lambda, "a finite number ≥ 0"),
		Check(p.R >= 0 && !math.IsInf(p.R, 0), "R", p.R, "a finite number ≥ 0"),
		Check(p.R > 0 || p.Lambda > 0, "R", p.R, "> 0 when lambda = 0 (plain SOLAM)"),
		Check(p.Kappa > 0 && !math.IsInf(p.Kappa, 0), "kappa", p.Kappa, "a finite number > 0"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// Rescaling bounds of the lazy global scales (w = s·v): outside them the scale is
// folded into the vector, an O(d) step that happens only every few hundred decades of
// shrinkage.
const (
	lazyScaleLow  = 1e-100
	lazyScaleHigh = 1e100
)

// lazySqNorm returns ‖x‖².
func lazySqNorm(x kernels.Sparse) float64 {
	var s float64
	for _, v := range x.Val {
		s += v * v
	}
	return s
}

// SOLAM is the stochastic online AUC maximisation of Ying et al. (NIPS 2016) and its
// regularised form regSOLAM (thesis Alg. 10 and 18): projected primal-dual steps on the
// saddle-point form of the pairwise square loss over v = (w, a, b) and α, with the
// running class ratio p̂_t, step γ_t = ζ/√t, and the γ-weighted average of the
// (pre-update) iterates w_t as the output.
//
// As the authors' reference code, it starts at w = (R/√d)·1, a = b = Rκ, α = 2Rκ. Unlike
// that code, which clips a and b from above only, it projects a and b onto [−Rκ, Rκ].
//
// Cost per example is O(nnz(x)): the gradient in w is λw plus a multiple of x, so w is
// kept as s·v with a global scale s (shrinkage and the projection onto ‖w‖ ≤ R only
// change s; ‖w‖² is updated from w·x and ‖x‖²), and the weighted average is kept in the
// lazy form Σ_t γ_t w_t = G·v − B with G = Σ_t γ_t s_t and B = Σ_t G_t Δv_t (Δv_t, the
// sparse change of v at step t). Weights costs O(d). ‖w‖² is recomputed exactly every
// max(d, 64) examples (amortised O(1)). Like SPAM's, the vectors live on the host: a
// step touches nnz(x) coordinates, too few to pay for a backend call.
type SOLAM struct {
	dim int
	p   SOLAMParams
	r   float64 // radius R of Ω1
	st  solamScalars
	v   []float64 // w = s·v
	avg []float64 // B of the lazy average
}

// solamScalars is the scalar state of SOLAM, checkpointed as is.
type solamScalars struct {
	T        int64   // examples seen
	NPos     int64   // positives seen
	S        float64 // w = S·v
	Norm2    float64 // ‖w‖²
	A, B     float64 // a, b
	Alpha    float64 // α
	GammaSum float64 // γ̄ = Σ γ_t
	G        float64 // Σ γ_t s_t since the last rescale
}

// NewSOLAM returns SOLAM (Lambda = 0) or regSOLAM for dim features. The seed is unused
// (the method is deterministic), and so is b (the state is host memory, see SOLAM);
// both are kept for the common signature.
func NewSOLAM(b kernels.Backend, dim int, p SOLAMParams, seed uint64) (*SOLAM, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	s := &SOLAM{dim: dim, p: p, r: p.radius(), v: make([]float64, dim), avg: make([]float64, dim)}
	w0 := s.r / math.Sqrt(float64(dim))
	var norm2 float64
	for j := range s.v {
		s.v[j] = w0
		norm2 += w0 * w0
	}
	rk := s.r * p.Kappa
	s.st = solamScalars{S: 1, Norm2: norm2, A: rk, B: rk, Alpha: 2 * rk}
	return s, nil
}

// Params returns the parameters the solver was made with.
func (s *SOLAM) Params() SOLAMParams { return s.p }

// Observe takes one step on (x, y) and returns w·x before it.
func (s *SOLAM) Observe(x kernels.Sparse, y int8) float64 {
	st := &s.st
	st.T++
	if y == 1 {
		st.NPos++
	}
	t := float64(st.T)
	p := float64(st.NPos) / t
	val := x.Val[:len(x.Idx)]
	var xv, xx float64 // x·v, ‖x‖²
	for k, j := range x.Idx {
		xv += val[k] * s.v[j]
		xx += val[k] * val[k]
	}
	wx := st.S * xv
	gamma := s.p.Zeta / math.Sqrt(t)

	// The average takes the pre-update iterate with weight γ_t.
	st.GammaSum += gamma
	st.G += gamma * st.S

	// Gradients of F̂_t at the pre-update point (the ∂w without its λw part is c·x).
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

	// w ← (1 − γλ)w − γc·x, then onto ‖w‖ ≤ R.
	shrink := 1 - gamma*s.p.Lambda
	st.Norm2 = shrink*shrink*st.Norm2 - 2*shrink*gamma*c*wx + gamma*gamma*c*c*xx
	if shrink == 0 {
		s.fold()
		clear(s.v)
	} else {
		st.S *= shrink
	}
	step := -gamma * c / st.S // Δv = step·x
	gstep := st.G * step
	for k, j := range x.Idx {
		s.v[j] += step * val[k]
		s.avg[j] += gstep * val[k]
	}
	if st.Norm2 > s.r*s.r {
		st.S *= s.r / math.Sqrt(st.Norm2)
		st.Norm2 = s.r * s.r
	}
	if a := math.Abs(st.S); a < solamFoldLow || a > 1/solamFoldLow {
		s.fold()
	}
	if st.T%int64(max(s.dim, 64)) == 0 {
		var vv float64
		for _, vj := range s.v {
			vv += vj * vj
		}
		st.Norm2 = st.S * st.S * vv
	}

	rk := s.r * s.p.Kappa
	st.A = lazyClamp(st.A-gamma*da, rk)
	st.B = lazyClamp(st.B-gamma*db, rk)
	st.Alpha = lazyClamp(st.Alpha+gamma*dalpha, 2*rk)
	return wx
}

// fold moves the scale into v (B ← B − G·v, G ← 0, v ← s·v, s ← 1), keeping w and the
// average unchanged. O(d); called only when |s| leaves [solamFoldLow, 1/solamFoldLow] or s is reset.
func (s *SOLAM) fold() {
	st := &s.st
	for j, vj := range s.v {
		s.avg[j] -= st.G * vj
		s.v[j] = st.S * vj
	}
	st.G = 0
	st.S = 1
}

// solamFoldLow bounds SOLAM's scale: below it (or above its inverse) the scale is
// folded into v. The lazy average G·v − B loses about log10(1/|s|) digits to
// cancellation, so the band is kept narrow; the fold is O(d) but rare (regSOLAM's
// shrinkage Π(1 − γ_tλ) ≈ exp(−2ζλ√t) crosses a factor 10³ about every 3.5/(ζλ) √t-units,
// and projections rescale by R/‖w‖, close to 1 once w settles).
const solamFoldLow = 1e-3

// clamp projects x onto [−r, r].
func lazyClamp(x, r float64) float64 { return max(-r, min(r, x)) }

// Weights returns the γ-weighted average of the iterates w_1 … w_T (the start point
// before any example).
func (s *SOLAM) Weights() []float64 {
	if s.st.GammaSum == 0 {
		return s.Current()
	}
	w := make([]float64, s.dim)
	for j, vj := range s.v {
		w[j] = (s.st.G*vj - s.avg[j]) / s.st.GammaSum
	}
	return w
}

// Current returns a copy of the current (last) iterate w_{T+1}.
func (s *SOLAM) Current() []float64 {
	return scaledCopy(s.st.S, s.v)
}

// solamState is SOLAM's checkpoint.
type solamState struct {
	Dim     int
	Params  SOLAMParams
	Scalars solamScalars
	V, Avg  []float64
}

// MarshalBinary encodes the solver's state (gob); UnmarshalBinary into a solver made
// with the same dimension continues bit-identically.
func (s *SOLAM) MarshalBinary() ([]byte, error) {
	st := solamState{Dim: s.dim, Params: s.p, Scalars: s.st, V: s.v, Avg: s.avg}
	b, err := encodeState(st)
	if err != nil {
		return nil, fmt.Errorf("solam checkpoint: %w", err)
	}
	return b, nil
}

// UnmarshalBinary restores a state written by MarshalBinary, parameters included.
func (s *SOLAM) UnmarshalBinary(data []byte) error {
	var st solamState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solam checkpoint: %w", err)
	}
	if st.Dim != s.dim || len(st.V) != s.dim || len(st.Avg) != s.dim {
		return fmt.Errorf("solam checkpoint: dimension %d, solver has %d", st.Dim, s.dim)
	}
	if err := st.Params.check(); err != nil {
		return fmt.Errorf("solam checkpoint: %w", err)
	}
	s.p, s.r, s.st = st.Params, st.Params.radius(), st.Scalars
	copy(s.v, st.V)
	copy(s.avg, st.Avg)
	return nil
}

// solamSpec is SOLAM's Spec: three vectors of state; it assumes rows of norm at most 1
// (κ = 1). Its defaults are not scaled to the data (issue 14).
func solamSpec() Spec {
	s := online("solam", "stochastic online AUC maximisation, saddle point (regSOLAM with lambda > 0)", "Ying et al. 2016; thesis Alg. 10/18",
		DefaultSOLAMParams, SOLAMGrid, NewSOLAM)
	s.UnitRows, s.MinSteps = true, defaultMinSteps
	withState(&s, vectors[SOLAMParams](3))
	return s
}
