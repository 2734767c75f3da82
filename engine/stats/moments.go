package stats

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// Moments are the count n, mean m and scatter Σ (x − m)(x − m)ᵀ of a set of
// d-dimensional rows, held on a backend (the scatter in its upper triangle). Two
// Moments over disjoint sets merge exactly (Chan, Golub and LeVeque's pairwise update),
// so shards, cores and devices can accumulate independently.
//
// Rows may carry weights (AddBlockWeighted): the mean and scatter are then the
// weighted ones, Σ w_i x_i / W and Σ w_i (x − m)(x − m)ᵀ with W = Σ w_i, which is what
// each row repeated w_i times gives for integer weights. Without weights W is the count.
//
// A Moments is not safe for concurrent use.
type Moments struct {
	b        kernels.Backend
	d        int
	n        int64
	w        float64 // the rows' total weight: float64(n) without weights
	weighted bool    // some row was added with a weight other than 1
	mean     kernels.Vec
	scatter  kernels.Mat
	delta    kernels.Vec // scratch: a difference of means
	ones     kernels.Vec // scratch: ones for block means, grown on demand
	sqrtW    kernels.Vec // scratch: a weighted block's √w, grown on demand
	host     []float64   // scratch: host copy of delta
}

// NewMoments returns empty moments of dimension d on backend b.
func NewMoments(b kernels.Backend, d int) *Moments {
	return &Moments{b: b, d: d, mean: b.NewVec(d), scatter: b.NewMat(d, d), delta: b.NewVec(d), host: make([]float64, d)}
}

// N is the number of rows added.
func (m *Moments) N() int64 { return m.n }

// W is the rows' total weight: N() for rows added without weights.
func (m *Moments) W() float64 { return m.w }

// Weighted reports whether rows were added with weights (AddBlockWeighted).
func (m *Moments) Weighted() bool { return m.weighted }

// Dim is the dimension d.
func (m *Moments) Dim() int { return m.d }

// Add adds one row x (a Vec of length d), in O(d²) by Welford's update:
//
//	δ = x − m;  m += δ/n;  S += (n−1)/n · δδᵀ
func (m *Moments) Add(x kernels.Vec) {
	m.checkDim("Add", x.Len())
	m.b.Copy(m.delta, x)
	m.b.Axpy(-1, m.mean, m.delta)
	m.n++
	m.w++
	n := m.w
	m.b.Axpy(1/n, m.delta, m.mean)
	m.b.Syr((n-1)/n, m.delta, m.scatter)
}

// AddBlock adds the k rows of x (k×d) with one Gemv, one Ger and one Syrk: the block's
// mean and scatter are computed on the centred block and merged. The rows of x are
// overwritten (centred on the block mean).
func (m *Moments) AddBlock(x kernels.Mat) {
	k, d := x.Dims()
	m.checkDim("AddBlock", d)
	if k == 0 {
		return
	}
	if m.ones == nil || m.ones.Len() < k {
		m.ones = m.b.NewVec(k)
		h := make([]float64, k)
		for i := range h {
			h[i] = 1
		}
		m.b.Upload(m.ones, h)
	}
	ones := m.ones.Slice(0, k)
	// delta = block mean
	m.b.Gemv(true, 1/float64(k), x, ones, 0, m.delta)
	// centre the block and add its scatter
	m.b.Ger(-1, ones, m.delta, x)
	m.b.Syrk(1, x, 1, m.scatter)
	// merge the block's mean: delta = mean_block − mean
	m.b.Axpy(-1, m.mean, m.delta)
	m.mergeMean(int64(k), float64(k), m.delta)
}

