package fallback

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// Backend is the pure-Go kernels.Backend. It is safe for concurrent use.
type Backend struct {
	pool *Pool
}

var _ kernels.Backend = (*Backend)(nil)

// New returns a pure-Go backend whose large operations use up to GOMAXPROCS cores.
func New() *Backend { return &Backend{pool: NewPool(0)} }

// NewWorkers returns a pure-Go backend using at most workers goroutines (1: no
// parallelism). Results do not depend on workers.
func NewWorkers(workers int) *Backend { return &Backend{pool: NewPool(workers)} }

// Name returns "generic", the selector's name for this backend.
func (b *Backend) Name() string { return "generic" }

// Pool is the backend's worker pool, shared with backends that build on this one.
func (b *Backend) Pool() *Pool { return b.pool }

// Close stops the backend's workers.
func (b *Backend) Close() error {
	b.pool.Close()
	return nil
}

// NewVec allocates a zeroed vector of n elements.
func (b *Backend) NewVec(n int) kernels.Vec {
	if n < 0 {
		panic(fmt.Sprintf("kernels: NewVec(%d): negative length", n))
	}
	return &Vec{Data: make([]float64, n)}
}

// NewMat allocates a zeroed rows×cols matrix.
func (b *Backend) NewMat(rows, cols int) kernels.Mat {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("kernels: NewMat(%d, %d): negative dimension", rows, cols))
	}
	return &Mat{Rows: rows, Cols: cols, Stride: cols, Data: make([]float64, rows*cols)}
}

// Upload copies src into dst (row-major for a Mat).
func (b *Backend) Upload(dst kernels.Tensor, src []float64) {
	if dst.Len() != len(src) {
		panic(fmt.Sprintf("kernels: Upload: %d elements into a tensor of %d", len(src), dst.Len()))
	}
	switch d := dst.(type) {
	case *Vec:
		copy(d.Data, src)
	case *Mat:
		for i := range d.Rows {
			copy(d.Data[i*d.Stride:i*d.Stride+d.Cols], src[i*d.Cols:(i+1)*d.Cols])
		}
	default:
		panic(fmt.Sprintf("kernels: Upload: %T is not a host tensor", dst))
	}
}

// Download copies src into dst (row-major for a Mat).
func (b *Backend) Download(dst []float64, src kernels.Tensor) {
	if src.Len() != len(dst) {
		panic(fmt.Sprintf("kernels: Download: a tensor of %d elements into %d", src.Len(), len(dst)))
	}
	switch s := src.(type) {
	case *Vec:
		copy(dst, s.Data)
	case *Mat:
		for i := range s.Rows {
			copy(dst[i*s.Cols:(i+1)*s.Cols], s.Data[i*s.Stride:i*s.Stride+s.Cols])
		}
	default:
		panic(fmt.Sprintf("kernels: Download: %T is not a host tensor", src))
	}
}

// Copy sets dst = src.
func (b *Backend) Copy(dst, src kernels.Vec) {
	d, s := HostVec(dst), HostVec(src)
	CheckLen("Copy", len(d), len(s))
	copy(d, s)
}

// Dot returns Σ x[i]·y[i].
func (b *Backend) Dot(x, y kernels.Vec) float64 {
	xs, ys := HostVec(x), HostVec(y)
	CheckLen("Dot", len(xs), len(ys))
	return Dot(xs, ys)
}

// Axpy computes y += alpha·x.
func (b *Backend) Axpy(alpha float64, x, y kernels.Vec) {
	xs, ys := HostVec(x), HostVec(y)
	CheckLen("Axpy", len(xs), len(ys))
	Axpy(alpha, xs, ys)
}

// Scal computes x *= alpha.
func (b *Backend) Scal(alpha float64, x kernels.Vec) {
	xs := HostVec(x)
	for i := range xs {
		xs[i] *= alpha
	}
}

// DotSparse returns Σ_k x.Val[k]·y[x.Idx[k]].
func (b *Backend) DotSparse(x kernels.Sparse, y kernels.Vec) float64 {
	ys := HostVec(y)
	CheckSparse("DotSparse", x, len(ys))
	var s0, s1 float64
	n := len(x.Idx)
	k := 0
	for ; k+2 <= n; k += 2 {
		s0 += x.Val[k] * ys[x.Idx[k]]
		s1 += x.Val[k+1] * ys[x.Idx[k+1]]
	}
	if k < n {
		s0 += x.Val[k] * ys[x.Idx[k]]
	}
	return s0 + s1
}

// AxpySparse computes y[x.Idx[k]] += alpha·x.Val[k].
func (b *Backend) AxpySparse(alpha float64, x kernels.Sparse, y kernels.Vec) {
	ys := HostVec(y)
	CheckSparse("AxpySparse", x, len(ys))
	for k, i := range x.Idx {
		ys[i] += alpha * x.Val[k]
	}
}

// Ger computes A += alpha·x·yᵀ.
func (b *Backend) Ger(alpha float64, x, y kernels.Vec, a kernels.Mat) {
	xs, ys, m := HostVec(x), HostVec(y), HostMat(a)
	if m.Rows != len(xs) || m.Cols != len(ys) {
		panic(fmt.Sprintf("kernels: Ger: A is %d×%d, x has %d, y has %d elements", m.Rows, m.Cols, len(xs), len(ys)))
	}
	for i, xi := range xs {
		Axpy(alpha*xi, ys, m.Data[i*m.Stride:i*m.Stride+m.Cols])
	}
}

// Syr computes the upper triangle of A += alpha·x·xᵀ.
func (b *Backend) Syr(alpha float64, x kernels.Vec, a kernels.Mat) {
	xs, m := HostVec(x), HostMat(a)
	CheckSquare("Syr", m, len(xs))
	for i, xi := range xs {
		Axpy(alpha*xi, xs[i:], m.Data[i*m.Stride+i:i*m.Stride+m.Cols])
	}
}

// Dot returns Σ x[i]·y[i] for slices of equal length, summing with four accumulators in
// a fixed order.
func Dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Axpy computes y[i] += alpha·x[i] for slices of equal length.
func Axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// CheckSparse panics unless x is well formed for a dense operand of length n: equal
// index and value lengths and every index in [0, n). It is exported for backends that
// build on this one.
func CheckSparse(op string, x kernels.Sparse, n int) {
	if len(x.Idx) != len(x.Val) {
		panic(fmt.Sprintf("kernels: %s: %d indices but %d values", op, len(x.Idx), len(x.Val)))
	}
	for k, i := range x.Idx {
		if uint(i) >= uint(n) {
			panic(fmt.Sprintf("kernels: %s: index %d (element %d) out of range [0, %d)", op, i, k, n))
		}
	}
}

// CheckLen panics unless the lengths n and m of op's operands are equal.
func CheckLen(op string, n, m int) {
	if n != m {
		panic(fmt.Sprintf("kernels: %s: lengths %d and %d differ", op, n, m))
	}
}

// CheckSquare panics unless m is n×n.
func CheckSquare(op string, m *Mat, n int) {
	if m.Rows != n || m.Cols != n {
		panic(fmt.Sprintf("kernels: %s: matrix is %d×%d, want %d×%d", op, m.Rows, m.Cols, n, n))
	}
}

// WithWorkers returns a pure-Go backend using at most n goroutines (kernels.Splitter).
func (b *Backend) WithWorkers(n int) kernels.Backend { return NewWorkers(n) }
