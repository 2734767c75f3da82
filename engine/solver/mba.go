package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/kernels"
)

// MBA family: mini-batch AUC optimisation via U-statistics of pairwise differences.
//
// References:
//
//	Gultekin, Saha, Ratnaparkhi, Paisley. MBA: Mini-Batch AUC Optimization.
//	Algorithm 1; Eq. (16)-(18); Section V-A (simulation) and V-B (benchmarks).
//
// See docs/ALGORITHMS.md, "MBA".
//
// The paper states neither B nor T for its experiments nor a numeric λ grid (Fig. 4
// plots AUC against the regularisation weight on a log axis). Its simulation varies the
// "sample ratio" SR ∈ {1%, 10%, 100%}, "the percentage of available data points used
// for training"; this package reads SR as the number of sampled pairs S = B·T relative
// to the training-set size n, so SR 100% on the 20,000-point simulation is S = 20,000
// pairs (e.g. B = 1000, T = 20). The defaults below (B = 1000, T = 100: S = 10⁵
// pairs) therefore correspond to SR ≥ 100% for every benchmark set of Table I up to
// 100,000 rows, and Theorem 4 says S need not grow with n.

// mbaMaxShards is the largest number of shards the T rounds are split into. Shards are
// fixed ranges of rounds that depend on T alone (never on the number of workers), each
// with its own accumulator and random stream, merged in shard order: Σ_S and μ_S are
// bit-identical whatever GOMAXPROCS is.
const mbaMaxShards = 64

// MBAResidentElements is the default largest n·d for which MBA keeps a dense training
// set resident on a device backend (8·n·d bytes, 1 GiB here) and builds each round's
// block of pair differences there with RowDiff, from the sampled indices alone; above it
// (and for sparse data) the block is built on the host and uploaded. A host backend
// (kernels.Viewer) gathers from the dataset's own rows at any size, without a copy.
// SetResidentElements changes it, e.g. to hold epsilon (400,000 × 2,000, 6.4 GB) on a
// GPU. Both paths give bit-identical results.
const MBAResidentElements = 1 << 27

// MBAParams are the hyper-parameters of MBA (Gultekin et al., Algorithm 1):
//
//	w* = argmin ½wᵀΣ_S w − wᵀμ_S + λ₁‖w‖₁ + (λ₂/2)‖w‖²
//
// over S = B·T sampled positive–negative pairs. Start from DefaultMBAL2Params,
// DefaultMBAL1Params or DefaultMBAELParams; the zero value is not a valid setting.
type MBAParams struct {
	// B is the number of positives (and of negatives) sampled per round, ≥ 1. Default
	// 1000 (not given in the paper; large enough for one Syrk per round to run at the
	// kernel's full rate).
	B int `param:"B"`
	// T is the number of rounds, ≥ 1. Default 100 (S = B·T = 10⁵ pairs; see the family
	// comment for the paper's sample ratio).
	T int `param:"T"`
	// Lambda1 is the ℓ1 weight λ₁ ≥ 0; 0 for MBA-ℓ2 (which rejects any other value).
	// Defaults: MBA-ℓ1 10⁻⁴, MBA-EL ½·10⁻⁴. Grid MBALambdaGrid.
	Lambda1 float64 `param:"lambda1"`
	// Lambda2 is the ℓ2 weight λ₂ ≥ 0. Defaults: MBA-ℓ2 10⁻⁴, MBA-ℓ1 0, MBA-EL
	// ½·10⁻⁴ (Fig. 4: "the elastic net uses one half of ℓ1-penalty for both ℓ1 and ℓ2").
	// Grid MBALambdaGrid. With λ₁ = 0 and λ₂ = 0 the solve fails unless Σ_S is
	// positive definite.
	Lambda2 float64 `param:"lambda2"`
	// Path is the number of λ₁ values of the warm-started path, ≥ 1: from
	// λ_max = ‖μ_S‖_∞ (where w* = 0) down geometrically to Lambda1; 1 is a cold start.
	// Unused when λ₁ = 0. Default 10.
	Path int `param:"path"`
	// Tol is coordinate descent's relative tolerance, in (0, 1): a solve stops when a
	// sweep changes no weight by more than Tol·max_j |w_j|. Default 10⁻¹⁰.
	Tol float64 `param:"tol"`
	// MaxIter caps coordinate descent's sweeps over the coordinates per λ, ≥ 1.
	// Default 10000. Info reports which of Tol and MaxIter stopped the last solve.
	MaxIter int `param:"maxiter"`
	// Pairs is "sampled" (the default: S = B·T pairs drawn at random, Algorithm 1) or
	// "all": every positive–negative pair, for which Σ_N = S₊ + S₋ + δδᵀ and μ_N = δ
	// (docs/ALGORITHMS.md, "MBA") come from the class moments in one pass, exactly, with no
	// sampling; B and T must then keep their defaults (they do not apply), and the fit
	// needs only the class moments (out-of-core and distributed training). "auto" is
	// "all" on a training set of at most S = B·T rows, "sampled" on a larger one: every
	// pair's statistics cost n·d² (the class scatters), S sampled pairs S·d², so from
	// S ≥ n the exact U-statistics are also the cheaper ones. It is the data-scaled
	// default (solver.Spec.Defaults); the static default, which the papers' protocols
	// run, stays "sampled".
	Pairs string `param:"pairs"`
}

// The values of MBAParams.Pairs.
const (
	MBAPairsSampled = "sampled"
	MBAPairsAll     = "all"
	MBAPairsAuto    = "auto"
)

// allPairsFor reports whether the fit on n training rows uses every pair: Pairs "all",
// or "auto" with S = B·T ≥ n.
func (p MBAParams) allPairsFor(n int64) bool {
	return p.Pairs == MBAPairsAll || p.Pairs == MBAPairsAuto && int64(p.B)*int64(p.T) >= n
}

// DefaultMBAL2Params returns MBA-ℓ2 (ridge): B = 1000, T = 100, λ₁ = 0, λ₂ = 10⁻⁴.
func DefaultMBAL2Params() MBAParams {
	return MBAParams{B: 1000, T: 100, Lambda1: 0, Lambda2: 1e-4, Path: 10, Tol: 1e-10, MaxIter: 10000, Pairs: MBAPairsSampled}
}

// DefaultMBAL1Params returns MBA-ℓ1 (lasso): DefaultMBAL2Params with λ₁ = 10⁻⁴ and
// λ₂ = 0.
func DefaultMBAL1Params() MBAParams {
	p := DefaultMBAL2Params()
	p.Lambda1, p.Lambda2 = 1e-4, 0
	return p
}

// DefaultMBAELParams returns MBA-EL (elastic net): DefaultMBAL2Params with
// λ₁ = λ₂ = ½·10⁻⁴, the paper's convention of splitting one penalty in halves.
func DefaultMBAELParams() MBAParams {
	p := DefaultMBAL2Params()
	p.Lambda1, p.Lambda2 = 5e-5, 5e-5
	return p
}

