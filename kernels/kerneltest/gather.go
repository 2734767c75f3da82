package kerneltest

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// gatherCase is a number of indices m into a vector of length n, in one of four
// patterns.
type gatherCase struct {
	m, n int
	kind int // 0: repeats (Gather) or sorted; 1: shuffled; 2: descending tail; 3: spread out
}

func (c gatherCase) String() string {
	return fmt.Sprintf("%d indices (%s) into n=%d", c.m, [...]string{"repeated", "shuffled", "descending", "spread"}[c.kind], c.n)
}

// gatherCases covers every number of indices 0..300 in the four patterns and a few
// large cases (for ScatterAdd: its repeat check by bitmap, and by sorting when n is
// much larger than m).
func gatherCases() []gatherCase {
	var cs []gatherCase
	for m := range 301 {
		switch k := m % 4; k {
		case 0:
			cs = append(cs, gatherCase{m: m, n: m/3 + 1, kind: k})
		case 1:
			cs = append(cs, gatherCase{m: m, n: m + 17, kind: k})
		case 2:
			cs = append(cs, gatherCase{m: m, n: m + 5, kind: k})
		default:
			cs = append(cs, gatherCase{m: m, n: 50*m + 7, kind: k})
		}
		if m <= 64 || m%16 == 15 {
			cs = append(cs, gatherCase{m: m, n: m, kind: 1})
		}
	}
	return append(cs,
		gatherCase{m: 3256, n: 32561, kind: 1}, // SPDAM's a9a batch
		gatherCase{m: 5003, n: 62061, kind: 3},
		gatherCase{m: 4099, n: 262147, kind: 2},
		gatherCase{m: 1025, n: 1 << 20, kind: 3},
		gatherCase{m: 20000, n: 4096, kind: 0},
	)
}

// gatherIndices returns the indices of c: for Gather (distinct false) kind 0 draws with
// repeats, including 0 and n−1; otherwise they are distinct, sorted for kind 0.
func (h *harness) gatherIndices(c gatherCase, distinct bool) []int32 {
	var idx []int32
	switch c.kind {
	case 0:
		if distinct {
			return h.indices(c.n, c.m, true)
		}
		idx = make([]int32, c.m)
		for k := range idx {
			idx[k] = int32(h.rnd.IntN(c.n))
		}
		if c.m >= 2 {
			idx[h.rnd.IntN(c.m)], idx[h.rnd.IntN(c.m)] = 0, int32(c.n-1)
		}
		return idx
	case 2:
		for i := c.n - 1; i >= c.n-c.m; i-- {
			idx = append(idx, int32(i))
		}
		return idx
	}
	idx = h.indices(c.n, c.m, c.kind == 3)
	h.rnd.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	return idx
}

// outUnchanged checks that an output refused with a panic was not written at all, view
// included: Gather and ScatterAdd check every index before writing.
func (h *harness) outUnchanged(t testing.TB, what, name string, g *gvec) {
	t.Helper()
	got := h.download(g.parent)
	r := reporter{t: t, what: what}
	for k, v := range got {
		if math.Float64bits(v) != math.Float64bits(g.init[k]) {
			r.errorf("wrote %s before panicking: its parent's element %d is %v, was %v", name, k, v, g.init[k])
		}
	}
	r.done()
}

// badIndices are malformed index lists for a vector of length n = 40: an index out of
// range after m−1 good ones or before them. With distinct, the good ones are distinct.
func (h *harness) badIndices() []struct {
	name string
	idx  []int32
	n    int
} {
	type bad = struct {
		name string
		idx  []int32
		n    int
	}
	const n = 40
	var out []bad
	for _, m := range []int{1, 2, 3, 4, 5, 8, 9, 16, 17, 33} {
		good := h.gatherIndices(gatherCase{m: m - 1, n: n, kind: 1}, true)
		for _, last := range []int32{n, n + 1, n + 1000, math.MaxInt32} {
			out = append(out, bad{fmt.Sprintf("index %d after %d good ones, length %d", last, m-1, n), append(slices.Clone(good), last), n})
		}
		for _, first := range []int32{-1, math.MinInt32} {
			out = append(out, bad{fmt.Sprintf("index %d before %d good ones", first, m-1), append([]int32{first}, good...), n})
		}
	}
	return append(out,
		bad{"index 0 into an empty vector", []int32{0}, 0},
		bad{"index 7 into a 7-vector", []int32{7}, 7},
	)
}

