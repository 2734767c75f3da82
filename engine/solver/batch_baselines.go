package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/kernels"
)

// This file holds the batch baselines of the papers' tables (docs/ALGORITHMS.md, "Univariate
// and other baselines" and "MBA"): B-LS-SVM (the exact pairwise square-loss minimiser,
// trained), batch Uni-Log (class-weighted logistic regression: unilog.go) and MB-PSL /
// MB-PHL (mini-batch gradient descent on sampled pairs). B-SVM-OR is in svmor.go.
//
// References:
//
//	W. Gao, R. Jin, S. Zhu, Z.-H. Zhou. One-pass AUC optimization. ICML 2013, Section 5
//	(batch Uni-Log, batch SVM-OR, batch LS-SVM).
//	W. Kotłowski, K. Dembczyński, E. Hüllermeier. Bipartite ranking through
//	minimization of univariate loss. ICML 2011 (Uni-Log).
//	S. Gultekin, A. Saha, A. Ratnaparkhi, J. Paisley. MBA: mini-batch AUC optimization.
//	Section V (the MB-PSL and MB-PHL baselines).

// batchClasses validates a training set for a batch learner made for dim features and
// returns its class counts. Every label must be ±1, the rows' dimension at most dim,
// and both classes present, of positive total sample weight (else an error wrapping
// ErrOneClass). A learner that takes no sample weights checks them itself
// (checkSampleWeights).
func batchClasses(name string, ds *data.Dataset, dim int) (pos, neg int, err error) {
	if ds.Dim > dim {
		return 0, 0, fmt.Errorf("%s: dataset %s has dimension %d, the learner %d", name, ds.Name, ds.Dim, dim)
	}
	pos, neg = ds.Counts()
	if pos+neg != ds.Rows() {
		return 0, 0, fmt.Errorf("%s: dataset %s has %d rows labelled neither +1 nor −1", name, ds.Name, ds.Rows()-pos-neg)
	}
	if pos == 0 || neg == 0 {
		return 0, 0, fmt.Errorf("%s: %s: %w (%d positives, %d negatives)", name, ds.Name, ErrOneClass, pos, neg)
	}
	if !ds.UnitWeights() {
		if wp, wn := ds.WeightSums(); !(wp > 0) || !(wn > 0) {
			return 0, 0, fmt.Errorf("%s: %s: %w (the positives' sample weights sum to %g, the negatives' to %g)", name, ds.Name, ErrOneClass, wp, wn)
		}
	}
	return pos, neg, nil
}

