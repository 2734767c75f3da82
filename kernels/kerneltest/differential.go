package kerneltest

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// Op names an operation that Differential can run.
type Op int

// The operations Differential runs.
const (
	OpDot Op = iota
	OpAxpy
	OpScal
	OpDotSparse
	OpAxpySparse
	OpGemv
	OpGemvRows
	OpSymv
	OpSyr
	OpGer
	OpSyrk
	OpSymm
	numOps
)

var opNames = [numOps]string{"Dot", "Axpy", "Scal", "DotSparse", "AxpySparse", "Gemv", "GemvRows", "Symv", "Syr", "Ger", "Syrk", "Symm"}

// String returns the Backend method's name, "Dot" for OpDot.
func (op Op) String() string {
	if op < 0 || op >= numOps {
		return fmt.Sprintf("Op(%d)", int(op))
	}
	return opNames[op]
}

// Ops returns every Op, in declaration order.
func Ops() []Op {
	ops := make([]Op, numOps)
	for i := range ops {
		ops[i] = Op(i)
	}
	return ops
}

// Size limits of the operands Differential decodes.
const (
	maxLevel1 = 4100 // vector lengths, dense lengths of sparse operations
	maxSide   = 600  // matrix sides
	maxSyrkD  = 320  // Syrk's d (C is d×d), Symm's d (A is d×d)
	maxSymmK  = 320  // Symm's k (B and C are k×d)
)

