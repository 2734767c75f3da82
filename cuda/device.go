package cuda

import "unsafe"

// dptr is a device address (CUdeviceptr).
type dptr uint64

// cuBLAS enumerations (cublas_api.h).
type (
	blasOp   int32 // cublasOperation_t
	blasFill int32 // cublasFillMode_t
	blasSide int32 // cublasSideMode_t
)

const (
	opN blasOp = 0 // CUBLAS_OP_N
	opT blasOp = 1 // CUBLAS_OP_T

	fillLower blasFill = 0 // CUBLAS_FILL_MODE_LOWER
	fillUpper blasFill = 1 // CUBLAS_FILL_MODE_UPPER

	sideLeft  blasSide = 0 // CUBLAS_SIDE_LEFT
	sideRight blasSide = 1 // CUBLAS_SIDE_RIGHT
)

// device is what the backend needs from a GPU: memory, transfers, the column-major
// cuBLAS routines it calls (increments are always 1, scalars are host values), and
// aucopt's kernels. The real one (driver_linux.go) calls the CUDA driver and cuBLAS; the
// tests' fake keeps "device memory" on the host and follows the reference BLAS, so that
// the row-major ↔ column-major mapping is checked on every machine.
//
// Every method returns the failure of the call it makes as an *Error.
type device interface {
	// describe is a line about the device, e.g. "NVIDIA H100 80GB HBM3, 79.1 GB, driver 12.8, cuBLAS 12".
	describe() string
	alloc(bytes int64) (dptr, error)
	free(p dptr) error
	memInfo() (free, total uint64, err error)

	// htod copies height rows of width bytes from host src (rows spitch bytes apart) to
	// dst (rows dpitch bytes apart); dtoh the other way. Both pitches must be at most
	// maxPitch, and width at most either pitch (cuMemcpy2D's limits).
	htod(dst dptr, dpitch int64, src unsafe.Pointer, spitch, width, height int64) error
	dtoh(dst unsafe.Pointer, dpitch int64, src dptr, spitch, width, height int64) error
	// maxPitch is the largest pitch htod and dtoh accept (CU_DEVICE_ATTRIBUTE_MAX_PITCH).
	maxPitch() int64
	// htodLinear and dtohLinear copy bytes contiguous bytes, of any size.
	htodLinear(dst dptr, src unsafe.Pointer, bytes int64) error
	dtohLinear(dst unsafe.Pointer, src dptr, bytes int64) error
	// memset sets bytes bytes from p to zero.
	memset(p dptr, bytes int64) error
	// sync waits until the stream's work is done.
	sync() error
	close() error

	dcopy(n int, x, y dptr) error
	ddot(n int, x, y dptr) (float64, error)
	daxpy(n int, alpha float64, x, y dptr) error
	dscal(n int, alpha float64, x dptr) error
	dgemv(trans blasOp, m, n int, alpha float64, a dptr, lda int, x dptr, beta float64, y dptr) error
	dsymv(uplo blasFill, n int, alpha float64, a dptr, lda int, x dptr, beta float64, y dptr) error
	dger(m, n int, alpha float64, x, y dptr, a dptr, lda int) error
	dsyr(uplo blasFill, n int, alpha float64, x dptr, a dptr, lda int) error
	dsyrk(uplo blasFill, trans blasOp, n, k int, alpha float64, a dptr, lda int, beta float64, c dptr, ldc int) error
	dsymm(side blasSide, uplo blasFill, m, n int, alpha float64, a dptr, lda int, b dptr, ldb int, beta float64, c dptr, ldc int) error

	// The kernels of kernels/aucopt.cu; idx, pos, neg and rows point to int32s.
	rowDiff(a dptr, lda, d int, pos, neg dptr, k int, out dptr, ldo int) error
	gatherRows(a dptr, lda, d int, rows dptr, k int, out dptr, ldo int) error
	gather(y, idx dptr, n int, out dptr) error
	scatter(alpha float64, val, idx dptr, n int, y dptr) error
}

// Large uploads (realDevice.htodLinear) are staged through two pinned buffers of
// stagingChunk bytes: the host fills one (in parallel) while the other's asynchronous
// copy runs. A pageable copy (cuMemcpyHtoD from Go memory) goes through the driver's
// own small staging buffers at a few GB/s; on an H200 host, uploading epsilon's 6.4 GB
// took most of MBA's time on the GPU (2026-11-26). Uploads of fewer than stagingMin
// bytes stay pageable.
const (
	stagingChunk = 32 << 20
	stagingMin   = 4 << 20
)
