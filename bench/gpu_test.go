package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/cuda/cudatest"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// TestGPUSmall runs the GPU benchmark's workloads on small data with the CPU
// backends: every row timed on both, and the backends agreeing on the checks.
func TestGPUSmall(t *testing.T) {
	names := []string{"generic", "generic"}
	if _, err := backends.Open("avx2"); err == nil {
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

// BenchmarkGPUMBA splits the GPU benchmark's MBA Σ_S workload on the CUDA backend
// (400,000 × 2,000 unless -short: 100,000 × 2,000) into its parts: uploading X,
// and the whole FitPath (upload, B·T = 1000·100 pairs gathered, Syrk and Gemv a round,
// the shards merged), with 1 and 4 shard workers. It skips without a GPU.
func BenchmarkGPUMBA(b *testing.B) {
	be, ds := gpuWorkload(b)
	defer be.Close()
	rows, dim := ds.Rows(), ds.Dim
	b.Run("upload", func(b *testing.B) {
		b.SetBytes(8 * int64(rows) * int64(dim))
		for b.Loop() {
			x := be.NewMat(rows, dim)
			be.Upload(x, ds.Dense)
			x = nil
			runtime.GC()
		}
	})
	for _, workers := range []int{1, 4} {
		b.Run(fmt.Sprintf("fitpath/workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				m, err := solver.NewMBAL2(be, dim, solver.DefaultMBAL2Params(), 1)
				if err != nil {
					b.Fatal(err)
				}
				m.SetResidentElements(int64(rows) * int64(dim))
				m.SetWorkers(workers)
				if _, err := m.FitPath(context.Background(), ds, nil); err != nil {
					b.Fatal(err)
				}
				m = nil
				runtime.GC()
			}
		})
	}
}

// epsilonDense returns rows×dim epsilon-like dense data (seed 1), as the GPU benchmark
// builds it.
func epsilonDense(rows, dim int) *data.Dataset {
	s := data.EpsilonLike(0.3, 1)
	s.Rows, s.Dim = rows, dim
	ds := (&data.Dataset{Name: "epsilon-like", Dim: dim, Ptr: []int64{0}}).ToDense()
	ds.Dense = make([]float64, 0, rows*dim)
	var ex data.Example
	for i := range rows {
		s.Row(i, &ex)
		ds.Append(ex.Y, float64(ex.Y), ex.X)
	}
	return ds
}

// BenchmarkGPUOPAUC times one OPAUC pass over 4,000 epsilon-like rows of 2,000 features
// on the CUDA backend (the GPU benchmark's OPAUC pass, shorter), for a CPU profile of
// the host's share. It skips without a GPU.
func BenchmarkGPUOPAUC(b *testing.B) {
	be := cudaBackend(b)
	defer be.Close()
	const dim = 2_000
	ds := epsilonDense(4_000, dim)
	for b.Loop() {
		l, err := solver.NewOPAUC(be, dim, solver.DefaultOPAUCParams(), 1)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := solver.Run(context.Background(), l, solver.DatasetSource{D: ds}, solver.RunOptions{Passes: 1, Algo: "opauc", Dim: dim}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGPUSPDAM times one SPDAM epoch (ten mini-batches of 10 %, X̄ built on the
// device) on 400,000 × 2,000 epsilon-like rows on the CUDA backend (100,000 with
// -short), for a CPU profile of the host's share. It skips without a GPU.
func BenchmarkGPUSPDAM(b *testing.B) {
	be, ds := gpuWorkload(b)
	defer be.Close()
	for b.Loop() {
		p := solver.DefaultSPDAMParams()
		p.Iters, p.Tol = 10, 1e-300
		l, err := solver.NewSPDAM(be, ds.Dim, p, 1)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Fit(context.Background(), ds); err != nil {
			b.Fatal(err)
		}
		l = nil
		runtime.GC()
	}
}

// gpuWorkload returns the CUDA backend (or skips b without a GPU) and the GPU
// benchmark's epsilon-like data: 400,000 × 2,000, or 100,000 × 2,000 with -short.
func gpuWorkload(b *testing.B) (kernels.Backend, *data.Dataset) {
	be := cudaBackend(b)
	rows := 400_000
	if testing.Short() {
		rows = 100_000
	}
	return be, epsilonDense(rows, 2_000)
}

// cudaBackend returns the CUDA backend, or skips b without a GPU.
func cudaBackend(b *testing.B) kernels.Backend {
	if ok, why := cuda.Available(); !ok {
		b.Skip(why)
	}
	be, err := backends.Open("cuda")
	if err != nil {
		b.Fatal(err)
	}
	return be
}
