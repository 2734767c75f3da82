package engine_test

import (
	"context"
	"fmt"
	"math"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
)

// Train ls-auc on rows held in memory with sample weights: the second row weighs
// twice, which gives the same model as the row given twice.
func ExampleTrain_sampleWeights() {
	x := []float64{0.9, 0.1, 0.2, 0.8, 0.7, 0.4, 0.3, 0.6} // 4 rows × 2 features, row-major
	y := []float64{1, 0, 1, 0}
	ds, err := data.NewDenseRows("rows", 4, 2, x, false, y, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := ds.SetWeights([]float64{1, 2, 1, 1}); err != nil {
		fmt.Println(err)
		return
	}
	spec, err := solver.Lookup("ls-auc")
	if err != nil {
		fmt.Println(err)
		return
	}
	params := spec.Params()
	if err := params.Set("lambda", "0.1"); err != nil {
		fmt.Println(err)
		return
	}
	cfg := engine.TrainConfig{Algo: "ls-auc", Params: params, Dataset: ds, Scale: data.ScaleNone}
	weighted, err := engine.Train(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The same rows, the second one repeated.
	x2 := append(x[:4:4], append([]float64{0.2, 0.8}, x[4:]...)...)
	twice, err := data.NewDenseRows("rows", 5, 2, x2, false, []float64{1, 0, 0, 1, 0}, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg.Dataset = twice
	repeated, err := engine.Train(context.Background(), cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	same := true
	for j, w := range weighted.Weights {
		same = same && math.Abs(w-repeated.Weights[j]) <= 1e-12*math.Abs(w)
	}
	fmt.Println(weighted.Notes[0])
	fmt.Println("the same weights as the row repeated:", same)
	// Output:
	// sample weights: the dataset's own, 4 rows (positives' sum 2, negatives' 3, 0 of weight 0)
	// the same weights as the row repeated: true
}
