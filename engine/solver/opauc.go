package solver

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/aucopt/aucopt/kernels"
)

// OPAUC family: one-pass AUC optimisation with the pairwise square loss.
//
// References:
//
//	W. Gao, R. Jin, S. Zhu, Z.-H. Zhou. One-pass AUC optimization. ICML 2013,
//	Algorithm 1 (OPAUC), Section 3.2 (OPAUCr) and Section 5.2 (OPAUC^f, OPAUC^rp).
//
// See docs/ALGORITHMS.md, "OPAUC" and "OPAUCr", for the update as implemented (with the
// covariance fix and the 1/√τ fix).

// opaucBlock is the number of examples of one class whose rank-1 covariance updates
// are batched into one Syrk (see opaucClass).
const opaucBlock = 32

// OPAUCParams are the hyper-parameters of OPAUC (Gao et al. 2013, Algorithm 1).
// Start from DefaultOPAUCParams; the zero value is not a valid setting.
type OPAUCParams struct {
	// Eta is the constant step size η > 0 (the paper's experiments use a constant step).
	// Default 2⁻¹² (the best one-pass test AUC on a9a, 0.8998, in a search over
	// 2^[-12..-1]). Paper grid 2^[-12..10]; the paper finds [2⁻¹², 2⁻⁴] good and η > 1
	// harmful.
	Eta float64 `param:"eta"`
	// Lambda is the ℓ2 regularisation weight λ ≥ 0 (0 is allowed). Default 2⁻¹⁰.
	// Paper grid 2^[-10..2].
	Lambda float64 `param:"lambda"`
}

// DefaultOPAUCParams returns OPAUC's default hyper-parameters.
func DefaultOPAUCParams() OPAUCParams { return OPAUCParams{Eta: 0x1p-12, Lambda: 0x1p-10} }

// OPAUCGrid is the OPAUC paper's grid (five-fold cross-validation on the training part):
// η ∈ 2^[-12..10], λ ∈ 2^[-10..2].
var OPAUCGrid = Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{Pow2(-12, 10), Pow2(-10, 2)}}

func (p OPAUCParams) check() error {
	if err := Check(p.Eta > 0 && !math.IsInf(p.Eta, 0), "eta", p.Eta, "a finite number > 0"); err != nil {
		return err
	}
	return Check(p.Lambda >= 0 && !math.IsInf(p.Lambda, 0), "lambda", p.Lambda, "a finite number ≥ 0")
}

// opaucClass holds the running statistics of one class: its count T, mean c and
// scatter T·Γ (Γ = S, the biased covariance), with the per-example rank-1 updates of
// the scatter batched into one Syrk per block of B examples.
//
// Let the class have n0 committed rows with mean m0 and scatter M = Σ (x − m0)(x − m0)ᵀ
// (upper triangle), and k < B pending rows, centred on m0: u_i = x_i − m0 (the rows of
// U, k×d; pend holds −U, which gives the same UᵀU and Uᵀ(U w)), with su = Σ u_i. For
// all N = n0 + k rows, whatever the anchor a,
//
//	Σ (x − c)(x − c)ᵀ = Σ (x − a)(x − a)ᵀ − N (c − a)(c − a)ᵀ.
//
// With a = m0 the committed rows contribute M and c − m0 = su/N, so
//
//	c = m0 + su/N
//	N·S = M + UᵀU − su suᵀ/N
//	N·S w = M w + Uᵀ(U w) − (su·w/N) su        (one Symv, two k×d Gemvs, one Axpy)
//
// which are exactly the statistics up to the latest example. When k reaches B the block
// is committed with one Syrk and one Syr (the mean shift):
//
//	M ← M + UᵀU − su suᵀ/N;  m0 ← m0 + su/N;  n0 ← N;  k ← 0;  su ← 0.
//
// While n0 = 0 the anchor m0 is the class's first example (any anchor is exact then,
// and one inside the data limits cancellation in the Syr).
type opaucClass struct {
	n0      int64
	k       int
	m0      kernels.Vec   // mean of the committed rows (the anchor while n0 = 0)
	su      kernels.Vec   // Σ of the pending rows u_i
	scatter kernels.Mat   // M, upper triangle
	pend    kernels.Mat   // −U: B×d, rows [0, k) in use
	rows    []kernels.Vec // rows[i] = U.Row(i)
	heads   []kernels.Mat // heads[k] = U[:k], k = 0..B
}

// n is the class count T (committed and pending).
func (c *opaucClass) n() int64 { return c.n0 + int64(c.k) }

// opaucCore is OPAUC's state and gradient on dense backend rows: the weights and the
// statistics of both classes. OPAUC, OPAUC^f, OPAUC^rp and AdaOAM share it.
type opaucCore struct {
	b      kernels.Backend
	d      int
	lambda float64
	w      kernels.Vec
	cls    [2]opaucClass // [0] negatives, [1] positives
	v      kernels.Vec   // x − c of the other class
	g      kernels.Vec   // the gradient
	t      []kernels.Vec // t[k]: U w, length k
	fused  *opaucFused   // non-nil on a backend whose calls have a fixed cost
}

// opaucFused takes a step's three dot products (x·w, m0·w and su·w of the other class)
// in one Gemv and one download, on a backend where each call has a fixed cost that
// dwarfs the arithmetic (a kernels.Flattener: a GPU, where a Dot is a host round trip
// of about 28 µs at any size). The vectors are rows of one 5×d matrix,
//
//	[m0₋, su₋, x, m0₊, su₊],
//
// so that for either class the three rows are adjacent: rows 0–2 when the other class
// is the negatives, 2–4 when it is the positives (without a dense x, rows 0–1 and
// 3–4). A dense x is uploaded (or computed) straight into row 2, the slot.
type opaucFused struct {
	stk  kernels.Mat
	slot kernels.Vec // stk.Row(2)
	out  kernels.Vec // the Gemv's result, 3 elements
	host [3]float64
}

