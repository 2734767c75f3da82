package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/jobs"
	"github.com/aucopt/aucopt/kernels"
)

// CVConfig is a cross-validation: cfg.Algo trained on all but one fold of cfg.Data and
// scored (AUC) on the fold left out, for every fold, with the scaling fitted on each
// training part alone.
type CVConfig struct {
	// TrainConfig names the algorithm, its parameters, the data and the run (Passes,
	// Shuffle, Scale, Seed, Backend). Test and Checkpoint must be empty: CV uses no
	// test data, and its runs are not resumable. Progress is not used (see FoldDone).
	TrainConfig
	// Folds is k of the stratified k-fold split (default 5; at least 2, and at most the
	// number of rows of the smaller class).
	Folds int
	// Repeats > 1 repeats the k-fold split with seeds Seed, Seed+1, … (data.RepeatedKFold,
	// the papers' 5 × 5 protocol); 0 or 1 is one stratified k-fold.
	Repeats int
	// Grid, when not empty, is a nested grid search (solver.GridPaper or a ParseGrid spec): on
	// each training part the grid's best point is chosen by GridFolds-fold
	// cross-validation (GridFolds ≥ 2) or a stratified held-out share GridHoldout
	// (default 0.2) of that part, refitted on the whole part and scored on the fold.
	Grid        string
	GridFolds   int
	GridHoldout float64
	// Workers bounds the folds trained at once (default GOMAXPROCS; 1 on a device
	// backend). Each fold has its own learner and copy of its rows; the results do not
	// depend on Workers.
	Workers int
	// FoldDone, when set, is called after each fold, one call at a time, with the
	// fold's outcome and the number of folds done and in all.
	FoldDone func(run CVRun, done, total int)
}

// CVRun is one fold's outcome.
type CVRun struct {
	Repeat    int     `json:"repeat"` // 1-based repetition of the k-fold split
	Fold      int     `json:"fold"`   // 1-based fold within the repetition
	TrainRows int     `json:"train_rows"`
	TestRows  int     `json:"test_rows"`
	AUC       float64 `json:"auc"`     // on the fold's rows
	Seconds   float64 `json:"seconds"` // training (and grid search) time
	// Algo is the algorithm AutoCV chose on this fold's training part ("" otherwise).
	Algo string `json:"algo,omitempty"`
	// Params is the grid point chosen on this fold's training part (grid only), or the
	// parameters the fold trained with when its defaults were scaled to it
	// (solver.Spec.Defaults).
	Params map[string]any `json:"params,omitempty"`
	// ValAUC is the chosen point's validation AUC inside the training part (grid only).
	ValAUC *float64 `json:"val_auc,omitempty"`
}

// CVResult is a cross-validation's outcome: per-fold AUCs in fold order (repetition by
// repetition) and their mean and sample standard deviation.
type CVResult struct {
	Algo string `json:"algo"`
	// Params are the parameters every fold trained with; with a grid, only those the
	// grid does not set (each fold's chosen point is in Runs). For an algorithm whose
	// defaults scale to the data they are the static defaults and each fold's own are
	// in Runs.
	Params    map[string]any `json:"params"`
	Grid      string         `json:"grid,omitempty"`      // the grid spec, "" without a grid
	Selection string         `json:"selection,omitempty"` // how a fold's grid point was chosen
	Backend   string         `json:"backend"`
	Data      string         `json:"data"`
	Rows      int            `json:"rows"` // rows cross-validated
	Features  int            `json:"features"`
	Scale     string         `json:"scale"`
	Passes    int            `json:"passes"` // 0 for a batch algorithm
	Folds     int            `json:"folds"`
	Repeats   int            `json:"repeats"`
	Workers   int            `json:"workers"`
	AUCs      []float64      `json:"aucs"` // Runs' AUCs, in order
	Mean      float64        `json:"mean"`
	Std       float64        `json:"std"`     // sample standard deviation (metric.MeanStd)
	Seconds   float64        `json:"seconds"` // wall time of all folds
	Runs      []CVRun        `json:"runs"`
	Notes     []string       `json:"notes,omitempty"`
}