// Differential runs op on b and on the reference backend ref with operands decoded from
// the fuzz input data, and fails t unless the results agree within the suite's
// term-relative tolerance (NaN matching NaN, infinities exactly), both left everything
// outside the outputs' views (and the strictly lower triangle of a symmetric output)
// untouched, and both panicked or neither did. Operands malformed on purpose (a sparse
// index or GemvRows row out of range, len(Idx) ≠ len(Val)) must make both panic.
//
// Any input is valid. Its bytes are consumed in an order fixed per operation: first the
// sizes (two bytes each: three in four up to 70, the others up to the limit, which is
// 4100 for vector lengths, 600 for matrix sides and 320 for Syrk's d and Symm's k and d),
// then flags, scalars and operands. A scalar is one byte (0, 1, −1, 0.5, or else a
// value from the next two bytes, never NaN or Inf); an operand is one byte placing it
// as a view inside a larger parent, then its elements, two bytes each: the first byte's
// low bit is the sign and the rest an exponent in [−20, 20], the second the mantissa,
// with a first byte 0xff selecting a special (NaN, ±Inf, ±0, ±1, 2). A symmetric input
// holds NaN in its strictly lower triangle (it must not be read), and an output whose
// beta is 0 is NaN half the time (it must not be read either). Once the input is used
// up, further bytes and elements come from a generator seeded with a hash of the input,
// so that a short input still makes large operands.
func Differential(t *testing.T, b, ref kernels.Backend, op Op, data []byte) {
	t.Helper()
	d := newDecoder(data)
	var c diffCase
	switch op {
	case OpDot, OpAxpy:
		n := d.size(maxLevel1)
		x, y := d.vecOperand("x", n, false), d.vecOperand("y", n, op == OpAxpy)
		c.ops = []*diffOperand{x, y}
		if op == OpDot {
			_, c.tol = refDot(x.data(), y.data())
			c.what = fmt.Sprintf("Dot(x %v, y %v)", x, y)
			c.scalar = func(b kernels.Backend, t []kernels.Tensor) float64 {
				return b.Dot(t[0].(kernels.Vec), t[1].(kernels.Vec))
			}
		} else {
			alpha := d.scalar()
			_, y.tol = refAxpy(alpha, x.data(), y.data())
			c.what = fmt.Sprintf("Axpy(alpha=%v, x %v, y %v)", alpha, x, y)
			c.run = func(b kernels.Backend, t []kernels.Tensor) { b.Axpy(alpha, t[0].(kernels.Vec), t[1].(kernels.Vec)) }
		}
	case OpScal:
		n := d.size(maxLevel1)
		x := d.vecOperand("x", n, true)
		alpha := d.scalar()
		if d.byte()%4 == 0 {
			alpha = 0
		}
		c.ops = []*diffOperand{x}
		_, x.tol = refScal(alpha, x.data())
		c.what = fmt.Sprintf("Scal(alpha=%v, x %v)", alpha, x)
		c.run = func(b kernels.Backend, t []kernels.Tensor) { b.Scal(alpha, t[0].(kernels.Vec)) }
	case OpDotSparse, OpAxpySparse:
		n := d.size(maxLevel1)
		sp, bad := d.sparse(n)
		y := d.vecOperand("y", n, op == OpAxpySparse)
		c.ops, c.mustPanic = []*diffOperand{y}, bad
		desc := fmt.Sprintf("x {Idx: %v, Val: %v} (nnz %d), y %v", short32(sp.Idx), short(sp.Val), len(sp.Idx), y)
		if op == OpDotSparse {
			if !bad {
				_, c.tol = refDotSparse(sp.Idx, sp.Val, y.data())
			}
			c.what = "DotSparse(" + desc + ")"
			c.scalar = func(b kernels.Backend, t []kernels.Tensor) float64 { return b.DotSparse(sp, t[0].(kernels.Vec)) }
		} else {
			alpha := d.scalar()
			if !bad {
				_, y.tol = refAxpySparse(alpha, sp.Idx, sp.Val, y.data())
			}
			c.what = fmt.Sprintf("AxpySparse(alpha=%v, %s)", alpha, desc)
			c.run = func(b kernels.Backend, t []kernels.Tensor) { b.AxpySparse(alpha, sp, t[0].(kernels.Vec)) }
		}
	case OpGemv, OpGemvRows:
		m, n := d.size(maxSide), d.size(maxSide)
		trans := d.byte()&1 == 1
		var rows []int32
		r := m
		if op == OpGemvRows {
			rows, c.mustPanic = d.rows(m)
			r = len(rows)
		}
		nx, ny := gemvLens(trans, r, n)
		alpha, beta := d.scalar(), d.scalar()
		a := d.matOperand("A", m, n, false)
		x, y := d.vecOperand("x", nx, false), d.outVec("y", ny, beta)
		c.ops = []*diffOperand{a, x, y}
		if op == OpGemv {
			_, y.tol = refGemv(trans, alpha, a.data(), m, n, x.data(), beta, y.data())
			c.what = fmt.Sprintf("Gemv(trans=%t, alpha=%v, A %v, x %v, beta=%v, y %v)", trans, alpha, a, x, beta, y)
			c.run = func(b kernels.Backend, t []kernels.Tensor) {
				b.Gemv(trans, alpha, t[0].(kernels.Mat), t[1].(kernels.Vec), beta, t[2].(kernels.Vec))
			}
		} else {
			if !c.mustPanic {
				_, y.tol = refGemvRows(trans, alpha, a.data(), n, rows, x.data(), beta, y.data())
			}
			c.what = fmt.Sprintf("GemvRows(trans=%t, alpha=%v, A %v, rows=%v (%d), x %v, beta=%v, y %v)", trans, alpha, a, short32(rows), len(rows), x, beta, y)
			c.run = func(b kernels.Backend, t []kernels.Tensor) {
				b.GemvRows(trans, alpha, t[0].(kernels.Mat), rows, t[1].(kernels.Vec), beta, t[2].(kernels.Vec))
			}
		}
	case OpSymv:
		n := d.size(maxSide)
		alpha, beta := d.scalar(), d.scalar()
		a := d.matOperand("A", n, n, false)
		for i := range n {
			for j := range i {
				a.setInit(i*n+j, inGuard)
			}
		}
		x, y := d.vecOperand("x", n, false), d.outVec("y", n, beta)
		c.ops = []*diffOperand{a, x, y}
		_, y.tol = refSymv(alpha, a.data(), n, x.data(), beta, y.data())
		c.what = fmt.Sprintf("Symv(alpha=%v, A %v, x %v, beta=%v, y %v)", alpha, a, x, beta, y)
		c.run = func(b kernels.Backend, t []kernels.Tensor) {
			b.Symv(alpha, t[0].(kernels.Mat), t[1].(kernels.Vec), beta, t[2].(kernels.Vec))
		}
	case OpSyr:
		n := d.size(maxSide)
		alpha := d.scalar()
		x, a := d.vecOperand("x", n, false), d.matOperand("A", n, n, true)
		a.upper = true
		for i := range n {
			for j := range i {
				a.setInit(i*n+j, outGuard)
			}
		}
		c.ops = []*diffOperand{x, a}
		_, a.tol = refSyr(alpha, x.data(), a.data())
		c.what = fmt.Sprintf("Syr(alpha=%v, x %v, A %v)", alpha, x, a)
		c.run = func(b kernels.Backend, t []kernels.Tensor) { b.Syr(alpha, t[0].(kernels.Vec), t[1].(kernels.Mat)) }
	case OpGer:
		m, n := d.size(maxSide), d.size(maxSide)
		alpha := d.scalar()
		x, y, a := d.vecOperand("x", m, false), d.vecOperand("y", n, false), d.matOperand("A", m, n, true)
		c.ops = []*diffOperand{x, y, a}
		_, a.tol = refGer(alpha, x.data(), y.data(), a.data())
		c.what = fmt.Sprintf("Ger(alpha=%v, x %v, y %v, A %v)", alpha, x, y, a)
		c.run = func(b kernels.Backend, t []kernels.Tensor) {
			b.Ger(alpha, t[0].(kernels.Vec), t[1].(kernels.Vec), t[2].(kernels.Mat))
		}
	case OpSyrk:
		k, dd := d.size(maxSide), d.size(maxSyrkD)
		alpha, beta := d.scalar(), d.scalar()
		a := d.matOperand("A", k, dd, false)
		cm := d.matOperand("C", dd, dd, true)
		cm.upper = true
		nanC := beta == 0 && d.byte()&1 == 1
		for i := range dd {
			for j := range dd {
				switch {
				case i > j:
					cm.setInit(i*dd+j, outGuard)
				case nanC:
					cm.setInit(i*dd+j, math.NaN())
				}
			}
		}
		c.ops = []*diffOperand{a, cm}
		_, cm.tol = refSyrk(alpha, a.data(), k, dd, beta, cm.data())
		c.what = fmt.Sprintf("Syrk(alpha=%v, A %v, beta=%v, C %v)", alpha, a, beta, cm)
		c.run = func(b kernels.Backend, t []kernels.Tensor) {
			b.Syrk(alpha, t[0].(kernels.Mat), beta, t[1].(kernels.Mat))
		}
	case OpSymm:
		k, dd := d.size(maxSymmK), d.size(maxSyrkD)
		alpha, beta := d.scalar(), d.scalar()
		a := d.matOperand("A", dd, dd, false)
		for i := range dd {
			for j := range i {
				a.setInit(i*dd+j, inGuard)
			}
		}
		bm := d.matOperand("B", k, dd, false)
		cm := d.matOperand("C", k, dd, true)
		if beta == 0 && d.byte()&1 == 1 {
			for e := range k * dd {
				cm.setInit(e, math.NaN())
			}
		}
		c.ops = []*diffOperand{a, bm, cm}
		_, cm.tol = refSymm(alpha, a.data(), dd, bm.data(), k, beta, cm.data())
		c.what = fmt.Sprintf("Symm(alpha=%v, A %v, B %v, beta=%v, C %v)", alpha, a, bm, beta, cm)
		c.run = func(b kernels.Backend, t []kernels.Tensor) {
			b.Symm(alpha, t[0].(kernels.Mat), t[1].(kernels.Mat), beta, t[2].(kernels.Mat))
		}
	default:
		t.Fatalf("Differential: unknown op %v", op)
	}
	c.compare(t, b, ref)
}