// MBALambdas are the regularisation weights of the MBA grids, 10^[-6..2]. The paper
// shows its λ grid only as the log axis of Fig. 4 (no values in the text). The range
// runs from practically unregularised to strong ridge shrinkage: on the paper's
// simulation (Section V-A) the Table II numbers need λ₂ ≈ 10 (with Σ_S of order 1, w*
// then leans towards μ_S, the mean difference, which is what the isotropic Gaussians
// reward); for λ₁ the values above ‖μ_S‖_∞ give w* = 0.
var MBALambdas = Pow10(-6, 2)

// MBAL2Grid is MBA-ℓ2's grid: λ₂ ∈ 10^[-6..2].
var MBAL2Grid = Grid{Keys: []string{"lambda2"}, Values: [][]float64{MBALambdas}}

// MBAL1Grid is MBA-ℓ1's grid: λ₁ ∈ 10^[-6..2] (λ₂ = 0).
var MBAL1Grid = Grid{Keys: []string{"lambda1"}, Values: [][]float64{MBALambdas}}

// MBAELGrid is MBA-EL's grid: λ₁, λ₂ ∈ 10^[-6..2] each.
var MBAELGrid = Grid{Keys: []string{"lambda1", "lambda2"}, Values: [][]float64{MBALambdas, MBALambdas}}

