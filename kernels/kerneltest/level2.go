package kerneltest

import (
	"fmt"
	"math"
	"testing"
)

// alphaBeta is a pair of scalars for the operations that take both.
type alphaBeta struct{ alpha, beta float64 }

// alphaBetas cycle through the ordinary cases: beta = 0 (the output is not read; the
// tests fill it with NaN), beta = 1, alpha = 0, and general values.
var alphaBetas = []alphaBeta{{1, 0}, {1, 1}, {-0.5, 2}, {2.5, -1}, {0, 1.5}, {0.75, 0}, {-1, 0.25}}

// pickAlphaBeta returns the scalars of case i: from alphaBetas, every fifth random.
func (h *harness) pickAlphaBeta(i int) (alpha, beta float64) {
	if i%5 == 4 {
		return randValue(h.rnd), randValue(h.rnd)
	}
	ab := alphaBetas[i%len(alphaBetas)]
	return ab.alpha, ab.beta
}

// output returns the initial contents of an n-element output: NaN when beta is 0, so
// that a read of it shows, random otherwise.
func (h *harness) output(n int, beta float64) []float64 {
	if beta == 0 {
		return filled(n, math.NaN())
	}
	return h.values(n)
}

// upper returns a random n×n matrix whose strictly lower triangle holds lower.
func (h *harness) upper(n int, lower float64) []float64 {
	a := h.values(n * n)
	for i := range n {
		for j := range i {
			a[i*n+j] = lower
		}
	}
	return a
}

// gemvCase runs one Gemv and checks it.
func gemvCase(t *testing.T, h *harness, b Level2, trans bool, alpha float64, ad []float64, m, n int, l layout, xd []float64, beta float64, yd []float64, xlo, ylo int) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("Gemv(trans=%t, alpha=%v, A %d×%d %v, beta=%v)", trans, alpha, m, n, l, beta))
	a := h.mat(ad, m, n, l, inGuard)
	x := h.vec(xd, xlo, 1, inGuard)
	y := h.vec(yd, ylo, 2, outGuard)
	b.Gemv(trans, alpha, a.m, x.v, beta, y.v)
	what := fmt.Sprintf("Gemv(trans=%t, alpha=%v, A %v, x %v, beta=%v, y %v)", trans, alpha, a, x, beta, y)
	if len(xd) <= 8 && len(yd) <= 8 {
		what += fmt.Sprintf(" with A=%v x=%v y=%v", ad, xd, yd)
	}
	want, tol := refGemv(trans, alpha, ad, m, n, xd, beta, yd)
	h.checkVec(t, what, "y", y, want, tol)
	h.matUnchanged(t, what, "A", a)
	h.vecUnchanged(t, what, "x", x)
}

// gemvLens are the lengths of x and y for an m×n A.
func gemvLens(trans bool, m, n int) (nx, ny int) {
	if trans {
		return m, n
	}
	return n, m
}

