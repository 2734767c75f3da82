package experiment

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// Config is one run of a protocol, possibly reduced (fewer trials, another grid, a cap
// on the training rows); every reduction is recorded in Report.Reduced.
type Config struct {
	Protocol Protocol
	// Datasets and Algos restrict the protocol's; nil means all of them. A dataset no
	// group lists joins the first group; an algorithm is added to every group.
	Datasets []string
	Algos    []string
	// Trials, Folds and Runs override the protocol's counts when > 0.
	Trials, Folds, Runs int
	// InnerFolds > 0 overrides the protocol's inner selection: ≥ 2 folds, or 1 for a
	// held-out share Holdout (default 0.2).
	InnerFolds int
	Holdout    float64
	// Grids overrides grids per algorithm (engine.ParseGrid specs), over the
	// protocol's own overrides and the registry's paper grids.
	Grids map[string]string
	// MaxTrain > 0 trains every algorithm on at most MaxTrain random rows of each
	// training part (a reduced protocol for the big sets on a small machine).
	MaxTrain int
	// Seed drives class grouping, splits, subsets, shuffling and the learners.
	Seed uint64
	// Workers bounds the jobs (one algorithm on one split) run at once; default
	// GOMAXPROCS. Results do not depend on it.
	Workers int
	// Backend names the compute backend ("" is $AUCOPT_BACKEND, else auto).
	Backend string
	// MaxMemory bounds the bytes one cell's learners may take (engine.CheckMemory); 0
	// means the memory available. A cell beyond it is not run, with a note.
	MaxMemory int64
	// Progress, when set, is called after each job, one call at a time.
	Progress func(done, total int, what string)
}

// split is one train/test run of a dataset: row indices into the pools.
type split struct {
	name        string
	train, test *data.Dataset // pools (not yet subset)
	trainRows   []int
	testRows    []int
	seed        uint64
	// gen, when set, makes the training pool on demand (simulated data, too large to
	// hold for every run at once).
	gen func() *data.Dataset
}

// job is one algorithm on one split.
type job struct {
	table, dataset, algo string
	split                *split
	spec                 solver.Spec
	params               []any // the grid's points (one when the grid is trivial)
	grid                 string
	out                  *Run
}