func (p MBAParams) check() error {
	for _, err := range []error{
		Check(p.B >= 1, "B", p.B, "≥ 1"),
		Check(p.T >= 1, "T", p.T, "≥ 1"),
		Check(p.Lambda1 >= 0 && !math.IsInf(p.Lambda1, 0), "lambda1", p.Lambda1, "a finite number ≥ 0"),
		Check(p.Lambda2 >= 0 && !math.IsInf(p.Lambda2, 0), "lambda2", p.Lambda2, "a finite number ≥ 0"),
		Check(p.Path >= 1, "path", p.Path, "≥ 1"),
		Check(p.Tol > 0 && p.Tol < 1, "tol", p.Tol, "in (0, 1)"),
		Check(p.MaxIter >= 1, "maxiter", p.MaxIter, "≥ 1"),
		Check(p.Pairs == MBAPairsSampled || p.Pairs == MBAPairsAll || p.Pairs == MBAPairsAuto, "pairs", p.Pairs,
			MBAPairsSampled+", "+MBAPairsAll+" or "+MBAPairsAuto),
		Check(p.Pairs != MBAPairsAll || p.B == DefaultMBAL2Params().B, "B", p.B, "unset with pairs=all (every pair is used)"),
		Check(p.Pairs != MBAPairsAll || p.T == DefaultMBAL2Params().T, "T", p.T, "unset with pairs=all (every pair is used)"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// MBAInfo describes the last Fit or FitPath.
type MBAInfo struct {
	Pairs  int64 // S = B·T sampled pairs
	Shards int   // shards the rounds were split into
	// LambdaMax is ‖μ_S‖_∞, the smallest λ₁ with w* = 0.
	LambdaMax float64
	// Solver is "cholesky" (λ₁ = 0), "cg" (λ₁ = 0 with every pair, by conjugate
	// gradients where cgFirstSteps allows: fitCG) or "cd" (coordinate descent) for the
	// last solve.
	Solver string
	// Sweeps is the number of coordinate-descent sweeps over all solves (0 for
	// Cholesky).
	Sweeps int
	// StoppedBy is "tolerance" when every coordinate-descent solve met Tol, "maxiter"
	// when one hit the sweep cap first, "" after a Cholesky solve.
	StoppedBy string
}

// MBA is Mini-Batch AUC optimisation (Gultekin et al., Algorithm 1), a batch learner.
// Fit samples T rounds of B positives and B negatives uniformly with replacement,
// pairs them index-wise and accumulates the U-statistics of the pair differences
// D_t = X₊[S₊_t] − X₋[S₋_t] (B×d) with one Syrk and one Gemv per round:
//
//	μ_S = (1/BT) Σ_t D_tᵀ1        Σ_S = (1/BT) Σ_t D_tᵀD_t
//
// then solves the regularised quadratic: MBA-ℓ2 (λ₁ = 0) by a Cholesky factorisation
// of Σ_S + λ₂I, MBA-ℓ1 and MBA-EL by cyclic coordinate descent, warm-started along a
// geometric λ₁ path from ‖μ_S‖_∞.
//
// The rounds are split into at most 64 shards of consecutive rounds; shard s draws its
// pairs from the PCG stream (seed, s) and accumulates into its own d×d buffer, and the
// shards are merged in order, so the result depends on the seed alone. Shards run on
// SetWorkers goroutines (default one; the backend parallelises each Syrk) calling the
// backend concurrently on disjoint outputs (fine for the CPU backends); memory is about that many d×d buffers plus, per
// goroutine, two B×d blocks. Each round's block of a dense training set is gathered on
// the backend from the sampled row indices (RowDiff: no per-round upload, which is what
// keeps a GPU busy): from a view of the dataset's rows on a host backend, and on a
// device from a copy uploaded once when it has up to SetResidentElements (default
// MBAResidentElements) elements; larger and sparse sets are densified into the block on
// the host.
//
// With all pairs Σ_N = S₊ + S₋ + δδᵀ and μ_N = δ (docs/ALGORITHMS.md, "MBA"), so as S grows w*
// tends to stats.Oracle's solution with λ = λ₂.
type MBA struct {
	b       kernels.Backend
	dim     int
	p       MBAParams
	seed    uint64
	name    string
	ridge   bool // MBA-ℓ2: λ₁ must be 0
	workers int  // shard goroutines; ≤ 0 means 1 (SetWorkers)
	// resident is the largest n·d kept on the backend (SetResidentElements); 0 means
	// MBAResidentElements, < 0 never.
	resident int64
	// blockEntries is the sparse path's block of pairs' non-zeros (accumulateSparse); 0
	// means mbaBlockEntries. Tests set it to split a few pairs into several blocks.
	blockEntries int

	mu    []float64 // μ_S (host copy after Fit)
	sigma []float64 // Σ_S, full symmetric d×d row-major (host copy after Fit)
	// sigmaDiag, when set, is Σ_S's diagonal while sigma's upper triangle holds a
	// Cholesky factor (solveCholesky factorises in place; restoreSigma undoes it from
	// the lower triangle, which the factorisation does not touch).
	sigmaDiag []float64
	w         []float64
	info      MBAInfo
}

// NewMBA returns MBA for dim features on backend b with any λ₁, λ₂ ≥ 0 (MBA-ℓ1 from
// DefaultMBAL1Params, MBA-EL from DefaultMBAELParams). The seed picks the pairs.
func NewMBA(b kernels.Backend, dim int, p MBAParams, seed uint64) (*MBA, error) {
	return newMBA(b, dim, p, seed, "mba", false)
}

// NewMBAL2 returns MBA-ℓ2 (ridge) for dim features on backend b; it rejects λ₁ ≠ 0
// with ErrParam.
func NewMBAL2(b kernels.Backend, dim int, p MBAParams, seed uint64) (*MBA, error) {
	if err := Check(p.Lambda1 == 0, "lambda1", p.Lambda1, "0 for mba-l2 (use mba-l1 or mba-el)"); err != nil {
		return nil, err
	}
	return newMBA(b, dim, p, seed, "mba-l2", true)
}

func newMBA(b kernels.Backend, dim int, p MBAParams, seed uint64, name string, ridge bool) (*MBA, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &MBA{b: b, dim: dim, p: p, seed: seed, name: name, ridge: ridge, w: make([]float64, dim)}, nil
}

// Params returns the parameters the learner was made with.
func (m *MBA) Params() MBAParams { return m.p }

// SetWorkers sets the number of goroutines that accumulate shards (n ≤ 0: one, the
// default). The result does not depend on it. Where the backend's kernels already
// spread one Syrk over every core (the CPU backends do for large blocks), more than one
// shard goroutine adds no compute and the concurrent Syrks contend for the backend's
// worker pool and the cache: on a loaded 2-core machine 1 worker ran at the raw Syrk
// rate and 2 workers 30% (d = 2000) to 2× (d = 123) slower. Shard goroutines pay where
// the host side (densifying and uploading the blocks) is the bottleneck, which is why
// the default is one.
func (m *MBA) SetWorkers(n int) { m.workers = n }

// SetResidentElements sets the largest n·d for which a dense training set is uploaded
// to a device backend once and the pair differences are gathered there (RowDiff; a host
// backend gathers from a view of the dataset at any size); 0 restores
// MBAResidentElements and a negative n turns the resident path off on every backend.
// The result does not depend on it.
func (m *MBA) SetResidentElements(n int64) {
	if n == 0 {
		n = MBAResidentElements
	}
	m.resident = n
}

// Weights returns a copy of the fitted weights (zeros before a Fit).
func (m *MBA) Weights() []float64 { return append([]float64(nil), m.w...) }

// Info describes the last Fit or FitPath.
func (m *MBA) Info() MBAInfo { return m.info }

// Statistics returns copies of μ_S and of Σ_S (full symmetric, d×d row-major) from the
// last Fit or FitPath; nil before one.
func (m *MBA) Statistics() (mu, sigma []float64) {
	if m.mu == nil {
		return nil, nil
	}
	m.restoreSigma()
	return append([]float64(nil), m.mu...), append([]float64(nil), m.sigma...)
}

// Fit samples the pairs, accumulates Σ_S and μ_S and solves for w with the learner's
// λ₁ and λ₂ (coordinate descent along Path warm-started λ₁ values when λ₁ > 0). It
// discards any earlier fit.
func (m *MBA) Fit(ctx context.Context, ds *data.Dataset) error {
	return m.FitOrdered(ctx, ds, nil)
}

// ReadsInPlace reports true: FitOrdered reads the rows where they lie in any order,
// every pair's class moments in the order's sequence, and sampled pairs drawn from the
// classes' rows listed in it.
func (m *MBA) ReadsInPlace(rows int) bool { return true }

// FitOrdered is Fit(ctx, ds.Subset(order)) (order nil: ds's own order; else a
// permutation of its rows), without the copy: bit for bit, except that a fit by
// conjugate gradients (fitCG) reads the rows as stored whatever the order, as
// LSAUC.FitOrdered.
func (m *MBA) FitOrdered(ctx context.Context, ds *data.Dataset, order []int) error {
	if fitted, err := m.fitCG(ctx, ds); fitted || err != nil {
		return err
	}
	if err := m.accumulate(ctx, ds, order); err != nil {
		return err
	}
	return m.fitSolve(ctx)
}

// fitCG fits MBA-ℓ2 with every pair, whose system is B-LS-SVM's, as LSAUC.FitOrdered
// does: where cgFirstSteps allows (rows a host backend reads in place, the moments'
// Syrk dear enough) by conjugate gradients first, without Σ_S. It reports whether it
// fitted; when it did not (another learner or data, or a system that did not converge
// in the steps allowed), the caller accumulates Σ_S and solves by Cholesky.
func (m *MBA) fitCG(ctx context.Context, ds *data.Dataset) (bool, error) {
	budget := cgFirstSteps(m.b, ds, m.dim)
	if m.p.Lambda1 != 0 || budget == 0 || !m.p.allPairsFor(int64(ds.Rows())) {
		return false, nil
	}
	pos, neg, err := batchClasses(m.name, ds, m.dim)
	if err != nil {
		return false, nil // accumulate reports it
	}
	m.mu, m.sigma, m.sigmaDiag, m.info = nil, nil, nil, MBAInfo{}
	op := newSquareOp(m.b, ds, m.dim, m.p.Lambda2)
	err = op.cg(ctx, nil, true, budget, func(_ int, w []float64) { copy(m.w, w) })
	if nc := (*cgUnconverged)(nil); errors.As(err, &nc) {
		return false, nil
	}
	if err != nil {
		return true, m.finish(fmt.Errorf("%s: %w", m.name, err))
	}
	var lmax float64
	for _, v := range op.delta {
		lmax = math.Max(lmax, math.Abs(v))
	}
	m.info = MBAInfo{Pairs: int64(pos) * int64(neg), LambdaMax: lmax, Solver: "cg"}
	return true, m.finish(nil)
}

// fitSolve solves for w from the accumulated statistics with the learner's λ₁ and λ₂.
func (m *MBA) fitSolve(ctx context.Context) error {
	l1, l2 := m.p.Lambda1, m.p.Lambda2
	if l1 == 0 {
		return m.finish(m.solve(ctx, 0, l2))
	}
	var lambdas []float64
	if lmax := m.info.LambdaMax; m.p.Path > 1 && l1 < lmax {
		r := math.Pow(l1/lmax, 1/float64(m.p.Path-1))
		for k := range m.p.Path - 1 {
			lambdas = append(lambdas, lmax*math.Pow(r, float64(k)))
		}
	}
	lambdas = append(lambdas, l1)
	for _, l := range lambdas {
		if err := m.solve(ctx, l, l2); err != nil {
			return m.finish(err)
		}
	}
	return m.finish(nil)
}

// FitPath samples the pairs and accumulates Σ_S and μ_S once, then returns one weight
// vector per (λ₁, λ₂) in penalties, each solve warm-started from the previous one (order
// them by decreasing λ₁ for a short path). Pairs with λ₁ = 0 are solved by Cholesky.
// Weights afterwards returns the last vector.
func (m *MBA) FitPath(ctx context.Context, ds *data.Dataset, penalties [][2]float64) ([][]float64, error) {
	for i, pen := range penalties {
		for k, key := range []string{"lambda1", "lambda2"} {
			if err := Check(pen[k] >= 0 && !math.IsInf(pen[k], 0), key, pen[k], "a finite number ≥ 0"); err != nil {
				return nil, fmt.Errorf("%s: penalty %d: %w", m.name, i, err)
			}
		}
		if m.ridge && pen[0] != 0 {
			return nil, fmt.Errorf("%s: penalty %d: %w", m.name, i, Check(false, "lambda1", pen[0], "0 for mba-l2"))
		}
	}
	if err := m.accumulate(ctx, ds, nil); err != nil {
		return nil, err
	}
	out := make([][]float64, 0, len(penalties))
	for _, pen := range penalties {
		if err := m.finish(m.solve(ctx, pen[0], pen[1])); err != nil {
			return nil, fmt.Errorf("λ₁ = %g, λ₂ = %g: %w", pen[0], pen[1], err)
		}
		out = append(out, m.Weights())
	}
	return out, nil
}

// solve sets w to the minimiser for (l1, l2): by Cholesky when l1 = 0, else by
// coordinate descent from the current w. It updates m.info's Solver, Sweeps and
// StoppedBy ("maxiter" sticks once any solve of the fit hit the cap).
func (m *MBA) solve(ctx context.Context, l1, l2 float64) error {
	if l1 == 0 {
		m.info.Solver = "cholesky"
		return m.solveCholesky(ctx, l2)
	}
	m.info.Solver = "cd"
	sweeps, capped, err := m.solveCD(ctx, l1, l2)
	m.info.Sweeps += sweeps
	switch {
	case capped:
		m.info.StoppedBy = "maxiter"
	case m.info.StoppedBy == "":
		m.info.StoppedBy = "tolerance"
	}
	return err
}

// finish checks the weights are finite after a successful solve; after a failed one
// (err ≠ nil) it zeroes them and returns err.
func (m *MBA) finish(err error) error {
	if err != nil {
		clear(m.w)
		return err
	}
	for j, v := range m.w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			clear(m.w)
			return fmt.Errorf("%s: %w: weight %d is %v", m.name, ErrDiverged, j, v)
		}
	}
	return nil
}

// mbaShards splits T rounds into fixed consecutive ranges [lo, hi), one per shard.
func mbaShards(t int) [][2]int {
	k := min(t, mbaMaxShards)
	out := make([][2]int, k)
	for s := range k {
		out[s] = [2]int{s * t / k, (s + 1) * t / k}
	}
	return out
}

// mbaRand is shard s's random stream for seed.
func mbaRand(seed uint64, s int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x6d6261<<32|uint64(s))) // "mba"
}

