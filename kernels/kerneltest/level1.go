package kerneltest

import (
	"fmt"
	"math"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// specialLengths are the lengths at which NaN and Inf are placed in level-1 operands.
var specialLengths = []int{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 65, 257, 1000}

// TestUploadDownload checks NewVec, NewMat, Upload, Download and the views made by
// Vec.Slice, Mat.Slice and Mat.Row: zeroed allocation, bit-exact round trips of every
// kind of value (NaN, ±Inf, −0, subnormals), writes confined to the view, and panics on
// a length mismatch or a tensor of another backend.
func TestUploadDownload(t *testing.T, b Tensors) {
	h := newHarness(b, 1)
	t.Run("Vec", func(t *testing.T) {
		for _, n := range level1Lengths() {
			h.try(t, fmt.Sprintf("NewVec, Upload, Download (n=%d)", n), func() { testVecView(t, h, n) })
		}
	})
	t.Run("Mat", func(t *testing.T) {
		shapes := [][2]int{{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 17}, {17, 1}, {5, 7}, {16, 16}, {33, 65}, {100, 3}, {3, 100}, {257, 31}}
		for _, s := range shapes {
			r, c := s[0], s[1]
			h.try(t, fmt.Sprintf("NewMat(%d, %d)", r, c), func() {
				m := b.NewMat(r, c)
				if gr, gc := m.Dims(); gr != r || gc != c || m.Len() != r*c {
					t.Errorf("NewMat(%d, %d): Dims() = %d, %d and Len() = %d, want %d, %d and %d", r, c, gr, gc, m.Len(), r, c, r*c)
					return
				}
				for i, x := range h.download(m) {
					if math.Float64bits(x) != 0 {
						t.Errorf("NewMat(%d, %d) element %d = %v, want 0", r, c, i, x)
						break
					}
				}
			})
			for _, l := range layouts {
				h.try(t, fmt.Sprintf("Upload, Download, Row and Slice of a %d×%d view %v", r, c, l), func() { testMatView(t, h, r, c, l) })
			}
		}
	})
	t.Run("ViewMat", func(t *testing.T) {
		v, ok := b.(interface {
			ViewMat(rows, cols int, data []float64) kernels.Mat
		})
		if !ok {
			t.Skip("not a kernels.Viewer")
		}
		for _, s := range [][2]int{{0, 0}, {1, 1}, {3, 4}, {17, 33}} {
			r, c := s[0], s[1]
			h.try(t, fmt.Sprintf("ViewMat(%d, %d)", r, c), func() {
				data := make([]float64, r*c)
				for i := range data {
					data[i] = float64(i) + 0.5
				}
				m := v.ViewMat(r, c, data)
				if gr, gc := m.Dims(); gr != r || gc != c {
					t.Errorf("ViewMat(%d, %d): Dims() = %d, %d", r, c, gr, gc)
					return
				}
				for i, x := range h.download(m) {
					if !identical(x, data[i]) {
						t.Errorf("ViewMat(%d, %d) element %d downloads as %v, want %v", r, c, i, x, data[i])
						break
					}
				}
				if r > 1 && c > 0 { // a view: an upload to row 1 lands in data
					b.Upload(m.Row(1), make([]float64, c))
					for j := range c {
						if data[c+j] != 0 || data[j] != float64(j)+0.5 {
							t.Errorf("after zeroing row 1 of the view, data[%d] = %v, data[%d] = %v; want 0 and %v", c+j, data[c+j], j, data[j], float64(j)+0.5)
							break
						}
					}
				}
			})
		}
		h.mustPanic(t, "ViewMat(3, 4, 11 values)", func() { v.ViewMat(3, 4, make([]float64, 11)) })
		h.mustPanic(t, "ViewMat(3, 4, 13 values)", func() { v.ViewMat(3, 4, make([]float64, 13)) })
	})
	t.Run("Panics", func(t *testing.T) {
		v, m := b.NewVec(5), b.NewMat(3, 4)
		h.mustPanic(t, "Upload(5-vector, 6 values)", func() { b.Upload(v, make([]float64, 6)) })
		h.mustPanic(t, "Upload(5-vector, 4 values)", func() { b.Upload(v, make([]float64, 4)) })
		h.mustPanic(t, "Download(6 values, 5-vector)", func() { b.Download(make([]float64, 6), v) })
		h.mustPanic(t, "Upload(3×4 matrix, 11 values)", func() { b.Upload(m, make([]float64, 11)) })
		h.mustPanic(t, "Download(13 values, 3×4 matrix)", func() { b.Download(make([]float64, 13), m) })
		h.mustPanic(t, "Upload(vector of another backend)", func() { b.Upload(foreignVec{3}, make([]float64, 3)) })
		h.mustPanic(t, "Download(matrix of another backend)", func() { b.Download(make([]float64, 6), foreignMat{2, 3}) })
		anyPanic(t, "v.Slice(0, 6) of a 5-vector", func() { v.Slice(0, 6) })
		anyPanic(t, "v.Slice(3, 2)", func() { v.Slice(3, 2) })
		anyPanic(t, "v.Slice(2, 5).Slice(0, 4)", func() { v.Slice(2, 5).Slice(0, 4) })
		anyPanic(t, "m.Slice(0, 4, 0, 4) of a 3×4 matrix", func() { m.Slice(0, 4, 0, 4) })
		anyPanic(t, "m.Slice(0, 3, 0, 5) of a 3×4 matrix", func() { m.Slice(0, 3, 0, 5) })
		anyPanic(t, "m.Slice(2, 1, 0, 4)", func() { m.Slice(2, 1, 0, 4) })
		anyPanic(t, "m.Row(3) of a 3×4 matrix", func() { m.Row(3) })
		anyPanic(t, "m.Row(-1)", func() { m.Row(-1) })
		anyPanic(t, "m.Slice(1, 3, 1, 3).Row(2)", func() { m.Slice(1, 3, 1, 3).Row(2) })
		for _, x := range h.download(v) {
			if x != 0 {
				t.Errorf("a refused Upload changed the vector: %v", h.download(v))
				break
			}
		}
	})
}

// testVecView checks NewVec, Upload, Download and Slice for n elements.
func testVecView(t *testing.T, h *harness, n int) {
	t.Helper()
	b := h.b
	v := b.NewVec(n)
	if got := v.Len(); got != n {
		t.Errorf("NewVec(%d).Len() = %d, want %d", n, got, n)
		return
	}
	for i, x := range h.download(v) {
		if math.Float64bits(x) != 0 {
			t.Errorf("NewVec(%d)[%d] = %v, want 0", n, i, x)
			break
		}
	}
	g := h.vec(filled(n, outGuard), n%5, 1+n%3, outGuard)
	data := h.specialValues(n)
	b.Upload(g.v, data)
	what := fmt.Sprintf("Upload(v %v)", g)
	h.checkVec(t, what, "v", g, data, nil)
	got := make([]float64, n)
	b.Download(got, g.v)
	checkBits(t, fmt.Sprintf("Download(v %v)", g), got, data)
	if n >= 3 {
		s := g.v.Slice(1, n-1)
		if s.Len() != n-2 {
			t.Errorf("v.Slice(1, %d).Len() = %d, want %d", n-1, s.Len(), n-2)
			return
		}
		got := make([]float64, n-2)
		b.Download(got, s)
		checkBits(t, fmt.Sprintf("Download(v %v .Slice(1, %d))", g, n-1), got, data[1:n-1])
	}
}

// testMatView checks Upload, Download, Row and Slice on an r×c view placed by l.
func testMatView(t *testing.T, h *harness, r, c int, l layout) {
	t.Helper()
	b := h.b
	g := h.mat(filled(r*c, outGuard), r, c, l, outGuard)
	if gr, gc := g.m.Dims(); gr != r || gc != c || g.m.Len() != r*c {
		t.Errorf("view %v: Dims() = %d, %d and Len() = %d, want %d, %d and %d", g, gr, gc, g.m.Len(), r, c, r*c)
		return
	}
	data := h.specialValues(r * c)
	b.Upload(g.m, data)
	h.checkMat(t, fmt.Sprintf("Upload(m %v)", g), "m", g, data, nil, false)
	got := make([]float64, r*c)
	b.Download(got, g.m)
	checkBits(t, fmt.Sprintf("Download(m %v)", g), got, data)
	for _, i := range positions(r) {
		row := g.m.Row(i)
		if row.Len() != c {
			t.Errorf("m %v .Row(%d).Len() = %d, want %d", g, i, row.Len(), c)
			continue
		}
		got := make([]float64, c)
		b.Download(got, row)
		checkBits(t, fmt.Sprintf("Download(m %v .Row(%d))", g, i), got, data[i*c:(i+1)*c])
	}
	if r >= 2 && c >= 2 {
		s := g.m.Slice(1, r, 1, c)
		if sr, sc := s.Dims(); sr != r-1 || sc != c-1 {
			t.Errorf("m %v .Slice(1, %d, 1, %d).Dims() = %d, %d, want %d, %d", g, r, c, sr, sc, r-1, c-1)
		} else {
			got := make([]float64, (r-1)*(c-1))
			b.Download(got, s)
			var want []float64
			for i := 1; i < r; i++ {
				want = append(want, data[i*c+1:(i+1)*c]...)
			}
			checkBits(t, fmt.Sprintf("Download(m %v .Slice(1, %d, 1, %d))", g, r, c), got, want)
		}
	}
	if r > 0 {
		i := r / 2
		row := h.specialValues(c)
		b.Upload(g.m.Row(i), row)
		copy(data[i*c:], row)
		h.checkMat(t, fmt.Sprintf("Upload(m %v .Row(%d))", g, i), "m", g, data, nil, false)
	}
	if e := g.m.Slice(r, r, 0, c); e.Len() != 0 {
		t.Errorf("m %v .Slice(%d, %d, 0, %d).Len() = %d, want 0", g, r, r, c, e.Len())
	}
}

// checkBits checks that got and want are equal bit for bit.
func checkBits(t testing.TB, what string, got, want []float64) {
	t.Helper()
	r := reporter{t: t, what: what}
	for i := range want {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			r.errorf("[%d] = %v (%#x), want %v (%#x)", i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
	r.done()
}

// TestCopy checks Copy on views at odd offsets, rows of matrix views, values of every
// kind (copied bit for bit), and panics on a length mismatch or a foreign tensor.
func TestCopy(t *testing.T, b Tensors) {
	h := newHarness(b, 2)
	t.Run("Lengths", func(t *testing.T) {
		for _, n := range level1Lengths() {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				src := h.vec(h.specialValues(n), n%3, 2, inGuard)
				dst := h.vec(h.values(n), (n/3)%4, 1, outGuard)
				b.Copy(dst.v, src.v)
				what := fmt.Sprintf("Copy(dst %v, src %v)", dst, src)
				h.checkVec(t, what, "dst", dst, src.data(), nil)
				h.vecUnchanged(t, what, "src", src)
			})
		}
	})
	t.Run("Rows", func(t *testing.T) {
		for _, l := range layouts {
			h.try(t, fmt.Sprintf("layout %v", l), func() {
				m := h.mat(h.values(5*7), 5, 7, l, outGuard)
				src := h.vec(h.specialValues(7), 1, 1, inGuard)
				b.Copy(m.m.Row(2), src.v)
				want := m.data()
				copy(want[2*7:], src.data())
				h.checkMat(t, fmt.Sprintf("Copy(m %v .Row(2), src)", m), "m", m, want, nil, false)
				dst := h.vec(h.values(7), 3, 0, outGuard)
				b.Copy(dst.v, m.m.Row(4))
				h.checkVec(t, fmt.Sprintf("Copy(dst, m %v .Row(4))", m), "dst", dst, m.data()[4*7:5*7], nil)
			})
		}
	})
	t.Run("Panics", func(t *testing.T) {
		x, y := h.vec(h.values(5), 1, 1, inGuard), h.vec(h.values(6), 1, 1, outGuard)
		h.mustPanic(t, "Copy(6-vector, 5-vector)", func() { b.Copy(y.v, x.v) })
		h.vecUnchanged(t, "refused Copy", "dst", y)
		h.mustPanic(t, "Copy(5-vector, 6-vector)", func() { b.Copy(x.v, y.v) })
		h.vecUnchanged(t, "refused Copy", "dst", x)
		h.mustPanic(t, "Copy(foreign, own)", func() { b.Copy(foreignVec{5}, x.v) })
		h.mustPanic(t, "Copy(own, foreign)", func() { b.Copy(x.v, foreignVec{5}) })
		h.vecUnchanged(t, "refused Copy", "dst", x)
	})
}

// TestDot checks Dot at every length 0..300 and around block sizes, on views at odd
// offsets inside NaN guards, with x == y, with NaN and Inf, and its panics.
func TestDot(t *testing.T, b Level1) {
	h := newHarness(b, 3)
	t.Run("Lengths", func(t *testing.T) {
		for _, n := range level1Lengths() {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				x := h.vec(h.values(n), n%5, 2, inGuard)
				y := h.vec(h.values(n), (n/5)%3, 1+n%2, inGuard)
				what := fmt.Sprintf("Dot(x %v, y %v)", x, y)
				want, tol := refDot(x.data(), y.data())
				checkScalar(t, what, b.Dot(x.v, y.v), want, tol)
				h.vecUnchanged(t, what, "x", x)
				h.vecUnchanged(t, what, "y", y)
				if n%7 == 0 {
					want, tol := refDot(x.data(), x.data())
					checkScalar(t, fmt.Sprintf("Dot(x %v, x)", x), b.Dot(x.v, x.v), want, tol)
				}
			})
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		for _, n := range specialLengths {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				for trial := range 12 {
					xd, yd := h.values(n), h.values(n)
					pos := positions(n)[trial%len(positions(n))]
					switch trial % 3 {
					case 0:
						h.sprinkle(xd, pos, 1)
					case 1:
						h.sprinkle(yd, pos, 1)
					default:
						h.sprinkle(xd, pos, 2)
						h.sprinkle(yd, -1, 2)
					}
					x, y := h.vec(xd, 1, 1, inGuard), h.vec(yd, 2, 0, inGuard)
					want, tol := refDot(xd, yd)
					checkScalar(t, fmt.Sprintf("Dot(x %v, y %v) with x=%v y=%v", x, y, short(xd), short(yd)), b.Dot(x.v, y.v), want, tol)
				}
			})
		}
	})
	t.Run("Panics", func(t *testing.T) {
		for _, n := range []int{0, 1, 4, 17} {
			x, y := h.vec(h.values(n), 1, 1, inGuard), h.vec(h.values(n+1), 1, 1, inGuard)
			h.mustPanic(t, fmt.Sprintf("Dot(%d-vector, %d-vector)", n, n+1), func() { b.Dot(x.v, y.v) })
			h.mustPanic(t, fmt.Sprintf("Dot(%d-vector, %d-vector)", n+1, n), func() { b.Dot(y.v, x.v) })
		}
		x := h.vec(h.values(3), 0, 0, inGuard)
		h.mustPanic(t, "Dot(foreign, own)", func() { b.Dot(foreignVec{3}, x.v) })
		h.mustPanic(t, "Dot(own, foreign)", func() { b.Dot(x.v, foreignVec{3}) })
	})
}

