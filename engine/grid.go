package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// GridPaper names an algorithm's own paper grid in GridConfig.Grid.
const GridPaper = "paper"

// GridConfig is a grid search: every point of Grid trained on the same data, the best
// chosen by a held-out split or inner cross-validation, then refitted on the whole
// training set and scored on the test data.
type GridConfig struct {
	TrainConfig
	// Grid is GridPaper or a spec (ParseGrid); the points override TrainConfig.Params.
	Grid string
	// Folds ≥ 2 selects by Folds-fold stratified cross-validation inside the training
	// data; otherwise by one stratified held-out split of Holdout.
	Folds int
	// Holdout is the share of the training rows held out for selection (default 0.2).
	Holdout float64
	// Workers bounds the goroutines that train independent grid points (default
	// GOMAXPROCS).
	Workers int
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
	Selection   string      `json:"selection"`    // how the best was chosen
	Shared      bool        `json:"shared"`       // the points shared statistics in one pass
	GridSeconds float64     `json:"grid_seconds"` // training all points on all folds
}

// ParseGrid returns the grid named by s for spec: GridPaper (or "") is the paper's
// grid; otherwise s is a list of key=values separated by ';', values a comma-separated
// list of numbers and ranges b^[lo..hi] (integer exponents), as in
//
//	eta=2^[-12..-4];lambda=0,2^[-10..-6]
func ParseGrid(spec solver.Spec, s string) (solver.Grid, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == GridPaper {
		if len(spec.Grid.Keys) == 0 {
			return solver.Grid{}, fmt.Errorf("%s has no paper grid: give one, e.g. --grid 'key=1,2,3'", spec.Name)
		}
		return spec.Grid, nil
	}
	keys := solver.Keys(spec.Params())
	var g solver.Grid
	for part := range strings.SplitSeq(s, ";") {
		k, vs, ok := strings.Cut(part, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return solver.Grid{}, fmt.Errorf("grid %q: %q is not key=values", s, part)
		}
		if !slices.Contains(keys, k) {
			return solver.Grid{}, fmt.Errorf("grid: %w: unknown key %q for %s (valid: %s)", solver.ErrParam, k, spec.Name, strings.Join(keys, ", "))
		}
		if slices.Contains(g.Keys, k) {
			return solver.Grid{}, fmt.Errorf("grid %q: key %s given twice", s, k)
		}
		var vals []float64
		for v := range strings.SplitSeq(vs, ",") {
			r, err := parseGridValues(strings.TrimSpace(v))
			if err != nil {
				return solver.Grid{}, fmt.Errorf("grid %s=%s: %w", k, vs, err)
			}
			vals = append(vals, r...)
		}
		g.Keys, g.Values = append(g.Keys, k), append(g.Values, vals)
	}
	return g, nil
}

// parseGridValues parses a number or a range b^[lo..hi].
func parseGridValues(v string) ([]float64, error) {
	if b, e, ok := strings.Cut(v, "^["); ok && strings.HasSuffix(e, "]") {
		lo, hi, ok := strings.Cut(strings.TrimSuffix(e, "]"), "..")
		base, err0 := strconv.ParseFloat(b, 64)
		l, err1 := strconv.Atoi(strings.TrimSpace(lo))
		h, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if !ok || err0 != nil || err1 != nil || err2 != nil || h < l || h-l > 1000 {
			return nil, fmt.Errorf("%q is not a range b^[lo..hi] with integers lo ≤ hi", v)
		}
		var out []float64
		for x := l; x <= h; x++ {
			out = append(out, math.Pow(base, float64(x)))
		}
		return out, nil
	}
	p := struct {
		X float64 `param:"x"`
	}{}
	if err := solver.Set(&p, "x", v); err != nil {
		return nil, fmt.Errorf("%q is not a number", v)
	}
	return []float64{p.X}, nil
}