// mbaSample draws one round's pairs: the B positives (into ip, indices into pos) then
// the B negatives (into in), uniformly with replacement; pair i is (pos[ip[i]],
// neg[in[i]]).
func mbaSample(r *rand.Rand, nPos, nNeg int, ip, in []int) {
	for i := range ip {
		ip[i] = r.IntN(nPos)
	}
	for i := range in {
		in[i] = r.IntN(nNeg)
	}
}

// mbaAcc is one shard's accumulator.
type mbaAcc struct {
	shard int
	sigma kernels.Mat // d×d, upper triangle
	mu    kernels.Vec
	err   error
}

// mbaScratch is one worker's round buffers.
type mbaScratch struct {
	host   []float64   // B×d, the differences on the host
	block  kernels.Mat // B×d, D_t on the backend
	ones   kernels.Vec // B ones
	ip, in []int
	pi, ni []int32 // the rows of a round's pairs, for RowDiff

	// The sparse path (mbaSparse): one pair's difference z, built in diff (zero
	// between pairs) with seen marking its touched coordinates.
	diff []float64
	seen []bool
	z    kernels.Sparse
}

// mbaSparse reports whether the rounds go pair by pair as sparse rank-one updates of
// the upper triangle (Σ_S row j += s·z_j·z[j:]) instead of a dense B×d block and Syrk:
// for sparse rows on a host backend (kernels.Viewer), where a pair costs O(nnz²)
// instead of O(d²). On hashed click data (d = 8,192, 22 values a row) that is about
// 4·10⁴ times less work; on a device backend the dense block keeps the device busy.
func mbaSparse(b kernels.Backend, ds *data.Dataset, d int) bool {
	_, host := b.(kernels.Viewer)
	return host && !(ds.IsDense() && ds.Dim == d)
}

