package cuda

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// fakeDevice is a device whose memory is host memory and whose BLAS is a transcription
// of the reference BLAS (column-major, leading dimensions, uplo and trans as the
// Fortran routines read them, their quick returns included). Backend's row-major ↔
// column-major mapping, run against it, must pass kerneltest like any backend: that is
// how the mapping is checked on a machine without a GPU.
//
// Device addresses are (allocation number)<<40 + offset, so an address outside every
// allocation, or an access past an allocation's end, is caught.
type fakeDevice struct {
	mem    map[dptr][]uint64 // base → memory
	next   dptr
	limit  int64 // bytes the device holds; 0 for no limit
	pitch  int64 // the largest pitch of a 2D copy (CU_DEVICE_ATTRIBUTE_MAX_PITCH)
	used   int64
	calls  map[string]int
	closed bool
}

func newFakeDevice() *fakeDevice {
	return &fakeDevice{mem: map[dptr][]uint64{}, next: 1, calls: map[string]int{}, pitch: 1<<31 - 1}
}

const fakeShift = 40

func (f *fakeDevice) describe() string { return "fake device (host memory, reference BLAS)" }

func (f *fakeDevice) alloc(bytes int64) (dptr, error) {
	f.calls["alloc"]++
	if f.limit > 0 && f.used+bytes > f.limit {
		return 0, &Error{Call: "cuMemAlloc_v2", Msg: "CUDA_ERROR_OUT_OF_MEMORY (2): out of memory", Err: ErrOutOfMemory}
	}
	base := f.next << fakeShift
	f.next++
	m := make([]uint64, (bytes+7)/8)
	for i := range m {
		m[i] = ^uint64(0) // cuMemAlloc does not clear: fresh memory reads as NaN here
	}
	f.mem[base] = m
	f.used += bytes
	return base, nil
}

func (f *fakeDevice) free(p dptr) error {
	m, ok := f.mem[p]
	if !ok {
		return &Error{Call: "cuMemFree_v2", Msg: fmt.Sprintf("CUDA_ERROR_INVALID_VALUE: %#x is not an allocation", p)}
	}
	f.used -= int64(8 * len(m))
	delete(f.mem, p)
	return nil
}

func (f *fakeDevice) memInfo() (free, total uint64, err error) {
	if f.limit == 0 {
		return 1 << 40, 1 << 40, nil
	}
	return uint64(f.limit - f.used), uint64(f.limit), nil
}

// bytes returns n bytes of device memory from p, panicking (like a device fault, but
// with a message) on an access outside an allocation.
func (f *fakeDevice) bytes(p dptr, n int64) []byte {
	base := p >> fakeShift << fakeShift
	m, ok := f.mem[base]
	off := int64(p - base)
	if !ok || off < 0 || off+n > int64(8*len(m)) {
		panic(fmt.Sprintf("fake device: access of %d bytes at %#x outside every allocation", n, p))
	}
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&m[0]), off)), n)
}

func (f *fakeDevice) f64(p dptr, n int) []float64 {
	if n <= 0 {
		return nil
	}
	b := f.bytes(p, 8*int64(n))
	return unsafe.Slice((*float64)(unsafe.Pointer(&b[0])), n)
}

func (f *fakeDevice) i32(p dptr, n int) []int32 {
	if n <= 0 {
		return nil
	}
	b := f.bytes(p, 4*int64(n))
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), n)
}

// mat returns the column-major matrix at a with leading dimension lda, m rows and n
// columns, as the slice from A(1,1) to A(m,n).
func (f *fakeDevice) mat(a dptr, m, n, lda int) []float64 {
	if m == 0 || n == 0 {
		return nil
	}
	return f.f64(a, (n-1)*lda+m)
}

