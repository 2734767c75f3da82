package fallback

import (
	"fmt"

	"github.com/aucopt/aucopt/internal/f64"
	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// Backend is the pure-Go kernels.Backend. It is safe for concurrent use.
type Backend struct {
	host.Memory // NewVec, NewMat, Upload, Download, Copy on host tensors
	pool        *host.Pool
}

var (
	_ kernels.Backend    = (*Backend)(nil)
	_ kernels.Splitter   = (*Backend)(nil)
	_ kernels.Concurrent = (*Backend)(nil)
	_ kernels.Describer  = (*Backend)(nil)
	_ kernels.Viewer     = (*Backend)(nil)
)

// New returns a pure-Go backend whose large operations use up to GOMAXPROCS cores.
func New() *Backend { return &Backend{pool: host.NewPool(0)} }

// NewWorkers returns a pure-Go backend using at most workers goroutines (1: no
// parallelism). Results do not depend on workers.
func NewWorkers(workers int) *Backend { return &Backend{pool: host.NewPool(workers)} }

// Name returns "generic", the selector's name for this backend.
func (b *Backend) Name() string { return "generic" }

// Close stops the backend's workers.
func (b *Backend) Close() error {
	b.pool.Close()
	return nil
}

// WithWorkers returns a pure-Go backend using at most n goroutines (kernels.Splitter).
func (b *Backend) WithWorkers(n int) kernels.Backend { return NewWorkers(n) }

// Concurrency reports that the backend may be called from any number of goroutines at
// once (it holds no mutable state) and panics only for programmer errors
// (kernels.Concurrent).
func (b *Backend) Concurrency() kernels.Concurrency { return kernels.Safe }

// Detail is "pure Go, N cores", N being the number of goroutines that large operations
// use (kernels.Describer).
func (b *Backend) Detail() string { return fmt.Sprintf("pure Go, %d cores", b.pool.Workers()) }

// Dot returns Σ x[i]·y[i].
func (b *Backend) Dot(x, y kernels.Vec) float64 {
	xs, ys := host.VecData(x), host.VecData(y)
	host.CheckLen("Dot", len(xs), len(ys))
	return f64.Dot(xs, ys)
}

// Axpy computes y += alpha·x.
func (b *Backend) Axpy(alpha float64, x, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	host.CheckLen("Axpy", len(xs), len(ys))
	f64.Axpy(alpha, xs, ys)
}

// Scal computes x *= alpha.
func (b *Backend) Scal(alpha float64, x kernels.Vec) {
	f64.Scal(alpha, host.VecData(x))
}

// DotSparse returns Σ_k x.Val[k]·y[x.Idx[k]].
func (b *Backend) DotSparse(x kernels.Sparse, y kernels.Vec) float64 {
	ys := host.VecData(y)
	host.CheckSparse("DotSparse", x, len(ys))
	return f64.DotSparse(x, ys)
}

// AxpySparse computes y[x.Idx[k]] += alpha·x.Val[k].
func (b *Backend) AxpySparse(alpha float64, x kernels.Sparse, y kernels.Vec) {
	ys := host.VecData(y)
	host.CheckSparse("AxpySparse", x, len(ys))
	f64.AxpySparse(alpha, x, ys)
}

// Gemv computes y = alpha·op(A)·x + beta·y with op(A) = A or Aᵀ.
func (b *Backend) Gemv(trans bool, alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	host.CheckGemv("Gemv", trans, m.Rows, m.Cols, len(xs), len(ys))
	f64.Gemv(b.pool, trans, alpha, m, nil, xs, beta, ys)
}

// GemvRows is Gemv over the rows of A listed in rows.
func (b *Backend) GemvRows(trans bool, alpha float64, a kernels.Mat, rows []int32, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	host.CheckGemv("GemvRows", trans, len(rows), m.Cols, len(xs), len(ys))
	host.CheckRows(rows, m.Rows)
	if rows == nil {
		rows = []int32{} // no rows, not all of them
	}
	f64.Gemv(b.pool, trans, alpha, m, rows, xs, beta, ys)
}

// Symv computes y = alpha·A·x + beta·y for a symmetric A stored in its upper triangle.
func (b *Backend) Symv(alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	m, xs, ys := host.MatOf(a), host.VecData(x), host.VecData(y)
	host.CheckSquare("Symv", m, len(xs))
	host.CheckLen("Symv", len(xs), len(ys))
	f64.Symv(b.pool, alpha, m, xs, beta, ys)
}

// Ger computes A += alpha·x·yᵀ.
func (b *Backend) Ger(alpha float64, x, y kernels.Vec, a kernels.Mat) {
	xs, ys, m := host.VecData(x), host.VecData(y), host.MatOf(a)
	host.CheckGer(m.Rows, m.Cols, len(xs), len(ys))
	f64.Ger(alpha, xs, ys, m)
}

// Syr computes the upper triangle of A += alpha·x·xᵀ.
func (b *Backend) Syr(alpha float64, x kernels.Vec, a kernels.Mat) {
	xs, m := host.VecData(x), host.MatOf(a)
	host.CheckSquare("Syr", m, len(xs))
	f64.Syr(alpha, xs, m)
}

// Syrk computes the upper triangle of C = alpha·AᵀA + beta·C, where A is k×d and C d×d.
// C is cut into square tiles on or above the diagonal, computed in parallel, each with
// A's rows in order.
func (b *Backend) Syrk(alpha float64, a kernels.Mat, beta float64, c kernels.Mat) {
	am, cm := host.MatOf(a), host.MatOf(c)
	host.CheckSyrk(am.Rows, am.Cols, cm.Rows, cm.Cols)
	f64.Syrk(b.pool, alpha, am, beta, cm)
}

// Symm computes C = alpha·B·A + beta·C for a symmetric A (d×d) stored in its upper
// triangle and B, C k×d. Blocks of rows of C are computed in parallel, each sweeping A's
// upper triangle in cache-sized tiles.
func (b *Backend) Symm(alpha float64, a kernels.Mat, bm kernels.Mat, beta float64, c kernels.Mat) {
	am, bh, ch := host.MatOf(a), host.MatOf(bm), host.MatOf(c)
	host.CheckSymm(am, bh, ch)
	f64.Symm(b.pool, alpha, am, bh, beta, ch)
}

// RowDiff sets out[k,:] = A[pos[k],:] − A[neg[k],:].
func (b *Backend) RowDiff(a kernels.Mat, pos, neg []int32, out kernels.Mat) {
	am, om := host.MatOf(a), host.MatOf(out)
	host.CheckRowDiff(am.Rows, am.Cols, pos, neg, om.Rows, om.Cols)
	f64.RowDiff(am, pos, neg, om)
}

// Gather sets out[k] = x[idx[k]].
func (b *Backend) Gather(x kernels.Vec, idx []int32, out kernels.Vec) {
	xs, outs := host.VecData(x), host.VecData(out)
	host.CheckGather(idx, len(xs), len(outs))
	f64.Gather(xs, idx, outs)
}

// ScatterAdd computes y[idx[k]] += alpha·x[k] for distinct indices.
func (b *Backend) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	host.CheckScatterAdd(idx, len(xs), len(ys))
	f64.ScatterAdd(alpha, xs, idx, ys)
}