// accumulate validates ds, samples the pairs and sets m.mu, m.sigma and m.info. order
// (nil: ds's own; else a permutation of its rows) is the rows' order: for the class
// moments of every pair, and the sequence sampled pairs list the classes' rows in.
func (m *MBA) accumulate(ctx context.Context, ds *data.Dataset, order []int) error {
	m.mu, m.sigma, m.sigmaDiag, m.info = nil, nil, nil, MBAInfo{}
	clear(m.w)
	if ds.Dim > m.dim {
		return fmt.Errorf("%s: data has %d features, the learner was made for %d", m.name, ds.Dim, m.dim)
	}
	// The classes' rows in the order's sequence (order nil: as stored): a sampled pair
	// indexes them, so that the pairs drawn are those of the rows copied in that order.
	n := ds.Rows()
	if order != nil {
		n = len(order)
	}
	var pos, neg []int
	for r := range n {
		i := r
		if order != nil {
			i = order[r]
		}
		switch ds.Y[i] {
		case 1:
			pos = append(pos, i)
		case -1:
			neg = append(neg, i)
		default:
			return fmt.Errorf("%s: row %d has label %d, want +1 or −1", m.name, i, ds.Y[i])
		}
	}
	if len(pos) == 0 || len(neg) == 0 {
		return fmt.Errorf("%s: %w (%d positives, %d negatives)", m.name, ErrOneClass, len(pos), len(neg))
	}
	if !ds.UnitWeights() && !m.p.allPairsFor(int64(n)) {
		return fmt.Errorf("%w: %s takes sample weights only with every pair (pairs %s, or %s on at most B·T = %d rows): sampled pairs are drawn unweighted",
			ErrWeights, m.name, MBAPairsAll, MBAPairsAuto, int64(m.p.B)*int64(m.p.T))
	}
	if m.p.allPairsFor(int64(n)) {
		mp, mn, err := classMoments(ctx, m.b, ds, order, m.dim)
		if err != nil {
			return fmt.Errorf("%s: class moments: %w", m.name, err)
		}
		return m.allPairs(mp, mn)
	}
	shards := mbaShards(m.p.T)
	workers := m.workers
	workers = min(max(workers, 1), len(shards))
	d, bsz := m.dim, m.p.B
	scale := 1 / (float64(bsz) * float64(m.p.T))

	sparse := mbaSparse(m.b, ds, d)
	if sparse {
		if err := m.accumulateSparse(ctx, ds, pos, neg, shards, scale); err != nil {
			return fmt.Errorf("%s: sampling pairs: %w", m.name, err)
		}
		return m.finishMoments(len(shards))
	}
	x := m.residentX(ds)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	free := make(chan *mbaAcc, workers)
	done := make(chan *mbaAcc, workers)
	for range workers {
		free <- &mbaAcc{sigma: m.b.NewMat(d, d), mu: m.b.NewVec(d)}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			sc := &mbaScratch{ip: make([]int, bsz), in: make([]int, bsz), pi: make([]int32, bsz), ni: make([]int32, bsz)}
			sc.host, sc.block, sc.ones = make([]float64, bsz*d), m.b.NewMat(bsz, d), m.b.NewVec(bsz)
			ones := make([]float64, bsz)
			for i := range ones {
				ones[i] = 1
			}
			m.b.Upload(sc.ones, ones)
			for {
				var acc *mbaAcc
				select {
				case acc = <-free:
				case <-ctx.Done():
					return
				}
				s := int(next.Add(1)) - 1
				if s >= len(shards) {
					free <- acc
					return
				}
				acc.shard = s
				acc.err = m.shard(ctx, ds, x, pos, neg, shards[s], mbaRand(m.seed, s), scale, acc, sc)
				done <- acc
			}
		})
	}

	// On a host backend Σ_S is accumulated in m.sigma itself (a view), not in a
	// backend matrix downloaded into a second d × d copy.
	m.mu, m.sigma = make([]float64, d), make([]float64, d*d)
	var sigma kernels.Mat
	mu := m.b.NewVec(d)
	v, viewed := m.b.(kernels.Viewer)
	if viewed {
		sigma = v.ViewMat(d, d, m.sigma)
	} else {
		sigma = m.b.NewMat(d, d)
	}
	pending := map[int]*mbaAcc{}
	var err error
	for merged := 0; merged < len(shards) && err == nil; {
		var acc *mbaAcc
		select {
		case acc = <-done:
		case <-ctx.Done():
			// The workers may all have stopped before taking the next shard: do not
			// wait for it.
			err = ctx.Err()
			continue
		}
		pending[acc.shard] = acc
		for a := pending[merged]; a != nil && err == nil; a = pending[merged] {
			delete(pending, merged)
			if a.err != nil {
				err = a.err
				break
			}
			m.merge(a.sigma, sigma)
			m.b.Axpy(1, a.mu, mu)
			merged++
			free <- a
		}
	}
	cancel()
	wg.Wait()
	if err != nil {
		return fmt.Errorf("%s: sampling pairs: %w", m.name, err)
	}

	m.b.Download(m.mu, mu)
	if !viewed {
		m.b.Download(m.sigma, sigma)
	}
	return m.finishMoments(len(shards))
}

// accumulateSparse is accumulate's sparse path (mbaSparse): the shards' rounds in shard
// order, each shard's pairs from its own random stream (mbaRand, as the parallel path
// draws them), every pair a sparse rank-one update of the upper triangle of m.sigma
// itself (Σ_S row j += s·z_j·z[j:]). A pair costs O(nnz²), but taken pair by pair its
// updates land on nnz rows scattered over d² values: on hashed click data (d = 8,192,
// Σ_S 537 MB) nearly every one a cache and TLB miss. So the pairs are drawn into blocks
// (mbaPairBlock) and each block is applied row by row: every row takes, in the pairs'
// order, the updates of the block's pairs that touch it, while it is in cache. Each
// value of Σ_S sees the same additions in the same order as pair by pair, so the bits
// are those of the pairwise loop; the rows are split among the cores (triangleRows),
// and the result does not depend on GOMAXPROCS. (The parallel path's d × d
// accumulator per worker, zeroed and merged once per shard, cost 64 full passes over
// Σ_S: on the same data 2 × 537 MB of accumulators and most of the time.)
func (m *MBA) accumulateSparse(ctx context.Context, ds *data.Dataset, pos, neg []int, shards [][2]int, scale float64) error {
	d, bsz := m.dim, m.p.B
	v := m.b.(kernels.Viewer) // mbaSparse: a host backend
	m.mu, m.sigma = make([]float64, d), make([]float64, d*d)
	sigma, mu := v.ViewMat(d, d, m.sigma), v.ViewMat(1, d, m.mu).Row(0)
	workers := 1
	if kernels.ConcurrencyOf(m.b) == kernels.Safe {
		workers = max(1, min(runtime.GOMAXPROCS(0), d/mbaRowsPerWorker))
	}
	bounds := triangleRows(d, workers)
	touchRows(m.sigma, d, workers)
	block := m.blockEntries
	if block <= 0 {
		block = mbaBlockEntries
	}
	blk := &mbaPairBlock{}
	apply := func() error { return m.applyPairs(ctx, blk, sigma, scale, bounds) }
	sc := &mbaScratch{ip: make([]int, bsz), in: make([]int, bsz), diff: make([]float64, d), seen: make([]bool, d)}
	// The pairs are drawn a group of shards at a time, a shard on each core (each from
	// its own stream), then taken into the block in shard order: where a shard's pairs
	// fit in about a block (the rows' mean non-zeros tell), else one by one.
	drawers := max(1, min(runtime.GOMAXPROCS(0), len(shards)))
	perShard := float64(m.p.T/len(shards)+1) * float64(bsz) * 2 * float64(ds.Nnz()) / float64(max(1, ds.Rows()))
	// take adds a pair to the block and to μ_S, and applies the block when it is full.
	take := func(z kernels.Sparse) error {
		blk.add(z)
		m.b.AxpySparse(scale, z, mu)
		if len(blk.idx) >= block {
			return apply()
		}
		return nil
	}
	if drawers == 1 || perShard > float64(block) {
		var err error
		for s, r := range shards {
			rng := mbaRand(m.seed, s)
			for range r[1] - r[0] {
				if err := ctx.Err(); err != nil {
					return err
				}
				sc.drawRound(rng, ds, pos, neg, func(z kernels.Sparse) {
					if err == nil {
						err = take(z)
					}
				})
				if err != nil {
					return err
				}
			}
		}
		return apply()
	}
	drawn := make([]mbaPairBlock, drawers)
	scs := make([]*mbaScratch, drawers)
	for k := range scs {
		scs[k] = &mbaScratch{ip: make([]int, bsz), in: make([]int, bsz), diff: make([]float64, d), seen: make([]bool, d)}
	}
	for g0 := 0; g0 < len(shards); g0 += drawers {
		if err := ctx.Err(); err != nil {
			return err
		}
		group := min(drawers, len(shards)-g0)
		var wg sync.WaitGroup
		for k := range group {
			wg.Go(func() {
				out, s := &drawn[k], g0+k
				out.reset()
				rng := mbaRand(m.seed, s)
				for range shards[s][1] - shards[s][0] {
					scs[k].drawRound(rng, ds, pos, neg, out.add)
				}
			})
		}
		wg.Wait()
		for k := range group {
			sb := &drawn[k]
			for e := 0; e < len(sb.idx); e = int(sb.end[e]) { // a pair with z = 0 adds nothing
				if err := take(kernels.Sparse{Idx: sb.idx[e:sb.end[e]], Val: sb.val[e:sb.end[e]]}); err != nil {
					return err
				}
			}
		}
	}
	return apply()
}

