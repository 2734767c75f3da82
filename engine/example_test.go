package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
)

// Train OPAUC, one pass, on the a9a dataset embedded in aucopt (its training part),
// and measure the AUC on its test part.
func ExampleTrain_opauc() {
	res, err := engine.Train(context.Background(), engine.TrainConfig{
		Algo:    "opauc",
		Data:    "a9a", // a dataset name (aucopt datasets) or a LIBSVM file
		Shuffle: true,
		Seed:    1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s on %s: %d rows, %d features, scaling %s\n", res.Algo, res.Data, res.TrainRows, res.Features, res.Scale)
	fmt.Printf("test AUC %.2f on %d rows\n", res.TestAUC, res.TestRows)
	// Output:
	// opauc on a9a: 32561 rows, 123 features, scaling minmax
	// test AUC 0.90 on 16281 rows
}

// Train with typed hyper-parameters: the keys set (solver.Params.IsSet) are kept,
// and the data-scaled defaults fill the others (here OPAUC's step, from a9a's row
// norms).
func ExampleTrain_params() {
	spec, err := solver.Lookup("opauc")
	if err != nil {
		fmt.Println(err)
		return
	}
	params := spec.Params() // the static defaults
	if err := params.Set("lambda", "1e-3"); err != nil {
		fmt.Println(err)
		return
	}
	res, err := engine.Train(context.Background(), engine.TrainConfig{Algo: "opauc", Params: params, Data: "a9a", Shuffle: true, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	static := spec.Params().Values()
	fmt.Printf("lambda %v (set), eta %.3g (static default %v)\n", res.Params["lambda"], res.Params["eta"], static["eta"])
	// Output:
	// lambda 0.001 (set), eta 0.000813 (static default 0.000244140625)
}

// Train a model, write it to a file, read it back and score a9a's test part with it:
// the scores are those the training run measured its test AUC on.
func ExamplePredict() {
	ctx := context.Background()
	res, err := engine.Train(ctx, engine.TrainConfig{Algo: "spam-l2", Data: "a9a", Shuffle: true, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "aucopt-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "model.json")
	if err := res.Model().Write(path); err != nil {
		fmt.Println(err)
		return
	}

	m, err := model.Read(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := engine.Predict(context.Background(), m, "a9a", engine.PredictOptions{}) // a dataset name: its test part
	if err != nil {
		fmt.Println(err)
		return
	}
	auc, err := metric.AUC(p.Scores, p.Y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %d rows scored, AUC %.2f, as in training: %v\n", p.Part, len(p.Scores), auc, auc == res.TestAUC)
	// Output:
	// test: 16281 rows scored, AUC 0.90, as in training: true
}