func newOPAUCCore(b kernels.Backend, d, block int, lambda float64) *opaucCore {
	c := &opaucCore{b: b, d: d, lambda: lambda, w: b.NewVec(d), v: b.NewVec(d), g: b.NewVec(d)}
	tt := b.NewVec(block)
	c.t = make([]kernels.Vec, block+1)
	for k := range c.t {
		c.t[k] = tt.Slice(0, k)
	}
	if _, ok := b.(kernels.Flattener); ok {
		f := &opaucFused{stk: b.NewMat(5, d), out: b.NewVec(3)}
		f.slot = f.stk.Row(2)
		c.fused = f
	}
	for i := range c.cls {
		cl := &c.cls[i]
		if f := c.fused; f != nil {
			cl.m0, cl.su = f.stk.Row(3*i), f.stk.Row(3*i+1)
		} else {
			cl.m0, cl.su = b.NewVec(d), b.NewVec(d)
		}
		cl.scatter, cl.pend = b.NewMat(d, d), b.NewMat(block, d)
		cl.rows = make([]kernels.Vec, block)
		for r := range cl.rows {
			cl.rows[r] = cl.pend.Row(r)
		}
		cl.heads = make([]kernels.Mat, block+1)
		for k := range cl.heads {
			cl.heads[k] = cl.pend.Slice(0, k, 0, d)
		}
	}
	return c
}

// opaucX is an example as the core sees it: a dense backend Vec when xv is non-nil,
// else the host Sparse x (O(nnz) gathers and scatters).
type opaucX struct {
	x  kernels.Sparse
	xv kernels.Vec // from the core's xvec
}

// xvec returns the backend vector of the core's dimension that holds a dense x: the
// fused dots' slot when there is one, else a new vector. Every dense x the core is given
// lives there, so the fused dots find it in the slot.
func (c *opaucCore) xvec() kernels.Vec {
	if c.fused != nil {
		return c.fused.slot
	}
	return c.b.NewVec(c.d)
}

func (c *opaucCore) dotX(x opaucX, y kernels.Vec) float64 {
	if x.xv != nil {
		return c.b.Dot(x.xv, y)
	}
	return c.b.DotSparse(x.x, y)
}

func (c *opaucCore) axpyX(alpha float64, x opaucX, y kernels.Vec) {
	if x.xv != nil {
		c.b.Axpy(alpha, x.xv, y)
	} else {
		c.b.AxpySparse(alpha, x.x, y)
	}
}

// grad returns the score w·x and computes into c.g OPAUC's gradient at w for the
// example x with label y, using the other class's statistics up to now,
//
//	g = λw + (v·w − y) v + S_o w,   v = x − c_o,   c_o = m0 + su/N
//
// (for y = +1 this is λw − x + c₋ + (x − c₋)(x − c₋)ᵀw + S₋w of Algorithm 1; for y = −1
// the roles swap), then adds x to its own class's statistics. ok reports whether the
// gradient was computed: while the other class is empty the loss is 0 and there is no
// step. Expanded so that a sparse x costs O(nnz), with e = v·w − y:
//
//	v·w = x·w − m0·w − (su·w)/N
//	g   = (1/N)·M w + (1/N)·Uᵀ(U w) − ((su·w)/N² + e/N)·su − e·m0 + e·x + λw
func (c *opaucCore) grad(x opaucX, y int8) (score float64, ok bool) {
	b := c.b
	score, own, oth, n, suw, e := c.prepare(x, y)
	if ok = oth != nil; ok {
		b.Symv(1/n, oth.scatter, c.w, 0, c.g)
		if oth.k > 0 {
			u, t := oth.heads[oth.k], c.t[oth.k]
			b.Gemv(false, 1, u, c.w, 0, t)
			b.Gemv(true, 1/n, u, t, 1, c.g)
			b.Axpy(-suw/(n*n)-e/n, oth.su, c.g)
		}
		// −e·m0 and +e·x separately: on a constant feature they cancel exactly, so its
		// gradient is exactly 0 (AdaOAM's H⁻¹ would blow up a rounding residue).
		b.Axpy(-e, oth.m0, c.g)
		c.axpyX(e, x, c.g)
		b.Axpy(c.lambda, c.w, c.g)
	}
	c.add(own, x)
	return score, ok
}

// descend is grad followed by the step w ← w − η·g, fused: the new weights
//
//	w' = (1 − ηλ)·w − (η/N)·M w − (η/N)·Uᵀ(U w) + η((su·w)/N² + e/N)·su + ηe·m0 − ηe·x
//
// are assembled in c.g (a copy of w scaled by the Symv's β), which then becomes c.w:
// two backend calls fewer than grad and an Axpy. It returns the score w·x before the
// step.
func (c *opaucCore) descend(x opaucX, y int8, eta float64) float64 {
	b := c.b
	score, own, oth, n, suw, e := c.prepare(x, y)
	if oth != nil {
		b.Copy(c.g, c.w)
		b.Symv(-eta/n, oth.scatter, c.w, 1-eta*c.lambda, c.g)
		if oth.k > 0 {
			u, t := oth.heads[oth.k], c.t[oth.k]
			b.Gemv(false, 1, u, c.w, 0, t)
			b.Gemv(true, -eta/n, u, t, 1, c.g)
			b.Axpy(eta*(suw/(n*n)+e/n), oth.su, c.g)
		}
		b.Axpy(eta*e, oth.m0, c.g)
		c.axpyX(-eta*e, x, c.g)
		c.w, c.g = c.g, c.w
	}
	c.add(own, x)
	return score
}

