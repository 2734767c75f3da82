package asm_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"gonum.org/v1/gonum/floats"
)

// Quick benchmarks of the accelerated operations, beside gonum's loops for level 1
// (the full comparison is in package bench). GFLOP/s counts a multiply-add as 2.

func randVec(b kernels.Backend, n int, r *rand.Rand) (kernels.Vec, []float64) {
	s := make([]float64, n)
	for i := range s {
		s[i] = r.NormFloat64()
	}
	v := b.NewVec(n)
	b.Upload(v, s)
	return v, s
}

func randMat(b kernels.Backend, rows, cols int, r *rand.Rand) kernels.Mat {
	s := make([]float64, rows*cols)
	for i := range s {
		s[i] = r.NormFloat64()
	}
	m := b.NewMat(rows, cols)
	b.Upload(m, s)
	return m
}

func gflops(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkDot(b *testing.B) {
	for _, n := range []int{100, 1000, 2000, 100000} {
		r := rand.New(rand.NewPCG(1, 2))
		b.Run(fmt.Sprintf("impl=gonum/n=%d", n), func(b *testing.B) {
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = r.NormFloat64(), r.NormFloat64()
			}
			for b.Loop() {
				floats.Dot(x, y)
			}
			gflops(b, 2*float64(n))
		})
		b.Run(fmt.Sprintf("impl=asm/n=%d", n), func(b *testing.B) {
			be := newPath(b, false)
			x, _ := randVec(be, n, r)
			y, _ := randVec(be, n, r)
			for b.Loop() {
				be.Dot(x, y)
			}
			gflops(b, 2*float64(n))
		})
	}
}

func BenchmarkAxpy(b *testing.B) {
	for _, n := range []int{100, 1000, 2000, 100000} {
		r := rand.New(rand.NewPCG(1, 2))
		b.Run(fmt.Sprintf("impl=gonum/n=%d", n), func(b *testing.B) {
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = r.NormFloat64(), r.NormFloat64()
			}
			for b.Loop() {
				floats.AddScaled(y, 1e-9, x)
			}
			gflops(b, 2*float64(n))
		})
		b.Run(fmt.Sprintf("impl=asm/n=%d", n), func(b *testing.B) {
			be := newPath(b, false)
			x, _ := randVec(be, n, r)
			y, _ := randVec(be, n, r)
			for b.Loop() {
				be.Axpy(1e-9, x, y)
			}
			gflops(b, 2*float64(n))
		})
	}
}

func BenchmarkDotSparse(b *testing.B) {
	for _, c := range []struct{ n, nnz int }{{4000, 2000}, {100000, 2000}} {
		r := rand.New(rand.NewPCG(1, 2))
		be := newPath(b, true)
		fb := fallback.New()
		defer fb.Close()
		y, _ := randVec(be, c.n, r)
		x := kernels.Sparse{Idx: make([]int32, c.nnz), Val: make([]float64, c.nnz)}
		for k := range c.nnz {
			x.Idx[k] = int32(k * (c.n / c.nnz))
			x.Val[k] = r.NormFloat64()
		}
		for _, impl := range []kernels.Backend{fb, be} {
			b.Run(fmt.Sprintf("op=DotSparse/impl=%s/n=%d/nnz=%d", impl.Name(), c.n, c.nnz), func(b *testing.B) {
				for b.Loop() {
					impl.DotSparse(x, y)
				}
				gflops(b, 2*float64(c.nnz))
			})
			b.Run(fmt.Sprintf("op=AxpySparse/impl=%s/n=%d/nnz=%d", impl.Name(), c.n, c.nnz), func(b *testing.B) {
				for b.Loop() {
					impl.AxpySparse(1e-9, x, y)
				}
				gflops(b, 2*float64(c.nnz))
			})
		}
	}
}

func BenchmarkGemv(b *testing.B) {
	const n = 2000
	r := rand.New(rand.NewPCG(1, 2))
	for _, trans := range []bool{false, true} {
		b.Run(fmt.Sprintf("trans=%t/d=%d", trans, n), func(b *testing.B) {
			be := newPath(b, false)
			a := randMat(be, n, n, r)
			x, _ := randVec(be, n, r)
			y, _ := randVec(be, n, r)
			for b.Loop() {
				be.Gemv(trans, 1, a, x, 0.5, y)
			}
			gflops(b, 2*n*n)
		})
	}
}

func BenchmarkSymv(b *testing.B) {
	for _, n := range []int{500, 2000} {
		r := rand.New(rand.NewPCG(1, 2))
		b.Run(fmt.Sprintf("d=%d", n), func(b *testing.B) {
			be := newPath(b, false)
			a := randMat(be, n, n, r)
			x, _ := randVec(be, n, r)
			y, _ := randVec(be, n, r)
			for b.Loop() {
				be.Symv(1, a, x, 0.5, y)
			}
			gflops(b, 2*float64(n)*float64(n))
		})
	}
}

func BenchmarkSyrk(b *testing.B) {
	for _, s := range []struct{ k, d int }{{4096, 2000}, {1024, 500}} {
		r := rand.New(rand.NewPCG(1, 2))
		for _, p := range paths {
			b.Run(fmt.Sprintf("impl=%s/k=%d/d=%d", p.name, s.k, s.d), func(b *testing.B) {
				be := newPath(b, p.noAVX512)
				a := randMat(be, s.k, s.d, r)
				c := be.NewMat(s.d, s.d)
				for b.Loop() {
					be.Syrk(1, a, 0, c)
				}
				gflops(b, float64(s.k)*float64(s.d)*float64(s.d+1))
			})
		}
	}
}

func BenchmarkSymm(b *testing.B) {
	for _, s := range []struct{ k, d int }{{4, 2000}, {16, 123}, {16, 2000}, {125, 107}, {299, 123}, {299, 780}, {299, 2000}} {
		r := rand.New(rand.NewPCG(1, 2))
		for _, p := range paths {
			b.Run(fmt.Sprintf("impl=%s/k=%d/d=%d", p.name, s.k, s.d), func(b *testing.B) {
				be := newPath(b, p.noAVX512)
				a := randMat(be, s.d, s.d, r)
				bm, c := randMat(be, s.k, s.d, r), be.NewMat(s.k, s.d)
				for b.Loop() {
					be.Symm(1, a, bm, 0, c)
				}
				gflops(b, 2*float64(s.k)*float64(s.d)*float64(s.d))
			})
		}
	}
}