// finite reports whether every element of w is finite.
func finite(w []float64) bool {
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// batchRows serves a training set's rows to a batch learner on its backend: the scores
// X·w and the combinations Xᵀ·c, over all rows or a list of rows. A dense dataset, or
// a sparse one at least data.DenseAuto full (where the dense copy is no larger), is
// uploaded once as an n×dim Mat, so that each product is one Gemv or GemvRows (the
// backend's work); a sparser one stays on the host and costs O(nnz) by DotSparse and
// AxpySparse row by row.
type batchRows struct {
	b     kernels.Backend
	ds    *data.Dataset
	dim   int
	x     kernels.Mat // the dense rows (n×dim, zero-padded past ds.Dim); nil when sparse
	sv    kernels.Vec // scratch: scores (n)
	cv    kernels.Vec // scratch: coefficients (n)
	zeros []float64   // dim zeros, to clear a Vec without reading it
}

func newBatchRows(b kernels.Backend, ds *data.Dataset, dim int) *batchRows {
	r := &batchRows{b: b, ds: ds, dim: dim}
	if ds.IsDense() || ds.Density() >= data.DenseAuto {
		n := ds.Rows()
		r.x = b.NewMat(n, dim)
		if ds.Dim > 0 {
			dense := ds.Dense
			if dense == nil {
				dense = ds.ToDense().Dense
			}
			if ds.Dim == dim {
				b.Upload(r.x, dense)
			} else {
				b.Upload(r.x.Slice(0, n, 0, ds.Dim), dense)
			}
		}
		r.sv, r.cv = b.NewVec(n), b.NewVec(n)
	} else {
		r.zeros = make([]float64, dim)
	}
	return r
}

// scratch returns the first k elements of the device vector *v, made longer first
// when it holds fewer: a gather of more rows than the data has (MB-PSL's B pairs on a
// set of fewer than B rows) reads rows more than once.
func (r *batchRows) scratch(v *kernels.Vec, k int) kernels.Vec {
	if (*v).Len() < k {
		*v = r.b.NewVec(k)
	}
	return (*v).Slice(0, k)
}

// scores sets out[k] = alpha·w·x_{rows[k]} (all rows in order when rows is nil).
func (r *batchRows) scores(alpha float64, w kernels.Vec, rows []int32, out []float64) {
	if r.x != nil {
		s := r.scratch(&r.sv, len(out))
		if rows == nil {
			r.b.Gemv(false, alpha, r.x, w, 0, s)
		} else {
			r.b.GemvRows(false, alpha, r.x, rows, w, 0, s)
		}
		r.b.Download(out, s)
		return
	}
	for k := range out {
		i := k
		if rows != nil {
			i = int(rows[k])
		}
		out[k] = alpha * r.b.DotSparse(r.ds.Row(i), w)
	}
}

// combine sets g = alpha·Σ_k coef[k]·x_{rows[k]} + beta·g (all rows when rows is nil;
// beta 0 or 1; with beta 0, g is not read).
func (r *batchRows) combine(alpha float64, rows []int32, coef []float64, beta float64, g kernels.Vec) {
	if r.x != nil {
		c := r.scratch(&r.cv, len(coef))
		r.b.Upload(c, coef)
		if rows == nil {
			r.b.Gemv(true, alpha, r.x, c, beta, g)
		} else {
			r.b.GemvRows(true, alpha, r.x, rows, c, beta, g)
		}
		return
	}
	if beta == 0 {
		r.b.Upload(g, r.zeros)
	}
	for k, ck := range coef {
		if ck == 0 {
			continue
		}
		i := k
		if rows != nil {
			i = int(rows[k])
		}
		r.b.AxpySparse(alpha*ck, r.ds.Row(i), g)
	}
}

// ---------------------------------------------------------------------------------
// B-LS-SVM

// LSAUCParams are the hyper-parameters of B-LS-SVM, the exact minimiser of the
// regularised pairwise square loss. Start from DefaultLSAUCParams.
type LSAUCParams struct {
	// Lambda is the ℓ2 weight λ ≥ 0 of the ORACLE system (S₊ + S₋ + δδᵀ + λI) w = δ;
	// 0 is allowed when the system is non-singular. Default 10⁻⁴. Grid 10^[-5..1].
	Lambda float64 `param:"lambda"`
	// Steps, when positive, stops at that many steps of the conjugate gradients
	// (fitCG, at any number of features) from w = 0 instead of solving exactly: early
	// stopping, a regularisation of its own (the preconditioned steps take the
	// directions the diagonal-scaled data favour first; on sector, 6,412 × 55,197,
	// 7–10 steps at λ = 10⁻⁴ give a test AUC of .990 where the exact minimiser gives
	// .972). 0, the default, is the exact minimiser. Range 0 to 10,000.
	Steps int `param:"steps"`
}

// DefaultLSAUCParams returns B-LS-SVM's defaults.
func DefaultLSAUCParams() LSAUCParams { return LSAUCParams{Lambda: 1e-4} }

// LSAUCGrid is B-LS-SVM's grid (the papers tune it by cross-validation without
// printing a grid; this is the project's).
var LSAUCGrid = Grid{Keys: []string{"lambda"}, Values: [][]float64{Pow10(-5, 1)}}

func (p LSAUCParams) check() error {
	if err := Check(p.Steps >= 0 && p.Steps <= 10_000, "steps", p.Steps, "an integer from 0 to 10,000"); err != nil {
		return err
	}
	return Check(p.Lambda >= 0 && !math.IsInf(p.Lambda, 0), "lambda", p.Lambda, "a finite number ≥ 0")
}

// lsaucBlockRows is the number of rows of one class densified into a block for one
// Moments.AddBlock (one Syrk) at dimension d: 256 below 1,024 features, where the d×d
// scatter stays in the caches; from 1,024 on, 2²¹ values (16 MB) but at most 1,024
// rows and at least 256. Each block's Syrk reads and writes the scatter, and each
// merge of its mean is a rank-one update of it: on 50,000 × 2,000 dense rows blocks
// of 1,024 rows take 2.4 s where blocks of 256 took 3.0 s.
func lsaucBlockRows(d int) int {
	if d < 1024 {
		return 256
	}
	return max(256, min(1024, 1<<21/d))
}

// LSAUC is B-LS-SVM (the papers' "batch LS-SVM"): the exact minimiser of
//
//	L(w) = 1/(2 n₊ n₋) Σ_{i∈+} Σ_{j∈−} (1 − w·(x_i − x_j))²  +  (λ/2)‖w‖²,
//
// from one pass over the data: the per-class moments, accumulated block by block
// (Moments.AddBlock, a Syrk per block of densified rows), then the d×d system
//
//	(S₊ + S₋ + δδᵀ + λI) w = δ        (docs/ALGORITHMS.md, "ORACLE")
//
// by Cholesky (stats.Oracle). Memory O(d²); time O(n·d²) on the backend plus O(d³).
// Above LSAUCDirectMax features it solves the same system by conjugate gradients on the
// rows instead (fitCG): memory O(d + n), O(nnz) a step. Below, on rows a host backend
// reads in place, it tries conjugate gradients first for as many steps as cost half
// the moments' Syrk (cgFirstSteps): dense rows from about 1,024 features, or sparse rows
// (hashed click-through data, 8,192 buckets: 30,000 rows 37 → 0.26 s), whose Syrk
// would densify every row; a system that does not converge in them is solved directly.
type LSAUC struct {
	b   kernels.Backend
	dim int
	p   LSAUCParams
	w   []float64
	// cgMaxIter bounds fitCG's steps (0: lsaucCGMaxIter; tests lower it).
	cgMaxIter int
}

// NewLSAUC makes a B-LS-SVM learner over dim features. seed is unused (the method is
// deterministic); it is there for the uniform constructor shape.
func NewLSAUC(b kernels.Backend, dim int, p LSAUCParams, seed uint64) (*LSAUC, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &LSAUC{b: b, dim: dim, p: p, w: make([]float64, dim)}, nil
}

// Fit computes the class moments of ds and solves the ORACLE system. It returns an
// error wrapping stats.ErrSingular when λ = 0 and the system is singular.
func (l *LSAUC) Fit(ctx context.Context, ds *data.Dataset) error {
	return l.FitOrdered(ctx, ds, nil)
}

// ReadsInPlace reports true: B-LS-SVM reads the rows where they lie in any order.
func (l *LSAUC) ReadsInPlace(rows int) bool { return true }

// FitOrdered is Fit(ctx, ds.Subset(order)) without the copy (order nil: ds's own
// order): bit for bit by the class moments; by conjugate gradients (wide data, Steps,
// or tried first: cgFirstSteps) the rows are read as stored whatever the order
// (newSquareOp), so the bits are the same for any order and the copy's to rounding.
func (l *LSAUC) FitOrdered(ctx context.Context, ds *data.Dataset, order []int) error {
	if _, _, err := batchClasses("ls-auc", ds, l.dim); err != nil {
		return err
	}
	if l.wide() || l.p.Steps > 0 {
		return l.fitCG(ctx, ds)
	}
	if budget := cgFirstSteps(l.b, ds, l.dim); budget > 0 {
		err := l.cgPath(ctx, ds, nil, true, budget, func(_ int, w []float64) { l.w = w })
		if nc := (*cgUnconverged)(nil); !errors.As(err, &nc) {
			return err
		}
	}
	pos, neg, err := classMoments(ctx, l.b, ds, order, l.dim)
	if err != nil {
		return err
	}
	return l.FitMoments(ctx, pos, neg)
}

// ClassMoments is the class moments of ds's rows order (nil: all, as stored) at
// dimension d, as LSAUC.FitOrdered and MBA's accumulate them (classMoments): the
// moments of ds.Subset(order), bit for bit, without the copy. order may name any rows,
// a subset among them.
func ClassMoments(ctx context.Context, b kernels.Backend, ds *data.Dataset, order []int, d int) (pos, neg *stats.Moments, err error) {
	return classMoments(ctx, b, ds, order, d)
}

// classMoments accumulates the moments of ds's positive and negative rows at dimension
// d, taken in order (nil: as stored; or any rows, a subset), block by block
// (Moments.AddBlock, a Syrk per block of lsaucBlockRows(d) densified rows of one class;
// AddBlockWeighted on the rows times √w_i when ds has sample weights other than all 1).
// The rows are read where
// they lie: classMoments(ds, order) equals classMoments(ds.Subset(order), nil) bit for
// bit. On a host backend (kernels.Viewer) the blocks are built in the backend's own
// matrices; a large block's rows are copied in on all cores (fillBlock).
func classMoments(ctx context.Context, b kernels.Backend, ds *data.Dataset, order []int, d int) (pos, neg *stats.Moments, err error) {
	var mom [2]*stats.Moments // [0] negatives, [1] positives
	var blk [2]kernels.Mat
	var host [2][]float64
	var rows [2][]int // the rows of each class's block being gathered
	viewer, view := b.(kernels.Viewer)
	bs := lsaucBlockRows(d)
	for c := range mom {
		mom[c] = stats.NewMoments(b, d)
		host[c] = make([]float64, bs*d)
		rows[c] = make([]int, 0, bs)
		if view {
			blk[c] = viewer.ViewMat(bs, d, host[c])
		} else {
			blk[c] = b.NewMat(bs, d)
		}
	}
	sw := sampleWeights(ds) // nil: unweighted, AddBlock's bits
	var bw []float64
	flush := func(c int) {
		k := len(rows[c])
		if k == 0 {
			return
		}
		fillBlock(host[c][:k*d], ds, rows[c], d)
		if sw != nil { // each row times √w_i for AddBlockWeighted
			bw = bw[:0]
			for q, i := range rows[c] {
				bw = append(bw, sw[i])
				s := math.Sqrt(sw[i])
				for j := range host[c][q*d : (q+1)*d] {
					host[c][q*d+j] *= s
				}
			}
		}
		m := blk[c].Slice(0, k, 0, d)
		if !view {
			b.Upload(m, host[c][:k*d])
		}
		if sw != nil {
			mom[c].AddBlockWeighted(m, bw)
		} else {
			mom[c].AddBlock(m)
		}
		rows[c] = rows[c][:0]
	}
	n := ds.Rows()
	if order != nil {
		n = len(order)
	}
	for r := range n {
		if r%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
		}
		i := r
		if order != nil {
			i = order[r]
		}
		c := 0
		if ds.Y[i] == 1 {
			c = 1
		}
		if rows[c] = append(rows[c], i); len(rows[c]) == bs {
			flush(c)
		}
	}
	flush(0)
	flush(1)
	return mom[1], mom[0], nil
}

