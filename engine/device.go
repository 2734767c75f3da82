package engine

import (
	"errors"
	"fmt"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/kernels"
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
// of memory, a driver or cuBLAS error: an error matching kernels.ErrDevice), and nil
// for any other value, which the caller should raise again. The error matches
// kernels.ErrDevice and is a failure of the run (fault.ErrRuntime), whatever wraps it.
// Code outside the engine that runs backends (the benchmark harness) recovers with it:
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
	if !errors.Is(e, kernels.ErrDevice) {
		return nil
	}
	return fault.Runtime(fmt.Errorf("device failure: %w", e))
}