// TestGemv checks Gemv, both transposes, for every shape with sides in a list from 0 to
// 600 (so 0×n, n×0, 1×n, n×1 and non-square ones), on plain matrices and strided views,
// with beta = 0 ignoring NaN in y, NaN and Inf propagation (alpha = 0 included), and its
// panics.
func TestGemv(t *testing.T, b Level2) {
	h := newHarness(b, 8)
	t.Run("Shapes", func(t *testing.T) {
		i := 0
		for _, m := range dims {
			for _, n := range dims {
				for _, trans := range []bool{false, true} {
					alpha, beta := h.pickAlphaBeta(i)
					nx, ny := gemvLens(trans, m, n)
					gemvCase(t, h, b, trans, alpha, h.values(m*n), m, n, layouts[i%len(layouts)], h.values(nx), beta, h.output(ny, beta), i%4, (i/4)%3)
					i++
				}
			}
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		shapes := [][2]int{{1, 1}, {3, 5}, {5, 3}, {8, 8}, {17, 9}, {9, 17}, {33, 64}, {64, 33}, {100, 100}}
		i := 0
		for _, s := range shapes {
			m, n := s[0], s[1]
			for _, trans := range []bool{false, true} {
				nx, ny := gemvLens(trans, m, n)
				for trial := range 4 {
					alpha, beta := []float64{1.5, 1, 0, -2}[trial], []float64{0.5, 0, 1, -1}[trial]
					ad, xd, yd := h.values(m*n), h.values(nx), h.output(ny, beta)
					h.sprinkle(ad, (m*n)/2, 2)
					h.sprinkle(xd, nx-1, 1)
					if beta != 0 {
						h.sprinkle(yd, 0, 1)
					}
					gemvCase(t, h, b, trans, alpha, ad, m, n, layouts[i%len(layouts)], xd, beta, yd, 1, 2)
					i++
				}
				// beta = 0: y is overwritten, its NaN not read.
				gemvCase(t, h, b, trans, 2, h.values(m*n), m, n, layouts[2], h.values(nx), 0, filled(ny, math.NaN()), 0, 1)
				// beta ≠ 0: a NaN in y stays NaN.
				yd := h.values(ny)
				yd[ny-1] = math.NaN()
				gemvCase(t, h, b, trans, 2, h.values(m*n), m, n, layouts[1], h.values(nx), 1, yd, 0, 1)
				// alpha = 0 multiplies: a NaN in x makes NaN wherever it is a term.
				xd := h.values(nx)
				xd[0] = math.NaN()
				gemvCase(t, h, b, trans, 0, h.values(m*n), m, n, layouts[3], xd, 0.5, h.values(ny), 1, 0)
			}
		}
	})
	t.Run("Panics", func(t *testing.T) {
		a := h.mat(h.values(3*4), 3, 4, layouts[2], inGuard)
		for _, c := range []struct {
			trans  bool
			nx, ny int
		}{{false, 3, 3}, {false, 4, 4}, {false, 5, 3}, {false, 4, 2}, {true, 4, 4}, {true, 3, 3}, {true, 3, 5}, {true, 2, 4}} {
			x, y := h.vec(h.values(c.nx), 1, 1, inGuard), h.vec(h.values(c.ny), 1, 1, outGuard)
			what := fmt.Sprintf("Gemv(trans=%t, A 3×4, x %d-vector, y %d-vector)", c.trans, c.nx, c.ny)
			h.mustPanic(t, what, func() { b.Gemv(c.trans, 1, a.m, x.v, 1, y.v) })
			h.vecUnchanged(t, "refused "+what, "y", y)
		}
		x, y := h.vec(h.values(4), 1, 1, inGuard), h.vec(h.values(3), 1, 1, outGuard)
		h.mustPanic(t, "Gemv(foreign A)", func() { b.Gemv(false, 1, foreignMat{3, 4}, x.v, 1, y.v) })
		h.mustPanic(t, "Gemv(foreign x)", func() { b.Gemv(false, 1, a.m, foreignVec{4}, 1, y.v) })
		h.mustPanic(t, "Gemv(foreign y)", func() { b.Gemv(false, 1, a.m, x.v, 1, foreignVec{3}) })
		h.vecUnchanged(t, "refused Gemv", "y", y)
	})
}

// gemvRowsCase runs one GemvRows and checks it.
func gemvRowsCase(t *testing.T, h *harness, b Indexed, trans bool, alpha float64, ad []float64, m, n int, l layout, rows []int32, xd []float64, beta float64, yd []float64, xlo, ylo int) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("GemvRows(trans=%t, alpha=%v, A %d×%d %v, %d rows, beta=%v)", trans, alpha, m, n, l, len(rows), beta))
	a := h.mat(ad, m, n, l, inGuard)
	x := h.vec(xd, xlo, 1, inGuard)
	y := h.vec(yd, ylo, 2, outGuard)
	b.GemvRows(trans, alpha, a.m, rows, x.v, beta, y.v)
	what := fmt.Sprintf("GemvRows(trans=%t, alpha=%v, A %v, rows=%v, x %v, beta=%v, y %v)", trans, alpha, a, short32(rows), x, beta, y)
	want, tol := refGemvRows(trans, alpha, ad, n, rows, xd, beta, yd)
	h.checkVec(t, what, "y", y, want, tol)
	h.matUnchanged(t, what, "A", a)
	h.vecUnchanged(t, what, "x", x)
}

