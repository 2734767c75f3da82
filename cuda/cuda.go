// Package cuda is the GPU kernels.Backend: the CUDA driver API (libcuda.so.1) and cuBLAS
// (libcublas.so.13, .12 or .11) loaded at run time with github.com/ebitengine/purego —
// no cgo and no CUDA toolkit to build or test it — plus aucopt's own kernels as PTX
// embedded in the binary (kernels/aucopt.cu; `go generate ./cuda` rebuilds the PTX with
// nvcc). See docs/DESIGN.md, "Why not gorgonia.org/cu".
//
// On a machine without the NVIDIA driver, without cuBLAS, without a device, or with a
// driver too old for the PTX, New returns an error wrapping ErrUnavailable that says
// which; so does every build other than linux/amd64 and linux/arm64. The engine's
// selector then falls back to the CPU backends.
//
// # Layout
//
// aucopt's matrices are row-major; cuBLAS's are column-major. A row-major r×c matrix
// with row stride ld is, byte for byte, the column-major c×r matrix Aᵀ with leading
// dimension ld, so no data moves: each operation is mapped once (mapping.go) to the
// cuBLAS call on the transposed views, and row-major "upper triangle" becomes
// column-major "lower". The mapping is tested on every machine against the pure-Go
// backend through a fake device whose column-major BLAS follows the reference BLAS.
//
// # Kernels
//
// The operations run on the device (but for the rare alpha = 0 calls, see Semantics);
// aucopt's own PTX kernels cover what cuBLAS has no routine for. The custom kernels the
// GPU path needs, and what each maps to:
//
//   - MBA's block of positive–negative pair differences, gathered from a resident X:
//     RowDiff, kernel aucopt_rowdiff (then cuBLAS dsyrk and dgemv);
//   - centring a mini-batch for covariance accumulation: Ger, cuBLAS dger. The rank-1
//     update X −= 1·meanᵀ centres every row at once (stats.Moments.AddBlock: dgemv for
//     the block mean, dger, dsyrk); OPAUC's pending rows are centred as they arrive
//     (Copy, then Axpy or AxpySparse, on the device). No path downloads a block to
//     centre it;
//   - SPDAM's dual update with X̄ and β resident: Gather (kernel aucopt_gather) reads β_I,
//     ScatterAdd (kernel aucopt_scatter, one thread per index, no atomics: the indices
//     are checked distinct on the host) writes β_I += Δβ, around two GemvRows; only the
//     batch's index list goes to the device, and only the w-step's scalar b·q (a ddot)
//     comes back;
//   - the sparse gather and scatter of DotSparse and AxpySparse: the same two kernels
//     (DotSparse then a cuBLAS ddot), the sparse row's indices and values uploaded;
//   - GemvRows's mini-batch of rows: kernel aucopt_gatherrows into a contiguous block,
//     then dgemv.
//
// # Semantics
//
// kernels requires alpha = 0 to multiply (NaN and Inf in the operands propagate), where
// cuBLAS returns early; the backend runs the rare alpha = 0 calls on the host with the
// reference loops (package internal/f64). Argument errors panic with a "kernels:" or "cuda:" prefix; a device
// error (a failed cuBLAS call, a failed launch, device memory exhausted) panics with an
// *Error naming the call and the driver's or cuBLAS's message, never a silent wrong
// result; every *Error matches kernels.ErrDevice, which is how the engine tells a
// device's failure from a programmer's error without knowing this package. Operations
// are serialised by a mutex, so the backend is safe for concurrent use; one stream
// carries all work.
package cuda

import (
	"errors"
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// ErrUnavailable is wrapped by every error New returns when no usable GPU backend can be
// made; the wrapping error says why.
var ErrUnavailable = errors.New("cuda: unavailable")

// ErrOutOfMemory is wrapped by the *Error a backend panics with when the device cannot
// hold a tensor; the message names the tensor, its size and the memory left.
var ErrOutOfMemory = errors.New("out of device memory")

// New returns the CUDA backend on device 0, or an error wrapping ErrUnavailable that says
// why there is none (library missing, no device, driver too old, PTX rejected). The
// caller closes the backend.
//
// The driver (libcuda.so.1) and cuBLAS (libcublas.so.13, .12 or .11) are looked for in
// the loader's path, CUDA toolkits ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda*) and
// Python environments (pip's nvidia-cublas), or cuBLAS where $AUCOPT_CUBLAS names it;
// each file found is tried in turn until one initialises. Discover reports the search.
func New() (*Backend, error) {
	dev, _, err := openDevice(false)
	if err != nil {
		return nil, err
	}
	return newBackend(dev), nil
}

// Available reports whether New would succeed here and, when not, why. It opens and
// closes the device to find out.
func Available() (ok bool, reason string) {
	b, err := New()
	if err != nil {
		return false, err.Error()
	}
	b.Close()
	return true, ""
}

// unavailable wraps ErrUnavailable with a reason.
func unavailable(format string, args ...any) error {
	return &unavailableError{fmt.Sprintf(format, args...)}
}

type unavailableError struct{ reason string }

func (e *unavailableError) Error() string { return ErrUnavailable.Error() + ": " + e.reason }
func (e *unavailableError) Unwrap() error { return ErrUnavailable }

// Error is a failure reported by the CUDA driver, cuBLAS or the device: the value the
// backend's operations panic with (they have no error results), and the cause of an
// unavailable backend.
type Error struct {
	Call string // the failing call, e.g. "cublasDgemv_v2" or "NewMat(400000, 2000)"
	Msg  string // the driver's or cuBLAS's message
	Err  error  // a sentinel such as ErrOutOfMemory, or nil
}

// Error returns "cuda: CALL: MESSAGE".
func (e *Error) Error() string { return "cuda: " + e.Call + ": " + e.Msg }

// Unwrap returns the sentinel, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports that every *Error is a failure of the device: it matches kernels.ErrDevice.
func (e *Error) Is(target error) bool { return target == kernels.ErrDevice }

// oomError is the error of an allocation of bytes for what (e.g. "NewMat(400000, 2000)")
// that did not fit in free of total bytes of device memory.
func oomError(what string, bytes int64, free, total uint64) *Error {
	return &Error{
		Call: what,
		Msg: fmt.Sprintf("%v allocating %s (%d bytes) with %s free of %s",
			ErrOutOfMemory, humanBytes(uint64(bytes)), bytes, humanBytes(free), humanBytes(total)),
		Err: ErrOutOfMemory,
	}
}

// humanBytes formats n as e.g. "6.40 GB".
func humanBytes(n uint64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.2f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.2f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.2f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
