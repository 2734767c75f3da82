package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/jobs"
)

// defaultTracePoints is the number of evaluations a trace makes when TraceConfig.Every
// is 0 (plus the point at 0 examples).
const defaultTracePoints = 50

// TraceConfig is a convergence trace: the training run of TrainConfig (Passes passes,
// the same data, scaling, shuffling and seed as Train) with the test AUC measured as it
// goes. Checkpoint must be empty.
type TraceConfig struct {
	TrainConfig
	// Every is the number of examples between evaluations; 0 spreads about
	// defaultTracePoints evaluations over the run.
	Every int64
}

// TracePoint is one evaluation of a trace.
type TracePoint struct {
	Seen    int64   `json:"seen"`     // training examples observed so far, over all passes
	Seconds float64 `json:"seconds"`  // training time so far, the evaluations' time excluded
	TestAUC float64 `json:"test_auc"` // AUC of the current weights on the test data
}

// TraceResult is a trace: the run, as Train reports it (its final weights, Seconds the
// training time without the evaluations), and its points.
type TraceResult struct {
	*TrainResult
	Every  int64        // examples between evaluations
	Points []TracePoint // in increasing Seen
}

// MarshalJSON writes the run's fields (those of TrainResult) with "every" and "points"
// added.
func (r *TraceResult) MarshalJSON() ([]byte, error) {
	run, err := json.Marshal(r.TrainResult)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(run, &fields); err != nil {
		return nil, err
	}
	if fields["every"], err = json.Marshal(r.Every); err != nil {
		return nil, err
	}
	if fields["points"], err = json.Marshal(r.Points); err != nil {
		return nil, err
	}
	return json.Marshal(fields)
}

