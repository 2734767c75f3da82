package solver

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// This file holds the univariate baselines of the papers' tables (docs/ALGORITHMS.md,
// "Univariate and other baselines" and the MBA baselines): online logistic regression
// (OLR), sparse online logistic regression by FTRL-Proximal (SOLR, McMahan et al. 2013)
// and online Uni-Exp (class-weighted exponential loss). None of them looks at pairs;
// each costs O(nnz) per example.

// baseRescale is the scale below which a lazily scaled weight vector w = s·v is folded
// back into v (an O(d) Scal), as Bottou's SGD does, so that v never overflows.
const baseRescale = 1e-9

// baseLinear is a weight vector kept as w = s·v: the ℓ2 shrink w ← f·w costs O(1)
// (s ← f·s) and a sparse step w += α·x costs O(nnz) (v += (α/s)·x).
type baseLinear struct {
	b kernels.Backend
	v kernels.Vec
	s float64
}

func newBaseLinear(b kernels.Backend, dim int) baseLinear {
	return baseLinear{b: b, v: b.NewVec(dim), s: 1}
}

// dot returns w·x.
func (l *baseLinear) dot(x kernels.Sparse) float64 { return l.s * l.b.DotSparse(x, l.v) }

// shrink sets w ← f·w (0 < f ≤ 1).
func (l *baseLinear) shrink(f float64) {
	l.s *= f
	if l.s < baseRescale {
		l.b.Scal(l.s, l.v)
		l.s = 1
	}
}

// add sets w ← w + alpha·x.
func (l *baseLinear) add(alpha float64, x kernels.Sparse) { l.b.AxpySparse(alpha/l.s, x, l.v) }

// weights returns a copy of w.
func (l *baseLinear) weights() []float64 {
	w := make([]float64, l.v.Len())
	l.b.Download(w, l.v)
	for i := range w {
		w[i] *= l.s
	}
	return w
}

// state returns v and s for a checkpoint.
func (l *baseLinear) state() ([]float64, float64) {
	v := make([]float64, l.v.Len())
	l.b.Download(v, l.v)
	return v, l.s
}

// restore sets v and s from a checkpoint.
func (l *baseLinear) restore(v []float64, s float64) error {
	if len(v) != l.v.Len() {
		return fmt.Errorf("checkpoint has dimension %d, learner %d", len(v), l.v.Len())
	}
	l.b.Upload(l.v, v)
	l.s = s
	return nil
}

