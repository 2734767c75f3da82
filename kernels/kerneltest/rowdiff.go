package kerneltest

import (
	"fmt"
	"math"
	"testing"
)

// rowDiffCase runs one RowDiff from an n×d A into a k×d out and checks it bit for bit.
func rowDiffCase(t *testing.T, h *harness, b Indexed, ad []float64, n, d int, pos, neg []int32, i int) {
	t.Helper()
	defer h.recoverCase(t, fmt.Sprintf("RowDiff(A %d×%d, k=%d)", n, d, len(pos)))
	a := h.mat(ad, n, d, layouts[i%len(layouts)], inGuard)
	out := h.mat(filled(len(pos)*d, math.NaN()), len(pos), d, layouts[(i+3)%len(layouts)], outGuard)
	b.RowDiff(a.m, pos, neg, out.m)
	what := fmt.Sprintf("RowDiff(A %v, %d pairs, out %v)", a, len(pos), out)
	h.checkMat(t, what, "out", out, refRowDiff(ad, d, pos, neg), nil, false)
	h.matUnchanged(t, what, "A", a)
}

// TestRowDiff checks RowDiff, out[k,:] = A[pos[k],:] − A[neg[k],:], bit for bit on
// shapes from empty to 1000 columns, repeated and equal rows, views, NaN and Inf, and
// its panics (row indices out of range, mismatched lengths, foreign tensors).
func TestRowDiff(t *testing.T, b Indexed) {
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
					rowDiffCase(t, h, b, ad, n, d, pos, neg, i)
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
