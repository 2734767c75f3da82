package asm_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// TestLevel3Blocks checks Syrk and Symm against the pure-Go backend on shapes larger
// than kerneltest's, whose blocking they alone reach: Symm parts of more strips than
// symmPackStrips (packed and multiplied a few strips at a time) with B's rows in more
// than one block of symmBlockRows, a last strip past d and a last tile of fewer rows;
// Syrk with k past several depth blocks of kc and d not a multiple of the tile.
func TestLevel3Blocks(t *testing.T) {
	ref := fallback.New()
	defer ref.Close()
	r := rand.New(rand.NewPCG(46, 1))
	upload := func(be kernels.Backend, rows, cols int, s []float64) kernels.Mat {
		m := be.NewMat(rows, cols)
		be.Upload(m, s)
		return m
	}
	values := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = r.Float64()*2 - 1
		}
		return s
	}
	// check compares got with want element by element (upper triangle only with upper).
	check := func(t *testing.T, got, want []float64, d int, upper bool) {
		t.Helper()
		for i, w := range want {
			if upper && i%d < i/d {
				continue
			}
			if math.Abs(got[i]-w) > 1e-10*(1+math.Abs(w)) {
				t.Fatalf("element (%d, %d) = %v, want %v", i/d, i%d, got[i], w)
			}
		}
	}
	for _, s := range []struct{ k, d int }{{392, 1040}, {17, 1100}, {9, 1030}} {
		a, bd, c := values(s.d*s.d), values(s.k*s.d), values(s.k*s.d)
		want := make([]float64, len(c))
		cm := upload(ref, s.k, s.d, c)
		ref.Symm(1.5, upload(ref, s.d, s.d, a), upload(ref, s.k, s.d, bd), 0.5, cm)
		ref.Download(want, cm)
		for _, p := range paths {
			t.Run(fmt.Sprintf("Symm/%s/k=%d/d=%d", p.name, s.k, s.d), func(t *testing.T) {
				be := newPath(t, p.noAVX512)
				got := make([]float64, len(c))
				cm := upload(be, s.k, s.d, c)
				be.Symm(1.5, upload(be, s.d, s.d, a), upload(be, s.k, s.d, bd), 0.5, cm)
				be.Download(got, cm)
				check(t, got, want, s.d, false)
			})
		}
	}
	for _, s := range []struct {
		k, d        int
		alpha, beta float64
	}{{1000, 203, 1, 0}, {777, 130, -0.5, 1}, {1153, 77, 2, 0.25}} {
		a, c := values(s.k*s.d), values(s.d*s.d)
		want := make([]float64, len(c))
		cm := upload(ref, s.d, s.d, c)
		ref.Syrk(s.alpha, upload(ref, s.k, s.d, a), s.beta, cm)
		ref.Download(want, cm)
		for _, p := range paths {
			t.Run(fmt.Sprintf("Syrk/%s/k=%d/d=%d", p.name, s.k, s.d), func(t *testing.T) {
				be := newPath(t, p.noAVX512)
				got := make([]float64, len(c))
				cm := upload(be, s.d, s.d, c)
				be.Syrk(s.alpha, upload(be, s.k, s.d, a), s.beta, cm)
				be.Download(got, cm)
				check(t, got, want, s.d, true)
			})
		}
	}
}