// AddBlockWeighted adds the k rows of x (k×d) with weights w (k of them, each finite and
// ≥ 0), where x holds each row already multiplied by math.Sqrt(w_i): the block's
// weighted mean is Σ √w_i·(√w_i x_i) / Σ w_i, and its centred rows √w_i (x_i − m) give
// the weighted scatter by one Syrk, merged as AddBlock's. A block whose weights sum to
// 0 adds nothing but its rows to N. The rows of x are overwritten.
func (m *Moments) AddBlockWeighted(x kernels.Mat, w []float64) {
	k, d := x.Dims()
	m.checkDim("AddBlockWeighted", d)
	if len(w) != k {
		panic(fmt.Sprintf("stats: Moments.AddBlockWeighted: %d weights for %d rows", len(w), k))
	}
	if k == 0 {
		return
	}
	m.weighted = true
	h := make([]float64, k)
	var wb float64
	for i, v := range w {
		h[i] = math.Sqrt(v)
		wb += v
	}
	if wb == 0 {
		m.n += int64(k)
		return
	}
	if m.sqrtW == nil || m.sqrtW.Len() < k {
		m.sqrtW = m.b.NewVec(k)
	}
	sw := m.sqrtW.Slice(0, k)
	m.b.Upload(sw, h)
	m.b.Gemv(true, 1/wb, x, sw, 0, m.delta)
	m.b.Ger(-1, sw, m.delta, x)
	m.b.Syrk(1, x, 1, m.scatter)
	m.b.Axpy(-1, m.mean, m.delta)
	m.mergeMean(int64(k), wb, m.delta)
}

// Merge adds the moments of o (another set of rows, of the same dimension, on the same
// backend) to m. o is unchanged.
func (m *Moments) Merge(o *Moments) {
	m.checkDim("Merge", o.d)
	if o.n == 0 {
		return
	}
	m.weighted = m.weighted || o.weighted
	if o.w == 0 { // rows of weight 0: nothing to merge but their count
		m.n += o.n
		return
	}
	for i := range m.d {
		m.b.Axpy(1, o.scatter.Row(i).Slice(i, m.d), m.scatter.Row(i).Slice(i, m.d))
	}
	m.b.Copy(m.delta, o.mean)
	m.b.Axpy(-1, m.mean, m.delta)
	m.mergeMean(o.n, o.w, m.delta)
}

// mergeMean merges k rows of total weight kw (k without weights) whose mean is
// m.mean + delta (their scatter already added), W being m's total weight:
//
//	m += δ·kw/(W+kw);  S += δδᵀ·W·kw/(W+kw)
func (m *Moments) mergeMean(k int64, kw float64, delta kernels.Vec) {
	n, kf := m.w, kw
	tot := n + kf
	m.b.Syr(n*kf/tot, delta, m.scatter)
	m.b.Axpy(kf/tot, delta, m.mean)
	m.n += k
	m.w += kw
}

// Mean returns a copy of the mean on the host (zeros when empty).
func (m *Moments) Mean() []float64 {
	out := make([]float64, m.d)
	m.b.Download(out, m.mean)
	return out
}

// Cov returns the biased covariance S = scatter/W (W = n without weights) as a full symmetric d×d row-major
// host matrix (zeros when empty).
func (m *Moments) Cov() []float64 {
	out := make([]float64, m.d*m.d)
	m.b.Download(out, m.scatter)
	scale := 0.0
	if m.w > 0 {
		scale = 1 / m.w
	}
	for i := range m.d {
		for j := i; j < m.d; j++ {
			v := out[i*m.d+j] * scale
			out[i*m.d+j], out[j*m.d+i] = v, v
		}
	}
	return out
}

// MeanVec is the backend's mean vector, for solvers that keep working on the backend.
// It is the Moments' own storage: read it, do not modify it.
func (m *Moments) MeanVec() kernels.Vec { return m.mean }

// Scatter is the backend's scatter matrix (upper triangle), for solvers that keep
// working on the backend. It is the Moments' own storage: read it, do not modify it.
func (m *Moments) Scatter() kernels.Mat { return m.scatter }

func (m *Moments) checkDim(op string, d int) {
	if d != m.d {
		panic(fmt.Sprintf("stats: Moments.%s: dimension %d, want %d", op, d, m.d))
	}
}
