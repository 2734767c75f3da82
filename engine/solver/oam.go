package solver

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/aucopt/aucopt/internal/f64"
	"github.com/aucopt/aucopt/kernels"
)

// OAMParams are the hyper-parameters of OAM (Zhao et al. 2011; thesis Alg. 4–7), shared
// by its sequential and gradient variants. Start from DefaultOAMParams.
type OAMParams struct {
	// C is the penalty C > 0; example t uses C_t = C·max(1, N_t^other/N). Default 2⁻³;
	// on loaded data c/(R²·P²) for the P default passes (oamSeqSpec, oamC). Paper
	// grid 2^[-10..10].
	C float64 `param:"C"`
	// Buffer is the size N ≥ 1 of each class's reservoir buffer (the papers: 100, 50
	// for high-dimensional data). Default 100. Not searched.
	Buffer int `param:"buffer"`
}

// DefaultOAMParams returns OAM's defaults.
func DefaultOAMParams() OAMParams { return OAMParams{C: 1.0 / 8, Buffer: 100} }

// OAMGrid is the papers' grid for OAM (both variants).
var OAMGrid = Grid{Keys: []string{"C"}, Values: [][]float64{Pow2(-10, 10)}}

// oamStream is the PCG stream of OAM's reservoir draws ("oam").
const oamStream = 0x6f616d

// OAM is online AUC maximisation with reservoir buffers (Zhao, Hoi, Jin, Yang 2011;
// thesis Alg. 4–7; docs/ALGORITHMS.md, "OAM"). It keeps a buffer of at most N examples of
// each class, B+ and B−, filled by reservoir sampling: an example is added while its
// class's buffer is not full, and afterwards replaces a uniformly drawn slot with
// probability N/N_t (N_t examples of its class seen, itself included). A positive x_t
// sets C_t = C·max(1, N_t^−/N), updates B+, then updates w against every x ∈ B−
// (negatives symmetrically, against B+), in one of two ways:
//
//   - OAM_seq (NewOAMSeq), PA-style hinge, sequentially over the buffer:
//     ℓ = max(0, 1 − y_t w·(x_t − x)), τ = min(C_t, ℓ/‖x_t − x‖²), w += τ y_t (x_t − x);
//   - OAM_gra (NewOAMGra), for every x with y_t w_t·(x_t − x) ≤ 1 (w_t fixed over the
//     buffer): w += C_t y_t (x_t − x)/2.
//
// The buffers are dense backend matrices (one row per buffered example; a sparse x_t
// is densified into its row), so the margins against a buffer are one Gemv. For the
// sequential variant, the margin of the i-th buffered example depends on the steps
// taken for the earlier ones; with u_i = x_t − x_i and a_k = τ_k y_t,
//
//	w_i·u_i = w·u_i + Σ_{k<i} a_k (u_k·u_i),   u_k·u_i = ‖x_t‖² − x_t·x_i − x_t·x_k + x_k·x_i,
//
// so each buffer's Gram matrix x_k·x_i is kept on the host (updated by one Gemv when a
// row is replaced) and the whole sweep costs two Gemv for B·w and B·x_t, O(N²) host
// arithmetic and one transposed Gemv for w += (Σ a_k) x_t − Bᵀa — the same result as the
// literal sequential loop up to rounding. A pair with x_t = x_i (u_i = 0) carries no
// information and is skipped (‖u_i‖² ≤ 10⁻¹²·(‖x_t‖² + ‖x_i‖²) counts as zero, since
// the Gram form computes it only up to rounding).
//
// Per example: O(N·d) backend work (the buffers are dense; the Gemv run over all N rows,
// the unfilled ones being zero), O(N²) host arithmetic for OAM_seq, and O(N·d) more when
// the example enters its buffer.
type OAM struct {
	b   kernels.Backend
	p   OAMParams
	gra bool // OAM_gra, else OAM_seq
	dim int

	w      kernels.Vec
	buf    [2]kernels.Mat   // B+ (index 0) and B− (index 1), Buffer×dim
	rows   [2][]kernels.Vec // the rows of buf, as views made once
	filled [2]int           // rows in use
	seen   [2]int64         // N_t^+ and N_t^−
	gram   [2][]float64     // OAM_seq: x_k·x_i of each buffer, Buffer×Buffer row-major

	xt   kernels.Vec // OAM_seq: x_t densified
	coef kernels.Vec // the Buffer coefficients of the update w −= Bᵀ·coef
	outW kernels.Vec // B·w
	outX kernels.Vec // B·x_t
	bw   []float64   // host copies of outW and outX, and of coef
	g    []float64
	a    []float64

	pcg *rand.PCG
	rng *rand.Rand
}

