package kerneltest

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// indices returns nnz ≤ n strictly increasing random indices in [0, n); with ends and
// nnz ≥ 2, the first is 0 and the last n−1.
func (h *harness) indices(n, nnz int, ends bool) []int32 {
	lo, k := 0, nnz // draw k indices from [lo, lo+span)
	span := n
	idx := make([]int32, 0, nnz)
	if ends && nnz >= 2 {
		lo, span, k = 1, n-2, nnz-2
		idx = append(idx, 0, int32(n-1))
	}
	for _, i := range h.rnd.Perm(span)[:k] {
		idx = append(idx, int32(lo+i))
	}
	slices.Sort(idx)
	return idx
}

// sparseCase is a dense length and a number of stored elements.
type sparseCase struct {
	n, nnz int
	ends   bool // indices include 0 and n−1
	tail   bool // the indices are the last nnz of [0, n)
}

// sparseCases covers every nnz 0..300 at densities from full to sparse, with indices at
// both ends of the dense operand, and a few large cases.
func sparseCases() []sparseCase {
	var cs []sparseCase
	for nnz := range 301 {
		switch nnz % 4 {
		case 0:
			cs = append(cs, sparseCase{n: nnz + nnz/3 + 1, nnz: nnz})
		case 1:
			cs = append(cs, sparseCase{n: nnz + 17, nnz: nnz, ends: true})
		case 2:
			cs = append(cs, sparseCase{n: nnz + 5, nnz: nnz, tail: true})
		default:
			cs = append(cs, sparseCase{n: 50*nnz + 7, nnz: nnz, ends: true})
		}
		if nnz <= 64 || nnz%16 == 15 {
			cs = append(cs, sparseCase{n: nnz, nnz: nnz})
		}
	}
	return append(cs,
		sparseCase{n: 62061, nnz: 62061},
		sparseCase{n: 62061, nnz: 5003, ends: true},
		sparseCase{n: 262147, nnz: 4099, tail: true},
		sparseCase{n: 1 << 20, nnz: 1025, ends: true},
	)
}

// sparse makes the sparse operand of c.
func (h *harness) sparse(c sparseCase) kernels.Sparse {
	var idx []int32
	if c.tail {
		for i := c.n - c.nnz; i < c.n; i++ {
			idx = append(idx, int32(i))
		}
	} else {
		idx = h.indices(c.n, c.nnz, c.ends)
	}
	return kernels.Sparse{Idx: idx, Val: h.values(c.nnz)}
}

// denseFor returns the dense operand for x: random where x has an index, and every
// other element NaN when nanElsewhere (a gather must not touch them).
func (h *harness) denseFor(n int, x kernels.Sparse, nanElsewhere bool) []float64 {
	y := h.values(n)
	if nanElsewhere {
		in := make([]bool, n)
		for _, i := range x.Idx {
			in[i] = true
		}
		for i := range y {
			if !in[i] {
				y[i] = math.NaN()
			}
		}
	}
	return y
}

func (c sparseCase) String() string {
	return fmt.Sprintf("nnz=%d of n=%d", c.nnz, c.n)
}

// badSparse are malformed sparse operands for a dense length n = 40: an index out of
// range after nnz−1 good ones, or before them, or more values than indices.
func (h *harness) badSparse() []struct {
	name string
	x    kernels.Sparse
	n    int
} {
	type bad = struct {
		name string
		x    kernels.Sparse
		n    int
	}
	const n = 40
	var out []bad
	for _, nnz := range []int{1, 2, 3, 4, 5, 8, 9, 16, 17, 33} {
		good := h.indices(n, nnz-1, false)
		for _, last := range []int32{n, n + 1, n + 1000, math.MaxInt32} {
			idx := append(slices.Clone(good), last)
			out = append(out, bad{fmt.Sprintf("index %d after %d good ones, dense length %d", last, nnz-1, n), kernels.Sparse{Idx: idx, Val: h.values(nnz)}, n})
		}
		for _, first := range []int32{-1, math.MinInt32} {
			idx := append([]int32{first}, good...)
			out = append(out, bad{fmt.Sprintf("index %d before %d good ones", first, nnz-1), kernels.Sparse{Idx: idx, Val: h.values(nnz)}, n})
		}
		idx := h.indices(n, nnz, false)
		out = append(out,
			bad{fmt.Sprintf("%d indices, %d values", nnz, nnz+1), kernels.Sparse{Idx: idx, Val: h.values(nnz + 1)}, n},
			bad{fmt.Sprintf("%d indices, %d values", nnz, nnz-1), kernels.Sparse{Idx: idx, Val: h.values(nnz - 1)}, n},
		)
	}
	out = append(out,
		bad{"index 0 into an empty vector", kernels.Sparse{Idx: []int32{0}, Val: []float64{1}}, 0},
		bad{"index 7 into a 7-vector", kernels.Sparse{Idx: []int32{7}, Val: []float64{1}}, 7},
	)
	return out
}

