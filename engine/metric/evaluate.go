package metric

import "math"

// Evaluation summarises how well scores rank and classify labelled data.
type Evaluation struct {
	AUC       float64 `json:"auc"`
	Positives int64   `json:"positives"`
	Negatives int64   `json:"negatives"`
	// ROCPoints is the number of points of the ROC curve (the distinct scores + 1).
	ROCPoints int `json:"roc_points"`
	// TPRAt is the true positive rate at false positive rates 1%, 5% and 10%, read off
	// the ROC curve by linear interpolation (the curve whose area is AUC).
	TPRAt []RatePoint `json:"tpr_at_fpr"`
	// BestF1 and BestAccuracy are the thresholds that maximise F1 and accuracy (the
	// highest such threshold on ties), with the confusion counts there.
	BestF1       Threshold `json:"best_f1"`
	BestAccuracy Threshold `json:"best_accuracy"`
}

// RatePoint is a point (FPR, TPR) of a ROC curve.
type RatePoint struct {
	FPR float64 `json:"fpr"`
	TPR float64 `json:"tpr"`
}

// Threshold is a classifier "positive when score ≥ Threshold" and its outcome.
type Threshold struct {
	Threshold float64 `json:"threshold"`
	Accuracy  float64 `json:"accuracy"`
	Precision float64 `json:"precision"` // TP/(TP+FP); 0 when nothing is classified positive
	Recall    float64 `json:"recall"`    // TP/(TP+FN), the TPR
	F1        float64 `json:"f1"`        // 2TP/(2TP+FP+FN)
	TP        int64   `json:"tp"`
	FP        int64   `json:"fp"`
	TN        int64   `json:"tn"`
	FN        int64   `json:"fn"`
}

// EvalFPRs are the false positive rates Evaluate reads the TPR at.
var EvalFPRs = []float64{0.01, 0.05, 0.10}

// Evaluate computes the Evaluation of scores for labels y (±1). Its errors are those of
// ROC (one class, a label other than ±1, a NaN score).
func Evaluate(scores []float64, y []int8) (*Evaluation, error) {
	pts, err := ROC(scores, y)
	if err != nil {
		return nil, err
	}
	last := pts[len(pts)-1]
	e := &Evaluation{AUC: Area(pts), Positives: last.TP, Negatives: last.FP, ROCPoints: len(pts)}
	for _, f := range EvalFPRs {
		e.TPRAt = append(e.TPRAt, RatePoint{FPR: f, TPR: tprAt(pts, f)})
	}
	for k, p := range pts {
		t := threshold(p, e.Positives, e.Negatives)
		if k == 0 {
			// The origin's threshold is +Inf (nothing positive); say it with the
			// smallest number above every score instead, which JSON can carry.
			t.Threshold = math.Nextafter(pts[1].Threshold, math.Inf(1))
			e.BestF1, e.BestAccuracy = t, t
			continue
		}
		if t.F1 > e.BestF1.F1 {
			e.BestF1 = t
		}
		if t.Accuracy > e.BestAccuracy.Accuracy {
			e.BestAccuracy = t
		}
	}
	return e, nil
}

// threshold returns the confusion counts and rates of the ROC point p.
func threshold(p Point, pos, neg int64) Threshold {
	t := Threshold{Threshold: p.Threshold, TP: p.TP, FP: p.FP, FN: pos - p.TP, TN: neg - p.FP}
	t.Accuracy = float64(t.TP+t.TN) / float64(pos+neg)
	if t.TP+t.FP > 0 {
		t.Precision = float64(t.TP) / float64(t.TP+t.FP)
	}
	t.Recall = float64(t.TP) / float64(pos)
	t.F1 = 2 * float64(t.TP) / float64(2*t.TP+t.FP+t.FN)
	return t
}

// tprAt returns the TPR of the ROC curve pts at FPR f: on the segment from the last
// point with FPR ≤ f (the highest TPR there) to the next, linearly interpolated.
func tprAt(pts []Point, f float64) float64 {
	for k := 1; k < len(pts); k++ {
		if pts[k].FPR > f {
			a, b := pts[k-1], pts[k]
			return a.TPR + (b.TPR-a.TPR)*(f-a.FPR)/(b.FPR-a.FPR)
		}
	}
	return 1
}
