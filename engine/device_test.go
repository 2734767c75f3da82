package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/cuda"
)

func TestRecoverDevice(t *testing.T) {
	run := func(v any) (err error) {
		defer recoverDevice(&err)
		panic(v)
	}
	oom := fmt.Errorf("cuda: NewMat(400000, 2000): %w allocating 6.40 GB", cuda.ErrOutOfMemory)
	if err := run(oom); !errors.Is(err, cuda.ErrOutOfMemory) || !strings.Contains(err.Error(), "NewMat(400000, 2000)") {
		t.Errorf("out of memory: %v", err)
	}
	if err := run(&cuda.Error{Call: "cuLaunchKernel", Msg: "too many resources"}); err == nil || !strings.Contains(err.Error(), "cuLaunchKernel") {
		t.Errorf("driver error: %v", err)
	}
	for _, v := range []any{"kernels: Dot: lengths 3 and 4 differ", errors.New("something else")} {
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
