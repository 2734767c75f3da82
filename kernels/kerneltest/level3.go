package kerneltest

import (
	"fmt"
	"math"
	"testing"
)

// syrkCase runs one Syrk on a k×d A and checks it. C's strictly lower triangle is set to
// a sentinel that must survive.
func syrkCase(t *testing.T, h *harness, b Level3, alpha float64, ad []float64, k, d int, la layout, beta float64, cd []float64, lc layout) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("Syrk(alpha=%v, A %d×%d %v, beta=%v, C %v)", alpha, k, d, la, beta, lc))
	for i := range d {
		for j := range i {
			cd[i*d+j] = outGuard
		}
	}
	a := h.mat(ad, k, d, la, inGuard)
	c := h.mat(cd, d, d, lc, outGuard)
	b.Syrk(alpha, a.m, beta, c.m)
	what := fmt.Sprintf("Syrk(alpha=%v, A %v, beta=%v, C %v)", alpha, a, beta, c)
	want, tol := refSyrk(alpha, ad, k, d, beta, cd)
	h.checkMat(t, what, "C", c, want, tol, true)
	h.matUnchanged(t, what, "A", a)
}

// TestSyrk checks the rank-k update Syrk for k from 0 to 600 rows of d from 0 to 300
// columns (around tile and block sizes) and for k = 300, d = 1000, on plain matrices and strided views, that it
// writes C's upper triangle only, with beta = 0 ignoring NaN in C, NaN and Inf, and its
// panics.
func TestSyrk(t *testing.T, b Level3) {
	h := newHarness(b, 13)
	t.Run("Shapes", func(t *testing.T) {
		i := 0
		for _, k := range []int{0, 1, 2, 3, 5, 8, 17, 64, 65, 127, 128, 129, 256, 257, 600} {
			for _, d := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 16, 17, 23, 24, 25, 31, 33, 47, 48, 49, 63, 64, 65, 100, 128, 129, 239, 240, 241, 300} {
				alpha, beta := h.pickAlphaBeta(i)
				syrkCase(t, h, b, alpha, h.values(k*d), k, d, layouts[i%len(layouts)], beta, h.output(d*d, beta), layouts[(i/2)%len(layouts)])
				i++
			}
		}
		syrkCase(t, h, b, 0.5, h.values(300*1000), 300, 1000, layouts[2], 1, h.values(1000*1000), layouts[1])
		syrkCase(t, h, b, -1, h.values(1000*64), 1000, 64, layouts[4], 0, h.output(64*64, 0), layouts[0])
	})
	t.Run("NoRows", func(t *testing.T) {
		for i, d := range []int{1, 5, 64} {
			for _, beta := range []float64{0, 1, 2} {
				syrkCase(t, h, b, 1.5, nil, 0, d, layouts[i], beta, h.output(d*d, beta), layouts[i+1])
			}
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		i := 0
		for _, s := range [][2]int{{1, 1}, {1, 5}, {5, 1}, {3, 8}, {8, 3}, {17, 9}, {9, 17}, {64, 33}, {33, 64}} {
			k, d := s[0], s[1]
			for trial := range 4 {
				alpha, beta := []float64{1.5, 1, 0, -2}[trial], []float64{0.5, 0, 1, -1}[trial]
				ad, cd := h.values(k*d), h.output(d*d, beta)
				h.sprinkle(ad, trial%(k*d), 1)
				if beta != 0 {
					h.sprinkle(cd, d-1, 1) // C[0][d−1]
				}
				syrkCase(t, h, b, alpha, ad, k, d, layouts[i%len(layouts)], beta, cd, layouts[(i+3)%len(layouts)])
				i++
			}
			// beta ≠ 0: a NaN in C stays NaN.
			cd := h.values(d * d)
			cd[d-1] = math.NaN()
			syrkCase(t, h, b, 1, h.values(k*d), k, d, layouts[1], -1, cd, layouts[2])
		}
	})
	t.Run("Panics", func(t *testing.T) {
		a := h.mat(h.values(5*3), 5, 3, layouts[2], inGuard)
		for _, s := range [][2]int{{4, 4}, {3, 4}, {4, 3}, {2, 2}, {0, 0}, {5, 5}} {
			c := h.mat(h.values(s[0]*s[1]), s[0], s[1], layouts[1], outGuard)
			what := fmt.Sprintf("Syrk(A 5×3, C %d×%d)", s[0], s[1])
			h.mustPanic(t, what, func() { b.Syrk(1, a.m, 1, c.m) })
			h.matUnchanged(t, "refused "+what, "C", c)
		}
		c := h.mat(h.values(9), 3, 3, layouts[0], outGuard)
		h.mustPanic(t, "Syrk(foreign A)", func() { b.Syrk(1, foreignMat{5, 3}, 1, c.m) })
		h.mustPanic(t, "Syrk(foreign C)", func() { b.Syrk(1, a.m, 1, foreignMat{3, 3}) })
		h.matUnchanged(t, "refused Syrk", "C", c)
	})
}