// NewOAMSeq makes OAM_seq (sequential PA-style updates, thesis Alg. 6) over dim
// features; seed drives the reservoir draws.
func NewOAMSeq(b kernels.Backend, dim int, p OAMParams, seed uint64) (*OAM, error) {
	return newOAM(b, dim, p, seed, false)
}

// NewOAMGra makes OAM_gra (gradient updates, thesis Alg. 7) over dim features; seed
// drives the reservoir draws.
func NewOAMGra(b kernels.Backend, dim int, p OAMParams, seed uint64) (*OAM, error) {
	return newOAM(b, dim, p, seed, true)
}

func newOAM(b kernels.Backend, dim int, p OAMParams, seed uint64, gra bool) (*OAM, error) {
	for _, err := range []error{
		Check(dim > 0, "dim", dim, "> 0"),
		Check(p.C > 0 && !math.IsInf(p.C, 0), "C", p.C, "a finite number > 0"),
		Check(p.Buffer >= 1, "buffer", p.Buffer, "≥ 1"),
	} {
		if err != nil {
			return nil, err
		}
	}
	o := &OAM{b: b, gra: gra, dim: dim, w: b.NewVec(dim)}
	o.alloc(p)
	o.pcg = rand.NewPCG(seed, oamStream)
	o.rng = rand.New(o.pcg)
	return o, nil
}

// alloc sets p and makes the buffers and scratch for its buffer size (all zero).
func (o *OAM) alloc(p OAMParams) {
	o.p = p
	n, b := p.Buffer, o.b
	for c := range o.buf {
		o.buf[c] = b.NewMat(n, o.dim)
		o.rows[c] = make([]kernels.Vec, n)
		for i := range n {
			o.rows[c][i] = o.buf[c].Row(i)
		}
		o.filled[c] = 0
		o.gram[c] = nil
		if !o.gra {
			o.gram[c] = make([]float64, n*n)
		}
	}
	if !o.gra {
		o.xt = b.NewVec(o.dim)
	}
	o.coef, o.outW, o.outX = b.NewVec(n), b.NewVec(n), b.NewVec(n)
	o.bw, o.g, o.a = make([]float64, n), make([]float64, n), make([]float64, n)
}

// Observe updates the buffer of x's class and then w against the other class's buffer,
// and returns the score w·x from before. y must be +1 or −1.
func (o *OAM) Observe(x kernels.Sparse, y int8) float64 {
	checkLabel("OAM", y)
	b := o.b
	score := b.DotSparse(x, o.w)
	c := 0 // x's class: 0 positive, 1 negative
	if y == -1 {
		c = 1
	}
	other := 1 - c
	o.seen[c]++
	ct := o.p.C * max(1, float64(o.seen[other])/float64(o.p.Buffer))
	if !o.gra {
		b.Scal(0, o.xt)
		b.AxpySparse(1, x, o.xt)
	}
	o.insert(c, x)
	if o.filled[other] == 0 {
		return score
	}
	if o.gra {
		o.updateGra(x, float64(y), score, ct, other)
	} else {
		o.updateSeq(x, float64(y), score, ct, other)
	}
	return score
}