// rowList returns r row numbers of an m-row matrix in one of several patterns: random
// with repeats, ascending, descending, or one row repeated.
func (h *harness) rowList(m, r, pattern int) []int32 {
	rows := make([]int32, r)
	for k := range rows {
		switch pattern % 4 {
		case 0:
			rows[k] = int32(h.rnd.IntN(m))
		case 1:
			rows[k] = int32(k % m)
		case 2:
			rows[k] = int32(m - 1 - k%m)
		default:
			rows[k] = int32(m / 2)
		}
	}
	return rows
}

// TestGemvRows checks the mini-batch mat-vec GemvRows, both transposes, over row lists
// of many lengths (0 included) in any order with repeats, on plain matrices and strided
// views, with NaN and Inf, and its panics on a row out of range or a length mismatch.
func TestGemvRows(t *testing.T, b Indexed) {
	h := newHarness(b, 9)
	t.Run("Shapes", func(t *testing.T) {
		i := 0
		for _, m := range []int{1, 3, 17, 64, 600} {
			for _, n := range []int{0, 1, 3, 8, 17, 64, 65, 257, 600} {
				for _, r := range []int{0, 1, 5, 16, 33, 100, 600} {
					for _, trans := range []bool{false, true} {
						alpha, beta := h.pickAlphaBeta(i)
						rows := h.rowList(m, r, i)
						nx, ny := gemvLens(trans, r, n)
						gemvRowsCase(t, h, b, trans, alpha, h.values(m*n), m, n, layouts[i%len(layouts)], rows, h.values(nx), beta, h.output(ny, beta), i%3, (i/3)%4)
						i++
					}
				}
			}
		}
		for _, trans := range []bool{false, true} {
			nx, ny := gemvLens(trans, 0, 5)
			gemvRowsCase(t, h, b, trans, 1, nil, 0, 5, layouts[1], nil, h.values(nx), 0, h.output(ny, 0), 1, 1)
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		i := 0
		for _, s := range [][3]int{{1, 1, 1}, {5, 3, 4}, {3, 5, 7}, {17, 9, 8}, {9, 17, 33}, {64, 33, 16}} {
			m, n, r := s[0], s[1], s[2]
			for _, trans := range []bool{false, true} {
				nx, ny := gemvLens(trans, r, n)
				for trial := range 4 {
					alpha, beta := []float64{1.5, 1, 0, -2}[trial], []float64{0.5, 0, 1, -1}[trial]
					ad, xd, yd := h.values(m*n), h.values(nx), h.output(ny, beta)
					h.sprinkle(ad, -1, 2)
					h.sprinkle(xd, nx-1, 1)
					if beta != 0 {
						h.sprinkle(yd, 0, 1)
					}
					gemvRowsCase(t, h, b, trans, alpha, ad, m, n, layouts[i%len(layouts)], h.rowList(m, r, i), xd, beta, yd, 1, 2)
					i++
				}
			}
		}
	})
	t.Run("Panics", func(t *testing.T) {
		a := h.mat(h.values(3*4), 3, 4, layouts[2], inGuard)
		for _, rows := range [][]int32{{3}, {0, 1, 3}, {0, -1}, {-1}, {2, math.MaxInt32}, {math.MinInt32, 0}} {
			for _, trans := range []bool{false, true} {
				nx, ny := gemvLens(trans, len(rows), 4)
				x, y := h.vec(h.values(nx), 1, 1, inGuard), h.vec(h.values(ny), 1, 1, outGuard)
				what := fmt.Sprintf("GemvRows(trans=%t, A 3×4, rows=%v)", trans, rows)
				h.mustPanic(t, what, func() { b.GemvRows(trans, 1, a.m, rows, x.v, 1, y.v) })
				// Rows before the bad one may have been written; nothing outside y.
				got := h.download(y.parent)
				for k := range got {
					if (k < y.lo || k >= y.lo+y.n) && math.Float64bits(got[k]) != math.Float64bits(y.init[k]) {
						t.Errorf("%s wrote y's parent at %d, outside the view %v", what, k, y)
					}
				}
			}
		}
		rows := []int32{0, 2}
		for _, c := range []struct {
			trans  bool
			nx, ny int
		}{{false, 3, 2}, {false, 4, 3}, {false, 4, 1}, {true, 3, 4}, {true, 2, 3}, {true, 2, 5}} {
			x, y := h.vec(h.values(c.nx), 1, 1, inGuard), h.vec(h.values(c.ny), 1, 1, outGuard)
			what := fmt.Sprintf("GemvRows(trans=%t, A 3×4, rows=%v, x %d-vector, y %d-vector)", c.trans, rows, c.nx, c.ny)
			h.mustPanic(t, what, func() { b.GemvRows(c.trans, 1, a.m, rows, x.v, 1, y.v) })
			h.vecUnchanged(t, "refused "+what, "y", y)
		}
		x, y := h.vec(h.values(4), 1, 1, inGuard), h.vec(h.values(2), 1, 1, outGuard)
		h.mustPanic(t, "GemvRows(foreign A)", func() { b.GemvRows(false, 1, foreignMat{3, 4}, rows, x.v, 1, y.v) })
		h.mustPanic(t, "GemvRows(foreign x)", func() { b.GemvRows(false, 1, a.m, rows, foreignVec{4}, 1, y.v) })
		h.mustPanic(t, "GemvRows(foreign y)", func() { b.GemvRows(false, 1, a.m, rows, x.v, 1, foreignVec{2}) })
	})
}

// symvCase runs one Symv with A's strictly lower triangle set to NaN and checks it.
func symvCase(t *testing.T, h *harness, b Level2, alpha float64, ad []float64, n int, l layout, xd []float64, beta float64, yd []float64, xlo, ylo int) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("Symv(alpha=%v, A %d×%d %v, beta=%v)", alpha, n, n, l, beta))
	for i := range n {
		for j := range i {
			ad[i*n+j] = inGuard
		}
	}
	a := h.mat(ad, n, n, l, inGuard)
	x := h.vec(xd, xlo, 1, inGuard)
	y := h.vec(yd, ylo, 2, outGuard)
	b.Symv(alpha, a.m, x.v, beta, y.v)
	what := fmt.Sprintf("Symv(alpha=%v, A %v, x %v, beta=%v, y %v)", alpha, a, x, beta, y)
	want, tol := refSymv(alpha, ad, n, xd, beta, yd)
	h.checkVec(t, what, "y", y, want, tol)
	h.matUnchanged(t, what, "A", a)
	h.vecUnchanged(t, what, "x", x)
}

