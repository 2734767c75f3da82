package solver

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// AdaOAMParams are the hyper-parameters of AdaOAM (Ding et al. 2015; thesis Algorithm 9).
// Start from DefaultAdaOAMParams; the zero value is not a valid setting.
type AdaOAMParams struct {
	// Eta is the step size η > 0 of the AdaGrad step. Default 2⁻⁸ (the best one-pass
	// test AUC on a9a, 0.9004, in a search over 2^[-8..0]). Grid (OPAUC's protocol)
	// 2^[-12..10].
	Eta float64 `param:"eta"`
	// Lambda is the ℓ2 weight λ ≥ 0 of OPAUC's loss; the iterate is also projected on the
	// ball ‖w‖ ≤ 1/√λ (no projection when λ = 0). Default 2⁻¹⁰. Grid 2^[-10..2].
	Lambda float64 `param:"lambda"`
	// Delta is the smoothing δ ≥ 0 of H = δI + diag(s). Default 1e-8 (not searched).
	Delta float64 `param:"delta"`
}

// DefaultAdaOAMParams returns AdaOAM's default hyper-parameters.
func DefaultAdaOAMParams() AdaOAMParams {
	return AdaOAMParams{Eta: 0x1p-8, Lambda: 0x1p-10, Delta: 1e-8}
}

// AdaOAMGrid is AdaOAM's grid, following OPAUC's protocol: η ∈ 2^[-12..10],
// λ ∈ 2^[-10..2] (δ fixed).
var AdaOAMGrid = Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{Pow2(-12, 10), Pow2(-10, 2)}}

// AdaOAM is adaptive online AUC maximisation (Ding et al. 2015; thesis Algorithm 9):
// OPAUC's gradient g_t (the same running class statistics, see OPAUC) followed by a
// diagonal AdaGrad step
//
//	s_i = ‖g_{1:t,i}‖₂,  H = δI + diag(s),  w ← Π_{‖w‖ ≤ 1/√λ}(w − η H⁻¹ g).
//
// The projection is the Euclidean one onto the ball, as docs/ALGORITHMS.md, "AdaOAM", states (the
// thesis writes it in the H-norm). Memory O(d²); per example O(d²) like OPAUC.
// An AdaOAM is not safe for concurrent use.
type AdaOAM struct {
	p    AdaOAMParams
	core *opaucCore
	row  opaucRow
	sq   []float64   // Σ_t g_{t,i}², on the host
	gh   []float64   // host copy of g, then of H⁻¹g
	step kernels.Vec // H⁻¹g on the backend
}

// NewAdaOAM returns an AdaOAM learner for dim features on backend b. AdaOAM is
// deterministic: seed is unused.
func NewAdaOAM(b kernels.Backend, dim int, p AdaOAMParams, seed uint64) (*AdaOAM, error) {
	if err := (OPAUCParams{Eta: p.Eta, Lambda: p.Lambda}).check(); err != nil {
		return nil, err
	}
	if err := Check(p.Delta >= 0 && !math.IsInf(p.Delta, 0), "delta", p.Delta, "a finite number ≥ 0"); err != nil {
		return nil, err
	}
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	core := newOPAUCCore(b, dim, opaucBlock, p.Lambda)
	return &AdaOAM{p: p, core: core, row: newOPAUCRow(core),
		sq: make([]float64, dim), gh: make([]float64, dim), step: b.NewVec(dim)}, nil
}

// Observe learns from (x, y) by one AdaGrad step on OPAUC's gradient (none while the
// other class is empty) and returns the score w·x before it. y must be +1 or −1.
func (s *AdaOAM) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("AdaOAM", y)
	c := s.core
	b := c.b
	score, ok := c.grad(s.row.load(x), y)
	if !ok {
		return score
	}
	// elementwise, not a backend op: s_i² += g_i², step_i = g_i/(δ + s_i)
	b.Download(s.gh, c.g)
	for i, g := range s.gh {
		s.sq[i] += g * g
		if h := s.p.Delta + math.Sqrt(s.sq[i]); h > 0 {
			s.gh[i] = g / h
		} else {
			s.gh[i] = 0 // δ = 0 and g_{1:t,i} = 0 so far: g_i = 0
		}
	}
	b.Upload(s.step, s.gh)
	b.Axpy(-s.p.Eta, s.step, c.w)
	if s.p.Lambda > 0 {
		if nn := b.Dot(c.w, c.w); nn*s.p.Lambda > 1 {
			b.Scal(1/math.Sqrt(nn*s.p.Lambda), c.w)
		}
	}
	return score
}

// Weights returns a copy of w.
func (s *AdaOAM) Weights() []float64 { return s.core.weights() }

type adaoamState struct {
	P    AdaOAMParams
	SQ   []float64
	Core opaucCoreState
}

// MarshalBinary encodes the learner's state (parameters, OPAUC's statistics and w, the
// AdaGrad sums of squares) with encoding/gob; a learner restored from it continues
// bit-identically.
func (s *AdaOAM) MarshalBinary() ([]byte, error) {
	return encodeState(adaoamState{P: s.p, SQ: s.sq, Core: s.core.state()})
}

// UnmarshalBinary restores a state written by MarshalBinary into s, which must have
// been made for the same dimension; the parameters are the checkpoint's.
func (s *AdaOAM) UnmarshalBinary(data []byte) error {
	var st adaoamState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: AdaOAM state: %w", err)
	}
	if err := (OPAUCParams{Eta: st.P.Eta, Lambda: st.P.Lambda}).check(); err != nil {
		return err
	}
	if len(st.SQ) != len(s.sq) {
		return fmt.Errorf("solver: AdaOAM state of dimension %d, want %d", len(st.SQ), len(s.sq))
	}
	if err := s.core.restore(&st.Core); err != nil {
		return err
	}
	copy(s.sq, st.SQ)
	s.p, s.core.lambda = st.P, st.P.Lambda
	return nil
}

// adaoamSpec is AdaOAM's Spec: OPAUC's class covariances and a few vectors of state.
//
// AdaOAM minimises OPAUC's objective, so over several passes (DataFacts.Passes > 1;
// one pass keeps the static defaults, tuned on a9a) it takes OPAUC's ridge λ = 2ρ
// and AdaGrad's step η = 2⁻⁴. AdaGrad divides each coordinate's gradient by its
// accumulated norm, so η is in the units of w, not of the data, and the static
// 2⁻⁸ (with λ = 2⁻¹⁰) moved too little along svmguide3's small-curvature
// directions (.773 against unilog's .808). Measured on the eleven small sets
// (stratified 70/30, seed 1): η = 2⁻⁴ every set within .016 of unilog (svmguide3
// .796, ionosphere .953, liver-disorders .736); 2⁻⁶ svmguide3 .788, 2⁻² ionosphere
// .949, 2⁻⁸ svmguide3 .771.
func adaoamSpec() Spec {
	s := online("adaoam", "OPAUC's gradient with diagonal AdaGrad steps", "Ding et al. 2015; thesis Alg. 9",
		DefaultAdaOAMParams, AdaOAMGrid, NewAdaOAM)
	s.MinSteps = defaultMinSteps
	withState(&s, func(d, _ float64, _ *AdaOAMParams) float64 { return 2*d*d + 84*d })
	withDefaults(&s, func(f DataFacts, p *AdaOAMParams) {
		if f.Passes > 1 {
			p.Eta, p.Lambda = 0x1p-4, ridgeSquare*f.RidgeScale()
		}
	})
	return s
}
