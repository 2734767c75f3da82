package solver

import (
	"fmt"
	"math"
	"slices"

	"github.com/aucopt/aucopt/kernels"
)

// SPAMParams are the hyper-parameters of SPAM (Natole, Ying, Lyu, ICML 2018; thesis
// Alg. 20). Beta1 = 0 is SPAM-L2 (Ω = (β/2)‖w‖²), Beta1 > 0 is SPAM-NET
// (Ω = (β/2)‖w‖² + β₁‖w‖₁). Start from DefaultSPAMParams.
type SPAMParams struct {
	// Eta is C in the step η_t = C/t^θ, > 0. Default 0.003, tuned on a9a scaled to
	// [−1, 1] (‖x‖² ≈ 100 there): scale it with 1/‖x‖² for other data.
	Eta float64 `param:"eta"`
	// Theta is θ in η_t = C/t^θ, in [0, 1] (the theory: (0, 1) in Theorem 4.1, 1 in
	// Theorem 4.2; 0 is a constant step). Default 0.25.
	Theta float64 `param:"theta"`
	// Beta is the ℓ2 weight β ≥ 0. Default 10⁻⁴. Thesis grid 10^[-5..5].
	Beta float64 `param:"beta"`
	// Beta1 is the ℓ1 weight β₁ ≥ 0 of SPAM-NET; 0 is SPAM-L2. Default 0. Thesis grid
	// 10^[-5..5].
	Beta1 float64 `param:"beta1"`
	// PrePass says where p = P(y = 1) and the class means m± come from: false (the
	// default) for estimates over the examples seen so far, a true one-pass learner;
	// true for a pre-pass over the whole training set before the first step, as the C
	// reference implementation computes them (baojianzhou/sparse-auc, _algo_spam). The
	// pre-pass is one more read of the training data: solver.Run does it, in-memory
	// callers call PrePass; a grid search (NewMulti) refuses it.
	PrePass bool `param:"prepass"`
	// AvgFrom is the step t₀ from which the output is the average of the iterates
	// w_t, t ≥ t₀ (tail Polyak–Ruppert averaging), instead of the last iterate; 0 (the
	// default, the paper's output) never averages. Averaged constant-step SGD on a
	// square loss converges whatever the conditioning of its Hessian (Bach and Moulines,
	// NIPS 2013), where the last iterate crawls along the directions of small curvature.
	// The data-scaled defaults of a multi-pass run average the second half of the passes.
	AvgFrom int `param:"avgfrom"`
}

// DefaultSPAMParams returns SPAM-L2 with C = 0.003, θ = 0.25, β = 10⁻⁴ (test AUC
// 0.8965 on a9a scaled to [−1, 1] in one pass; the thesis reports .8998).
func DefaultSPAMParams() SPAMParams {
	return SPAMParams{Eta: 0.003, Theta: 0.25, Beta: 1e-4, Beta1: 0}
}

// SPAMGrid is the thesis's grid for SPAM-L2 (Table 4.2): β ∈ 10^[-5..5].
var SPAMGrid = Grid{Keys: []string{"beta"}, Values: [][]float64{Pow10(-5, 5)}}

// SPAMNETGrid is the thesis's grid for SPAM-NET (Table 4.2): β₁ ∈ 10^[-5..5] (β as
// tuned for SPAM-L2).
var SPAMNETGrid = Grid{Keys: []string{"beta1"}, Values: [][]float64{Pow10(-5, 5)}}

