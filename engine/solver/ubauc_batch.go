package solver

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
	"gonum.org/v1/gonum/mat"
)

// UBAUCBatchParams are the hyper-parameters of ba-UBAUC (Lyu & Ying, "a univariate
// bound of area under ROC", Sec. 5.2.1), the batch minimiser of objective (8):
//
//	min_{w,λ} (γ/2)‖w‖² + Σ_i { [y_i(λ − x_i·w)]₊ + (β/2)(1 − y_i x_i·w)² }
//
// The paper tunes (β, γ) by grid search on a validation split without listing the
// values; UBAUCBatchGrid is ours. Start from DefaultUBAUCBatchParams.
type UBAUCBatchParams struct {
	// Beta is β ≥ 0, the weight of the least-squares term that keeps w from collapsing
	// to 0. Default 1: on a9a scaled to [−1, 1] (γ = 1) the exact minimiser of (8) has
	// test AUC .8992 at β = 1, .8960 at β = 10 but .8204 at β = 0.1 and .6717 at
	// β = 0.01, where most examples end on the hinge's kink.
	Beta float64 `param:"beta"`
	// Gamma is γ > 0, the ℓ2 weight; it makes the w-step strongly convex. Default 1
	// (the sums in (8) are not averaged, so γ competes with n·β·Cov(x)); scaled to the
	// data, 2β·R² (defaults.go).
	Gamma float64 `param:"gamma"`
	// Center fits (8) to the rows x − x̄, x̄ the training mean. The least-squares term
	// (1 − y x·w)² has no intercept, so on uncentred features (min-max scaling to
	// [−1, 1] leaves the means far from 0) it spends w on fitting the mean; λ absorbs
	// any shift in the hinge, so centring changes only that term. A shift changes no
	// ranking: Weights and Threshold are those of the original coordinates. Default
	// false ((8) as printed); the data-scaled default sets it (defaults.go). On sonar
	// (70/30 split, γ = 1) the test AUC goes from .7952 to .8245, at γ = 30 from .8036 to
	// .8662, where no (β, γ) of 10^[-2..0.5] × 10^[0..4] without it passes .8307.
	Center bool `param:"center"`
	// Iters caps the block-coordinate-descent iterations (λ-step plus w-step), ≥ 1.
	// Default 100.
	Iters int `param:"iters"`
	// Tol, > 0, stops the descent when an iteration whose w-step was solved to a
	// relative duality gap of Tol/100 lowers (8) by at most Tol·|F| (earlier w-steps
	// are solved less tightly, see UBAUCBatch). Default 10⁻⁹.
	Tol float64 `param:"tol"`
}

// DefaultUBAUCBatchParams returns β = 1, γ = 1, at most 100 iterations, tol = 10⁻⁹.
func DefaultUBAUCBatchParams() UBAUCBatchParams {
	return UBAUCBatchParams{Beta: 1, Gamma: 1, Iters: 100, Tol: 1e-9}
}

// UBAUCBatchGrid is a grid for ba-UBAUC (the paper's grid is not given): β ∈ 10^[-3..1],
// γ ∈ 10^[-2..3].
var UBAUCBatchGrid = Grid{
	Keys:   []string{"beta", "gamma"},
	Values: [][]float64{Pow10(-3, 1), Pow10(-2, 3)},
}

