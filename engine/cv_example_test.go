package engine_test

import (
	"context"
	"fmt"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/fallback"
)

// ExampleCV cross-validates OPAUC on the German credit data (embedded in the binary):
// five stratified folds, the features scaled to [−1, 1] on each training part alone.
func ExampleCV() {
	res, err := engine.CV(context.Background(), engine.CVConfig{
		TrainConfig: engine.TrainConfig{Algo: "opauc", Data: "german", Shuffle: true, Seed: 1, Backend: fallback.New()},
		Folds:       5,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d folds of %d rows, scaling %s\n", len(res.AUCs), res.Runs[0].TestRows, res.Scale)
	fmt.Printf("AUC %.2f ± %.2f\n", res.Mean, res.Std)
	// Output:
	// 5 folds of 200 rows, scaling minmax
	// AUC 0.79 ± 0.03
}
