package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/internal/jobs"
	"github.com/aucopt/aucopt/kernels"
)

// Selection is how a Method with several points chooses one: Folds-fold stratified
// cross-validation of the (scaled) training data when Folds ≥ 2, else one stratified
// held-out share Holdout of it (default 0.2). Seed seeds the folds or the split.
type Selection struct {
	Folds   int
	Holdout float64
	Seed    uint64
	// Always validates a task of one point too (its validation AUC, then the refit),
	// which otherwise is trained without selection: Auto's reference at one point,
	// compared with the other candidates by that AUC.
	Always bool
}

// Problem is the data of a run (Run): the training rows, in memory or streamed, and
// the test rows the refit is scored on.
type Problem struct {
	// Train is the training data as read (Run scales and bins it). Rows, when not nil,
	// are the rows of Train to train on, in this order (a calibration hold-out's
	// training part, a cross-fitting fold's), named rather than copied: a fit from the
	// class moments reads them where they lie (momentsFit), any other fit gets their
	// copy, Train.Subset(Rows).
	Train *data.Dataset
	Rows  []int
	// Owned says that Train is the run's alone: Run may scale and permute its rows in
	// place instead of copying them.
	Owned bool
	// Stream, in place of Train, is training data the learner reads as it is streamed
	// (a file, one row in memory at a time): one point, no scaling, no bins, an online
	// algorithm; Info must describe it (its rows and features).
	Stream solver.Source
	// Test, when not nil, is scored with the refitted weights (features beyond Train's
	// count 0). TestLater, when set in place of Test, returns test data being read
	// beside the fit, waiting for its read: Run calls it to score, then prepares the
	// data as the training data were (TrainResult.asTrained).
	Test      *data.Dataset
	TestLater func() (*data.Dataset, error)
	// Moments, in place of Train, are the training data's class moments accumulated
	// anywhere (streamed from a file, merged from Beam's shards): one point of an
	// algorithm that fits from them alone (Method.CheckMoments), the scaling applied
	// exactly on the moments (data.ScaleAuto, ScaleMinMax or ScaleNone), no shuffling,
	// bins, checkpoint or averaging.
	Moments *stats.ClassMoments
	// Info, when not nil, is the result Run fills in place of a fresh one: the data as
	// the caller read it (name, rows and features, fingerprint, schema, notes) and the
	// backend, to which Run adds the fit (weights, parameters, scaling, test AUC). Nil:
	// a fresh result describing Train.
	Info *TrainResult
}

// Settings is what every Method honours: the run's randomness, its passes and order,
// the scaling and bins fitted on the training data, the backend and the workers, the
// progress reports, the checkpoint and parameter averaging of an online refit, and
// test data wider than the training data.
type Settings struct {
	// Backend computes the run; nil opens the default selection for the data (the
	// backend $AUCOPT_BACKEND names, else automatic selection's) for the run only.
	Backend kernels.Backend
	// Seed seeds the learners, the shuffling and the selection folds' (Selection.Seed
	// apart).
	Seed uint64
	// Passes (0: the learner's default for the training rows, solver.Spec.DefaultPasses)
	// and Shuffle (a random order seeded by Seed+pass) are an online algorithm's passes
	// over the training rows, in the selection and the refit; a batch algorithm's refit
	// sees the rows shuffled when Shuffle is set.
	Passes  int
	Shuffle bool
	// Scale is the scaling kind (data.ScaleAuto, ScaleNone, …), fitted on the training
	// data and applied to both parts; ScaleAuto takes the algorithm's preference
	// (solver.Spec.UnitRows).
	Scale string
	// Bins, when not 0, expands the scaled training data by at most Bins quantile-bin
	// indicators per feature (data.FitBins; TrainConfig.Bins), fitted on the training
	// data, and the test data by the same bins.
	Bins int
	// Workers bounds the goroutines of a grid's independent learners (default
	// GOMAXPROCS; 1 on a backend not safe for concurrent use).
	Workers int
	// Progress, when set, receives the refit's progress (online algorithms).
	Progress func(solver.Progress)
	// Checkpoint is the online refit's checkpoint file (TrainConfig.Checkpoint; one
	// point); Average, when above 1, the shards of a parameter-averaged online refit
	// (TrainConfig.Average).
	Checkpoint string
	Average    int
	// AllowExtraFeatures scores test data wider than the training data, the extra
	// features at weight 0 (TrainConfig.AllowExtraFeatures).
	AllowExtraFeatures bool
}