// Grid runs the grid search cfg describes. An online algorithm trains every point in
// the same pass(es) over each fold (solver.NewMulti: with shared statistics where the
// algorithm has them, else independent learners spread over the cores); a batch one
// fits the points one after another (each using the cores itself).
func Grid(ctx context.Context, cfg GridConfig) (_ *GridResult, err error) {
	defer recoverDevice(&err)
	cfg.Seed = seedOrDefault(cfg.Seed)
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		return nil, inputError{err}
	}
	params, points, err := gridParams(spec, cfg)
	if err != nil {
		return nil, inputError{err}
	}
	if err := checkSelection(cfg.Folds, cfg.Holdout); err != nil {
		return nil, err
	}
	if cfg.Checkpoint != "" {
		return nil, inputErrorf("--grid does not take --checkpoint")
	}
	res := &GridResult{TrainResult: &TrainResult{Algo: spec.Name, Data: cfg.Data, Passes: max(cfg.Passes, 1), TestAUC: math.NaN(), Seed: cfg.Seed}}
	if spec.IsBatch() {
		res.Passes = 0
	}
	cfg.Scale = resolveScale(spec, cfg.Scale)
	sum := fingerprint(cfg.Data)
	src, test, err := prepare(ctx, cfg.TrainConfig, true, res.TrainResult)
	if err != nil {
		return nil, err
	}
	train := src.(solver.DatasetSource).D
	var facts solver.DataFacts
	if spec.Defaults != nil { // the points' other parameters take the data-scaled defaults
		facts = solver.FactsOf(train)
		for i, pt := range points {
			if params[i], err = scaledParams(spec, facts, nil, cfg.Params, pt); err != nil {
				return nil, err
			}
		}
	}
	b, err := BackendFromEnv(cfg.Backend)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	res.Backend = b.Name()
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if !ConcurrentSafe(b) {
		workers = 1 // a device backend is not promised to be safe for concurrent use
	}
	need, what := gridStateBytes(spec, params, train.Dim, train.Rows(), workers)
	if err := checkMemory(spec, need, what, train.Dim, train.Rows(), memoryLimit(cfg.MaxMemory)); err != nil {
		return nil, err
	}
	if err := search(ctx, spec, b, train, params, cfg, workers, res); err != nil {
		return nil, err
	}

	// Refit the best point on the whole training set.
	best := params[res.Best]
	res.Params = solver.Values(best)
	if spec.Defaults != nil {
		if _, note, err := dataParams(spec, facts, cfg.Params, points[res.Best]); err == nil && note != "" {
			res.Notes = append(res.Notes, note)
		}
	}
	refit := cfg.TrainConfig
	start := time.Now()
	if res.Weights, err = fit(ctx, spec, b, best, src, refit, res.TrainResult); err != nil {
		return nil, fmt.Errorf("refit of the best grid point (%s): %w", strings.Join(points[res.Best], " "), err)
	}
	res.Seconds = time.Since(start).Seconds()
	sum.wait(res.TrainResult)
	if test != nil {
		res.TestRows = test.Rows()
		if res.TestAUC, err = metric.AUC(Score(res.Weights, test), test.Y); err != nil {
			return nil, fmt.Errorf("test AUC on %s: %w", cfg.Test, err)
		}
	}
	return res, nil
}

// gridStateBytes is the memory of a grid search over params on dim features and rows
// rows, and what it is for: an online grid trains every point at once, in one learner
// with shared statistics where the algorithm has one (solver.NewMulti: one state and two
// d-vectors per point, OPAUC's) or one learner per point; a batch grid fits up to
// workers points at once. The refit of the best point needs one state, no more.
func gridStateBytes(spec solver.Spec, params []any, dim, rows, workers int) (float64, string) {
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

// gridParams returns a parameter struct (spec.Params, cfg.Params, then the point) for
// every point of cfg.Grid, and the points as key=value lists.
func gridParams(spec solver.Spec, cfg GridConfig) ([]any, [][]string, error) {
	base := spec.Params()
	if err := solver.SetAll(base, cfg.Params); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", cfg.Algo, err)
	}
	grid, err := ParseGrid(spec, cfg.Grid)
	if err != nil {
		return nil, nil, err
	}
	points := grid.Points()
	params := make([]any, len(points))
	for i, pt := range points {
		p := spec.Params()
		if err := solver.SetAll(p, append(slices.Clone(cfg.Params), pt...)); err != nil {
			return nil, nil, fmt.Errorf("%s grid point %s: %w", cfg.Algo, strings.Join(pt, " "), err)
		}
		params[i] = p
	}
	return params, points, nil
}

