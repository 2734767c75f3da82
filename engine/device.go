package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aucopt/aucopt/cuda"
)

// recoverDevice turns a panic that a device backend raised for a failure of the device
// itself (out of memory, a driver or cuBLAS error: kernels' operations cannot return
// errors) into *err, so that callers get an error naming the tensor and the call, not
// a crash. Any other panic (a programmer error) is raised again. Deferred by the
// engine's entry points; a panic on a goroutine of their own cannot be caught here,
// which is why the engine runs device backends on one goroutine.
func recoverDevice(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if e, ok := r.(error); ok {
		var ce *cuda.Error
		if errors.As(e, &ce) || errors.Is(e, cuda.ErrOutOfMemory) || strings.HasPrefix(e.Error(), "cuda: ") {
			*err = fmt.Errorf("device failure: %w", e)
			return
		}
	}
	panic(r)
}
