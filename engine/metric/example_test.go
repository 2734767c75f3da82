package metric_test

import (
	"fmt"

	"github.com/aucopt/aucopt/engine/metric"
)

func ExampleAUC() {
	scores := []float64{0.9, 0.7, 0.7, 0.2}
	labels := []int8{1, 1, -1, -1}
	auc, err := metric.AUC(scores, labels)
	if err != nil {
		panic(err)
	}
	fmt.Println(auc) // (1 + 1 + ½ + 1) / 4: the tie counts half
	// Output: 0.875
}

func ExampleROC() {
	pts, err := metric.ROC([]float64{0.9, 0.7, 0.7, 0.2}, []int8{1, 1, -1, -1})
	if err != nil {
		panic(err)
	}
	for _, p := range pts {
		fmt.Printf("FPR %.2f TPR %.2f at ≥ %v\n", p.FPR, p.TPR, p.Threshold)
	}
	fmt.Println("area", metric.Area(pts))
	// Output:
	// FPR 0.00 TPR 0.00 at ≥ +Inf
	// FPR 0.00 TPR 0.50 at ≥ 0.9
	// FPR 0.50 TPR 1.00 at ≥ 0.7
	// FPR 1.00 TPR 1.00 at ≥ 0.2
	// area 0.875
}

func ExamplePairedTTest() {
	ours := []float64{0.91, 0.92, 0.90, 0.93, 0.92}
	theirs := []float64{0.89, 0.90, 0.89, 0.90, 0.90}
	o, p, err := metric.PairedTTest(ours, theirs, 0.05)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v (p = %.4f)\n", o, p)
	// Output: win (p = 0.0032)
}
