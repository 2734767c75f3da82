package metric

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MeanStd returns the mean and the sample standard deviation (n − 1 in the denominator,
// as the papers' tables report over trials) of xs. The deviation of a single value is 0;
// both are NaN for an empty xs.
func MeanStd(xs []float64) (mean, std float64) {
	switch len(xs) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return xs[0], 0
	}
	return stat.MeanStdDev(xs, nil)
}

// Outcome is the result of comparing algorithm A with algorithm B over paired runs.
type Outcome int

// The outcomes of PairedTTest, from A's side.
const (
	Loss Outcome = iota - 1 // A is significantly worse than B
	Tie                     // no significant difference
	Win                     // A is significantly better than B
)

// String returns "win", "tie" or "loss".
func (o Outcome) String() string {
	switch o {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "tie"
}

// ErrTooFewPairs: a paired t-test needs at least two pairs.
var ErrTooFewPairs = errors.New("metric: paired t-test needs at least 2 pairs")

// PairedTTest compares paired results a[i] and b[i] (for instance the AUCs of two
// algorithms on the same folds) with a two-sided paired Student t-test at significance
// level alpha (0.05 for the papers' 95%). It returns Win when mean(a − b) > 0
// significantly, Loss when < 0 significantly, else Tie, with the test's p-value. When
// every difference is equal the p-value is 0 for a non-zero difference and 1 for none.
// It panics if the lengths differ.
func PairedTTest(a, b []float64, alpha float64) (Outcome, float64, error) {
	if len(a) != len(b) {
		panic(fmt.Sprintf("metric: PairedTTest: %d and %d results", len(a), len(b)))
	}
	n := len(a)
	if n < 2 {
		return Tie, 1, ErrTooFewPairs
	}
	d := make([]float64, n)
	for i := range a {
		d[i] = a[i] - b[i]
	}
	mean, sd := stat.MeanStdDev(d, nil)
	if math.IsNaN(mean) || math.IsNaN(sd) {
		return Tie, math.NaN(), fmt.Errorf("metric: PairedTTest: NaN among the results")
	}
	var p float64
	switch {
	case sd == 0 && mean == 0:
		p = 1
	case sd == 0:
		p = 0
	default:
		t := mean / (sd / math.Sqrt(float64(n)))
		p = 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Survival(math.Abs(t))
	}
	if p >= alpha {
		return Tie, p, nil
	}
	if mean > 0 {
		return Win, p, nil
	}
	return Loss, p, nil
}
