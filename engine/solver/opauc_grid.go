package solver

import (
	"fmt"
	"math"
	"slices"

	"github.com/aucopt/aucopt/kernels"
)

// opaucGrid is OPAUC over a grid of (η, λ) in one pass. The class statistics (count,
// mean, scatter) do not depend on the weights, so they are kept once for the whole
// grid; only the weights differ. The G weight vectors are the rows of W (G×d), and per
// example one Symm computes S_o·w_g for all of them, G·d² multiply-adds in one level-3
// kernel instead of G separate Symvs over G separate copies of the statistics. The
// statistics are updated per example by Welford's update (one Syr), so every grid
// point's gradient sees exactly the statistics up to its example, as in OPAUC; the
// weights equal a lone OPAUC's up to rounding (OPAUC batches its covariance updates
// differently).
//
// A grid point whose score becomes non-finite is retired: its row is swapped out of the
// active rows, so that the paper's grid, whose large steps (η up to 2¹⁰) diverge
// within a few examples, costs only what its useful points cost.
type opaucGrid struct {
	b      kernels.Backend
	d      int
	active int           // rows [0, active) of w are being trained
	p      []OPAUCParams // p[r]: parameters of active row r
	orig   []int         // orig[r]: grid index of active row r
	div    []int64       // by grid index: example count at divergence, 0 if none
	drop   []bool        // by grid index: stopped by Drop
	final  [][]float64   // by grid index: the weights of a retired point
	seen   int64
	w, r   kernels.Mat   // G×d: the weights, and S_o·w
	wRows  []kernels.Vec // the rows of w, by position
	rRows  []kernels.Vec // the rows of r, by position
	cls    [2]opaucGridClass
	delta  kernels.Vec // x − own mean, for Welford's update
	xm     kernels.Vec // x − m_o
	ev     kernels.Vec // W·(x − m_o), length G
	coef   kernels.Vec // −η_g·e_g, length G
	evHost []float64
	coefH  []float64
}

// alloc makes m's tensors for n grid points of dimension d.
func (m *opaucGrid) alloc(n, d int) {
	b := m.b
	m.w, m.r, m.delta, m.xm = b.NewMat(n, d), b.NewMat(n, d), b.NewVec(d), b.NewVec(d)
	m.ev, m.coef, m.evHost, m.coefH = b.NewVec(n), b.NewVec(n), make([]float64, n), make([]float64, n)
	m.wRows, m.rRows = make([]kernels.Vec, n), make([]kernels.Vec, n)
	for i := range n {
		m.wRows[i], m.rRows[i] = m.w.Row(i), m.r.Row(i)
	}
}

// opaucGridClass is one class's count, mean and scatter Σ (x − m)(x − m)ᵀ (upper).
type opaucGridClass struct {
	n       int64
	mean    kernels.Vec
	scatter kernels.Mat
}

// newOPAUCGrid is OPAUC's Spec.NewMulti.
func newOPAUCGrid(b kernels.Backend, dim int, params []Params, _ uint64) (Multi, error) {
	if err := checkDim(dim); err != nil {
		return nil, err
	}
	n := len(params)
	m := &opaucGrid{
		b: b, d: dim, active: n, p: make([]OPAUCParams, n), orig: make([]int, n),
		div: make([]int64, n), drop: make([]bool, n), final: make([][]float64, n),
	}
	m.alloc(n, dim)
	for g, p := range params {
		pp := typedParams[OPAUCParams]("opauc", p)
		if err := pp.check(); err != nil {
			return nil, fmt.Errorf("grid point %d: %w", g+1, err)
		}
		m.p[g], m.orig[g] = *pp, g
	}
	for i := range m.cls {
		m.cls[i].mean, m.cls[i].scatter = b.NewVec(dim), b.NewMat(dim, dim)
	}
	return m, nil
}

// Fork copies the grid: weights, class statistics and the bookkeeping of retired
// points (solver.Forker).
func (m *opaucGrid) Fork() (Multi, error) {
	b, n, d := m.b, len(m.div), m.d
	c := &opaucGrid{
		b: b, d: d, active: m.active, p: slices.Clone(m.p), orig: slices.Clone(m.orig),
		div: slices.Clone(m.div), drop: slices.Clone(m.drop), final: make([][]float64, n), seen: m.seen,
	}
	c.alloc(n, d)
	for g, f := range m.final {
		c.final[g] = slices.Clone(f)
	}
	buf := make([]float64, max(n, d)*d)
	copyMat := func(dst, src kernels.Mat) {
		h := buf[:src.Len()]
		b.Download(h, src)
		b.Upload(dst, h)
	}
	copyMat(c.w, m.w)
	for i, cl := range m.cls {
		c.cls[i] = opaucGridClass{n: cl.n, mean: b.NewVec(d), scatter: b.NewMat(d, d)}
		b.Copy(c.cls[i].mean, cl.mean)
		copyMat(c.cls[i].scatter, cl.scatter)
	}
	return c, nil
}

