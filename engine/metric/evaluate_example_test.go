package metric_test

import (
	"fmt"

	"github.com/aucopt/aucopt/engine/metric"
)

// Evaluate summarises a ranking: AUC, TPR at low FPR, the best thresholds.
func ExampleEvaluate() {
	scores := []float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4}
	labels := []int8{1, 1, -1, 1, -1, -1}
	e, err := metric.Evaluate(scores, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("AUC %.4f\n", e.AUC)
	fmt.Printf("best F1 %.4f at score ≥ %v (precision %.2f, recall %.2f)\n", e.BestF1.F1, e.BestF1.Threshold, e.BestF1.Precision, e.BestF1.Recall)
	fmt.Printf("best accuracy %.4f at score ≥ %v\n", e.BestAccuracy.Accuracy, e.BestAccuracy.Threshold)
	// Output:
	// AUC 0.8889
	// best F1 0.8571 at score ≥ 0.6 (precision 0.75, recall 1.00)
	// best accuracy 0.8333 at score ≥ 0.8
}
