package fallback

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// Gemm computes C = alpha·op(A)·op(B) + beta·C, op(X) being X or Xᵀ.
//
// Row i of C is accumulated in a buffer from the k rows of op(B) (without transB) or as
// k-term dot products (with transB), then combined as alpha·sum + beta·C[i,:]; the
// sums run in a fixed order, so the result does not depend on the number of cores.
func (b *Backend) Gemm(transA, transB bool, alpha float64, a, bm kernels.Mat, beta float64, c kernels.Mat) {
	GemmWith(Dot, Axpy, transA, transB, alpha, a, bm, beta, c)
}

// GemmWith is Gemm with the given level-1 kernels (dot for the transB sums, axpy for
// the others), for backends that build on this one with faster ones.
func GemmWith(dot func(x, y []float64) float64, axpy func(alpha float64, x, y []float64),
	transA, transB bool, alpha float64, a, bm kernels.Mat, beta float64, c kernels.Mat) {
	am, bh, ch := HostMat(a), HostMat(bm), HostMat(c)
	m, n, k := CheckGemm(transA, transB, am, bh, ch)
	if m == 0 || n == 0 {
		return
	}
	opA := func(i, l int) float64 {
		if transA {
			return am.Data[l*am.Stride+i]
		}
		return am.Data[i*am.Stride+l]
	}
	acc := make([]float64, n)
	ai := make([]float64, k)
	for i := range m {
		for l := range k {
			ai[l] = opA(i, l)
		}
		clear(acc)
		if transB {
			for j := range n {
				acc[j] = dot(ai, bh.Data[j*bh.Stride:j*bh.Stride+k])
			}
		} else {
			for l, v := range ai {
				axpy(v, bh.Data[l*bh.Stride:l*bh.Stride+n], acc)
			}
		}
		ci := ch.Data[i*ch.Stride : i*ch.Stride+n]
		for j, s := range acc {
			if beta == 0 {
				ci[j] = alpha * s
			} else {
				ci[j] = alpha*s + beta*ci[j]
			}
		}
	}
}

// CheckGemm panics unless the operands of Gemm fit, and returns the shape of the
// product: op(A) m×k, op(B) k×n, C m×n.
func CheckGemm(transA, transB bool, a, b, c *Mat) (m, n, k int) {
	m, k = a.Rows, a.Cols
	if transA {
		m, k = k, m
	}
	kb, n := b.Rows, b.Cols
	if transB {
		kb, n = n, kb
	}
	if kb != k || c.Rows != m || c.Cols != n {
		panic(fmt.Sprintf("kernels: Gemm(transA=%t, transB=%t): A is %d×%d, B %d×%d and C %d×%d; want op(A) m×k, op(B) k×n, C m×n",
			transA, transB, a.Rows, a.Cols, b.Rows, b.Cols, c.Rows, c.Cols))
	}
	return m, n, k
}

// RowDiff sets out[k,:] = A[pos[k],:] − A[neg[k],:].
func (b *Backend) RowDiff(a kernels.Mat, pos, neg []int32, out kernels.Mat) {
	am, om := HostMat(a), HostMat(out)
	CheckRowDiff(am.Rows, am.Cols, pos, neg, om.Rows, om.Cols)
	d := am.Cols
	for k := range pos {
		p, q := int(pos[k])*am.Stride, int(neg[k])*am.Stride
		xp, xq := am.Data[p:p+d], am.Data[q:q+d]
		row := om.Data[k*om.Stride : k*om.Stride+d]
		for j := range row {
			row[j] = xp[j] - xq[j]
		}
	}
}

// CheckRowDiff panics unless the operands of RowDiff fit: A n×d, out k×d with
// k = len(pos) = len(neg), and every row index in [0, n). It checks everything before
// anything is written.
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