// prepare returns the score x·w, the example's own class and the other one (nil while
// it is empty), the other class's count n, su·w and e = v·w − y (see grad).
func (c *opaucCore) prepare(x opaucX, y int8) (score float64, own, oth *opaucClass, n, suw, e float64) {
	b := c.b
	own, oth = &c.cls[1], &c.cls[0]
	if y < 0 {
		own, oth = oth, own
	}
	if oth.n() == 0 {
		return c.dotX(x, c.w), own, nil, 0, 0, 0
	}
	n = float64(oth.n())
	var m0w float64
	if f := c.fused; f != nil {
		score, m0w, suw = c.fusedDots(x, y)
	} else {
		score = c.dotX(x, c.w)
		m0w = b.Dot(oth.m0, c.w)
		if oth.k > 0 {
			suw = b.Dot(oth.su, c.w)
		}
	}
	if oth.k == 0 {
		suw = 0 // su is 0 then; a fused dot of it with a non-finite w is not
	}
	e = score - m0w - suw/n - float64(y)
	return score, own, oth, n, suw, e
}

// fusedDots returns x·w, m0·w and su·w of the class other than y's from one Gemv over
// adjacent rows of the fused matrix and one download (see opaucFused).
func (c *opaucCore) fusedDots(x opaucX, y int8) (xw, m0w, suw float64) {
	b, f := c.b, c.fused
	i := 0 // the other class's first row: 0 for the negatives, 3 for the positives
	if y < 0 {
		i = 3
	}
	if x.xv != nil { // in the slot (xvec)
		j := i // rows [m0₋, su₋, x] or [x, m0₊, su₊]
		if y < 0 {
			j = 2
		}
		out := f.out
		b.Gemv(false, 1, f.stk.Slice(j, j+3, 0, c.d), c.w, 0, out)
		b.Download(f.host[:], out)
		if y < 0 {
			return f.host[0], f.host[1], f.host[2]
		}
		return f.host[2], f.host[0], f.host[1]
	}
	out := f.out.Slice(0, 2)
	b.Gemv(false, 1, f.stk.Slice(i, i+2, 0, c.d), c.w, 0, out)
	b.Download(f.host[:2], out)
	return c.dotX(x, c.w), f.host[0], f.host[1]
}

// add adds x to the class's statistics, committing a full block.
func (c *opaucCore) add(cl *opaucClass, x opaucX) {
	b := c.b
	if cl.n0 == 0 && cl.k == 0 { // anchor m0 = x
		b.Scal(0, cl.m0)
		c.axpyX(1, x, cl.m0)
	}
	// The row is stored negated, m0 − x = −u (two calls instead of three for a sparse
	// x): UᵀU and Uᵀ(U w) are the same for −U, row by row; su is still Σ u.
	r := cl.rows[cl.k]
	b.Copy(r, cl.m0)
	c.axpyX(-1, x, r)
	b.Axpy(-1, r, cl.su)
	cl.k++
	if cl.k < len(cl.rows) {
		return
	}
	n := float64(cl.n())
	b.Syrk(1, cl.heads[cl.k], 1, cl.scatter)
	b.Syr(-1/n, cl.su, cl.scatter)
	b.Axpy(1/n, cl.su, cl.m0)
	cl.n0 += int64(cl.k)
	cl.k = 0
	b.Scal(0, cl.su)
}

// weights downloads w.
func (c *opaucCore) weights() []float64 {
	out := make([]float64, c.d)
	c.b.Download(out, c.w)
	return out
}

// opaucClassState is one class's checkpoint.
type opaucClassState struct {
	N0      int64
	K       int
	M0, SU  []float64
	Scatter []float64 // d×d row-major (only the upper triangle is meaningful)
	Pend    []float64 // k×d
}

// opaucCoreState is the core's checkpoint.
type opaucCoreState struct {
	D, Block int
	W        []float64
	Cls      [2]opaucClassState
}

func (c *opaucCore) state() opaucCoreState {
	s := opaucCoreState{D: c.d, Block: len(c.t) - 1, W: c.weights()}
	for i := range c.cls {
		cl := &c.cls[i]
		cs := &s.Cls[i]
		cs.N0, cs.K = cl.n0, cl.k
		cs.M0, cs.SU = make([]float64, c.d), make([]float64, c.d)
		cs.Scatter, cs.Pend = make([]float64, c.d*c.d), make([]float64, cl.k*c.d)
		c.b.Download(cs.M0, cl.m0)
		c.b.Download(cs.SU, cl.su)
		c.b.Download(cs.Scatter, cl.scatter)
		c.b.Download(cs.Pend, cl.heads[cl.k])
	}
	return s
}

func (c *opaucCore) restore(s *opaucCoreState) error {
	if s.D != c.d || s.Block != len(c.t)-1 || len(s.W) != c.d {
		return fmt.Errorf("solver: OPAUC state of dimension %d, block %d; want %d, %d", s.D, s.Block, c.d, len(c.t)-1)
	}
	for i := range s.Cls {
		cs := &s.Cls[i]
		if cs.K < 0 || cs.K >= s.Block || cs.N0 < 0 || len(cs.M0) != c.d || len(cs.SU) != c.d ||
			len(cs.Scatter) != c.d*c.d || len(cs.Pend) != cs.K*c.d {
			return fmt.Errorf("solver: OPAUC state: class %d malformed", i)
		}
	}
	c.b.Upload(c.w, s.W)
	for i := range c.cls {
		cl, cs := &c.cls[i], &s.Cls[i]
		cl.n0, cl.k = cs.N0, cs.K
		c.b.Upload(cl.m0, cs.M0)
		c.b.Upload(cl.su, cs.SU)
		c.b.Upload(cl.scatter, cs.Scatter)
		c.b.Upload(cl.heads[cl.k], cs.Pend)
	}
	return nil
}

// opaucRow gives the core a host row: a dense one (all dim indices) is uploaded to a
// backend Vec (the core's fused slot where it has one), a sparse one is passed as it is.
type opaucRow struct {
	b  kernels.Backend
	d  int
	xd kernels.Vec // the core's xvec
}

func newOPAUCRow(c *opaucCore) opaucRow {
	return opaucRow{b: c.b, d: c.d, xd: c.xvec()}
}

