package kerneltest

import (
	"fmt"
	"math"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// gemmCase runs one Gemm (op(A) m×k, op(B) k×n) and checks it.
func gemmCase(t *testing.T, h *harness, transA, transB bool, alpha float64, m, n, k int, ad, bd []float64, beta float64, cd []float64, i int) {
	t.Helper()
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	defer h.recoverCase(t, fmt.Sprintf("Gemm(transA=%t, transB=%t, alpha=%v, m=%d, n=%d, k=%d, beta=%v)", transA, transB, alpha, m, n, k, beta))
	a := h.mat(ad, ar, ac, layouts[i%len(layouts)], inGuard)
	b := h.mat(bd, br, bc, layouts[(i+1)%len(layouts)], inGuard)
	c := h.mat(cd, m, n, layouts[(i+2)%len(layouts)], outGuard)
	h.b.Gemm(transA, transB, alpha, a.m, b.m, beta, c.m)
	what := fmt.Sprintf("Gemm(transA=%t, transB=%t, alpha=%v, A %v, B %v, beta=%v, C %v)", transA, transB, alpha, a, b, beta, c)
	want, tol := refGemm(transA, transB, alpha, ad, bd, m, n, k, beta, cd)
	h.checkMat(t, what, "C", c, want, tol, false)
	h.matUnchanged(t, what, "A", a)
	h.matUnchanged(t, what, "B", b)
}

// TestGemm checks Gemm, C = alpha·op(A)·op(B) + beta·C, for the four transpose
// combinations on shapes from empty to 300, on plain matrices and strided views, with
// beta = 0 ignoring NaN in C, NaN and Inf propagation (alpha = 0 included), and its
// panics.
func TestGemm(t *testing.T, b kernels.Backend) {
	h := newHarness(b, 15)
	tr := [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}}
	t.Run("Shapes", func(t *testing.T) {
		i := 0
		sizes := []int{0, 1, 2, 3, 5, 8, 17, 33, 64, 65, 129}
		for _, m := range sizes {
			for _, n := range sizes {
				for _, k := range []int{0, 1, 4, 7, 31, 100} {
					alpha, beta := h.pickAlphaBeta(i)
					f := tr[i%4]
					gemmCase(t, h, f[0], f[1], alpha, m, n, k, h.values(m*k), h.values(k*n), beta, h.output(m*n, beta), i)
					i++
				}
			}
		}
		for j, f := range tr {
			gemmCase(t, h, f[0], f[1], 0.5, 300, 257, 129, h.values(300*129), h.values(129*257), 1, h.values(300*257), j)
			gemmCase(t, h, f[0], f[1], -1, 33, 33, 33, h.values(33*33), h.values(33*33), 0, h.output(33*33, 0), j+1)
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		i := 0
		for _, s := range [][3]int{{1, 1, 1}, {3, 5, 2}, {8, 3, 9}, {17, 9, 33}} {
			m, n, k := s[0], s[1], s[2]
			for trial := range 4 {
				alpha, beta := []float64{1.5, 1, 0, -2}[trial], []float64{0.5, 0, 1, -1}[trial]
				ad, bd, cd := h.values(m*k), h.values(k*n), h.output(m*n, beta)
				h.sprinkle(ad, trial%(m*k), 1)
				h.sprinkle(bd, (trial+1)%(k*n), 1)
				if beta != 0 {
					h.sprinkle(cd, m*n-1, 1)
				}
				f := tr[i%4]
				gemmCase(t, h, f[0], f[1], alpha, m, n, k, ad, bd, beta, cd, i)
				i++
			}
			// alpha = 0 multiplies: a NaN in A makes its row of C NaN.
			ad := h.values(m * k)
			ad[0] = math.NaN()
			gemmCase(t, h, false, false, 0, m, n, k, ad, h.values(k*n), 0.5, h.values(m*n), i)
			// beta = 0: C is overwritten, its NaN not read.
			gemmCase(t, h, true, false, 2, m, n, k, h.values(m*k), h.values(k*n), 0, filled(m*n, math.NaN()), i+1)
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, c := range []struct {
			ta, tb     bool
			ar, ac     int
			br, bc     int
			cr, cc     int
			whatShapes string
		}{
			{false, false, 2, 3, 4, 5, 2, 5, "k differs"},
			{false, false, 2, 3, 3, 5, 3, 5, "C rows"},
			{false, false, 2, 3, 3, 5, 2, 4, "C cols"},
			{true, false, 2, 3, 3, 5, 3, 5, "transA k"},
			{false, true, 2, 3, 3, 5, 2, 5, "transB k"},
		} {
			a := h.mat(h.values(c.ar*c.ac), c.ar, c.ac, layouts[1], inGuard)
			bm := h.mat(h.values(c.br*c.bc), c.br, c.bc, layouts[2], inGuard)
			cm := h.mat(h.values(c.cr*c.cc), c.cr, c.cc, layouts[3], outGuard)
			what := fmt.Sprintf("Gemm(%t, %t, A %d×%d, B %d×%d, C %d×%d): %s", c.ta, c.tb, c.ar, c.ac, c.br, c.bc, c.cr, c.cc, c.whatShapes)
			h.mustPanic(t, what, func() { b.Gemm(c.ta, c.tb, 1, a.m, bm.m, 1, cm.m) })
			h.matUnchanged(t, "refused "+what, "C", cm)
		}
		a := h.mat(h.values(6), 2, 3, layouts[0], inGuard)
		bm := h.mat(h.values(6), 3, 2, layouts[0], inGuard)
		cm := h.mat(h.values(4), 2, 2, layouts[0], outGuard)
		h.mustPanic(t, "Gemm(foreign A)", func() { b.Gemm(false, false, 1, foreignMat{2, 3}, bm.m, 1, cm.m) })
		h.mustPanic(t, "Gemm(foreign B)", func() { b.Gemm(false, false, 1, a.m, foreignMat{3, 2}, 1, cm.m) })
		h.mustPanic(t, "Gemm(foreign C)", func() { b.Gemm(false, false, 1, a.m, bm.m, 1, foreignMat{2, 2}) })
		h.matUnchanged(t, "refused Gemm", "C", cm)
	})
}

// rowDiffCase runs one RowDiff from an n×d A into a k×d out and checks it bit for bit.
func rowDiffCase(t *testing.T, h *harness, ad []float64, n, d int, pos, neg []int32, i int) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("RowDiff(A %d×%d, k=%d)", n, d, len(pos)))
	a := h.mat(ad, n, d, layouts[i%len(layouts)], inGuard)
	out := h.mat(filled(len(pos)*d, math.NaN()), len(pos), d, layouts[(i+3)%len(layouts)], outGuard)
	h.b.RowDiff(a.m, pos, neg, out.m)
	what := fmt.Sprintf("RowDiff(A %v, %d pairs, out %v)", a, len(pos), out)
	h.checkMat(t, what, "out", out, refRowDiff(ad, d, pos, neg), nil, false)
	h.matUnchanged(t, what, "A", a)
}

