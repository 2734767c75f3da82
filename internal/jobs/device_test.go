package jobs

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/kernels"
)

func TestRecoverDevice(t *testing.T) {
	run := func(v any) (err error) {
		defer Recover(&err)
		panic(v)
	}
	oom := &cuda.Error{Call: "NewMat(400000, 2000)", Msg: "out of device memory allocating 6.40 GB", Err: cuda.ErrOutOfMemory}
	if err := run(oom); !errors.Is(err, cuda.ErrOutOfMemory) || !strings.Contains(err.Error(), "NewMat(400000, 2000)") {
		t.Errorf("out of memory: %v", err)
	}
	wrapped := fmt.Errorf("cuda: x: allocating 8 B: %w", &cuda.Error{Call: "cuMemAlloc_v2", Msg: "CUDA_ERROR_UNKNOWN"})
	for _, e := range []error{
		&cuda.Error{Call: "cuLaunchKernel", Msg: "too many resources"},
		wrapped,
		fmt.Errorf("%w: another device backend's failure", kernels.ErrDevice), // no backend's types known
	} {
		err := run(e)
		if err == nil || !errors.Is(err, kernels.ErrDevice) || !strings.HasPrefix(err.Error(), "device failure: ") || fault.IsInput(fault.Input(err)) {
			t.Errorf("%v: recovered as %v, want a device failure that is the run's whatever wraps it", e, err)
		}
	}
	// A message that only looks like the CUDA backend's is not a device failure: no
	// string matching.
	for _, v := range []any{"kernels: Dot: lengths 3 and 4 differ", errors.New("something else"), errors.New("cuda: Upload: not a tensor of this backend")} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%v: a programmer error's panic was swallowed", v)
				}
			}()
			_ = run(v)
		}()
	}
}