// TestDotSparse checks the gather DotSparse for every nnz 0..300 at several densities and
// a few large cases, on views at odd offsets inside NaN guards, with the dense elements
// that are not indexed set to NaN, with NaN and Inf, and its panics on indices out of
// range, mismatched lengths and a foreign tensor.
func TestDotSparse(t *testing.T, b Level1) {
	h := newHarness(b, 6)
	t.Run("Cases", func(t *testing.T) {
		for i, c := range sparseCases() {
			h.try(t, fmt.Sprintf("case %v", c), func() {
				x := h.sparse(c)
				y := h.vec(h.denseFor(c.n, x, i%2 == 1), i%5, 1+i%2, inGuard)
				what := fmt.Sprintf("DotSparse(x %v, y %v)", c, y)
				want, tol := refDotSparse(x.Idx, x.Val, y.data())
				checkScalar(t, what, b.DotSparse(x, y.v), want, tol)
				h.vecUnchanged(t, what, "y", y)
			})
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		for i, nnz := range specialLengths {
			h.try(t, fmt.Sprintf("nnz=%d", nnz), func() {
				for trial := range 6 {
					c := sparseCase{n: 2*nnz + 3, nnz: nnz, ends: true}
					x := h.sparse(c)
					yd := h.values(c.n)
					pos := positions(nnz)[trial%len(positions(nnz))]
					if trial%2 == 0 {
						h.sprinkle(x.Val, pos, 2)
					} else {
						for k := range 2 {
							if k == 0 {
								yd[x.Idx[pos]] = nonFinite[h.rnd.IntN(len(nonFinite))]
							} else {
								yd[x.Idx[h.rnd.IntN(nnz)]] = nonFinite[h.rnd.IntN(len(nonFinite))]
							}
						}
					}
					y := h.vec(yd, i%4, 1, inGuard)
					want, tol := refDotSparse(x.Idx, x.Val, yd)
					checkScalar(t, fmt.Sprintf("DotSparse(x %v {Idx: %v, Val: %v}, y=%v)", c, short32(x.Idx), short(x.Val), short(yd)), b.DotSparse(x, y.v), want, tol)
				}
			})
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, c := range h.badSparse() {
			h.try(t, c.name, func() {
				y := h.vec(h.values(c.n), 2, 2, inGuard)
				h.mustPanic(t, fmt.Sprintf("DotSparse(%s)", c.name), func() { b.DotSparse(c.x, y.v) })
				h.vecUnchanged(t, "refused DotSparse", "y", y)
			})
		}
		h.mustPanic(t, "DotSparse(x, foreign)", func() { b.DotSparse(kernels.Sparse{Idx: []int32{1}, Val: []float64{1}}, foreignVec{4}) })
	})
}

func short32(v []int32) string {
	if len(v) <= 8 {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%v…(%d)", v[:8], len(v))
}

// TestAxpySparse checks the scatter AxpySparse for every nnz 0..300 at several densities
// and a few large cases, on views at odd offsets inside sentinel guards, that elements not
// indexed are left alone (even NaN ones), with NaN and Inf, and its panics on indices out
// of range, mismatched lengths and a foreign tensor, after which nothing outside y may
// have been written.
func TestAxpySparse(t *testing.T, b Level1) {
	h := newHarness(b, 7)
	t.Run("Cases", func(t *testing.T) {
		for i, c := range sparseCases() {
			h.try(t, fmt.Sprintf("case %v", c), func() {
				alpha := axpyAlphas[i%len(axpyAlphas)]
				x := h.sparse(c)
				y := h.vec(h.denseFor(c.n, x, i%3 == 1), i%5, 1+i%2, outGuard)
				b.AxpySparse(alpha, x, y.v)
				want, tol := refAxpySparse(alpha, x.Idx, x.Val, y.data())
				h.checkVec(t, fmt.Sprintf("AxpySparse(alpha=%v, x %v, y %v)", alpha, c, y), "y", y, want, tol)
			})
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		for i, nnz := range specialLengths {
			h.try(t, fmt.Sprintf("nnz=%d", nnz), func() {
				for trial := range 6 {
					alpha := []float64{1.5, 0, -1}[trial%3]
					c := sparseCase{n: 2*nnz + 3, nnz: nnz, ends: true}
					x := h.sparse(c)
					yd := h.values(c.n)
					pos := positions(nnz)[trial%len(positions(nnz))]
					if trial%2 == 0 {
						h.sprinkle(x.Val, pos, 2)
					} else {
						h.sprinkle(yd, int(x.Idx[pos]), 3)
					}
					y := h.vec(yd, i%4, 1, outGuard)
					b.AxpySparse(alpha, x, y.v)
					want, tol := refAxpySparse(alpha, x.Idx, x.Val, yd)
					h.checkVec(t, fmt.Sprintf("AxpySparse(alpha=%v, x %v {Idx: %v, Val: %v}, y=%v)", alpha, c, short32(x.Idx), short(x.Val), short(yd)), "y", y, want, tol)
				}
			})
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, c := range h.badSparse() {
			h.try(t, c.name, func() {
				y := h.vec(h.values(c.n), 2, 2, outGuard)
				h.mustPanic(t, fmt.Sprintf("AxpySparse(%s)", c.name), func() { b.AxpySparse(2, c.x, y.v) })
				// The elements of y before the panic may have been updated; nothing else.
				got := h.download(y.parent)
				for k := range got {
					if (k < y.lo || k >= y.lo+y.n) && math.Float64bits(got[k]) != math.Float64bits(y.init[k]) {
						t.Errorf("AxpySparse(%s) wrote y's parent at %d, outside the view %v, before panicking: got %v, want the guard %v", c.name, k, y, got[k], y.init[k])
					}
				}
			})
		}
		h.mustPanic(t, "AxpySparse(x, foreign)", func() { b.AxpySparse(1, kernels.Sparse{Idx: []int32{1}, Val: []float64{1}}, foreignVec{4}) })
	})
}
