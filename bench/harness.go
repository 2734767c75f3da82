package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/jobs"
	"github.com/aucopt/aucopt/kernels"
)

// DefaultAlgos are the algorithms Run times when Config.Algos is empty:
// one pass of OPAUC and SPAM-L2 and an MBA fit.
var DefaultAlgos = []string{"opauc", "spam-l2", "mba-l2"}

// Config configures Run.
type Config struct {
	// Backends are the selector names to compare (generic, avx2, cuda); empty means every
	// available one. Ratios are taken against generic, which is measured whenever it
	// is listed.
	Backends []string
	// Algos are registered algorithm names to time on the synthetic data (default
	// DefaultAlgos); names not registered are skipped with a note.
	Algos []string
	// Quick shrinks the sizes (Syrk d = 500, k = 1024; 1,000 × 100 synthetic rows) and
	// the time per measurement, for a run of a few seconds.
	Quick bool
	// MinTime is how long each measurement repeats before taking the best time
	// (default 100 ms; 10 ms with Quick). At most MaxReps repetitions are made.
	MinTime time.Duration
	// Seed seeds the inputs; every backend sees the same numbers.
	Seed uint64
	// Progress, when set, is called before each measurement.
	Progress func(op, size, backend string)
}

// MaxReps bounds the timed repetitions of one measurement.
const MaxReps = 50

// Row is one line of the benchmark table: an operation or algorithm at one size,
// timed on every backend.
type Row struct {
	Op    string  `json:"op"`   // kernel method (Dot, Syrk, …) or algorithm name
	Kind  string  `json:"kind"` // "kernel" or "algorithm"
	Size  string  `json:"size"`
	Flops float64 `json:"flops,omitempty"` // floating-point operations of one call (kernels)
	// Backends holds one measurement per backend, in Config order.
	Backends []Time `json:"backends"`
}

// Time is one backend's measurement of a Row.
type Time struct {
	Backend string  `json:"backend"` // selector name
	Seconds float64 `json:"seconds"` // best time of one call (one pass, or one fit)
	Reps    int     `json:"reps"`    // timed calls the best was taken from
	GFLOPS  float64 `json:"gflops,omitempty"`
	// Ratio is generic's time ÷ this backend's (above 1: faster than generic); 0 when
	// generic was not measured.
	Ratio float64 `json:"ratio,omitempty"`
	// AUC is an algorithm's AUC on its own training data (the backends should agree).
	AUC float64 `json:"auc,omitempty"`
}

// Report is what Run measured.
type Report struct {
	Backends []string // the columns, in order
	Rows     []Row    // kernels, then algorithms
	Notes    []string // skipped algorithms and the like
}

// benchSizes are the problem sizes of one run.
type benchSizes struct {
	level1     []int // Dot, Axpy lengths
	level2     []int // Gemv, Symv dimensions
	syrkD      int
	syrkK      int
	symmK      int
	symmD      int
	rows, cols int // synthetic data for the algorithms
}

