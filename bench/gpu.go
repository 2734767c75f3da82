package bench

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/jobs"
	"github.com/aucopt/aucopt/kernels"
)

// GPUConfig configures GPU.
type GPUConfig struct {
	// Backends are the columns, the first the reference of the ratios; default
	// ["avx2", "cuda"] (the ratio is then avx2's time ÷ cuda's).
	Backends []string
	// Rows and Dim are the synthetic data's size; default epsilon's, 400,000 × 2,000
	// (data.EpsilonLike: 6.4 GB dense, on the host and, resident, on each backend).
	Rows, Dim int
	// PassRows limits the OPAUC pass to the first PassRows rows (0: all of them). One
	// OPAUC example costs a few d×d level-2 operations, so a full pass at d = 2,000 is
	// minutes on a CPU.
	PassRows int
	// Seed seeds the data and the algorithms.
	Seed uint64
	// Progress, when set, is called before each measurement.
	Progress func(op, backend string)
}

// GPURow is one workload timed on every backend.
type GPURow struct {
	Op      string    `json:"op"`
	Size    string    `json:"size"`
	Seconds []float64 `json:"seconds"` // one per backend, in GPUReport.Backends order
	// Ratio is the first backend's time ÷ each backend's (above 1: faster).
	Ratio []float64 `json:"ratio"`
	// Check is a number each backend should agree on (an AUC, or ‖Σ_S‖'s trace).
	Check []float64 `json:"check"`
}

// GPUReport is what GPU measured.
type GPUReport struct {
	Backends []string
	Detail   []string // each backend's ISA or device line
	Data     string
	Build    time.Duration // time to generate the data set on the host
	Rows     []GPURow
}

// GPU times the GPU path's three workloads on epsilon-sized synthetic data
// (dense Gaussian, linear truth with unit noise, 30% positive), once each per backend:
//
//   - MBA Σ_S: MBA-ℓ2's accumulation of Σ_S and μ_S over B·T = 1000·100 pairs (FitPath
//     with no penalties, so no host solve), with X resident on the backend and each
//     round's pair differences gathered there (RowDiff), one Syrk and one Gemv a round;
//     the time includes uploading X;
//   - OPAUC pass: one pass of OPAUC (d×d covariances resident, one Symv per example
//     and rank-1 updates) over PassRows rows;
//   - SPDAM epoch: an SPDAM fit capped at one epoch (⌈n/m⌉ = 10 mini-batches of 10%,
//     one duality-gap check), including building the centred X̄ on the backend.
//
// Each backend runs the same seeded workloads; the Check column (the trace of Σ_S, or
// the AUC of the weights on the training data) should agree to rounding.
func GPU(ctx context.Context, cfg GPUConfig) (_ *GPUReport, err error) {
	defer jobs.Recover(&err)
	names := cfg.Backends
	if len(names) == 0 {
		names = []string{"avx2", "cuda"}
	}
	rows, dim := cfg.Rows, cfg.Dim
	if rows == 0 {
		rows = 400_000
	}
	if dim == 0 {
		dim = 2_000
	}
	if rows < 20 || dim < 1 {
		return nil, inputError{fmt.Errorf("gpu bench: %d×%d data: want at least 20 rows and 1 feature", rows, dim)}
	}
	bs := make([]kernels.Backend, len(names))
	defer func() {
		for _, b := range bs {
			if b != nil {
				b.Close()
			}
		}
	}()
	rep := &GPUReport{Backends: names}
	for i, n := range names {
		b, err := backends.Open(n)
		if err != nil {
			return nil, inputError{err}
		}
		bs[i] = b
		rep.Detail = append(rep.Detail, kernels.DetailOf(b))
	}

	start := time.Now()
	s := data.EpsilonLike(0.3, cfg.Seed)
	s.Rows, s.Dim = rows, dim
	ds := (&data.Dataset{Name: fmt.Sprintf("epsilon-like-%dx%d", rows, dim), Dim: dim, Ptr: []int64{0}}).ToDense()
	ds.Dense = make([]float64, 0, rows*dim)
	var ex data.Example
	for i := range rows {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("gpu bench: %w", err)
			}
		}
		s.Row(i, &ex)
		ds.Append(ex.Y, float64(ex.Y), ex.X)
	}
	rep.Build = time.Since(start)
	rep.Data = ds.Name
	pass := ds
	if cfg.PassRows > 0 && cfg.PassRows < rows {
		pass = ds.Subset(seq(cfg.PassRows))
	}

	work := []struct {
		op, size string
		run      func(b kernels.Backend) (float64, error)
	}{
		{"MBA Σ_S", fmt.Sprintf("B=1000 T=100, d=%d", dim), func(b kernels.Backend) (float64, error) {
			m, err := solver.NewMBAL2(b, dim, solver.DefaultMBAL2Params(), cfg.Seed)
			if err != nil {
				return 0, err
			}
			m.SetResidentElements(int64(rows) * int64(dim))
			if _, err := m.FitPath(ctx, ds, nil); err != nil {
				return 0, err
			}
			_, sigma := m.Statistics()
			var tr float64
			for j := range dim {
				tr += sigma[j*dim+j]
			}
			return tr, nil
		}},
		{"OPAUC pass", fmt.Sprintf("%d×%d", pass.Rows(), dim), func(b kernels.Backend) (float64, error) {
			l, err := solver.NewOPAUC(b, dim, solver.DefaultOPAUCParams(), cfg.Seed)
			if err != nil {
				return 0, err
			}
			if _, err := solver.Run(ctx, l, solver.DatasetSource{D: pass}, solver.RunOptions{Passes: 1, Algo: "opauc", Dim: dim}); err != nil {
				return 0, err
			}
			return metric.AUC(engine.Score(l.Weights(), pass), pass.Y)
		}},
		{"SPDAM epoch", fmt.Sprintf("m=10%%, %d×%d", rows, dim), func(b kernels.Backend) (float64, error) {
			p := solver.DefaultSPDAMParams()
			p.Iters, p.Tol = 10, 1e-300
			l, err := solver.NewSPDAM(b, dim, p, cfg.Seed)
			if err != nil {
				return 0, err
			}
			if err := l.Fit(ctx, ds); err != nil {
				return 0, err
			}
			return metric.AUC(engine.Score(l.Weights(), ds), ds.Y)
		}},
	}
	for _, w := range work {
		row := GPURow{Op: w.op, Size: w.size}
		for i, b := range bs {
			if cfg.Progress != nil {
				cfg.Progress(w.op, names[i])
			}
			runtime.GC() // free the previous workload's tensors (a GPU backend frees on collection)
			t0 := time.Now()
			check, err := w.run(b)
			if err != nil {
				return nil, fmt.Errorf("gpu bench %s on %s: %w", w.op, names[i], err)
			}
			row.Seconds = append(row.Seconds, time.Since(t0).Seconds())
			row.Check = append(row.Check, check)
		}
		for i := range row.Seconds {
			row.Ratio = append(row.Ratio, row.Seconds[0]/row.Seconds[i])
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}

// seq returns 0, 1, …, n−1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