// copy2DArgs is cuMemcpy2D's argument check: pitches at most the maximum, the width
// within both.
func (f *fakeDevice) copy2DArgs(call string, dpitch, spitch, width int64) error {
	if dpitch > f.pitch || spitch > f.pitch || width > dpitch || width > spitch {
		return &Error{Call: call, Msg: fmt.Sprintf("CUDA_ERROR_INVALID_VALUE (1): pitches %d and %d, width %d, max pitch %d", dpitch, spitch, width, f.pitch)}
	}
	return nil
}

func (f *fakeDevice) htod(dst dptr, dpitch int64, src unsafe.Pointer, spitch, width, height int64) error {
	f.calls["htod"]++
	if err := f.copy2DArgs("cuMemcpy2D_v2 (upload)", dpitch, spitch, width); err != nil {
		return err
	}
	for r := range height {
		copy(f.bytes(dst+dptr(r*dpitch), width), unsafe.Slice((*byte)(unsafe.Add(src, r*spitch)), width))
	}
	return nil
}

func (f *fakeDevice) dtoh(dst unsafe.Pointer, dpitch int64, src dptr, spitch, width, height int64) error {
	f.calls["dtoh"]++
	if err := f.copy2DArgs("cuMemcpy2D_v2 (download)", dpitch, spitch, width); err != nil {
		return err
	}
	for r := range height {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, r*dpitch)), width), f.bytes(src+dptr(r*spitch), width))
	}
	return nil
}

func (f *fakeDevice) maxPitch() int64 { return f.pitch }

func (f *fakeDevice) htodLinear(dst dptr, src unsafe.Pointer, bytes int64) error {
	f.calls["htodLinear"]++
	copy(f.bytes(dst, bytes), unsafe.Slice((*byte)(src), bytes))
	return nil
}

func (f *fakeDevice) dtohLinear(dst unsafe.Pointer, src dptr, bytes int64) error {
	f.calls["dtohLinear"]++
	copy(unsafe.Slice((*byte)(dst), bytes), f.bytes(src, bytes))
	return nil
}

func (f *fakeDevice) memset(p dptr, bytes int64) error {
	f.calls["memset"]++
	clear(f.bytes(p, bytes))
	return nil
}

func (f *fakeDevice) sync() error { return nil }

func (f *fakeDevice) close() error {
	f.closed = true
	return nil
}

// errUndocumentedK0 is the fake's answer to a k = 0 call with beta ≠ 1, where the
// reference BLAS scales C but cuBLAS documents nothing: the backend must not rely on it.
func errUndocumentedK0(call string) error {
	return &Error{Call: call, Msg: "fake device: k = 0 with beta ≠ 1 has no documented cuBLAS result"}
}

// blasArg is the error cuBLAS returns for an invalid argument.
func blasArg(call string, ok bool) error {
	if ok {
		return nil
	}
	return &Error{Call: call, Msg: "CUBLAS_STATUS_INVALID_VALUE"}
}

func (f *fakeDevice) dcopy(n int, x, y dptr) error {
	f.calls["dcopy"]++
	copy(f.f64(y, n), f.f64(x, n))
	return nil
}

func (f *fakeDevice) ddot(n int, x, y dptr) (float64, error) {
	f.calls["ddot"]++
	xs, ys := f.f64(x, n), f.f64(y, n)
	var s float64
	for i := range n {
		s += xs[i] * ys[i]
	}
	return s, nil
}

func (f *fakeDevice) daxpy(n int, alpha float64, x, y dptr) error {
	f.calls["daxpy"]++
	if n <= 0 || alpha == 0 { // reference quick return
		return nil
	}
	xs, ys := f.f64(x, n), f.f64(y, n)
	for i := range n {
		ys[i] += alpha * xs[i]
	}
	return nil
}

func (f *fakeDevice) dscal(n int, alpha float64, x dptr) error {
	f.calls["dscal"]++
	xs := f.f64(x, n)
	for i := range xs {
		xs[i] *= alpha
	}
	return nil
}