// baseSGDCheck validates the (eta, lambda) pair shared by OLR and Uni-Exp. The shrink
// factor 1 − η_t·λ must stay positive, hence η·λ < 1.
func baseSGDCheck(eta, lambda float64, dim int) error {
	for _, err := range []error{
		Check(dim > 0, "dim", dim, "> 0"),
		Check(eta > 0 && !math.IsInf(eta, 0), "eta", eta, "a finite number > 0"),
		Check(lambda >= 0 && !math.IsInf(lambda, 0), "lambda", lambda, "a finite number ≥ 0"),
		Check(eta*lambda < 1, "eta*lambda", eta*lambda, "< 1 (the ℓ2 shrink 1 − η·λ must stay positive)"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// ---------------------------------------------------------------------------------
// OLR

// OLRParams are the hyper-parameters of online logistic regression (the MBA paper's
// OLR baseline). Start from DefaultOLRParams.
type OLRParams struct {
	// Eta is the step size η > 0; example t takes the step η/√t. Default 2⁻². Grid
	// 2^[-8..2].
	Eta float64 `param:"eta"`
	// Lambda is the ℓ2 weight λ ≥ 0 (0 allowed); η·λ < 1. Default 10⁻⁵. Grid
	// {0, 10^[-6..-2]}.
	Lambda float64 `param:"lambda"`
}

// DefaultOLRParams returns OLR's defaults.
func DefaultOLRParams() OLRParams { return OLRParams{Eta: 0.25, Lambda: 1e-5} }

// OLRGrid is OLR's hyper-parameter grid (the MBA paper tunes the step of its O(1/√t)
// baselines; the grid here is the project's).
var OLRGrid = Grid{
	Keys:   []string{"eta", "lambda"},
	Values: [][]float64{Pow2(-8, 2), append([]float64{0}, Pow10(-6, -2)...)},
}

// OLR is online logistic regression: SGD on the ℓ2-regularised logistic loss
//
//	log(1 + exp(−y (w·x + b))) + (λ/2)‖w‖²
//
// with step η_t = η/√t:
//
//	a = η_t · y · σ(−y (w·x + b)),   w ← (1 − η_t λ) w + a x,   b ← b + a,
//
// σ(z) = 1/(1 + e^{−z}). The bias b is unregularised; AUC does not see it and Weights
// leaves it out, but the fit needs it (as Uni-Exp's and unilog's do): without b the loss
// is forced through the origin, which on uncentred features tilts w (sonar in [−1, 1],
// 100 passes at η = 1, λ = 8·max(2/n, 3·10⁻³): test AUC .78 without b, .87 with; one
// pass over a9a or w8a: the same to 10⁻⁶).
// The weights are kept as s·v (lazy ℓ2 scaling), so a sparse row costs O(nnz).
type OLR struct {
	p    OLRParams
	w    baseLinear
	t    int64   // examples seen
	bias float64 // unregularised bias b (AUC ignores it)
}

// NewOLR makes an OLR learner over dim features. seed is unused (OLR is
// deterministic); it is there for the uniform constructor shape.
func NewOLR(b kernels.Backend, dim int, p OLRParams, seed uint64) (*OLR, error) {
	if err := baseSGDCheck(p.Eta, p.Lambda, dim); err != nil {
		return nil, err
	}
	return &OLR{p: p, w: newBaseLinear(b, dim)}, nil
}

// Observe takes one SGD step on (x, y) and returns the score w·x from before it.
func (o *OLR) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("OLR", y)
	o.t++
	score := o.w.dot(x)
	yf := float64(y)
	eta := o.p.Eta / math.Sqrt(float64(o.t))
	// −∂/∂w log(1 + e^{−y w·x}) = y·σ(−y w·x)·x = y/(1 + e^{y w·x})·x
	g := yf / (1 + math.Exp(yf*(score+o.bias)))
	o.w.shrink(1 - eta*o.p.Lambda)
	o.w.add(eta*g, x)
	o.bias += eta * g
	return score
}

// Weights returns a copy of w.
func (o *OLR) Weights() []float64 { return o.w.weights() }

type olrState struct {
	Params OLRParams
	T      int64
	V      []float64
	S      float64
	B      float64
}

// MarshalBinary checkpoints the learner (parameters and state).
func (o *OLR) MarshalBinary() ([]byte, error) {
	v, s := o.w.state()
	return encodeState(olrState{o.p, o.t, v, s, o.bias})
}

// UnmarshalBinary restores a checkpoint made by MarshalBinary into a learner made by
// NewOLR with the same dimension (its backend is kept; the parameters come from the
// checkpoint). The restored learner continues bit-identically.
func (o *OLR) UnmarshalBinary(data []byte) error {
	var st olrState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: OLR checkpoint: %w", err)
	}
	if err := o.w.restore(st.V, st.S); err != nil {
		return fmt.Errorf("solver: OLR checkpoint: %w", err)
	}
	o.p, o.t, o.bias = st.Params, st.T, st.B
	return nil
}

// ---------------------------------------------------------------------------------
// FTRL-Proximal

// FTRLParams are the hyper-parameters of FTRL-Proximal logistic regression (McMahan et
// al. 2013, Algorithm 1; the MBA paper's SOLR baseline). Start from DefaultFTRLParams.
type FTRLParams struct {
	// Alpha is α > 0 of the per-coordinate rate η_{t,i} = α/(β + √Σ g²). Default 2⁻³.
	// Grid 2^[-6..2].
	Alpha float64 `param:"alpha"`
	// Beta is β ≥ 0 of the per-coordinate rate (the paper: "β = 1 is usually good
	// enough"). Default 1. Grid {1}.
	Beta float64 `param:"beta"`
	// L1 is the ℓ1 weight λ₁ ≥ 0, which makes w sparse. Default 0. Grid
	// {0, 10^[-3..0]}.
	L1 float64 `param:"l1"`
	// L2 is the ℓ2 weight λ₂ ≥ 0. Default 0. Grid {0, 10^[-2..0]}.
	L2 float64 `param:"l2"`
}

// DefaultFTRLParams returns FTRL's defaults.
func DefaultFTRLParams() FTRLParams { return FTRLParams{Alpha: 1.0 / 8, Beta: 1} }

// FTRLGrid is FTRL's hyper-parameter grid.
var FTRLGrid = Grid{
	Keys: []string{"alpha", "beta", "l1", "l2"},
	Values: [][]float64{Pow2(-6, 2), {1},
		append([]float64{0}, Pow10(-3, 0)...), append([]float64{0}, Pow10(-2, 0)...)},
}

// FTRL is FTRL-Proximal online logistic regression with per-coordinate learning rates
// (McMahan et al. 2013, "Ad Click Prediction: a View from the Trenches", Algorithm 1).
// The margin is w·x + b with a bias b: a coordinate whose feature is always 1, updated
// by the same rule without λ₁ and λ₂ (McMahan et al. keep a bias feature; AUC ignores
// b and Weights leaves it out, but the fit needs it, see OLR). For each non-zero i of
// x_t:
//
//	w_i = 0                                                   if |z_i| ≤ λ₁
//	w_i = −(z_i − sgn(z_i) λ₁) / ((β + √n_i)/α + λ₂)           otherwise
//	p = σ(w·x + b),  g_i = (p − [y = +1]) x_i
//	σ_i = (√(n_i + g_i²) − √n_i)/α,  z_i += g_i − σ_i w_i,  n_i += g_i²
//
// Only the row's non-zeros are touched: O(nnz) per example. The per-coordinate state
// lives in host slices updated in plain Go loops: the update is elementwise logic (a
// threshold, a square root and a division per coordinate), not a backend operation, so
// FTRL does not use the backend at all. The state kept is z and r = √n (the sum of
// squared gradients enters only through its root), which costs one square root per
// coordinate instead of three.
type FTRL struct {
	p  FTRLParams
	z  []float64
	r  []float64 // √n_i
	wx []float64 // scratch: w_i for the current row's non-zeros
	// zb and rb are z and √n of the unregularised bias b, a coordinate whose feature
	// is always 1 (AUC ignores b; see FTRL).
	zb, rb float64
}

// NewFTRL makes an FTRL-Proximal learner over dim features. The backend and seed are
// unused (see FTRL); they are there for the uniform constructor shape.
func NewFTRL(b kernels.Backend, dim int, p FTRLParams, seed uint64) (*FTRL, error) {
	for _, err := range []error{
		Check(dim > 0, "dim", dim, "> 0"),
		Check(p.Alpha > 0 && !math.IsInf(p.Alpha, 0), "alpha", p.Alpha, "a finite number > 0"),
		Check(p.Beta >= 0 && !math.IsInf(p.Beta, 0), "beta", p.Beta, "a finite number ≥ 0"),
		Check(p.L1 >= 0 && !math.IsInf(p.L1, 0), "l1", p.L1, "a finite number ≥ 0"),
		Check(p.L2 >= 0 && !math.IsInf(p.L2, 0), "l2", p.L2, "a finite number ≥ 0"),
	} {
		if err != nil {
			return nil, err
		}
	}
	return &FTRL{p: p, z: make([]float64, dim), r: make([]float64, dim)}, nil
}

// weight is the lazily computed w_i of coordinate i.
func (f *FTRL) weight(i int32) float64 {
	z := f.z[i]
	if math.Abs(z) <= f.p.L1 {
		return 0
	}
	return -(z - math.Copysign(f.p.L1, z)) / ((f.p.Beta+f.r[i])/f.p.Alpha + f.p.L2)
}

// biasWeight is the bias b: the coordinate rule without λ₁ and λ₂.
func (f *FTRL) biasWeight() float64 { return -f.zb / ((f.p.Beta + f.rb) / f.p.Alpha) }

// Observe takes one FTRL-Proximal step on (x, y) and returns the score w·x from
// before it.
func (f *FTRL) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("FTRL", y)
	nnz := len(x.Idx)
	if nnz > 0 && (x.Idx[0] < 0 || int(x.Idx[nnz-1]) >= len(f.z)) {
		panic(fmt.Sprintf("solver: FTRL: index out of range [0, %d)", len(f.z)))
	}
	if cap(f.wx) < nnz {
		f.wx = make([]float64, nnz, max(nnz, 2*cap(f.wx)))
	}
	wx := f.wx[:nnz]
	var score float64
	for k, i := range x.Idx {
		wx[k] = f.weight(i)
		score += wx[k] * x.Val[k]
	}
	b := f.biasWeight()
	// ∂/∂(score + b) of the log loss: p − [y = +1] = −y/(1 + e^{y·(score + b)}).
	yf := float64(y)
	g := -yf / (1 + math.Exp(yf*(score+b)))
	ia := 1 / f.p.Alpha
	rbNew := math.Sqrt(f.rb*f.rb + g*g)
	f.zb += g - (rbNew-f.rb)*ia*b
	f.rb = rbNew
	for k, i := range x.Idx {
		gi := g * x.Val[k]
		r := f.r[i]
		rNew := math.Sqrt(r*r + gi*gi)
		f.z[i] += gi - (rNew-r)*ia*wx[k]
		f.r[i] = rNew
	}
	return score
}

