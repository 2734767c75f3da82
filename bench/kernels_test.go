package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/cuda/cudatest"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

var (
	vecSizes = []int{123, 2000, 62061}
	matSizes = []int{123, 780, 2000}
	syrkK    = 4096
)

// compared returns the aucopt backends to compare: generic always, avx2 and cuda when
// this machine and build have them (with AUCOPT_REQUIRE_CUDA=1, a missing cuda fails
// the benchmark). They are closed when b ends.
func compared(b *testing.B) []kernels.Backend {
	out := []kernels.Backend{fallback.New()}
	if a, err := asm.New(); err == nil {
		out = append(out, a)
	} else {
		b.Logf("avx2 backend not benchmarked: %v", err)
	}
	if c, err := cuda.New(); err == nil {
		out = append(out, c)
	} else if req, rerr := cudatest.Required(); req || rerr != nil {
		b.Fatalf("cuda backend required (%s) but unavailable: %v", cudatest.EnvRequire, errors.Join(err, rerr))
	}
	b.Cleanup(func() {
		for _, be := range out {
			be.Close()
		}
	})
	return out
}

// runOn is run for backend be; on a device backend, whose operations are queued
// asynchronously, each call waits for the device, so that the time is the work's.
func runOn(b *testing.B, be kernels.Backend, size string, bytes int64, flops float64, fn func()) {
	if s, ok := be.(interface{ Sync() }); ok {
		op := fn
		fn = func() { op(); s.Sync() }
	}
	run(b, be.Name(), size, bytes, flops, fn)
}

func randSlice(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.Float64()*2 - 1
	}
	return s
}

func vec(be kernels.Backend, s []float64) kernels.Vec {
	v := be.NewVec(len(s))
	be.Upload(v, s)
	return v
}

func mat(be kernels.Backend, r, c int, s []float64) kernels.Mat {
	m := be.NewMat(r, c)
	be.Upload(m, s)
	return m
}

// sparseRow has about one non-zero in density of n indices (sorted, no repeats).
func sparseRow(r *rand.Rand, n, nnz int) kernels.Sparse {
	idx := make([]int32, 0, nnz)
	step := n / nnz
	for i := 0; i < n && len(idx) < nnz; i += 1 + r.IntN(2*step-1) {
		idx = append(idx, int32(i))
	}
	return kernels.Sparse{Idx: idx, Val: randSlice(r, len(idx))}
}

// report sets the GFLOP/s metric from the flop count of one call.
func report(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// run runs fn as sub-benchmark impl=name/size=label.
func run(b *testing.B, impl, size string, bytes int64, flops float64, fn func()) {
	b.Run(fmt.Sprintf("impl=%s/size=%s", impl, size), func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			fn()
		}
		report(b, flops)
	})
}

// BenchmarkDot: SetBytes counts x and y read.
func BenchmarkDot(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range vecSizes {
		x, y := randSlice(r, n), randSlice(r, n)
		size := fmt.Sprint(n)
		run(b, "gonum", size, 16*int64(n), 2*float64(n), func() { floats.Dot(x, y) })
		for _, be := range compared(b) {
			xv, yv := vec(be, x), vec(be, y)
			runOn(b, be, size, 16*int64(n), 2*float64(n), func() { be.Dot(xv, yv) })
		}
	}
}

// BenchmarkAxpy: SetBytes counts x read and y read and written.
func BenchmarkAxpy(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 3))
	for _, n := range vecSizes {
		x, y := randSlice(r, n), randSlice(r, n)
		size := fmt.Sprint(n)
		run(b, "gonum", size, 24*int64(n), 2*float64(n), func() { floats.AddScaled(y, 1e-9, x) })
		for _, be := range compared(b) {
			xv, yv := vec(be, x), vec(be, y)
			runOn(b, be, size, 24*int64(n), 2*float64(n), func() { be.Axpy(1e-9, xv, yv) })
		}
	}
}

// BenchmarkScal: SetBytes counts x read and written. The scale alternates so values stay finite.
func BenchmarkScal(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 4))
	for _, n := range vecSizes {
		x := randSlice(r, n)
		size := fmt.Sprint(n)
		s := 1.0000001
		run(b, "gonum", size, 16*int64(n), float64(n), func() { floats.Scale(s, x); s = 1 / s })
		for _, be := range compared(b) {
			xv := vec(be, x)
			runOn(b, be, size, 16*int64(n), float64(n), func() { be.Scal(s, xv); s = 1 / s })
		}
	}
}