// Experiment runs the protocol cfg describes and returns its report. A job that fails (a
// solver error, divergence of the chosen point) is recorded in its cell's note; the
// run goes on. It returns an error for bad configuration, unloadable data or ctx's end.
func Experiment(ctx context.Context, cfg Config) (*Report, error) {
	p := cfg.Protocol
	rep := &Report{Protocol: p.Name, Paper: p.Paper, Source: p.Source, Seed: cfg.Seed, Notes: p.Notes}
	if cfg.Trials > 0 && cfg.Trials != p.Trials {
		rep.Reduced = append(rep.Reduced, fmt.Sprintf("%d trials instead of the paper's %d", cfg.Trials, p.Trials))
		p.Trials = cfg.Trials
	}
	if cfg.Folds > 0 && cfg.Folds != p.Folds {
		rep.Reduced = append(rep.Reduced, fmt.Sprintf("%d folds instead of the paper's %d", cfg.Folds, p.Folds))
		p.Folds = cfg.Folds
	}
	if cfg.Runs > 0 && cfg.Runs != p.Runs {
		rep.Reduced = append(rep.Reduced, fmt.Sprintf("%d runs instead of %d", cfg.Runs, p.Runs))
		p.Runs = cfg.Runs
	}
	if cfg.InnerFolds > 0 && cfg.InnerFolds != max(p.InnerFolds, 1) {
		if cfg.InnerFolds >= 2 {
			rep.Reduced = append(rep.Reduced, fmt.Sprintf("hyper-parameters by inner %d-fold CV", cfg.InnerFolds))
		} else {
			rep.Reduced = append(rep.Reduced, fmt.Sprintf("hyper-parameters on a stratified %g%% held-out share of each training part instead of inner %d-fold CV", 100*orDefault(cfg.Holdout, 0.2), p.InnerFolds))
		}
		p.InnerFolds = cfg.InnerFolds
		p.Holdout = orDefault(cfg.Holdout, 0.2)
	}
	if p.Holdout == 0 {
		p.Holdout = 0.2
	}
	if cfg.MaxTrain > 0 {
		rep.Reduced = append(rep.Reduced, fmt.Sprintf("every algorithm trains on at most %d random rows of each training part", cfg.MaxTrain))
	}
	grids := map[string]string{}
	for k, v := range p.Grids {
		grids[k] = v
	}
	for k, v := range cfg.Grids {
		grids[k] = v
		rep.Reduced = append(rep.Reduced, fmt.Sprintf("%s on the grid %s", k, v))
	}
	slices.Sort(rep.Reduced[max(0, len(rep.Reduced)-len(cfg.Grids)):])
	if p.Split == SplitCV && (p.Trials < 1 || p.Folds < 2) {
		return nil, fmt.Errorf("protocol %s: %w: %d trials of %d folds", p.Name, solver.ErrParam, p.Trials, p.Folds)
	}
	if p.Split != SplitCV && p.Runs < 1 {
		return nil, fmt.Errorf("protocol %s: %w: %d runs", p.Name, solver.ErrParam, p.Runs)
	}
	rep.Describe = p.Describe()

	tables, err := layout(p, cfg)
	if err != nil {
		return nil, err
	}
	rep.Tables = tables

	b, err := engine.BackendFromEnv(cfg.Backend)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	rep.Backend = b.Name()
	start := time.Now()
	if p.Split == SplitSimulation {
		if err := runSimulation(ctx, p, cfg, b, grids, rep); err != nil {
			return nil, err
		}
		rep.Seconds = time.Since(start).Seconds()
		return rep, nil
	}

	// Load each dataset once, make its splits, then a job per split and algorithm.
	var jobs []*job
	for _, t := range tables {
		for di, ds := range t.Datasets {
			splits, note, err := makeSplits(p, ds, cfg.Seed, uint64(di))
			if err != nil {
				return nil, err
			}
			for _, algo := range t.Algos {
				c := t.Cells[ds][algo]
				if note != "" {
					c.Note = note
				}
				spec, err := solver.Lookup(algo)
				if err != nil {
					return nil, err
				}
				if why := cannotRun(spec, splits[0].train.Dim); why != "" {
					c.Note = why
					continue
				}
				gspec := grids[algo]
				params, err := gridParams(spec, gspec)
				if err != nil {
					return nil, err
				}
				if err := engine.CheckMemory(spec, params, splits[0].train.Dim, cellRows(p, cfg, spec, splits[0]), 1, cfg.MaxMemory); err != nil {
					c.Note = "not run: " + err.Error()
					continue
				}
				c.Grid = describeGrid(spec, gspec)
				c.Runs = make([]Run, len(splits))
				for si, s := range splits {
					c.Runs[si] = Run{Split: s.name}
					jobs = append(jobs, &job{table: t.Title, dataset: ds, algo: algo, split: s, spec: spec, params: params, grid: gspec, out: &c.Runs[si]})
				}
			}
		}
	}
	if rep.Workers, err = runJobs(ctx, p, cfg, b, jobs); err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	for _, t := range tables {
		t.summarise()
	}
	return rep, nil
}

func orDefault(x, d float64) float64 {
	if x == 0 {
		return d
	}
	return x
}

