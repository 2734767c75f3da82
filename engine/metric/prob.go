package metric

import (
	"fmt"
	"math"
)

// LogLossEps bounds the probabilities LogLoss takes the logarithm of to
// [LogLossEps, 1−LogLossEps], so that one confident mistake (a probability of exactly 0
// or 1, as an isotonic map gives outside its positives' scores) costs −log(1e−15) ≈ 34.5
// rather than infinity (scikit-learn's log_loss clips likewise).
const LogLossEps = 1e-15

// LogLoss returns the mean negative log-likelihood of the ±1 labels y under the
// probabilities p of the positive class: −(1/n) Σ [y=+1] log p + [y=−1] log(1−p), each
// p clipped to [LogLossEps, 1−LogLossEps]. Its errors wrap ErrLabel (a label other than
// ±1) or report a p outside [0, 1] or of another length.
func LogLoss(p []float64, y []int8) (float64, error) {
	if err := checkProbs(p, y); err != nil {
		return 0, err
	}
	var s float64
	for i, v := range p {
		v = min(max(v, LogLossEps), 1-LogLossEps)
		if y[i] > 0 {
			s -= math.Log(v)
		} else {
			s -= math.Log1p(-v)
		}
	}
	return s / float64(len(p)), nil
}

// Brier returns the Brier score of the probabilities p for the ±1 labels y: the mean
// squared difference between p and the 0/1 outcome. Its errors are LogLoss's.
func Brier(p []float64, y []int8) (float64, error) {
	if err := checkProbs(p, y); err != nil {
		return 0, err
	}
	var s float64
	for i, v := range p {
		o := 0.0
		if y[i] > 0 {
			o = 1
		}
		s += (v - o) * (v - o)
	}
	return s / float64(len(p)), nil
}

// checkProbs checks probabilities and their ±1 labels for LogLoss and Brier.
func checkProbs(p []float64, y []int8) error {
	if len(p) != len(y) || len(p) == 0 {
		return fmt.Errorf("metric: %d probabilities for %d labels, want as many and at least one", len(p), len(y))
	}
	for i, v := range p {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("metric: probability %d is %v, want one in [0, 1]", i+1, v)
		}
		if y[i] != 1 && y[i] != -1 {
			return fmt.Errorf("%w: label %d of row %d", ErrLabel, y[i], i+1)
		}
	}
	return nil
}