// TestSymv checks Symv for n from 0 to 600 and 1000, on plain matrices and strided views
// whose strictly lower triangle holds NaN (it must not be read), with beta = 0 ignoring
// NaN in y, NaN and Inf, and its panics.
func TestSymv(t *testing.T, b Level2) {
	h := newHarness(b, 10)
	t.Run("Sizes", func(t *testing.T) {
		i := 0
		for _, n := range append(dims, 1000) {
			for range 3 {
				alpha, beta := h.pickAlphaBeta(i)
				symvCase(t, h, b, alpha, h.values(n*n), n, layouts[i%len(layouts)], h.values(n), beta, h.output(n, beta), i%4, (i/4)%3)
				i++
			}
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		i := 0
		for _, n := range []int{1, 2, 3, 5, 8, 9, 17, 33, 64, 100} {
			for trial := range 4 {
				alpha, beta := []float64{1.5, 1, 0, -2}[trial], []float64{0.5, 0, 1, -1}[trial]
				ad, xd, yd := h.upper(n, 0), h.values(n), h.output(n, beta)
				h.sprinkle(ad, n-1, 2) // A[0][n−1]
				h.sprinkle(xd, trial%n, 1)
				if beta != 0 {
					h.sprinkle(yd, n-1, 1)
				}
				symvCase(t, h, b, alpha, ad, n, layouts[i%len(layouts)], xd, beta, yd, 1, 2)
				i++
			}
			symvCase(t, h, b, 2, h.values(n*n), n, layouts[1], h.values(n), 0, filled(n, math.NaN()), 0, 1)
			xd := h.values(n)
			xd[n-1] = math.NaN()
			symvCase(t, h, b, 0, h.values(n*n), n, layouts[2], xd, 1, h.values(n), 1, 0)
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, c := range [][4]int{{3, 4, 3, 3}, {4, 3, 3, 3}, {3, 3, 4, 3}, {3, 3, 3, 4}, {3, 3, 2, 3}, {0, 0, 0, 1}} {
			a := h.mat(h.values(c[0]*c[1]), c[0], c[1], layouts[2], inGuard)
			x, y := h.vec(h.values(c[2]), 1, 1, inGuard), h.vec(h.values(c[3]), 1, 1, outGuard)
			what := fmt.Sprintf("Symv(A %d×%d, x %d-vector, y %d-vector)", c[0], c[1], c[2], c[3])
			h.mustPanic(t, what, func() { b.Symv(1, a.m, x.v, 1, y.v) })
			h.vecUnchanged(t, "refused "+what, "y", y)
		}
		a := h.mat(h.values(9), 3, 3, layouts[0], inGuard)
		x, y := h.vec(h.values(3), 1, 1, inGuard), h.vec(h.values(3), 1, 1, outGuard)
		h.mustPanic(t, "Symv(foreign A)", func() { b.Symv(1, foreignMat{3, 3}, x.v, 1, y.v) })
		h.mustPanic(t, "Symv(foreign x)", func() { b.Symv(1, a.m, foreignVec{3}, 1, y.v) })
		h.mustPanic(t, "Symv(foreign y)", func() { b.Symv(1, a.m, x.v, 1, foreignVec{3}) })
		h.vecUnchanged(t, "refused Symv", "y", y)
	})
}

// syrCase runs one Syr with A's strictly lower triangle set to a sentinel and checks it.
func syrCase(t *testing.T, h *harness, b Level2, alpha float64, xd, ad []float64, l layout, xlo int) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("Syr(alpha=%v, n=%d, %v)", alpha, len(xd), l))
	n := len(xd)
	for i := range n {
		for j := range i {
			ad[i*n+j] = outGuard
		}
	}
	x := h.vec(xd, xlo, 1, inGuard)
	a := h.mat(ad, n, n, l, outGuard)
	b.Syr(alpha, x.v, a.m)
	what := fmt.Sprintf("Syr(alpha=%v, x %v, A %v)", alpha, x, a)
	want, tol := refSyr(alpha, xd, ad)
	h.checkMat(t, what, "A", a, want, tol, true)
	h.vecUnchanged(t, what, "x", x)
}

