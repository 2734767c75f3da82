package aucbeam

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
)

func init() {
	register.DoFn4x1[context.Context, WorkItem, func(*fileio.ReadableFile) bool, func(string), error](&fitFn{})
	register.Iter1[fileio.ReadableFile]()
	beam.RegisterType(reflectTypeOf[WorkItem]())
}

// WorkItem is one fit of the grid search: a grid point on one fold (Fold ≥ 0: train
// on the other folds, validate on this one) or on all rows (Fold = −1: the refit).
type WorkItem struct {
	Point  int
	Params []string
	Fold   int
}

// WorkResult is a work item's outcome, one JSON line of the pipeline's output.
type WorkResult struct {
	Point   int       `json:"point"`
	Fold    int       `json:"fold"`
	AUC     *float64  `json:"auc,omitempty"`     // validation AUC (none for a refit or a failure)
	Err     string    `json:"error,omitempty"`   // the fit failed (diverged, singular, …)
	Weights []float64 `json:"weights,omitempty"` // a refit's
	Scale   string    `json:"scale,omitempty"`
	Scaling *data.Scaling
	Dim     int          `json:"dim"`
	Rows    int          `json:"rows"`
	Seconds float64      `json:"seconds"`
	Schema  *data.Schema `json:"table,omitempty"` // a refit's: how the table shards' columns became features
}

// fitFn fits one work item through aucopt's library on the training shards (a side
// input: every work item reads them, in name order, as one dataset).
type fitFn struct {
	Algo     string
	Folds    int
	Seed     uint64
	Scale    string
	Passes   int
	Positive string
	Table    *data.TableOptions // table shards: how their columns become features (nil: the defaults)
	Glob     string
}

