package aucbeam

import (
	"context"
	"fmt"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/metric"
)

// TestEvalAndTrainEqualSingleMachine is the acceptance check: ls-auc from the moments
// pipeline has `aucopt train`'s weights to 1e-9 and, scored by the eval pipeline on
// the sharded test set, its test AUC to the last digit; and the eval pipeline's AUC of
// a model is exactly engine.Evaluate's (`aucopt eval`) on the concatenated test file.
func TestEvalAndTrainEqualSingleMachine(t *testing.T) {
	train, test := a9a(t)
	_, trainGlob, trainFile := shards(t, train, 3, "train")
	_, testGlob, testFile := shards(t, test, 5, "test")
	single, err := engine.Train(context.Background(), engine.TrainConfig{Algo: "ls-auc", Data: trainFile, Test: testFile, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := TrainMoments(context.Background(), MomentsConfig{Data: trainGlob, Algo: "ls-auc", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(single.Weights, res.Weights); d > 1e-9 {
		t.Errorf("weights differ by %.3g relative", d)
	}
	ev, err := Eval(context.Background(), EvalConfig{Model: res.Model(), Data: testGlob})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Rows != int64(test.Rows()) || ev.Shards != 5 {
		t.Errorf("eval read %d rows in %d shards, want %d in 5", ev.Rows, ev.Shards, test.Rows())
	}
	if fmt.Sprintf("%.10f", ev.AUC) != fmt.Sprintf("%.10f", single.TestAUC) {
		t.Errorf("test AUC %.12f from Beam, %.12f single machine", ev.AUC, single.TestAUC)
	}
	// The same model scored both ways: bit-identical.
	m := single.Model()
	pred, err := engine.Predict(context.Background(), m, testFile, engine.PredictOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := metric.Evaluate(pred.Scores, pred.Y)
	if err != nil {
		t.Fatal(err)
	}
	ev, err = Eval(context.Background(), EvalConfig{Model: m, Data: testGlob})
	if err != nil {
		t.Fatal(err)
	}
	if ev.AUC != want.AUC {
		t.Errorf("eval pipeline AUC %v, aucopt eval %v", ev.AUC, want.AUC)
	}
}