// decoder turns fuzz bytes into operands.
type decoder struct {
	data []byte
	rnd  *rand.Rand
}

func newDecoder(data []byte) *decoder {
	h := fnv.New64a()
	h.Write(data)
	return &decoder{data: data, rnd: rand.New(rand.NewPCG(h.Sum64(), uint64(len(data))))}
}

// byte returns the next input byte, or a random one once the input is used up.
func (d *decoder) byte() byte {
	if len(d.data) == 0 {
		return byte(d.rnd.Uint32())
	}
	c := d.data[0]
	d.data = d.data[1:]
	return c
}

// smallSize is the bound of the sizes that three in four decoded sizes keep to: small
// operands run fast and exercise the heads and tails of every kernel.
const smallSize = 70

// size returns a size in [0, limit] from two bytes: when the low two bits are not both
// zero, the rest modulo min(limit, smallSize)+1, else the rest modulo limit+1.
func (d *decoder) size(limit int) int {
	v := int(d.byte()) | int(d.byte())<<8
	if v&3 != 0 {
		return (v >> 2) % (min(limit, smallSize) + 1)
	}
	return (v >> 2) % (limit + 1)
}

// decodedSpecials are the values an element with first byte 0xff selects.
var decodedSpecials = [8]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 2}

// value returns an element from two bytes, or a random one once the input is used up.
// Magnitudes stay within [2⁻²⁰, 2²¹) so that no sum overflows or underflows.
func (d *decoder) value() float64 {
	if len(d.data) < 2 {
		d.data = nil
		return randValue(d.rnd)
	}
	b0, b1 := d.byte(), d.byte()
	if b0 == 0xff {
		return decodedSpecials[b1%8]
	}
	v := math.Ldexp(1+float64(b1)/256, int(b0>>1)%41-20)
	if b0&1 == 1 {
		v = -v
	}
	return v
}

