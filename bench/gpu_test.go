package bench

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/cuda/cudatest"
	"github.com/aucopt/aucopt/engine"
)

// TestGPUSmall runs the GPU benchmark's workloads on small data with the CPU
// backends: every row timed on both, and the backends agreeing on the checks.
func TestGPUSmall(t *testing.T) {
	names := []string{"generic", "generic"}
	if _, err := engine.Backend("avx2"); err == nil {
		names[1] = "avx2"
	}
	rep, err := GPU(context.Background(), GPUConfig{Backends: names, Rows: 600, Dim: 20, PassRows: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 3 {
		t.Fatalf("%d rows, want MBA Σ_S, OPAUC pass and SPDAM epoch", len(rep.Rows))
	}
	for _, r := range rep.Rows {
		if len(r.Seconds) != 2 || r.Seconds[0] <= 0 || r.Seconds[1] <= 0 || r.Ratio[0] != 1 {
			t.Errorf("%s: seconds %v, ratio %v", r.Op, r.Seconds, r.Ratio)
		}
		if math.Abs(r.Check[0]-r.Check[1]) > 1e-9*math.Abs(r.Check[0]) || r.Check[0] <= 0 {
			t.Errorf("%s: checks %v disagree", r.Op, r.Check)
		}
	}
	if r := rep.Rows[1]; r.Size != "200×20" {
		t.Errorf("OPAUC pass size %q, want 200×20", r.Size)
	}
}

// TestGPUNoGPU checks that the default GPU benchmark (avx2 vs cuda) fails at
// once, saying why, where cuda is unavailable.
func TestGPUNoGPU(t *testing.T) {
	if ok, _ := cuda.Available(); ok {
		t.Skip("a GPU is here")
	}
	_, err := GPU(context.Background(), GPUConfig{Rows: 100, Dim: 5, Backends: []string{"generic", "cuda"}})
	if !errors.Is(err, cuda.ErrUnavailable) {
		t.Errorf("GPU with cuda unavailable: error %v, want ErrUnavailable", err)
	}
}

// TestGPUCUDA runs the GPU benchmark's workloads small on the CUDA backend
// against a CPU backend: the checks (trace of Σ_S, training AUCs) must agree. It
// skips without a GPU, or fails where $AUCOPT_REQUIRE_CUDA=1.
func TestGPUCUDA(t *testing.T) {
	if ok, why := cuda.Available(); !ok {
		cudatest.Unavailable(t, why)
	}
	rep, err := GPU(context.Background(), GPUConfig{Backends: []string{"generic", "cuda"}, Rows: 3000, Dim: 50, PassRows: 500, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Rows {
		if math.Abs(r.Check[0]-r.Check[1]) > 1e-9*math.Abs(r.Check[0]) || r.Check[0] <= 0 {
			t.Errorf("%s: generic and cuda disagree: %v", r.Op, r.Check)
		}
	}
}
