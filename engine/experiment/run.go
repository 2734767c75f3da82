package experiment

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/jobs"
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
	// Grids overrides grids per algorithm (solver.ParseGrid specs), over the
	// protocol's own overrides and the registry's paper grids.
	Grids map[string]string
	// MaxTrain > 0 trains every algorithm on at most MaxTrain random rows of each
	// training part (a reduced protocol for the big sets on a small machine).
	MaxTrain int
	// Passes > 1 makes every online learner that many shuffled passes over its
	// training part, in selection and refit (the papers' protocols make one); batch
	// learners solve to convergence either way. A run with no online learner refuses it.
	Passes int
	// Seed drives class grouping, splits, subsets, shuffling and the learners.
	Seed uint64
	// Workers bounds the jobs (one algorithm on one split) run at once; default
	// GOMAXPROCS. Results do not depend on it.
	Workers int
	// Backend is the compute backend; nil means the default selection
	// (backends.Default: $AUCOPT_BACKEND, else the best CPU backend: the papers'
	// protocols run many small jobs), opened and closed by the run.
	Backend kernels.Backend
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
	params               []solver.Params // the grid's points (one when the grid is trivial)
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
	if cfg.Passes < 0 {
		return nil, fmt.Errorf("experiment: %w: %d passes", solver.ErrParam, cfg.Passes)
	}
	if cfg.Passes > 1 {
		rep.Reduced = append(rep.Reduced, fmt.Sprintf("online learners make %d passes instead of one", cfg.Passes))
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

	b, release, err := backends.Default(cfg.Backend, false)
	if err != nil {
		return nil, err
	}
	defer release()
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
		for _, ds := range t.Datasets {
			splits, note, err := makeSplits(p, ds, cfg.Seed)
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
func makeSplits(p Protocol, ds string, seed uint64) ([]*split, string, error) {
	sp, err := data.Load(ds, data.LoadOptions{Seed: seed, Layout: data.LayoutAuto})
	if err != nil {
		return nil, "", fmt.Errorf("protocol %s: %w", p.Name, err)
	}
	train, test := sp.Train, sp.Test
	if test != nil && p.merged(ds) {
		train, test = concat(train, test), nil
	}
	var note string
	base := datasetSeed(seed, ds)
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

// datasetSeed is the seed of dataset name's splits (and of everything drawn for its
// runs): SubSeed(seed, FNV-1a(name)), from its name, not its place in --datasets, so
// that a cell run alone gives the numbers it gives in a list. (The grouping of a
// multi-class dataset's classes is drawn from seed alone, by data.Load, as train and
// cv draw it.)
func datasetSeed(seed uint64, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return mix(seed, h.Sum64())
}

// mix derives a seed from a seed and an index (SplitMix64's finaliser).
func mix(seed, i uint64) uint64 { return data.SubSeed(seed, i) }

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

// gridParams returns the parameters of each point of the algorithm's grid: spec's
// paper grid, or gspec; a single default point when the algorithm has no grid.
func gridParams(spec solver.Spec, gspec string) ([]solver.Params, error) {
	return spec.PaperPoints(gspec)
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

// runJobs runs the jobs on jobs.Run (cfg.Workers, the engine's worker policy),
// reporting each finished job to cfg.Progress. It returns the number of workers used,
// and ctx's error when ctx ends first. A job's own failure is recorded in its run.
func runJobs(ctx context.Context, p Protocol, cfg Config, b kernels.Backend, cells []*job) (int, error) {
	if cfg.Passes > 1 && !slices.ContainsFunc(cells, func(j *job) bool { return !j.spec.IsBatch() }) {
		return 0, fmt.Errorf("experiment: %w: %d passes, but no online learner in this run", solver.ErrParam, cfg.Passes)
	}
	workers := jobs.Workers(b, cfg.Workers, len(cells))
	err := jobs.Run(ctx, b, len(cells), workers, func(ctx context.Context, b kernels.Backend, i int) error {
		runJob(ctx, p, cfg, b, cells[i])
		return nil
	}, func(i, done int) {
		if cfg.Progress == nil {
			return
		}
		j := cells[i]
		msg := fmt.Sprintf("%s %s %s: AUC %.4f (%.1fs)", j.dataset, j.algo, j.split.name, j.out.AUC, j.out.Seconds)
		if j.out.Error != "" {
			msg = fmt.Sprintf("%s %s %s: %s", j.dataset, j.algo, j.split.name, j.out.Error)
		}
		cfg.Progress(done, len(cells), msg)
	})
	if err != nil {
		return workers, fmt.Errorf("experiment: %w", err)
	}
	return workers, nil
}

// runJob runs j's algorithm on j's split as one engine.Run: the training part
// subsampled (BatchMaxRows, MaxTrain), the protocol's scaling, its inner selection
// (folds or a held-out share, seeded by the split's seed), one shuffled pass for an
// online algorithm (cfg.Passes when set), and the test part scored.
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
		j.out.TrainRows = train.Rows()
		passes := 1
		if cfg.Passes > 1 && !j.spec.IsBatch() {
			passes = cfg.Passes
		}
		params := j.params
		if slices.Contains(params[0].Keys(), "n") { // FSAUC: stages sized for the passes made
			params = withN(j.spec, params, passes*train.Rows())
		}
		sel := engine.Selection{Folds: p.InnerFolds, Holdout: p.Holdout, Seed: j.split.seed}
		if sel.Folds < 2 {
			sel.Folds = 0
		}
		res, err := engine.Run(ctx, engine.Problem{Train: train, Test: test},
			engine.Settings{Backend: b, Scale: scaleKind(p, j.dataset, j.spec, train.Dim), Passes: passes, Shuffle: !j.spec.IsBatch(),
				Seed: j.split.seed, Workers: 1},
			engine.Method{Spec: j.spec, Points: params, Selection: sel})
		if err != nil {
			return err
		}
		if len(res.Points) > 0 {
			j.out.ValAUC = res.Points[res.Best].ValAUC
		}
		j.out.Params, j.out.AUC = res.Params, res.TestAUC
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
// clones of params (which other jobs share); params themselves when spec needs none.
func withN(spec solver.Spec, params []solver.Params, rows int) []solver.Params {
	if spec.SetStreamLength == nil {
		return params
	}
	out := make([]solver.Params, len(params))
	for i, q := range params {
		c := q.Clone()
		spec.SetStreamLength(c, max(rows, 1))
		out[i] = c
	}
	return out
}

// scaleKind is the engine scaling (engine.Scale*) of the protocol's scaling on dim
// features: ScaleAuto is the engine's (for an algorithm that assumes ‖x‖ ≤ 1, the
// thesis'), ScaleThesis (x − mean)/‖x‖ up to data.AutoScaleMaxDim features except on
// diabetes, fourclass and german, else x/‖x‖.
func scaleKind(p Protocol, ds string, spec solver.Spec, dim int) string {
	if p.Scale != ScaleThesis && !(p.Scale == ScaleAuto && spec.UnitRows) {
		return p.Scale
	}
	if dim > data.AutoScaleMaxDim || slices.Contains([]string{"diabetes", "fourclass", "german"}, ds) {
		return data.ScaleUnit
	}
	return data.ScaleNorm
}
