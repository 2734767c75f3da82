package aucbeam

import (
	"context"
	"math"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
)

func relDiff(a, b []float64) float64 {
	var d, s float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		s = math.Max(s, math.Abs(a[i]))
	}
	return d / s
}

func TestTrainMomentsEqualsSingleMachine(t *testing.T) {
	train, _ := a9a(t)
	_, glob, whole := shards(t, train, 4, "a9a")
	for _, tc := range []struct {
		algo   string
		params []string
		scale  string
	}{
		{"ls-auc", nil, data.ScaleAuto},
		{"mba-l2", []string{"pairs=all", "lambda2=1e-3"}, data.ScaleNone},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			spec, err := solver.Lookup(tc.algo)
			if err != nil {
				t.Fatal(err)
			}
			params := spec.Params()
			if err := params.SetAll(tc.params); err != nil {
				t.Fatal(err)
			}
			single, err := engine.Train(context.Background(), engine.TrainConfig{Algo: tc.algo, Params: params, Data: whole, Scale: tc.scale, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			res, err := TrainMoments(context.Background(), MomentsConfig{Data: glob, Algo: tc.algo, Params: tc.params, Scale: tc.scale, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.TrainRows != single.TrainRows || res.Features != single.Features || res.Scale != single.Scale {
				t.Fatalf("beam %d rows × %d, scale %s; single machine %d × %d, %s", res.TrainRows, res.Features, res.Scale,
					single.TrainRows, single.Features, single.Scale)
			}
			if d := relDiff(single.Weights, res.Weights); d > 1e-9 {
				t.Errorf("weights differ by %.3g relative, want ≤ 1e-9", d)
			}
		})
	}
}
