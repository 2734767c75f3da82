// Package jobs runs independent jobs on a compute backend for the engine and the
// experiments: one worker policy (Workers), the fan-out with first-failure
// cancellation (Run), and the recovery of a device backend's failures from panics into
// errors (Recover, DeviceFailure).
package jobs

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/kernels"
)

// Workers is the one worker policy for parallel jobs: want goroutines
// (GOMAXPROCS when want ≤ 0), at most n, and one on a backend not safe for concurrent
// use (ConcurrentSafe).
func Workers(b kernels.Backend, want, n int) int {
	if want <= 0 {
		want = runtime.GOMAXPROCS(0)
	}
	if !ConcurrentSafe(b) {
		want = 1
	}
	return max(min(want, n), 1)
}

// ConcurrentSafe reports whether jobs may run on b from several goroutines
// at once: when b says so (kernels.Concurrent) and panics only for programmer errors.
// A backend that is safe for concurrent calls but panics for device failures
// (kernels.SafeDevicePanics) runs on the entry point's goroutine, where Recover
// turns those panics into errors.
func ConcurrentSafe(b kernels.Backend) bool {
	return kernels.ConcurrencyOf(b) == kernels.Safe
}

// Error is the error of job Index of Run.
type Error struct {
	Index int
	Err   error
}

func (e *Error) Error() string { return fmt.Sprintf("job %d: %v", e.Index, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Run runs job(ctx, jb, i) for i in [0, n) on Workers(b, workers, n) goroutines,
// each job on its own view jb of b when several run at once (kernels.PerJob), and
// calls done(i, count) (when not nil) after each success, one call at a time. The
// first failure cancels the jobs not yet started and is returned as a *Error; when
// ctx ends first, its error is returned.
func Run(ctx context.Context, b kernels.Backend, n, workers int,
	job func(ctx context.Context, b kernels.Backend, i int) error, done func(i, count int)) error {
	workers = Workers(b, workers, n)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var (
		mu    sync.Mutex
		count int
		first *Error
		wg    sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for i := range next {
				if ctx.Err() != nil {
					continue
				}
				jb, release := kernels.PerJob(b, workers)
				err := job(ctx, jb, i)
				release()
				mu.Lock()
				switch {
				case err == nil:
					count++
					if done != nil {
						done(i, count)
					}
				case first == nil && ctx.Err() == nil:
					first = &Error{Index: i, Err: err}
					cancel()
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if first != nil {
		return first
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("stopped: %w", err)
	}
	return nil
}

// Recover turns a panic that a device backend raised for a failure of the device
// itself (out of memory, a driver or cuBLAS error: kernels' operations cannot return
// errors) into *err, so that callers get an error naming the tensor and the call, not
// a crash. Any other panic (a programmer error) is raised again. Deferred by the
// engine's entry points; a panic on a goroutine of their own cannot be caught here,
// which is why the engine runs device backends on one goroutine.
func Recover(err *error) {
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
// Code that recovers by hand (not with Recover) calls it:
//
//	defer func() {
//		if r := recover(); r != nil {
//			if err = jobs.DeviceFailure(r); err == nil {
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
