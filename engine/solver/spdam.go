package solver

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// SPDAMParams are the hyper-parameters of SPDAM, the stochastic primal-dual AUC
// maximisation of the thesis (ch. 5, Alg. 21). Sigma, Tau and Theta at 0 take the values
// of Theorem 5.1 (σ corrected); start from DefaultSPDAMParams.
type SPDAMParams struct {
	// M is the mini-batch size m: a count (an integer ≥ 1, at most the number of
	// training examples) or, when in (0, 1), that fraction of them (rounded, at least 1).
	// Default 0.1: the thesis's 10% of n, needed for the linear rate (m = 1 is useless).
	M float64 `param:"m"`
	// Lambda is the ℓ2 weight λ > 0 (Theorem 5.1 needs g λ-strongly convex; at λ = 0,
	// g = ½(b·w)² + b·w is not, and σ, τ, θ degenerate). Default 0.1, for data scaled
	// to [−1, 1] like a9a (test AUC .9000 there, reached in about 230 epochs; the rate
	// slows as λ shrinks). Thesis grid 10^[-5..1].
	Lambda float64 `param:"lambda"`
	// Sigma is the dual step σ ≥ 0; 0 means Theorem 5.1's σ, corrected (κ = max‖x̄_i‖):
	//	σ = [(n−m)λ + √((n−m)²λ² + 4nmκ²λ)] / (4mκ²),
	// the root of 4mκ²σ² − 2(n−m)λσ − nλ = 0, which makes the primal contraction
	// 1/(1 + 2τλ) equal to the dual one 1 − (m/n)·2σ/(1 + 2σ) under τσ = 1/(4κ²); for
	// n ≫ m it is Zhang & Xiao's SPDC step √(nλ/m)/(2κ). The thesis prints
	// [(n−m) + √((n−m)² + 4nκ²m/λ)]/(8mκ²), which is exactly this σ/(2λ): with it
	// 1 − θ shrinks like λ^(3/2) instead of √λ (θ = 1 − 4·10⁻⁸ on a9a at λ = 10⁻⁴) and
	// the iteration stalls. Measured on a9a ([−1, 1], λ = 0.1, m = 10%): relative
	// duality gap after 273 epochs 4.5·10⁻¹⁰ with this σ, 1.2·10⁻⁶ with σ/2, 8·10⁻⁹
	// with 2σ.
	Sigma float64 `param:"sigma"`
	// Tau is the primal step τ ≥ 0; 0 means Theorem 5.1's τ = 1/(4σκ²).
	Tau float64 `param:"tau"`
	// Theta is the extrapolation θ in [0, 1]; 0 means Theorem 5.1's
	// θ = 1 − λ/(λ + 2σκ²). (θ = 0 itself, no extrapolation, cannot be asked for.)
	Theta float64 `param:"theta"`
	// Tol is the stopping tolerance > 0 on the relative duality gap (P(w) − D(β))/|P(w)|,
	// which bounds the relative objective gap (J(w) − J*)/|J(w)|. Default 10⁻⁸.
	Tol float64 `param:"tol"`
	// Iters caps the number of iterations (mini-batches), ≥ 1. Default 100,000.
	Iters int `param:"iters"`
}

// DefaultSPDAMParams returns m = 10% of n, λ = 0.1, Theorem 5.1's σ, τ, θ, tol = 10⁻⁸
// and a cap of 100,000 iterations.
func DefaultSPDAMParams() SPDAMParams {
	return SPDAMParams{M: 0.1, Lambda: 0.1, Tol: 1e-8, Iters: 100_000}
}

// SPDAMGrid is the thesis's grid for SPDAM (ch. 6): λ ∈ 10^[-5..1].
var SPDAMGrid = Grid{Keys: []string{"lambda"}, Values: [][]float64{Pow10(-5, 1)}}