// Method is how a run learns: an algorithm, the points of its parameters to try and
// how to choose among them. Train is a method of one point, Grid one of a grid's
// points, CV one per fold, and an experiment's cell one per split.
type Method struct {
	Spec solver.Spec
	// Points are the parameters to try, each made by Spec.Params; with one point there
	// is no selection (unless Selection.Always), with several Selection chooses one.
	// Run does not change them: a point may be shared with other runs.
	Points    []solver.Params
	Selection Selection
	// DataDefaults says that for an algorithm with data-scaled defaults
	// (solver.Spec.Defaults) Run remakes every point on the scaled training data: the
	// defaults for its facts (solver.FactsOf), with the keys set in the point
	// (solver.Params.IsSet: the caller's, then the grid point's own) kept (dataParams);
	// the refit's Notes say what the data set. Without it the Points are used as given
	// (the experiments' paper settings).
	DataDefaults bool
	// SizeStream sets the stream length (solver.Spec.SetStreamLength: FSAUC's n) of
	// every point that does not set it to the examples each fit sees (Train, Grid and
	// CV; an experiment sets it itself).
	SizeStream bool
}

// check reports the settings m cannot take, for every entry point in one place: a
// checkpoint but for a single online fit (one point, no selection), parameter
// averaging but for an online algorithm, passes for a batch one. The entry points call it before they read the data; Run calls it again.
func (m Method) check(s Settings) error {
	spec := m.Spec
	switch {
	case spec.IsBatch() && s.Checkpoint != "":
		return fault.Settingf("%s is a batch algorithm: {Checkpoint} is for online ones", spec.Name)
	case spec.IsBatch() && s.Passes > 1:
		return fault.Settingf("%s is a batch algorithm: it sees the whole training set, so {Passes} does not apply", spec.Name)
	case s.Checkpoint != "" && (len(m.Points) > 1 || m.Selection != Selection{}):
		return fault.Settingf("{Grid} does not take {Checkpoint}: a checkpoint is a single fit's")
	case s.Average > 1 && spec.IsBatch():
		return fault.Settingf("{Average}: %s is a batch algorithm; averaging is for the one-pass (online) ones", spec.Name)
	case s.Average > 1 && s.Checkpoint != "":
		return fault.Settingf("{Average} and {Checkpoint} do not go together")
	}
	return nil
}

// checkProblem reports the data m cannot take: none, or a stream but for one point,
// unscaled, without bins or averaging, described by p.Info.
func (m Method) checkProblem(p Problem, s Settings) error {
	switch {
	case len(m.Points) == 0 || (p.Train == nil && p.Stream == nil && p.Moments == nil):
		return fmt.Errorf("%s: a run needs training data and at least one point", m.Spec.Name)
	case p.Moments != nil && (p.Train != nil || p.Stream != nil):
		return fmt.Errorf("%s: give the training data's rows, a stream or their class moments, not two", m.Spec.Name)
	case p.Moments != nil && (s.Shuffle || s.Bins != 0 || s.Checkpoint != "" || s.Average > 1):
		return fault.Settingf("%s fits from class moments: {Shuffle}, {Bins}, {Checkpoint} and {Average} do not apply", m.Spec.Name)
	case p.Stream != nil && (p.Info == nil || len(m.Points) > 1 || s.Bins != 0 || s.Average > 1):
		return fmt.Errorf("%s: streamed training data takes one point, no bins and no averaging, and its description (Problem.Info)", m.Spec.Name)
	}
	return nil
}