// ConcurrentSafe reports whether the engine may run jobs on b from several goroutines
// at once: when b says so (kernels.Concurrent) and panics only for programmer errors.
// A backend that is safe for concurrent calls but panics for device failures
// (kernels.SafeDevicePanics) runs on the entry point's goroutine, where recoverDevice
// turns those panics into errors.
func ConcurrentSafe(b kernels.Backend) bool {
	return kernels.ConcurrencyOf(b) == kernels.Safe
}

// search trains every point of params on the selection folds of the in-memory (already
// scaled) training set train and fills res's Points, Best, Selection, Shared and
// GridSeconds. It does not refit.
func search(ctx context.Context, spec solver.Spec, b kernels.Backend, train *data.Dataset, params []any,
	cfg GridConfig, workers int, res *GridResult) error {
	folds, err := gridFolds(train.Y, cfg, res)
	if err != nil {
		return err
	}
	if train, err = SelectionData(b, spec, train); err != nil {
		return fmt.Errorf("grid search: %w", err)
	}
	res.Shared = spec.NewMulti != nil
	sums := make([]float64, len(params))
	failed := make([]string, len(params))
	start := time.Now()
	validate := func(fi int, ws [][]float64, val *data.Dataset) error {
		for g, w := range ws {
			if failed[g] != "" {
				continue
			}
			auc, err := metric.AUC(Score(w, val), val.Y)
			if err != nil {
				return fmt.Errorf("grid search, fold %d: validation AUC: %w", fi+1, err)
			}
			sums[g] += auc
		}
		return nil
	}
	rest := folds // a hold-out, several passes or a batch algorithm: fold by fold
	if !spec.IsBatch() && len(folds) >= 2 && cfg.Passes <= 1 {
		// One pass per fold: the folds share their prefixes.
		rest = nil
		err = OnlineFolds(ctx, spec, b, train, folds, params, cfg.Seed, cfg.Shuffle, workers,
			func(fi int, m solver.Multi, val *data.Dataset) error {
				ws := make([][]float64, len(params))
				for g := range params {
					if n := m.Diverged(g); n != 0 && failed[g] == "" {
						failed[g] = fmt.Sprintf("diverged at example %d", n)
					}
					ws[g] = m.Weights(g)
				}
				return validate(fi, ws, val)
			}, func(g int) bool { return failed[g] != "" })
		if err != nil {
			return fmt.Errorf("grid search: %w", err)
		}
	}
	for fi, f := range rest {
		part, val := train.Subset(f.Train), train.Subset(f.Test)
		var ws [][]float64
		if spec.IsBatch() {
			var shared bool
			ws, shared, err = gridBatch(ctx, spec, b, part, params, cfg.Seed, failed)
			res.Shared = res.Shared || shared
		} else {
			ws, err = gridOnline(ctx, spec, b, part, params, cfg, workers, failed)
		}
		if err != nil {
			return fmt.Errorf("grid search, fold %d of %d: %w", fi+1, len(folds), err)
		}
		if err := validate(fi, ws, val); err != nil {
			return err
		}
	}
	res.GridSeconds = time.Since(start).Seconds()

	res.Best = -1
	res.Points = make([]GridPoint, len(params))
	for g, p := range params {
		res.Points[g] = GridPoint{Params: solver.Values(p), Failed: failed[g]}
		if failed[g] != "" {
			continue
		}
		auc := sums[g] / float64(len(folds))
		res.Points[g].ValAUC = &auc
		if res.Best < 0 || auc > *res.Points[res.Best].ValAUC {
			res.Best = g
		}
	}
	if res.Best < 0 {
		return fmt.Errorf("grid search: all %d points failed (first: %s)", len(params), failed[0])
	}
	return nil
}

// checkSelection checks a grid's selection settings: folds 0 (a held-out split) or at
// least 2, a held-out share in (0, 1) or 0 (the default, 0.2).
func checkSelection(folds int, holdout float64) error {
	switch {
	case folds < 0 || folds == 1:
		return inputErrorf("grid selection: %d folds, want 0 (a held-out split) or at least 2", folds)
	case !(holdout >= 0 && holdout < 1):
		return inputErrorf("grid selection: held-out share %g, want a share in (0, 1)", holdout)
	}
	return nil
}

