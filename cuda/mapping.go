package cuda

import (
	"fmt"
	"unsafe"

	"github.com/aucopt/aucopt/internal/f64"
	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

// The operations, and the one place where aucopt's row-major conventions are mapped to
// cuBLAS's column-major ones.
//
// A row-major r×c matrix A with row stride ld is the column-major c×r matrix A' = Aᵀ
// with leading dimension ld, with no data moved. Hence:
//
//	Gemv      y = A·x     = A'ᵀ·x             dgemv(T, m=c, n=r, A', ld)
//	          y = Aᵀ·x    = A'·x              dgemv(N, m=c, n=r, A', ld)
//	Symv/Syr  A's upper triangle is A''s lower triangle: uplo = lower
//	Ger       A += αxyᵀ  ⇔ A' += αyxᵀ          dger(m=c, n=r, y, x, A')
//	Syrk      C = αAᵀA + βC, A k×d ⇔ C' = αA'A'ᵀ + βC', A' d×k:  dsyrk(lower, N, n=d, k)
//	Symm      C = αB·A + βC, A symmetric d×d, B, C k×d ⇔ C' = αA·B' + βC' (A' = A):
//	          dsymm(left, lower, m=d, n=k)
//
// cuBLAS returns early when alpha = 0 (and gemv when an inner dimension is 0, without
// scaling y); kernels wants the IEEE products, so those calls run on the host. So do
// Syrk with k = 0, where the reference BLAS sets C = beta·C (zero for beta = 0)
// and cuBLAS documents nothing.

// Copy sets dst = src.
func (b *Backend) Copy(dst, src kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	d, s := b.vec(dst), b.vec(src)
	host.CheckLen("Copy", d.n, s.n)
	if d.n > 0 {
		must(b.dev.dcopy(d.n, s.ptr(), d.ptr()))
	}
}

// Dot returns Σ x[i]·y[i].
func (b *Backend) Dot(x, y kernels.Vec) float64 {
	b.lock()
	defer b.mu.Unlock()
	xv, yv := b.vec(x), b.vec(y)
	host.CheckLen("Dot", xv.n, yv.n)
	if xv.n == 0 {
		return 0
	}
	r, err := b.dev.ddot(xv.n, xv.ptr(), yv.ptr())
	must(err)
	return r
}

// Axpy computes y += alpha·x.
func (b *Backend) Axpy(alpha float64, x, y kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	xv, yv := b.vec(x), b.vec(y)
	host.CheckLen("Axpy", xv.n, yv.n)
	switch {
	case xv.n == 0:
	case alpha == 0:
		hx, hy := b.hostVec(xv), b.hostVec(yv)
		f64.Axpy(alpha, hx.Data, hy.Data)
		b.upload(yv, hy.Data)
	default:
		must(b.dev.daxpy(xv.n, alpha, xv.ptr(), yv.ptr()))
	}
}

// Scal computes x *= alpha.
func (b *Backend) Scal(alpha float64, x kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	xv := b.vec(x)
	switch {
	case xv.n == 0:
	case alpha == 0:
		hx := b.hostVec(xv)
		f64.Scal(alpha, hx.Data)
		b.upload(xv, hx.Data)
	default:
		must(b.dev.dscal(xv.n, alpha, xv.ptr()))
	}
}

// sparseOperands checks x against y's length and uploads its indices and values to the
// scratch buffers.
func (b *Backend) sparseOperands(op string, x kernels.Sparse, yv *Vec) (idx, val dptr) {
	host.CheckSparse(op, x, yv.n)
	idx = b.uploadInt32(x.Idx)[0]
	vs := b.scratch(&b.fscr, 8*int64(len(x.Val)))
	n := 8 * int64(len(x.Val))
	b.put(vs.ptr, n, unsafe.Pointer(&x.Val[0]), n, n, 1)
	return idx, vs.ptr
}

// DotSparse returns Σ_k x.Val[k]·y[x.Idx[k]]: the gather on the device, then a dot.
func (b *Backend) DotSparse(x kernels.Sparse, y kernels.Vec) float64 {
	b.lock()
	defer b.mu.Unlock()
	yv := b.vec(y)
	if x.Nnz() == 0 {
		host.CheckSparse("DotSparse", x, yv.n)
		return 0
	}
	idx, val := b.sparseOperands("DotSparse", x, yv)
	g := b.scratch(&b.gscr, 8*int64(x.Nnz()))
	must(b.dev.gather(yv.ptr(), idx, x.Nnz(), g.ptr))
	r, err := b.dev.ddot(x.Nnz(), val, g.ptr)
	must(err)
	return r
}

// AxpySparse computes y[x.Idx[k]] += alpha·x.Val[k]: the scatter on the device.
func (b *Backend) AxpySparse(alpha float64, x kernels.Sparse, y kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	yv := b.vec(y)
	if x.Nnz() == 0 {
		host.CheckSparse("AxpySparse", x, yv.n)
		return
	}
	idx, val := b.sparseOperands("AxpySparse", x, yv)
	must(b.dev.scatter(alpha, val, idx, x.Nnz(), yv.ptr()))
}

// checkGemv panics unless A (r×c), x and y fit Gemv.
func checkGemv(op string, trans bool, r, c, nx, ny int) {
	in, out := c, r
	if trans {
		in, out = r, c
	}
	if nx != in || ny != out {
		panic(fmt.Sprintf("kernels: %s(trans=%t): A is %d×%d, x has %d and y %d elements", op, trans, r, c, nx, ny))
	}
}

// Gemv computes y = alpha·op(A)·x + beta·y.
func (b *Backend) Gemv(trans bool, alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	am, xv, yv := b.mat(a), b.vec(x), b.vec(y)
	checkGemv("Gemv", trans, am.rows, am.cols, xv.n, yv.n)
	b.gemv(trans, alpha, am, xv, beta, yv)
}

// gemv is Gemv on checked operands.
func (b *Backend) gemv(trans bool, alpha float64, am *Mat, xv *Vec, beta float64, yv *Vec) {
	switch {
	case yv.n == 0:
	case alpha == 0 || xv.n == 0:
		ha, hx, hy := b.hostMat(am), b.hostVec(xv), b.hostVec(yv)
		f64.Gemv(nil, trans, alpha, ha, nil, hx.Data, beta, hy.Data)
		b.upload(yv, hy.Data)
	default:
		op := opT // y = A·x = A'ᵀ·x
		if trans {
			op = opN // y = Aᵀ·x = A'·x
		}
		must(b.dev.dgemv(op, am.cols, am.rows, alpha, am.ptr(), am.lda(), xv.ptr(), beta, yv.ptr()))
	}
}

// GemvRows is Gemv on the rows of A listed in rows: they are gathered on the device
// into a contiguous block first.
func (b *Backend) GemvRows(trans bool, alpha float64, a kernels.Mat, rows []int32, x kernels.Vec, beta float64, y kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	am, xv, yv := b.mat(a), b.vec(x), b.vec(y)
	checkGemv("GemvRows", trans, len(rows), am.cols, xv.n, yv.n)
	for k, r := range rows {
		if uint(r) >= uint(am.rows) {
			panic(fmt.Sprintf("kernels: GemvRows: row %d (element %d) out of range [0, %d)", r, k, am.rows))
		}
	}
	k, d := len(rows), am.cols
	blk := &Mat{rows: k, cols: d, ld: d}
	if k > 0 && d > 0 {
		ri := b.uploadInt32(rows)[0]
		blk.buf = b.scratch(&b.gscr, 8*int64(k)*int64(d))
		must(b.dev.gatherRows(am.ptr(), am.lda(), d, ri, k, blk.ptr(), blk.lda()))
	} else {
		blk.buf = &buffer{b: b}
	}
	b.gemv(trans, alpha, blk, xv, beta, yv)
}

// Symv computes y = alpha·A·x + beta·y for a symmetric A stored in its upper triangle.
func (b *Backend) Symv(alpha float64, a kernels.Mat, x kernels.Vec, beta float64, y kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	am, xv, yv := b.mat(a), b.vec(x), b.vec(y)
	n := xv.n
	if am.rows != n || am.cols != n || yv.n != n {
		panic(fmt.Sprintf("kernels: Symv: A is %d×%d, x has %d and y %d elements", am.rows, am.cols, xv.n, yv.n))
	}
	switch {
	case n == 0:
	case alpha == 0:
		ha, hx, hy := b.hostMat(am), b.hostVec(xv), b.hostVec(yv)
		f64.Symv(nil, alpha, ha, hx.Data, beta, hy.Data)
		b.upload(yv, hy.Data)
	default:
		must(b.dev.dsymv(fillLower, n, alpha, am.ptr(), am.lda(), xv.ptr(), beta, yv.ptr()))
	}
}

// Syr computes the upper triangle of A += alpha·x·xᵀ.
func (b *Backend) Syr(alpha float64, x kernels.Vec, a kernels.Mat) {
	b.lock()
	defer b.mu.Unlock()
	xv, am := b.vec(x), b.mat(a)
	host.CheckSquare("Syr", shape(am), xv.n)
	switch {
	case xv.n == 0:
	case alpha == 0:
		hx, ha := b.hostVec(xv), b.hostMat(am)
		f64.Syr(alpha, hx.Data, ha)
		b.upload(am, ha.Data)
	default:
		must(b.dev.dsyr(fillLower, xv.n, alpha, xv.ptr(), am.ptr(), am.lda()))
	}
}

// Ger computes A += alpha·x·yᵀ.
func (b *Backend) Ger(alpha float64, x, y kernels.Vec, a kernels.Mat) {
	b.lock()
	defer b.mu.Unlock()
	xv, yv, am := b.vec(x), b.vec(y), b.mat(a)
	if am.rows != xv.n || am.cols != yv.n {
		panic(fmt.Sprintf("kernels: Ger: A is %d×%d, x has %d, y has %d elements", am.rows, am.cols, xv.n, yv.n))
	}
	switch {
	case xv.n == 0 || yv.n == 0:
	case alpha == 0:
		hx, hy, ha := b.hostVec(xv), b.hostVec(yv), b.hostMat(am)
		f64.Ger(alpha, hx.Data, hy.Data, ha)
		b.upload(am, ha.Data)
	default:
		must(b.dev.dger(am.cols, am.rows, alpha, yv.ptr(), xv.ptr(), am.ptr(), am.lda()))
	}
}

// Syrk computes the upper triangle of C = alpha·AᵀA + beta·C.
func (b *Backend) Syrk(alpha float64, a kernels.Mat, beta float64, c kernels.Mat) {
	b.lock()
	defer b.mu.Unlock()
	am, cm := b.mat(a), b.mat(c)
	d := am.cols
	if cm.rows != d || cm.cols != d {
		panic(fmt.Sprintf("kernels: Syrk: A is %d×%d, so C must be %d×%d, not %d×%d", am.rows, d, d, d, cm.rows, cm.cols))
	}
	switch {
	case d == 0:
	case am.rows == 0 && beta == 1: // the reference BLAS's quick return
	case alpha == 0 || am.rows == 0: // k = 0: C = beta·C (0 for beta = 0) on the host, not cuBLAS's undocumented k = 0
		ha, hc := b.hostMat(am), b.hostMat(cm)
		f64.Syrk(nil, alpha, ha, beta, hc)
		b.upload(cm, hc.Data)
	default:
		must(b.dev.dsyrk(fillLower, opN, d, am.rows, alpha, am.ptr(), am.lda(), beta, cm.ptr(), cm.lda()))
	}
}

// Symm computes C = alpha·B·A + beta·C for a symmetric A stored in its upper triangle.
func (b *Backend) Symm(alpha float64, a kernels.Mat, bm kernels.Mat, beta float64, c kernels.Mat) {
	b.lock()
	defer b.mu.Unlock()
	am, bv, cm := b.mat(a), b.mat(bm), b.mat(c)
	host.CheckSymm(shape(am), shape(bv), shape(cm))
	d, k := am.cols, bv.rows
	switch {
	case d == 0 || k == 0:
	case alpha == 0:
		ha, hb, hc := b.hostMat(am), b.hostMat(bv), b.hostMat(cm)
		f64.Symm(nil, alpha, ha, hb, beta, hc)
		b.upload(cm, hc.Data)
	default:
		must(b.dev.dsymm(sideLeft, fillLower, d, k, alpha, am.ptr(), am.lda(), bv.ptr(), bv.lda(), beta, cm.ptr(), cm.lda()))
	}
}

// RowDiff sets out[k,:] = A[pos[k],:] − A[neg[k],:] on the device; only the indices
// travel from the host.
func (b *Backend) RowDiff(a kernels.Mat, pos, neg []int32, out kernels.Mat) {
	b.lock()
	defer b.mu.Unlock()
	am, om := b.mat(a), b.mat(out)
	host.CheckRowDiff(am.rows, am.cols, pos, neg, om.rows, om.cols)
	if len(pos) == 0 || am.cols == 0 {
		return
	}
	p := b.uploadInt32(pos, neg)
	must(b.dev.rowDiff(am.ptr(), am.lda(), am.cols, p[0], p[1], len(pos), om.ptr(), om.lda()))
}

// Gather sets out[k] = x[idx[k]] on the device (kernel aucopt_gather); only the indices
// travel from the host.
func (b *Backend) Gather(x kernels.Vec, idx []int32, out kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	xv, ov := b.vec(x), b.vec(out)
	host.CheckGather(idx, xv.n, ov.n)
	if len(idx) == 0 {
		return
	}
	must(b.dev.gather(xv.ptr(), b.uploadInt32(idx)[0], len(idx), ov.ptr()))
}

// ScatterAdd computes y[idx[k]] += alpha·x[k] on the device (kernel aucopt_scatter, one
// thread per index: the indices were checked distinct on the host); only the indices
// travel from the host. alpha = 0 multiplies on the device too.
func (b *Backend) ScatterAdd(alpha float64, x kernels.Vec, idx []int32, y kernels.Vec) {
	b.lock()
	defer b.mu.Unlock()
	xv, yv := b.vec(x), b.vec(y)
	host.CheckScatterAdd(idx, xv.n, yv.n)
	if len(idx) == 0 {
		return
	}
	must(b.dev.scatter(alpha, xv.ptr(), b.uploadInt32(idx)[0], len(idx), yv.ptr()))
}