// TestSyr checks the symmetric rank-1 update Syr for n from 0 to 600, on plain matrices
// and strided views, that it writes the upper triangle only, with NaN and Inf, and its
// panics.
func TestSyr(t *testing.T, b Level2) {
	h := newHarness(b, 11)
	t.Run("Sizes", func(t *testing.T) {
		i := 0
		for _, n := range dims {
			for range 3 {
				alpha := axpyAlphas[i%len(axpyAlphas)]
				syrCase(t, h, b, alpha, h.values(n), h.values(n*n), layouts[i%len(layouts)], i%4)
				i++
			}
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		for i, n := range []int{1, 2, 3, 5, 8, 9, 17, 33, 64} {
			for trial := range 4 {
				xd, ad := h.values(n), h.values(n*n)
				h.sprinkle(xd, trial%n, 1)
				h.sprinkle(ad, n-1, 1)
				syrCase(t, h, b, []float64{1.5, 0, -1, 2}[trial], xd, ad, layouts[(i+trial)%len(layouts)], 1)
			}
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, c := range [][3]int{{3, 4, 3}, {4, 3, 3}, {3, 3, 4}, {3, 3, 2}, {0, 0, 1}} {
			a := h.mat(h.values(c[0]*c[1]), c[0], c[1], layouts[2], outGuard)
			x := h.vec(h.values(c[2]), 1, 1, inGuard)
			what := fmt.Sprintf("Syr(x %d-vector, A %d×%d)", c[2], c[0], c[1])
			h.mustPanic(t, what, func() { b.Syr(1, x.v, a.m) })
			h.matUnchanged(t, "refused "+what, "A", a)
		}
		a := h.mat(h.values(9), 3, 3, layouts[0], outGuard)
		x := h.vec(h.values(3), 1, 1, inGuard)
		h.mustPanic(t, "Syr(foreign x)", func() { b.Syr(1, foreignVec{3}, a.m) })
		h.mustPanic(t, "Syr(foreign A)", func() { b.Syr(1, x.v, foreignMat{3, 3}) })
		h.matUnchanged(t, "refused Syr", "A", a)
	})
}

// gerCase runs one Ger and checks it.
func gerCase(t *testing.T, h *harness, b Level2, alpha float64, xd, yd, ad []float64, l layout, xlo, ylo int) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("Ger(alpha=%v, A %d×%d %v)", alpha, len(xd), len(yd), l))
	x, y := h.vec(xd, xlo, 1, inGuard), h.vec(yd, ylo, 2, inGuard)
	a := h.mat(ad, len(xd), len(yd), l, outGuard)
	b.Ger(alpha, x.v, y.v, a.m)
	what := fmt.Sprintf("Ger(alpha=%v, x %v, y %v, A %v)", alpha, x, y, a)
	want, tol := refGer(alpha, xd, yd, ad)
	h.checkMat(t, what, "A", a, want, tol, false)
	h.vecUnchanged(t, what, "x", x)
	h.vecUnchanged(t, what, "y", y)
}