// scalar returns alpha or beta: 0, 1, −1, 0.5 or a decoded value, never NaN or Inf
// (an infinite alpha makes the result depend on the order of summation).
func (d *decoder) scalar() float64 {
	switch c := d.byte(); c % 8 {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return -1
	case 3:
		return 0.5
	}
	v := d.value()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 2
	}
	return v
}

func (d *decoder) values(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = d.value()
	}
	return v
}

// diffOperand is a guarded operand created alike on both backends.
type diffOperand struct {
	name       string
	init       []float64 // the parent's contents
	vec        bool
	lo, n      int // a vector's view: [lo, lo+n)
	rows, cols int // a matrix view's shape
	l          layout
	pr, pc     int
	out        bool      // the operation writes the view
	upper      bool      // only the view's upper triangle may change
	tol        []float64 // an output's tolerance per view element (row-major)
}

// vecOperand decodes an n-vector's placement and elements.
func (d *decoder) vecOperand(name string, n int, out bool) *diffOperand {
	c := d.byte()
	lo, hi := int(c%4), int(c>>2)%3
	guard := inGuard
	if out {
		guard = outGuard
	}
	init := filled(lo+n+hi, guard)
	copy(init[lo:], d.values(n))
	return &diffOperand{name: name, init: init, vec: true, lo: lo, n: n, out: out}
}

// outVec decodes the output y of an operation with the given beta; when beta is 0 its
// elements are NaN half the time (they must not be read).
func (d *decoder) outVec(name string, n int, beta float64) *diffOperand {
	y := d.vecOperand(name, n, true)
	if beta == 0 && d.byte()&1 == 1 {
		for i := range n {
			y.init[y.lo+i] = math.NaN()
		}
	}
	return y
}

// matOperand decodes a rows×cols matrix's placement and elements.
func (d *decoder) matOperand(name string, rows, cols int, out bool) *diffOperand {
	c := d.byte()
	l := layout{top: int(c & 1), bottom: int(c>>1) & 1, left: int(c>>2) & 3, right: int(c>>4) & 3}
	if c>>6 == 3 {
		l = layout{}
	}
	guard := inGuard
	if out {
		guard = outGuard
	}
	o := &diffOperand{name: name, rows: rows, cols: cols, l: l, pr: l.top + rows + l.bottom, pc: l.left + cols + l.right, out: out}
	o.init = filled(o.pr*o.pc, guard)
	for i := range rows {
		for j := range cols {
			o.init[o.idx(i, j)] = d.value()
		}
	}
	return o
}

