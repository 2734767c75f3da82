//go:build amd64 && !noasm && !purego

package asm

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// TestRank1Parallel: Ger and Syr on matrices past rank1ParallelWork, split into parts
// on the pool, give the one-part loop's bits (each element is updated alone), leave
// the strictly lower triangle of Syr's matrix alone, and their parts cover every row
// once (Syr's equal-area bounds at sizes that do not divide evenly).
func TestRank1Parallel(t *testing.T) {
	b, err := New()
	if err != nil {
		t.Skip(err)
	}
	defer b.Close()
	r := rand.New(rand.NewPCG(5, 6))
	up := func(v []float64) kernels.Vec {
		out := b.NewVec(len(v))
		b.Upload(out, v)
		return out
	}
	vec := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.NormFloat64()
		}
		return v
	}
	for _, s := range [][2]int{{600, 700}, {1000, 131}, {17, 8000}} {
		x, y, a := vec(s[0]), vec(s[1]), vec(s[0]*s[1])
		want := slices.Clone(a)
		for i, xi := range x {
			axpyAVX2(-0.7*xi, y, want[i*s[1]:(i+1)*s[1]])
		}
		m := b.ViewMat(s[0], s[1], a)
		b.Ger(-0.7, up(x), up(y), m)
		if !slices.Equal(a, want) {
			t.Errorf("Ger %d×%d: differs from the one-part loop", s[0], s[1])
		}
	}
	for _, n := range []int{512, 700, 1001} {
		x, a := vec(n), vec(n*n)
		for i := range n { // the strictly lower triangle: a sentinel Syr must not touch
			for k := range i {
				a[i*n+k] = math.NaN()
			}
		}
		want := slices.Clone(a)
		syrRows(1.3, x, &host.Mat{Rows: n, Cols: n, Stride: n, Data: want}, 0, n)
		b.Syr(1.3, up(x), b.ViewMat(n, n, a))
		for i := range a {
			if a[i] != want[i] && !(math.IsNaN(a[i]) && math.IsNaN(want[i])) {
				t.Fatalf("Syr n=%d: element (%d, %d) is %v, the one-part loop's %v", n, i/n, i%n, a[i], want[i])
			}
		}
	}
}