// Run times the kernel operations (Dot and Axpy at n = 2000 and 62061, Gemv and
// Symv at d = 780 and 2000, Syrk at d = 2000 with k = 4096 rows, Symm with k = 299 rows
// at d = 123) and cfg.Algos on a seeded dense Gaussian data set (4,000 × 500, labels
// from a linear truth with noise, 30% positive) on every backend. Each measurement
// repeats for cfg.MinTime or MaxReps calls and keeps the best time.
func Run(ctx context.Context, cfg Config) (_ *Report, err error) {
	defer jobs.Recover(&err)
	names, err := benchBackends(cfg.Backends)
	if err != nil {
		return nil, err
	}
	sz := benchSizes{level1: []int{2000, 62061}, level2: []int{780, 2000}, syrkD: 2000, syrkK: 4096,
		symmK: 299, symmD: 123, rows: 4000, cols: 500}
	minTime := 100 * time.Millisecond
	if cfg.Quick {
		sz.syrkD, sz.syrkK, sz.rows, sz.cols = 500, 1024, 1000, 100
		minTime = 10 * time.Millisecond
	}
	if cfg.MinTime > 0 {
		minTime = cfg.MinTime
	}
	algos := cfg.Algos
	if len(algos) == 0 {
		algos = DefaultAlgos
	}
	rep := &Report{Backends: names}
	var specs []solver.Spec
	for _, a := range algos {
		spec, err := solver.Lookup(a)
		if err != nil {
			return nil, inputError{err}
		}
		specs = append(specs, spec)
	}

	bs := make([]kernels.Backend, len(names))
	defer func() {
		for _, b := range bs {
			if b != nil {
				b.Close()
			}
		}
	}()
	for i, n := range names {
		if bs[i], err = backends.Open(n); err != nil {
			return nil, err
		}
	}

	cases := kernelCases(sz, cfg.Seed)
	ds := benchData(sz.rows, sz.cols, cfg.Seed)
	for _, spec := range specs {
		cases = append(cases, algoCase(spec, ds, cfg.Seed))
	}
	for _, c := range cases {
		row := Row{Op: c.op, Kind: c.kind, Size: c.size, Flops: c.flops}
		for i, b := range bs {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("bench stopped: %w", err)
			}
			if cfg.Progress != nil {
				cfg.Progress(c.op, c.size, names[i])
			}
			call, sync, auc, err := c.setup(ctx, b)
			if err != nil {
				return nil, fmt.Errorf("bench %s %s on %s: %w", c.op, c.size, names[i], err)
			}
			best, reps := measure(minTime, call, sync)
			t := Time{Backend: names[i], Seconds: best.Seconds(), Reps: reps}
			if c.flops > 0 {
				t.GFLOPS = c.flops / best.Seconds() / 1e9
			}
			if auc != nil {
				if t.AUC, err = auc(); err != nil {
					return nil, fmt.Errorf("bench %s on %s: %w", c.op, names[i], err)
				}
			}
			row.Backends = append(row.Backends, t)
		}
		if g := slices.Index(names, "generic"); g >= 0 {
			for i := range row.Backends {
				row.Backends[i].Ratio = row.Backends[g].Seconds / row.Backends[i].Seconds
			}
		}
		if c.kind == "algorithm" {
			rep.Notes = append(rep.Notes, agree(row)...)
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}

// agree returns a note when an algorithm's AUCs differ between backends by more than
// rounding can explain (1e-6).
func agree(row Row) []string {
	lo, hi := math.Inf(1), math.Inf(-1)
	var parts []string
	for _, t := range row.Backends {
		lo, hi = min(lo, t.AUC), max(hi, t.AUC)
		parts = append(parts, fmt.Sprintf("%s %.6f", t.Backend, t.AUC))
	}
	if hi-lo <= 1e-6 {
		return nil
	}
	return []string{fmt.Sprintf("%s: the backends' AUCs differ: %s", row.Op, strings.Join(parts, ", "))}
}

// benchBackends resolves the backend columns: the requested names (each must be
// available), or every available backend, generic first.
func benchBackends(want []string) ([]string, error) {
	var avail []string
	for _, s := range backends.Report("") {
		if s.Available {
			avail = append(avail, s.Name)
		}
	}
	slices.Reverse(avail) // generic, avx2, cuda: the reference first
	if len(want) == 0 {
		return avail, nil
	}
	var out []string
	for _, n := range want {
		if slices.Contains(out, n) {
			continue
		}
		if !slices.Contains(avail, n) {
			if _, err := backends.Open(n); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("backend %q is not one of the concrete backends (%v)", n, avail)
		}
		out = append(out, n)
	}
	return out, nil
}

// benchCase is one row of the table: setup prepares the inputs on a backend and returns
// the call to time, a sync that waits for the backend to finish (a one-element
// Download), and for algorithms a function computing the AUC of the last call.
type benchCase struct {
	op, kind, size string
	flops          float64
	setup          func(ctx context.Context, b kernels.Backend) (call, sync func(), auc func() (float64, error), err error)
}

// kernelCases lists the kernel measurements with their seeded host inputs.
func kernelCases(sz benchSizes, seed uint64) []benchCase {
	r := rand.New(rand.NewPCG(seed, 0x62656e6368)) // "bench"
	rnd := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = r.NormFloat64()
		}
		return s
	}
	vec := func(b kernels.Backend, x []float64) kernels.Vec {
		v := b.NewVec(len(x))
		b.Upload(v, x)
		return v
	}
	mat := func(b kernels.Backend, rows, cols int, x []float64) kernels.Mat {
		m := b.NewMat(rows, cols)
		b.Upload(m, x)
		return m
	}
	syncVec := func(b kernels.Backend, v kernels.Vec) func() {
		one := make([]float64, 1)
		return func() { b.Download(one, v.Slice(0, 1)) }
	}
	syncMat := func(b kernels.Backend, m kernels.Mat) func() { return syncVec(b, m.Row(0)) }
	var cases []benchCase
	for _, n := range sz.level1 {
		x, y := rnd(n), rnd(n)
		size := fmt.Sprintf("n=%d", n)
		cases = append(cases,
			benchCase{op: "Dot", kind: "kernel", size: size, flops: 2 * float64(n),
				setup: func(_ context.Context, b kernels.Backend) (func(), func(), func() (float64, error), error) {
					xv, yv := vec(b, x), vec(b, y)
					var sink float64
					return func() { sink += b.Dot(xv, yv) }, func() { _ = sink }, nil, nil
				}},
			benchCase{op: "Axpy", kind: "kernel", size: size, flops: 2 * float64(n),
				setup: func(_ context.Context, b kernels.Backend) (func(), func(), func() (float64, error), error) {
					xv, yv := vec(b, x), vec(b, y)
					alpha := 1e-9
					return func() { b.Axpy(alpha, xv, yv); alpha = -alpha }, syncVec(b, yv), nil, nil
				}})
	}
	for _, d := range sz.level2 {
		a, x, y := rnd(d*d), rnd(d), rnd(d)
		size := fmt.Sprintf("d=%d", d)
		cases = append(cases,
			benchCase{op: "Gemv", kind: "kernel", size: size, flops: 2 * float64(d) * float64(d),
				setup: func(_ context.Context, b kernels.Backend) (func(), func(), func() (float64, error), error) {
					am, xv, yv := mat(b, d, d, a), vec(b, x), vec(b, y)
					return func() { b.Gemv(false, 1, am, xv, 0, yv) }, syncVec(b, yv), nil, nil
				}},
			benchCase{op: "Symv", kind: "kernel", size: size, flops: 2 * float64(d) * float64(d),
				setup: func(_ context.Context, b kernels.Backend) (func(), func(), func() (float64, error), error) {
					am, xv, yv := mat(b, d, d, a), vec(b, x), vec(b, y)
					return func() { b.Symv(1, am, xv, 0, yv) }, syncVec(b, yv), nil, nil
				}})
	}
	{
		d, k := sz.syrkD, sz.syrkK
		a := rnd(k * d)
		cases = append(cases, benchCase{op: "Syrk", kind: "kernel", size: fmt.Sprintf("d=%d k=%d", d, k),
			flops: float64(k) * float64(d) * float64(d+1), // the upper triangle: k·d(d+1)/2 multiply-adds
			setup: func(_ context.Context, b kernels.Backend) (func(), func(), func() (float64, error), error) {
				am, cm := mat(b, k, d, a), b.NewMat(d, d)
				return func() { b.Syrk(1, am, 0, cm) }, syncMat(b, cm), nil, nil
			}})
	}
	{
		k, d := sz.symmK, sz.symmD
		a, bm := rnd(d*d), rnd(k*d)
		cases = append(cases, benchCase{op: "Symm", kind: "kernel", size: fmt.Sprintf("d=%d k=%d", d, k),
			flops: 2 * float64(k) * float64(d) * float64(d),
			setup: func(_ context.Context, b kernels.Backend) (func(), func(), func() (float64, error), error) {
				am, bv, cm := mat(b, d, d, a), mat(b, k, d, bm), b.NewMat(k, d)
				return func() { b.Symm(1, am, bv, 0, cm) }, syncMat(b, cm), nil, nil
			}})
	}
	return cases
}