// drawRound draws one round's pairs from rng (mbaSample) and calls each with every
// pair's difference (pairDiff: valid until the next pair).
func (sc *mbaScratch) drawRound(rng *rand.Rand, ds *data.Dataset, pos, neg []int, each func(z kernels.Sparse)) {
	mbaSample(rng, len(pos), len(neg), sc.ip, sc.in)
	for i := range sc.ip {
		each(sc.pairDiff(ds.Row(pos[sc.ip[i]]), ds.Row(neg[sc.in[i]])))
	}
}

// touchRows writes the zeros of a new d × d matrix a, an equal share of its rows on
// each of workers goroutines, so that its pages are mapped in address order and on
// every core: taken first by the scattered updates of applyPairs, Σ_S's pages cost a
// fault each in random order, about half of the updates' time on the click data.
func touchRows(a []float64, d, workers int) {
	if workers == 1 {
		clear(a)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { clear(a[w*d/workers*d : (w+1)*d/workers*d]) })
	}
	wg.Wait()
}

// mbaBlockEntries is how many non-zeros of pairs' differences accumulateSparse draws
// before it applies them to Σ_S: about 24 MB of block, and on hashed click data some
// 130 pairs' updates to each row per block.
const mbaBlockEntries = 1 << 20

// mbaPairBlock is a block of sampled pairs' differences, flat in pair order: the entry
// e (a non-zero z_j of one pair's z) is idx[e], val[e], and its pair's entries from e on
// are idx[e:end[e]], val[e:end[e]]. byRow lists the entries by row j (rowStart[j] to
// rowStart[j+1]), each row's in pair order.
type mbaPairBlock struct {
	idx      []int32
	val      []float64
	end      []int32
	rowStart []int32
	byRow    []int32
}

// add appends a pair's difference z (ascending indices) to the block.
func (b *mbaPairBlock) add(z kernels.Sparse) {
	b.idx = append(b.idx, z.Idx...)
	b.val = append(b.val, z.Val...)
	e := int32(len(b.idx))
	for range z.Idx {
		b.end = append(b.end, e)
	}
}

// reset empties the block.
func (b *mbaPairBlock) reset() { b.idx, b.val, b.end = b.idx[:0], b.val[:0], b.end[:0] }

// applyPairs adds the block's pairs to the upper triangle of sigma (row j += scale·z_j·
// z[j:] for every pair z with z_j ≠ 0), the rows [bounds[w], bounds[w+1]) on goroutine w,
// each row's pairs in the block's order; then it empties the block.
func (m *MBA) applyPairs(ctx context.Context, b *mbaPairBlock, sigma kernels.Mat, scale float64, bounds []int) error {
	if len(b.idx) == 0 {
		return nil
	}
	d, _ := sigma.Dims()
	// A counting sort of the entries by row, stable: each row's in pair order.
	b.rowStart = slices.Grow(b.rowStart[:0], d+1)[:d+1]
	clear(b.rowStart)
	for _, j := range b.idx {
		b.rowStart[j+1]++
	}
	for j := range d {
		b.rowStart[j+1] += b.rowStart[j]
	}
	b.byRow = slices.Grow(b.byRow[:0], len(b.idx))[:len(b.idx)]
	next := slices.Clone(b.rowStart[:d])
	for e, j := range b.idx {
		b.byRow[next[j]] = int32(e)
		next[j]++
	}
	rows := func(lo, hi int) error {
		for j := lo; j < hi; j++ {
			if j%256 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			row := sigma.Row(j)
			for _, e := range b.byRow[b.rowStart[j]:b.rowStart[j+1]] {
				m.b.AxpySparse(scale*b.val[e], kernels.Sparse{Idx: b.idx[e:b.end[e]], Val: b.val[e:b.end[e]]}, row)
			}
		}
		return nil
	}
	workers := len(bounds) - 1
	var err error
	if workers == 1 {
		err = rows(0, d)
	} else {
		errs := make([]error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { errs[w] = rows(bounds[w], bounds[w+1]) })
		}
		wg.Wait()
		err = errors.Join(errs...)
	}
	b.reset()
	return err
}

// mbaRowsPerWorker is the fewest rows of Σ_S worth a goroutine of accumulateSparse.
const mbaRowsPerWorker = 256

// triangleRows splits the rows of a d × d upper triangle into workers ranges of about
// equal area (rows [b[w], b[w+1]) for worker w): the first rows are the longest.
func triangleRows(d, workers int) []int {
	b := make([]int, workers+1)
	for w := 1; w < workers; w++ {
		b[w] = int(float64(d) * (1 - math.Sqrt(1-float64(w)/float64(workers))))
	}
	b[workers] = d
	return b
}

// finishMoments mirrors m.sigma's upper triangle into its lower one, checks that Σ_S
// is finite and sets m.info for the shards' pairs. The mirror goes in square tiles (a
// column of the lower triangle written a row at a time would touch a page for every
// value), the tiles' block rows split among the cores; the first non-finite value in
// row-major order is always in the upper triangle (its mirror's row comes later), so
// the check reads the upper triangle alone and reports what a full scan would.
func (m *MBA) finishMoments(shards int) error {
	d, bsz := m.dim, m.p.B
	workers := 1
	if d >= 2*mbaRowsPerWorker {
		workers = runtime.GOMAXPROCS(0)
	}
	// Each worker takes the block rows bounds[w] ≤ bi < bounds[w+1] (in tiles).
	const tile = 64
	tiles := (d + tile - 1) / tile
	workers = min(workers, tiles)
	bounds := triangleRows(tiles, workers)
	first := make([]int, workers)
	mirror := func(w int) {
		first[w] = -1
		for bi := bounds[w] * tile; bi < min(bounds[w+1]*tile, d); bi += tile {
			for bj := bi; bj < d; bj += tile {
				for i := bi; i < min(bi+tile, d); i++ {
					row := m.sigma[i*d : (i+1)*d]
					for j := max(i, bj); j < min(bj+tile, d); j++ {
						v := row[j]
						m.sigma[j*d+i] = v
						if (math.IsNaN(v) || math.IsInf(v, 0)) && (first[w] < 0 || i*d+j < first[w]) {
							first[w] = i*d + j
						}
					}
				}
			}
		}
	}
	if workers == 1 {
		mirror(0)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { mirror(w) })
		}
		wg.Wait()
	}
	for _, i := range first {
		if i >= 0 {
			return fmt.Errorf("%s: %w: Σ_S[%d,%d] = %v (non-finite feature values?)", m.name, ErrDiverged, i/d, i%d, m.sigma[i])
		}
	}
	var lmax float64
	for _, v := range m.mu {
		lmax = math.Max(lmax, math.Abs(v))
	}
	m.info = MBAInfo{Pairs: int64(bsz) * int64(m.p.T), Shards: shards, LambdaMax: lmax}
	return nil
}