// fillBlockParallel is the number of values of a block from which fillBlock copies on
// all cores (an 800 MB dense set spent 0.10–0.15 s in the copy on one).
const fillBlockParallel = 1 << 17

// fillBlock densifies ds's rows into the len(rows)×d row-major dst (features beyond a
// row's own are 0), in parts on all cores for a large block: a copy, the same bits
// whatever the split.
func fillBlock(dst []float64, ds *data.Dataset, rows []int, d int) {
	fill := func(lo, hi int) {
		for q := lo; q < hi; q++ {
			row := dst[q*d : (q+1)*d]
			if dr := ds.DenseRow(rows[q]); dr != nil {
				copy(row, dr)
				clear(row[len(dr):])
				continue
			}
			clear(row)
			x := ds.Row(rows[q])
			for k, j := range x.Idx {
				row[j] = x.Val[k]
			}
		}
	}
	parts := min(runtime.GOMAXPROCS(0), len(rows)*d/fillBlockParallel)
	if parts < 2 {
		fill(0, len(rows))
		return
	}
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { fill(p*len(rows)/parts, (p+1)*len(rows)/parts) })
	}
	wg.Wait()
}

// FitMoments solves the ORACLE system from the class moments alone (of dimension at
// most the learner's; missing trailing features are 0 in every row), as the
// out-of-core and distributed paths accumulate them. Fit is classMoments then
// FitMoments.
func (l *LSAUC) FitMoments(ctx context.Context, pos, neg *stats.Moments) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if pos.Dim() > l.dim || neg.Dim() > l.dim {
		return fmt.Errorf("ls-auc: moments of dimension %d, the learner %d", max(pos.Dim(), neg.Dim()), l.dim)
	}
	if pos.Dim() < l.dim {
		pos = pos.Resize(l.dim)
	}
	if neg.Dim() < l.dim {
		neg = neg.Resize(l.dim)
	}
	if pos.N() == 0 || neg.N() == 0 {
		return fmt.Errorf("ls-auc: %w (%d positives, %d negatives)", ErrOneClass, pos.N(), neg.N())
	}
	w, err := stats.Oracle(ctx, pos, neg, l.p.Lambda)
	if err != nil {
		return fmt.Errorf("ls-auc: %w", err)
	}
	if !finite(w) {
		return fmt.Errorf("ls-auc: %w: the solution of the square-loss system is not finite", ErrDiverged)
	}
	l.w = w
	return nil
}

