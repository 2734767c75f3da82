package solver

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// UBAUCParams are the hyper-parameters of ol-UBAUC (Lyu & Ying, "a univariate bound of
// area under ROC", eq. 9), the online minimiser of objective (8):
//
//	min_{w,λ} (γ/2)‖w‖² + Σ_i { [y_i(λ − x_i·w)]₊ + (β/2)(1 − y_i x_i·w)² }
//
// Start from DefaultUBAUCParams.
type UBAUCParams struct {
	// Eta is η in the step η_t = η/√t (the paper: η_t ∝ 1/√t, the initial rate tuned by
	// grid search), > 0. Default 0.1.
	Eta float64 `param:"eta"`
	// Beta is β ≥ 0, the weight of the least-squares term that keeps w from collapsing
	// to 0. Default 0.1.
	Beta float64 `param:"beta"`
	// Gamma is γ ≥ 0, the ℓ2 weight. Default 10⁻⁴.
	Gamma float64 `param:"gamma"`
}

// DefaultUBAUCParams returns η = 0.1, β = 0.1, γ = 10⁻⁴.
func DefaultUBAUCParams() UBAUCParams {
	return UBAUCParams{Eta: 0.1, Beta: 0.1, Gamma: 1e-4}
}

// UBAUCGrid is a grid for ol-UBAUC. The paper tunes (β, γ) and the initial rate by
// grid search on a validation split without listing the values; this grid is ours:
// η ∈ 10^[-3..1], β ∈ 10^[-3..1], γ ∈ 10^[-6..-1].
var UBAUCGrid = Grid{
	Keys:   []string{"eta", "beta", "gamma"},
	Values: [][]float64{Pow10(-3, 1), Pow10(-3, 1), Pow10(-6, -1)},
}

func (p UBAUCParams) check() error {
	for _, err := range []error{
		Check(p.Eta > 0 && !math.IsInf(p.Eta, 0), "eta", p.Eta, "a finite number > 0"),
		Check(p.Beta >= 0 && !math.IsInf(p.Beta, 0), "beta", p.Beta, "a finite number ≥ 0"),
		Check(p.Gamma >= 0 && !math.IsInf(p.Gamma, 0), "gamma", p.Gamma, "a finite number ≥ 0"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// UBAUC is ol-UBAUC, eq. (9) of Lyu & Ying, implemented exactly: with
// h = I[y(λ − w·x) > 0] evaluated at the current (w, λ),
//
//	w ← w − η_t((γI + β x xᵀ)w − (β + h) y x)
//	λ ← λ − η_t y h
//
// with η_t = η/√t, from w = 0 and λ = 0 (the paper's eq. 9 prints x_tᵀx_t where the
// sub-gradient of (β/2)(1 − y x·w)² needs the outer product x xᵀ). The output is the last
// iterate w (eq. 9 has no averaging); λ is a threshold and takes no part in scoring.
//
// Cost per example is O(nnz(x)): (1 − η_tγ)w is a global scale of w = s·v, and
// β x xᵀw = β(w·x)x a scatter. Like SPAM's, w lives on the host: a step touches
// nnz(x) coordinates, too few to pay for a backend call.
type UBAUC struct {
	dim int
	p   UBAUCParams
	st  ubaucScalars
	v   []float64 // w = S·v
}

// ubaucScalars is UBAUC's scalar state, checkpointed as is.
type ubaucScalars struct {
	T      int64   // examples seen
	S      float64 // w = S·v
	Lambda float64 // the threshold λ
}

// NewUBAUC returns ol-UBAUC for dim features. The seed is unused (the method is
// deterministic), and so is b (the state is host memory, see UBAUC); both are kept for
// the common signature.
func NewUBAUC(b kernels.Backend, dim int, p UBAUCParams, seed uint64) (*UBAUC, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &UBAUC{dim: dim, p: p, st: ubaucScalars{S: 1}, v: make([]float64, dim)}, nil
}

// Params returns the parameters the solver was made with.
func (u *UBAUC) Params() UBAUCParams { return u.p }

// Threshold returns the current λ.
func (u *UBAUC) Threshold() float64 { return u.st.Lambda }

// Observe takes one step of eq. (9) on (x, y) and returns w·x before it.
func (u *UBAUC) Observe(x kernels.Sparse, y int8) float64 {
	st := &u.st
	st.T++
	val := x.Val[:len(x.Idx)]
	var xv float64
	for k, j := range x.Idx {
		xv += val[k] * u.v[j]
	}
	wx := st.S * xv
	eta := u.p.Eta / math.Sqrt(float64(st.T))
	yf := float64(y)
	var h float64
	if yf*(st.Lambda-wx) > 0 {
		h = 1
	}
	// w ← (1 − ηγ)w − η(β(w·x) − (β + h)y)·x
	c := -eta * (u.p.Beta*wx - (u.p.Beta+h)*yf)
	shrink := 1 - eta*u.p.Gamma
	if shrink == 0 {
		clear(u.v)
		st.S = 1
	} else {
		st.S *= shrink
	}
	if c != 0 {
		a := c / st.S
		for k, j := range x.Idx {
			u.v[j] += a * val[k]
		}
	}
	if a := math.Abs(st.S); a < lazyScaleLow || a > lazyScaleHigh {
		scal(st.S, u.v)
		st.S = 1
	}
	st.Lambda -= eta * yf * h
	return wx
}

// Weights returns a copy of w.
func (u *UBAUC) Weights() []float64 {
	return scaledCopy(u.st.S, u.v)
}

// ubaucState is UBAUC's checkpoint.
type ubaucState struct {
	Dim     int
	Params  UBAUCParams
	Scalars ubaucScalars
	V       []float64
}

// MarshalBinary encodes the solver's state (gob); UnmarshalBinary into a solver made
// with the same dimension continues bit-identically.
func (u *UBAUC) MarshalBinary() ([]byte, error) {
	st := ubaucState{Dim: u.dim, Params: u.p, Scalars: u.st, V: u.v}
	b, err := encodeState(st)
	if err != nil {
		return nil, fmt.Errorf("ubauc checkpoint: %w", err)
	}
	return b, nil
}

// UnmarshalBinary restores a state written by MarshalBinary, parameters included.
func (u *UBAUC) UnmarshalBinary(data []byte) error {
	var st ubaucState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("ubauc checkpoint: %w", err)
	}
	if st.Dim != u.dim || len(st.V) != u.dim {
		return fmt.Errorf("ubauc checkpoint: dimension %d, solver has %d", st.Dim, u.dim)
	}
	if err := st.Params.check(); err != nil {
		return fmt.Errorf("ubauc checkpoint: %w", err)
	}
	u.p, u.st = st.Params, st.Scalars
	copy(u.v, st.V)
	return nil
}