// TestGather checks Gather, out[k] = x[idx[k]], bit for bit for every number of
// indices 0..300 (repeated, shuffled, descending, spread out) and a few large cases, on
// views at odd offsets inside guards, with values of every kind (NaN, ±Inf, −0,
// subnormals), from and into matrix rows, and its panics (indices out of range,
// mismatched lengths, foreign tensors), after which out must be unchanged.
func TestGather(t *testing.T, b Indexed) {
	h := newHarness(b, 17)
	t.Run("Cases", func(t *testing.T) {
		for i, c := range gatherCases() {
			h.try(t, fmt.Sprintf("case %v", c), func() {
				idx := h.gatherIndices(c, false)
				xd := h.specialValues(c.n)
				x := h.vec(xd, i%5, 1+i%2, inGuard)
				out := h.vec(filled(c.m, math.NaN()), (i/5)%4, 1+i%3, outGuard)
				b.Gather(x.v, idx, out.v)
				what := fmt.Sprintf("Gather(x %v, %v, out %v)", x, c, out)
				h.checkVec(t, what, "out", out, refGather(xd, idx), nil)
				h.vecUnchanged(t, what, "x", x)
			})
		}
	})
	t.Run("Rows", func(t *testing.T) {
		for i, l := range layouts {
			h.try(t, fmt.Sprintf("layout %v", l), func() {
				a := h.mat(h.specialValues(6*9), 6, 9, l, inGuard)
				o := h.mat(h.values(4*5), 4, 5, layouts[(i+2)%len(layouts)], outGuard)
				idx := []int32{8, 0, 3, 3, 7}
				b.Gather(a.m.Row(4), idx, o.m.Row(1))
				want := o.data()
				copy(want[5:10], refGather(a.data()[4*9:5*9], idx))
				what := fmt.Sprintf("Gather(a %v .Row(4), %v, o %v .Row(1))", a, idx, o)
				h.checkMat(t, what, "o", o, want, nil, false)
				h.matUnchanged(t, what, "a", a)
			})
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for i, c := range h.badIndices() {
			h.try(t, c.name, func() {
				x := h.vec(h.values(c.n), 1, 2, inGuard)
				out := h.vec(h.values(len(c.idx)), i%3, 2, outGuard)
				what := fmt.Sprintf("Gather(%s)", c.name)
				h.mustPanic(t, what, func() { b.Gather(x.v, c.idx, out.v) })
				h.outUnchanged(t, "refused "+what, "out", out)
				h.vecUnchanged(t, "refused "+what, "x", x)
			})
		}
		for _, m := range []int{0, 1, 5, 17} {
			for _, d := range []int{-1, 1} {
				if m+d < 0 {
					continue
				}
				h.try(t, fmt.Sprintf("%d indices, out %d", m, m+d), func() {
					x := h.vec(h.values(30), 0, 1, inGuard)
					out := h.vec(h.values(m+d), 1, 1, outGuard)
					idx := h.gatherIndices(gatherCase{m: m, n: 30, kind: 1}, false)
					what := fmt.Sprintf("Gather(%d indices, out of %d)", m, m+d)
					h.mustPanic(t, what, func() { b.Gather(x.v, idx, out.v) })
					h.outUnchanged(t, "refused "+what, "out", out)
				})
			}
		}
		out := h.vec(h.values(2), 1, 1, outGuard)
		h.mustPanic(t, "Gather(foreign x)", func() { b.Gather(foreignVec{4}, []int32{0, 3}, out.v) })
		h.mustPanic(t, "Gather(foreign out)", func() { b.Gather(b.NewVec(4), []int32{0, 3}, foreignVec{2}) })
		h.outUnchanged(t, "refused Gather", "out", out)
	})
}

// TestScatterAdd checks ScatterAdd, y[idx[k]] += alpha·x[k], for every number of
// distinct indices 0..300 (sorted, shuffled, descending, spread out) and a few large
// cases, on views at odd offsets inside guards, that elements not indexed are left
// alone (even NaN ones), with NaN and Inf (alpha = 0 included: 0·Inf is NaN), into a
// matrix row, and its panics (indices out of range or repeated, mismatched lengths,
// foreign tensors), after which y must be unchanged.
func TestScatterAdd(t *testing.T, b Indexed) {
	h := newHarness(b, 18)
	t.Run("Cases", func(t *testing.T) {
		for i, c := range gatherCases() {
			if c.kind == 0 && c.m > c.n {
				c.n = c.m + c.m/3 + 1 // distinct indices need room
			}
			h.try(t, fmt.Sprintf("case %v", c), func() {
				alpha := axpyAlphas[i%len(axpyAlphas)]
				idx := h.gatherIndices(c, true)
				xd := h.values(c.m)
				yd := h.values(c.n)
				if i%3 == 1 { // elements not indexed are NaN: a scatter must not touch them
					yd = h.denseFor(c.n, kernels.Sparse{Idx: idx}, true)
				}
				x := h.vec(xd, i%5, 1+i%2, inGuard)
				y := h.vec(yd, (i/5)%4, 1+i%3, outGuard)
				b.ScatterAdd(alpha, x.v, idx, y.v)
				want, tol := refScatterAdd(alpha, xd, idx, yd)
				what := fmt.Sprintf("ScatterAdd(alpha=%v, x %v, %v, y %v)", alpha, x, c, y)
				h.checkVec(t, what, "y", y, want, tol)
				h.vecUnchanged(t, what, "x", x)
			})
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		for i, m := range specialLengths {
			h.try(t, fmt.Sprintf("m=%d", m), func() {
				for trial := range 6 {
					alpha := []float64{1.5, 0, -1}[trial%3]
					c := gatherCase{m: m, n: 2*m + 3, kind: 1 + trial%3}
					idx := h.gatherIndices(c, true)
					xd, yd := h.values(m), h.values(c.n)
					pos := positions(m)[trial%len(positions(m))]
					if trial%2 == 0 {
						h.sprinkle(xd, pos, 2)
					} else {
						h.sprinkle(yd, int(idx[pos]), 3)
					}
					x := h.vec(xd, i%4, 1, inGuard)
					y := h.vec(yd, (i+1)%4, 1, outGuard)
					b.ScatterAdd(alpha, x.v, idx, y.v)
					want, tol := refScatterAdd(alpha, xd, idx, yd)
					h.checkVec(t, fmt.Sprintf("ScatterAdd(alpha=%v, x=%v, idx=%v, y=%v)", alpha, short(xd), short32(idx), short(yd)), "y", y, want, tol)
				}
			})
		}
	})
	t.Run("Rows", func(t *testing.T) {
		for i, l := range layouts {
			h.try(t, fmt.Sprintf("layout %v", l), func() {
				a := h.mat(h.values(3*4), 3, 4, l, inGuard)
				o := h.mat(h.values(6*9), 6, 9, layouts[(i+2)%len(layouts)], outGuard)
				idx := []int32{8, 0, 5, 3}
				b.ScatterAdd(-0.5, a.m.Row(2), idx, o.m.Row(4))
				want, tol := o.data(), make([]float64, 6*9)
				w, wt := refScatterAdd(-0.5, a.data()[2*4:3*4], idx, want[4*9:5*9])
				copy(want[4*9:], w)
				copy(tol[4*9:], wt)
				what := fmt.Sprintf("ScatterAdd(-0.5, a %v .Row(2), %v, o %v .Row(4))", a, idx, o)
				h.checkMat(t, what, "o", o, want, tol, false)
				h.matUnchanged(t, what, "a", a)
			})
		}
	})
	t.Run("Panics", func(t *testing.T) {
		type bad struct {
			name string
			idx  []int32
			n    int
		}
		var cases []bad
		for _, c := range h.badIndices() {
			cases = append(cases, bad(c))
		}
		// Repeated indices: adjacent, first and last, among many (the bitmap check) and
		// into a long y (the sorting check), the others distinct.
		for _, c := range []struct{ m, n, first, second int }{
			{2, 5, 0, 1}, {3, 40, 0, 2}, {16, 40, 7, 8}, {16, 40, 15, 0},
			{17, 40, 0, 16}, {40, 40, 39, 38}, {300, 1000, 5, 250},
			{20, 1 << 20, 0, 19}, {1025, 1 << 20, 1024, 3},
		} {
			idx := h.gatherIndices(gatherCase{m: c.m, n: c.n, kind: 1}, true)
			idx[c.second] = idx[c.first]
			cases = append(cases, bad{fmt.Sprintf("%d indices into %d, element %d repeating element %d", c.m, c.n, c.second, c.first), idx, c.n})
		}
		for i, c := range cases {
			h.try(t, c.name, func() {
				x := h.vec(h.values(len(c.idx)), 1, 2, inGuard)
				y := h.vec(h.values(c.n), i%3, 2, outGuard)
				what := fmt.Sprintf("ScatterAdd(%s)", c.name)
				h.mustPanic(t, what, func() { b.ScatterAdd(1.5, x.v, c.idx, y.v) })
				h.outUnchanged(t, "refused "+what, "y", y)
				h.vecUnchanged(t, "refused "+what, "x", x)
			})
		}
		for _, m := range []int{0, 1, 5, 17} {
			for _, d := range []int{-1, 1} {
				if m+d < 0 {
					continue
				}
				h.try(t, fmt.Sprintf("%d indices, x %d", m, m+d), func() {
					x := h.vec(h.values(m+d), 0, 1, inGuard)
					y := h.vec(h.values(30), 1, 1, outGuard)
					idx := h.gatherIndices(gatherCase{m: m, n: 30, kind: 1}, true)
					what := fmt.Sprintf("ScatterAdd(%d indices, x of %d)", m, m+d)
					h.mustPanic(t, what, func() { b.ScatterAdd(1, x.v, idx, y.v) })
					h.outUnchanged(t, "refused "+what, "y", y)
				})
			}
		}
		y := h.vec(h.values(4), 1, 1, outGuard)
		h.mustPanic(t, "ScatterAdd(foreign x)", func() { b.ScatterAdd(1, foreignVec{2}, []int32{0, 3}, y.v) })
		h.mustPanic(t, "ScatterAdd(foreign y)", func() { b.ScatterAdd(1, b.NewVec(2), []int32{0, 3}, foreignVec{4}) })
		h.outUnchanged(t, "refused ScatterAdd", "y", y)
	})
}
