package kernels

import "errors"

// Optional capabilities: small interfaces a Backend may also implement, so that callers
// learn what a backend can do by asking it, never from its name.

// ErrDevice is matched (errors.Is) by the errors of a device backend's failures of the
// device itself: device memory exhausted, a failed driver or library call, a failed
// launch. Operations have no error results, so a backend panics with such an error
// (SafeDevicePanics); whoever runs a device backend recovers the panics whose
// value matches ErrDevice and raises every other again (a programmer error). A backend's
// own sentinels, such as cuda.ErrOutOfMemory, stay matched alongside.
var ErrDevice = errors.New("device failure")

// Describer is implemented by backends that can say more than their Name: the
// instruction sets they use, or the device, driver and libraries they run on. The text
// is one line, for `aucopt backends` and the result files.
type Describer interface {
	Backend
	// Detail is the one-line description.
	Detail() string
}

// Concurrency is what a backend promises about calls from several goroutines at once.
type Concurrency int

const (
	// Serial: one goroutine at a time. A backend that does not implement Concurrent is
	// Serial.
	Serial Concurrency = iota
	// SafeDevicePanics: calls may come from several goroutines at once (the backend
	// serialises them), but a failure of the device itself (memory exhausted, a driver
	// or library error) panics with an error value, because the operations have no
	// error results; only a recover deferred on the goroutine that made the call can
	// turn it into an error. Callers that report device failures as errors therefore
	// run such a backend on their own goroutine.
	SafeDevicePanics
	// Safe: calls may come from any number of goroutines at once, and the backend only
	// panics for a programmer's error: jobs may run on as many goroutines as there are
	// cores.
	Safe
)

// String returns the constant's name.
func (c Concurrency) String() string {
	switch c {
	case Serial:
		return "serial"
	case SafeDevicePanics:
		return "safe, device panics on the caller"
	case Safe:
		return "safe"
	}
	return "Concurrency(?)"
}

// Concurrent is implemented by backends that state their Concurrency.
type Concurrent interface {
	Backend
	// Concurrency is the backend's promise; it does not change over its life.
	Concurrency() Concurrency
}

// ConcurrencyOf returns b's promise: Serial unless b implements Concurrent.
func ConcurrencyOf(b Backend) Concurrency {
	if c, ok := b.(Concurrent); ok {
		return c.Concurrency()
	}
	return Serial
}

// DetailOf returns b's one-line description, or "" unless b implements Describer.
func DetailOf(b Backend) string {
	if d, ok := b.(Describer); ok {
		return d.Detail()
	}
	return ""
}

// Viewer is implemented by backends whose tensors live in the host's memory (the CPU
// backends): a caller's slice can serve as a matrix without a copy, so that a solver
// reads a dataset's dense rows where they are instead of uploading a second copy.
type Viewer interface {
	Backend
	// ViewMat returns the rows×cols row-major matrix whose storage is data, which must
	// hold rows·cols elements (it panics otherwise): no copy is made, and writes to the
	// matrix are writes to data. The caller must not change data while the matrix is
	// in use.
	ViewMat(rows, cols int, data []float64) Mat
}

// ViewOrUpload returns data as a rows×cols matrix of b: a view of it when b is a Viewer,
// else a new matrix holding a copy. The caller must not change data while the matrix is
// in use, nor write the matrix unless it owns data.
func ViewOrUpload(b Backend, rows, cols int, data []float64) Mat {
	if v, ok := b.(Viewer); ok {
		return v.ViewMat(rows, cols, data)
	}
	m := b.NewMat(rows, cols)
	b.Upload(m, data)
	return m
}

// Flattener is implemented by backends where each call has a fixed cost that dwarfs
// small operations (a GPU's kernel launch and the host round trip): a whole contiguous
// matrix can be taken as one vector, so that, e.g., adding two d×d matrices is one Axpy
// instead of d. The CPU backends do not implement it: there a row-by-row operation
// costs no more, and can skip a triangle that a flat one would have to read.
type Flattener interface {
	Backend
	// Flat returns the rows·cols elements of m, in row-major order, as a vector that
	// shares m's storage, when m is contiguous (its rows are adjacent: a whole matrix
	// from NewMat, or a view of whole rows of one); ok is false otherwise.
	Flat(m Mat) (v Vec, ok bool)
}