// insert is the reservoir update of buffer c with x (thesis Alg. 5).
func (o *OAM) insert(c int, x kernels.Sparse) {
	b, n := o.b, o.p.Buffer
	var slot int
	if o.filled[c] < n {
		slot = o.filled[c]
		o.filled[c]++
	} else {
		if o.rng.Float64() >= float64(n)/float64(o.seen[c]) {
			return
		}
		slot = o.rng.IntN(n)
	}
	row := o.rows[c][slot]
	if o.gra {
		b.Scal(0, row)
		b.AxpySparse(1, x, row)
		return
	}
	b.Copy(row, o.xt)
	// Row and column slot of the Gram matrix: B·x_t (the unused rows are zero).
	b.Gemv(false, 1, o.buf[c], o.xt, 0, o.outX)
	b.Download(o.g, o.outX)
	k := o.gram[c]
	for i := range o.filled[c] {
		k[slot*n+i] = o.g[i]
		k[i*n+slot] = o.g[i]
	}
}

// updateGra is thesis Alg. 7 against buffer c.
func (o *OAM) updateGra(x kernels.Sparse, y, score, ct float64, c int) {
	b, m := o.b, o.filled[c]
	b.Gemv(false, 1, o.buf[c], o.w, 0, o.outW)
	b.Download(o.bw, o.outW)
	cnt := 0
	for i := range m {
		o.a[i] = 0
		if y*(score-o.bw[i]) <= 1 {
			o.a[i] = 1
			cnt++
		}
	}
	if cnt == 0 {
		return
	}
	clear(o.a[m:])
	h := ct * y / 2
	b.Upload(o.coef, o.a)
	b.AxpySparse(h*float64(cnt), x, o.w)
	b.Gemv(true, -h, o.buf[c], o.coef, 1, o.w)
}

// updateSeq is thesis Alg. 6 against buffer c, through the Gram matrix (see OAM).
func (o *OAM) updateSeq(x kernels.Sparse, y, score, ct float64, c int) {
	b, m, n := o.b, o.filled[c], o.p.Buffer
	b.Gemv(false, 1, o.buf[c], o.w, 0, o.outW)
	b.Download(o.bw, o.outW)
	b.Gemv(false, 1, o.buf[c], o.xt, 0, o.outX)
	b.Download(o.g, o.outX)
	var xx float64 // ‖x_t‖²
	for _, v := range x.Val {
		xx += v * v
	}
	k, g, a := o.gram[c], o.g, o.a
	// w_i·u_i = w·u_i + Σ_{j<i} a_j (‖x_t‖² − g_i − g_j + K_ij)
	//         = score − (B·w)_i + (‖x_t‖² − g_i)·Σa_j − Σa_j g_j + Σa_j K_ij,
	// with the first two sums running totals over j < i.
	var sum, sumG float64
	for i := range m {
		ki := k[i*n : i*n+i+1]
		mi := score - o.bw[i] + (xx-g[i])*sum - sumG + f64.Dot(a[:i], ki[:i])
		a[i] = 0
		loss := 1 - y*mi
		nn := xx - 2*g[i] + ki[i] // ‖u_i‖²
		if loss <= 0 || nn <= 1e-12*(xx+ki[i]) {
			continue
		}
		a[i] = y * min(ct, loss/nn)
		sum += a[i]
		sumG += a[i] * g[i]
	}
	clear(a[m:])
	b.Upload(o.coef, a)
	b.AxpySparse(sum, x, o.w)
	b.Gemv(true, -1, o.buf[c], o.coef, 1, o.w)
}

// Weights returns a copy of w.
func (o *OAM) Weights() []float64 {
	w := make([]float64, o.dim)
	o.b.Download(w, o.w)
	return w
}

type oamState struct {
	Gra    bool
	Params OAMParams
	Dim    int
	W      []float64
	Buf    [2][]float64
	Filled [2]int
	Seen   [2]int64
	Gram   [2][]float64
	RNG    []byte
}