func (r *opaucRow) load(x kernels.Sparse) opaucX {
	if len(x.Idx) == r.d {
		r.b.Upload(r.xd, x.Val)
		return opaucX{xv: r.xd}
	}
	return opaucX{x: x}
}

// OPAUC is one-pass AUC optimisation (Gao et al. 2013, Algorithm 1): SGD on the pairwise
// square loss against the running mean and covariance of the other class, with full d×d
// covariances on the backend. Per example it costs one Symv (d²) plus O(B·d) for the
// pending block (B = 32), and one Syrk per B examples of a class; memory O(d²).
// An OPAUC is not safe for concurrent use.
type OPAUC struct {
	p    OPAUCParams
	core *opaucCore
	row  opaucRow
}

// NewOPAUC returns an OPAUC learner for dim features on backend b. OPAUC is
// deterministic: seed is unused (accepted for a uniform constructor shape).
func NewOPAUC(b kernels.Backend, dim int, p OPAUCParams, seed uint64) (*OPAUC, error) {
	return newOPAUCBlock(b, dim, p, opaucBlock)
}

func newOPAUCBlock(b kernels.Backend, dim int, p OPAUCParams, block int) (*OPAUC, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	core := newOPAUCCore(b, dim, block, p.Lambda)
	return &OPAUC{p: p, core: core, row: newOPAUCRow(core)}, nil
}

// Observe learns from (x, y) by one step w ← w − η g of Algorithm 1 (none while the
// other class is empty) and returns the score w·x before it. y must be +1 or −1.
func (s *OPAUC) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("OPAUC", y)
	return s.core.descend(s.row.load(x), y, s.p.Eta)
}

// Weights returns a copy of w.
func (s *OPAUC) Weights() []float64 { return s.core.weights() }

// Params returns the hyper-parameters.
func (s *OPAUC) Params() OPAUCParams { return s.p }

type opaucState struct {
	P    OPAUCParams
	Core opaucCoreState
}

// MarshalBinary encodes the learner's state (parameters, counts, means, scatters, the
// pending blocks and w) with encoding/gob; a learner restored from it continues
// bit-identically.
func (s *OPAUC) MarshalBinary() ([]byte, error) {
	return encodeState(opaucState{P: s.p, Core: s.core.state()})
}

// UnmarshalBinary restores a state written by MarshalBinary into s, which must have
// been made for the same dimension; the parameters are the checkpoint's.
func (s *OPAUC) UnmarshalBinary(data []byte) error {
	var st opaucState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: OPAUC state: %w", err)
	}
	if err := st.P.check(); err != nil {
		return err
	}
	if err := s.core.restore(&st.Core); err != nil {
		return err
	}
	s.p, s.core.lambda = st.P, st.P.Lambda
	return nil
}

// OPAUCfParams are the hyper-parameters of OPAUC^f: OPAUC on a random subset of the
// features (Gao et al. 2013, Section 5.2). Start from DefaultOPAUCfParams.
type OPAUCfParams struct {
	// Eta is the constant step size η > 0. Default 2⁻¹². Paper grid 2^[-12..10].
	Eta float64 `param:"eta"`
	// Lambda is the ℓ2 weight λ ≥ 0. Default 2⁻¹⁰. Paper grid 2^[-10..2].
	Lambda float64 `param:"lambda"`
	// Features is the number of features kept, drawn uniformly without replacement
	// (all of them when it is at least the dimension); ≥ 1. Default and paper 1000.
	Features int `param:"features"`
}

// DefaultOPAUCfParams returns OPAUC^f's default hyper-parameters.
func DefaultOPAUCfParams() OPAUCfParams {
	return OPAUCfParams{Eta: 0x1p-12, Lambda: 0x1p-10, Features: 1000}
}

// OPAUCfGrid is the paper's grid for OPAUC^f: η ∈ 2^[-12..10], λ ∈ 2^[-10..2] (the
// number of features is fixed at 1000).
var OPAUCfGrid = Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{Pow2(-12, 10), Pow2(-10, 2)}}

// OPAUCf is OPAUC^f: OPAUC on a seeded random subset of the features; the weights are
// zero on the features left out. Memory O(k²) for k kept features.
// An OPAUCf is not safe for concurrent use.
type OPAUCf struct {
	p    OPAUCfParams
	d    int
	feat []int32 // the kept features, increasing
	pos  []int32 // pos[j]: index of feature j among the kept ones, or −1
	sub  kernels.Sparse
	core *opaucCore
	row  opaucRow
}