// BenchmarkDotSparse gathers nnz = n/16 elements of a dense vector of n (news20-like
// density is far lower; the per-element cost is what matters). SetBytes counts the
// index, value and gathered element of each non-zero. The "naive" row is a plain Go
// loop, as gonum has no sparse dot.
func BenchmarkDotSparse(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 5))
	for _, n := range vecSizes {
		sp := sparseRow(r, n, max(n/16, 4))
		y := randSlice(r, n)
		nnz := len(sp.Idx)
		size := fmt.Sprintf("%d/nnz=%d", n, nnz)
		run(b, "naive", size, 20*int64(nnz), 2*float64(nnz), func() {
			s := 0.0
			for k, i := range sp.Idx {
				s += sp.Val[k] * y[i]
			}
			sink = s
		})
		for _, be := range compared(b) {
			yv := vec(be, y)
			runOn(b, be, size, 20*int64(nnz), 2*float64(nnz), func() { sink = be.DotSparse(sp, yv) })
		}
	}
}

// BenchmarkAxpySparse scatters nnz = n/16 elements; SetBytes counts index, value and
// the element read and written.
func BenchmarkAxpySparse(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 6))
	for _, n := range vecSizes {
		sp := sparseRow(r, n, max(n/16, 4))
		y := randSlice(r, n)
		nnz := len(sp.Idx)
		size := fmt.Sprintf("%d/nnz=%d", n, nnz)
		run(b, "naive", size, 28*int64(nnz), 2*float64(nnz), func() {
			for k, i := range sp.Idx {
				y[i] += 1e-9 * sp.Val[k]
			}
		})
		for _, be := range compared(b) {
			yv := vec(be, y)
			runOn(b, be, size, 28*int64(nnz), 2*float64(nnz), func() { be.AxpySparse(1e-9, sp, yv) })
		}
	}
}

var sink float64

func general(r, c int, s []float64) blas64.General {
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: s}
}

// BenchmarkGemv: d×d matrix, both transposes; SetBytes counts the matrix read.
func BenchmarkGemv(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 7))
	for _, d := range matSizes {
		a, x, y := randSlice(r, d*d), randSlice(r, d), randSlice(r, d)
		for _, trans := range []bool{false, true} {
			size := fmt.Sprintf("%d/trans=%t", d, trans)
			t := blas.NoTrans
			if trans {
				t = blas.Trans
			}
			ga := general(d, d, a)
			gx, gy := blas64.Vector{N: d, Inc: 1, Data: x}, blas64.Vector{N: d, Inc: 1, Data: y}
			run(b, "gonum", size, 8*int64(d*d), 2*float64(d*d), func() { blas64.Gemv(t, 1, ga, gx, 0, gy) })
			for _, be := range compared(b) {
				am, xv, yv := mat(be, d, d, a), vec(be, x), vec(be, y)
				runOn(b, be, size, 8*int64(d*d), 2*float64(d*d), func() { be.Gemv(trans, 1, am, xv, 0, yv) })
			}
		}
	}
}

// BenchmarkGemvRows: a mini-batch of m = 256 rows of a (4d)×d matrix; SetBytes counts
// the rows read. The gonum row copies a gathered Gemv.
func BenchmarkGemvRows(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 8))
	const m = 256
	for _, d := range matSizes {
		n := 4 * d
		a := randSlice(r, n*d)
		rows := make([]int32, m)
		for i := range rows {
			rows[i] = int32(r.IntN(n))
		}
		for _, trans := range []bool{false, true} {
			size := fmt.Sprintf("%d/m=%d/trans=%t", d, m, trans)
			xLen, yLen := d, m
			if trans {
				xLen, yLen = m, d
			}
			x, y := randSlice(r, xLen), randSlice(r, yLen)
			flops := 2 * float64(m*d)
			for _, be := range compared(b) {
				am, xv, yv := mat(be, n, d, a), vec(be, x), vec(be, y)
				runOn(b, be, size, 8*int64(m*d), flops, func() { be.GemvRows(trans, 1, am, rows, xv, 0, yv) })
			}
		}
	}
}

// BenchmarkSymv: d×d symmetric (upper triangle); SetBytes counts the triangle read.
func BenchmarkSymv(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 9))
	for _, d := range matSizes {
		a, x, y := randSlice(r, d*d), randSlice(r, d), randSlice(r, d)
		size := fmt.Sprint(d)
		bytes, flops := 8*int64(d*(d+1)/2), 2*float64(d*d)
		sa := blas64.Symmetric{N: d, Stride: d, Data: a, Uplo: blas.Upper}
		gx, gy := blas64.Vector{N: d, Inc: 1, Data: x}, blas64.Vector{N: d, Inc: 1, Data: y}
		run(b, "gonum", size, bytes, flops, func() { blas64.Symv(1, sa, gx, 0, gy) })
		for _, be := range compared(b) {
			am, xv, yv := mat(be, d, d, a), vec(be, x), vec(be, y)
			runOn(b, be, size, bytes, flops, func() { be.Symv(1, am, xv, 0, yv) })
		}
	}
}

