package engine_test

import (
	"context"
	"fmt"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
)

// Train ls-auc on rows held in memory (here 6 rows of 2 features, row-major, as a
// NumPy array holds them): the run is that of a file of the same rows, with the same
// defaults and scaling, and reads the slices where they lie.
func ExampleTrain_memory() {
	x := []float64{
		0.9, 0.1,
		0.8, 0.3,
		0.7, 0.2,
		0.2, 0.9,
		0.1, 0.7,
		0.3, 0.8,
	}
	labels := []float64{1, 1, 1, 0, 0, 0} // the files' rules: {1, 0}, 1 positive
	ds, err := data.NewDenseRows("six rows", 6, 2, x, false, labels, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := engine.Train(context.Background(), engine.TrainConfig{Algo: "ls-auc", Dataset: ds})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s on %s: %d rows, %d features, scaling %s\n", res.Algo, res.Data, res.TrainRows, res.Features, res.Scale)
	fmt.Printf("feature 1 ranks up: %v, feature 2 down: %v\n", res.Weights[0] > 0, res.Weights[1] < 0)
	// Output:
	// ls-auc on six rows: 6 rows, 2 features, scaling minmax
	// feature 1 ranks up: true, feature 2 down: true
}