// TestRowDiff checks RowDiff, out[k,:] = A[pos[k],:] − A[neg[k],:], bit for bit on
// shapes from empty to 1000 columns, repeated and equal rows, views, NaN and Inf, and
// its panics (row indices out of range, mismatched lengths, foreign tensors).
func TestRowDiff(t *testing.T, b kernels.Backend) {
	h := newHarness(b, 16)
	t.Run("Shapes", func(t *testing.T) {
		i := 0
		for _, n := range []int{1, 2, 7, 64, 301} {
			for _, d := range []int{0, 1, 3, 8, 17, 123, 1000} {
				for _, k := range []int{0, 1, 5, 64, 129} {
					pos, neg := make([]int32, k), make([]int32, k)
					for j := range k {
						pos[j], neg[j] = int32(h.rnd.IntN(n)), int32(h.rnd.IntN(n))
					}
					if k > 2 {
						neg[1] = pos[1] // a zero row
						pos[2] = pos[0] // a repeat
					}
					ad := h.values(n * d)
					if n*d > 0 && i%3 == 0 {
						h.sprinkle(ad, 0, 2)
					}
					rowDiffCase(t, h, ad, n, d, pos, neg, i)
					i++
				}
			}
		}
	})
	t.Run("Panics", func(t *testing.T) {
		a := h.mat(h.values(4*3), 4, 3, layouts[1], inGuard)
		for _, c := range []struct {
			pos, neg []int32
			r, c     int
		}{
			{[]int32{0, 4}, []int32{1, 2}, 2, 3},
			{[]int32{0, 1}, []int32{-1, 2}, 2, 3},
			{[]int32{0, 1}, []int32{1}, 2, 3},
			{[]int32{0, 1}, []int32{1, 2}, 3, 3},
			{[]int32{0, 1}, []int32{1, 2}, 2, 4},
		} {
			out := h.mat(h.values(c.r*c.c), c.r, c.c, layouts[2], outGuard)
			what := fmt.Sprintf("RowDiff(A 4×3, pos %v, neg %v, out %d×%d)", c.pos, c.neg, c.r, c.c)
			h.mustPanic(t, what, func() { b.RowDiff(a.m, c.pos, c.neg, out.m) })
			h.matUnchanged(t, "refused "+what, "out", out)
		}
		out := h.mat(h.values(3), 1, 3, layouts[0], outGuard)
		h.mustPanic(t, "RowDiff(foreign A)", func() { b.RowDiff(foreignMat{4, 3}, []int32{0}, []int32{1}, out.m) })
		h.mustPanic(t, "RowDiff(foreign out)", func() { b.RowDiff(a.m, []int32{0}, []int32{1}, foreignMat{1, 3}) })
		h.matUnchanged(t, "refused RowDiff", "out", out)
	})
}