// Run is the driver every entry point builds: it fits s.Scale on p's training data and
// applies it to both parts (and, with s.Bins, expands both by bins fitted on the scaled
// training data), chooses the best of m.Points (by mean validation AUC under
// m.Selection; skipped for one point), refits that point on the whole training data
// with the algorithm's driver (solver.Run for an online algorithm, Fit for a batch one)
// and scores the test data. The result's TrainResult holds the refit (Weights, Params,
// Scale, TestAUC, NaN without test data); Points, Best, Edge and Selection the choice
// (empty for one point). What m cannot take of p and s is refused before anything
// runs.
//
// A point whose validation AUC is NaN, that diverges or whose fit fails is marked
// failed with the reason and the search goes on; when every point fails, the error
// wraps solver.ErrDiverged.
func Run(ctx context.Context, p Problem, s Settings, m Method) (_ *GridResult, err error) {
	defer jobs.Recover(&err)
	if err := m.check(s); err != nil {
		return nil, err
	}
	if err := m.checkProblem(p, s); err != nil {
		return nil, err
	}
	if p.Moments != nil {
		return runMoments(ctx, p, s, m)
	}
	t := task{Problem: p, Settings: s, Method: m}
	spec := t.Spec
	if t.Passes == 0 && !spec.IsBatch() {
		rows := 0
		switch {
		case t.Rows != nil:
			rows = len(t.Rows)
		case t.Train != nil:
			rows = t.Train.Rows()
		case t.Info != nil:
			rows = t.Info.TrainRows
		}
		t.Passes = spec.DefaultPasses(rows)
	}
	res := &GridResult{TrainResult: t.Info}
	if res.TrainResult == nil {
		res.TrainResult = &TrainResult{Algo: spec.Name, Data: t.Train.Name, TrainRows: t.Train.Rows(), Features: t.Train.Dim,
			Passes: max(t.Passes, 1), TestAUC: math.NaN(), Seed: t.Seed}
		if spec.IsBatch() {
			res.Passes = 0
		}
	}
	b, release, err := openBackendFor(t.Backend, res.workload(spec))
	if err != nil {
		return nil, err
	}
	defer release()
	t.Backend = b
	if res.Backend == "" {
		res.Backend = b.Name()
	}
	src, test := t.Stream, t.Test
	if src != nil {
		t.Points = t.streamLengths(t.Points, res.TrainRows)
	}
	start := time.Now()
	fitted := false
	if src == nil {
		// prepareTask takes the rows as read: once scaled, they can go.
		train := t.Train
		t.Train, t.Test = nil, nil
		order := t.Rows
		if t.Shuffle { // fit's order, of the rows' copy when they are named
			sh := data.Shuffle(train.Rows(), t.Seed)
			if t.Rows != nil {
				sh = data.Shuffle(len(t.Rows), t.Seed)
				for k, i := range sh {
					sh[k] = t.Rows[i]
				}
			}
			order = sh
		}
		if fitted, err = momentsFit(ctx, b, &t, train, order, t.Rows != nil, res); err != nil {
			return nil, err
		}
		if fitted {
			test = res.asTrained(test)
		} else {
			if t.Rows != nil {
				train, t.Owned = train.Subset(t.Rows), true // the copy is this run's alone
			}
			if src, test, err = prepareTask(ctx, b, &t, train, test, res); err != nil {
				return nil, err
			}
		}
	}
	best := t.Points[res.Best]
	res.Params = best.Values()
	if !fitted {
		start = time.Now()
		if res.Weights, err = fit(ctx, spec, b, best, src, t.Settings, res.TrainResult); err != nil {
			if len(t.Points) > 1 {
				return nil, fmt.Errorf("refit of the best grid point (%s): %w", pointString(res.Points, res.Best), err)
			}
			return nil, err
		}
	}
	res.Seconds = time.Since(start).Seconds()
	if t.TestLater != nil {
		if test, err = t.TestLater(); err != nil {
			return nil, err
		}
		if test != nil {
			if err := checkWiderTest(res.TrainResult, test, t.AllowExtraFeatures); err != nil {
				return nil, err
			}
			test = res.asTrained(test)
		}
	}
	if test != nil {
		res.TestRows = test.Rows()
		if res.TestAUC, err = ScoreAUC(res.Weights, test); err != nil {
			return nil, fmt.Errorf("test data: %w", err)
		}
	}
	return res, nil
}