// gridFolds returns the selection folds over the training labels y; data too small for
// them is an input error.
func gridFolds(y []int8, cfg GridConfig, res *GridResult) ([]data.Fold, error) {
	if cfg.Folds >= 2 {
		res.Selection = fmt.Sprintf("%d-fold stratified cross-validation", cfg.Folds)
		f, err := data.StratifiedKFold(y, cfg.Folds, cfg.Seed)
		if err != nil {
			return nil, inputErrorf("grid selection: %w", err)
		}
		return f, nil
	}
	h := cfg.Holdout
	if h == 0 {
		h = 0.2
	}
	res.Selection = fmt.Sprintf("stratified %g%% held-out split", 100*h)
	f, err := data.TrainTestSplit(y, 1-h, cfg.Seed)
	if err != nil {
		return nil, inputErrorf("grid hold-out %g: %w", h, err)
	}
	return []data.Fold{f}, nil
}

// gridBlock is the number of examples handed to a Multi at a time.
const gridBlock = 256

// gridOnline trains every point on part in one stream of cfg.Passes passes.
func gridOnline(ctx context.Context, spec solver.Spec, b kernels.Backend, part *data.Dataset, params []any,
	cfg GridConfig, workers int, failed []string) ([][]float64, error) {
	if pos, neg := part.Counts(); pos == 0 || neg == 0 {
		return nil, solver.ErrOneClass
	}
	m, err := solver.NewMulti(spec, b, part.Dim, params, cfg.Seed, workers)
	if err != nil {
		return nil, err
	}
	xs, ys := make([]kernels.Sparse, 0, gridBlock), make([]int8, 0, gridBlock)
	for p := range max(cfg.Passes, 1) {
		order := data.Shuffle(part.Rows(), cfg.Seed+uint64(p))
		if !cfg.Shuffle {
			for i := range order {
				order[i] = i
			}
		}
		for k, i := range order {
			xs, ys = append(xs, part.Row(i)), append(ys, part.Y[i])
			if len(xs) == gridBlock || k == len(order)-1 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				m.ObserveBlock(xs, ys)
				xs, ys = xs[:0], ys[:0]
			}
		}
	}
	ws := make([][]float64, len(params))
	for g := range params {
		if n := m.Diverged(g); n != 0 && failed[g] == "" {
			failed[g] = fmt.Sprintf("diverged at example %d", n)
		}
		ws[g] = m.Weights(g)
	}
	return ws, nil
}

// gridBatch fits every point on part: all at once from shared work when the algorithm
// is a solver.GridFitter (MBA's λ path from one Σ_S), else one after another. A point
// whose fit fails is marked failed rather than ending the search.
func gridBatch(ctx context.Context, spec solver.Spec, b kernels.Backend, part *data.Dataset, params []any,
	seed uint64, failed []string) (ws [][]float64, shared bool, err error) {
	if l, err := spec.NewBatch(b, part.Dim, params[0], seed); err == nil {
		if gf, ok := l.(solver.GridFitter); ok {
			ws, errs, ok, err := gf.FitGrid(ctx, part, params)
			if err != nil {
				return nil, true, err
			}
			if ok {
				for g, e := range errs {
					if e != nil && failed[g] == "" {
						failed[g] = e.Error()
					}
				}
				return ws, true, nil
			}
		}
	}
	ws = make([][]float64, len(params))
	for g, p := range params {
		if failed[g] != "" {
			continue
		}
		l, err := spec.NewBatch(b, part.Dim, p, seed)
		if err != nil {
			return nil, false, err
		}
		if err := l.Fit(ctx, part); err != nil {
			if ctx.Err() != nil {
				return nil, false, ctx.Err()
			}
			failed[g] = err.Error()
			continue
		}
		ws[g] = l.Weights()
	}
	return ws, false, nil
}

// MarshalJSON writes the refitted result's fields (TrainResult's JSON) and the grid's
// in one object.
func (r *GridResult) MarshalJSON() ([]byte, error) {
	tb, err := r.TrainResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(tb, &m); err != nil {
		return nil, err
	}
	m["grid"], m["best"], m["selection"], m["shared"], m["grid_seconds"] = r.Points, r.Best, r.Selection, r.Shared, r.GridSeconds
	return json.Marshal(m)
}