// benchData is the algorithms' synthetic data: rows × cols dense Gaussian features,
// labels from a linear truth with unit noise, 30% positive (data.LinearStream).
func benchData(rows, cols int, seed uint64) *data.Dataset {
	s := &data.LinearStream{Rows: rows, Dim: cols, PosFrac: 0.3, Noise: 1, Seed: seed}
	d := &data.Dataset{Name: fmt.Sprintf("gaussian-%dx%d", rows, cols), Dim: cols, Ptr: []int64{0}}
	var ex data.Example
	for i := range rows {
		s.Row(i, &ex)
		d.Append(ex.Y, float64(ex.Y), ex.X)
	}
	return d.WithLayout(data.LayoutDense)
}

// algoCase times one pass of an online algorithm (a fresh learner each call) or one
// fit of a batch one over ds.
func algoCase(spec solver.Spec, ds *data.Dataset, seed uint64) benchCase {
	size := fmt.Sprintf("%d×%d", ds.Rows(), ds.Dim)
	if spec.IsBatch() {
		size = "fit " + size
	} else {
		size = "pass " + size
	}
	return benchCase{op: spec.Name, kind: "algorithm", size: size,
		setup: func(ctx context.Context, b kernels.Backend) (func(), func(), func() (float64, error), error) {
			var w []float64
			var err error
			call := func() {
				if err != nil {
					return
				}
				if spec.IsBatch() {
					var l solver.Batch
					if l, err = spec.NewBatch(b, ds.Dim, spec.Params(), seed); err != nil {
						return
					}
					if err = l.Fit(ctx, ds); err == nil {
						w = l.Weights()
					}
					return
				}
				var l solver.Online
				if l, err = spec.NewOnline(b, ds.Dim, spec.Params(), seed); err != nil {
					return
				}
				if _, err = solver.Run(ctx, l, solver.DatasetSource{D: ds}, solver.RunOptions{Passes: 1, Algo: spec.Name, Dim: ds.Dim}); err == nil {
					w = l.Weights()
				}
			}
			auc := func() (float64, error) {
				if err != nil {
					return 0, err
				}
				a, err := metric.AUC(engine.Score(w, ds), ds.Y)
				if err == nil && math.IsNaN(a) {
					err = fmt.Errorf("%w: AUC is NaN", solver.ErrDiverged)
				}
				return a, err
			}
			return call, func() {}, auc, nil
		}}
}

// inputError marks err as caused by the caller's input: it matches fault.ErrInput, and
// its message is err's.
type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{e.err, fault.ErrInput} }

// measure times call: batches of calls, each batch long enough (≥ 1 ms) for the clock,
// until minTime has passed or MaxReps batches were made, and returns the best
// time of one call and the number of calls timed. sync runs at the end of each batch
// (inside the timing) so that asynchronous backends finish their work.
func measure(minTime time.Duration, call, sync func()) (time.Duration, int) {
	batch := 1
	start := time.Now()
	call()
	sync()
	first := time.Since(start)
	best, reps, total := first, 1, first
	if first < time.Millisecond {
		batch = int(time.Millisecond/max(first, time.Microsecond)) + 1
		best = time.Duration(math.MaxInt64)
	}
	// At least three timings where they fit in 10·minTime: a first call pays for cold
	// caches and page faults.
	for n := 1; (total < minTime || n < 3 && total < 10*minTime) && n < MaxReps; n++ {
		start := time.Now()
		for range batch {
			call()
		}
		sync()
		el := time.Since(start)
		total += el
		reps += batch
		best = min(best, el/time.Duration(batch))
	}
	if best == time.Duration(math.MaxInt64) {
		best = first
	}
	return best, reps
}