// Drop retires grid point g as divergence would, without marking it diverged
// (solver.Dropper).
func (m *opaucGrid) Drop(g int) {
	m.drop[g] = true
	m.retire()
}

func (m *opaucGrid) Len() int             { return len(m.div) }
func (m *opaucGrid) Diverged(g int) int64 { return m.div[g] }

func (m *opaucGrid) Weights(g int) []float64 {
	if m.final[g] != nil {
		return append([]float64(nil), m.final[g]...)
	}
	for r := range m.active {
		if m.orig[r] == g {
			out := make([]float64, m.d)
			m.b.Download(out, m.w.Row(r))
			return out
		}
	}
	panic(fmt.Sprintf("solver: opauc grid: no grid point %d", g))
}

func (m *opaucGrid) ObserveBlock(xs []kernels.Sparse, ys []int8) {
	for i, x := range xs {
		checkLabel("OPAUC grid", ys[i])
		m.seen++
		m.observe(x, ys[i])
	}
}

// observe takes one OPAUC step for every active grid point, then adds x to its class.
// For row g with e_g = w_g·(x − m_o) − y (Algorithm 1's gradient, see opaucCore.grad):
//
//	w_g ← (1 − η_g λ_g) w_g − η_g S_o w_g − η_g e_g (x − m_o)
//
// where S_o w_g for all rows is one Symm, w_g·(x − m_o) for all rows one Gemv and the
// last term for all rows one Ger.
func (m *opaucGrid) observe(x kernels.Sparse, y int8) {
	b, d := m.b, m.d
	own, oth := &m.cls[1], &m.cls[0]
	if y < 0 {
		own, oth = oth, own
	}
	if g := m.active; g > 0 && oth.n > 0 {
		w, r := m.w.Slice(0, g, 0, d), m.r.Slice(0, g, 0, d)
		ev, coef := m.ev.Slice(0, g), m.coef.Slice(0, g)
		b.Copy(m.xm, oth.mean) // x − m_o
		b.Scal(-1, m.xm)
		b.AxpySparse(1, x, m.xm)
		b.Symm(1/float64(oth.n), oth.scatter, w, 0, r)
		b.Gemv(false, 1, w, m.xm, 0, ev)
		b.Download(m.evHost[:g], ev)
		for k := range g {
			s := m.evHost[k]
			if math.IsNaN(s) || math.IsInf(s, 0) {
				m.div[m.orig[k]] = m.seen
			}
			p := &m.p[k]
			wk := m.wRows[k]
			b.Scal(1-p.Eta*p.Lambda, wk)
			b.Axpy(-p.Eta, m.rRows[k], wk)
			m.coefH[k] = -p.Eta * (s - float64(y))
		}
		b.Upload(coef, m.coefH[:g])
		b.Ger(1, coef, m.xm, w)
		m.retire()
	}
	// Welford: δ = x − m; n += 1; m += δ/n; M += (n−1)/n·δδᵀ.
	b.Copy(m.delta, own.mean)
	b.Scal(-1, m.delta)
	b.AxpySparse(1, x, m.delta)
	own.n++
	n := float64(own.n)
	b.Axpy(1/n, m.delta, own.mean)
	if own.n > 1 {
		b.Syr((n-1)/n, m.delta, own.scatter)
	}
}

// retire swaps the rows that diverged on this example, or were dropped, out of the
// active ones, keeping their last weights for Weights.
func (m *opaucGrid) retire() {
	for k := 0; k < m.active; {
		g := m.orig[k]
		if m.div[g] == 0 && !m.drop[g] || m.final[g] != nil {
			k++
			continue
		}
		m.final[g] = make([]float64, m.d)
		m.b.Download(m.final[g], m.w.Row(k))
		last := m.active - 1
		if k != last {
			m.b.Copy(m.w.Row(k), m.w.Row(last))
			m.p[k], m.orig[k] = m.p[last], m.orig[last]
		}
		m.active--
	}
}
