package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// tolFactor is the constant c of the error bound c·(n+2)·ε·Σ|terms|.
const tolFactor = 4

// eps is the machine epsilon of float64, 2⁻⁵².
const eps = 0x1p-52

// tolerance is the error allowed in a result accumulated from n terms whose magnitudes
// sum to abs.
func tolerance(n int, abs float64) float64 {
	return tolFactor * float64(n+2) * eps * abs
}

var (
	// inGuard pads input parents: a quiet NaN with a recognisable payload, so that a
	// read outside a view turns a result into NaN.
	inGuard = math.Float64frombits(0x7ff8_6b74_6775_6172)
	// outGuard pads output parents and fills the strictly lower triangle of symmetric
	// outputs: a finite value with a full mantissa and a magnitude like the data's, so
	// that adding any of the suite's values to it changes it.
	outGuard = -0x1.c7e5a3b2d4f69p+2
)

// match reports whether got is want within tol: NaN matches NaN, an infinite want must
// be matched exactly, and a finite want by a finite got.
func match(got, want, tol float64) bool {
	switch {
	case math.IsNaN(want):
		return math.IsNaN(got)
	case math.IsInf(want, 0):
		return got == want
	default:
		return !math.IsNaN(got) && !math.IsInf(got, 0) && math.Abs(got-want) <= tol
	}
}

// identical reports whether a and b have the same bits or are both NaN.
func identical(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// maxReports is the number of mismatches reported one by one per check.
const maxReports = 4

// reporter reports the mismatches of one check, the first few in full.
type reporter struct {
	t    testing.TB
	what string
	n    int
}

func (r *reporter) errorf(format string, args ...any) {
	r.t.Helper()
	r.n++
	if r.n <= maxReports {
		r.t.Errorf("%s: %s", r.what, fmt.Sprintf(format, args...))
	}
}

func (r *reporter) done() {
	r.t.Helper()
	if r.n > maxReports {
		r.t.Errorf("%s: %d mismatches in all", r.what, r.n)
	}
}

// harness makes guarded operands on one backend from one stream of random numbers.
type harness struct {
	b      Tensors
	rnd    *rand.Rand
	panics int // unexpected panics so far
}

// recoverCase, deferred by a test case, turns an unexpected panic into a test error
// naming the case, so that the other cases still run. The first two come with a stack.
func (h *harness) recoverCase(t testing.TB, what string) {
	r := recover()
	if r == nil {
		return
	}
	t.Helper()
	h.panics++
	if h.panics <= 2 {
		t.Errorf("%s panicked: %v\n%s", what, r, debug.Stack())
	} else {
		t.Errorf("%s panicked: %v", what, r)
	}
}

// try runs the test case f, turning a panic into a test error.
func (h *harness) try(t testing.TB, what string, f func()) {
	t.Helper()
	defer h.recoverCase(t, what)
	f()
}

func newHarness(b Tensors, seed uint64) *harness {
	return &harness{b: b, rnd: rand.New(rand.NewPCG(seed, 0x6b65726e656c7465))}
}

// value returns a random value of either sign and of magnitude in [2⁻¹¹, 1.5·2¹⁰):
// mixed enough to expose summation errors, small enough that no sum of the suite's
// sizes overflows or loses its terms to underflow.
func randValue(rnd *rand.Rand) float64 {
	v := math.Ldexp(0.5+rnd.Float64(), rnd.IntN(21)-10)
	if rnd.IntN(2) == 0 {
		v = -v
	}
	return v
}

func (h *harness) values(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = randValue(h.rnd)
	}
	return v
}

// specials are the values that Upload, Download and Copy must move unchanged.
var specials = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022,
	math.MaxFloat64, -math.MaxFloat64, inGuard,
}

// specialValues returns random values with about one in eight replaced by a special.
func (h *harness) specialValues(n int) []float64 {
	v := h.values(n)
	for i := range v {
		if h.rnd.IntN(8) == 0 {
			v[i] = specials[h.rnd.IntN(len(specials))]
		}
	}
	return v
}