// MomentsOnly reports whether the learner trains from the class moments: the exact
// minimiser up to LSAUCDirectMax features (above, or with Steps, it needs the rows:
// fitCG).
func (l *LSAUC) MomentsOnly() bool { return !l.wide() && l.p.Steps == 0 }

// Weights returns a copy of w (zeros before Fit).
func (l *LSAUC) Weights() []float64 { return append([]float64(nil), l.w...) }

// hostDot is a·b in index order, on the host.
func hostDot(a, b []float64) float64 {
	var s float64
	for k := range a {
		s += a[k] * b[k]
	}
	return s
}

func infNorm(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = max(m, math.Abs(v))
	}
	return m
}

// ---------------------------------------------------------------------------------
// MB-PSL and MB-PHL

// MBPairParams are the hyper-parameters of MB-PSL and MB-PHL. Start from
// DefaultMBPSLParams or DefaultMBPHLParams.
type MBPairParams struct {
	// Eta is the initial step η₀ > 0; iteration t steps η₀/√t; η₀·λ < 1. Default 2⁻⁶
	// (PSL) and 2⁻² (PHL). Grid 2^[-10..2].
	Eta float64 `param:"eta"`
	// B is the number of pairs per mini-batch (≥ 1). Default 100.
	B int `param:"B"`
	// T is the number of iterations (≥ 1). Default 2000.
	T int `param:"T"`
	// Lambda is the ℓ2 weight λ ≥ 0. Default 10⁻⁴. Grid {0, 10^[-6..-2]}.
	Lambda float64 `param:"lambda"`
}