// NewOPAUCf returns an OPAUC^f learner for dim features on backend b; seed picks the
// features.
func NewOPAUCf(b kernels.Backend, dim int, p OPAUCfParams, seed uint64) (*OPAUCf, error) {
	if err := (OPAUCParams{Eta: p.Eta, Lambda: p.Lambda}).check(); err != nil {
		return nil, err
	}
	if err := Check(p.Features >= 1, "features", p.Features, "≥ 1"); err != nil {
		return nil, err
	}
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	k := min(p.Features, dim)
	perm := make([]int32, dim)
	for j := range perm {
		perm[j] = int32(j)
	}
	r := rand.New(rand.NewPCG(seed, 0x6f70617563662d66)) // partial Fisher–Yates
	for i := range k {
		j := i + r.IntN(dim-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	feat := perm[:k:k]
	slices.Sort(feat)
	core := newOPAUCCore(b, k, opaucBlock, p.Lambda)
	s := &OPAUCf{p: p, d: dim, feat: feat, core: core, row: newOPAUCRow(core)}
	s.pos = slices.Repeat([]int32{-1}, dim)
	for i, j := range feat {
		s.pos[j] = int32(i)
	}
	s.sub = kernels.Sparse{Idx: make([]int32, 0, k), Val: make([]float64, 0, k)}
	return s, nil
}

// Features returns the kept features (increasing).
func (s *OPAUCf) Features() []int32 { return slices.Clone(s.feat) }

// Observe learns from (x, y) restricted to the kept features and returns the score w·x
// before the step. y must be +1 or −1.
func (s *OPAUCf) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("OPAUCf", y)
	sub := kernels.Sparse{Idx: s.sub.Idx[:0], Val: s.sub.Val[:0]}
	if len(x.Idx) == s.d {
		if len(x.Val) != s.d {
			panic(fmt.Sprintf("solver: OPAUCf.Observe: %d indices but %d values", len(x.Idx), len(x.Val)))
		}
		for i, j := range s.feat {
			sub.Idx, sub.Val = append(sub.Idx, int32(i)), append(sub.Val, x.Val[j])
		}
	} else {
		for k, j := range x.Idx {
			if uint(j) >= uint(s.d) {
				panic(fmt.Sprintf("solver: OPAUCf.Observe: index %d out of range [0, %d)", j, s.d))
			}
			if i := s.pos[j]; i >= 0 {
				sub.Idx, sub.Val = append(sub.Idx, i), append(sub.Val, x.Val[k])
			}
		}
	}
	return s.core.descend(s.row.load(sub), y, s.p.Eta)
}

// Weights returns a copy of w in the full dimension (zero off the kept features).
func (s *OPAUCf) Weights() []float64 {
	wk := s.core.weights()
	out := make([]float64, s.d)
	for i, j := range s.feat {
		out[j] = wk[i]
	}
	return out
}

type opaucfState struct {
	P    OPAUCfParams
	Feat []int32
	Core opaucCoreState
}

// MarshalBinary encodes the learner's state (parameters, kept features, OPAUC's state)
// with encoding/gob.
func (s *OPAUCf) MarshalBinary() ([]byte, error) {
	return encodeState(opaucfState{P: s.p, Feat: s.feat, Core: s.core.state()})
}

// UnmarshalBinary restores a state written by MarshalBinary into s, which must have
// been made for the same dimension and number of features.
func (s *OPAUCf) UnmarshalBinary(data []byte) error {
	var st opaucfState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: OPAUCf state: %w", err)
	}
	if err := (OPAUCParams{Eta: st.P.Eta, Lambda: st.P.Lambda}).check(); err != nil {
		return err
	}
	if len(st.Feat) != len(s.feat) {
		return fmt.Errorf("solver: OPAUCf state keeps %d features, want %d", len(st.Feat), len(s.feat))
	}
	pos := slices.Repeat([]int32{-1}, s.d)
	for i, j := range st.Feat {
		if uint(j) >= uint(s.d) || (i > 0 && j <= st.Feat[i-1]) {
			return fmt.Errorf("solver: OPAUCf state: bad feature list")
		}
		pos[j] = int32(i)
	}
	if err := s.core.restore(&st.Core); err != nil {
		return err
	}
	s.p, s.core.lambda, s.feat, s.pos = st.P, st.P.Lambda, slices.Clone(st.Feat), pos
	return nil
}

// OPAUCrpParams are the hyper-parameters of OPAUC^rp: OPAUC on a Gaussian random
// projection of the features (Gao et al. 2013, Section 5.2). Start from
// DefaultOPAUCrpParams.
type OPAUCrpParams struct {
	// Eta is the constant step size η > 0. Default 2⁻¹². Paper grid 2^[-12..10].
	Eta float64 `param:"eta"`
	// Lambda is the ℓ2 weight λ ≥ 0. Default 2⁻¹⁰. Paper grid 2^[-10..2].
	Lambda float64 `param:"lambda"`
	// Dims is the projected dimension k ≥ 1. From k ≥ d there is no reduction to make and
	// the learner is OPAUC on the features as read (R = I): a Gaussian R at k = d only
	// skews the ridge's geometry (its columns are neither unit nor orthogonal), which
	// cost heart .901 and svmguide3 .763 against OPAUC's .93 and .79 at the defaults.
	// Default and paper 1000.
	Dims int `param:"dims"`
}

// DefaultOPAUCrpParams returns OPAUC^rp's default hyper-parameters.
func DefaultOPAUCrpParams() OPAUCrpParams {
	return OPAUCrpParams{Eta: 0x1p-12, Lambda: 0x1p-10, Dims: 1000}
}

// OPAUCrpGrid is the paper's grid for OPAUC^rp: η ∈ 2^[-12..10], λ ∈ 2^[-10..2] (the
// projected dimension is fixed at 1000).
var OPAUCrpGrid = Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{Pow2(-12, 10), Pow2(-10, 2)}}

// OPAUCrp is OPAUC^rp: OPAUC on x̂ = Rᵀx, with R a seeded d×k Gaussian matrix of entries
// N(0, 1/k) held on the backend, k = Dims < d; from Dims ≥ d, R = I (OPAUC itself, on
// the rows as read). Its weights are mapped back, w = R ŵ, so that scores are
// w·x = ŵ·x̂. Memory O(dk + k²); per example O(nnz·k + k²).
// An OPAUCrp is not safe for concurrent use.
type OPAUCrp struct {
	p    OPAUCrpParams
	d, k int
	seed uint64
	r    kernels.Mat   // R, d×k; nil for R = I (k = d)
	row  opaucRow      // loads x for R = I
	xd   kernels.Vec   // a dense x
	xh   kernels.Vec   // x̂ = Rᵀx (the core's xvec)
	wd   kernels.Vec   // R ŵ
	vals []kernels.Vec // vals[n]: a length-n view for a sparse row's values
	core *opaucCore
}