func filled(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func (h *harness) download(p kernels.Tensor) []float64 {
	out := make([]float64, p.Len())
	h.b.Download(out, p)
	return out
}

// gvec is a vector view v = parent[lo, lo+n) whose parent holds guards elsewhere.
type gvec struct {
	parent kernels.Vec
	v      kernels.Vec
	init   []float64 // the parent's contents as uploaded
	lo, n  int
}

// vec makes a guarded view holding data, with lo guards before it and hi after it.
func (h *harness) vec(data []float64, lo, hi int, guard float64) *gvec {
	return newGVec(h.b, data, lo, hi, guard)
}

func newGVec(b Tensors, data []float64, lo, hi int, guard float64) *gvec {
	n := len(data)
	all := filled(lo+n+hi, guard)
	copy(all[lo:], data)
	p := b.NewVec(len(all))
	b.Upload(p, all)
	return &gvec{parent: p, v: p.Slice(lo, lo+n), init: all, lo: lo, n: n}
}

// data is a copy of the view's initial contents.
func (g *gvec) data() []float64 {
	return append([]float64(nil), g.init[g.lo:g.lo+g.n]...)
}

func (g *gvec) String() string {
	return fmt.Sprintf("[%d:%d] of %d", g.lo, g.lo+g.n, len(g.init))
}

// layout places a matrix view inside its parent: top and bottom guard rows, left and
// right guard columns. The zero layout is a plain NewMat, not a view.
type layout struct{ top, bottom, left, right int }

// layouts cover a plain matrix, a view with the stride of its width, and views whose
// rows start 8, 16 or 24 bytes off a 32-byte boundary with odd and even strides.
var layouts = []layout{
	{0, 0, 0, 0},
	{1, 2, 3, 0},
	{1, 1, 1, 2},
	{2, 0, 0, 0},
	{0, 1, 2, 5},
	{3, 1, 1, 0},
	{1, 0, 0, 1},
}

// gmat is a matrix view m inside a parent (pr×pc) holding guards elsewhere.
type gmat struct {
	parent     kernels.Mat
	m          kernels.Mat
	init       []float64 // the parent's contents as uploaded, row-major
	pr, pc     int
	l          layout
	rows, cols int
}

// mat makes a guarded rows×cols view holding data (row-major).
func (h *harness) mat(data []float64, rows, cols int, l layout, guard float64) *gmat {
	return newGMat(h.b, data, rows, cols, l, guard)
}

func newGMat(b Tensors, data []float64, rows, cols int, l layout, guard float64) *gmat {
	g := &gmat{pr: l.top + rows + l.bottom, pc: l.left + cols + l.right, l: l, rows: rows, cols: cols}
	g.init = filled(g.pr*g.pc, guard)
	for i := range rows {
		copy(g.init[g.idx(i, 0):g.idx(i, cols)], data[i*cols:(i+1)*cols])
	}
	g.parent = b.NewMat(g.pr, g.pc)
	b.Upload(g.parent, g.init)
	if l == (layout{}) {
		g.m = g.parent
	} else {
		g.m = g.parent.Slice(l.top, l.top+rows, l.left, l.left+cols)
	}
	return g
}

// idx is the index in the parent's row-major contents of element (i, j) of the view.
func (g *gmat) idx(i, j int) int { return (g.l.top+i)*g.pc + g.l.left + j }

// data is a row-major copy of the view's initial contents.
func (g *gmat) data() []float64 {
	d := make([]float64, 0, g.rows*g.cols)
	for i := range g.rows {
		d = append(d, g.init[g.idx(i, 0):g.idx(i, g.cols)]...)
	}
	return d
}

func (g *gmat) String() string {
	if g.l == (layout{}) {
		return fmt.Sprintf("%d×%d", g.rows, g.cols)
	}
	return fmt.Sprintf("%d×%d at (%d,%d) of %d×%d", g.rows, g.cols, g.l.top, g.l.left, g.pr, g.pc)
}

// checkVec checks that the view of g holds want (within tol; bit for bit when tol is nil)
// and that its parent outside the view is unchanged.
func (h *harness) checkVec(t testing.TB, what, name string, g *gvec, want, tol []float64) {
	t.Helper()
	got := h.download(g.parent)
	r := reporter{t: t, what: what}
	for k, v := range got {
		i := k - g.lo
		switch {
		case i < 0 || i >= g.n:
			if !identical(v, g.init[k]) {
				r.errorf("wrote %s's parent at %d, outside the view %v: got %v, want the guard %v", name, k, g, v, g.init[k])
			}
		case tol == nil:
			if math.Float64bits(v) != math.Float64bits(want[i]) {
				r.errorf("%s[%d] = %v, want %v", name, i, v, want[i])
			}
		case !match(v, want[i], tol[i]):
			r.errorf("%s[%d] = %v, want %v (tolerance %.3g)", name, i, v, want[i], tol[i])
		}
	}
	r.done()
}

// checkMat checks that the view of g holds want (within tol; bit for bit when tol is nil)
// and that its parent outside the view is unchanged. With upper, the strictly lower
// triangle of the view must be unchanged too.
func (h *harness) checkMat(t testing.TB, what, name string, g *gmat, want, tol []float64, upper bool) {
	t.Helper()
	got := h.download(g.parent)
	r := reporter{t: t, what: what}
	for k, v := range got {
		i, j := k/g.pc-g.l.top, k%g.pc-g.l.left
		switch {
		case i < 0 || i >= g.rows || j < 0 || j >= g.cols:
			if !identical(v, g.init[k]) {
				r.errorf("wrote %s's parent at (%d,%d), outside the view %v: got %v, want the guard %v", name, k/g.pc, k%g.pc, g, v, g.init[k])
			}
		case upper && i > j:
			if !identical(v, g.init[k]) {
				r.errorf("wrote %s[%d][%d] in the strictly lower triangle: got %v, want it unchanged (%v)", name, i, j, v, g.init[k])
			}
		case tol == nil:
			if math.Float64bits(v) != math.Float64bits(want[i*g.cols+j]) {
				r.errorf("%s[%d][%d] = %v, want %v", name, i, j, v, want[i*g.cols+j])
			}
		case !match(v, want[i*g.cols+j], tol[i*g.cols+j]):
			r.errorf("%s[%d][%d] = %v, want %v (tolerance %.3g)", name, i, j, v, want[i*g.cols+j], tol[i*g.cols+j])
		}
	}
	r.done()
}

// unchanged checks that an operand's parent (view and guards) is unchanged bit for bit.
func (h *harness) unchanged(t testing.TB, what, name string, parent kernels.Tensor, init []float64) {
	t.Helper()
	got := h.download(parent)
	r := reporter{t: t, what: what}
	for k, v := range got {
		if math.Float64bits(v) != math.Float64bits(init[k]) {
			r.errorf("changed the input %s: its parent's element %d is %v, was %v", name, k, v, init[k])
		}
	}
	r.done()
}

func (h *harness) vecUnchanged(t testing.TB, what, name string, g *gvec) {
	t.Helper()
	h.unchanged(t, what, name, g.parent, g.init)
}

func (h *harness) matUnchanged(t testing.TB, what, name string, g *gmat) {
	t.Helper()
	h.unchanged(t, what, name, g.parent, g.init)
}

// checkScalar checks a scalar result.
func checkScalar(t testing.TB, what string, got, want, tol float64) {
	t.Helper()
	if !match(got, want, tol) {
		t.Errorf("%s = %v, want %v (tolerance %.3g)", what, got, want, tol)
	}
}

// catch runs f and returns what it panicked with, or nil.
func catch(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

// panicMessage is the text of a recovered panic value.
func panicMessage(r any) string {
	if err, ok := r.(error); ok {
		return err.Error()
	}
	return fmt.Sprint(r)
}

// mustPanic checks that f panics deliberately: with a message prefixed "kernels:" or the
// backend's name, not with a runtime error such as an index out of range.
func (h *harness) mustPanic(t testing.TB, what string, f func()) {
	t.Helper()
	r := catch(f)
	if r == nil {
		t.Errorf("%s did not panic", what)
		return
	}
	msg := panicMessage(r)
	if _, ok := r.(runtime.Error); ok {
		t.Errorf("%s panicked with the runtime error %q, want a checked panic prefixed \"kernels:\" or %q", what, msg, h.b.Name()+":")
		return
	}
	if !strings.HasPrefix(msg, "kernels:") && !strings.HasPrefix(msg, h.b.Name()+":") {
		t.Errorf("%s panicked with %q, want a message prefixed \"kernels:\" or %q", what, msg, h.b.Name()+":")
	}
}

// anyPanic checks that f panics, with anything.
func anyPanic(t testing.TB, what string, f func()) {
	t.Helper()
	if catch(f) == nil {
		t.Errorf("%s did not panic", what)
	}
}

// foreignVec is a vector of a backend that does not exist: every backend must refuse it.
type foreignVec struct{ n int }

func (v foreignVec) Len() int { return v.n }

func (v foreignVec) Slice(i, j int) kernels.Vec { return foreignVec{j - i} }

// foreignMat is a matrix of a backend that does not exist.
type foreignMat struct{ r, c int }

func (m foreignMat) Len() int { return m.r * m.c }

func (m foreignMat) Dims() (int, int) { return m.r, m.c }

func (m foreignMat) Slice(i0, i1, j0, j1 int) kernels.Mat { return foreignMat{i1 - i0, j1 - j0} }

func (m foreignMat) Row(int) kernels.Vec { return foreignVec{m.c} }

// level1Lengths is every length 0..300, lengths around power-of-two block sizes, and a
// few large ones.
func level1Lengths() []int {
	var ns []int
	for n := range 301 {
		ns = append(ns, n)
	}
	for _, p := range []int{384, 512, 1000, 1024, 2048, 4096, 8192, 16384, 65536} {
		ns = append(ns, p-1, p, p+1)
	}
	return append(ns, 62061, 262147)
}

// dims are matrix sides: tiny ones, ones around multiples of 4, 8, 12, 16, 24 and 64
// (register tiles and unroll factors), around 512 (column blocks), and large ones.
var dims = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16, 17, 23, 24, 25, 31, 32, 33, 47, 48, 49, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 511, 512, 513, 600}

// nonFinite are the values sprinkled into operands to test IEEE propagation; 0 is among
// them so that Inf·0 occurs.
var nonFinite = []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0}

// sprinkle puts k values drawn from nonFinite into v, the first at pos (when pos is in
// range) and the others at random positions.
func (h *harness) sprinkle(v []float64, pos, k int) {
	if len(v) == 0 {
		return
	}
	for i := range k {
		p := pos
		if i > 0 || p < 0 || p >= len(v) {
			p = h.rnd.IntN(len(v))
		}
		v[p] = nonFinite[h.rnd.IntN(len(nonFinite))]
	}
}

// positions are the places a special value goes in a vector of n elements: the first,
// the last and the middle (the head, the loop tail and the unrolled body of a kernel).
func positions(n int) []int {
	switch {
	case n == 0:
		return nil
	case n <= 2:
		return []int{0, n - 1}
	}
	return []int{0, n - 1, n / 2}
}