// DefaultMBPSLParams returns MB-PSL's defaults.
func DefaultMBPSLParams() MBPairParams {
	return MBPairParams{Eta: 0x1p-6, B: 100, T: 2000, Lambda: 1e-4}
}

// DefaultMBPHLParams returns MB-PHL's defaults.
func DefaultMBPHLParams() MBPairParams {
	return MBPairParams{Eta: 0x1p-2, B: 100, T: 2000, Lambda: 1e-4}
}

// MBPairGrid is the grid of MB-PSL and MB-PHL (the MBA paper tunes their O(1/√t) step;
// the grid here is the project's).
var MBPairGrid = Grid{
	Keys:   []string{"eta", "lambda"},
	Values: [][]float64{Pow2(-10, 2), append([]float64{0}, Pow10(-6, -2)...)},
}

func (p MBPairParams) check() error {
	for _, err := range []error{
		Check(p.Eta > 0 && !math.IsInf(p.Eta, 0), "eta", p.Eta, "a finite number > 0"),
		Check(p.B >= 1, "B", p.B, "≥ 1"),
		Check(p.T >= 1, "T", p.T, "≥ 1"),
		Check(p.Lambda >= 0 && !math.IsInf(p.Lambda, 0), "lambda", p.Lambda, "a finite number ≥ 0"),
		Check(p.Eta*p.Lambda < 1, "eta*lambda", p.Eta*p.Lambda, "< 1 (the ℓ2 shrink 1 − η·λ must stay positive)"),
	} {
		if err != nil {
			return err
		}
	}
	return nil
}