// merge adds the upper triangle of a shard's Σ into sigma: row by row, or on a
// kernels.Flattener backend (a GPU) as one Axpy over the whole d×d matrices, d launches
// fewer (with 64 shards at d = 2,000, 128,000 Axpy calls took most of Σ_S's time on an
// H200). The strictly lower triangles are zero in both, as NewMat made them and Syrk
// never writes there, and x + 1·y rounds alike in either grouping: the same bits.
func (m *MBA) merge(shard, sigma kernels.Mat) {
	if f, ok := m.b.(kernels.Flattener); ok {
		src, ok1 := f.Flat(shard)
		dst, ok2 := f.Flat(sigma)
		if ok1 && ok2 {
			m.b.Axpy(1, src, dst)
			return
		}
	}
	d, _ := sigma.Dims()
	for i := range d {
		m.b.Axpy(1, shard.Row(i).Slice(i, d), sigma.Row(i).Slice(i, d))
	}
}

// residentX returns ds's dense matrix on the backend, for RowDiff to gather each
// round's differences from, when it is dense with the learner's dimension: a view of
// ds's own rows on a host backend (kernels.Viewer: no copy, whatever its size), else a
// copy uploaded in one call when n·d is within the resident limit. It
// returns nil otherwise, and when the limit is negative.
func (m *MBA) residentX(ds *data.Dataset) kernels.Mat {
	limit := m.resident
	if limit == 0 {
		limit = MBAResidentElements
	}
	n, d := ds.Rows(), m.dim
	if !ds.IsDense() || ds.Dim != d || limit < 0 {
		return nil
	}
	if v, ok := m.b.(kernels.Viewer); ok {
		return v.ViewMat(n, d, ds.Dense[:n*d])
	}
	if int64(n)*int64(d) > limit {
		return nil
	}
	x := m.b.NewMat(n, d)
	m.b.Upload(x, ds.Dense[:n*d]) // one upload: a device backend stages and overlaps it
	return x
}

// shard accumulates rounds [r[0], r[1]) into acc (overwriting it). With x (ds resident
// on the backend) each round's differences are gathered there from the pairs' row
// indices; otherwise they are built on the host and uploaded.
func (m *MBA) shard(ctx context.Context, ds *data.Dataset, x kernels.Mat, pos, neg []int, r [2]int, rng *rand.Rand,
	scale float64, acc *mbaAcc, sc *mbaScratch) error {
	d := m.dim
	dense := ds.IsDense() && ds.Dim == d
	for t := r[0]; t < r[1]; t++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		mbaSample(rng, len(pos), len(neg), sc.ip, sc.in)
		if x != nil {
			for i := range sc.ip {
				sc.pi[i], sc.ni[i] = int32(pos[sc.ip[i]]), int32(neg[sc.in[i]])
			}
			m.b.RowDiff(x, sc.pi, sc.ni, sc.block)
		} else {
			m.hostBlock(ds, dense, pos, neg, sc)
			m.b.Upload(sc.block, sc.host)
		}
		beta := 1.0
		if t == r[0] {
			beta = 0 // overwrite the recycled buffer
		}
		m.b.Syrk(scale, sc.block, beta, acc.sigma)
		m.b.Gemv(true, scale, sc.block, sc.ones, beta, acc.mu)
	}
	return nil
}

// pairDiff returns the difference xp − xq of two sparse rows as a sparse vector with
// ascending indices and no zeros (values computed as hostBlock computes them), in
// sc.z's storage.
func (sc *mbaScratch) pairDiff(xp, xq kernels.Sparse) kernels.Sparse {
	idx := sc.z.Idx[:0]
	for _, r := range [2]struct {
		x    kernels.Sparse
		sign float64
	}{{xp, 1}, {xq, -1}} {
		for k, j := range r.x.Idx {
			if !sc.seen[j] {
				sc.seen[j] = true
				idx = append(idx, j)
			}
			sc.diff[j] += r.sign * r.x.Val[k]
		}
	}
	slices.Sort(idx)
	val, out := sc.z.Val[:0], idx[:0]
	for _, j := range idx {
		v := sc.diff[j]
		sc.diff[j], sc.seen[j] = 0, false
		if v != 0 {
			out = append(out, j)
			val = append(val, v)
		}
	}
	sc.z = kernels.Sparse{Idx: out, Val: val}
	return sc.z
}

// hostBlock builds a round's differences X[pos[ip[i]]] − X[neg[in[i]]] in sc.host.
func (m *MBA) hostBlock(ds *data.Dataset, dense bool, pos, neg []int, sc *mbaScratch) {
	d := m.dim
	for i := range sc.ip {
		row := sc.host[i*d : (i+1)*d]
		p, q := pos[sc.ip[i]], neg[sc.in[i]]
		if dense {
			xp, xq := ds.DenseRow(p), ds.DenseRow(q)
			for j := range row {
				row[j] = xp[j] - xq[j]
			}
			continue
		}
		clear(row)
		xp, xq := ds.Row(p), ds.Row(q)
		for k, j := range xp.Idx {
			row[j] += xp.Val[k]
		}
		for k, j := range xq.Idx {
			row[j] -= xq.Val[k]
		}
	}
}

// solveCholesky sets w to the solution of (Σ_S + λ₂I) w = μ_S through the Cholesky
// factorisation UᵀU (stats.CholeskySolve: blocked, the trailing updates by the
// backend's Syrk); a matrix that is not positive definite, or whose condition number
// (LAPACK's estimate, as gonum's mat.Cholesky makes it) exceeds 10¹⁴, is refused.
func (m *MBA) solveCholesky(ctx context.Context, l2 float64) error {
	d := m.dim
	m.restoreSigma()
	// The factorisation works in Σ_S's upper triangle (Σ_S + λ₂I, then U) and keeps
	// its diagonal apart: no second d × d matrix (537 MB at d = 8,192).
	m.sigmaDiag = make([]float64, d)
	for i := range d {
		m.sigmaDiag[i] = m.sigma[i*d+i]
	}
	w, c, err := stats.CholeskySolve(ctx, m.b, m.sigma, d, l2, m.mu)
	if errors.Is(err, stats.ErrSingular) {
		return fmt.Errorf("%s: Σ_S + λ₂I with λ₂ = %g is not positive definite (a constant or duplicated feature?): %w; set lambda2 > 0",
			m.name, l2, stats.ErrSingular)
	}
	if err != nil {
		return err
	}
	if c > 1e14 {
		return fmt.Errorf("%s: Σ_S + λ₂I with λ₂ = %g has condition number %.3g (a constant or duplicated feature?): %w; set lambda2 > 0 or increase it",
			m.name, l2, c, stats.ErrSingular)
	}
	copy(m.w, w)
	return nil
}