// runMoments is Run for p.Moments: the one point fitted from the class moments
// (fitClassMoments), the test data scored.
func runMoments(ctx context.Context, p Problem, s Settings, m Method) (*GridResult, error) {
	if err := m.CheckMoments(s.Scale); err != nil {
		return nil, err
	}
	res := p.Info
	if res == nil {
		res = &TrainResult{TestAUC: math.NaN(), Seed: s.Seed}
	}
	b, release, err := openBackendFor(s.Backend, workShape{})
	if err != nil {
		return nil, err
	}
	defer release()
	if err := fitClassMoments(ctx, b, m.Spec, m.Points[0], m.DataDefaults, p.Moments, s.Scale, res); err != nil {
		return nil, err
	}
	test := p.Test
	if p.TestLater != nil {
		if test, err = p.TestLater(); err != nil {
			return nil, err
		}
	}
	if err := res.scoreTest(test, s.AllowExtraFeatures); err != nil {
		return nil, err
	}
	return &GridResult{TrainResult: res}, nil
}

// scoreTest scores test data as read (nil: none) with res's weights: refused when it
// is wider than the training data unless allow (checkWiderTest), prepared as the
// training data were (asTrained), its rows and AUC recorded in res.
func (res *TrainResult) scoreTest(test *data.Dataset, allow bool) error {
	if test == nil {
		return nil
	}
	if err := checkWiderTest(res, test, allow); err != nil {
		return err
	}
	test = res.asTrained(test)
	res.TestRows = test.Rows()
	var err error
	if res.TestAUC, err = ScoreAUC(res.Weights, test); err != nil {
		return fmt.Errorf("test data: %w", err)
	}
	return nil
}

// task is one Run's problem, settings and method together, as the pipeline's steps
// read them (the settings as Run resolved them: the default passes, the backend).
type task struct {
	Problem
	Settings
	Method
}

// prepareTask scales t's data (train and test, as read), remakes t's points with the
// data-scaled defaults (t.DataDefaults) and, for several points, chooses the best (search);
// it returns the refit's source and the scaled test data.
func prepareTask(ctx context.Context, b kernels.Backend, t *task, train, test *data.Dataset, res *GridResult) (solver.Source, *data.Dataset, error) {
	read := train
	train, err := scale(t.Scale, t.Spec.UnitRows, train, t.Owned, res.TrainResult)
	if err != nil {
		return nil, nil, err
	}
	if t.Bins != 0 {
		if train, err = binData(ctx, t.Bins, train, res.TrainResult); err != nil {
			return nil, nil, err
		}
	}
	test = res.asTrained(test)
	var notes []string // what the data set, per point
	if t.DataDefaults && t.Spec.Defaults != nil {
		facts := solver.FactsOf(train)
		facts.Passes = t.Passes
		points := make([]solver.Params, len(t.Points))
		notes = make([]string, len(t.Points))
		for i, p := range t.Points {
			if points[i], notes[i], err = dataParams(t.Spec, facts, p); err != nil {
				return nil, nil, err
			}
		}
		t.Points = points
	}
	t.Points = t.streamLengths(t.Points, train.Rows())
	owned := t.Owned || train != read // a scaled copy is this run's alone
	if len(t.Points) > 1 || t.Selection.Always {
		if err := search(ctx, b, train, *t, res); err != nil {
			return nil, nil, err
		}
	}
	if notes != nil && notes[res.Best] != "" {
		res.Notes = append(res.Notes, notes[res.Best])
	}
	if t.Spec.IsBatch() && t.Shuffle && train.IsDense() && owned &&
		!readsInPlace(t.Spec, b, res.width(), t.Points[res.Best], train.Rows()) {
		// The rows are this run's alone: a dense matrix is shuffled in place (the rows
		// fit's Subset would copy, in the same order) instead of held twice. A learner
		// that reads them in the shuffle's order where they lie is spared the move
		// (every page of a mapped cache written, for one).
		train, t.Shuffle = train.Permuted(data.Shuffle(train.Rows(), t.Seed)), false
	}
	return solver.DatasetSource{D: train, Shuffle: t.Shuffle, Seed: t.Seed}, test, nil
}