// layout makes the report's tables: the protocol's groups restricted to cfg's datasets
// and algorithms, every cell empty.
func layout(p Protocol, cfg Config) ([]*Table, error) {
	for _, a := range cfg.Algos {
		if p.Split == SplitSimulation && a == "np" {
			continue
		}
		if _, err := solver.Lookup(a); err != nil {
			return nil, err
		}
	}
	if p.Split != SplitSimulation {
		for _, d := range cfg.Datasets {
			if _, err := data.Lookup(d); err != nil {
				return nil, err
			}
		}
	}
	var tables []*Table
	for gi, g := range p.Groups {
		t := &Table{Title: g.Title, Reference: g.Reference}
		t.Algos = g.Algos
		if cfg.Algos != nil {
			t.Algos = nil
			for _, a := range g.Algos {
				if slices.Contains(cfg.Algos, a) {
					t.Algos = append(t.Algos, a)
				}
			}
			for _, a := range cfg.Algos {
				if !slices.Contains(t.Algos, a) {
					t.Algos = append(t.Algos, a)
				}
			}
		}
		if cfg.Datasets == nil {
			t.Datasets = g.Datasets
		} else {
			for _, d := range cfg.Datasets {
				d = canonical(d)
				if slices.Contains(g.Datasets, d) || (gi == 0 && !inAnyGroup(p, d)) {
					t.Datasets = append(t.Datasets, d)
				}
			}
		}
		if len(t.Datasets) == 0 || len(t.Algos) == 0 {
			continue
		}
		t.Cells = map[string]map[string]*Cell{}
		for _, d := range t.Datasets {
			t.Cells[d] = map[string]*Cell{}
			for _, a := range t.Algos {
				c := &Cell{Mean: math.NaN(), Std: math.NaN()}
				if pc, ok := Published(p.Name, d, a); ok {
					c.Paper = &pc
				}
				t.Cells[d][a] = c
			}
		}
		tables = append(tables, t)
	}
	if len(tables) == 0 {
		return nil, fmt.Errorf("protocol %s: nothing to run for datasets %v and algorithms %v", p.Name, cfg.Datasets, cfg.Algos)
	}
	return tables, nil
}

// canonical maps a dataset alias to its registry name.
func canonical(name string) string {
	if s, err := data.Lookup(name); err == nil {
		return s.Name
	}
	return name
}

func inAnyGroup(p Protocol, d string) bool {
	for _, g := range p.Groups {
		if slices.Contains(g.Datasets, d) {
			return true
		}
	}
	return false
}

// makeSplits loads dataset ds and returns the protocol's runs on it, with a note for
// the cells when the data differ from the paper's (a missing test file).
func makeSplits(p Protocol, ds string, seed, di uint64) ([]*split, string, error) {
	sp, err := data.Load(ds, data.LoadOptions{Seed: seed, Layout: data.LayoutAuto})
	if err != nil {
		return nil, "", fmt.Errorf("protocol %s: %w", p.Name, err)
	}
	train, test := sp.Train, sp.Test
	if test != nil && p.merged(ds) {
		train, test = concat(train, test), nil
	}
	var note string
	base := mix(seed, di)
	var out []*split
	switch p.Split {
	case SplitCV:
		folds, err := data.RepeatedKFold(train.Y, p.Folds, p.Trials, base)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", ds, err)
		}
		for t, fs := range folds {
			for f, fold := range fs {
				out = append(out, &split{name: fmt.Sprintf("trial %d fold %d", t+1, f+1), train: train, test: train,
					trainRows: fold.Train, testRows: fold.Test, seed: mix(base, uint64(t*p.Folds+f))})
			}
		}
	case SplitSubsample, SplitGiven:
		redraw := test == nil && p.Split == SplitGiven
		if test == nil && ds == "w8a" {
			note = "w8a's test file is not in ../shared/data: a stratified 50/50 split of w8a stands in"
		}
		for r := range p.Runs {
			s := &split{name: fmt.Sprintf("run %d", r+1), seed: mix(base, uint64(r))}
			switch {
			case test != nil:
				s.train, s.test, s.trainRows, s.testRows = train, test, seq(train.Rows()), seq(test.Rows())
			default:
				fseed := base
				if redraw {
					fseed = s.seed
				}
				f, err := data.TrainTestSplit(train.Y, 0.5, fseed)
				if err != nil {
					return nil, "", fmt.Errorf("%s: %w", ds, err)
				}
				s.train, s.test, s.trainRows, s.testRows = train, train, f.Train, f.Test
			}
			if p.Split == SplitSubsample {
				sub, err := data.Subsample(len(s.trainRows), p.Frac, s.seed)
				if err != nil {
					return nil, "", err
				}
				rows := make([]int, len(sub))
				for i, k := range sub {
					rows[i] = s.trainRows[k]
				}
				s.trainRows = rows
			}
			out = append(out, s)
		}
	default:
		return nil, "", fmt.Errorf("protocol %s: split %s has no datasets", p.Name, p.Split)
	}
	return out, note, nil
}