// Weights returns w, computed from z and n for every coordinate.
func (f *FTRL) Weights() []float64 {
	w := make([]float64, len(f.z))
	for i := range w {
		w[i] = f.weight(int32(i))
	}
	return w
}

type ftrlState struct {
	Params FTRLParams
	Z, R   []float64
	ZB, RB float64
}

// MarshalBinary checkpoints the learner (parameters and state).
func (f *FTRL) MarshalBinary() ([]byte, error) {
	return encodeState(ftrlState{f.p, f.z, f.r, f.zb, f.rb})
}

// UnmarshalBinary restores a checkpoint made by MarshalBinary into a learner made by
// NewFTRL with the same dimension (the parameters come from the checkpoint). The
// restored learner continues bit-identically.
func (f *FTRL) UnmarshalBinary(data []byte) error {
	var st ftrlState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: FTRL checkpoint: %w", err)
	}
	if len(st.Z) != len(f.z) || len(st.R) != len(f.r) {
		return fmt.Errorf("solver: FTRL checkpoint has dimension %d, learner %d", len(st.Z), len(f.z))
	}
	f.p, f.zb, f.rb = st.Params, st.ZB, st.RB
	copy(f.z, st.Z)
	copy(f.r, st.R)
	return nil
}

// ---------------------------------------------------------------------------------
// Uni-Exp

