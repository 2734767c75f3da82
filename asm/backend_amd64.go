//go:build amd64 && !noasm && !purego

package asm

import (
	"fmt"
	"os"
	"strings"

	"github.com/aucopt/aucopt/internal/f64"
	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
	"github.com/klauspost/cpuid/v2"
)

// EnvNoAVX512 is the environment variable that, set to 1, makes New use the AVX2
// kernels even on a CPU with AVX-512.
const EnvNoAVX512 = "AUCOPT_NO_AVX512"

// Backend is the AVX2+FMA kernels.Backend, using the AVX-512 Syrk micro-kernel when the
// CPU has AVX-512F (the only kernel whose zmm version measured faster). Operations it
// does not accelerate (tensors and memory, Copy, RowDiff, Gather, ScatterAdd) run the
// shared host code and reference loops (packages internal/host and internal/f64). It is
// safe for concurrent use.
type Backend struct {
	host.Memory // NewVec, NewMat, Upload, Download, Copy on host tensors
	pool        *host.Pool
	// avx512 is whether the AVX-512 kernels run, decided once by newBackend.
	avx512 bool
}

var (
	_ kernels.Backend    = (*Backend)(nil)
	_ kernels.Splitter   = (*Backend)(nil)
	_ kernels.Concurrent = (*Backend)(nil)
	_ kernels.Describer  = (*Backend)(nil)
	_ kernels.Viewer     = (*Backend)(nil)
)

// opts are the choices newBackend would otherwise make from the CPU.
type opts struct {
	// noAVX512 forces the AVX2 kernels on a CPU with AVX-512.
	noAVX512 bool
}

// New returns the assembly backend, or an error naming the CPU features it lacks
// (AVX, AVX2 and FMA3 are required). It uses the AVX-512 kernels when the CPU supports
// AVX-512F, unless the environment variable AUCOPT_NO_AVX512 is 1. The caller closes
// the backend.
func New() (*Backend, error) {
	return newBackend(opts{noAVX512: os.Getenv(EnvNoAVX512) == "1"})
}

// newBackend is New with explicit options.
func newBackend(o opts) (*Backend, error) {
	if err := checkCPU(cpuid.CPU.Supports); err != nil {
		return nil, err
	}
	return &Backend{
		pool:   host.NewPool(0),
		avx512: !o.noAVX512 && cpuid.CPU.Supports(cpuid.AVX512F),
	}, nil
}