// concat returns a followed by b (both the same layout and Dim).
func concat(a, b *data.Dataset) *data.Dataset {
	out := a.Subset(seq(a.Rows()))
	for i := range b.Rows() {
		out.Append(b.Y[i], b.Labels[i], b.Row(i))
	}
	out.Dim = max(a.Dim, b.Dim)
	return out
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// mix derives a seed from a seed and an index (SplitMix64's finaliser).
func mix(seed, i uint64) uint64 { return engine.SubSeed(seed, i) }

// maxStateBytes is the most state a protocol lets a learner keep apart from what grows
// with the training rows (Spec.StateBytes at 0 rows and the defaults): 1 GB, four d×d
// matrices at d ≈ 5,600. Beyond it the papers print '-' or run a low-rank variant
// (sector's 55,197 features: 49 GB for OPAUC's two covariances); what grows with the
// rows is checked against the memory available (engine.CheckMemory).
const maxStateBytes = 1e9

// cannotRun says why spec cannot run on dim features, or "".
func cannotRun(spec solver.Spec, dim int) string {
	if need := spec.StateBytes(dim, 0, spec.Params()); need > maxStateBytes {
		return fmt.Sprintf("not run: %s keeps %.1f GB of state at d = %d, more than the %.0f GB a protocol allows (the paper's '-' or its low-rank variant)",
			spec.Name, need/1e9, dim, maxStateBytes/1e9)
	}
	return ""
}

// cellRows is the number of training rows a job of spec on split s trains on (the
// caps of runJob applied).
func cellRows(p Protocol, cfg Config, spec solver.Spec, s *split) int {
	n := len(s.trainRows)
	if p.BatchMaxRows > 0 && spec.IsBatch() {
		n = min(n, p.BatchMaxRows)
	}
	if cfg.MaxTrain > 0 {
		n = min(n, cfg.MaxTrain)
	}
	return n
}

// gridParams returns the parameter structs of the algorithm's grid: spec's paper
// grid, or gspec; a single default point when the algorithm has no grid.
func gridParams(spec solver.Spec, gspec string) ([]any, error) {
	if gspec == "" && len(spec.Grid.Keys) == 0 {
		return []any{spec.Params()}, nil
	}
	g, err := engine.ParseGrid(spec, gspec)
	if err != nil {
		return nil, err
	}
	var out []any
	for _, pt := range g.Points() {
		p := spec.Params()
		if err := solver.SetAll(p, pt); err != nil {
			return nil, fmt.Errorf("%s grid point %s: %w", spec.Name, strings.Join(pt, " "), err)
		}
		out = append(out, p)
	}
	return out, nil
}

// describeGrid names the grid a cell used.
func describeGrid(spec solver.Spec, gspec string) string {
	if gspec != "" {
		return gspec
	}
	if len(spec.Grid.Keys) == 0 {
		return "defaults"
	}
	var parts []string
	for i, k := range spec.Grid.Keys {
		parts = append(parts, fmt.Sprintf("%s: %d values", k, len(spec.Grid.Values[i])))
	}
	return "paper grid (" + strings.Join(parts, ", ") + ")"
}

// runJobs runs the jobs on cfg.Workers goroutines (default GOMAXPROCS; one on a backend
// that is not safe for concurrent use), each on its own backend when several run at
// once (kernels.PerJob), reporting each finished job to cfg.Progress. It returns the
// number of workers used, and ctx's error when ctx ends first.
func runJobs(ctx context.Context, p Protocol, cfg Config, b kernels.Backend, jobs []*job) (int, error) {
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if !engine.ConcurrentSafe(b) {
		workers = 1
	}
	workers = min(workers, max(len(jobs), 1))
	var mu sync.Mutex
	done := 0
	err := parallel(ctx, len(jobs), workers, func(i int) {
		j := jobs[i]
		jb, release := kernels.PerJob(b, workers)
		runJob(ctx, p, cfg, jb, j)
		release()
		mu.Lock()
		defer mu.Unlock()
		done++
		if cfg.Progress != nil {
			msg := fmt.Sprintf("%s %s %s: AUC %.4f (%.1fs)", j.dataset, j.algo, j.split.name, j.out.AUC, j.out.Seconds)
			if j.out.Error != "" {
				msg = fmt.Sprintf("%s %s %s: %s", j.dataset, j.algo, j.split.name, j.out.Error)
			}
			cfg.Progress(done, len(jobs), msg)
		}
	})
	return workers, err
}

// parallel runs job(i) for i in [0, n) on workers goroutines; it returns ctx's error
// when ctx ends before all are done.
func parallel(ctx context.Context, n, workers int, job func(i int)) error {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Go(func() {
			for i := range next {
				if ctx.Err() == nil {
					job(i)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("experiment stopped: %w", err)
	}
	return nil
}

// runJob trains j's algorithm on j's split: subset and scale the training part, choose
// the grid point, refit it on the whole training part and score the test part.
func runJob(ctx context.Context, p Protocol, cfg Config, b kernels.Backend, j *job) {
	start := time.Now()
	err := func() error {
		pool := j.split.train
		if j.split.gen != nil {
			pool = j.split.gen()
		}
		rows := j.split.trainRows
		if p.BatchMaxRows > 0 && j.spec.IsBatch() && len(rows) > p.BatchMaxRows {
			rows = pick(rows, p.BatchMaxRows, j.split.seed)
		}
		if cfg.MaxTrain > 0 && len(rows) > cfg.MaxTrain {
			rows = pick(rows, cfg.MaxTrain, j.split.seed)
		}
		train, test := pool.Subset(rows), j.split.test
		if j.split.testRows != nil {
			test = test.Subset(j.split.testRows)
		}
		train, test, err := scale(p, j.dataset, j.spec, train, test)
		if err != nil {
			return err
		}
		j.out.TrainRows = train.Rows()
		params := j.params
		if slices.Contains(solver.Keys(params[0]), "n") { // FSAUC: stages sized for one pass
			params = withN(j.spec, params, train.Rows())
		}
		best := 0
		if len(params) > 1 {
			var val float64
			best, val, err = selectPoint(ctx, p, j.spec, b, train, params, j.split.seed)
			if err != nil {
				return err
			}
			j.out.ValAUC = &val
		}
		j.out.Params = solver.Values(params[best])
		w, err := fit(ctx, j.spec, b, train, params[best], j.split.seed)
		if err != nil {
			return err
		}
		auc, err := metric.AUC(engine.Score(w, test), test.Y)
		if err != nil {
			return fmt.Errorf("test AUC: %w", err)
		}
		if math.IsNaN(auc) {
			return fmt.Errorf("%w: test AUC is NaN", solver.ErrDiverged)
		}
		j.out.AUC = auc
		return nil
	}()
	j.out.Seconds = time.Since(start).Seconds()
	if err != nil {
		j.out.AUC = math.NaN()
		j.out.Error = err.Error()
	}
}

// pick returns k of rows chosen at random (seeded), in their order.
func pick(rows []int, k int, seed uint64) []int {
	sub, _ := data.Subsample(len(rows), float64(k)/float64(len(rows)), mix(seed, 0xba7c4))
	out := make([]int, len(sub))
	for i, s := range sub {
		out[i] = rows[s]
	}
	return out
}

// withN sets the expected stream length (Spec.SetStreamLength: FSAUC's n) to rows in
// copies of params; params themselves when spec needs none.
func withN(spec solver.Spec, params []any, rows int) []any {
	if spec.SetStreamLength == nil {
		return params
	}
	out := make([]any, len(params))
	for i, q := range params {
		c := spec.Params()
		reflect.ValueOf(c).Elem().Set(reflect.ValueOf(q).Elem())
		spec.SetStreamLength(c, max(rows, 1))
		out[i] = c
	}
	return out
}

// scale fits the protocol's scaling on train and applies it to both parts.
func scale(p Protocol, ds string, spec solver.Spec, train, test *data.Dataset) (*data.Dataset, *data.Dataset, error) {
	kind := p.Scale
	wide := train.Dim > engine.AutoScaleMaxDim
	switch {
	case kind == ScaleAuto && spec.UnitRows:
		kind = ScaleThesis
	case kind == ScaleAuto && wide:
		kind = ScaleNone
	case kind == ScaleAuto:
		kind = ScaleMinMax
	}
	switch kind {
	case ScaleNone:
		return train, test, nil
	case ScaleMinMax:
		s, err := data.FitMinMax(train, -1, 1)
		if err != nil {
			return nil, nil, err
		}
		return s.Apply(train), s.Apply(test), nil
	case ScaleThesis:
		center := !wide && !slices.Contains([]string{"diabetes", "fourclass", "german"}, ds)
		n := data.FitRowNormalizer(train, center)
		return n.Apply(train), n.Apply(test), nil
	}
	return nil, nil, fmt.Errorf("unknown scaling %q", kind)
}

// selectPoint returns the grid point with the best mean validation AUC over the
// protocol's inner folds (or hold-out) of train, and that AUC.
//
// A rotational algorithm (solver.Spec.Rotational) is trained on the coordinates of
// train's rows in a basis of their span when that has fewer dimensions
// (engine.SelectionData): the same validation scores up to a constant, so the same
// AUCs, at less cost.
func selectPoint(ctx context.Context, p Protocol, spec solver.Spec, b kernels.Backend, train *data.Dataset, params []any, seed uint64) (int, float64, error) {
	train, err := engine.SelectionData(b, spec, train)
	if err != nil {
		return 0, 0, fmt.Errorf("inner selection: %w", err)
	}
	var folds []data.Fold
	if p.InnerFolds >= 2 {
		f, err := data.StratifiedKFold(train.Y, p.InnerFolds, mix(seed, 0x1a))
		if err != nil {
			return 0, 0, fmt.Errorf("inner selection: %w", err)
		}
		folds = f
	} else {
		f, err := data.TrainTestSplit(train.Y, 1-p.Holdout, mix(seed, 0x1b))
		if err != nil {
			return 0, 0, fmt.Errorf("inner selection: %w", err)
		}
		folds = []data.Fold{f}
	}
	sums := make([]float64, len(params))
	failed := make([]bool, len(params))
	validate := func(ws [][]float64, val *data.Dataset) {
		for g, w := range ws {
			if failed[g] {
				continue
			}
			auc, err := metric.AUC(engine.Score(w, val), val.Y)
			if err != nil || math.IsNaN(auc) {
				failed[g] = true
				continue
			}
			sums[g] += auc
		}
	}
	if !spec.IsBatch() && len(folds) >= 2 {
		if err := crossOnline(ctx, spec, b, train, folds, params, seed, failed, validate); err != nil {
			return 0, 0, err
		}
	} else {
		for _, f := range folds {
			part, val := train.Subset(f.Train), train.Subset(f.Test)
			ws, err := fitAll(ctx, spec, b, part, params, seed, failed)
			if err != nil {
				return 0, 0, err
			}
			validate(ws, val)
		}
	}
	best := -1
	for g := range params {
		if !failed[g] && (best < 0 || sums[g] > sums[best]) {
			best = g
		}
	}
	if best < 0 {
		return 0, 0, fmt.Errorf("%w: every grid point failed in the inner selection", solver.ErrDiverged)
	}
	return best, sums[best] / float64(len(folds)), nil
}

// fitAll trains every grid point on part: an online algorithm in one shuffled pass of
// one Multi (shared statistics where the algorithm has them), a batch one point by
// point. Failed points are marked in failed.
func fitAll(ctx context.Context, spec solver.Spec, b kernels.Backend, part *data.Dataset, params []any, seed uint64, failed []bool) ([][]float64, error) {
	if pos, neg := part.Counts(); pos == 0 || neg == 0 {
		return nil, fmt.Errorf("inner selection: %w", solver.ErrOneClass)
	}
	ws := make([][]float64, len(params))
	if spec.IsBatch() {
		for g, q := range params {
			if failed[g] {
				continue
			}
			l, err := spec.NewBatch(b, part.Dim, q, seed)
			if err != nil {
				return nil, err
			}
			if err := l.Fit(ctx, part); err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				failed[g] = true
				continue
			}
			ws[g] = l.Weights()
		}
		return ws, nil
	}
	m, err := solver.NewMulti(spec, b, part.Dim, params, seed, 1)
	if err != nil {
		return nil, err
	}
	const block = 256
	order := data.Shuffle(part.Rows(), seed)
	xs, ys := make([]kernels.Sparse, 0, block), make([]int8, 0, block)
	for k, i := range order {
		xs, ys = append(xs, part.Row(i)), append(ys, part.Y[i])
		if len(xs) == block || k == len(order)-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			m.ObserveBlock(xs, ys)
			xs, ys = xs[:0], ys[:0]
		}
	}
	for g := range params {
		if m.Diverged(g) != 0 {
			failed[g] = true
		}
		ws[g] = m.Weights(g)
	}
	return ws, nil
}

// crossOnline trains an online algorithm's grid for each of the inner folds
// (engine.OnlineFolds: shared prefixes, points failed on one fold dropped from the rest)
// and hands each fold's weights and validation rows to validate. Diverged points are
// marked in failed.
func crossOnline(ctx context.Context, spec solver.Spec, b kernels.Backend, train *data.Dataset, folds []data.Fold,
	params []any, seed uint64, failed []bool, validate func(ws [][]float64, val *data.Dataset)) error {
	err := engine.OnlineFolds(ctx, spec, b, train, folds, params, seed, true, 1, func(_ int, m solver.Multi, val *data.Dataset) error {
		ws := make([][]float64, len(params))
		for g := range params {
			if m.Diverged(g) != 0 {
				failed[g] = true
			}
			ws[g] = m.Weights(g)
		}
		validate(ws, val)
		return nil
	}, func(g int) bool { return failed[g] })
	if err != nil {
		return fmt.Errorf("inner selection: %w", err)
	}
	return nil
}

// fit trains one learner on train: one shuffled pass for an online algorithm, Fit for a
// batch one.
func fit(ctx context.Context, spec solver.Spec, b kernels.Backend, train *data.Dataset, params any, seed uint64) ([]float64, error) {
	if spec.IsBatch() {
		l, err := spec.NewBatch(b, train.Dim, params, seed)
		if err != nil {
			return nil, err
		}
		if err := l.Fit(ctx, train); err != nil {
			return nil, err
		}
		return l.Weights(), nil
	}
	if pos, neg := train.Counts(); pos == 0 || neg == 0 {
		return nil, solver.ErrOneClass
	}
	l, err := spec.NewOnline(b, train.Dim, params, seed)
	if err != nil {
		return nil, err
	}
	for k, i := range data.Shuffle(train.Rows(), seed) {
		if k%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if s := l.Observe(train.Row(i), train.Y[i]); math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("%w at example %d of the refit", solver.ErrDiverged, k+1)
		}
	}
	w := l.Weights()
	for _, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: non-finite weights after the refit", solver.ErrDiverged)
		}
	}
	return w, nil
}