// MBPair is MB-PSL or MB-PHL, the MBA paper's mini-batch baselines: at iteration
// t = 1..T it samples B positives and B negatives uniformly with replacement, pairs
// them index-wise (z_k = x₊_k − x₋_k, as MBA does) and takes a gradient step of size
// η_t = η₀/√t on
//
//	MB-PSL:  (1/2B) Σ_k (1 − w·z_k)²  + (λ/2)‖w‖²
//	MB-PHL:  (1/B)  Σ_k [1 − w·z_k]₊  + (λ/2)‖w‖²
//
// (the hinge's subgradient at the kink is 0), that is
//
//	w ← (1 − η_t λ) w + (η_t/B) Σ_k r_k z_k,   r_k = 1 − w·z_k (PSL), I[w·z_k < 1] (PHL).
//
// MB-PSL's objective has the ORACLE's minimiser in expectation. The weights are kept as
// s·v (lazy ℓ2 scaling), so a sparse pair costs O(nnz); on a dense dataset a batch's
// scores and step are GemvRows calls. The output is the last iterate.
type MBPair struct {
	b     kernels.Backend
	dim   int
	p     MBPairParams
	hinge bool
	seed  uint64
	w     []float64
}

// NewMBPSL makes an MB-PSL learner (pairwise square loss) over dim features; seed
// drives the pair sampling.
func NewMBPSL(b kernels.Backend, dim int, p MBPairParams, seed uint64) (*MBPair, error) {
	return newMBPair(b, dim, p, seed, false)
}

// NewMBPHL makes an MB-PHL learner (pairwise hinge loss) over dim features; seed
// drives the pair sampling.
func NewMBPHL(b kernels.Backend, dim int, p MBPairParams, seed uint64) (*MBPair, error) {
	return newMBPair(b, dim, p, seed, true)
}

func newMBPair(b kernels.Backend, dim int, p MBPairParams, seed uint64, hinge bool) (*MBPair, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return &MBPair{b: b, dim: dim, p: p, hinge: hinge, seed: seed, w: make([]float64, dim)}, nil
}

func (m *MBPair) name() string {
	if m.hinge {
		return "mb-phl"
	}
	return "mb-psl"
}

// Fit runs T mini-batch steps from w = 0. The same seed gives the same weights.
func (m *MBPair) Fit(ctx context.Context, ds *data.Dataset) error {
	if err := checkSampleWeights(m.name(), Params{}, ds); err != nil {
		return err
	}
	if _, _, err := batchClasses(m.name(), ds, m.dim); err != nil {
		return err
	}
	var posIdx, negIdx []int32
	for i, y := range ds.Y {
		if y == 1 {
			posIdx = append(posIdx, int32(i))
		} else {
			negIdx = append(negIdx, int32(i))
		}
	}
	rng := rand.New(rand.NewPCG(m.seed, 0x6d62706169)) // stream "mbpai"
	rows := newBatchRows(m.b, ds, m.dim)
	w := newBaseLinear(m.b, m.dim)
	B := m.p.B
	sp, sn := make([]int32, B), make([]int32, B)
	fp, fn := make([]float64, B), make([]float64, B)
	r := make([]float64, B)
	for t := 1; t <= m.p.T; t++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		for k := range B {
			sp[k] = posIdx[rng.IntN(len(posIdx))]
			sn[k] = negIdx[rng.IntN(len(negIdx))]
		}
		rows.scores(w.s, w.v, sp, fp)
		rows.scores(w.s, w.v, sn, fn)
		for k := range B {
			margin := fp[k] - fn[k]
			if math.IsNaN(margin) || math.IsInf(margin, 0) {
				return fmt.Errorf("%s: %w at iteration %d", m.name(), ErrDiverged, t)
			}
			if m.hinge {
				r[k] = 0
				if margin < 1 {
					r[k] = 1
				}
			} else {
				r[k] = 1 - margin
			}
		}
		eta := m.p.Eta / math.Sqrt(float64(t))
		w.shrink(1 - eta*m.p.Lambda)
		step := eta / float64(B) / w.s
		rows.combine(step, sp, r, 1, w.v)
		rows.combine(-step, sn, r, 1, w.v)
	}
	out := w.weights()
	if !finite(out) {
		return fmt.Errorf("%s: %w after %d iterations", m.name(), ErrDiverged, m.p.T)
	}
	m.w = out
	return nil
}

// Weights returns a copy of w (zeros before Fit).
func (m *MBPair) Weights() []float64 { return append([]float64(nil), m.w...) }