func (p UBAUCBatchParams) check() error {
	for _, err := range []error{
		Check(p.Beta >= 0 && !math.IsInf(p.Beta, 0), "beta", p.Beta, "a finite number ≥ 0"),
		Check(p.Gamma > 0 && !math.IsInf(p.Gamma, 0), "gamma", p.Gamma, "a finite number > 0"),
		Check(p.Iters >= 1, "iters", p.Iters, "≥ 1"),
		Check(p.Tol > 0 && !math.IsInf(p.Tol, 0), "tol", p.Tol, "a finite number > 0"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// UBAUCBatchMaxElements is the largest n·d for which ba-UBAUC builds the transformed
// data Z̃ (n×d float64 on the host, 8·n·d bytes); d² is limited likewise for Q.
const UBAUCBatchMaxElements = 1 << 31

// UBAUCBatchStats describes the last Fit of ba-UBAUC.
type UBAUCBatchStats struct {
	Iters     int       // block-coordinate-descent iterations
	Epochs    int       // dual coordinate descent sweeps over the data, all w-steps together
	Objective []float64 // (8) after each iteration's w-step (Objective[0]: the start), of the centred rows with Center
	Lambda    float64   // the final threshold λ (of the centred rows with Center; Threshold gives the original's)
	Reason    string    // why it stopped: "tolerance" or "iteration cap"
}

// UBAUCBatch is ba-UBAUC: block coordinate descent on objective (8), alternating
//
//   - the λ-step: with the scores c = Xw sorted ascending, λ = ½(c↑_{N₋} + c↑_{N₋+1}).
//     The λ-part Σ_i [y_i(λ − c_i)]₊ is piecewise linear with slope k − N₋ between the
//     k-th and (k+1)-th smallest score, whatever the labels, so every λ in
//     [c↑_{N₋}, c↑_{N₋+1}] minimises it (the paper prints N₊: a typo, see docs/ALGORITHMS.md, "ba-UBAUC");
//
//   - the w-step: with z_i = y_i x_i, Q = γI + βΣ_i x_i x_iᵀ and q = βΣ_i z_i, the
//     strongly convex QP (objective (8) less the constant βn/2)
//
//     min_w ½wᵀQw − q·w + Σ_i [y_iλ − z_i·w]₊,
//
//     here taken with a proximal term on λ: min_{w,λ'} of that at λ' plus
//     (λ' − λ)²/(2ρ), ρ = the mean of z_iᵀQ⁻¹z_i.
//
// Why the proximal term: (8) is jointly convex but not smooth, and the plain
// alternation stalls. At the w-step's solution many examples sit exactly on the kink
// y_i(λ − x_i·w) = 0 (a9a, β = 0.1, γ = 1: 9,117 of 32,561, many of them duplicate
// rows), the λ-step's interval then shrinks to the current λ, and neither block moves
// although the joint optimality condition Σ_i y_i α_i = 0 fails (640 there); the plain
// alternation stopped at (8) = 1237.35 where ol-UBAUC's weights give 1222.43 and the
// joint minimum is 1145.34. The proximal w-step is an exact, strongly convex joint step
// whose fixed points are exactly the minimisers of (8) (the proximal-point method in λ,
// i.e. the method of multipliers on the dual's constraint Σ y_i α_i = 0); it does not
// increase (8) by more than its certified suboptimality, and the λ-step does not
// increase it at all. On a9a the descent converges in 3–4 iterations.
//
// The w-step solver is dual coordinate descent with shrinking (Hsieh et al., ICML
// 2008), chosen over the paper's interior point because it is exact up to a certified
// duality gap, needs O(nd) memory instead of an n×n or (n+d)² Newton system,
// warm-starts from the previous dual, and converges linearly (Luo & Tseng). Q is
// factored once per Fit: the backend accumulates Σ x xᵀ by Syrk over blocks of rows,
// the host takes the eigendecomposition of the d×d Q (gonum) and forms the symmetric
// Q^(−1/2), and the backend maps the rows z̃_i = Q^(−1/2) z_i by Symm. With v = Q^(1/2) w
// the step is
//
//	min_{v,λ'} ½‖v‖² − q̃·v + Σ_i [y_iλ' − z̃_i·v]₊ + (λ' − λ)²/(2ρ),   q̃ = βΣ_i z̃_i,
//
// with dual max_{α∈[0,1]ⁿ} −½‖v(α)‖² + λs − (ρ/2)s², v(α) = q̃ + Σ_i α_i z̃_i,
// s = Σ_i y_i α_i, and λ' = λ − ρs. A coordinate step is
// α_i ← clip(α_i − (z̃_i·v − y_iλ + ρy_is)/(‖z̃_i‖² + ρ), 0, 1), then v += Δα_i z̃_i and
// s += y_iΔα_i: O(d) on the host (inherently sequential, so a backend call per
// coordinate would cost more than its arithmetic). Sweeps go in a seeded random order;
// the step ends when the duality gap is at most tol_k of the primal. Finally
// w = Q^(−1/2) v by the backend's Symv.
//
// Inexact steps. tol_k starts at 10⁻⁶ and follows the descent: a hundredth of the
// relative decrease of (8) that the previous iteration made, never looser than before
// and never below Tol/100, the final steps' tolerance (an inexact proximal-point
// method; the descent stops only after a step solved to Tol/100). Solving every step
// to Tol/100 spent most sweeps on steps centred far from the final λ: on 24,875 rows of
// w8a (β = 10⁻³, γ = 10³) 1,171,000 sweeps and 301 s became 326,000 and 97 s, at
// γ = 10⁻² 45 → 23 s, on a9a (β = γ = 1) 311 → 58 sweeps, to the same (8) within Tol.
//
// The descent starts from α = 0, the least-squares w = Q⁻¹q, and its λ-step; it stops
// when an iteration lowers (8) by at most Tol relative, or after Iters iterations. A fit
// that does not beat w = 0 by more than Tol returns w = 0 (small β, where the minimiser
// is w = 0 and what the solver leaves is rounding residue with a random direction).
type UBAUCBatch struct {
	b    kernels.Backend
	dim  int
	p    UBAUCBatchParams
	seed uint64
	w    []float64
	st   UBAUCBatchStats

	mu      []float64 // the training mean (Center), else nil
	alpha   []float64 // the last w-step's dual, for tests
	wLambda float64   // the λ of the last w-step, for tests
}

// NewUBAUCBatch returns ba-UBAUC for dim features on backend b; the seed orders the
// coordinate sweeps.
func NewUBAUCBatch(b kernels.Backend, dim int, p UBAUCBatchParams, seed uint64) (*UBAUCBatch, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &UBAUCBatch{b: b, dim: dim, p: p, seed: seed}, nil
}

// Params returns the parameters the solver was made with.
func (u *UBAUCBatch) Params() UBAUCBatchParams { return u.p }

// Stats returns the statistics of the last Fit.
func (u *UBAUCBatch) Stats() UBAUCBatchStats { return u.st }

// Threshold returns the fitted λ (with Center, in the original coordinates: λ + w·x̄).
func (u *UBAUCBatch) Threshold() float64 {
	if u.mu == nil || u.w == nil {
		return u.st.Lambda
	}
	return u.st.Lambda + hostDot(u.w, u.mu)
}

// Weights returns a copy of the fitted w (zeros before Fit).
func (u *UBAUCBatch) Weights() []float64 {
	if u.w == nil {
		return make([]float64, u.dim)
	}
	return append([]float64(nil), u.w...)
}

// ubaucLambda is the λ-step: the minimiser ½(c↑_{N₋} + c↑_{N₋+1}) of Σ_i [y_i(λ − c_i)]₊
// for scores c and nNeg negatives (0 < nNeg < len(c)). It sorts a copy of c.
func ubaucLambda(c []float64, nNeg int) float64 {
	s := slices.Clone(c)
	slices.Sort(s)
	return 0.5 * (s[nNeg-1] + s[nNeg])
}

// ubaucTransform returns Z̃ (rows z̃_i = Q^(−1/2) y_i x_i, n×d row-major on the host)
// and Q^(−1/2) on the backend.
func (u *UBAUCBatch) ubaucTransform(ds *data.Dataset) ([]float64, kernels.Mat, error) {
	be, n, d := u.b, ds.Rows(), u.dim
	const block = 256
	host := make([]float64, block*d)
	xb := be.NewMat(block, d)
	// fill puts rows [i0, i1) of ds (less the mean u.mu, if any), times y_i when
	// signed, in host.
	fill := func(i0, i1 int, signed bool) {
		clear(host[:(i1-i0)*d])
		for i := i0; i < i1; i++ {
			row := host[(i-i0)*d : (i-i0+1)*d]
			sgn := 1.0
			if signed {
				sgn = float64(ds.Y[i])
			}
			for j, m := range u.mu {
				row[j] = -sgn * m
			}
			r := ds.Row(i)
			for k, j := range r.Idx {
				row[j] += sgn * r.Val[k]
			}
		}
	}
	// Q = γI + βΣ x xᵀ: Syrk over blocks on the backend.
	qm := be.NewMat(d, d)
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		fill(i0, i1, false)
		blk := xb.Slice(0, i1-i0, 0, d)
		be.Upload(blk, host[:(i1-i0)*d])
		be.Syrk(u.p.Beta, blk, 1, qm)
	}
	qh := make([]float64, d*d)
	be.Download(qh, qm)
	q := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			v := qh[i*d+j]
			if i == j {
				v += u.p.Gamma
			}
			q.SetSym(i, j, v)
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(q, true) {
		return nil, nil, fmt.Errorf("ubauc-batch: eigendecomposition of the %d×%d Hessian did not converge", d, d)
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	// Q^(−1/2) = V diag(1/√max(μ_k, γ)) Vᵀ (Q ⪰ γI exactly; the max undoes rounding).
	scaled := mat.DenseCopyOf(&vecs)
	for k, mu := range vals {
		col := 1 / math.Sqrt(max(mu, u.p.Gamma))
		for i := range d {
			scaled.Set(i, k, scaled.At(i, k)*col)
		}
	}
	invSqrt := mat.NewDense(d, d, qh)
	invSqrt.Mul(scaled, vecs.T())
	be.Upload(qm, qh)
	// Z̃ = Z Q^(−1/2) by Symm over blocks.
	zt := make([]float64, n*d)
	out := be.NewMat(block, d)
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		fill(i0, i1, true)
		blk, ob := xb.Slice(0, i1-i0, 0, d), out.Slice(0, i1-i0, 0, d)
		be.Upload(blk, host[:(i1-i0)*d])
		be.Symm(1, qm, blk, 0, ob)
		be.Download(zt[i0*d:i1*d], ob)
	}
	return zt, qm, nil
}

// ubaucDCD is the w-step's state on the host.
type ubaucDCD struct {
	n, d  int
	zt    []float64 // Z̃, n×d
	qt    []float64 // q̃
	diag  []float64 // ‖z̃_i‖²
	y     []int8
	alpha []float64
	v     []float64 // v = q̃ + Σ α_i z̃_i
	marg  []float64 // z̃_i·v (valid after primal)
	rho   float64   // the proximal weight ρ on λ (0: plain w-step at fixed λ)
	s     float64   // Σ y_i α_i
	order []int
	rng   *rand.Rand
}

// primal returns the w-step's primal at v and the λ = λ_k − ρ·s its dual implies,
//
//	P(v, λ) = ½‖v‖² − q̃·v + Σ_i [y_iλ − z̃_i·v]₊ + (λ − λ_k)²/(2ρ),
//
// filling marg (the last term is absent for ρ = 0, where λ = λ_k), and mag, the sum of
// the terms' magnitudes (the scale of P's rounding error).
func (s *ubaucDCD) primal(lamK, rho float64) (p, lambda, mag float64) {
	lambda = lamK - rho*s.s
	vv, qv := hostDot(s.v, s.v), hostDot(s.qt, s.v)
	p, mag = 0.5*vv-qv, 0.5*vv+math.Abs(qv)
	for i := range s.n {
		s.marg[i] = hostDot(s.zt[i*s.d:(i+1)*s.d], s.v)
		h := max(float64(s.y[i])*lambda-s.marg[i], 0)
		p += h
		mag += h
	}
	if rho > 0 {
		prox := (lambda - lamK) * (lambda - lamK) / (2 * rho)
		p += prox
		mag += prox
	}
	return p, lambda, mag
}

// roundingFloors returns the smallest duality gap and projected-gradient spread that
// the arithmetic can resolve at the current v: the computed gap P − D sums n hinge
// terms and the norms (error up to about n·ε·mag), and each gradient z̃_i·v − y_iλ_k +
// ρy_is carries up to about d·ε·(‖z̃_i‖‖v‖ + |λ_k| + ρ|s|).
func (s *ubaucDCD) roundingFloors(lamK, mag float64) (gap, pg float64) {
	const eps = 0x1p-52
	var maxDiag float64
	for _, h := range s.diag {
		maxDiag = max(maxDiag, h)
	}
	vn := math.Sqrt(hostDot(s.v, s.v))
	return float64(s.n) * eps * mag, float64(s.d) * eps * (math.Sqrt(maxDiag)*vn + math.Abs(lamK) + s.rho*math.Abs(s.s))
}

// dual returns D(α) = −½‖v‖² + λ_k·s − (ρ/2)s², s = Σ_i y_i α_i.
func (s *ubaucDCD) dual(lamK float64) float64 {
	return -0.5*hostDot(s.v, s.v) + lamK*s.s - 0.5*s.rho*s.s*s.s
}

// resetV recomputes v = q̃ + Σ α_i z̃_i and s = Σ y_i α_i exactly (no drift from the
// incremental updates).
func (s *ubaucDCD) resetV() {
	copy(s.v, s.qt)
	s.s = 0
	for i, a := range s.alpha {
		if a != 0 {
			s.s += float64(s.y[i]) * a
			row := s.zt[i*s.d : (i+1)*s.d]
			for k := range s.v {
				s.v[k] += a * row[k]
			}
		}
	}
}

// solve runs coordinate sweeps on the w-step centred at λ_k until its relative duality
// gap is at most tol (or ctx ends), returning the step's λ and the sweeps done (each
// over the coordinates not shrunk).
//
// Shrinking as in Hsieh et al. (Alg. 3): a coordinate at a bound whose gradient points
// out of the box by more than the last sweep's largest projected-gradient violation is
// left out until the active coordinates meet the projected-gradient criterion; then all
// come back, and the duality gap over all of them decides.
func (s *ubaucDCD) solve(ctx context.Context, lamK, tol float64) (float64, int, error) {
	s.resetV()
	active := s.order[:0]
	for i := range s.n {
		active = append(active, i)
	}
	eps := 1e-3
	hiPrev, loPrev := math.Inf(1), math.Inf(-1)
	for sweeps := 0; ; sweeps++ {
		if err := ctx.Err(); err != nil {
			return lamK, sweeps, err
		}
		for k := len(active) - 1; k > 0; k-- {
			j := s.rng.IntN(k + 1)
			active[k], active[j] = active[j], active[k]
		}
		hi, lo := math.Inf(-1), math.Inf(1)
		kept := active[:0]
		for _, i := range active {
			row := s.zt[i*s.d : (i+1)*s.d]
			y := float64(s.y[i])
			a := s.alpha[i]
			h := s.diag[i] + s.rho
			if h == 0 { // x_i = 0 and ρ = 0: the term is the constant [y_iλ_k]₊
				na := 0.0
				if y*lamK > 0 {
					na = 1
				}
				s.alpha[i] = na
				s.s += y * (na - a)
				continue
			}
			g := hostDot(row, s.v) - y*lamK + s.rho*y*s.s // −∂D/∂α_i
			var pg float64
			switch {
			case a == 0:
				if g > hiPrev {
					continue // shrunk
				}
				pg = min(g, 0)
			case a == 1:
				if g < loPrev {
					continue // shrunk
				}
				pg = max(g, 0)
			default:
				pg = g
			}
			kept = append(kept, i)
			hi, lo = max(hi, pg), min(lo, pg)
			if pg == 0 {
				continue
			}
			na := min(max(a-g/h, 0), 1)
			if da := na - a; da != 0 {
				for k := range s.v {
					s.v[k] += da * row[k]
				}
				s.alpha[i] = na
				s.s += y * da
			}
		}
		active = kept
		if sweeps%16 == 15 {
			s.resetV()
		}
		if hi-lo > eps {
			hiPrev, loPrev = hi, lo
			if hiPrev <= 0 {
				hiPrev = math.Inf(1)
			}
			if loPrev >= 0 {
				loPrev = math.Inf(-1)
			}
			continue
		}
		// The active coordinates are (nearly) optimal: check all of them by the gap.
		// A gap below what the arithmetic resolves counts as met, and the
		// projected-gradient criterion never asks for less than rounding: without
		// these floors an ill-conditioned step (a9a, β = 10⁻³, γ = 10⁻²: P ≈ −4.4, so
		// tol·|P| = 4.4·10⁻¹¹ against a gap that rounding leaves at 0.8–4·10⁻¹⁰) swept
		// until cancelled.
		s.resetV()
		p, lambda, mag := s.primal(lamK, s.rho)
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return lambda, sweeps, fmt.Errorf("%w: w-step objective %v", ErrDiverged, p)
		}
		gapFloor, pgFloor := s.roundingFloors(lamK, mag)
		if p-s.dual(lamK) <= max(tol*max(math.Abs(p), 1), gapFloor) {
			return lambda, sweeps + 1, nil
		}
		if len(active) == s.n {
			eps = max(eps/10, pgFloor)
		}
		active = s.order[:0]
		for i := range s.n {
			active = append(active, i)
		}
		hiPrev, loPrev = math.Inf(1), math.Inf(-1)
	}
}

// ubaucFirstTol is the relative duality gap the descent's first w-step is solved to.
const ubaucFirstTol = 1e-6

// Fit runs ba-UBAUC on ds from the least-squares w (α = 0). It returns an error
// wrapping ErrOneClass for a single class and ErrDiverged on non-finite weights.
func (u *UBAUCBatch) Fit(ctx context.Context, ds *data.Dataset) error {
	if err := checkSampleWeights("ubauc-batch", Params{}, ds); err != nil {
		return err
	}
	if ds.Dim != u.dim {
		return fmt.Errorf("ubauc-batch: data has %d features, the solver was made for %d", ds.Dim, u.dim)
	}
	n, d := ds.Rows(), u.dim
	nPos, nNeg := ds.Counts()
	if nPos == 0 || nNeg == 0 {
		return fmt.Errorf("ubauc-batch: %w (%d positives, %d negatives)", ErrOneClass, nPos, nNeg)
	}
	if nPos+nNeg != n {
		return fmt.Errorf("ubauc-batch: %d labels are neither +1 nor −1", n-nPos-nNeg)
	}
	if int64(n)*int64(d) > UBAUCBatchMaxElements || int64(d)*int64(d) > UBAUCBatchMaxElements {
		return fmt.Errorf("ubauc-batch: %d×%d data (and a %d×%d Hessian) above the limit of %d elements: use ubauc-online",
			n, d, d, d, int64(UBAUCBatchMaxElements))
	}
	u.w, u.alpha, u.mu = nil, nil, nil
	u.st = UBAUCBatchStats{}
	if u.p.Center {
		u.mu = ds.Mean()
	}
	zt, qmh, err := u.ubaucTransform(ds)
	if err != nil {
		return err
	}
	s := &ubaucDCD{n: n, d: d, zt: zt, qt: make([]float64, d), diag: make([]float64, n), y: ds.Y,
		alpha: make([]float64, n), v: make([]float64, d), marg: make([]float64, n),
		order: make([]int, n), rng: rand.New(rand.NewPCG(u.seed, 0x0bac))}
	for i := range n {
		row := zt[i*d : (i+1)*d]
		s.diag[i] = hostDot(row, row)
		for k := range s.qt {
			s.qt[k] += u.p.Beta * row[k]
		}
		s.order[i] = i
		s.rho += s.diag[i] / float64(n)
	}
	s.resetV()
	scores := make([]float64, n)
	// objective returns (8) at (Q^(−1/2)v, λ), filling the scores y_i·(z̃_i·v).
	constant := 0.5 * u.p.Beta * float64(n)
	objective := func(lambda float64) float64 {
		f, _, _ := s.primal(lambda, 0)
		f += constant
		for i := range n {
			scores[i] = float64(ds.Y[i]) * s.marg[i]
		}
		return f
	}
	lambda := 0.0
	objective(lambda)
	lambda = ubaucLambda(scores, nNeg)
	prev := objective(lambda)
	u.st.Objective = append(u.st.Objective, prev)
	// The w-steps start inexact and tighten with the descent (an inexact proximal-point
	// method): the first is solved to a relative gap of ubaucFirstTol, each later one to
	// a hundredth of the relative decrease of (8) the previous iteration made (never
	// looser than before, never tighter than Tol/100), and the descent stops only after
	// a step solved to Tol/100 changed (8) by at most Tol.
	exact := u.p.Tol / 100
	tol := max(exact, ubaucFirstTol)
	for u.st.Reason == "" {
		lam, sweeps, err := s.solve(ctx, lambda, tol)
		u.st.Epochs += sweeps
		if err != nil {
			return fmt.Errorf("ubauc-batch: iteration %d: %w", u.st.Iters+1, err)
		}
		u.st.Iters++
		lambda, u.wLambda = lam, lam
		objective(lambda) // the scores of the new w
		lambda = ubaucLambda(scores, nNeg)
		f := objective(lambda)
		u.st.Objective = append(u.st.Objective, f)
		small := prev-f <= u.p.Tol*math.Abs(f)
		switch {
		case small && tol <= exact:
			u.st.Reason = "tolerance"
		case u.st.Iters >= u.p.Iters:
			u.st.Reason = "iteration cap"
		case small:
			tol = exact
		default: // prev − f > Tol·|f| ≥ 0: the ratio is positive (+Inf for f = 0)
			tol = max(exact, min(tol, (prev-f)/math.Abs(f)/100))
		}
		prev = f
	}
	// w = 0 where the fit does not beat it by more than Tol: (8) at w = 0 is βn/2 (at
	// λ = 0). For small β that can be the minimiser itself, the hinges' kinks at w = 0,
	// λ = 0 absorbing the least-squares pull (fourclass at β ≤ 0.1, γ ≤ 1: ‖v‖ ≈ 10⁻¹⁶,
	// (8) = βn/2 to 13 digits), and the rounding residue left in v would rank at random
	// (test AUCs from .17 to .83 as the tolerance changed). The zero model ranks nothing
	// (AUC ½), so a grid does not select the point.
	if prev >= constant-u.p.Tol*constant {
		clear(s.v)
		lambda = 0
	}
	u.st.Lambda = lambda
	u.alpha = s.alpha
	// w = Q^(−1/2) v on the backend.
	vb, wb := u.b.NewVec(d), u.b.NewVec(d)
	u.b.Upload(vb, s.v)
	u.b.Symv(1, qmh, vb, 0, wb)
	u.w = make([]float64, d)
	u.b.Download(u.w, wb)
	for _, wj := range u.w {
		if math.IsNaN(wj) || math.IsInf(wj, 0) {
			return fmt.Errorf("ubauc-batch: %w after %d iterations", ErrDiverged, u.st.Iters)
		}
	}
	return nil
}

// ubaucBatchSpec is ba-UBAUC's Spec. Its state: Q on the backend and on the host,
// gonum's symmetric copy, its eigenvectors and their scaled copy (at most six d×d at
// once: 5.8 d² measured at d = 768 by solvertest), three 256-row blocks, the
// transformed data Z̃ and its product (n×d).
//
// Its data-scaled defaults: UBAUC's least-squares term (β/2)(1 − y x·w)² has no
// intercept: on min-max scaled rows (means far from 0) it spends w on the mean, and no
// (β, γ) reaches unilog on sonar (at best .8307 over β ∈ 10^[-2..0.5], γ ∈ 10^[0..4],
// unilog .8610). So it centres the rows (center=true). ubauc-batch sums its n losses,
// so its γ is n times an averaged ridge: γ = n·2βρ = 2βR² (ridgeSquare); sonar .7952 →
// .8704, ionosphere .8704 → .9631, the other sets within .012 of unilog; a9a .8992 →
// .8997 (γ = 246), w8a (70/30 split) .9270 → .9604 (γ = 600). Centred with a constant γ
// the AUC-best γ is 30–50 on sonar and ionosphere, ≤ 10 on svmguide3 (γ = 100: .7846
// against unilog's .8076); 2R² gives 43, 27 and 27.
func ubaucBatchSpec() Spec {
	s := batch("ubauc-batch", "univariate bound of AUC, batch: block coordinate descent, exact w-steps", "Lyu and Ying, eq. 8, Sec. 5.2.1",
		DefaultUBAUCBatchParams, UBAUCBatchGrid, NewUBAUCBatch)
	withState(&s, func(d, n float64, _ *UBAUCBatchParams) float64 { return 6*d*d + 2*n*d + 768*d + 4*n })
	withDefaults(&s, func(f DataFacts, p *UBAUCBatchParams) {
		p.Center, p.Gamma = true, ridgeSquare*p.Beta*f.MeanSqNorm
	})
	return s
}