// UniExpParams are the hyper-parameters of online Uni-Exp. Start from
// DefaultUniExpParams.
type UniExpParams struct {
	// Eta is the step size η > 0; example t takes the step η/√t. Default 2⁻⁷ (the
	// exponential loss is steep: 2⁻⁶ diverges on a9a scaled to [−1, 1]). Grid
	// 2^[-12..0].
	Eta float64 `param:"eta"`
	// Lambda is the ℓ2 weight λ ≥ 0 (0 allowed); η·λ < 1. Default 10⁻⁵. Grid
	// {0, 10^[-6..-2]}.
	Lambda float64 `param:"lambda"`
}

// DefaultUniExpParams returns Uni-Exp's defaults.
func DefaultUniExpParams() UniExpParams { return UniExpParams{Eta: 1.0 / 128, Lambda: 1e-5} }

// UniExpGrid is Uni-Exp's hyper-parameter grid.
var UniExpGrid = Grid{
	Keys:   []string{"eta", "lambda"},
	Values: [][]float64{Pow2(-12, 0), append([]float64{0}, Pow10(-6, -2)...)},
}

// UniExp is online Uni-Exp: SGD on the class-weighted exponential loss
//
//	ρ_y · exp(−y (w·x + b)) + (λ/2)‖w‖²
//
// with step η_t = η/√t: w ← (1 − η_t λ) w + a y x and b ← b + a y, where
// a = η_t ρ_y e^{−y (w⁺·x + b⁺)} is the implicit (proximal) step on the loss, the
// explicit η_t ρ_y e^{−y (w·x + b)} up to O(η_t²) but bounded (see Observe): plain SGD
// on the exponential loss diverges when one misranked example's gradient e^{−y(w·x+b)}
// explodes. The bias b is unregularised and not part of
// Weights (AUC ignores it), but the fit needs it: Kotłowski et al.'s univariate loss
// is over w·x + b, and without b the loss is forced through the origin, which on
// uncentred features tilts w (magic04 in [-1, 1]: test AUC .811 without b, .829 with).
//
// The batch method weights each class by 1/n± so that both classes count equally. Online,
// n± are not known in advance, so the weights use the running positive share
// p̂_t = (n⁺_t + 1)/(t + 2) (n⁺_t positives among the first t examples, the current one
// included; the +1/+2 smoothing keeps both weights finite from the first example):
//
//	ρ₊ = 1/(2 p̂_t),   ρ₋ = 1/(2 (1 − p̂_t)).
//
// Summed over a stream with p̂ ≈ n⁺/n this is n/(2n⁺) per positive and n/(2n⁻) per
// negative — the batch weights 1/n± times n/2, so each class carries half the total
// weight and the average weight is 1 (η has the scale of the unweighted loss).
// Weights are kept as s·v (lazy ℓ2 scaling): O(nnz) per example.
type UniExp struct {
	p    UniExpParams
	w    baseLinear
	t    int64   // examples seen
	nPos int64   // positives seen
	bias float64 // unregularised bias b (AUC ignores it)
}