// dgemv is the reference DGEMV: y := alpha·op(A)·x + beta·y, A m×n column-major.
func (f *fakeDevice) dgemv(trans blasOp, m, n int, alpha float64, a dptr, lda int, x dptr, beta float64, y dptr) error {
	f.calls["dgemv"]++
	if err := blasArg("cublasDgemv_v2", m >= 0 && n >= 0 && lda >= max(1, m) && (trans == opN || trans == opT)); err != nil {
		return err
	}
	if m == 0 || n == 0 || (alpha == 0 && beta == 1) {
		return nil
	}
	lenx, leny := n, m
	if trans == opT {
		lenx, leny = m, n
	}
	A, xs, ys := f.mat(a, m, n, lda), f.f64(x, lenx), f.f64(y, leny)
	if beta != 1 {
		for i := range ys {
			if beta == 0 {
				ys[i] = 0
			} else {
				ys[i] *= beta
			}
		}
	}
	if alpha == 0 {
		return nil
	}
	if trans == opN {
		for j := range n {
			t := alpha * xs[j]
			for i := range m {
				ys[i] += t * A[j*lda+i]
			}
		}
		return nil
	}
	for j := range n {
		var t float64
		for i := range m {
			t += A[j*lda+i] * xs[i]
		}
		ys[j] += alpha * t
	}
	return nil
}

// sym returns element (i, j) of the symmetric n×n column-major A stored in uplo.
func sym(A []float64, lda int, uplo blasFill, i, j int) float64 {
	if (uplo == fillUpper) == (i <= j) {
		return A[j*lda+i]
	}
	return A[i*lda+j]
}

// dsymv is the reference DSYMV: y := alpha·A·x + beta·y, reading A's uplo triangle.
func (f *fakeDevice) dsymv(uplo blasFill, n int, alpha float64, a dptr, lda int, x dptr, beta float64, y dptr) error {
	f.calls["dsymv"]++
	if err := blasArg("cublasDsymv_v2", n >= 0 && lda >= max(1, n)); err != nil {
		return err
	}
	if n == 0 || (alpha == 0 && beta == 1) {
		return nil
	}
	A, xs, ys := f.mat(a, n, n, lda), f.f64(x, n), f.f64(y, n)
	out := make([]float64, n)
	for i := range n {
		var t float64
		for j := range n {
			t += sym(A, lda, uplo, i, j) * xs[j]
		}
		out[i] = alpha * t
		if beta != 0 {
			out[i] += beta * ys[i]
		}
	}
	copy(ys, out)
	return nil
}

// dger is the reference DGER: A := alpha·x·yᵀ + A, A m×n.
func (f *fakeDevice) dger(m, n int, alpha float64, x, y dptr, a dptr, lda int) error {
	f.calls["dger"]++
	if err := blasArg("cublasDger_v2", m >= 0 && n >= 0 && lda >= max(1, m)); err != nil {
		return err
	}
	if m == 0 || n == 0 || alpha == 0 {
		return nil
	}
	A, xs, ys := f.mat(a, m, n, lda), f.f64(x, m), f.f64(y, n)
	for j := range n {
		t := alpha * ys[j]
		for i := range m {
			A[j*lda+i] += xs[i] * t
		}
	}
	return nil
}

// dsyr is the reference DSYR: A := alpha·x·xᵀ + A on A's uplo triangle.
func (f *fakeDevice) dsyr(uplo blasFill, n int, alpha float64, x dptr, a dptr, lda int) error {
	f.calls["dsyr"]++
	if err := blasArg("cublasDsyr_v2", n >= 0 && lda >= max(1, n)); err != nil {
		return err
	}
	if n == 0 || alpha == 0 {
		return nil
	}
	A, xs := f.mat(a, n, n, lda), f.f64(x, n)
	for j := range n {
		for i := range n {
			if (uplo == fillUpper && i <= j) || (uplo == fillLower && i >= j) {
				A[j*lda+i] += alpha * xs[i] * xs[j]
			}
		}
	}
	return nil
}