// sparse decodes a sparse operand for a dense length n; bad reports that it is
// malformed on purpose (an index out of range or len(Val) ≠ len(Idx)).
func (d *decoder) sparse(n int) (x kernels.Sparse, bad bool) {
	gap := 1 + int(d.byte()%16)
	idx := []int32{}
	for i := int(d.byte() % uint8(gap)); i < n; i += 1 + int(d.byte())%gap {
		idx = append(idx, int32(i))
	}
	val := d.values(len(idx))
	switch d.byte() % 32 {
	case 0:
		idx, val, bad = append(idx, int32(n+int(d.byte()%3))), append(val, 1), true
	case 1:
		idx, val, bad = append(idx, math.MaxInt32), append(val, 1), true
	case 2:
		idx, val, bad = append([]int32{-1}, idx...), append(val, 1), true
	case 3:
		val, bad = append(val, 1), true
	case 4:
		if len(val) > 0 {
			val, bad = val[:len(val)-1], true
		}
	}
	return kernels.Sparse{Idx: idx, Val: val}, bad
}

// rows decodes GemvRows' row list for an m-row matrix; bad reports a row out of range.
func (d *decoder) rows(m int) (rows []int32, bad bool) {
	r := d.size(maxSide)
	if m == 0 {
		r = 0
	}
	rows = make([]int32, r)
	for k := range rows {
		rows[k] = int32((int(d.byte()) | int(d.byte())<<8) % m)
	}
	switch d.byte() % 32 {
	case 0:
		rows, bad = append(rows, int32(m)), true
	case 1:
		rows, bad = append(rows, -1), true
	}
	return rows, bad
}

func (o *diffOperand) idx(i, j int) int { return (o.l.top+i)*o.pc + o.l.left + j }

// setInit sets element k (row-major within the view) of the initial contents.
func (o *diffOperand) setInit(k int, v float64) {
	if o.vec {
		o.init[o.lo+k] = v
		return
	}
	o.init[o.idx(k/o.cols, k%o.cols)] = v
}

// data is a row-major copy of the view's initial contents.
func (o *diffOperand) data() []float64 {
	if o.vec {
		return append([]float64(nil), o.init[o.lo:o.lo+o.n]...)
	}
	d := make([]float64, 0, o.rows*o.cols)
	for i := range o.rows {
		d = append(d, o.init[o.idx(i, 0):o.idx(i, o.cols)]...)
	}
	return d
}

// view maps an index of the parent to the view's row-major index, or −1 outside it.
func (o *diffOperand) view(k int) int {
	if o.vec {
		if k < o.lo || k >= o.lo+o.n {
			return -1
		}
		return k - o.lo
	}
	i, j := k/o.pc-o.l.top, k%o.pc-o.l.left
	if i < 0 || i >= o.rows || j < 0 || j >= o.cols {
		return -1
	}
	return i*o.cols + j
}

// make creates the operand on b and returns the parent and the view.
func (o *diffOperand) make(b kernels.Backend) (parent, view kernels.Tensor) {
	if o.vec {
		p := b.NewVec(len(o.init))
		b.Upload(p, o.init)
		return p, p.Slice(o.lo, o.lo+o.n)
	}
	p := b.NewMat(o.pr, o.pc)
	b.Upload(p, o.init)
	if o.l == (layout{}) {
		return p, p
	}
	return p, p.Slice(o.l.top, o.l.top+o.rows, o.l.left, o.l.left+o.cols)
}

func (o *diffOperand) String() string {
	if o.vec {
		return fmt.Sprintf("[%d:%d] of %d", o.lo, o.lo+o.n, len(o.init))
	}
	if o.l == (layout{}) {
		return fmt.Sprintf("%d×%d", o.rows, o.cols)
	}
	return fmt.Sprintf("%d×%d at (%d,%d) of %d×%d", o.rows, o.cols, o.l.top, o.l.left, o.pr, o.pc)
}