// NewUniExp makes an online Uni-Exp learner over dim features. seed is unused (the
// learner is deterministic); it is there for the uniform constructor shape.
func NewUniExp(b kernels.Backend, dim int, p UniExpParams, seed uint64) (*UniExp, error) {
	if err := baseSGDCheck(p.Eta, p.Lambda, dim); err != nil {
		return nil, err
	}
	return &UniExp{p: p, w: newBaseLinear(b, dim)}, nil
}

// Observe takes one SGD step on (x, y) and returns the score w·x from before it.
func (u *UniExp) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("UniExp", y)
	u.t++
	if y == 1 {
		u.nPos++
	}
	pHat := (float64(u.nPos) + 1) / (float64(u.t) + 2)
	rho := 1 / (2 * (1 - pHat))
	if y == 1 {
		rho = 1 / (2 * pHat)
	}
	score := u.w.dot(x)
	yf := float64(y)
	eta := u.p.Eta / math.Sqrt(float64(u.t))
	// The implicit (proximal) step on the loss: w⁺ = w + a·y·x, b⁺ = b + a·y with
	// a = ηρ·e^{−y (w⁺·x + b⁺)}, the gradient taken at the point stepped to. With
	// k = ‖x‖² + 1 and m = y (w·x + b) the new margin is m + a·k, so u = a·k solves
	// u·e^u = ηρk·e^{−m}: u = W(ηρk·e^{−m}) (Lambert W). For small steps a equals the
	// explicit ηρ·e^{−m}; unlike it, a grows only like log e^{−m} = −m, so a badly
	// misranked example cannot throw w to ±Inf (the explicit step diverged within 6 to
	// 238 examples of several OPAUC-protocol refits: magic04 η = 0.5, a9a η = 2⁻⁶,
	// w8a η = 2⁻⁹).
	k := 1.0
	for _, v := range x.Val[:len(x.Idx)] {
		k += v * v
	}
	a := lambertWExp(math.Log(eta*rho*k)-yf*(score+u.bias)) / k
	u.w.shrink(1 - eta*u.p.Lambda)
	u.w.add(a*yf, x)
	u.bias += a * yf
	return score
}

// lambertWExp returns W(e^L), the u ≥ 0 with u·e^u = e^L, without forming e^L (which
// overflows for L > 709): Halley's iteration on u·e^u = e^L for L ≤ 1, Newton's on
// u + ln u = L above, both to full precision in a few steps.
func lambertWExp(L float64) float64 {
	if math.IsInf(L, 1) || math.IsNaN(L) {
		return L
	}
	if L <= 1 {
		z := math.Exp(L)
		u := math.Log1p(z) // within a factor 1.4 of W(z) for z ≤ e
		for range 32 {
			eu := math.Exp(u)
			f := u*eu - z
			d := eu*(u+1) - (u+2)*f/(2*u+2)
			next := u - f/d
			if math.Abs(next-u) <= 1e-15*max(next, 1e-300) {
				return next
			}
			u = next
		}
		return u
	}
	u := L - math.Log(L) // the asymptote; u > 0 for L > 1
	for range 32 {
		next := u - (u+math.Log(u)-L)*u/(u+1)
		if math.Abs(next-u) <= 1e-15*next {
			return next
		}
		u = next
	}
	return u
}

// Weights returns a copy of w.
func (u *UniExp) Weights() []float64 { return u.w.weights() }

type uniExpState struct {
	Params  UniExpParams
	T, NPos int64
	V       []float64
	S       float64
	B       float64
}

// MarshalBinary checkpoints the learner (parameters and state).
func (u *UniExp) MarshalBinary() ([]byte, error) {
	v, s := u.w.state()
	return encodeState(uniExpState{u.p, u.t, u.nPos, v, s, u.bias})
}