// pointString is point best of a grid as key=value for the keys the points vary.
func pointString(points []GridPoint, best int) string {
	var parts []string
	for _, k := range varying(points) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, points[best].Params[k]))
	}
	return strings.Join(parts, " ")
}

// varying lists (sorted) the keys whose values differ among the points.
func varying(points []GridPoint) []string {
	var out []string
	for k, v := range points[0].Params {
		for _, p := range points[1:] {
			if p.Params[k] != v {
				out = append(out, k)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// ScoreAUC is the AUC of the scores w·x of d's rows (Score, then metric.AUC). NaN
// scores, from diverged weights, give an error wrapping solver.ErrDiverged and
// metric.ErrNaN; a single class, metric's error.
func ScoreAUC(w []float64, d *data.Dataset) (float64, error) {
	auc, err := metric.AUC(Score(w, d), d.Y)
	if errors.Is(err, metric.ErrNaN) {
		return 0, fmt.Errorf("%w: %w", solver.ErrDiverged, err)
	}
	if err != nil {
		return 0, fmt.Errorf("AUC on %s: %w", d.Name, err)
	}
	return auc, nil
}

// streamLengths returns points with the stream length (solver.Spec.SetStreamLength:
// FSAUC's n) set, in clones, to the examples a fit on rows rows sees, t.Passes × rows,
// where t is sized and the user did not set it (solver.Params.IsSet); points itself
// otherwise.
func (t *task) streamLengths(points []solver.Params, rows int) []solver.Params {
	spec := t.Spec
	if !t.SizeStream || spec.SetStreamLength == nil || spec.IsBatch() {
		return points
	}
	out := make([]solver.Params, len(points))
	for g, p := range points {
		out[g] = p
		if !p.IsSet(spec.StreamLengthKey) {
			out[g] = p.Clone()
			spec.SetStreamLength(out[g], max(t.Passes, 1)*max(rows, 1))
		}
	}
	return out
}

// search trains every point of t on the selection folds of the (scaled) training data
// train and fills res's Points, Best, Edge, Selection, Shared and GridSeconds. It does
// not refit.
func search(ctx context.Context, b kernels.Backend, train *data.Dataset, t task, res *GridResult) error {
	spec, params := t.Spec, t.Points
	if err := checkSelection(t.Selection.Folds, t.Selection.Holdout); err != nil {
		return err
	}
	folds, err := selectionFolds(train.Y, t.Selection, res)
	if err != nil {
		return err
	}
	if train, err = selectionData(b, spec, train); err != nil {
		return fmt.Errorf("grid search: %w", err)
	}
	workers := jobs.Workers(b, t.Workers, len(params))
	res.Shared = spec.NewMulti != nil
	sums := make([]float64, len(params))
	failed := make([]string, len(params))
	start := time.Now()
	// validate adds the weights' validation AUCs; a NaN one (or diverged weights)
	// fails its point.
	validate := func(fi int, ws [][]float64, diverged func(g int) int64, val *data.Dataset) error {
		for g, w := range ws {
			if failed[g] != "" {
				continue
			}
			if n := diverged(g); n != 0 {
				failed[g] = fmt.Sprintf("diverged at example %d", n)
				continue
			}
			auc, err := ScoreAUC(w, val)
			switch {
			case errors.Is(err, solver.ErrDiverged) || (err == nil && math.IsNaN(auc)):
				failed[g] = fmt.Sprintf("validation AUC is NaN (fold %d)", fi+1)
			case err != nil:
				return fmt.Errorf("grid search, fold %d: validation: %w", fi+1, err)
			default:
				sums[g] += auc
			}
		}
		return nil
	}
	never := func(int) int64 { return 0 }
	rest := folds // a hold-out, several passes or a batch algorithm: fold by fold
	if !spec.IsBatch() && len(folds) >= 2 && t.Passes <= 1 {
		// One pass per fold: the folds share their prefixes (and their stream length,
		// their training parts' mean).
		rest = nil
		err = onlineFolds(ctx, spec, b, train, folds, t.streamLengths(params, meanTrainRows(folds)), t.Seed, t.Shuffle, workers,
			func(fi int, m solver.Multi, val *data.Dataset) error {
				ws := make([][]float64, len(params))
				for g := range params {
					ws[g] = m.Weights(g)
				}
				return validate(fi, ws, m.Diverged, val)
			}, func(g int) bool { return failed[g] != "" })
		if err != nil {
			return fmt.Errorf("grid search: %w", err)
		}
	}
	for fi, f := range rest {
		part, val := train.Subset(f.Train), train.Subset(f.Test)
		var ws [][]float64
		diverged := never
		if spec.IsBatch() {
			var shared bool
			ws, shared, err = gridBatch(ctx, spec, b, part, params, t.Seed, workers, failed)
			res.Shared = res.Shared || shared
		} else {
			var m solver.Multi
			m, err = gridOnline(ctx, spec, b, part, t.streamLengths(params, part.Rows()), t, workers)
			if err == nil {
				ws, diverged = make([][]float64, len(params)), m.Diverged
				for g := range params {
					ws[g] = m.Weights(g)
				}
			}
		}
		if err != nil {
			return fmt.Errorf("grid search, fold %d of %d: %w", fi+1, len(folds), err)
		}
		if err := validate(fi, ws, diverged, val); err != nil {
			return err
		}
	}
	res.GridSeconds = time.Since(start).Seconds()

	res.Best = -1
	res.Points = make([]GridPoint, len(params))
	for g, p := range params {
		res.Points[g] = GridPoint{Params: p.Values(), Failed: failed[g]}
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
		return fmt.Errorf("grid search: %w: all %d points failed (first: %s)", solver.ErrDiverged, len(params), failed[0])
	}
	res.Edge = edges(res.Points, res.Best)
	return nil
}

// meanTrainRows is the mean size of the folds' training parts, rounded.
func meanTrainRows(folds []data.Fold) int {
	n := 0
	for _, f := range folds {
		n += len(f.Train)
	}
	return (n + len(folds)/2) / max(len(folds), 1)
}

// edges lists (sorted) the numeric grid keys whose value at point best is the smallest
// or the largest the points take, among keys that take at least three values: the
// best may lie beyond the grid. (With two values every choice is an edge.)
func edges(points []GridPoint, best int) []string {
	out := []string{}
	for _, k := range varying(points) {
		x, ok := number(points[best].Params[k])
		if !ok {
			continue
		}
		lo, hi, seen := x, x, map[float64]bool{}
		for _, p := range points {
			y, _ := number(p.Params[k])
			lo, hi, seen[y] = min(lo, y), max(hi, y), true
		}
		if len(seen) >= 3 && (x == lo || x == hi) {
			out = append(out, k)
		}
	}
	return out
}

// number is v as a float64 when v is a number.
func number(v any) (float64, bool) {
	r := reflect.ValueOf(v)
	switch {
	case r.CanFloat():
		return r.Float(), true
	case r.CanInt():
		return float64(r.Int()), true
	case r.CanUint():
		return float64(r.Uint()), true
	}
	return 0, false
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

// selectionFolds returns the selection folds over the training labels y and names
// them in res.Selection; data too small for them is an input error.
func selectionFolds(y []int8, sel Selection, res *GridResult) ([]data.Fold, error) {
	if sel.Folds >= 2 {
		res.Selection = fmt.Sprintf("%d-fold stratified cross-validation", sel.Folds)
		f, err := data.StratifiedKFold(y, sel.Folds, sel.Seed)
		if err != nil {
			return nil, inputErrorf("grid selection: %w", err)
		}
		return f, nil
	}
	h := sel.Holdout
	if h == 0 {
		h = 0.2
	}
	res.Selection = fmt.Sprintf("stratified %g%% held-out split", 100*h)
	f, err := data.TrainTestSplit(y, 1-h, sel.Seed)
	if err != nil {
		return nil, inputErrorf("grid hold-out %g: %w", h, err)
	}
	return []data.Fold{f}, nil
}

// gridBlock is the number of examples handed to a Multi at a time.
const gridBlock = 256

// observe feeds the rows of d (in the order order, or in their own when order is nil)
// to m in blocks of gridBlock, checking ctx between blocks.
func observe(ctx context.Context, m solver.Multi, d *data.Dataset, order []int) error {
	n := d.Rows()
	xs, ys := make([]kernels.Sparse, 0, gridBlock), make([]int8, 0, gridBlock)
	for lo := 0; lo < n; lo += gridBlock {
		if err := ctx.Err(); err != nil {
			return err
		}
		xs, ys = xs[:0], ys[:0]
		for k := lo; k < min(lo+gridBlock, n); k++ {
			i := k
			if order != nil {
				i = order[k]
			}
			xs, ys = append(xs, d.Row(i)), append(ys, d.Y[i])
		}
		m.ObserveBlock(xs, ys)
	}
	return nil
}

// gridOnline trains every point of t on part in one Multi over t.Passes passes.
func gridOnline(ctx context.Context, spec solver.Spec, b kernels.Backend, part *data.Dataset, params []solver.Params,
	t task, workers int) (solver.Multi, error) {
	if pos, neg := part.Counts(); pos == 0 || neg == 0 {
		return nil, solver.ErrOneClass
	}
	m, err := solver.NewMulti(spec, b, part.Dim, params, t.Seed, workers)
	if err != nil {
		return nil, err
	}
	for p := range max(t.Passes, 1) {
		var order []int // the rows in their order
		if t.Shuffle {
			order = data.Shuffle(part.Rows(), t.Seed+uint64(p))
		}
		if err := observe(ctx, m, part, order); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// gridBatch fits every point on part: all at once from shared work when the algorithm
// is a solver.GridFitter (MBA's λ path from one Σ_S, ls-auc's early-stopped points from
// one conjugate-gradient path), else each on its own, workers at a time (the fits are
// independent: the same weights in any order). A point whose fit fails is marked
// failed rather than ending the search.
func gridBatch(ctx context.Context, spec solver.Spec, b kernels.Backend, part *data.Dataset, params []solver.Params,
	seed uint64, workers int, failed []string) (ws [][]float64, shared bool, err error) {
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
	err = jobs.Run(ctx, b, len(params), workers, func(ctx context.Context, jb kernels.Backend, g int) error {
		if failed[g] != "" {
			return nil
		}
		l, err := spec.NewBatch(jb, part.Dim, params[g], seed)
		if err != nil {
			return err
		}
		if err := l.Fit(ctx, part); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed[g] = err.Error() // this point only: the others go on
			return nil
		}
		ws[g] = l.Weights()
		return nil
	}, nil)
	var je *jobs.Error
	if errors.As(err, &je) && ctx.Err() == nil {
		err = je.Err // a learner that could not be made: as before, the search's error
	}
	if err != nil {
		return nil, false, err
	}
	return ws, false, nil
}

// openBackendFor is backends.Default for workload w: b when not nil, else the backend
// $AUCOPT_BACKEND names, else automatic selection's for w (autoBackend), with the
// function that releases it.
func openBackendFor(b kernels.Backend, w workShape) (kernels.Backend, func(), error) {
	return backends.Default(b, w.OnDevice())
}