// CV cross-validates cfg.Algo on cfg.Data: stratified k-fold (repeated when Repeats > 1),
// folds trained in parallel, each with the scaling fitted on its training part only
// (no leakage into the fold scored). An online algorithm makes cfg.Passes passes
// (shuffled when cfg.Shuffle) over the training part; a batch one fits it. A dataset
// with a fixed train/test split is cross-validated on its training part (a note says
// so); its test part is not used.
func CV(ctx context.Context, cfg CVConfig) (_ *CVResult, err error) {
	defer jobs.Recover(&err)
	cfg.Seed = seedOrDefault(cfg.Seed)
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		return nil, err
	}
	base, err := spec.ParamsWith(cfg.Params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Algo, err)
	}
	if err := cfg.onlyTrainWeights("cross-validation"); err != nil {
		return nil, err
	}
	k, repeats := cfg.Folds, cfg.Repeats
	if k == 0 {
		k = 5
	}
	if repeats == 0 {
		repeats = 1
	}
	switch {
	case k < 2:
		return nil, fmt.Errorf("cross-validation: %w: %d folds, want at least 2", solver.ErrParam, k)
	case repeats < 1:
		return nil, fmt.Errorf("cross-validation: %w: %d repeats, want at least 1", solver.ErrParam, repeats)
	case cfg.Grid != "" && checkSelection(cfg.GridFolds, cfg.GridHoldout) != nil:
		return nil, checkSelection(cfg.GridFolds, cfg.GridHoldout)
	case cfg.Test != "":
		return nil, inputErrorf("cross-validation scores held-out folds of the training data: it takes no test data (%s)", cfg.Test)
	case cfg.Checkpoint != "":
		return nil, inputErrorf("cross-validation takes no checkpoint")
	case spec.IsBatch() && cfg.Passes > 1:
		return nil, fmt.Errorf("%s is a batch algorithm: it sees the whole training set, so passes do not apply", spec.Name)
	}
	res := &CVResult{Algo: spec.Name, Params: base.Values(), Grid: cfg.Grid, Data: cfg.Data,
		Passes: max(cfg.Passes, 1), Folds: k, Repeats: repeats}
	var params []solver.Params // the grid's points; nil without a grid
	if cfg.Grid != "" {
		if params, err = spec.GridPoints(base, cfg.Grid); err != nil {
			return nil, err
		}
		g, _ := spec.ParseGrid(cfg.Grid) // parsed by gridParams
		res.Params = base.Values()
		for _, k := range g.Keys {
			delete(res.Params, k)
		}
	}

	if spec.IsBatch() {
		res.Passes = 0
	}
	if cfg.Data == "" {
		return nil, inputErrorf("no data given")
	}
	ds, splitTest, _, err := loadWith(ctx, cfg.Data, cfg.Seed, data.LayoutSparse, cfg.readOptions())
	if err != nil {
		return nil, err
	}
	if splitTest != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("%s has a fixed train/test split: cross-validation runs on its %d training rows; its %d test rows are not used",
			cfg.Data, ds.Rows(), splitTest.Rows()))
	}
	res.Rows, res.Features = ds.Rows(), ds.Dim
	var folds [][]data.Fold
	if repeats == 1 {
		f, err := data.StratifiedKFold(ds.Y, k, cfg.Seed)
		folds = [][]data.Fold{f}
		if err != nil {
			return nil, inputErrorf("cross-validation on %s: %w", cfg.Data, err)
		}
	} else if folds, err = data.RepeatedKFold(ds.Y, k, repeats, cfg.Seed); err != nil {
		return nil, inputErrorf("cross-validation on %s: %w", cfg.Data, err)
	}

	foldRows := ds.Rows() - ds.Rows()/k
	if !spec.IsBatch() {
		if cfg.Passes == 0 { // every fold makes the passes of a typical fold's rows
			cfg.Passes = spec.DefaultPasses(foldRows)
		}
		res.Passes = max(cfg.Passes, 1)
	}
	w := workShape{Spec: spec, Rows: foldRows, Dim: ds.Dim, Density: ds.Density(), Passes: res.Passes} // a fold's training part
	b, release, err := openBackendFor(cfg.Backend, w)
	if err != nil {
		return nil, err
	}
	defer release()
	res.Backend = b.Name()
	res.Runs = make([]CVRun, 0, k*repeats)
	var cells []data.Fold
	for r, fs := range folds {
		for f, fold := range fs {
			res.Runs = append(res.Runs, CVRun{Repeat: r + 1, Fold: f + 1, TrainRows: len(fold.Train), TestRows: len(fold.Test)})
			cells = append(cells, fold)
		}
	}
	workers := jobs.Workers(b, cfg.Workers, len(cells))
	res.Workers = workers
	inner := 1 // a grid's goroutines per fold: the folds already fill the cores
	if workers == 1 && jobs.ConcurrentSafe(b) {
		inner = runtime.GOMAXPROCS(0)
	}
	// Memory: workers folds at once, each one learner or one grid search.
	need, what := spec.StateBytes(ds.Dim, foldRows, base), featuresOf(ds.Dim)
	if params != nil {
		need, what = gridStateBytes(spec, params, ds.Dim, foldRows, inner)
	}
	if workers > 1 {
		need, what = float64(workers)*need, fmt.Sprintf("%s, %d folds at once", what, workers)
	}
	if err := checkMemory(spec, need, what, ds.Dim, foldRows, memoryLimit(cfg.MaxMemory)); err != nil {
		return nil, err
	}

	// Each fold's scaling kind is the same (it depends only on Dim), so the first
	// fold's is reported.
	scaleKinds := make([]string, len(cells))
	selections := make([]string, len(cells))
	points := params
	if points == nil {
		points = []solver.Params{base}
	}
	set := cfg.settings(b)
	set.Progress, set.Checkpoint, set.Workers = nil, "", inner
	method := Method{Spec: spec, Points: points, Selection: Selection{Folds: cfg.GridFolds, Holdout: cfg.GridHoldout, Seed: cfg.Seed},
		DataDefaults: true, SizeStream: true}
	one := func(ctx context.Context, b kernels.Backend, i int) error {
		run := &res.Runs[i]
		start := time.Now()
		fs := set
		fs.Backend = b
		g, err := Run(ctx, Problem{Train: ds.Subset(cells[i].Train), Test: ds.Subset(cells[i].Test)}, fs, method)
		if err != nil {
			return err
		}
		run.Seconds, run.AUC, scaleKinds[i] = time.Since(start).Seconds(), g.TestAUC, g.Scale
		if params != nil || spec.Defaults != nil { // the fold's own parameters
			run.Params = g.Params
			if len(g.Points) > 0 {
				run.ValAUC, selections[i] = g.Points[g.Best].ValAUC, g.Selection
			}
		}
		return nil
	}

	start := time.Now()
	if err := jobs.Run(ctx, b, len(cells), workers, one, func(i, done int) {
		if cfg.FoldDone != nil {
			cfg.FoldDone(res.Runs[i], done, len(cells))
		}
	}); err != nil {
		var je *jobs.Error
		if errors.As(err, &je) {
			r := res.Runs[je.Index]
			where := fmt.Sprintf("fold %d of %d", r.Fold, k)
			if repeats > 1 {
				where = fmt.Sprintf("repeat %d, fold %d of %d", r.Repeat, r.Fold, k)
			}
			return nil, fmt.Errorf("cross-validation of %s on %s, %s: %w", spec.Name, cfg.Data, where, je.Err)
		}
		return nil, fmt.Errorf("cross-validation: %w", err)
	}
	res.Seconds = time.Since(start).Seconds()
	res.Scale, res.Selection = scaleKinds[0], selections[0]
	res.AUCs = make([]float64, len(res.Runs))
	for i, r := range res.Runs {
		res.AUCs[i] = r.AUC
	}
	res.Mean, res.Std = metric.MeanStd(res.AUCs)
	return res, nil
}
