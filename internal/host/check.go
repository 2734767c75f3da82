package host

import (
	"fmt"
	"slices"

	"github.com/aucopt/aucopt/kernels"
)

// The argument checks of the kernels contract, shared by every backend so that each
// panics with the same "kernels:" message. Each checks everything before an operation
// writes anything; the sizes are those of the operands, wherever the tensors live.

// CheckLen panics unless the lengths n and m of op's operands are equal.
func CheckLen(op string, n, m int) {
	if n != m {
		panic(fmt.Sprintf("kernels: %s: lengths %d and %d differ", op, n, m))
	}
}

// CheckSparse panics unless x is well formed for a dense operand of length n: equal
// index and value lengths and every index in [0, n).
func CheckSparse(op string, x kernels.Sparse, n int) {
	CheckSparseLen(op, x)
	for k, i := range x.Idx {
		if uint(i) >= uint(n) {
			BadSparseIndex(op, x, k, n)
		}
	}
}

// CheckSparseLen panics unless x has as many values as indices.
func CheckSparseLen(op string, x kernels.Sparse) {
	if len(x.Idx) != len(x.Val) {
		panic(fmt.Sprintf("kernels: %s: %d indices but %d values", op, len(x.Idx), len(x.Val)))
	}
}

// BadSparseIndex panics for the out-of-range index x.Idx[k] of op, n being the length
// of the dense operand: for kernels that find the bad index themselves.
func BadSparseIndex(op string, x kernels.Sparse, k, n int) {
	panic(fmt.Sprintf("kernels: %s: index %d (element %d) out of range [0, %d)", op, x.Idx[k], k, n))
}

// CheckSquare panics unless m is n×n.
func CheckSquare(op string, m *Mat, n int) {
	if m.Rows != n || m.Cols != n {
		panic(fmt.Sprintf("kernels: %s: matrix is %d×%d, want %d×%d", op, m.Rows, m.Cols, n, n))
	}
}

// CheckGemv panics unless x and y have the lengths a mat-vec over r×c (transposed
// when trans) needs.
func CheckGemv(op string, trans bool, r, c, nx, ny int) {
	wantX, wantY := c, r
	if trans {
		wantX, wantY = r, c
	}
	if nx != wantX || ny != wantY {
		panic(fmt.Sprintf("kernels: %s(trans=%t): A is %d×%d but x has %d and y %d elements", op, trans, r, c, nx, ny))
	}
}

// CheckRows panics unless every row index of GemvRows is in [0, n).
func CheckRows(rows []int32, n int) {
	for k, r := range rows {
		if uint(r) >= uint(n) {
			panic(fmt.Sprintf("kernels: GemvRows: row %d (element %d) out of range [0, %d)", r, k, n))
		}
	}
}

// CheckGer panics unless A is len(x)×len(y), given as its r×c shape.
func CheckGer(r, c, nx, ny int) {
	if r != nx || c != ny {
		panic(fmt.Sprintf("kernels: Ger: A is %d×%d, x has %d, y has %d elements", r, c, nx, ny))
	}
}

// CheckSyrk panics unless C is d×d for a k×d A.
func CheckSyrk(k, d, cRows, cCols int) {
	if cRows != d || cCols != d {
		panic(fmt.Sprintf("kernels: Syrk: A is %d×%d, so C must be %d×%d, not %d×%d", k, d, d, d, cRows, cCols))
	}
}

// CheckSymm panics unless the operands of Symm fit: A d×d, B and C k×d.
func CheckSymm(a, b, c *Mat) {
	d := a.Cols
	if a.Rows != d || b.Cols != d || c.Rows != b.Rows || c.Cols != d {
		panic(fmt.Sprintf("kernels: Symm: A is %d×%d, B %d×%d and C %d×%d; want A d×d, B and C k×d",
			a.Rows, a.Cols, b.Rows, b.Cols, c.Rows, c.Cols))
	}
}

// CheckRowDiff panics unless the operands of RowDiff fit: A n×d, out k×d with
// k = len(pos) = len(neg), and every row index in [0, n).
func CheckRowDiff(n, d int, pos, neg []int32, outRows, outCols int) {
	if len(pos) != len(neg) || outRows != len(pos) || outCols != d {
		panic(fmt.Sprintf("kernels: RowDiff: A is %d×%d, %d pos and %d neg rows, out %d×%d; want out len(pos)×%d",
			n, d, len(pos), len(neg), outRows, outCols, d))
	}
	for _, rows := range [][]int32{pos, neg} {
		for k, r := range rows {
			if uint(r) >= uint(n) {
				panic(fmt.Sprintf("kernels: RowDiff: row %d (element %d) out of range [0, %d)", r, k, n))
			}
		}
	}
}

// CheckGather panics unless the operands of Gather fit: out of length len(idx) and
// every index in [0, n), n being x's length.
func CheckGather(idx []int32, n, outLen int) {
	if outLen != len(idx) {
		panic(fmt.Sprintf("kernels: Gather: %d indices into an output of %d", len(idx), outLen))
	}
	checkIndices("Gather", idx, n)
}

// CheckScatterAdd panics unless the operands of ScatterAdd fit: x of length len(idx)
// and distinct indices in [0, n), n being y's length.
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