func (p SPAMParams) check() error {
	for _, err := range []error{
		Check(p.Eta > 0 && !math.IsInf(p.Eta, 0), "eta", p.Eta, "a finite number > 0"),
		Check(p.Theta >= 0 && p.Theta <= 1, "theta", p.Theta, "in [0, 1]"),
		Check(p.Beta >= 0 && !math.IsInf(p.Beta, 0), "beta", p.Beta, "a finite number ≥ 0"),
		Check(p.Beta1 >= 0 && !math.IsInf(p.Beta1, 0), "beta1", p.Beta1, "a finite number ≥ 0"),
		Check(p.AvgFrom >= 0, "avgfrom", p.AvgFrom, "a step ≥ 0 (0: the last iterate)"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// SPAM is the stochastic proximal AUC maximisation of Natole et al. (thesis Alg. 20).
// With a(w) = w·m+, b(w) = w·m−, α(w) = w·(m− − m+) eliminated in closed form, the
// stochastic gradient ∂₁F is a multiple of x:
//
//	y = +1:  ∂₁F = 2(1−p)(w·x − w·m− − 1)·x
//	y = −1:  ∂₁F = 2p(w·x − w·m+ + 1)·x
//
// then ŵ = w − η_t∂₁F and w = prox_{η_tΩ}(ŵ): ŵ/(1+η_tβ) for SPAM-L2, and that
// soft-thresholded at η_tβ₁/(1+η_tβ) for SPAM-NET.
//
// The class means m± and p = P(y = 1) are by default RUNNING estimates over the examples
// seen so far, the current one included (true one-pass use; while one class is unseen
// the factor p̂ or 1−p̂ of the other class's examples is 0, so no step is taken but the
// shrinkage). SetMoments fixes them instead, e.g. from a pre-pass, as the thesis
// assumes.
//
// SPAM-L2 costs O(nnz(x)) per example: w = s·v with a global scale s, the means as
// m± = s±·u± (the running-mean update m ← (1−1/T)m + x/T only rescales and scatters),
// and w·m± kept incrementally (from w·x, x·m± and the scales); w·m± are recomputed
// exactly every max(d, 64) examples (amortised O(1)). The vectors live on the host, as
// plain slices: an example touches nnz(x) of their coordinates (about 14 for a9a), far
// fewer than the fixed cost of a backend call would pay for (tens of ns on a CPU, µs on
// a GPU), and there is no dense linear algebra to hand to the backend.
//
// The tail average of the iterates (AvgFrom) costs O(nnz(x)) more per example: the sum
// Σ_{t≥t₀} w_t is kept as A·v + z, and a step that adds δ to v subtracts A·δ from z
// (the sum does not change) before A grows by the new scale S.
//
// SPAM-NET costs O(d) per example. The ℓ1 prox is per-coordinate and nonlinear, and the
// next step needs w·m+ and w·m−, which read every coordinate in the support of the means
// (for real data, nearly all): a lazily thresholded w (cumulative penalty per
// coordinate) would leave those coordinates stale, and keeping w·m± exact under lazy
// thresholding needs a priority queue of the coordinates' zero-crossing times (an
// O(nnz·log d) scheme not implemented here). SPAM-NET thresholds s·v in place and
// recomputes w·m± with two dot products.
type SPAM struct {
	dim  int
	p    SPAMParams
	st   spamScalars
	v    []float64 // w = S·v
	uPos []float64 // m+ = SPos·uPos
	uNeg []float64 // m− = SNeg·uNeg
	z    []float64 // Σ_{t≥AvgFrom} w_t = A·v + z (nil without averaging)
}

// spamScalars is SPAM's scalar state, checkpointed as is.
type spamScalars struct {
	T          int64   // examples seen
	NPos, NNeg int64   // per class (running moments)
	Fixed      bool    // moments set by SetMoments
	P          float64 // fixed p (when Fixed)
	S          float64 // w = S·v
	SPos, SNeg float64 // m± = S±·u±
	WPos, WNeg float64 // w·m+, w·m−
	A          float64 // Σ_{t≥AvgFrom} w_t = A·v + z
	K          int64   // iterates summed
}

// NewSPAM returns SPAM-L2 (Beta1 = 0) or SPAM-NET for dim features, with running
// moments and w = 0. The seed is unused (the method is deterministic), and so is b:
// SPAM's state is host memory (see SPAM); both are kept for the common signature.
func NewSPAM(b kernels.Backend, dim int, p SPAMParams, seed uint64) (*SPAM, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	s := &SPAM{dim: dim, p: p, v: make([]float64, dim), uPos: make([]float64, dim), uNeg: make([]float64, dim)}
	if p.AvgFrom > 0 {
		s.z = make([]float64, dim)
	}
	s.st = spamScalars{S: 1, SPos: 1, SNeg: 1}
	return s, nil
}

// SetMoments fixes the class means and p = P(y = 1) (e.g. from a pre-pass over the
// training set) in place of the running estimates; call it before the first example.
// Means shorter than the dimension are padded with zeros (features no row has).
func (s *SPAM) SetMoments(meanPos, meanNeg []float64, p float64) error {
	if len(meanPos) > s.dim || len(meanNeg) > s.dim {
		return fmt.Errorf("spam moments: lengths %d and %d, more than the %d features", len(meanPos), len(meanNeg), s.dim)
	}
	if s.st.T > 0 {
		return fmt.Errorf("spam moments: set after %d examples, want before the first", s.st.T)
	}
	if !(p > 0 && p < 1) {
		return fmt.Errorf("spam moments: p = %v, want in (0, 1)", p)
	}
	st := &s.st
	st.Fixed, st.P, st.SPos, st.SNeg = true, p, 1, 1
	clear(s.uPos)
	clear(s.uNeg)
	copy(s.uPos, meanPos)
	copy(s.uNeg, meanNeg)
	s.exact()
	return nil
}

// Params returns the parameters the solver was made with.
func (s *SPAM) Params() SPAMParams { return s.p }

// exact recomputes w·m± from the vectors.
func (s *SPAM) exact() {
	st := &s.st
	var dp, dn float64
	for j, vj := range s.v {
		dp += vj * s.uPos[j]
		dn += vj * s.uNeg[j]
	}
	st.WPos = st.S * st.SPos * dp
	st.WNeg = st.S * st.SNeg * dn
}

// Observe takes one step on (x, y) and returns w·x before it.
func (s *SPAM) Observe(x kernels.Sparse, y int8) float64 {
	st := &s.st
	if !st.Fixed && s.p.PrePass {
		panic("solver: SPAM with prepass=true observed an example before its pre-pass (call solver.PrePass or train with solver.Run)")
	}
	st.T++
	// One gather pass: x·v, and x·u of the class whose mean does not move now (both
	// means when they are fixed).
	own, oth := s.uPos, s.uNeg
	if y != 1 {
		own, oth = oth, own
	}
	var xv, xOwn, xOth float64
	val := x.Val[:len(x.Idx)]
	for k, j := range x.Idx {
		xv += val[k] * s.v[j]
		xOth += val[k] * oth[j]
	}
	wx := st.S * xv
	var p float64
	if st.Fixed {
		p = st.P
		for k, j := range x.Idx {
			xOwn += val[k] * own[j]
		}
	} else {
		// m ← m + (x − m)/T, as m ← (1 − 1/T)·m + x/T on the scaled form.
		if y == 1 {
			st.NPos++
			st.SPos, st.WPos, xOwn = meanStep(st.NPos, st.SPos, st.WPos, own, x, wx)
		} else {
			st.NNeg++
			st.SNeg, st.WNeg, xOwn = meanStep(st.NNeg, st.SNeg, st.WNeg, own, x, wx)
		}
		p = float64(st.NPos) / float64(st.T)
	}
	xPos, xNeg := xOwn, xOth // x·u±
	if y != 1 {
		xPos, xNeg = xOth, xOwn
	}

	var c float64 // ∂₁F = c·x
	if y == 1 {
		c = 2 * (1 - p) * (wx - st.WNeg - 1)
	} else {
		c = 2 * p * (wx - st.WPos + 1)
	}
	eta := s.p.Eta / powTheta(float64(st.T), s.p.Theta)

	// ŵ = w − ηc·x; w·m± follow with x·m±.
	if c != 0 {
		st.WPos -= eta * c * st.SPos * xPos
		st.WNeg -= eta * c * st.SNeg * xNeg
		a := -eta * c / st.S
		for k, j := range x.Idx {
			s.v[j] += a * val[k]
		}
		if st.A != 0 { // the sum A·v + z stays as it was (SPAM-NET keeps A = 0)
			az := -st.A * a
			for k, j := range x.Idx {
				s.z[j] += az * val[k]
			}
		}
	}
	// prox: ŵ/(1 + ηβ), soft-thresholded for SPAM-NET.
	div := 1 + eta*s.p.Beta
	st.S /= div
	st.WPos /= div
	st.WNeg /= div
	if s.p.Beta1 > 0 {
		tau := eta * s.p.Beta1 / div
		for j, vj := range s.v {
			wj := st.S * vj
			switch {
			case wj > tau:
				s.v[j] = wj - tau
			case wj < -tau:
				s.v[j] = wj + tau
			default:
				s.v[j] = 0
			}
		}
		st.S = 1
		s.exact()
		s.addIterate()
		return wx
	}
	if a := math.Abs(st.S); a < lazyScaleLow || a > lazyScaleHigh {
		scal(st.S, s.v)
		st.A /= st.S // A·v unchanged
		st.S = 1
	}
	if st.T%int64(max(s.dim, 64)) == 0 {
		s.exact()
	}
	s.addIterate()
	return wx
}

// addIterate adds the iterate after step T, w = S·v, to the tail sum from step
// AvgFrom on: as A += S for SPAM-L2 (whose steps keep A·v + z), into z itself for
// SPAM-NET (whose steps rewrite v, O(d) anyway).
func (s *SPAM) addIterate() {
	st := &s.st
	if s.p.AvgFrom == 0 || st.T < int64(s.p.AvgFrom) {
		return
	}
	st.K++
	if s.p.Beta1 > 0 {
		for j, vj := range s.v {
			s.z[j] += st.S * vj
		}
		return
	}
	st.A += st.S
}

// powTheta returns t^θ, exactly for the common θ ∈ {0, ½, ¼, 1} and by math.Pow
// otherwise (math.Pow costs more than the rest of a sparse SPAM step).
func powTheta(t, theta float64) float64 {
	switch theta {
	case 0:
		return 1
	case 0.5:
		return math.Sqrt(t)
	case 0.25:
		return math.Sqrt(math.Sqrt(t))
	case 1:
		return t
	}
	return math.Pow(t, theta)
}

// meanStep adds x to the running mean m = scale·u of n examples (n counting x) and
// returns the new scale, w·m (wm before, wx = w·x) and x·u after the update.
func meanStep(n int64, scale, wm float64, u []float64, x kernels.Sparse, wx float64) (float64, float64, float64) {
	f := 1 / float64(n)
	if n > 1 {
		scale *= 1 - f
		wm = (1-f)*wm + f*wx
	} else {
		wm = wx // u is still 0
	}
	if scale < lazyScaleLow {
		scal(scale, u)
		scale = 1
	}
	a := f / scale
	var xu float64
	val := x.Val[:len(x.Idx)]
	for k, j := range x.Idx {
		u[j] += a * val[k]
		xu += val[k] * u[j]
	}
	return scale, wm, xu
}

// scal sets x ← alpha·x.
func scal(alpha float64, x []float64) {
	for j := range x {
		x[j] *= alpha
	}
}

// Weights returns a copy of w: the average of the iterates from step AvgFrom on once
// there is one, else the last iterate.
func (s *SPAM) Weights() []float64 {
	st := &s.st
	if st.K == 0 {
		return scaledCopy(st.S, s.v)
	}
	w := make([]float64, s.dim)
	k := float64(st.K)
	for j, vj := range s.v {
		w[j] = (st.A*vj + s.z[j]) / k
	}
	return w
}

// Means returns copies of the class means in use (running or fixed) and p.
func (s *SPAM) Means() (meanPos, meanNeg []float64, p float64) {
	meanPos, meanNeg = make([]float64, s.dim), make([]float64, s.dim)
	for j := range meanPos {
		meanPos[j] = s.uPos[j] * s.st.SPos
		meanNeg[j] = s.uNeg[j] * s.st.SNeg
	}
	p = s.st.P
	if !s.st.Fixed && s.st.T > 0 {
		p = float64(s.st.NPos) / float64(s.st.T)
	}
	return meanPos, meanNeg, p
}

// spamState is SPAM's checkpoint.
type spamState struct {
	Dim           int
	Params        SPAMParams
	Scalars       spamScalars
	V, UPos, UNeg []float64
	Z             []float64 // the tail sum's vector (AvgFrom > 0)
}

// MarshalBinary encodes the solver's state (gob); UnmarshalBinary into a solver made
// with the same dimension continues bit-identically.
func (s *SPAM) MarshalBinary() ([]byte, error) {
	st := spamState{Dim: s.dim, Params: s.p, Scalars: s.st, V: s.v, UPos: s.uPos, UNeg: s.uNeg, Z: s.z}
	b, err := encodeState(st)
	if err != nil {
		return nil, fmt.Errorf("spam checkpoint: %w", err)
	}
	return b, nil
}

// UnmarshalBinary restores a state written by MarshalBinary, parameters included.
func (s *SPAM) UnmarshalBinary(data []byte) error {
	var st spamState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("spam checkpoint: %w", err)
	}
	if st.Dim != s.dim || len(st.V) != s.dim || len(st.UPos) != s.dim || len(st.UNeg) != s.dim {
		return fmt.Errorf("spam checkpoint: dimension %d, solver has %d", st.Dim, s.dim)
	}
	if err := st.Params.check(); err != nil {
		return fmt.Errorf("spam checkpoint: %w", err)
	}
	if st.Params.AvgFrom > 0 && len(st.Z) != s.dim {
		return fmt.Errorf("spam checkpoint: averaging from step %d with %d sums, solver has %d features", st.Params.AvgFrom, len(st.Z), s.dim)
	}
	s.p, s.st = st.Params, st.Scalars
	s.z = nil
	if s.p.AvgFrom > 0 {
		s.z = slices.Clone(st.Z)
	}
	copy(s.v, st.V)
	copy(s.uPos, st.UPos)
	copy(s.uNeg, st.UNeg)
	return nil
}

// WantsPrePass reports whether the learner takes its moments from a pre-pass
// (prepass=true) and has not been given them yet (PrePasser).
func (s *SPAM) WantsPrePass() bool {
	return s.p.PrePass && !s.st.Fixed && s.st.T == 0
}

// spamL2Spec is SPAM's Spec with the ℓ2 penalty.
func spamL2Spec() Spec {
	return spamSpec(online("spam-l2", "stochastic proximal AUC maximisation, l2 penalty", "Natole et al. 2018; thesis Alg. 20",
		DefaultSPAMParams, SPAMGrid, NewSPAM))
}

// spamNETSpec is SPAM's Spec with the elastic net (β₁ = 10⁻⁴ by default).
func spamNETSpec() Spec {
	return spamSpec(online("spam-net", "stochastic proximal AUC maximisation, elastic net", "Natole et al. 2018; thesis Alg. 20",
		defaultSPAMNETParams, SPAMNETGrid, NewSPAM))
}

// spamSpec adds what SPAM's two penalties share to s: w, the class means and scratch,
// and the tail average's sum when it averages; the multi-pass defaults of
// spamDefaults.
func spamSpec(s Spec) Spec {
	s.MinSteps = defaultMinSteps
	withState(&s, func(d, _ float64, p *SPAMParams) float64 {
		if p.AvgFrom > 0 {
			return 5 * d
		}
		return 4 * d
	})
	withDefaults(&s, spamDefaults)
	return s
}

// defaultSPAMNETParams is SPAM with the elastic net's ℓ1 weight β₁ = 10⁻⁴.
func defaultSPAMNETParams() SPAMParams {
	p := DefaultSPAMParams()
	p.Beta1 = 1e-4
	return p
}