// restoreSigma makes sigma Σ_S again after solveCholesky factorised it in place: the
// diagonal from sigmaDiag, the upper triangle from the lower (its mirror, the same
// bits).
func (m *MBA) restoreSigma() {
	if m.sigmaDiag == nil {
		return
	}
	d := m.dim
	for i := range d {
		m.sigma[i*d+i] = m.sigmaDiag[i]
		for j := i + 1; j < d; j++ {
			m.sigma[i*d+j] = m.sigma[j*d+i]
		}
	}
	m.sigmaDiag = nil
}

// solveCD minimises ½wᵀΣ_S w − wᵀμ_S + λ₁‖w‖₁ + (λ₂/2)‖w‖² by cyclic coordinate
// descent from the current w,
//
//	w_j ← soft(μ_j − Σ_{k≠j} Σ_jk w_k, λ₁) / (Σ_jj + λ₂)
//
// keeping q = Σ_S w up to date (O(d) per changed coordinate). A full sweep is followed by
// sweeps over the non-zero coordinates until they settle, then a full sweep again; it
// stops when a full sweep changes no weight by more than Tol·max|w| (capped = false),
// or after MaxIter sweeps in all (capped = true; not an error).
func (m *MBA) solveCD(ctx context.Context, l1, l2 float64) (sweeps int, capped bool, err error) {
	m.restoreSigma()
	d, sig, mu, w := m.dim, m.sigma, m.mu, m.w
	q := make([]float64, d)
	for i := range d {
		if w[i] != 0 {
			row := sig[i*d : (i+1)*d] // column i, by symmetry
			for k, v := range row {
				q[k] += v * w[i]
			}
		}
	}
	all := make([]int, d)
	for j := range all {
		all[j] = j
	}
	// sweep updates the coordinates idx once each and reports whether the largest
	// change was within the tolerance.
	sweep := func(idx []int) (bool, error) {
		var maxDelta, maxW float64
		for _, j := range idx {
			den := sig[j*d+j] + l2
			r := mu[j] - (q[j] - sig[j*d+j]*w[j])
			var nw float64
			switch {
			case den > 0:
				nw = soft(r, l1) / den
			case math.Abs(r) > l1:
				return false, fmt.Errorf("%s: %w: the objective is unbounded along feature %d (Σ_jj + λ₂ = 0); set lambda2 > 0",
					m.name, stats.ErrSingular, j)
			}
			if delta := nw - w[j]; delta != 0 {
				row := sig[j*d : (j+1)*d]
				for k, v := range row {
					q[k] += delta * v
				}
				w[j] = nw
				maxDelta = math.Max(maxDelta, math.Abs(delta))
			}
		}
		for _, v := range w {
			maxW = math.Max(maxW, math.Abs(v))
		}
		return maxDelta <= m.p.Tol*maxW, nil
	}
	var active []int
	for sweeps < m.p.MaxIter {
		if err := ctx.Err(); err != nil {
			return sweeps, false, fmt.Errorf("%s: coordinate descent: %w", m.name, err)
		}
		ok, err := sweep(all)
		sweeps++
		if ok || err != nil {
			return sweeps, false, err
		}
		active = active[:0]
		for j, v := range w {
			if v != 0 {
				active = append(active, j)
			}
		}
		for sweeps < m.p.MaxIter {
			ok, err := sweep(active)
			sweeps++
			if ok || err != nil {
				if err != nil {
					return sweeps, false, err
				}
				break
			}
			if sweeps%64 == 0 {
				if err := ctx.Err(); err != nil {
					return sweeps, false, fmt.Errorf("%s: coordinate descent: %w", m.name, err)
				}
			}
		}
	}
	return sweeps, true, nil
}

// soft is the soft-threshold sign(x)·max(|x| − t, 0).
func soft(x, t float64) float64 {
	switch {
	case x > t:
		return x - t
	case x < -t:
		return x + t
	}
	return 0
}

// The MBA Specs share their state: one d×d accumulator per worker, the merged Σ and
// its factor, two B×d blocks. Their data-scaled defaults take every pair where that is
// the cheaper estimate (pairs=auto: n ≤ B·T), besides the ridge or lasso weight. On the
// dense 50,000 × 2,000 set of issue 15 (bench/dataload.sh, from its cache): the static
// 10⁵ sampled pairs, 6.6 s of training and test AUC .9264; every pair 3.9 s and .9282
// (LIBLINEAR .9289).

// mbaL2Spec is MBA's Spec with the ridge (Cholesky).
func mbaL2Spec() Spec {
	s := mbaSpec(batch("mba-l2", "mini-batch AUC via U-statistics of sampled pairs, ridge (Cholesky)", "Gultekin et al., Alg. 1",
		DefaultMBAL2Params, MBAL2Grid, NewMBAL2))
	withDefaults(&s, func(f DataFacts, p *MBAParams) {
		p.Lambda2, p.Pairs = ridgeSquare*f.RidgeScale(), MBAPairsAuto
	})
	return s
}

// mbaL1Spec is MBA's Spec with the lasso (coordinate descent).
func mbaL1Spec() Spec {
	s := mbaSpec(batch("mba-l1", "mini-batch AUC via U-statistics of sampled pairs, lasso (coordinate descent)", "Gultekin et al., Alg. 1",
		DefaultMBAL1Params, MBAL1Grid, NewMBA))
	withDefaults(&s, func(f DataFacts, p *MBAParams) {
		p.Lambda1, p.Pairs = ridgeLasso*f.RidgeScale(), MBAPairsAuto
	})
	return s
}

// mbaELSpec is MBA's Spec with the elastic net (coordinate descent): half of each
// weight, as its static defaults take.
func mbaELSpec() Spec {
	s := mbaSpec(batch("mba-el", "mini-batch AUC via U-statistics of sampled pairs, elastic net (coordinate descent)", "Gultekin et al., Alg. 1",
		DefaultMBAELParams, MBAELGrid, NewMBA))
	withDefaults(&s, func(f DataFacts, p *MBAParams) {
		p.Lambda1, p.Lambda2 = ridgeLasso*f.RidgeScale()/2, ridgeSquare*f.RidgeScale()/2
		p.Pairs = MBAPairsAuto
	})
	return s
}

// mbaSpec adds what the MBA Specs share to s: the device limit and the state size.
func mbaSpec(s Spec) Spec {
	s.DeviceValues = deviceMBA
	withState(&s, func(d, _ float64, p *MBAParams) float64 { return 4*d*d + 2*float64(p.B)*d + 8*d })
	return s
}
