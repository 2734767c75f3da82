package fallback

import (
	"fmt"
	"slices"

	"github.com/aucopt/aucopt/kernels"
)

// Gather sets out[k] = x[idx[k]].
func (b *Backend) Gather(x kernels.Vec, idx []int32, out kernels.Vec) {
	xs, outs := HostVec(x), HostVec(out)
	CheckGather(idx, len(xs), len(outs))
	for k, i := range idx {
		outs[k] = xs[i]
	}
}

// ScatterAdd computes y[idx[k]] += alpha·x[k] for distinct indices.
func (b *Backend) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	xs, ys := HostVec(x), HostVec(y)
	CheckScatterAdd(idx, len(xs), len(ys))
	for k, i := range idx {
		ys[i] += alpha * xs[k]
	}
}

// CheckGather panics unless the operands of Gather fit: out of length len(idx) and
// every index in [0, n), n being x's length. It checks everything before anything is
// written.
func CheckGather(idx []int32, n, outLen int) {
	if outLen != len(idx) {
		panic(fmt.Sprintf("kernels: Gather: %d indices into an output of %d", len(idx), outLen))
	}
	checkIndices("Gather", idx, n)
}

// CheckScatterAdd panics unless the operands of ScatterAdd fit: x of length len(idx)
// and distinct indices in [0, n), n being y's length. It checks everything before
// anything is written.
//
// Distinctness costs a bitmap of n bits when n is at most 256·len(idx) (so at most
// 4·len(idx) words are cleared), else a sorted copy of idx: in either case about the
// time of reading idx once more, or a little over for the sort.
func CheckScatterAdd(idx []int32, xLen, n int) {
	if xLen != len(idx) {
		panic(fmt.Sprintf("kernels: ScatterAdd: %d indices but x has %d elements", len(idx), xLen))
	}
	checkIndices("ScatterAdd", idx, n)
	switch m := len(idx); {
	case m < 2:
	case m <= 16:
		for k := 1; k < m; k++ {
			for l := range k {
				if idx[l] == idx[k] {
					repeated(idx[k], l, k)
				}
			}
		}
	case n <= 256*m:
		seen := make([]uint64, (n+63)/64)
		for k, i := range idx {
			w, bit := i>>6, uint64(1)<<(i&63)
			if seen[w]&bit != 0 {
				repeated(i, slices.Index(idx, i), k)
			}
			seen[w] |= bit
		}
	default:
		s := slices.Clone(idx)
		slices.Sort(s)
		for k := 1; k < len(s); k++ {
			if s[k] == s[k-1] {
				first := slices.Index(idx, s[k])
				repeated(s[k], first, first+1+slices.Index(idx[first+1:], s[k]))
			}
		}
	}
}

// checkIndices panics unless every index is in [0, n).
func checkIndices(op string, idx []int32, n int) {
	for k, i := range idx {
		if uint(i) >= uint(n) {
			panic(fmt.Sprintf("kernels: %s: index %d (element %d) out of range [0, %d)", op, i, k, n))
		}
	}
}

func repeated(i int32, first, second int) {
	panic(fmt.Sprintf("kernels: ScatterAdd: index %d repeated (elements %d and %d); the indices must be distinct", i, first, second))
}