// TestGer checks the rank-1 update Ger for every shape with sides in a list from 0 to
// 600, on plain matrices and strided views, with NaN and Inf, and its panics.
func TestGer(t *testing.T, b Level2) {
	h := newHarness(b, 12)
	t.Run("Shapes", func(t *testing.T) {
		i := 0
		for _, m := range dims {
			for _, n := range dims {
				alpha := axpyAlphas[i%len(axpyAlphas)]
				gerCase(t, h, b, alpha, h.values(m), h.values(n), h.values(m*n), layouts[i%len(layouts)], i%3, (i/3)%4)
				i++
			}
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		i := 0
		for _, s := range [][2]int{{1, 1}, {3, 5}, {5, 3}, {8, 8}, {17, 9}, {9, 17}, {33, 64}} {
			m, n := s[0], s[1]
			for trial := range 4 {
				xd, yd, ad := h.values(m), h.values(n), h.values(m*n)
				h.sprinkle(xd, trial%m, 1)
				h.sprinkle(yd, n-1, 1)
				h.sprinkle(ad, 0, 1)
				gerCase(t, h, b, []float64{1.5, 0, -1, 2}[trial], xd, yd, ad, layouts[i%len(layouts)], 1, 2)
				i++
			}
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, c := range [][4]int{{3, 4, 4, 3}, {3, 4, 3, 5}, {3, 4, 2, 4}, {0, 4, 1, 4}, {3, 0, 3, 1}} {
			a := h.mat(h.values(c[0]*c[1]), c[0], c[1], layouts[2], outGuard)
			x, y := h.vec(h.values(c[2]), 1, 1, inGuard), h.vec(h.values(c[3]), 1, 1, inGuard)
			what := fmt.Sprintf("Ger(x %d-vector, y %d-vector, A %d×%d)", c[2], c[3], c[0], c[1])
			h.mustPanic(t, what, func() { b.Ger(1, x.v, y.v, a.m) })
			h.matUnchanged(t, "refused "+what, "A", a)
		}
		a := h.mat(h.values(12), 3, 4, layouts[0], outGuard)
		x, y := h.vec(h.values(3), 1, 1, inGuard), h.vec(h.values(4), 1, 1, inGuard)
		h.mustPanic(t, "Ger(foreign x)", func() { b.Ger(1, foreignVec{3}, y.v, a.m) })
		h.mustPanic(t, "Ger(foreign y)", func() { b.Ger(1, x.v, foreignVec{4}, a.m) })
		h.mustPanic(t, "Ger(foreign A)", func() { b.Ger(1, x.v, y.v, foreignMat{3, 4}) })
		h.matUnchanged(t, "refused Ger", "A", a)
	})
}