// BenchmarkSyr: rank-1 update of a d×d upper triangle; SetBytes counts the triangle
// read and written.
func BenchmarkSyr(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 10))
	for _, d := range matSizes {
		a, x := randSlice(r, d*d), randSlice(r, d)
		size := fmt.Sprint(d)
		bytes, flops := 16*int64(d*(d+1)/2), float64(d*(d+1))
		sa := blas64.Symmetric{N: d, Stride: d, Data: a, Uplo: blas.Upper}
		gx := blas64.Vector{N: d, Inc: 1, Data: x}
		alpha := 1e-9
		run(b, "gonum", size, bytes, flops, func() { blas64.Syr(alpha, gx, sa); alpha = -alpha })
		for _, be := range compared(b) {
			am, xv := mat(be, d, d, a), vec(be, x)
			runOn(b, be, size, bytes, flops, func() { be.Syr(alpha, xv, am); alpha = -alpha })
		}
	}
}

// BenchmarkGer: rank-1 update of a d×d matrix; SetBytes counts it read and written.
func BenchmarkGer(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 11))
	for _, d := range matSizes {
		a, x, y := randSlice(r, d*d), randSlice(r, d), randSlice(r, d)
		size := fmt.Sprint(d)
		bytes, flops := 16*int64(d*d), 2*float64(d*d)
		ga := general(d, d, a)
		gx, gy := blas64.Vector{N: d, Inc: 1, Data: x}, blas64.Vector{N: d, Inc: 1, Data: y}
		alpha := 1e-9
		run(b, "gonum", size, bytes, flops, func() { blas64.Ger(alpha, gx, gy, ga); alpha = -alpha })
		for _, be := range compared(b) {
			am, xv, yv := mat(be, d, d, a), vec(be, x), vec(be, y)
			runOn(b, be, size, bytes, flops, func() { be.Ger(alpha, xv, yv, am); alpha = -alpha })
		}
	}
}

// BenchmarkSyrk: C = AᵀA for A of k = 4096 rows and d columns (covariance of 4096
// examples); flops = k·d·(d+1), SetBytes counts A read once.
func BenchmarkSyrk(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 12))
	for _, d := range matSizes {
		k := syrkK
		a, c := randSlice(r, k*d), randSlice(r, d*d)
		size := fmt.Sprintf("%d/k=%d", d, k)
		bytes, flops := 8*int64(k*d), float64(k)*float64(d)*float64(d+1)
		ga := general(k, d, a)
		sc := blas64.Symmetric{N: d, Stride: d, Data: c, Uplo: blas.Upper}
		run(b, "gonum", size, bytes, flops, func() { blas64.Syrk(blas.Trans, 1, ga, 0, sc) })
		for _, be := range compared(b) {
			am, cm := mat(be, k, d, a), mat(be, d, d, c)
			runOn(b, be, size, bytes, flops, func() { be.Syrk(1, am, 0, cm) })
		}
	}
}

// symmK are the numbers of weight vectors that meet one covariance in BenchmarkSymm:
// a few, and the 299 of OPAUC's default grid search.
var symmK = []int{16, 299}

// BenchmarkSymm: C = B·A for a d×d symmetric A (upper triangle) and k×d B, C (k
// weight vectors times one covariance); flops = 2·k·d², SetBytes counts A's triangle
// and B read and C written. The gonum row is blas64.Symm with side Right.
func BenchmarkSymm(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 13))
	for _, d := range matSizes {
		for _, k := range symmK {
			a, bd, c := randSlice(r, d*d), randSlice(r, k*d), randSlice(r, k*d)
			size := fmt.Sprintf("%d/k=%d", d, k)
			bytes, flops := 8*int64(d*(d+1)/2+2*k*d), 2*float64(k)*float64(d)*float64(d)
			sa := blas64.Symmetric{N: d, Stride: d, Data: a, Uplo: blas.Upper}
			gb, gc := general(k, d, bd), general(k, d, c)
			run(b, "gonum", size, bytes, flops, func() { blas64.Symm(blas.Right, 1, sa, gb, 0, gc) })
			for _, be := range compared(b) {
				am, bm, cm := mat(be, d, d, a), mat(be, k, d, bd), mat(be, k, d, c)
				runOn(b, be, size, bytes, flops, func() { be.Symm(1, am, bm, 0, cm) })
			}
		}
	}
}
