package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
)

// Train from arrays in memory with typed parameters, then score a batch of rows and
// one row with the model, no file involved: the library's in-memory surface.
func ExampleTrain_inMemory() {
	// 400 rows of 3 features, row-major; the label depends on the first two.
	rng := rand.New(rand.NewPCG(1, 2))
	const rows, dim = 400, 3
	x, y := make([]float64, rows*dim), make([]float64, rows)
	for i := range rows {
		for j := range dim {
			x[i*dim+j] = rng.NormFloat64()
		}
		y[i] = -1
		if x[i*dim]-0.5*x[i*dim+1]+0.5*rng.NormFloat64() > 0.8 {
			y[i] = 1
		}
	}
	train, err := data.NewDenseRows("synthetic", 300, dim, x[:300*dim], false, y[:300], "")
	if err != nil {
		fmt.Println(err)
		return
	}
	spec, err := solver.Lookup("ls-auc")
	if err != nil {
		fmt.Println(err)
		return
	}
	params := spec.Params()
	if err := params.Set("lambda", "1e-2"); err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	res, err := engine.Train(ctx, engine.TrainConfig{Algo: spec.Name, Params: params, Dataset: train})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := res.Model()

	// A batch: the other 100 rows, unlabelled for the model (labels kept for the AUC).
	batch, err := data.NewDenseRows("batch", 100, dim, x[300*dim:], false, nil, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	scores, err := m.Score(batch)
	if err != nil {
		fmt.Println(err)
		return
	}
	labels := make([]int8, 100)
	for i, v := range y[300:] {
		labels[i] = int8(v)
	}
	auc, err := metric.AUC(scores, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	// One row, as a service would score a request.
	one, err := m.ScoreRow(x[300*dim : 301*dim])
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s on %s: %d rows, scaling %s\n", res.Algo, res.Data, res.TrainRows, res.Scale)
	fmt.Printf("AUC on the batch %.2f; one row scores as in the batch: %v\n", auc, one == scores[0])
	// Output:
	// ls-auc on synthetic: 300 rows, scaling minmax
	// AUC on the batch 0.95; one row scores as in the batch: true
}