func (p SPDAMParams) check() error {
	finite := func(x float64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }
	for _, err := range []error{
		Check(p.M > 0 && finite(p.M) && (p.M < 1 || p.M == math.Trunc(p.M)), "m", p.M, "an integer ≥ 1 or a fraction in (0, 1)"),
		Check(p.Lambda > 0 && finite(p.Lambda), "lambda", p.Lambda, "a finite number > 0 (SPDAM needs strong convexity)"),
		Check(p.Sigma >= 0 && finite(p.Sigma), "sigma", p.Sigma, "a finite number ≥ 0 (0: Theorem 5.1)"),
		Check(p.Tau >= 0 && finite(p.Tau), "tau", p.Tau, "a finite number ≥ 0 (0: Theorem 5.1)"),
		Check(p.Theta >= 0 && p.Theta <= 1, "theta", p.Theta, "in [0, 1] (0: Theorem 5.1)"),
		Check(p.Tol > 0 && finite(p.Tol), "tol", p.Tol, "a finite number > 0"),
		Check(p.Iters >= 1, "iters", p.Iters, "≥ 1"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// SPDAMMaxElements is the largest n·d for which SPDAM builds the centred data matrix X̄
// on a device backend (n×d float64 there: 8·n·d bytes, 16 GiB at this limit). A host
// backend holds X̄ only up to SPDAMResidentElements (spdamRows beyond), so the limit
// does not apply there.
const SPDAMMaxElements = 1 << 31

// SPDAMResidentElements is the largest n·d for which SPDAM holds X̄ whole on a host
// backend when its rows are full (dense data, or sparse data at least data.DenseAuto
// full): 128 MiB of float64. Below it the copy is cheap and its products are those of
// the device backends bit for bit; above it the memory of a copy weighs more (a
// 50,000 × 2,000 dense set: 800 MB), and the rows stay implicit (spdamRows): the same
// products over the dataset's own rows, with the class means subtracted after. Sparser
// data keep the implicit rows at any size.
const SPDAMResidentElements = 1 << 24

// SPDAMStats describes the last Fit of SPDAM.
type SPDAMStats struct {
	M      int     // mini-batch size used
	Iters  int     // iterations (mini-batches) run
	Epochs int     // duality-gap checks, one per ⌈n/m⌉ iterations (and one at the cap)
	Gap    float64 // the last relative duality gap (P(w) − D(β))/|P(w)|
	Reason string  // why it stopped: "tolerance" or "iteration cap"
	// Sigma, Tau and Theta are the steps used; Kappa is κ = max‖x̄_i‖.
	Sigma, Tau, Theta, Kappa float64
}

// SPDAM is the stochastic primal-dual AUC maximisation of the thesis (ch. 5, Alg. 21),
// in the consistent form of docs/ALGORITHMS.md, "SPDAM". With p = n₊/n, the class means m± and
// b = m₋ − m₊, the rows are centred and scaled, x̄_i = (x_i − m₊)/√p for positives and
// (x_i − m₋)/√(1−p) for negatives, and SPDAM minimises
//
//	J(w) = (1/n) Σ_i ½(w·x̄_i)² + g(w),   g(w) = ½(b·w)² + b·w + (λ/2)‖w‖²,
//
// whose gradient is (S₊ + S₋ + δδᵀ + λI)w − δ (δ = m₊ − m₋, S± the biased class
// covariances): J = L − ½ for the pairwise square loss L, and its minimiser is exactly the
// square-loss oracle (stats.Oracle). It runs SPDC (Zhang & Xiao) on the saddle form
//
//	min_w max_β (1/n) Σ_i (β_i w·x̄_i − β_i²/2) + g(w):
//
// for a mini-batch I of m rows drawn without replacement,
//
//	β_i ← (σ w̄·x̄_i + β_i)/(σ + 1)               (i ∈ I)
//	u⁺ = u + (1/n) Σ_{i∈I} Δβ_i x̄_i,   ū = u + (n/m)(u⁺ − u)
//	(bbᵀ + (λ + 1/τ)I) w⁺ = w/τ − ū − b           (Sherman–Morrison, O(d))
//	w̄ = w⁺ + θ(w⁺ − w)
//
// from w = w̄ = 0, β = 0, u = 0. On a device backend X̄ is built once as a dense n×d
// matrix there (dense even for sparse data, since centring fills it: 8·n·d bytes; Fit
// refuses n·d > SPDAMMaxElements), and β, u and w live there too: an iteration is
//
//	Δβ = c·X̄_I w̄ − c·β_I,  c = σ/(σ+1)    (GemvRows, Gather, Axpy)
//	β_I += Δβ;  Δu = (1/n) X̄_Iᵀ Δβ          (ScatterAdd, GemvRows)
//
// and O(d) vector operations, so only the batch's index list goes to the backend and
// nothing comes back but the scalar b·q of the w-step (no Download until the
// once-per-epoch gap check). On a host backend (kernels.Viewer) X̄ is held the same way
// up to SPDAMResidentElements; beyond, and for sparse data at any size, its rows stay
// implicit: each product is taken over the dataset's own rows, O(nnz) a row, and
// corrected by the class means (spdamRows), so that Fit's memory is the dataset's plus
// O(n + d) (plus X̄, at most 128 MiB, on small dense data).
//
// Stopping. The oracle J* is not available for free, so SPDAM stops on the duality gap
// of the saddle form, checked once per epoch of ⌈n/m⌉ iterations: the primal
// P(w) = J(w) costs one full mat-vec X̄w (as much as one epoch's X̄_I w̄ products), and
// the dual
//
//	D(β) = −‖β‖²/(2n) + min_v {u·v + g(v)} = −‖β‖²/(2n) − ½(u+b)ᵀ(bbᵀ + λI)⁻¹(u+b)
//
// costs O(n + d) since u = (1/n)Σβ_i x̄_i is kept. Weak duality gives
// J(w) − J* ≤ P(w) − D(β), so the criterion (P − D)/|P| ≤ Tol certifies the relative
// objective gap, unlike the relative change of J over an epoch, which is small on a slow
// stretch as well as near the optimum. SPDC drives both the primal and the dual iterate
// to the saddle point linearly, so the gap falls at the same rate.
type SPDAM struct {
	b    kernels.Backend
	dim  int
	p    SPDAMParams
	seed uint64
	w    []float64 // the fitted weights
	st   SPDAMStats
	// resident is the largest n·d whose X̄ a host backend holds whole
	// (SPDAMResidentElements; the tests lower it to reach the implicit rows).
	resident int64

	// Trace, when set, is called after each epoch's gap check with the statistics so
	// far; Weights then returns the current iterate w.
	Trace func(SPDAMStats)
}

// NewSPDAM returns SPDAM for dim features on backend b; the seed draws the mini-batches.
func NewSPDAM(b kernels.Backend, dim int, p SPDAMParams, seed uint64) (*SPDAM, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &SPDAM{b: b, dim: dim, p: p, seed: seed, resident: SPDAMResidentElements}, nil
}

// Params returns the parameters the solver was made with.
func (s *SPDAM) Params() SPDAMParams { return s.p }

// Stats returns the statistics of the last Fit.
func (s *SPDAM) Stats() SPDAMStats { return s.st }

// Weights returns a copy of the fitted w (zeros before Fit).
func (s *SPDAM) Weights() []float64 {
	if s.w == nil {
		return make([]float64, s.dim)
	}
	return append([]float64(nil), s.w...)
}

// batchSize resolves the M parameter for n examples.
func (p SPDAMParams) batchSize(n int) (int, error) {
	if p.M < 1 {
		return max(1, int(math.Round(p.M*float64(n)))), nil
	}
	if p.M > float64(n) {
		return 0, fmt.Errorf("%w: m = %v, want at most the %d training examples", ErrParam, p.M, n)
	}
	return int(p.M), nil
}

// spdamMoments are the class statistics SPDAM centres with.
type spdamMoments struct {
	n, nPos          int
	meanPos, meanNeg []float64
}

// classMeans computes the class counts and means on the host in O(nnz): for a dense
// dataset on all cores, each summing a range of columns over all the rows in order, so
// that every sum is taken in the same order as on one core (the same bits).
func classMeans(ds *data.Dataset) spdamMoments {
	n, d := ds.Rows(), ds.Dim
	mo := spdamMoments{n: n, meanPos: make([]float64, d), meanNeg: make([]float64, d)}
	mo.nPos, _ = ds.Counts()
	const minCols = 256 // at least 2 KiB of a row per core and pass
	if workers := min(runtime.GOMAXPROCS(0), d/minCols); ds.IsDense() && workers > 1 && int64(n)*int64(d) >= 1<<20 {
		var wg sync.WaitGroup
		for w := range workers {
			j0, j1 := w*d/workers, (w+1)*d/workers
			wg.Go(func() {
				pos, neg := mo.meanPos[j0:j1], mo.meanNeg[j0:j1]
				for i := range n {
					m := neg
					if ds.Y[i] == 1 {
						m = pos
					}
					for k, v := range ds.Dense[i*d+j0 : i*d+j1] {
						m[k] += v
					}
				}
			})
		}
		wg.Wait()
	} else {
		for i := range n {
			m := mo.meanNeg
			if ds.Y[i] == 1 {
				m = mo.meanPos
			}
			r := ds.Row(i)
			for k, j := range r.Idx {
				m[j] += r.Val[k]
			}
		}
	}
	for j := range mo.meanPos {
		mo.meanPos[j] /= float64(mo.nPos)
		mo.meanNeg[j] /= float64(mo.n - mo.nPos)
	}
	return mo
}

// centred builds X̄ on the backend and returns it with κ = max‖x̄_i‖: on a host backend
// (kernels.Viewer) centred in place, else centred a block of rows (32 MiB) at a time on
// the host and uploaded.
func (s *SPDAM) centred(ds *data.Dataset, mo spdamMoments) (kernels.Mat, float64) {
	n, d := ds.Rows(), ds.Dim
	if v, ok := s.b.(kernels.Viewer); ok {
		x := make([]float64, n*d)
		return v.ViewMat(n, d, x), math.Sqrt(mo.centreRows(ds, 0, n, x))
	}
	xbar := s.b.NewMat(n, d)
	block := min(n, max(256, (4<<20)/max(d, 1)))
	buf := make([]float64, block*d)
	var kappa2 float64
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		kappa2 = max(kappa2, mo.centreRows(ds, i0, i1, buf))
		s.b.Upload(xbar.Slice(i0, i1, 0, d), buf[:(i1-i0)*d])
	}
	return xbar, math.Sqrt(kappa2)
}

// centreRows writes rows [i0, i1) of X̄ into out (row i at (i−i0)·d), in parallel over
// groups of rows, and returns max ‖x̄_i‖² over them.
func (mo spdamMoments) centreRows(ds *data.Dataset, i0, i1 int, out []float64) float64 {
	d := ds.Dim
	const group = 64
	workers := min(runtime.GOMAXPROCS(0), (i1-i0+group-1)/group)
	kappa2 := make([]float64, max(workers, 1))
	var next atomic.Int64
	next.Store(int64(i0))
	var wg sync.WaitGroup
	for w := range kappa2 {
		wg.Go(func() {
			for {
				a := int(next.Add(group)) - group
				if a >= i1 {
					return
				}
				for i := a; i < min(a+group, i1); i++ {
					kappa2[w] = max(kappa2[w], mo.centre(ds, i, out[(i-i0)*d:(i-i0+1)*d]))
				}
			}
		})
	}
	wg.Wait()
	return slices.Max(kappa2)
}

// centre writes x̄_i, row i of ds centred by its class mean and scaled by 1/√p or
// 1/√(1−p), into row, and returns ‖x̄_i‖². Every row of the resident X̄, on a host or a
// device backend, comes from here, so the two agree bit for bit.
func (mo spdamMoments) centre(ds *data.Dataset, i int, row []float64) float64 {
	p := float64(mo.nPos) / float64(mo.n)
	m, sc := mo.meanNeg, 1/math.Sqrt(1-p)
	if ds.Y[i] == 1 {
		m, sc = mo.meanPos, 1/math.Sqrt(p)
	}
	for j := range row {
		row[j] = -m[j]
	}
	r := ds.Row(i)
	for k, j := range r.Idx {
		row[j] += r.Val[k]
	}
	var nrm float64
	for j := range row {
		row[j] *= sc
		nrm += row[j] * row[j]
	}
	return nrm
}

// spdamRows serves the rows of X̄ on a host backend (kernels.Viewer) without holding X̄:
// sparse data at any size (centring would fill the rows, so each would cost O(d) to
// form and read instead of O(nnz)), and dense data, or sparse data at least
// data.DenseAuto full, with n·d above SPDAMResidentElements (below it X̄ is held
// whole). The rows are never formed: since x̄_i = sc_i(x_i − m_i) with m_i the mean of
// row i's class,
//
//	x̄_i·v = sc_i(x_i·v − m_i·v)                                    (dots)
//	Σ_k c_k x̄_k = Σ_k c_k sc_k x_k − (Σ_{k∈+} c_k sc_k) m₊ − (Σ_{k∈−} c_k sc_k) m₋   (combine)
//
// cost one product over the rows themselves and O(d) per batch for the means: for a
// dense dataset a GemvRows over the dataset's own matrix, read in place (the same
// kernel and memory traffic as the resident X̄'s, with no copy), for a sparse one
// DotSparse and AxpySparse, O(nnz) a row. The results agree with the resident X̄'s to
// rounding, not bit for bit (x_i·v − m_i·v cancels where x̄_i·v is small; the gap
// check's tolerance, 10⁻⁸ by default, is far above that error).
type spdamRows struct {
	be    kernels.Viewer
	ds    *data.Dataset
	x     kernels.Mat // a view of ds.Dense (dense data only)
	mPos  kernels.Vec // m₊ and m₋, views of the moments' means
	mNeg  kernels.Vec
	scPos float64 // 1/√p and 1/√(1−p)
	scNeg float64
	zeros []float64 // d zeros, to clear a Vec without reading it (sparse data)
	coef  []float64 // combine's coefficients c_k·sc_k (dense data)
}

// spdamResident reports whether a host backend holds ds's X̄ whole: rows that are full
// (dense, or sparse at least data.DenseAuto full), n·d at most limit.
func spdamResident(ds *data.Dataset, limit int64) bool {
	full := ds.IsDense() || ds.Density() >= data.DenseAuto
	return full && int64(ds.Rows())*int64(ds.Dim) <= limit
}

// newSPDAMRows sets up the implicit rows of X̄ for ds on v.
func newSPDAMRows(v kernels.Viewer, ds *data.Dataset, mo spdamMoments) *spdamRows {
	n, d := ds.Rows(), ds.Dim
	p := float64(mo.nPos) / float64(n)
	r := &spdamRows{be: v, ds: ds, scPos: 1 / math.Sqrt(p), scNeg: 1 / math.Sqrt(1-p),
		mPos: v.ViewMat(1, d, mo.meanPos).Row(0), mNeg: v.ViewMat(1, d, mo.meanNeg).Row(0)}
	if ds.IsDense() {
		r.x = v.ViewMat(n, d, ds.Dense[:n*d])
	} else {
		r.zeros = make([]float64, d)
	}
	return r
}

// sc returns row i's class scale and its class mean's product mv₊ or mv₋.
func (r *spdamRows) sc(i int, mvPos, mvNeg float64) (sc, mv float64) {
	if r.ds.Y[i] == 1 {
		return r.scPos, mvPos
	}
	return r.scNeg, mvNeg
}

// kappa returns κ = max‖x̄_i‖ from ‖x̄_i‖² = sc_i²(‖x_i‖² − 2x_i·m_i + ‖m_i‖²) in
// O(nnz + d) a row (κ only sets the steps, so the cancellation of that difference does
// not matter).
func (r *spdamRows) kappa() float64 {
	var kappa2 float64
	mmPos, mmNeg := r.be.Dot(r.mPos, r.mPos), r.be.Dot(r.mNeg, r.mNeg)
	for i := range r.ds.Rows() {
		row := r.ds.Row(i)
		m, mm, sc := r.mNeg, mmNeg, r.scNeg
		if r.ds.Y[i] == 1 {
			m, mm, sc = r.mPos, mmPos, r.scPos
		}
		var xx float64
		for _, v := range row.Val {
			xx += v * v
		}
		kappa2 = max(kappa2, sc*sc*max(0, xx-2*r.be.DotSparse(row, m)+mm))
	}
	return math.Sqrt(kappa2)
}

// dots sets out[k] = alpha·x̄_{idx[k]}·v (all rows in order when idx is nil).
func (r *spdamRows) dots(alpha float64, v kernels.Vec, idx []int32, out []float64) {
	mvPos, mvNeg := r.be.Dot(r.mPos, v), r.be.Dot(r.mNeg, v)
	row := func(k int) int {
		if idx == nil {
			return k
		}
		return int(idx[k])
	}
	if r.x != nil {
		ov := r.be.ViewMat(1, len(out), out).Row(0)
		if idx == nil {
			r.be.Gemv(false, 1, r.x, v, 0, ov)
		} else {
			r.be.GemvRows(false, 1, r.x, idx, v, 0, ov)
		}
		for k := range out {
			sc, mv := r.sc(row(k), mvPos, mvNeg)
			out[k] = alpha * sc * (out[k] - mv)
		}
		return
	}
	for k := range out {
		i := row(k)
		sc, mv := r.sc(i, mvPos, mvNeg)
		out[k] = alpha * sc * (r.be.DotSparse(r.ds.Row(i), v) - mv)
	}
}

// combine sets g = alpha·Σ_k coef[k]·x̄_{idx[k]}.
func (r *spdamRows) combine(alpha float64, idx []int32, coef []float64, g kernels.Vec) {
	var sPos, sNeg float64
	if r.x != nil && cap(r.coef) < len(idx) {
		r.coef = make([]float64, len(idx))
	}
	if r.x == nil {
		r.be.Upload(g, r.zeros)
	}
	for k, i := range idx {
		a := alpha * coef[k]
		if r.ds.Y[i] == 1 {
			a *= r.scPos
			sPos += a
		} else {
			a *= r.scNeg
			sNeg += a
		}
		switch {
		case r.x != nil:
			r.coef[k] = a
		case a != 0:
			r.be.AxpySparse(a, r.ds.Row(int(i)), g)
		}
	}
	if r.x != nil {
		r.be.GemvRows(true, 1, r.x, idx, r.be.ViewMat(1, len(idx), r.coef[:len(idx)]).Row(0), 0, g)
	}
	r.be.Axpy(-sPos, r.mPos, g)
	r.be.Axpy(-sNeg, r.mNeg, g)
}

// steps returns σ, τ, θ: the parameters where set, else Theorem 5.1's.
func (p SPDAMParams) steps(n, m int, kappa float64) (sigma, tau, theta float64) {
	k2 := kappa * kappa
	if k2 == 0 {
		k2 = 1 // X̄ = 0: any steps do; the w-step alone is a proximal-point iteration
	}
	nm := float64(n - m)
	sigma = p.Sigma
	if sigma == 0 {
		l := p.Lambda
		sigma = (nm*l + math.Sqrt(nm*l*nm*l+4*float64(n)*float64(m)*k2*l)) / (4 * float64(m) * k2)
	}
	tau = p.Tau
	if tau == 0 {
		tau = 1 / (4 * sigma * k2)
	}
	theta = p.Theta
	if theta == 0 {
		theta = 1 - p.Lambda/(p.Lambda+2*sigma*k2)
	}
	return sigma, tau, theta
}

// spdamRun is the state of one Fit: X̄, β and the vectors on the backend; on the host
// only the permutation the batches are drawn from.
type spdamRun struct {
	be                        kernels.Backend
	n, m, d                   int
	lambda, sigma, tau, theta float64
	c, smDen, bb              float64     // w-step: cI + bbᵀ, c = λ + 1/τ; c(c + b·b); b·b
	xbar                      kernels.Mat // X̄ on the backend; nil when rows serves its rows
	rows                      *spdamRows  // on a host backend above the limit: X̄'s rows implicit
	bv, w, wPlus, wBar        kernels.Vec
	u, uBar, du, sc           kernels.Vec
	beta                      kernels.Vec // the duals β, n
	dBeta, betaI              kernels.Vec // the batch's Δβ and β_I, m
	dBetaHost, scHost         []float64   // implicit rows: the storage of dBeta and sc
	perm                      []int32
	rng                       *rand.Rand
}

// newSPDAMRun centres ds and sets up the iteration from w = w̄ = 0, β = 0, u = 0.
func (s *SPDAM) newSPDAMRun(ds *data.Dataset, m int) *spdamRun {
	n, d, be := ds.Rows(), s.dim, s.b
	mo := classMeans(ds)
	var xbar kernels.Mat
	var rows *spdamRows
	var kappa float64
	if v, ok := be.(kernels.Viewer); ok && !spdamResident(ds, s.resident) {
		rows = newSPDAMRows(v, ds, mo)
		kappa = rows.kappa()
	} else {
		xbar, kappa = s.centred(ds, mo)
	}
	sigma, tau, theta := s.p.steps(n, m, kappa)
	s.st = SPDAMStats{M: m, Sigma: sigma, Tau: tau, Theta: theta, Kappa: kappa}
	r := &spdamRun{be: be, n: n, m: m, d: d, lambda: s.p.Lambda, sigma: sigma, tau: tau, theta: theta,
		xbar: xbar, rows: rows, bv: be.NewVec(d), w: be.NewVec(d), wPlus: be.NewVec(d), wBar: be.NewVec(d),
		u: be.NewVec(d), uBar: be.NewVec(d), du: be.NewVec(d),
		beta: be.NewVec(n), betaI: be.NewVec(m),
		perm: make([]int32, n), rng: rand.New(rand.NewPCG(s.seed, 0x5bda))}
	if rows != nil { // Δβ and X̄w are computed on the host: view them
		r.dBetaHost, r.scHost = make([]float64, m), make([]float64, n)
		r.dBeta, r.sc = rows.be.ViewMat(1, m, r.dBetaHost).Row(0), rows.be.ViewMat(1, n, r.scHost).Row(0)
	} else {
		r.dBeta, r.sc = be.NewVec(m), be.NewVec(n)
	}
	bHost := make([]float64, d)
	for j := range bHost {
		bHost[j] = mo.meanNeg[j] - mo.meanPos[j]
	}
	be.Upload(r.bv, bHost)
	r.bb = be.Dot(r.bv, r.bv)
	r.c = r.lambda + 1/tau
	r.smDen = r.c * (r.c + r.bb)
	for i := range r.perm {
		r.perm[i] = int32(i)
	}
	return r
}

// iterate runs one SPDAM iteration on a fresh mini-batch.
func (r *spdamRun) iterate() {
	be, n, m := r.be, r.n, r.m
	// Partial Fisher–Yates: perm[:m] is a sample without replacement.
	for k := range m {
		j := k + r.rng.IntN(n-k)
		r.perm[k], r.perm[j] = r.perm[j], r.perm[k]
	}
	idx := r.perm[:m] // distinct, as ScatterAdd needs
	// Dual step on the batch, β_i ← (σ w̄·x̄_i + β_i)/(σ + 1), on the backend: with
	// c = σ/(σ + 1), Δβ = c·X̄_I w̄ − c·β_I and β_I += Δβ.
	c := r.sigma / (r.sigma + 1)
	switch {
	case r.rows != nil:
		r.rows.dots(c, r.wBar, idx, r.dBetaHost)
		be.Gather(r.beta, idx, r.betaI)
		be.Axpy(-c, r.betaI, r.dBeta)
		be.ScatterAdd(1, r.dBeta, idx, r.beta)
		r.rows.combine(1/float64(n), idx, r.dBetaHost, r.du)
	default:
		be.GemvRows(false, c, r.xbar, idx, r.wBar, 0, r.dBeta)
		be.Gather(r.beta, idx, r.betaI)
		be.Axpy(-c, r.betaI, r.dBeta)
		be.ScatterAdd(1, r.dBeta, idx, r.beta)
		be.GemvRows(true, 1/float64(n), r.xbar, idx, r.dBeta, 0, r.du)
	}
	// ū = u + (n/m)Δu;  u += Δu.
	be.Copy(r.uBar, r.u)
	be.Axpy(float64(n)/float64(m), r.du, r.uBar)
	be.Axpy(1, r.du, r.u)
	// Primal step: w⁺ = (cI + bbᵀ)⁻¹(w/τ − ū − b) = q/c − b(b·q)/(c(c + b·b)).
	be.Copy(r.wPlus, r.w)
	be.Scal(1/r.tau, r.wPlus)
	be.Axpy(-1, r.uBar, r.wPlus)
	be.Axpy(-1, r.bv, r.wPlus)
	bq := be.Dot(r.bv, r.wPlus)
	be.Scal(1/r.c, r.wPlus)
	be.Axpy(-bq/r.smDen, r.bv, r.wPlus)
	// w̄ = (1 + θ)w⁺ − θw, then w ← w⁺.
	be.Copy(r.wBar, r.wPlus)
	be.Scal(1+r.theta, r.wBar)
	be.Axpy(-r.theta, r.w, r.wBar)
	r.w, r.wPlus = r.wPlus, r.w
}

// gap returns the primal P(w) = J(w) and the dual D(β) of the saddle form (uBar is
// scratch):
//
//	P(w) = ½‖X̄w‖²/n + g(w)
//	D(β) = −‖β‖²/(2n) − ½ zᵀ(bbᵀ + λI)⁻¹z,   z = u + b
//	     = −‖β‖²/(2n) − (‖z‖² − (b·z)²/(λ + b·b)) / (2λ)
func (r *spdamRun) gap() (primal, dual float64) {
	be, nf, lambda := r.be, float64(r.n), r.lambda
	switch {
	case r.rows != nil:
		r.rows.dots(1, r.w, nil, r.scHost)
	default:
		be.Gemv(false, 1, r.xbar, r.w, 0, r.sc)
	}
	bw := be.Dot(r.bv, r.w)
	primal = 0.5*be.Dot(r.sc, r.sc)/nf + 0.5*bw*bw + bw + 0.5*lambda*be.Dot(r.w, r.w)
	be.Copy(r.uBar, r.u)
	be.Axpy(1, r.bv, r.uBar)
	bz, zz := be.Dot(r.bv, r.uBar), be.Dot(r.uBar, r.uBar)
	b2 := be.Dot(r.beta, r.beta)
	dual = -0.5*b2/nf - 0.5*(zz-bz*bz/(lambda+r.bb))/lambda
	return primal, dual
}

// weights downloads w.
func (r *spdamRun) weights() []float64 {
	w := make([]float64, r.d)
	r.be.Download(w, r.w)
	return w
}

// Fit runs SPDAM on ds from w = 0 until the relative duality gap is at most Tol or
// Iters iterations have run (Stats says which). It returns an error wrapping ErrOneClass
// for a single class, ErrParam when m exceeds the number of rows, and ErrDiverged when
// w becomes non-finite.
func (s *SPDAM) Fit(ctx context.Context, ds *data.Dataset) error {
	if err := checkSampleWeights("spdam", Params{}, ds); err != nil {
		return err
	}
	if ds.Dim != s.dim {
		return fmt.Errorf("spdam: data has %d features, the solver was made for %d", ds.Dim, s.dim)
	}
	n, d := ds.Rows(), s.dim
	nPos, nNeg := ds.Counts()
	if nPos == 0 || nNeg == 0 {
		return fmt.Errorf("spdam: %w (%d positives, %d negatives)", ErrOneClass, nPos, nNeg)
	}
	m, err := s.p.batchSize(n)
	if err != nil {
		return fmt.Errorf("spdam: %w", err)
	}
	if _, host := s.b.(kernels.Viewer); !host && int64(n)*int64(d) > SPDAMMaxElements {
		return fmt.Errorf("spdam: the centred data matrix would be %d×%d = %d elements (%d bytes), above the limit of %d elements: use an online method such as spam-l2",
			n, d, int64(n)*int64(d), 8*int64(n)*int64(d), int64(SPDAMMaxElements))
	}
	s.w = nil
	r := s.newSPDAMRun(ds, m)
	epoch := (n + m - 1) / m // iterations per gap check
	for s.st.Reason == "" {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("spdam: %w", err)
		}
		r.iterate()
		s.st.Iters++
		capped := s.st.Iters >= s.p.Iters
		if s.st.Iters%epoch != 0 && !capped {
			continue
		}
		primal, dual := r.gap()
		if math.IsNaN(primal) || math.IsInf(primal, 0) || math.IsNaN(dual) || math.IsInf(dual, 0) {
			return fmt.Errorf("spdam: %w: objective %v after %d iterations", ErrDiverged, primal, s.st.Iters)
		}
		s.st.Epochs++
		s.st.Gap = (primal - dual) / math.Abs(primal)
		switch {
		case s.st.Gap <= s.p.Tol:
			s.st.Reason = "tolerance"
		case capped:
			s.st.Reason = "iteration cap"
		}
		if s.Trace != nil {
			s.w = r.weights()
			s.Trace(s.st)
		}
	}
	s.w = r.weights()
	for _, wj := range s.w {
		if math.IsNaN(wj) || math.IsInf(wj, 0) {
			return fmt.Errorf("spdam: %w after %d iterations", ErrDiverged, s.st.Iters)
		}
	}
	return nil
}

// spdamSpec is SPDAM's Spec. Its state on the host: ~10 vectors, β, X̄w, the batch's
// duals and coefficients and the permutation, and X̄ itself up to
// SPDAMResidentElements (counted whenever n·d is that small: the density is not known
// here); a device backend holds the centred n×d X̄ in its own memory instead (bounded
// by SPDAMMaxElements).
//
// Its data-scaled λ: spdam's linear rate slows as λ shrinks (the thesis: 230 epochs at
// 0.1 on a9a), so λ stays at least 0.01, and at least its static 0.1 from 5,000 rows
// on: w8a (34,824 rows) ran over 100 s at 2ρ = 0.017 against 33.5 s at 0.1 (test AUC
// .9713).
func spdamSpec() Spec {
	s := batch("spdam", "stochastic primal-dual AUC maximisation, square loss, mini-batches (batch)", "thesis ch. 5, Alg. 21",
		DefaultSPDAMParams, SPDAMGrid, NewSPDAM)
	s.DeviceValues = deviceSPDAM
	withState(&s, func(d, n float64, _ *SPDAMParams) float64 {
		w := 12*d + 6*n
		if n*d <= SPDAMResidentElements {
			w += n * d
		}
		return w
	})
	withDefaults(&s, func(f DataFacts, p *SPDAMParams) {
		floor := 0.01
		if f.Rows >= 5000 {
			floor = 0.1
		}
		p.Lambda = math.Max(ridgeSquare*f.RidgeScale(), floor)
	})
	return s
}