// dsyrk is the reference DSYRK: C := alpha·op(A)·op(A)ᵀ + beta·C on C's uplo triangle,
// op(A) n×k (A n×k for N, k×n for T).
func (f *fakeDevice) dsyrk(uplo blasFill, trans blasOp, n, k int, alpha float64, a dptr, lda int, beta float64, c dptr, ldc int) error {
	f.calls["dsyrk"]++
	nrowa := n
	if trans == opT {
		nrowa = k
	}
	if err := blasArg("cublasDsyrk_v2", n >= 0 && k >= 0 && lda >= max(1, nrowa) && ldc >= max(1, n)); err != nil {
		return err
	}
	if n == 0 || ((alpha == 0 || k == 0) && beta == 1) {
		return nil
	}
	if k == 0 {
		return errUndocumentedK0("cublasDsyrk_v2")
	}
	ar, ac := n, k
	if trans == opT {
		ar, ac = k, n
	}
	A, C := f.mat(a, ar, ac, lda), f.mat(c, n, n, ldc)
	opA := func(i, l int) float64 {
		if trans == opN {
			return A[l*lda+i]
		}
		return A[i*lda+l]
	}
	for j := range n {
		for i := range n {
			if !((uplo == fillUpper && i <= j) || (uplo == fillLower && i >= j)) {
				continue
			}
			var t float64
			for l := range k {
				t += opA(i, l) * opA(j, l)
			}
			v := alpha * t
			if alpha == 0 {
				v = 0 // the reference does not form the product when alpha = 0
			}
			if beta != 0 {
				v += beta * C[j*ldc+i]
			}
			C[j*ldc+i] = v
		}
	}
	return nil
}

// dsymm is the reference DSYMM: C := alpha·A·B + beta·C (side left, A m×m) or
// alpha·B·A + beta·C (side right, A n×n), A symmetric in its uplo triangle, B, C m×n.
func (f *fakeDevice) dsymm(side blasSide, uplo blasFill, m, n int, alpha float64, a dptr, lda int, b dptr, ldb int, beta float64, c dptr, ldc int) error {
	f.calls["dsymm"]++
	na := m
	if side == sideRight {
		na = n
	}
	if err := blasArg("cublasDsymm_v2", m >= 0 && n >= 0 && lda >= max(1, na) && ldb >= max(1, m) && ldc >= max(1, m)); err != nil {
		return err
	}
	if m == 0 || n == 0 || (alpha == 0 && beta == 1) {
		return nil
	}
	A, B, C := f.mat(a, na, na, lda), f.mat(b, m, n, ldb), f.mat(c, m, n, ldc)
	out := make([]float64, m*n)
	for j := range n {
		for i := range m {
			var t float64
			if side == sideLeft {
				for l := range m {
					t += sym(A, lda, uplo, i, l) * B[j*ldb+l]
				}
			} else {
				for l := range n {
					t += B[l*ldb+i] * sym(A, lda, uplo, l, j)
				}
			}
			v := alpha * t
			if beta != 0 {
				v += beta * C[j*ldc+i]
			}
			out[j*m+i] = v
		}
	}
	for j := range n {
		copy(C[j*ldc:j*ldc+m], out[j*m:(j+1)*m])
	}
	return nil
}

// The kernels of aucopt.cu, row-major with leading dimensions.

func (f *fakeDevice) rowDiff(a dptr, lda, d int, pos, neg dptr, k int, out dptr, ldo int) error {
	f.calls["rowDiff"]++
	ps, ns := f.i32(pos, k), f.i32(neg, k)
	for r := range k {
		xp, xq, o := f.f64(a+dptr(8*int(ps[r])*lda), d), f.f64(a+dptr(8*int(ns[r])*lda), d), f.f64(out+dptr(8*r*ldo), d)
		for j := range d {
			o[j] = xp[j] - xq[j]
		}
	}
	return nil
}

func (f *fakeDevice) gatherRows(a dptr, lda, d int, rows dptr, k int, out dptr, ldo int) error {
	f.calls["gatherRows"]++
	rs := f.i32(rows, k)
	for r := range k {
		copy(f.f64(out+dptr(8*r*ldo), d), f.f64(a+dptr(8*int(rs[r])*lda), d))
	}
	return nil
}

