// Package cuda will be the GPU kernels.Backend: the CUDA driver API and cuBLAS loaded at
// run time (github.com/ebitengine/purego, no cgo), with aucopt's own kernels as embedded
// PTX. See DESIGN.md for why it does not use gorgonia.org/cu.
//
// Until the CUDA backend is built, New always reports the backend as unavailable, so the
// selector and `aucopt backends` already have their final shape.
package cuda

import (
	"errors"

	"github.com/aucopt/aucopt/kernels"
)

// ErrUnavailable is wrapped by every error New returns when no usable GPU backend can be
// made; the wrapping error says why.
var ErrUnavailable = errors.New("cuda: unavailable")

// New returns the CUDA backend, or an error wrapping ErrUnavailable that says why there
// is none.
func New() (kernels.Backend, error) {
	return nil, errNotBuilt
}

var errNotBuilt = unavailable("not built yet")

// unavailable wraps ErrUnavailable with a reason.
func unavailable(reason string) error {
	return &unavailableError{reason}
}

type unavailableError struct{ reason string }

func (e *unavailableError) Error() string { return ErrUnavailable.Error() + ": " + e.reason }
func (e *unavailableError) Unwrap() error { return ErrUnavailable }