// diffCase is one decoded operation.
type diffCase struct {
	what      string
	ops       []*diffOperand
	run       func(b kernels.Backend, t []kernels.Tensor)         // an operation with outputs
	scalar    func(b kernels.Backend, t []kernels.Tensor) float64 // or one returning a value
	tol       float64                                             // the tolerance of the value
	mustPanic bool
}

// diffResult is what one backend did.
type diffResult struct {
	value    float64
	parents  [][]float64
	panicked any
}

func (c *diffCase) exec(b kernels.Backend) diffResult {
	parents := make([]kernels.Tensor, len(c.ops))
	views := make([]kernels.Tensor, len(c.ops))
	for i, o := range c.ops {
		parents[i], views[i] = o.make(b)
	}
	var r diffResult
	r.panicked = catch(func() {
		if c.scalar != nil {
			r.value = c.scalar(b, views)
		} else {
			c.run(b, views)
		}
	})
	for _, p := range parents {
		out := make([]float64, p.Len())
		b.Download(out, p)
		r.parents = append(r.parents, out)
	}
	return r
}

func (c *diffCase) compare(t *testing.T, b, ref kernels.Backend) {
	t.Helper()
	got, want := c.exec(b), c.exec(ref)
	name, refName := "backend "+b.Name(), "reference "+ref.Name()
	if got.panicked != nil || want.panicked != nil {
		switch {
		case got.panicked == nil:
			t.Errorf("%s: %s did not panic; %s panicked with %q", c.what, name, refName, panicMessage(want.panicked))
		case want.panicked == nil:
			t.Errorf("%s: %s panicked with %q; %s did not", c.what, name, panicMessage(got.panicked), refName)
		}
		// The outputs' views may have been partly written before the panic.
		c.checkUntouched(t, name, got)
		c.checkUntouched(t, refName, want)
		return
	}
	c.checkUntouched(t, name, got)
	c.checkUntouched(t, refName, want)
	if c.mustPanic {
		t.Errorf("%s: the operands are malformed, but neither %s nor %s panicked", c.what, name, refName)
		return
	}
	if c.scalar != nil && !match(got.value, want.value, c.tol) {
		t.Errorf("%s = %v on %s, want %v as on %s (tolerance %.3g)", c.what, got.value, name, want.value, refName, c.tol)
	}
	for i, o := range c.ops {
		if !o.out {
			continue
		}
		r := reporter{t: t, what: c.what}
		for k, v := range got.parents[i] {
			e := o.view(k)
			if e < 0 || o.upper && e/o.cols > e%o.cols {
				continue
			}
			if w := want.parents[i][k]; !match(v, w, o.tol[e]) {
				r.errorf("%s[%s] = %v on %s, want %v as on %s (tolerance %.3g)", o.name, o.index(e), v, name, w, refName, o.tol[e])
			}
		}
		r.done()
	}
}

// index formats view element e as [i] or [i][j].
func (o *diffOperand) index(e int) string {
	if o.vec {
		return fmt.Sprint(e)
	}
	return fmt.Sprintf("%d][%d", e/o.cols, e%o.cols)
}

// checkUntouched checks that what must not change did not: inputs entirely, guards
// outside every view, and the strictly lower triangle of a symmetric output.
func (c *diffCase) checkUntouched(t *testing.T, who string, r diffResult) {
	t.Helper()
	for i, o := range c.ops {
		rep := reporter{t: t, what: c.what}
		for k, v := range r.parents[i] {
			e := o.view(k)
			keep := e < 0 || !o.out || o.upper && e/o.cols > e%o.cols
			if keep && math.Float64bits(v) != math.Float64bits(o.init[k]) {
				rep.errorf("%s changed %s's parent at %d (view element %d): got %v, want %v", who, o.name, k, e, v, o.init[k])
			}
		}
		rep.done()
	}
}