func (f *fakeDevice) gather(y, idx dptr, n int, out dptr) error {
	f.calls["gather"]++
	is, o := f.i32(idx, n), f.f64(out, n)
	for k, i := range is {
		o[k] = f.f64(y+dptr(8*int(i)), 1)[0]
	}
	return nil
}

func (f *fakeDevice) scatter(alpha float64, val, idx dptr, n int, y dptr) error {
	f.calls["scatter"]++
	is, vs := f.i32(idx, n), f.f64(val, n)
	for k, i := range is {
		f.f64(y+dptr(8*int(i)), 1)[0] += alpha * vs[k]
	}
	return nil
}

// TestFakeFlat checks Flat on the fake device: a whole matrix and a view of whole
// rows flatten to their elements in row-major order, sharing the storage (an Axpy on
// the flat vector is the elementwise sum), and a view of part of the columns does not.
func TestFakeFlat(t *testing.T) {
	b := newBackend(newFakeDevice())
	defer b.Close()
	const r, c = 6, 4
	vals := make([]float64, r*c)
	for i := range vals {
		vals[i] = float64(i) + 0.25
	}
	m := b.NewMat(r, c)
	b.Upload(m, vals)
	for _, tc := range []struct {
		name   string
		m      kernels.Mat
		i0, i1 int // the rows of m it views, all columns
		ok     bool
	}{
		{"whole", m, 0, r, true},
		{"rows 2–5", m.Slice(2, 5, 0, c), 2, 5, true},
		{"one row, part of it", m.Slice(3, 4, 1, 3), 3, 4, true},
		{"columns 1–3", m.Slice(0, r, 1, 3), 0, 0, false},
	} {
		v, ok := b.Flat(tc.m)
		if ok != tc.ok {
			t.Errorf("%s: Flat ok = %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if v.Len() != tc.m.Len() {
			t.Errorf("%s: Flat has %d elements, want %d", tc.name, v.Len(), tc.m.Len())
		}
		got := make([]float64, v.Len())
		b.Download(got, v)
		want := make([]float64, tc.m.Len())
		b.Download(want, tc.m)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: Flat = %v, want the matrix's %v", tc.name, got, want)
		}
	}
	// shared storage: doubling the flat vector doubles the matrix
	v, _ := b.Flat(m)
	b.Axpy(1, v, v)
	got := make([]float64, r*c)
	b.Download(got, m)
	for i := range got {
		if got[i] != 2*vals[i] {
			t.Fatalf("after Axpy on Flat(m), m[%d] = %v, want %v", i, got[i], 2*vals[i])
		}
	}
}

// TestFakeMBAMerge fits MBA-ℓ2's Σ_S on the fake device with its shards merged flat
// (kernels.Flattener) and row by row (the Flattener hidden): the same bits.
func TestFakeMBAMerge(t *testing.T) {
	const n, d = 300, 7
	ds := (&data.Dataset{Name: "merge", Dim: d, Ptr: []int64{0}}).ToDense()
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range n {
		x := make([]float64, d)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		y := int8(1)
		if i%3 != 0 {
			y = -1
		}
		ds.Append(y, float64(y), kernels.Sparse{Idx: []int32{0, 1, 2, 3, 4, 5, 6}, Val: x})
	}
	fit := func(be kernels.Backend) []float64 {
		p := solver.DefaultMBAL2Params()
		p.B, p.T = 20, 100 // 64 shards
		m, err := solver.NewMBAL2(be, d, p, 3)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.FitPath(context.Background(), ds, nil); err != nil {
			t.Fatal(err)
		}
		_, sigma := m.Statistics()
		return sigma
	}
	dev := newFakeDevice()
	b := newBackend(dev)
	defer b.Close()
	flat := fit(b)
	axpys := dev.calls["daxpy"]
	rows := fit(struct{ kernels.Backend }{b})
	if got := dev.calls["daxpy"] - axpys; got <= axpys {
		t.Errorf("row-by-row merges made %d Axpy calls, the flat ones %d: want more", got, axpys)
	}
	for i := range flat {
		if math.Float64bits(flat[i]) != math.Float64bits(rows[i]) {
			t.Fatalf("Σ_S[%d]: flat merge %v, row by row %v", i, flat[i], rows[i])
		}
	}
}

