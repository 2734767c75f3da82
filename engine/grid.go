package engine

import (
	"context"
	"fmt"
	"math"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/jobs"
)

// GridConfig is a grid search: every point of Grid trained on the same data, the best
// chosen by a held-out split or inner cross-validation, then refitted on the whole
// training set and scored on the test data.
type GridConfig struct {
	TrainConfig
	// Grid is solver.GridPaper or a spec (ParseGrid); the points override TrainConfig.Params.
	Grid string
	// Folds ≥ 2 selects by Folds-fold stratified cross-validation inside the training
	// data; otherwise by one stratified held-out split of Holdout.
	Folds int
	// Holdout is the share of the training rows held out for selection (default 0.2).
	Holdout float64
	// Workers bounds the goroutines that train independent grid points (default
	// GOMAXPROCS).
	Workers int

	// train and test, when train is set, are the data already in memory (Auto's
	// candidates share them, unchanged): Data only names them.
	train, test *data.Dataset
	// validate selects (validates) a grid of one point too (Selection.Always).
	validate bool
}

// GridPoint is one grid point's outcome.
type GridPoint struct {
	Params map[string]any `json:"params"`
	// ValAUC is the mean validation AUC over the folds; nil when the point failed.
	ValAUC *float64 `json:"val_auc"`
	// Failed says why the point has no AUC (it diverged, its solver failed).
	Failed string `json:"failed,omitempty"`
}

// GridResult is a grid search's outcome: the refitted best point (the embedded
// TrainResult, whose Seconds is the refit's) and every point's validation AUC.
type GridResult struct {
	*TrainResult
	Points      []GridPoint `json:"grid"`
	Best        int         `json:"best"`         // index into Points
	Edge        []string    `json:"edge"`         // grid keys whose best value is the grid's smallest or largest (edges)
	Selection   string      `json:"selection"`    // how the best was chosen
	Shared      bool        `json:"shared"`       // the points shared statistics in one pass
	GridSeconds float64     `json:"grid_seconds"` // training all points on all folds
}

// Grid runs the grid search cfg describes: a Method of the grid's points (Run). An
// online algorithm trains every point in the same pass(es) over each fold
// (solver.NewMulti: with shared statistics where the algorithm has them, else
// independent learners spread over the cores); a batch one fits the points from shared
// work where it can (solver.GridFitter), else one after another.
func Grid(ctx context.Context, cfg GridConfig) (_ *GridResult, err error) {
	defer jobs.Recover(&err)
	cfg.Seed = seedOrDefault(cfg.Seed)
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		return nil, inputError{err}
	}
	params, err := spec.GridPoints(cfg.Params, cfg.Grid)
	if err != nil {
		return nil, inputError{err}
	}
	if err := checkSelection(cfg.Folds, cfg.Holdout); err != nil {
		return nil, err
	}
	method := Method{Spec: spec, Points: params, Selection: Selection{Folds: cfg.Folds, Holdout: cfg.Holdout, Seed: cfg.Seed, Always: cfg.validate},
		DataDefaults: true, SizeStream: true}
	if err := method.check(cfg.settings(nil)); err != nil {
		return nil, err
	}
	if err := cfg.onlyTrainWeights("a grid search"); err != nil {
		return nil, err
	}
	if err := checkHoldOut(cfg.TrainConfig); err != nil {
		return nil, err
	}
	if cfg.CalibrateFolds != 0 {
		return nil, fault.Settingf("{Grid}: a cross-fitted calibration ({CalibrateFolds}) is for a single fit; hold rows out ({CalibrateHoldout}) or train the chosen point")
	}
	res := &TrainResult{Algo: spec.Name, Data: cfg.dataName(), Passes: max(cfg.Passes, 1), TestAUC: math.NaN(), Seed: cfg.Seed}
	if spec.IsBatch() {
		res.Passes = 0
	}
	sum := fingerprintFor(cfg.TrainConfig)
	src, test, err := cfg.source(ctx, spec, res)
	if err != nil {
		return nil, err
	}
	defaultPasses(spec, &cfg.Passes, res) // the same passes in the selection and the refit
	b, release, err := openBackendFor(cfg.Backend, res.workload(spec))
	if err != nil {
		return nil, err
	}
	defer release()
	res.Backend = b.Name()
	need, what := gridStateBytes(spec, params, binnedWidth(res.Features, cfg.Bins), res.TrainRows, jobs.Workers(b, cfg.Workers, len(params)))
	if err := checkMemory(spec, need, what, res.Features, res.TrainRows, memoryLimit(cfg.MaxMemory)); err != nil {
		return nil, err
	}
	set := cfg.settings(b)
	set.Workers = cfg.Workers
	g, err := Run(ctx, Problem{Train: src.(solver.DatasetSource).D, Test: test, Owned: cfg.train == nil && cfg.Dataset == nil, Info: res}, set, method)
	if err != nil {
		return nil, err
	}
	sum.wait(res)
	if err := calibrate(res, cfg.TrainConfig); err != nil {
		return nil, err
	}
	res.nameBuckets()
	return g, nil
}

// source is the grid's training source and test data: those in memory (cfg.train, in
// the layout prepare would read them in), else the files prepare reads.
func (cfg GridConfig) source(ctx context.Context, spec solver.Spec, res *TrainResult) (solver.Source, *data.Dataset, error) {
	if cfg.train == nil {
		return prepare(ctx, cfg.TrainConfig, true, res)
	}
	layout := data.LayoutSparse
	if spec.IsBatch() {
		layout = data.LayoutAuto
	}
	train, test := cfg.train.WithLayout(layout), cfg.test
	res.TrainRows, res.Features, res.density = train.Rows(), train.Dim, train.Density()
	if test != nil {
		test = test.WithLayout(layout)
		if err := checkWiderTest(res, test, cfg.AllowExtraFeatures); err != nil {
			return nil, nil, err
		}
	}
	return solver.DatasetSource{D: train, Shuffle: cfg.Shuffle, Seed: cfg.Seed}, test, nil
}

// gridStateBytes is the memory of a grid search over params on dim features and rows
// rows, and what it is for: an online grid trains every point at once, in one learner
// with shared statistics where the algorithm has one (solver.NewMulti: one state and two
// d-vectors per point, OPAUC's) or one learner per point; a batch grid fits up to
// workers points at once. The refit of the best point needs one state, no more.
func gridStateBytes(spec solver.Spec, params []solver.Params, dim, rows, workers int) (float64, string) {
	var one float64
	for _, p := range params {
		one = max(one, spec.StateBytes(dim, rows, p))
	}
	n := len(params)
	switch {
	case n == 1:
		return one, featuresOf(dim)
	case spec.IsBatch() && min(workers, n) == 1:
		return one, featuresOf(dim) // the points are fitted one by one
	case spec.IsBatch():
		k := min(workers, n)
		return float64(k) * one, fmt.Sprintf("for %d grid points fitted at once on %s features", k, groupDigits(dim))
	case spec.NewMulti != nil:
		return one + float64(n)*16*float64(dim), fmt.Sprintf("for %d grid points on %s features", n, groupDigits(dim))
	}
	return float64(n) * one, fmt.Sprintf("for %d grid points on %s features", n, groupDigits(dim))
}

// MarshalJSON writes the refitted result's fields (TrainResult's JSON) and the grid's
// in one object.
func (r *GridResult) MarshalJSON() ([]byte, error) {
	return r.TrainResult.marshalWith(map[string]any{"grid": r.Points, "best": r.Best, "edge": r.Edge,
		"selection": r.Selection, "shared": r.Shared, "grid_seconds": r.GridSeconds})
}
