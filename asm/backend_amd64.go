//go:build amd64 && !noasm && !purego

package asm

import (
	"fmt"
	"os"
	"strings"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"github.com/klauspost/cpuid/v2"
)

// EnvNoAVX512 is the environment variable that, set to 1, makes New use the AVX2
// kernels even on a CPU with AVX-512.
const EnvNoAVX512 = "AUCOPT_NO_AVX512"

// Backend is the AVX2+FMA kernels.Backend, using the AVX-512 Syrk micro-kernel when the
// CPU has AVX-512F (the only kernel whose zmm version measured faster). Operations it
// does not accelerate are those of the embedded fallback.Backend. It is safe for
// concurrent use.
type Backend struct {
	*fallback.Backend
	// avx512 is whether the AVX-512 kernels run, decided once by newBackend.
	avx512 bool
}

var _ kernels.Backend = (*Backend)(nil)

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
		Backend: fallback.New(),
		avx512:  !o.noAVX512 && cpuid.CPU.Supports(cpuid.AVX512F),
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
	return &Backend{Backend: fallback.NewWorkers(n), avx512: b.avx512}
}

// Name returns "avx2", the selector's name for this backend.
func (b *Backend) Name() string { return "avx2" }

// ISA describes the instruction sets the kernels use.
func (b *Backend) ISA() string {
	if b.avx512 {
		return "AVX-512F (syrk), AVX2+FMA (rest)"
	}
	return "AVX2+FMA"
}

// Close stops the backend's workers.
func (b *Backend) Close() error { return b.Backend.Close() }

// Dot returns
//
//	Σ_i x[i]·y[i]
func (b *Backend) Dot(x, y kernels.Vec) float64 {
	xs, ys := fallback.HostVec(x), fallback.HostVec(y)
	fallback.CheckLen("Dot", len(xs), len(ys))
	raceRead(xs)
	raceRead(ys)
	return dotAVX2(xs, ys)
}

// Axpy computes
//
//	y[i] += alpha·x[i]
func (b *Backend) Axpy(alpha float64, x, y kernels.Vec) {
	xs, ys := fallback.HostVec(x), fallback.HostVec(y)
	fallback.CheckLen("Axpy", len(xs), len(ys))
	raceRead(xs)
	raceWrite(ys)
	axpyAVX2(alpha, xs, ys)
}

// Gemm computes C = alpha·op(A)·op(B) + beta·C as the generic backend does (row by
// row, sums in a fixed order), with the AVX2 dot and axpy kernels.
func (b *Backend) Gemm(transA, transB bool, alpha float64, a, bm kernels.Mat, beta float64, c kernels.Mat) {
	raceReadMat(fallback.HostMat(a))
	raceReadMat(fallback.HostMat(bm))
	raceWriteMat(fallback.HostMat(c))
	fallback.GemmWith(dotAVX2, axpyAVX2, transA, transB, alpha, a, bm, beta, c)
}

// Scal computes
//
//	x[i] *= alpha
func (b *Backend) Scal(alpha float64, x kernels.Vec) {
	xs := fallback.HostVec(x)
	raceWrite(xs)
	scalAVX2(alpha, xs)
}

// DotSparse returns the gather
//
//	Σ_k x.Val[k]·y[x.Idx[k]]
//
// It panics if an index is out of range for y.
func (b *Backend) DotSparse(x kernels.Sparse, y kernels.Vec) float64 {
	ys := fallback.HostVec(y)
	checkSparseLen("DotSparse", x)
	raceRead(x.Val)
	raceReadInt32(x.Idx)
	raceRead(ys)
	s, bad := dotSparseAVX2(x.Val, x.Idx, ys)
	if bad >= 0 {
		badIndex("DotSparse", x, bad, len(ys))
	}
	return s
}

// AxpySparse computes the scatter
//
//	y[x.Idx[k]] += alpha·x.Val[k]
//
// It panics, leaving y unchanged, if an index is out of range for y.
func (b *Backend) AxpySparse(alpha float64, x kernels.Sparse, y kernels.Vec) {
	ys := fallback.HostVec(y)
	checkSparseLen("AxpySparse", x)
	raceRead(x.Val)
	raceReadInt32(x.Idx)
	raceWrite(ys)
	if bad := axpySparseAVX2(alpha, x.Val, x.Idx, ys); bad >= 0 {
		badIndex("AxpySparse", x, bad, len(ys))
	}
}

// Ger computes the rank-1 update
//
//	A += alpha·x·yᵀ
func (b *Backend) Ger(alpha float64, x, y kernels.Vec, a kernels.Mat) {
	xs, ys, m := fallback.HostVec(x), fallback.HostVec(y), fallback.HostMat(a)
	if m.Rows != len(xs) || m.Cols != len(ys) {
		panic(fmt.Sprintf("kernels: Ger: A is %d×%d, x has %d, y has %d elements", m.Rows, m.Cols, len(xs), len(ys)))
	}
	raceRead(xs)
	raceRead(ys)
	raceWriteMat(m)
	for i, xi := range xs {
		axpyAVX2(alpha*xi, ys, m.Data[i*m.Stride:i*m.Stride+m.Cols])
	}
}

// Syr computes the rank-1 update of the upper triangle of a symmetric A:
//
//	A += alpha·x·xᵀ
func (b *Backend) Syr(alpha float64, x kernels.Vec, a kernels.Mat) {
	xs, m := fallback.HostVec(x), fallback.HostMat(a)
	fallback.CheckSquare("Syr", m, len(xs))
	raceRead(xs)
	raceWriteUpper(m)
	for i, xi := range xs {
		axpyAVX2(alpha*xi, xs[i:], m.Data[i*m.Stride+i:i*m.Stride+m.Cols])
	}
}

// checkSparseLen panics unless x has as many values as indices.
func checkSparseLen(op string, x kernels.Sparse) {
	if len(x.Idx) != len(x.Val) {
		panic(fmt.Sprintf("kernels: %s: %d indices but %d values", op, len(x.Idx), len(x.Val)))
	}
}

// badIndex panics for the out-of-range index x.Idx[k] found by a sparse kernel.
func badIndex(op string, x kernels.Sparse, k, n int) {
	panic(fmt.Sprintf("kernels: %s: index %d (element %d) out of range [0, %d)", op, x.Idx[k], k, n))
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