// ProcessElement fits the item and emits its WorkResult as JSON. A failed fit is a
// result (the point is then not chosen); unreadable shards fail the pipeline.
func (f *fitFn) ProcessElement(ctx context.Context, it WorkItem, shards func(*fileio.ReadableFile) bool, emit func(string)) error {
	var files []fileio.ReadableFile
	var rf fileio.ReadableFile
	for shards(&rf) {
		files = append(files, rf)
	}
	ds, sch, err := readDataset(ctx, files, f.Positive, f.Table, f.Glob)
	if err != nil {
		return markInput(err)
	}
	res := fitItem(ctx, f, it, ds)
	if it.Fold < 0 {
		res.Schema = sch
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	emit(string(b))
	return nil
}

// fitItem trains the item's point on its fold's training rows (all rows for a refit),
// scaled as `aucopt train` scales, and measures the AUC on the fold's rows.
func fitItem(ctx context.Context, f *fitFn, it WorkItem, ds *data.Dataset) WorkResult {
	start := time.Now()
	res := WorkResult{Point: it.Point, Fold: it.Fold}
	fail := func(err error) WorkResult {
		res.Err = err.Error()
		res.Seconds = time.Since(start).Seconds()
		return res
	}
	spec, err := solver.Lookup(f.Algo)
	if err != nil {
		return fail(err)
	}
	params := spec.Params()
	if err := params.SetAll(it.Params); err != nil {
		return fail(err)
	}
	train, val := ds, (*data.Dataset)(nil)
	if it.Fold >= 0 {
		folds, err := data.StratifiedKFold(ds.Y, f.Folds, f.Seed)
		if err != nil {
			return fail(err)
		}
		train, val = ds.Subset(folds[it.Fold].Train), ds.Subset(folds[it.Fold].Test)
	}
	res.Dim, res.Rows = train.Dim, train.Rows()
	sc, err := data.FitScaling(f.Scale, train, spec.UnitRows) // as `aucopt train` scales
	if err != nil {
		return fail(err)
	}
	res.Scale, res.Scaling = sc.Kind, sc
	apply := func(d *data.Dataset) *data.Dataset {
		if d.Dim != train.Dim {
			d = d.Truncate(train.Dim)
		}
		return sc.Apply(d)
	}
	train = apply(train)
	b := accBackend()
	var w []float64
	if spec.IsBatch() {
		l, err := spec.NewBatch(b, max(train.Dim, 1), params, f.Seed)
		if err != nil {
			return fail(err)
		}
		if err := l.Fit(ctx, train); err != nil {
			return fail(err)
		}
		w = l.Weights()
	} else {
		l, err := spec.NewOnline(b, max(train.Dim, 1), params, f.Seed)
		if err != nil {
			return fail(err)
		}
		src := solver.DatasetSource{D: train, Shuffle: true, Seed: f.Seed}
		passes := f.Passes
		if passes == 0 { // the learner's default for these rows, as engine.Train's
			passes = spec.DefaultPasses(train.Rows())
		}
		if _, err := solver.Run(ctx, l, src, solver.RunOptions{Passes: passes, Algo: spec.Name, Dim: max(train.Dim, 1)}); err != nil {
			return fail(err)
		}
		w = l.Weights()
	}
	if val == nil {
		res.Weights = w
	} else {
		auc, err := engine.ScoreAUC(w, apply(val))
		if err != nil {
			return fail(err)
		}
		res.AUC = &auc
	}
	res.Seconds = time.Since(start).Seconds()
	return res
}

// GridConfig is one Grid run.
type GridConfig struct {
	Data     string // glob of the training shards
	Algo     string
	Grid     string // solver.GridPaper ("" too) or a spec as `aucopt train --grid` takes
	Folds    int    // stratified folds (default 5)
	Passes   int    // passes of an online algorithm (0: its default for each fit's rows, solver.Spec.DefaultPasses)
	Scale    string
	Seed     uint64
	Positive string
	Table    *data.TableOptions // see MomentsConfig.Table
	TempDir  string             // see MomentsConfig.TempDir
}

// GridPoint is one grid point's outcome.
type GridPoint struct {
	Params []string  `json:"params"`
	AUCs   []float64 `json:"aucs"`             // per fold
	Mean   *float64  `json:"mean,omitempty"`   // none when a fold failed
	Failed string    `json:"failed,omitempty"` // the first fold's error
}

// GridResult is the grid search's outcome and the best point refitted on all rows.
type GridResult struct {
	Points []GridPoint         `json:"points"`
	Best   int                 `json:"best"`
	Refit  *engine.TrainResult `json:"refit"`
	Items  int                 `json:"work_items"`
	Secs   float64             `json:"seconds"`
}

// Grid fans the grid × folds out as independent work items on the runner, gathers the
// validation AUCs, picks the point with the best mean (the first on ties) and refits
// it on all rows in a second pipeline of one work item.
func Grid(ctx context.Context, cfg GridConfig) (*GridResult, error) {
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		return nil, err
	}
	g, err := spec.ParseGrid(cfg.Grid)
	if err != nil {
		return nil, err
	}
	if cfg.Folds == 0 {
		cfg.Folds = 5
	}
	if cfg.Folds < 2 {
		return nil, fmt.Errorf("grid: %d folds, want at least 2", cfg.Folds)
	}
	if cfg.Passes < 0 {
		return nil, fmt.Errorf("grid: %d passes, want 0 (the learner's default) or more", cfg.Passes)
	}
	if spec.IsBatch() && cfg.Passes > 1 {
		return nil, fmt.Errorf("%s is a batch algorithm: passes do not apply", spec.Name)
	}
	if _, err := data.NewLabelRule(cfg.Positive); err != nil {
		return nil, err
	}
	points := g.Points()
	for _, p := range points { // bad values fail here, not on the workers
		if err := spec.Params().SetAll(p); err != nil {
			return nil, fmt.Errorf("%s: %w", spec.Name, err)
		}
	}
	start := time.Now()
	var items []WorkItem
	for i, p := range points {
		for f := range cfg.Folds {
			items = append(items, WorkItem{Point: i, Params: p, Fold: f})
		}
	}
	results, err := runItems(ctx, cfg, spec.Name, items)
	if err != nil {
		return nil, err
	}
	res := &GridResult{Best: -1, Items: len(items)}
	for _, p := range points {
		res.Points = append(res.Points, GridPoint{Params: p, AUCs: make([]float64, cfg.Folds)})
	}
	for _, r := range results {
		gp := &res.Points[r.Point]
		if r.AUC != nil {
			gp.AUCs[r.Fold] = *r.AUC
		}
		if r.Err != "" && gp.Failed == "" {
			gp.Failed = fmt.Sprintf("fold %d: %s", r.Fold+1, r.Err)
		}
	}
	for i := range res.Points {
		gp := &res.Points[i]
		if gp.Failed == "" {
			mean, _ := metric.MeanStd(gp.AUCs)
			gp.Mean = &mean
			if res.Best < 0 || mean > *res.Points[res.Best].Mean {
				res.Best = i
			}
		}
	}
	if res.Best < 0 {
		return res, fmt.Errorf("grid: every point failed; the first: %s", res.Points[0].Failed)
	}
	refit, err := runItems(ctx, cfg, spec.Name, []WorkItem{{Point: res.Best, Params: points[res.Best], Fold: -1}})
	if err != nil {
		return nil, err
	}
	r := refit[0]
	if r.Err != "" {
		return nil, fmt.Errorf("refitting the best point %s: %s", strings.Join(points[res.Best], " "), r.Err)
	}
	params := spec.Params()
	_ = params.SetAll(points[res.Best])
	passes := cfg.Passes
	switch {
	case spec.IsBatch():
		passes = 0
	case passes == 0:
		passes = spec.DefaultPasses(r.Rows)
	}
	res.Refit = &engine.TrainResult{Algo: spec.Name, Params: params.Values(), Backend: accBackend().Name(), Data: cfg.Data,
		TrainRows: r.Rows, Features: r.Dim, Passes: passes, Scale: r.Scale, Seconds: r.Seconds, TestAUC: math.NaN(),
		Weights: r.Weights, Scaling: r.Scaling, Seed: cfg.Seed, Schema: r.Schema}
	res.Secs = time.Since(start).Seconds()
	return res, nil
}

// runItems runs the work items as one pipeline and returns their results.
func runItems(ctx context.Context, cfg GridConfig, algo string, items []WorkItem) ([]WorkResult, error) {
	dir, cleanup, err := tempDir(cfg.TempDir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	out := dir + "/grid.txt"
	p, s := beam.NewPipelineWithRoot()
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, cfg.Data, fileio.MatchEmptyAllow()))
	its := beam.CreateList(s, items)
	fn := &fitFn{Algo: algo, Folds: cfg.Folds, Seed: cfg.Seed, Scale: cfg.Scale, Passes: cfg.Passes, Positive: cfg.Positive, Table: cfg.Table, Glob: cfg.Data}
	textio.Write(s, out, beam.Reshuffle(s, beam.ParDo(s, fn, beam.Reshuffle(s, its), beam.SideInput{Input: files})))
	if _, err := beamx.RunWithMetrics(ctx, p); err != nil {
		return nil, pipelineError(fmt.Sprintf("grid pipeline on %s", cfg.Data), err)
	}
	rs, err := readJSONLines[WorkResult](ctx, out)
	if err != nil {
		return nil, err
	}
	if len(rs) != len(items) {
		return nil, fmt.Errorf("grid pipeline: %d results for %d work items", len(rs), len(items))
	}
	return rs, nil
}
