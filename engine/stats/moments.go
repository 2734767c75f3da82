package stats

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// Moments are the count n, mean m and scatter Σ (x − m)(x − m)ᵀ of a set of
// d-dimensional rows, held on a backend (the scatter in its upper triangle). Two
// Moments over disjoint sets merge exactly (Chan, Golub and LeVeque's pairwise update),
// so shards, cores and devices can accumulate independently.
//
// A Moments is not safe for concurrent use.
type Moments struct {
	b       kernels.Backend
	d       int
	n       int64
	mean    kernels.Vec
	scatter kernels.Mat
	delta   kernels.Vec // scratch: a difference of means
	ones    kernels.Vec // scratch: ones for block means, grown on demand
	host    []float64   // scratch: host copy of delta
}

// NewMoments returns empty moments of dimension d on backend b.
func NewMoments(b kernels.Backend, d int) *Moments {
	return &Moments{b: b, d: d, mean: b.NewVec(d), scatter: b.NewMat(d, d), delta: b.NewVec(d), host: make([]float64, d)}
}

// N is the number of rows added.
func (m *Moments) N() int64 { return m.n }

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
	n := float64(m.n)
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
	m.mergeMean(int64(k), m.delta)
}

// Merge adds the moments of o (another set of rows, of the same dimension, on the same
// backend) to m. o is unchanged.
func (m *Moments) Merge(o *Moments) {
	m.checkDim("Merge", o.d)
	if o.n == 0 {
		return
	}
	for i := range m.d {
		m.b.Axpy(1, o.scatter.Row(i).Slice(i, m.d), m.scatter.Row(i).Slice(i, m.d))
	}
	m.b.Copy(m.delta, o.mean)
	m.b.Axpy(-1, m.mean, m.delta)
	m.mergeMean(o.n, m.delta)
}

// mergeMean merges k rows whose mean is m.mean + delta (their scatter already added):
//
//	m += δ·k/(n+k);  S += δδᵀ·n·k/(n+k)
func (m *Moments) mergeMean(k int64, delta kernels.Vec) {
	n, kf := float64(m.n), float64(k)
	tot := n + kf
	m.b.Syr(n*kf/tot, delta, m.scatter)
	m.b.Axpy(kf/tot, delta, m.mean)
	m.n += k
}

// Mean returns a copy of the mean on the host (zeros when empty).
func (m *Moments) Mean() []float64 {
	out := make([]float64, m.d)
	m.b.Download(out, m.mean)
	return out
}

// Cov returns the biased covariance S = scatter/n as a full symmetric d×d row-major
// host matrix (zeros when empty).
func (m *Moments) Cov() []float64 {
	out := make([]float64, m.d*m.d)
	m.b.Download(out, m.scatter)
	scale := 0.0
	if m.n > 0 {
		scale = 1 / float64(m.n)
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