// short formats the start of a slice for a message.
func short(v []float64) string {
	if len(v) <= 8 {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%v…(%d)", v[:8], len(v))
}

// axpyAlphas are the alphas the Axpy-like tests cycle through.
var axpyAlphas = []float64{1, -1, 0.5, -3.25, 0, 1e3, 0x1p-7}

// TestAxpy checks Axpy at every length 0..300 and around block sizes, on views at odd
// offsets, with x == y, with NaN and Inf (alpha = 0 included: 0·NaN is NaN), and its
// panics.
func TestAxpy(t *testing.T, b Level1) {
	h := newHarness(b, 4)
	t.Run("Lengths", func(t *testing.T) {
		for i, n := range level1Lengths() {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				alpha := axpyAlphas[i%len(axpyAlphas)]
				if i%5 == 4 {
					alpha = randValue(h.rnd)
				}
				x := h.vec(h.values(n), i%4, 2, inGuard)
				y := h.vec(h.values(n), (i/4)%5, 1+i%3, outGuard)
				b.Axpy(alpha, x.v, y.v)
				what := fmt.Sprintf("Axpy(alpha=%v, x %v, y %v)", alpha, x, y)
				want, tol := refAxpy(alpha, x.data(), y.data())
				h.checkVec(t, what, "y", y, want, tol)
				h.vecUnchanged(t, what, "x", x)
			})
		}
	})
	t.Run("Alias", func(t *testing.T) {
		for i, n := range specialLengths {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				alpha := axpyAlphas[i%len(axpyAlphas)]
				y := h.vec(h.values(n), i%4, 1, outGuard)
				b.Axpy(alpha, y.v, y.v)
				want, tol := refAxpy(alpha, y.data(), y.data())
				h.checkVec(t, fmt.Sprintf("Axpy(alpha=%v, y %v, y) (x == y)", alpha, y), "y", y, want, tol)
				// The same elements through two views.
				y = h.vec(h.values(n), i%3, 2, outGuard)
				b.Axpy(alpha, y.parent.Slice(y.lo, y.lo+n), y.v)
				want, tol = refAxpy(alpha, y.data(), y.data())
				h.checkVec(t, fmt.Sprintf("Axpy(alpha=%v, y %v, another view of y's elements)", alpha, y), "y", y, want, tol)
			})
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		for _, n := range specialLengths {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				for trial := range 8 {
					alpha := []float64{1.5, -2, 0, 1}[trial%4]
					xd, yd := h.values(n), h.values(n)
					pos := positions(n)[trial%len(positions(n))]
					if trial < 4 {
						h.sprinkle(xd, pos, 2)
					} else {
						h.sprinkle(yd, pos, 2)
					}
					x, y := h.vec(xd, 1, 2, inGuard), h.vec(yd, 3, 1, outGuard)
					b.Axpy(alpha, x.v, y.v)
					want, tol := refAxpy(alpha, xd, yd)
					h.checkVec(t, fmt.Sprintf("Axpy(alpha=%v, x=%v, y=%v)", alpha, short(xd), short(yd)), "y", y, want, tol)
				}
			})
		}
		// alpha = 0 multiplies: NaN and Inf in x make NaN in y.
		xd := []float64{1, math.NaN(), 2, math.Inf(1), 3, math.Inf(-1), 4}
		x, y := h.vec(xd, 1, 1, inGuard), h.vec(h.values(len(xd)), 1, 1, outGuard)
		b.Axpy(0, x.v, y.v)
		want, tol := refAxpy(0, xd, y.data())
		h.checkVec(t, fmt.Sprintf("Axpy(alpha=0, x=%v, y) (0·NaN and 0·Inf are NaN)", xd), "y", y, want, tol)
	})
	t.Run("Panics", func(t *testing.T) {
		for _, n := range []int{0, 1, 4, 17} {
			x, y := h.vec(h.values(n), 1, 1, inGuard), h.vec(h.values(n+1), 1, 1, outGuard)
			h.mustPanic(t, fmt.Sprintf("Axpy(x %d-vector, y %d-vector)", n, n+1), func() { b.Axpy(2, x.v, y.v) })
			h.vecUnchanged(t, "refused Axpy", "y", y)
			h.mustPanic(t, fmt.Sprintf("Axpy(x %d-vector, y %d-vector)", n+1, n), func() { b.Axpy(2, y.v, x.v) })
			h.vecUnchanged(t, "refused Axpy", "y", x)
		}
		x := h.vec(h.values(3), 0, 0, outGuard)
		h.mustPanic(t, "Axpy(foreign x, own y)", func() { b.Axpy(1, foreignVec{3}, x.v) })
		h.mustPanic(t, "Axpy(own x, foreign y)", func() { b.Axpy(1, x.v, foreignVec{3}) })
		h.vecUnchanged(t, "refused Axpy", "y", x)
	})
}