// UnmarshalBinary restores a checkpoint made by MarshalBinary into a learner made by
// NewUniExp with the same dimension (its backend is kept; the parameters come from the
// checkpoint). The restored learner continues bit-identically.
func (u *UniExp) UnmarshalBinary(data []byte) error {
	var st uniExpState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: UniExp checkpoint: %w", err)
	}
	if err := u.w.restore(st.V, st.S); err != nil {
		return fmt.Errorf("solver: UniExp checkpoint: %w", err)
	}
	u.p, u.t, u.nPos, u.bias = st.Params, st.T, st.NPos, st.B
	return nil
}

// The data-scaled defaults of OLR, FTRL and Uni-Exp. They make ⌈20,000/n⌉ passes (at
// most 100) on a set of fewer than 20,000 rows (defaultMinSteps). The rules below
// hold whenever they make more than one pass (DataFacts.Passes; one pass keeps the
// static defaults, as --algo auto and the large sets run). At their static steps and
// ℓ2 weights the passes do not help (the steps shrink as η/√t while the iterate
// crawls along the ill-conditioned directions: svmguide3's min-maxed covariance has a
// condition number of 1.6·10⁴, engine/defaults_test.go), so on such a set each takes a
// step scaled to the row norms, c/R² (a logistic or exponential loss's curvature is at
// most of order R²), and an ℓ2 weight of order 1/n, the multi-pass iterate then
// approaching the regularised fit, as unilog's λ = 2/n does (for two class means; one
// mean over the rows is λ = 1/n). Each c was swept on the eleven small sets
// (stratified 70/30, seed 1) for the worst test AUC minus unilog's, the rules below
// against those around: OLR λ = 0.5/n: η = 24/R² −.021, 32/R² −.018, 48/R² −.021 (λ =
// 1/n, 32/R²: −.021; without the bias, η = 1, λ = 0.5·max(2/n, 3·10⁻³): sonar .80,
// svmguide3 .78); Uni-Exp λ = 2/n: η = 12/R² −.020, 16/R² −.018, 32/R² −.020 (λ =
// 4/n: −.018 to −.027); FTRL sums its losses over the passes instead of averaging
// them, so its λ₂ is the per-row weight max(1/n, 1.5·10⁻³) (unilog's, halved) times
// the P·n rows seen, and its per-coordinate rate takes α = 8: α = 4, 8, 16 give
// −.018, −.016, −.015 (the static α = 1/8: −.042). The bias that OLR and FTRL fit is
// the other half of it (sonar, 100 passes at η = 1: OLR .78 without, .87 with). η·λ
// stays below 1/2 (the solvers need < 1); on the small sets it is at most 0.09.

// olrSpec is OLR's Spec: two vectors of state.
func olrSpec() Spec {
	s := online("olr", "online logistic regression (baseline)", "MBA paper's baseline",
		DefaultOLRParams, OLRGrid, NewOLR)
	s.MinSteps = defaultMinSteps
	withState(&s, vectors[OLRParams](2))
	withDefaults(&s, func(f DataFacts, p *OLRParams) {
		if f.Passes > 1 {
			p.Lambda = 0.5 / float64(f.Rows)
			p.Eta = math.Min(32/f.MeanSqNorm, 0.5/p.Lambda)
		}
	})
	return s
}

// ftrlSpec is FTRL-Proximal's Spec: three vectors of state.
func ftrlSpec() Spec {
	s := online("ftrl", "FTRL-Proximal logistic regression (baseline)", "McMahan et al. 2013, Alg. 1",
		DefaultFTRLParams, FTRLGrid, NewFTRL)
	s.MinSteps = defaultMinSteps
	withState(&s, vectors[FTRLParams](3))
	withDefaults(&s, func(f DataFacts, p *FTRLParams) {
		if f.Passes > 1 {
			p.L2 = float64(f.Passes) * math.Max(1, 1.5e-3*float64(f.Rows))
			p.Alpha = 8
		}
	})
	return s
}

// uniexpSpec is Uni-Exp's Spec: two vectors of state.
func uniexpSpec() Spec {
	s := online("uniexp", "online class-weighted exponential loss (baseline)", "OPAUC paper's Uni-Exp",
		DefaultUniExpParams, UniExpGrid, NewUniExp)
	s.MinSteps = defaultMinSteps
	withState(&s, vectors[UniExpParams](2))
	withDefaults(&s, func(f DataFacts, p *UniExpParams) {
		if f.Passes > 1 {
			p.Lambda = 2 / float64(f.Rows)
			p.Eta = math.Min(16/f.MeanSqNorm, 0.5/p.Lambda)
		}
	})
	return s
}
