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
	if e := DeviceFailure(r); e != nil {
		*err = e
		return
	}
	panic(r)
}

// DeviceFailure returns the value r that a panic carried as an error ("device
// failure: …") when a device backend raised it for a failure of the device itself (out
// of memory, a driver or cuBLAS error), and nil for any other value, which the caller
// should raise again. Code outside the engine that runs backends (the benchmark
// harness) recovers with it:
//
//	defer func() {
//		if r := recover(); r != nil {
//			if err = engine.DeviceFailure(r); err == nil {
//				panic(r)
//			}
//		}
//	}()
func DeviceFailure(r any) error {
	e, ok := r.(error)
	if !ok {
		return nil
	}
	var ce *cuda.Error
	if errors.As(e, &ce) || errors.Is(e, cuda.ErrOutOfMemory) || strings.HasPrefix(e.Error(), "cuda: ") {
		return fmt.Errorf("device failure: %w", e)
	}
	return nil
}