// MarshalBinary checkpoints the learner: parameters, w, both buffers with their Gram
// matrices and counts, and the reservoir generator's state.
func (o *OAM) MarshalBinary() ([]byte, error) {
	st := oamState{Gra: o.gra, Params: o.p, Dim: o.dim, Filled: o.filled, Seen: o.seen, Gram: o.gram}
	st.W = make([]float64, o.dim)
	o.b.Download(st.W, o.w)
	for c := range o.buf {
		st.Buf[c] = make([]float64, o.buf[c].Len())
		o.b.Download(st.Buf[c], o.buf[c])
	}
	rng, err := o.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	st.RNG = rng
	return encodeState(st)
}

// UnmarshalBinary restores a checkpoint made by MarshalBinary into a learner of the
// same variant and dimension made by NewOAMSeq or NewOAMGra (its backend is kept; the
// parameters, buffer size included, come from the checkpoint). The restored learner
// continues bit-identically.
func (o *OAM) UnmarshalBinary(data []byte) error {
	var st oamState
	if err := decodeState(data, &st); err != nil {
		return fmt.Errorf("solver: OAM checkpoint: %w", err)
	}
	n := st.Params.Buffer
	switch {
	case st.Gra != o.gra:
		return fmt.Errorf("solver: OAM checkpoint of the other variant (gra = %v)", st.Gra)
	case st.Dim != o.dim || len(st.W) != o.dim:
		return fmt.Errorf("solver: OAM checkpoint has dimension %d, learner %d", st.Dim, o.dim)
	case n < 1 || st.Filled[0] > n || st.Filled[1] > n || len(st.Buf[0]) != n*o.dim || len(st.Buf[1]) != n*o.dim ||
		(!st.Gra && (len(st.Gram[0]) != n*n || len(st.Gram[1]) != n*n)):
		return fmt.Errorf("solver: OAM checkpoint is inconsistent")
	}
	pcg := rand.NewPCG(0, 0)
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return fmt.Errorf("solver: OAM checkpoint: %w", err)
	}
	if n != o.p.Buffer {
		o.alloc(st.Params)
	}
	o.p = st.Params
	o.b.Upload(o.w, st.W)
	for c := range o.buf {
		o.b.Upload(o.buf[c], st.Buf[c])
		if !o.gra {
			copy(o.gram[c], st.Gram[c])
		}
	}
	o.filled, o.seen = st.Filled, st.Seen
	o.pcg = pcg
	o.rng = rand.New(pcg)
	return nil
}

// oamSeqSpec is OAM_seq's Spec: two reservoirs of N rows and their N×N Gram matrices;
// the data-scaled C is oamC's.
func oamSeqSpec() Spec {
	s := online("oam-seq", "online AUC maximisation with reservoir buffers, sequential PA updates", "Zhao et al. 2011; thesis Alg. 4-7",
		DefaultOAMParams, OAMGrid, NewOAMSeq)
	s.MinSteps = oamMinSteps
	withState(&s, func(d, _ float64, p *OAMParams) float64 {
		n := float64(p.Buffer)
		return 2*n*d + 2*n*n + 4*d
	})
	withDefaults(&s, func(f DataFacts, p *OAMParams) { p.C = oamC(f, oamSeqC) })
	return s
}

// oamGraSpec is OAM_gra's Spec: two reservoirs of N rows (no Gram matrices); its pair
// step is half OAM_seq's, so its c is twice OAM_seq's (oamC).
func oamGraSpec() Spec {
	s := online("oam-gra", "online AUC maximisation with reservoir buffers, gradient updates", "Zhao et al. 2011; thesis Alg. 4-7",
		DefaultOAMParams, OAMGrid, NewOAMGra)
	s.MinSteps = oamMinSteps
	withState(&s, func(d, _ float64, p *OAMParams) float64 { return 2*float64(p.Buffer)*d + 4*d })
	withDefaults(&s, func(f DataFacts, p *OAMParams) { p.C = oamC(f, 2*oamSeqC) })
	return s
}
