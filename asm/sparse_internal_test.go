//go:build amd64 && !noasm && !purego

package asm

import (
	"math"
	"slices"
	"testing"

	"github.com/klauspost/cpuid/v2"
)

// TestSparseBadIndex checks that the sparse kernels report exactly the first
// out-of-range index wherever it sits in a block of eight, and that axpySparseAVX2 then
// leaves y untouched.
func TestSparseBadIndex(t *testing.T) {
	if checkCPU(cpuid.CPU.Supports) != nil {
		t.Skip("CPU lacks AVX2 or FMA3")
	}
	for _, n := range []int{0, 1, 50} {
		y := make([]float64, n)
		for i := range y {
			y[i] = float64(i) + 0.5
		}
		orig := slices.Clone(y)
		for nnz := 1; nnz <= 40; nnz++ {
			for pos := range nnz {
				for _, badIdx := range []int32{-1, math.MinInt32, int32(n), math.MaxInt32} {
					idx := make([]int32, nnz)
					val := make([]float64, nnz)
					for k := range idx {
						idx[k] = int32(k % max(n, 1))
						val[k] = 1
					}
					idx[pos] = badIdx
					want := pos
					if n == 0 {
						want = 0 // every index is out of range
					}
					if _, bad := dotSparseAVX2(val, idx, y); bad != want {
						t.Fatalf("n=%d nnz=%d idx[%d]=%d: dotSparseAVX2 bad = %d, want %d", n, nnz, pos, badIdx, bad, want)
					}
					if bad := axpySparseAVX2(2, val, idx, y); bad != want {
						t.Fatalf("n=%d nnz=%d idx[%d]=%d: axpySparseAVX2 bad = %d, want %d", n, nnz, pos, badIdx, bad, want)
					}
					if !slices.Equal(y, orig) {
						t.Fatalf("n=%d nnz=%d idx[%d]=%d: axpySparseAVX2 wrote y despite a bad index", n, nnz, pos, badIdx)
					}
				}
			}
		}
	}
}