// NewOPAUCrp returns an OPAUC^rp learner for dim features on backend b; seed draws R.
func NewOPAUCrp(b kernels.Backend, dim int, p OPAUCrpParams, seed uint64) (*OPAUCrp, error) {
	if err := (OPAUCParams{Eta: p.Eta, Lambda: p.Lambda}).check(); err != nil {
		return nil, err
	}
	if err := Check(p.Dims >= 1, "dims", p.Dims, "≥ 1"); err != nil {
		return nil, err
	}
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	k := min(p.Dims, dim)
	core := newOPAUCCore(b, k, opaucBlock, p.Lambda)
	s := &OPAUCrp{p: p, d: dim, k: k, xh: core.xvec(), core: core, seed: seed}
	if k == dim {
		s.row = newOPAUCRow(core)
		return s, nil
	}
	s.r, s.xd, s.wd, s.vals = b.NewMat(dim, k), b.NewVec(dim), b.NewVec(dim), make([]kernels.Vec, dim+1)
	s.project(seed)
	return s, nil
}

// project draws R from seed (R = I needs none).
func (s *OPAUCrp) project(seed uint64) {
	s.seed = seed
	if s.r == nil {
		return
	}
	r := rand.New(rand.NewPCG(seed, 0x6f70617563727021))
	row := make([]float64, s.k)
	scale := 1 / math.Sqrt(float64(s.k))
	for i := range s.d {
		for j := range row {
			row[j] = r.NormFloat64() * scale
		}
		s.core.b.Upload(s.r.Row(i), row)
	}
}

// Observe learns from (x̂, y), x̂ = Rᵀx, and returns the score w·x before the step.
// y must be +1 or −1.
func (s *OPAUCrp) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("OPAUCrp", y)
	c := s.core
	b := c.b
	if s.r == nil {
		return c.descend(s.row.load(x), y, s.p.Eta)
	}
	if len(x.Idx) == s.d {
		b.Upload(s.xd, x.Val)
		b.Gemv(true, 1, s.r, s.xd, 0, s.xh)
	} else {
		n := len(x.Idx)
		if n > s.d {
			panic(fmt.Sprintf("solver: OPAUCrp.Observe: %d indices for dimension %d", n, s.d))
		}
		if s.vals[n] == nil {
			s.vals[n] = s.xd.Slice(0, n)
		}
		b.Upload(s.vals[n], x.Val)
		b.GemvRows(true, 1, s.r, x.Idx, s.vals[n], 0, s.xh)
	}
	return c.descend(opaucX{xv: s.xh}, y, s.p.Eta)
}

// Weights returns a copy of w = R ŵ in the full dimension.
func (s *OPAUCrp) Weights() []float64 {
	if s.r == nil {
		return s.core.weights()
	}
	b := s.core.b
	b.Gemv(false, 1, s.r, s.core.w, 0, s.wd)
	out := make([]float64, s.d)
	b.Download(out, s.wd)
	return out
}

type opaucrpState struct {
	P    OPAUCrpParams
	Seed uint64
	Core opaucCoreState
}

// MarshalBinary encodes the learner's state (parameters, the seed of R, OPAUC's state in
// the projected space) with encoding/gob; R is redrawn from the seed on restore.
func (s *OPAUCrp) MarshalBinary() ([]byte, error) {
	return encodeState(opaucrpState{P: s.p, Seed: s.seed, Core: s.core.state()})
}

// UnmarshalBinary restores a state written by MarshalBinary into s, which must have
// been made for the same dimension and projected dimension.
func (s *OPAUCrp) UnmarshalBinary(data []byte) error {
	var st opaucrpState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: OPAUCrp state: %w", err)
	}
	if err := (OPAUCParams{Eta: st.P.Eta, Lambda: st.P.Lambda}).check(); err != nil {
		return err
	}
	if min(st.P.Dims, s.d) != s.k {
		return fmt.Errorf("solver: OPAUCrp state projects to %d dimensions, want %d", min(st.P.Dims, s.d), s.k)
	}
	if err := s.core.restore(&st.Core); err != nil {
		return err
	}
	if st.Seed != s.seed {
		s.project(st.Seed)
	}
	s.p, s.core.lambda = st.P, st.P.Lambda
	return nil
}

// OPAUCrParams are the hyper-parameters of OPAUCr, OPAUC with randomized low-rank
// covariances (Gao et al. 2013, Section 3.2). Start from DefaultOPAUCrParams.
type OPAUCrParams struct {
	// Eta is the constant step size η > 0. Default 2⁻¹². Paper grid 2^[-12..10].
	Eta float64 `param:"eta"`
	// Lambda is the ℓ2 weight λ ≥ 0. Default 2⁻¹⁰. Paper grid 2^[-10..2].
	Lambda float64 `param:"lambda"`
	// Tau is the rank τ ≥ 1 of the covariance sketches. Default and paper 50 (the paper
	// finds OPAUCr insensitive to τ). From τ ≥ d a sketch is neither smaller nor cheaper
	// than the d×d covariance it estimates (τd ≥ d² values), and the learner is OPAUC
	// with exact covariances: the sketch's noise cost svmguide3 (22 features) .787
	// against OPAUC's .793 at the defaults.
	Tau int `param:"tau"`
}

// DefaultOPAUCrParams returns OPAUCr's default hyper-parameters.
func DefaultOPAUCrParams() OPAUCrParams { return OPAUCrParams{Eta: 0x1p-12, Lambda: 0x1p-10, Tau: 50} }

// OPAUCrGrid is the paper's grid for OPAUCr: η ∈ 2^[-12..10], λ ∈ 2^[-10..2] (τ fixed
// at 50).
var OPAUCrGrid = Grid{Keys: []string{"eta", "lambda"}, Values: [][]float64{Pow2(-12, 10), Pow2(-10, 2)}}

// opaucrClass is one class's sketch: count T, mean c, Zᵀ = Σ r_i x_iᵀ/√τ (τ×d, stored
// transposed so that a sparse x updates each of its τ rows in O(nnz)) and s = Σ r_i/√τ.
type opaucrClass struct {
	n    int64
	c    kernels.Vec
	zt   kernels.Mat
	s    kernels.Vec
	rows []kernels.Vec // rows[i] = Zᵀ.Row(i)
}

