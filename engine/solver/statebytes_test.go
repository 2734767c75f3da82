package solver

import (
	"runtime"
	"testing"

	"github.com/aucopt/aucopt/fallback"
)

// TestStateBytes checks each online learner's declared state size against what its
// constructor allocates on the host backend for 1,500 features (within a factor 1.5
// and 64 KiB), and that every algorithm declares one.
func TestStateBytes(t *testing.T) {
	const dim = 1500
	for _, spec := range Registry() {
		if spec.StateBytes == nil {
			t.Fatalf("%s: no StateBytes", spec.Name)
		}
		if spec.IsBatch() {
			if got := spec.StateBytes(dim, 1000, spec.Params()); got < 8*dim {
				t.Errorf("%s: StateBytes %g, less than one weight vector", spec.Name, got)
			}
			continue
		}
		t.Run(spec.Name, func(t *testing.T) {
			b := fallback.New()
			defer b.Close()
			params := spec.Params()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			l, err := spec.NewOnline(b, dim, params, 1)
			if err != nil {
				t.Fatal(err)
			}
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(l)
			alloc := float64(after.TotalAlloc - before.TotalAlloc)
			declared := spec.StateBytes(dim, 1000, params)
			t.Logf("%s: declared %.0f KiB, allocated %.0f KiB", spec.Name, declared/1024, alloc/1024)
			if declared > 1.5*alloc+64<<10 || alloc > 1.5*declared+64<<10 {
				t.Errorf("%s: declares %.0f bytes, its constructor allocates %.0f", spec.Name, declared, alloc)
			}
		})
	}
}