// checkCPU returns an error naming the features the kernels need that has reports
// missing. The "// Requires:" lines of kernels_amd64.s list AVX, AVX2, FMA3 (and CMOV
// and SSE2, which every amd64 CPU has) for the AVX2 kernels and AVX512F for the others.
func checkCPU(has func(...cpuid.FeatureID) bool) error {
	var missing []string
	for _, f := range []cpuid.FeatureID{cpuid.AVX, cpuid.AVX2, cpuid.FMA3} {
		if !has(f) {
			missing = append(missing, f.String())
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("asm: CPU lacks %s", strings.Join(missing, " and "))
	}
	return nil
}

// WithWorkers returns an assembly backend with the same kernels whose operations use
// at most n goroutines (kernels.Splitter).
func (b *Backend) WithWorkers(n int) kernels.Backend {
	return &Backend{pool: host.NewPool(n), avx512: b.avx512}
}

// Name returns "avx2", the selector's name for this backend.
func (b *Backend) Name() string { return "avx2" }

// Concurrency reports that the backend may be called from any number of goroutines at
// once (it holds no mutable state) and panics only for programmer errors
// (kernels.Concurrent).
func (b *Backend) Concurrency() kernels.Concurrency { return kernels.Safe }

// Detail describes the instruction sets the kernels use (kernels.Describer).
func (b *Backend) Detail() string {
	if b.avx512 {
		return "AVX-512F (syrk), AVX2+FMA (rest)"
	}
	return "AVX2+FMA"
}

// Close stops the backend's workers.
func (b *Backend) Close() error {
	b.pool.Close()
	return nil
}

// Dot returns
//
//	Σ_i x[i]·y[i]
func (b *Backend) Dot(x, y kernels.Vec) float64 {
	xs, ys := host.VecData(x), host.VecData(y)
	host.CheckLen("Dot", len(xs), len(ys))
	raceRead(xs)
	raceRead(ys)
	return dotAVX2(xs, ys)
}

// Axpy computes
//
//	y[i] += alpha·x[i]
func (b *Backend) Axpy(alpha float64, x, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	host.CheckLen("Axpy", len(xs), len(ys))
	raceRead(xs)
	raceWrite(ys)
	axpyAVX2(alpha, xs, ys)
}

// Scal computes
//
//	x[i] *= alpha
func (b *Backend) Scal(alpha float64, x kernels.Vec) {
	xs := host.VecData(x)
	raceWrite(xs)
	scalAVX2(alpha, xs)
}

// DotSparse returns the gather
//
//	Σ_k x.Val[k]·y[x.Idx[k]]
//
// It panics if an index is out of range for y.
func (b *Backend) DotSparse(x kernels.Sparse, y kernels.Vec) float64 {
	ys := host.VecData(y)
	host.CheckSparseLen("DotSparse", x)
	raceRead(x.Val)
	raceReadInt32(x.Idx)
	raceRead(ys)
	s, bad := dotSparseAVX2(x.Val, x.Idx, ys)
	if bad >= 0 {
		host.BadSparseIndex("DotSparse", x, bad, len(ys))
	}
	return s
}

// AxpySparse computes the scatter
//
//	y[x.Idx[k]] += alpha·x.Val[k]
//
// It panics, leaving y unchanged, if an index is out of range for y.
func (b *Backend) AxpySparse(alpha float64, x kernels.Sparse, y kernels.Vec) {
	ys := host.VecData(y)
	host.CheckSparseLen("AxpySparse", x)
	raceRead(x.Val)
	raceReadInt32(x.Idx)
	raceWrite(ys)
	if bad := axpySparseAVX2(alpha, x.Val, x.Idx, ys); bad >= 0 {
		host.BadSparseIndex("AxpySparse", x, bad, len(ys))
	}
}

// Ger computes the rank-1 update
//
//	A += alpha·x·yᵀ
func (b *Backend) Ger(alpha float64, x, y kernels.Vec, a kernels.Mat) {
	xs, ys, m := host.VecData(x), host.VecData(y), host.MatOf(a)
	host.CheckGer(m.Rows, m.Cols, len(xs), len(ys))
	raceRead(xs)
	raceRead(ys)
	raceWriteMat(m)
	if len(xs)*len(ys) < rank1ParallelWork {
		for i, xi := range xs {
			axpyAVX2(alpha*xi, ys, m.Data[i*m.Stride:i*m.Stride+m.Cols])
		}
		return
	}
	j := host.GetJob()
	j.A, j.X, j.Y, j.Alpha, j.Run = m, xs, ys, alpha, gerPart
	j.N = max(4, gemvPartWork/max(len(ys), 1)) // rows per part
	b.pool.Do((len(xs)+j.N-1)/j.N, j)
	host.PutJob(j)
}

// rank1ParallelWork is the number of elements of A below which Ger and Syr run as one
// part. Each element is updated alone, so the split changes no bit.
const rank1ParallelWork = 1 << 17

// syrParts is the number of parts of a large Syr: blocks of rows of about equal
// upper-triangle area.
const syrParts = 16

// gerPart adds alpha·x[i]·y to the rows i of part p (j.N rows a part).
func gerPart(j *host.Job, p int) {
	m := j.A
	for i := p * j.N; i < min((p+1)*j.N, len(j.X)); i++ {
		axpyAVX2(j.Alpha*j.X[i], j.Y, m.Data[i*m.Stride:i*m.Stride+m.Cols])
	}
}

// Syr computes the rank-1 update of the upper triangle of a symmetric A:
//
//	A += alpha·x·xᵀ
func (b *Backend) Syr(alpha float64, x kernels.Vec, a kernels.Mat) {
	xs, m := host.VecData(x), host.MatOf(a)
	host.CheckSquare("Syr", m, len(xs))
	raceRead(xs)
	raceWriteUpper(m)
	n := len(xs)
	if n*(n+1)/2 < rank1ParallelWork {
		syrRows(alpha, xs, m, 0, n)
		return
	}
	j := host.GetJob()
	j.A, j.X, j.Alpha, j.Run = m, xs, alpha, syrPart
	b.pool.Do(syrParts, j)
	host.PutJob(j)
}

// syrPart updates the rows of part p of a large Syr: Syrk's equal-area stripes
// (stripe) counted from the last row, since row i holds n − i elements of the triangle.
func syrPart(j *host.Job, p int) {
	n := len(j.X)
	syrRows(j.Alpha, j.X, j.A, n-stripe(n, syrParts, syrParts-p), n-stripe(n, syrParts, syrParts-p-1))
}

// syrRows adds alpha·x[i]·x[i:] to the upper part of rows [lo, hi) of m.
func syrRows(alpha float64, xs []float64, m *host.Mat, lo, hi int) {
	for i := lo; i < hi; i++ {
		axpyAVX2(alpha*xs[i], xs[i:], m.Data[i*m.Stride+i:i*m.Stride+m.Cols])
	}
}

// RowDiff sets out[k,:] = A[pos[k],:] − A[neg[k],:] (the reference loop: a copy
// bound by memory, which assembly would not speed up).
func (b *Backend) RowDiff(a kernels.Mat, pos, neg []int32, out kernels.Mat) {
	am, om := host.MatOf(a), host.MatOf(out)
	host.CheckRowDiff(am.Rows, am.Cols, pos, neg, om.Rows, om.Cols)
	f64.RowDiff(am, pos, neg, om)
}

// Gather sets out[k] = x[idx[k]] (the reference loop).
func (b *Backend) Gather(x kernels.Vec, idx []int32, out kernels.Vec) {
	xs, outs := host.VecData(x), host.VecData(out)
	host.CheckGather(idx, len(xs), len(outs))
	f64.Gather(xs, idx, outs)
}

// ScatterAdd computes y[idx[k]] += alpha·x[k] for distinct indices (the reference loop).
func (b *Backend) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	xs, ys := host.VecData(x), host.VecData(y)
	host.CheckScatterAdd(idx, len(xs), len(ys))
	f64.ScatterAdd(alpha, xs, idx, ys)
}

// scaleBeta sets y = beta·y, or y = 0 without reading y when beta is 0.
func scaleBeta(beta float64, y []float64) {
	switch beta {
	case 0:
		clear(y)
	case 1:
	default:
		scalAVX2(beta, y)
	}
}

// grow returns s with length n, reusing its capacity.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