// OPAUCr is OPAUC with the covariances replaced by randomized rank-τ sketches
// (Gao et al. 2013, Section 3.2, with the 1/√τ fix): with r_i ~ N(0, I_τ) drawn per
// example, Ẑ = Z − c sᵀ and
//
//	Ŝ w = (1/T) Ẑ (Ẑᵀ w),   Ẑᵀw = Zᵀw − (c·w) s,   Ẑ p = Z p − (s·p) c,
//
// never forming a d×d matrix. Memory O(τd); per example O(τd) (O(nnz·τ) for the sketch
// update of a sparse row). An OPAUCr is not safe for concurrent use.
type OPAUCr struct {
	p     OPAUCrParams
	exact *OPAUC // from τ ≥ d: OPAUC's exact covariances, and none of the fields below
	b     kernels.Backend
	d     int
	w     kernels.Vec
	cls   [2]opaucrClass // [0] negatives, [1] positives
	pcg   *rand.PCG
	rng   *rand.Rand
	r     []float64   // r_t/√τ on the host
	rv    kernels.Vec // r_t/√τ on the backend
	q     kernels.Vec // Ẑᵀw (τ)
	h     kernels.Vec // Ẑ Ẑᵀ w (d)
	xd    kernels.Vec // a dense x
}

// NewOPAUCr returns an OPAUCr learner for dim features on backend b; seed drives the
// r_t.
func NewOPAUCr(b kernels.Backend, dim int, p OPAUCrParams, seed uint64) (*OPAUCr, error) {
	if err := (OPAUCParams{Eta: p.Eta, Lambda: p.Lambda}).check(); err != nil {
		return nil, err
	}
	if err := Check(p.Tau >= 1, "tau", p.Tau, "≥ 1"); err != nil {
		return nil, err
	}
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	if p.Tau >= dim {
		exact, err := NewOPAUC(b, dim, OPAUCParams{Eta: p.Eta, Lambda: p.Lambda}, seed)
		return &OPAUCr{p: p, d: dim, exact: exact}, err
	}
	s := &OPAUCr{p: p, b: b, d: dim, w: b.NewVec(dim), pcg: rand.NewPCG(seed, 0x6f7061756372), r: make([]float64, p.Tau),
		rv: b.NewVec(p.Tau), q: b.NewVec(p.Tau), h: b.NewVec(dim), xd: b.NewVec(dim)}
	s.rng = rand.New(s.pcg)
	for i := range s.cls {
		cl := &s.cls[i]
		cl.c, cl.zt, cl.s = b.NewVec(dim), b.NewMat(p.Tau, dim), b.NewVec(p.Tau)
		cl.rows = make([]kernels.Vec, p.Tau)
		for k := range cl.rows {
			cl.rows[k] = cl.zt.Row(k)
		}
	}
	return s, nil
}

// Observe learns from (x, y) by one step with the sketched covariance of the other
// class (none while it is empty), adds x to its class's sketch and returns the score
// w·x before the step. y must be +1 or −1.
func (s *OPAUCr) Observe(x kernels.Sparse, y int8) float64 {
	if s.exact != nil {
		return s.exact.Observe(x, y)
	}
	checkLabel("OPAUCr", y)
	b := s.b
	dense := len(x.Idx) == s.d
	var score float64
	if dense {
		b.Upload(s.xd, x.Val)
		score = b.Dot(s.xd, s.w)
	} else {
		score = b.DotSparse(x, s.w)
	}
	own, oth := &s.cls[1], &s.cls[0]
	if y < 0 {
		own, oth = oth, own
	}
	if oth.n > 0 {
		n := float64(oth.n)
		cw := b.Dot(oth.c, s.w)
		a := score - cw // v·w, v = x − c
		b.Gemv(false, 1, oth.zt, s.w, 0, s.q)
		b.Axpy(-cw, oth.s, s.q) // q = Ẑᵀw
		sq := b.Dot(oth.s, s.q)
		b.Gemv(true, 1, oth.zt, s.q, 0, s.h)
		b.Axpy(-sq, oth.c, s.h) // h = Ẑ q = T·Ŝ w
		// w ← w − η (λw + (a − y)(x − c) + h/T)
		e := s.p.Eta * (a - float64(y))
		b.Scal(1-s.p.Eta*s.p.Lambda, s.w)
		if dense {
			b.Axpy(-e, s.xd, s.w)
		} else {
			b.AxpySparse(-e, x, s.w)
		}
		b.Axpy(e, oth.c, s.w)
		b.Axpy(-s.p.Eta/n, s.h, s.w)
	}
	// own class: T += 1, c ← c·(T−1)/T + x/T, Z += x rᵀ/√τ, s += r/√τ
	own.n++
	n := float64(own.n)
	scale := 1 / math.Sqrt(float64(s.p.Tau))
	for i := range s.r {
		s.r[i] = s.rng.NormFloat64() * scale
	}
	b.Upload(s.rv, s.r)
	b.Scal((n-1)/n, own.c)
	if dense {
		b.Axpy(1/n, s.xd, own.c)
		b.Ger(1, s.rv, s.xd, own.zt)
	} else {
		b.AxpySparse(1/n, x, own.c)
		for i, ri := range s.r {
			b.AxpySparse(ri, x, own.rows[i])
		}
	}
	b.Axpy(1, s.rv, own.s)
	return score
}

// Weights returns a copy of w.
func (s *OPAUCr) Weights() []float64 {
	if s.exact != nil {
		return s.exact.Weights()
	}
	out := make([]float64, s.d)
	s.b.Download(out, s.w)
	return out
}

type opaucrClassState struct {
	N        int64
	C, ZT, S []float64
}

type opaucrState struct {
	P   OPAUCrParams
	D   int
	W   []float64
	RNG []byte
	Cls [2]opaucrClassState
}