// TestFakeOPAUCFusedDots runs the OPAUC family on the fake device with a step's three
// dot products fused into one Gemv (the backend a kernels.Flattener) and one by one (the
// Flattener hidden): the same scores and weights to rounding, and on dense rows no Dot
// round trip once both classes have a row.
func TestFakeOPAUCFusedDots(t *testing.T) {
	const n, d = 200, 9
	type learner interface {
		Observe(x kernels.Sparse, y int8) float64
		Weights() []float64
	}
	cases := []struct {
		name  string
		dense bool
		extra int // Dot calls per step outside the core (AdaOAM's ‖w‖² for its ball)
		make  func(b kernels.Backend) (learner, error)
	}{
		{"opauc dense", true, 0, func(b kernels.Backend) (learner, error) {
			return solver.NewOPAUC(b, d, solver.OPAUCParams{Eta: 0.05, Lambda: 0.01}, 1)
		}},
		{"opauc sparse", false, 0, func(b kernels.Backend) (learner, error) {
			return solver.NewOPAUC(b, d, solver.OPAUCParams{Eta: 0.05, Lambda: 0.01}, 1)
		}},
		{"adaoam dense", true, 1, func(b kernels.Backend) (learner, error) {
			return solver.NewAdaOAM(b, d, solver.DefaultAdaOAMParams(), 1)
		}},
		{"opaucrp dense", true, 0, func(b kernels.Backend) (learner, error) {
			p := solver.DefaultOPAUCrpParams()
			p.Dims = 5
			return solver.NewOPAUCrp(b, d, p, 1)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, 7))
			xs := make([]kernels.Sparse, n)
			ys := make([]int8, n)
			for i := range xs {
				for j := range d {
					if tc.dense || rng.IntN(3) == 0 {
						xs[i].Idx = append(xs[i].Idx, int32(j))
						xs[i].Val = append(xs[i].Val, rng.NormFloat64()+float64(i%2))
					}
				}
				ys[i] = int8(2*(i%2) - 1)
				if i%5 == 0 {
					ys[i] = -ys[i]
				}
			}
			run := func(b kernels.Backend, dev *fakeDevice) (scores, w []float64, dots int) {
				l, err := tc.make(b)
				if err != nil {
					t.Fatal(err)
				}
				before := dev.calls["ddot"]
				for i := range xs {
					scores = append(scores, l.Observe(xs[i], ys[i]))
				}
				return scores, l.Weights(), dev.calls["ddot"] - before
			}
			dev := newFakeDevice()
			b := newBackend(dev)
			defer b.Close()
			fs, fw, fdots := run(b, dev)
			us, uw, udots := run(struct{ kernels.Backend }{b}, dev)
			close := func(what string, got, want []float64) {
				for i := range want {
					if diff := math.Abs(got[i] - want[i]); diff > 1e-9*(1+math.Abs(want[i])) || math.IsNaN(got[i]) {
						t.Fatalf("%s[%d]: fused %v, one by one %v", what, i, got[i], want[i])
					}
				}
			}
			close("score", fs, us)
			close("w", fw, uw)
			if tc.dense && fdots > 2+tc.extra*n {
				t.Errorf("fused: %d Dot calls (one by one %d), want at most %d per step and the 2 before both classes have a row", fdots, udots, tc.extra)
			}
			if fdots >= udots {
				t.Errorf("fused: %d Dot calls, one by one %d: want fewer", fdots, udots)
			}
		})
	}
}