var (
	_ Batch = (*LSAUC)(nil)
	_ Batch = (*MBPair)(nil)
)

// lsaucSpec is LS-AUC's Spec (the ORACLE). Its state: two classes' moments (d×d), the
// oracle's system and factor, and a block of rows of each class; by conjugate
// gradients ~12 d-vectors and 4 n-vectors. Its λ is LS-AUC's ridge rule, 2ρ
// (ridgeSquare).
func lsaucSpec() Spec {
	s := batch("ls-auc", "B-LS-SVM: the exact pairwise square-loss minimiser (the oracle), batch", "ICML 2013, Sec. 5; docs/ALGORITHMS.md, \"ORACLE\"",
		DefaultLSAUCParams, LSAUCGrid, NewLSAUC)
	s.DeviceValues = deviceLSAUC
	withState(&s, func(d, n float64, p *LSAUCParams) float64 {
		if d > LSAUCDirectMax || p.Steps > 0 { // conjugate gradients: ~12 d-vectors, 4 n-vectors
			return 12*d + 4*n
		}
		return 4*d*d + 2*float64(lsaucBlockRows(int(d)))*d + 8*d
	})
	withDefaults(&s, func(f DataFacts, p *LSAUCParams) { p.Lambda = ridgeSquare * f.RidgeScale() })
	return s
}

// The MB-PSL and MB-PHL Specs share their state: w, its scaled copy, the zero row and
// the result, the B sampled pairs' indices, scores and residuals, and the per-row
// scores and coefficients of dense data: the pairs are gathered as scores, never as
// B×d rows.
//
// Their data-scaled defaults: MB-PSL and MB-PHL take 2000 steps η₀/√t of 100 pairs:
// the step must reach the optimum within that budget and stay stable. The square
// loss's curvature is R² (η₀ = 3/R² in [2⁻⁶, 2⁻²]: diabetes, R² = 2.9, .8283 at the
// static 2⁻⁶ and .8638 at 2⁻²); the hinge's gradient grows with ‖x‖ (η₀ = 4/R in [2⁻²,
// 4]: svmguide3 .7759 at the static 2⁻², .7926 at 1). η₀·λ stays below 1/2 (the solver
// needs < 1). Below OnePassRows rows (where the online learners take more passes)
// MB-PSL takes T = 20,000 steps, ten times the static 2000, and approaches the ORACLE
// (ls-auc): svmguide3 .7850 at 2000, .7895 at 5000, .7946 at 20,000 (ls-auc .7964);
// the small sets cost at most 0.1 s more. a9a and w8a keep 2000.

// mbpslSpec is MB-PSL's Spec.
func mbpslSpec() Spec {
	s := mbPairSpec(batch("mb-psl", "mini-batch gradient descent on sampled pairs, pairwise square loss (baseline)", "MBA paper, Sec. V",
		DefaultMBPSLParams, MBPairGrid, NewMBPSL))
	withDefaults(&s, func(f DataFacts, p *MBPairParams) {
		p.Lambda = ridgeSquare * f.RidgeScale()
		p.Eta = math.Min(clamp(3/f.MeanSqNorm, 0x1p-6, 0x1p-2), 0.5/p.Lambda)
		if f.Rows < OnePassRows {
			p.T = 20_000
		}
	})
	return s
}

// mbphlSpec is MB-PHL's Spec.
func mbphlSpec() Spec {
	s := mbPairSpec(batch("mb-phl", "mini-batch gradient descent on sampled pairs, pairwise hinge loss (baseline)", "MBA paper, Sec. V",
		DefaultMBPHLParams, MBPairGrid, NewMBPHL))
	withDefaults(&s, func(f DataFacts, p *MBPairParams) {
		p.Lambda = ridgeHinge * f.RidgeScale()
		p.Eta = math.Min(clamp(4/math.Sqrt(f.MeanSqNorm), 0x1p-2, 4), 0.5/p.Lambda)
	})
	return s
}

// mbPairSpec adds the state size MB-PSL and MB-PHL share to s.
func mbPairSpec(s Spec) Spec {
	withState(&s, func(d, n float64, p *MBPairParams) float64 { return 4*d + 4*float64(p.B) + 2*n })
	return s
}