// Trace trains cfg.Algo as Train does and records the test AUC against the examples
// seen and the training seconds, the way the papers draw convergence: an online
// algorithm is scored on the test data with its current Weights at 0 examples, every
// cfg.Every examples, and at the end of every pass (the last point is the final model,
// the one Train returns for the same config). The evaluations run inside the streaming
// driver's progress hook, between two examples, and their time is not counted.
//
// A batch algorithm has no intermediate models: its trace is the single point
// (training rows, fit seconds, test AUC), which a plot shows as a marker.
//
// Trace needs test data (cfg.Test or the dataset's own split).
func Trace(ctx context.Context, cfg TraceConfig) (_ *TraceResult, err error) {
	defer jobs.Recover(&err)
	cfg.Seed = seedOrDefault(cfg.Seed)
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		return nil, err
	}
	if cfg.Checkpoint != "" {
		return nil, fmt.Errorf("trace %s: checkpoints are not supported (a trace restarts from the beginning)", spec.Name)
	}
	if cfg.Bins != 0 {
		return nil, fault.Settingf("trace %s: {Bins} is for train, grid and cv (a trace scores the features as read)", spec.Name)
	}
	if err := cfg.onlyTrainWeights("a trace"); err != nil {
		return nil, err
	}
	if cfg.Every < 0 {
		return nil, fmt.Errorf("trace %s: every %d: want a positive number of examples (0 for the default)", spec.Name, cfg.Every)
	}
	params, err := spec.ParamsWith(cfg.Params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Algo, err)
	}
	res := &TrainResult{Algo: spec.Name, Params: params.Values(), Data: cfg.Data, Passes: max(cfg.Passes, 1), TestAUC: math.NaN()}
	if spec.IsBatch() {
		if cfg.Passes > 1 {
			return nil, fmt.Errorf("%s is a batch algorithm: it sees the whole training set, so passes do not apply", spec.Name)
		}
		res.Passes = 0
	}
	src, test, err := prepare(ctx, cfg.TrainConfig, spec.IsBatch(), res)
	if err != nil {
		return nil, err
	}
	defaultPasses(spec, &cfg.Passes, res)
	if ds, ok := src.(solver.DatasetSource); ok {
		if ds.D, err = scale(cfg.Scale, spec.UnitRows, ds.D, cfg.Dataset == nil, res); err != nil {
			return nil, err
		}
		test = res.asTrained(test)
		src = ds
		if spec.Defaults != nil { // as Run makes them for Train
			facts := solver.FactsOf(ds.D)
			facts.Passes = cfg.Passes
			if params, err = scaledParams(spec, facts, res, params); err != nil {
				return nil, err
			}
		}
	}
	if test == nil {
		return nil, fmt.Errorf("trace %s on %s: no test data (give a test file, or a dataset with a test split)", spec.Name, cfg.Data)
	}
	if err := checkMemory(spec, spec.StateBytes(res.Features, res.TrainRows, params), featuresOf(res.Features),
		res.Features, res.TrainRows, memoryLimit(cfg.MaxMemory)); err != nil {
		return nil, err
	}
	res.TestRows = test.Rows()
	b, release, err := openBackendFor(cfg.Backend, res.workload(spec))
	if err != nil {
		return nil, err
	}
	defer release()
	res.Backend = b.Name()
	tr := &TraceResult{TrainResult: res, Every: cfg.Every}
	if tr.Every == 0 {
		total := int64(res.TrainRows) * int64(max(res.Passes, 1))
		tr.Every = max(1, (total+defaultTracePoints-1)/defaultTracePoints)
	}

	if spec.IsBatch() {
		start := time.Now()
		if res.Weights, err = fit(ctx, spec, b, params, src, cfg.settings(b), res); err != nil {
			return nil, fmt.Errorf("train %s on %s: %w", spec.Name, cfg.Data, err)
		}
		res.Seconds = time.Since(start).Seconds()
		if res.TestAUC, err = ScoreAUC(res.Weights, test); err != nil {
			return nil, err
		}
		tr.Points = []TracePoint{{Seen: int64(res.TrainRows), Seconds: res.Seconds, TestAUC: res.TestAUC}}
		return tr, nil
	}

	t := task{Settings: Settings{Passes: cfg.Passes}, Method: Method{Spec: spec, SizeStream: true}}
	params = t.streamLengths([]solver.Params{params}, res.TrainRows)[0]
	learner, err := spec.NewOnline(b, res.Features, params, cfg.Seed)
	if err != nil {
		return nil, err
	}
	// The hook runs inside the driver: an evaluation error cancels the run and is
	// reported instead of the cancellation.
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var evalErr error
	var evalTime time.Duration
	evaluate := func(seen int64, elapsed time.Duration) {
		if evalErr != nil || (len(tr.Points) > 0 && tr.Points[len(tr.Points)-1].Seen == seen) {
			return
		}
		t0 := time.Now()
		auc, err := ScoreAUC(learner.Weights(), test)
		if err != nil {
			evalErr = fmt.Errorf("after %d examples: %w", seen, err)
			cancel()
			return
		}
		tr.Points = append(tr.Points, TracePoint{Seen: seen, Seconds: (elapsed - evalTime).Seconds(), TestAUC: auc})
		// Collect the evaluation's garbage now, on its clock, rather than in the
		// training that follows (background marking and assists would be counted as
		// training time).
		runtime.GC()
		evalTime += time.Since(t0)
	}
	evaluate(0, 0)
	evalTime = 0 // the driver's clock starts after the first evaluation
	start := time.Now()
	_, err = solver.Run(runCtx, learner, src, solver.RunOptions{
		Passes: res.Passes, ProgressEvery: tr.Every, Algo: spec.Name, Dim: res.Features,
		Progress: func(p solver.Progress) {
			evaluate(p.Seen, p.Elapsed)
			if cfg.Progress != nil {
				cfg.Progress(p)
			}
		},
	})
	if evalErr != nil {
		return nil, fmt.Errorf("trace %s on %s: %w", spec.Name, cfg.Data, evalErr)
	}
	if err != nil {
		return nil, fmt.Errorf("train %s on %s: %w", spec.Name, cfg.Data, err)
	}
	res.Seconds = (time.Since(start) - evalTime).Seconds()
	res.Weights = learner.Weights()
	if res.TestAUC, err = ScoreAUC(res.Weights, test); err != nil {
		return nil, fmt.Errorf("trace %s on %s: %w", spec.Name, cfg.Data, err)
	}
	return tr, nil
}