// TestScal checks Scal at every length 0..300 and around block sizes, on views at odd
// offsets, with NaN and Inf, that Scal by 0 multiplies (0·NaN and 0·Inf are NaN), and
// its panic on a foreign tensor.
func TestScal(t *testing.T, b Level1) {
	h := newHarness(b, 5)
	alphas := []float64{0, 1, -1, 2, 0.1, math.Copysign(0, -1), -7.5e-3}
	t.Run("Lengths", func(t *testing.T) {
		for i, n := range level1Lengths() {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				alpha := alphas[i%len(alphas)]
				if i%5 == 4 {
					alpha = randValue(h.rnd)
				}
				x := h.vec(h.values(n), i%4, 1+i%2, outGuard)
				b.Scal(alpha, x.v)
				want, tol := refScal(alpha, x.data())
				h.checkVec(t, fmt.Sprintf("Scal(alpha=%v, x %v)", alpha, x), "x", x, want, tol)
			})
		}
	})
	t.Run("NaNInf", func(t *testing.T) {
		for i, n := range specialLengths {
			h.try(t, fmt.Sprintf("n=%d", n), func() {
				for _, pos := range positions(n) {
					alpha := alphas[i%len(alphas)]
					xd := h.values(n)
					h.sprinkle(xd, pos, 3)
					x := h.vec(xd, i%3, 1, outGuard)
					b.Scal(alpha, x.v)
					want, tol := refScal(alpha, xd)
					h.checkVec(t, fmt.Sprintf("Scal(alpha=%v, x=%v)", alpha, short(xd)), "x", x, want, tol)
				}
			})
		}
		xd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1, -1, 0}
		for _, alpha := range []float64{0, math.NaN(), math.Inf(1)} {
			x := h.vec(xd, 1, 1, outGuard)
			b.Scal(alpha, x.v)
			want, tol := refScal(alpha, xd)
			h.checkVec(t, fmt.Sprintf("Scal(alpha=%v, x=%v)", alpha, xd), "x", x, want, tol)
		}
	})
	t.Run("Panics", func(t *testing.T) {
		h.mustPanic(t, "Scal(2, foreign)", func() { b.Scal(2, foreignVec{4}) })
	})
}
