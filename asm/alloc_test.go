package asm_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/kernels"
)

// TestAllocs checks that level-1, sparse and level-2 operations and Symm allocate
// nothing, at sizes that run as one part and sizes split across the pool (Symm: after a
// first call has sized its packing buffers).
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop pooled Jobs at random")
	}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			b := newPath(t, p.noAVX512)
			r := rand.New(rand.NewPCG(3, 4))
			for _, n := range []int{37, 1000} {
				a := randMat(b, n, n, r)
				x, _ := randVec(b, n, r)
				y, _ := randVec(b, n, r)
				rows := []int32{3, 1, 4, 1, 5, 9, 2, 6}
				xr, _ := randVec(b, len(rows), r)
				bm, cm := randMat(b, 21, n, r), randMat(b, 21, n, r)
				b.Symm(1, a, bm, 0.5, cm)
				bs, cs := randMat(b, 3, n, r), randMat(b, 3, n, r)
				sp := kernels.Sparse{Idx: []int32{0, 2, 3, 7, 11, 13, 17, 19, 23, 29}, Val: make([]float64, 10)}
				for name, f := range map[string]func(){
					"Dot":        func() { b.Dot(x, y) },
					"Axpy":       func() { b.Axpy(1e-3, x, y) },
					"Scal":       func() { b.Scal(0.999, y) },
					"DotSparse":  func() { b.DotSparse(sp, y) },
					"AxpySparse": func() { b.AxpySparse(1e-3, sp, y) },
					"Gemv":       func() { b.Gemv(false, 1, a, x, 0.5, y) },
					"GemvT":      func() { b.Gemv(true, 1, a, x, 0.5, y) },
					"GemvRows":   func() { b.GemvRows(false, 1, a, rows, x, 0.5, xr) },
					"GemvRowsT":  func() { b.GemvRows(true, 1, a, rows, xr, 0.5, y) },
					"Symv":       func() { b.Symv(1, a, x, 0.5, y) },
					"Syr":        func() { b.Syr(1e-3, x, a) },
					"Ger":        func() { b.Ger(1e-3, x, y, a) },
					"Symm":       func() { b.Symm(1e-3, a, bm, 0.5, cm) },
					"SymmRows":   func() { b.Symm(1e-3, a, bs, 0.5, cs) }, // fewer rows than a tile
				} {
					if got := testing.AllocsPerRun(20, f); got != 0 {
						t.Errorf("%s at n=%d: %v allocations per call, want 0", name, n, got)
					}
				}
			}
		})
	}
}

// TestDeterminism checks that the operations split across cores give bit-identical
// results on one worker and on several.
func TestDeterminism(t *testing.T) {
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			prev := runtime.GOMAXPROCS(1)
			one, err := asm.NewPath(p.noAVX512)
			runtime.GOMAXPROCS(max(prev, 4))
			many, err2 := asm.NewPath(p.noAVX512)
			runtime.GOMAXPROCS(prev)
			if err != nil || err2 != nil {
				t.Skipf("asm backend unavailable: %v", err)
			}
			defer one.Close()
			defer many.Close()
			const n, k = 700, 300
			src := rand.New(rand.NewPCG(5, 6))
			am := make([]float64, k*n)
			for i := range am {
				am[i] = src.NormFloat64()
			}
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = src.NormFloat64()
			}
			run := func(b kernels.Backend) [][]float64 {
				a := b.NewMat(k, n)
				b.Upload(a, am)
				c := b.NewMat(n, n)
				b.Syrk(0.5, a, 0, c)
				x, y, z := b.NewVec(n), b.NewVec(n), b.NewVec(k)
				b.Upload(x, xs)
				b.Symv(1, c, x, 0, y)
				b.Gemv(false, 1, a, x, 0, z)
				b.Gemv(true, 1, a, z, 0.5, y)
				w := b.NewMat(k, n)
				b.Symm(1, c, a, 0, w)
				out := [][]float64{make([]float64, n*n), make([]float64, n), make([]float64, k), make([]float64, k*n)}
				b.Download(out[0], c)
				b.Download(out[1], y)
				b.Download(out[2], z)
				b.Download(out[3], w)
				return out
			}
			r1, r2 := run(one), run(many)
			for i := range r1 {
				if !slices.Equal(r1[i], r2[i]) {
					t.Errorf("result %d differs between 1 and %d workers", i, max(prev, 4))
				}
			}
		})
	}
}
