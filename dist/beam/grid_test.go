package aucbeam

import (
	"context"
	"math"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
)

// TestGridMatchesSingleMachine checks the grid pipeline's fold AUCs against the same
// folds fitted here, its choice against the best mean, and its refit against
// `aucopt train` with the chosen point.
func TestGridMatchesSingleMachine(t *testing.T) {
	all, _ := a9a(t)
	rows := make([]int, 3000)
	for i := range rows {
		rows[i] = i
	}
	train := all.Subset(rows)
	_, glob, whole := shards(t, train, 3, "train")
	const folds, seed = 3, 7
	res, err := Grid(context.Background(), GridConfig{Data: glob, Algo: "ls-auc", Grid: "lambda=1e-4,1e-1,10", Folds: folds, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 3 || res.Items != 9 {
		t.Fatalf("%d points, %d work items; want 3, 9", len(res.Points), res.Items)
	}
	ds, err := data.ReadFile(whole, data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := data.StratifiedKFold(ds.Y, folds, seed)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := solver.Lookup("ls-auc")
	if err != nil {
		t.Fatal(err)
	}
	best := -1
	for i, p := range res.Points {
		var aucs []float64
		for f := range folds {
			tr, va := ds.Subset(fs[f].Train), ds.Subset(fs[f].Test)
			s, err := data.FitMinMax(tr, -1, 1)
			if err != nil {
				t.Fatal(err)
			}
			params := spec.Params()
			if err := params.SetAll(p.Params); err != nil {
				t.Fatal(err)
			}
			l, err := spec.NewBatch(fallback.NewWorkers(1), tr.Dim, params, seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Fit(context.Background(), s.Apply(tr)); err != nil {
				t.Fatal(err)
			}
			auc, err := metric.AUC(engine.Score(l.Weights(), s.Apply(va.Truncate(tr.Dim))), va.Y)
			if err != nil {
				t.Fatal(err)
			}
			aucs = append(aucs, auc)
			if math.Abs(auc-p.AUCs[f]) > 1e-12 {
				t.Errorf("point %v fold %d: AUC %v from the pipeline, %v here", p.Params, f, p.AUCs[f], auc)
			}
		}
		mean, _ := metric.MeanStd(aucs)
		if best < 0 || mean > *res.Points[best].Mean {
			best = i
		}
	}
	if res.Best != best {
		t.Errorf("best point %d, want %d", res.Best, best)
	}
	lsauc, err := solver.Lookup("ls-auc")
	if err != nil {
		t.Fatal(err)
	}
	bestParams := lsauc.Params()
	if err := bestParams.SetAll(res.Points[res.Best].Params); err != nil {
		t.Fatal(err)
	}
	single, err := engine.Train(context.Background(), engine.TrainConfig{Algo: "ls-auc", Params: bestParams, Data: whole, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(single.Weights, res.Refit.Weights); d > 1e-9 || res.Refit.TrainRows != 3000 {
		t.Errorf("refit on %d rows differs from aucopt train by %.3g relative", res.Refit.TrainRows, d)
	}

	// An online learner's points run too (one pass each).
	on, err := Grid(context.Background(), GridConfig{Data: glob, Algo: "spam-l2", Grid: "eta=0.1,1", Folds: 2, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	if on.Points[on.Best].Mean == nil || *on.Points[on.Best].Mean < 0.6 || len(on.Refit.Weights) != on.Refit.Features || on.Refit.Features < 100 {
		t.Errorf("spam-l2 grid: best %+v, %d weights", on.Points[on.Best], len(on.Refit.Weights))
	}
}
