package metric

import (
	"errors"
	"math"
	"testing"
)

func TestEvaluate(t *testing.T) {
	// Scores 0.9 0.8 0.7 0.6 0.5 0.4 for labels + + − + − −: P = N = 3.
	scores := []float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4}
	y := []int8{1, 1, -1, 1, -1, -1}
	e, err := Evaluate(scores, y)
	if err != nil {
		t.Fatal(err)
	}
	auc, _ := AUC(scores, y)
	if e.AUC != auc || e.AUC != 8.0/9 || e.Positives != 3 || e.Negatives != 3 || e.ROCPoints != 7 {
		t.Errorf("Evaluate = %+v, want AUC 8/9, 3+3, 7 points", e)
	}
	// At threshold 0.6: TP 3, FP 1, TN 2, FN 0 → accuracy 5/6, F1 6/7, the best F1; at
	// 0.8: TP 2, FP 0, TN 3, FN 1 → accuracy 5/6 too, F1 4/5: the tie on accuracy goes
	// to the higher threshold.
	wantF1 := Threshold{Threshold: 0.6, Accuracy: 5.0 / 6, Precision: 0.75, Recall: 1, F1: 6.0 / 7, TP: 3, FP: 1, TN: 2, FN: 0}
	wantAcc := Threshold{Threshold: 0.8, Accuracy: 5.0 / 6, Precision: 1, Recall: 2.0 / 3, F1: 0.8, TP: 2, FP: 0, TN: 3, FN: 1}
	if e.BestF1 != wantF1 || e.BestAccuracy != wantAcc {
		t.Errorf("best F1 %+v, best accuracy %+v, want %+v and %+v", e.BestF1, e.BestAccuracy, wantF1, wantAcc)
	}
	// FPR 1%, 5%, 10% all lie on the first vertical run up to TPR 2/3, then the segment
	// to (1/3, 2/3): TPR stays 2/3.
	for _, r := range e.TPRAt {
		if math.Abs(r.TPR-2.0/3) > 1e-15 {
			t.Errorf("TPR at FPR %v = %v, want 2/3", r.FPR, r.TPR)
		}
	}
	// A tie moves diagonally: interpolation on it.
	e2, _ := Evaluate([]float64{1, 1, 0}, []int8{1, -1, -1}) // (0,0) → (½,1) → (1,1)
	if got := e2.TPRAt[2].TPR; math.Abs(got-0.2) > 1e-15 {
		t.Errorf("TPR at FPR 10%% on a tie = %v, want 0.2", got)
	}
	// All scores useless and positives rare: predicting nothing positive is best; the
	// threshold says so with a finite number above every score.
	e3, _ := Evaluate([]float64{0, 0, 0, 0}, []int8{1, -1, -1, -1})
	if e3.BestAccuracy.TP != 0 || e3.BestAccuracy.Accuracy != 0.75 || !(e3.BestAccuracy.Threshold > 0) || math.IsInf(e3.BestAccuracy.Threshold, 0) {
		t.Errorf("best accuracy %+v, want nothing positive at a finite threshold above 0", e3.BestAccuracy)
	}
	if _, err := Evaluate([]float64{1, 2}, []int8{1, 1}); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
}