// symmCase runs one Symm with A (d×d) whose strictly lower triangle is set to NaN (it
// must not be read), B and C k×d, and checks it.
func symmCase(t *testing.T, h *harness, b Level3, alpha float64, ad []float64, d int, la layout, bd []float64, k int, lb layout, beta float64, cd []float64, lc layout) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("Symm(alpha=%v, A %d×%d %v, B %d×%d %v, beta=%v, C %v)", alpha, d, d, la, k, d, lb, beta, lc))
	for i := range d {
		for j := range i {
			ad[i*d+j] = inGuard
		}
	}
	a := h.mat(ad, d, d, la, inGuard)
	bm := h.mat(bd, k, d, lb, inGuard)
	c := h.mat(cd, k, d, lc, outGuard)
	b.Symm(alpha, a.m, bm.m, beta, c.m)
	what := fmt.Sprintf("Symm(alpha=%v, A %v, B %v, beta=%v, C %v)", alpha, a, bm, beta, c)
	want, tol := refSymm(alpha, ad, d, bd, k, beta, cd)
	h.checkMat(t, what, "C", c, want, tol, false)
	h.matUnchanged(t, what, "A", a)
	h.matUnchanged(t, what, "B", bm)
}

// TestSymm checks Symm, C = alpha·B·A + beta·C with a symmetric A, for k from 0 to 1000
// rows of B and C and d from 0 to 300 (around tile, strip and block sizes) and for
// k = 40, d = 1000, on plain matrices and strided views of A, B and C; that A's strictly
// lower triangle (NaN here) is never read; beta = 0 ignoring NaN in C; NaN and Inf
// propagation, alpha = 0 included; and its panics.
func TestSymm(t *testing.T, b Level3) {
	h := newHarness(b, 14)
	t.Run("Shapes", func(t *testing.T) {
		i := 0
		for _, k := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 33, 64, 65, 129, 299} {
			for _, d := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 23, 24, 25, 31, 33, 47, 48, 49, 63, 64, 65, 100, 123, 129, 255, 256, 257, 300} {
				alpha, beta := h.pickAlphaBeta(i)
				symmCase(t, h, b, alpha, h.values(d*d), d, layouts[i%len(layouts)], h.values(k*d), k, layouts[(i/2)%len(layouts)], beta, h.output(k*d, beta), layouts[(i/3)%len(layouts)])
				i++
			}
		}
		symmCase(t, h, b, 0.5, h.values(1000*1000), 1000, layouts[1], h.values(40*1000), 40, layouts[2], 1, h.values(40*1000), layouts[4])
		symmCase(t, h, b, -1, h.values(64*64), 64, layouts[4], h.values(1000*64), 1000, layouts[3], 0, h.output(1000*64, 0), layouts[5])
	})
	t.Run("NaNInf", func(t *testing.T) {
		i := 0
		for _, s := range [][2]int{{1, 1}, {1, 5}, {5, 1}, {3, 8}, {8, 3}, {17, 9}, {9, 17}, {64, 33}, {33, 64}} {
			k, d := s[0], s[1]
			for trial := range 4 {
				alpha, beta := []float64{1.5, 1, 0, -2}[trial], []float64{0.5, 0, 1, -1}[trial]
				ad, bd, cd := h.upper(d, 0), h.values(k*d), h.output(k*d, beta)
				h.sprinkle(ad, d-1, 2) // A[0][d−1]
				h.sprinkle(bd, trial%(k*d), 1)
				if beta != 0 {
					h.sprinkle(cd, k*d-1, 1)
				}
				symmCase(t, h, b, alpha, ad, d, layouts[i%len(layouts)], bd, k, layouts[(i+2)%len(layouts)], beta, cd, layouts[(i+3)%len(layouts)])
				i++
			}
			// beta = 0: C is overwritten, its NaN not read.
			symmCase(t, h, b, 2, h.values(d*d), d, layouts[1], h.values(k*d), k, layouts[0], 0, filled(k*d, math.NaN()), layouts[2])
			// beta ≠ 0: a NaN in C stays NaN.
			cd := h.values(k * d)
			cd[k*d-1] = math.NaN()
			symmCase(t, h, b, 1, h.values(d*d), d, layouts[2], h.values(k*d), k, layouts[1], -1, cd, layouts[3])
			// alpha = 0 multiplies: a NaN in B makes its row of C NaN, an Inf in A its
			// column (and, by symmetry, its row) of every row of C.
			bd := h.values(k * d)
			bd[(k-1)*d] = math.NaN()
			symmCase(t, h, b, 0, h.values(d*d), d, layouts[3], bd, k, layouts[4], 0.5, h.values(k*d), layouts[0])
			ad := h.values(d * d)
			ad[d-1] = math.Inf(1) // A[0][d−1]
			symmCase(t, h, b, 0, ad, d, layouts[5], h.values(k*d), k, layouts[6], 1, h.values(k*d), layouts[1])
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, c := range [][6]int{
			{3, 4, 2, 3, 2, 3}, // A not square
			{4, 3, 2, 3, 2, 3},
			{3, 3, 2, 4, 2, 4}, // B's columns ≠ d
			{3, 3, 2, 3, 2, 4}, // C's columns ≠ d
			{3, 3, 2, 3, 3, 3}, // C's rows ≠ B's
			{3, 3, 0, 3, 1, 3},
			{0, 0, 1, 1, 1, 1},
			{0, 0, 1, 0, 2, 0},
		} {
			a := h.mat(h.values(c[0]*c[1]), c[0], c[1], layouts[2], inGuard)
			bm := h.mat(h.values(c[2]*c[3]), c[2], c[3], layouts[1], inGuard)
			cm := h.mat(h.values(c[4]*c[5]), c[4], c[5], layouts[3], outGuard)
			what := fmt.Sprintf("Symm(A %d×%d, B %d×%d, C %d×%d)", c[0], c[1], c[2], c[3], c[4], c[5])
			h.mustPanic(t, what, func() { b.Symm(1, a.m, bm.m, 1, cm.m) })
			h.matUnchanged(t, "refused "+what, "C", cm)
		}
		a := h.mat(h.values(9), 3, 3, layouts[0], inGuard)
		bm := h.mat(h.values(6), 2, 3, layouts[1], inGuard)
		cm := h.mat(h.values(6), 2, 3, layouts[2], outGuard)
		h.mustPanic(t, "Symm(foreign A)", func() { b.Symm(1, foreignMat{3, 3}, bm.m, 1, cm.m) })
		h.mustPanic(t, "Symm(foreign B)", func() { b.Symm(1, a.m, foreignMat{2, 3}, 1, cm.m) })
		h.mustPanic(t, "Symm(foreign C)", func() { b.Symm(1, a.m, bm.m, 1, foreignMat{2, 3}) })
		h.matUnchanged(t, "refused Symm", "C", cm)
	})
}