// MarshalBinary encodes the learner's state (parameters, counts, means, sketches, w and
// the random generator) with encoding/gob; a learner restored from it continues
// bit-identically.
func (s *OPAUCr) MarshalBinary() ([]byte, error) {
	if s.exact != nil {
		return s.exact.MarshalBinary()
	}
	rng, err := s.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	st := opaucrState{P: s.p, D: s.d, W: s.Weights(), RNG: rng}
	for i := range s.cls {
		cl, cs := &s.cls[i], &st.Cls[i]
		cs.N = cl.n
		cs.C, cs.ZT, cs.S = make([]float64, s.d), make([]float64, s.p.Tau*s.d), make([]float64, s.p.Tau)
		s.b.Download(cs.C, cl.c)
		s.b.Download(cs.ZT, cl.zt)
		s.b.Download(cs.S, cl.s)
	}
	return encodeState(st)
}

// UnmarshalBinary restores a state written by MarshalBinary into s, which must have
// been made for the same dimension and τ.
func (s *OPAUCr) UnmarshalBinary(data []byte) error {
	if s.exact != nil {
		if err := s.exact.UnmarshalBinary(data); err != nil {
			return fmt.Errorf("solver: OPAUCr state (τ ≥ d: OPAUC's): %w", err)
		}
		s.p.Eta, s.p.Lambda = s.exact.p.Eta, s.exact.p.Lambda
		return nil
	}
	var st opaucrState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: OPAUCr state: %w", err)
	}
	if err := (OPAUCParams{Eta: st.P.Eta, Lambda: st.P.Lambda}).check(); err != nil {
		return err
	}
	if st.D != s.d || st.P.Tau != s.p.Tau || len(st.W) != s.d {
		return fmt.Errorf("solver: OPAUCr state of dimension %d, τ %d; want %d, %d", st.D, st.P.Tau, s.d, s.p.Tau)
	}
	for i := range st.Cls {
		cs := &st.Cls[i]
		if cs.N < 0 || len(cs.C) != s.d || len(cs.ZT) != s.p.Tau*s.d || len(cs.S) != s.p.Tau {
			return fmt.Errorf("solver: OPAUCr state: class %d malformed", i)
		}
	}
	if err := s.pcg.UnmarshalBinary(st.RNG); err != nil {
		return fmt.Errorf("solver: OPAUCr state: %w", err)
	}
	s.b.Upload(s.w, st.W)
	for i := range s.cls {
		cl, cs := &s.cls[i], &st.Cls[i]
		cl.n = cs.N
		s.b.Upload(cl.c, cs.C)
		s.b.Upload(cl.zt, cs.ZT)
		s.b.Upload(cl.s, cs.S)
	}
	s.p = st.P
	return nil
}

// opaucSpec is OPAUC's Spec: two classes' d×d scatters and 32×d pending blocks, ~10
// vectors of state; the grid trains in one pass with shared covariances (NewMulti).
func opaucSpec() Spec {
	s := online("opauc", "one-pass AUC, square loss, full covariances (Gao et al. 2013)", "ICML 2013, Alg. 1",
		DefaultOPAUCParams, OPAUCGrid, NewOPAUC)
	s.NewMulti, s.Rotational = newOPAUCGrid, true
	s.DeviceValues, s.MinSteps = deviceOPAUC, squareMinSteps
	withState(&s, func(d, _ float64, _ *OPAUCParams) float64 { return 2*d*d + 80*d })
	withDefaults(&s, func(f DataFacts, p *OPAUCParams) { opaucDefaults(f, &p.Eta, &p.Lambda) })
	return s
}

// opaucrSpec is OPAUCr's Spec: rank-τ sketches of the covariances (OPAUC's exact ones
// from τ ≥ d).
func opaucrSpec() Spec {
	s := online("opaucr", "OPAUC with rank-τ randomized covariances, for high dimensions (exact covariances from τ ≥ d)", "ICML 2013, Sec. 4",
		DefaultOPAUCrParams, OPAUCrGrid, NewOPAUCr)
	s.MinSteps = squareMinSteps
	withState(&s, func(d, _ float64, p *OPAUCrParams) float64 {
		tau := float64(p.Tau)
		if tau >= d { // OPAUC's exact covariances
			return 2*d*d + 80*d
		}
		return 2*tau*d + 10*d + 4*tau
	})
	withDefaults(&s, func(f DataFacts, p *OPAUCrParams) { opaucDefaults(f, &p.Eta, &p.Lambda) })
	return s
}

// opaucfSpec is OPAUC-F's Spec: OPAUC's state on k of the d features.
func opaucfSpec() Spec {
	s := online("opauc-f", "OPAUC on a random subset of the features (the paper's comparison)", "ICML 2013, Sec. 5",
		DefaultOPAUCfParams, OPAUCfGrid, NewOPAUCf)
	s.MinSteps = squareMinSteps
	withState(&s, func(d, _ float64, p *OPAUCfParams) float64 {
		k := min(float64(p.Features), d)
		return 2*k*k + 80*k + d
	})
	withDefaults(&s, func(f DataFacts, p *OPAUCfParams) { opaucDefaults(f, &p.Eta, &p.Lambda) })
	return s
}

// opaucrpSpec is OPAUC-RP's Spec: the d×k projection and OPAUC's state in k dimensions.
func opaucrpSpec() Spec {
	s := online("opauc-rp", "OPAUC on a Gaussian random projection to k < d dimensions (OPAUC itself from k ≥ d; the paper's comparison)", "ICML 2013, Sec. 5",
		DefaultOPAUCrpParams, OPAUCrpGrid, NewOPAUCrp)
	s.MinSteps = squareMinSteps
	withState(&s, func(d, _ float64, p *OPAUCrpParams) float64 {
		k := float64(p.Dims)
		if k >= d { // R = I: OPAUC's state
			return 2*d*d + 80*d
		}
		return d*k + 2*k*k + 80*k + 4*d
	})
	withDefaults(&s, func(f DataFacts, p *OPAUCrpParams) { opaucDefaults(f, &p.Eta, &p.Lambda) })
	return s
}
