package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Calibration methods (Calibration.Method; train --calibrate).
const (
	CalibratePlatt    = "platt"
	CalibrateIsotonic = "isotonic"
)

// Calibration maps a model's scores to probabilities of the positive class. It is fitted
// on held-out scores (FitPlatt, FitIsotonic), never on the rows that trained the
// weights. Its JSON form is the model file's optional "calibration" member:
//
//	{"method": "platt", "a": 1.7, "b": -0.3, "rows": 6513, "holdout": 0.2}
//	{"method": "isotonic", "x": […], "y": […], "rows": 6513, "holdout": 0.2}
type Calibration struct {
	Method string `json:"method"` // CalibratePlatt or CalibrateIsotonic
	// A and B are Platt's map p(s) = 1/(1+exp(−(A·s+B))).
	A float64 `json:"a,omitempty"`
	B float64 `json:"b,omitempty"`
	// X and Y are the isotonic map's knots: X strictly increasing scores, Y
	// non-decreasing probabilities; between knots p is interpolated linearly, outside
	// them it is the first or last Y.
	X []float64 `json:"x,omitempty"`
	Y []float64 `json:"y,omitempty"`
	// Rows is the number of held-out rows the map was fitted on and Holdout their share
	// of the training data.
	Rows    int     `json:"rows"`
	Holdout float64 `json:"holdout,omitempty"`
	// Folds, when not 0, says the map was cross-fitted instead (train
	// --calibrate-folds): fitted on the out-of-fold scores of all Rows training rows,
	// each scored by a fit on the other Folds−1 folds; Holdout is then 0.
	Folds int `json:"folds,omitempty"`
}

// ErrCalibration is wrapped by the errors of FitPlatt and FitIsotonic for scores they
// cannot fit (no rows, one class only, a non-finite score).
var ErrCalibration = errors.New("cannot calibrate")

// Prob returns the calibrated probability of the positive class for score s.
func (c *Calibration) Prob(s float64) float64 {
	if c.Method == CalibratePlatt {
		return sigmoid(c.A*s + c.B)
	}
	x, y := c.X, c.Y
	switch i := sort.SearchFloat64s(x, s); {
	case i == 0:
		return y[0]
	case i == len(x):
		return y[len(y)-1]
	case x[i] == s:
		return y[i]
	default:
		t := (s - x[i-1]) / (x[i] - x[i-1])
		return y[i-1] + t*(y[i]-y[i-1])
	}
}

// Validate reports whether c can be applied; its errors wrap ErrModel.
func (c *Calibration) Validate() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: calibration: %s", ErrModel, fmt.Sprintf(format, args...))
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch c.Method {
	case CalibratePlatt:
		if !finite(c.A) || !finite(c.B) {
			return fail("platt a=%v b=%v: want finite numbers", c.A, c.B)
		}
		if c.X != nil || c.Y != nil {
			return fail("platt has isotonic knots")
		}
	case CalibrateIsotonic:
		if len(c.X) == 0 || len(c.X) != len(c.Y) {
			return fail("isotonic: %d knots x and %d y, want as many and at least one", len(c.X), len(c.Y))
		}
		for i := range c.X {
			if !finite(c.X[i]) || !(c.Y[i] >= 0 && c.Y[i] <= 1) {
				return fail("isotonic knot %d (%v, %v): want a finite score and a probability in [0, 1]", i+1, c.X[i], c.Y[i])
			}
			if i > 0 && (c.X[i] <= c.X[i-1] || c.Y[i] < c.Y[i-1]) {
				return fail("isotonic knot %d: scores must increase and probabilities not decrease", i+1)
			}
		}
		if c.A != 0 || c.B != 0 {
			return fail("isotonic has platt coefficients")
		}
	default:
		return fail("unknown method %q (want %s or %s)", c.Method, CalibratePlatt, CalibrateIsotonic)
	}
	if c.Rows < 0 || !(c.Holdout >= 0 && c.Holdout < 1) {
		return fail("rows %d, holdout %v", c.Rows, c.Holdout)
	}
	if c.Folds < 0 || c.Folds == 1 || (c.Folds != 0 && c.Holdout != 0) {
		return fail("folds %d with holdout %v: want 0, or at least 2 without a hold-out", c.Folds, c.Holdout)
	}
	return nil
}

// Fit fits method (CalibratePlatt or CalibrateIsotonic) to the scores and their ±1
// labels y.
func Fit(method string, scores []float64, y []int8) (*Calibration, error) {
	switch method {
	case CalibratePlatt:
		return FitPlatt(scores, y)
	case CalibrateIsotonic:
		return FitIsotonic(scores, y)
	}
	return nil, fmt.Errorf("%w: unknown method %q (want %s or %s)", ErrCalibration, method, CalibratePlatt, CalibrateIsotonic)
}

// checkFit checks scores and labels for a fit and counts the classes.
func checkFit(scores []float64, y []int8) (pos, neg int, err error) {
	if len(scores) != len(y) {
		return 0, 0, fmt.Errorf("%w: %d scores, %d labels", ErrCalibration, len(scores), len(y))
	}
	for i, s := range scores {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return 0, 0, fmt.Errorf("%w: score %d is %v", ErrCalibration, i+1, s)
		}
		if y[i] > 0 {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		return 0, 0, fmt.Errorf("%w: the held-out rows have %d positives and %d negatives, want both", ErrCalibration, pos, neg)
	}
	return pos, neg, nil
}

// FitPlatt fits Platt's sigmoid p(s) = 1/(1+exp(−(a·s+b))) to the scores by maximum
// likelihood against Platt's smoothed targets, (N₊+1)/(N₊+2) for a positive and
// 1/(N₋+2) for a negative, with the Newton method and backtracking line search of Lin,
// Lin and Weng (2007), "A note on Platt's probabilistic outputs for support vector
// machines".
func FitPlatt(scores []float64, y []int8) (*Calibration, error) {
	pos, neg, err := checkFit(scores, y)
	if err != nil {
		return nil, err
	}
	hi, lo := (float64(pos)+1)/(float64(pos)+2), 1/(float64(neg)+2)
	t := make([]float64, len(y))
	for i := range y {
		t[i] = lo
		if y[i] > 0 {
			t[i] = hi
		}
	}
	// Minimise F(a, b) = Σ −t log p − (1−t) log(1−p), p = σ(a·s+b), starting from a = 0
	// and b at the log-odds of the smoothed prior.
	a, b := 0.0, math.Log((float64(pos)+1)/(float64(neg)+1))
	f := plattLoss(scores, t, a, b)
	const minStep, sigma = 1e-10, 1e-12 // Lin et al.'s values
	for iter := 0; iter < 100; iter++ {
		var g1, g2, h11, h22, h21 float64
		for i, s := range scores {
			p := sigmoid(a*s + b)
			d1 := p - t[i]
			d2 := p * (1 - p)
			g1 += s * d1
			g2 += d1
			h11 += s * s * d2
			h22 += d2
			h21 += s * d2
		}
		if math.Abs(g1) < 1e-5 && math.Abs(g2) < 1e-5 {
			break
		}
		h11 += sigma
		h22 += sigma
		det := h11*h22 - h21*h21
		da := -(h22*g1 - h21*g2) / det
		db := -(-h21*g1 + h11*g2) / det
		gd := g1*da + g2*db
		step := 1.0
		for step >= minStep {
			na, nb := a+step*da, b+step*db
			if nf := plattLoss(scores, t, na, nb); nf < f+1e-4*step*gd {
				a, b, f = na, nb, nf
				break
			}
			step /= 2
		}
		if step < minStep {
			break // no decrease along the Newton direction: at the optimum to rounding
		}
	}
	return &Calibration{Method: CalibratePlatt, A: a, B: b, Rows: len(scores)}, nil
}

// plattLoss is the cross-entropy of σ(a·s+b) against the targets t, computed without
// overflow.
func plattLoss(scores, t []float64, a, b float64) float64 {
	var f float64
	for i, s := range scores {
		z := a*s + b
		// −t log σ(z) − (1−t) log(1−σ(z)) = log(1+e^z) − t·z
		if z >= 0 {
			f += z + math.Log1p(math.Exp(-z)) - t[i]*z
		} else {
			f += math.Log1p(math.Exp(z)) - t[i]*z
		}
	}
	return f
}

// sigmoid is 1/(1+e^−z), without overflow.
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// Sigmoid is the logistic function 1/(1+e^−z), the probability eval reports for an
// uncalibrated model's raw score.
func Sigmoid(z float64) float64 { return sigmoid(z) }

// FitIsotonic fits the non-decreasing map from scores to the 0/1 labels that is closest
// in squared error (isotonic regression, by pool-adjacent-violators), rows of equal
// score pooled first. Its knots are each block's lowest and highest score at the
// block's mean label, so that Prob interpolates linearly between blocks (as
// scikit-learn's IsotonicRegression does) and is constant outside the scores seen.
func FitIsotonic(scores []float64, y []int8) (*Calibration, error) {
	if _, _, err := checkFit(scores, y); err != nil {
		return nil, err
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case scores[i] < scores[j]:
			return -1
		case scores[i] > scores[j]:
			return 1
		}
		return 0
	})
	var xs, vs, ws []float64 // distinct scores, their mean labels and row counts
	for _, i := range order {
		v := 0.0
		if y[i] > 0 {
			v = 1
		}
		if n := len(xs); n > 0 && xs[n-1] == scores[i] {
			vs[n-1] += v
			ws[n-1]++
			continue
		}
		xs, vs, ws = append(xs, scores[i]), append(vs, v), append(ws, 1)
	}
	for k := range vs {
		vs[k] /= ws[k]
	}
	blocks := PAV(vs, ws)
	c := &Calibration{Method: CalibrateIsotonic, Rows: len(scores)}
	for _, bl := range blocks {
		c.X, c.Y = append(c.X, xs[bl.Start]), append(c.Y, bl.Value)
		if bl.End-1 > bl.Start {
			c.X, c.Y = append(c.X, xs[bl.End-1]), append(c.Y, bl.Value)
		}
	}
	return c, nil
}

// Block is one run of equal values of an isotonic fit: points Start to End−1 take Value.
type Block struct {
	Start, End int
	Value      float64
}

// PAV returns the isotonic (non-decreasing) regression of v with positive weights w by
// pool-adjacent-violators: the non-decreasing f minimising Σ w_i (v_i − f_i)², as
// blocks of strictly increasing value in order. It takes O(n) amortised time.
func PAV(v, w []float64) []Block {
	type blk struct {
		start, end int
		sum, wt    float64 // Σ w·v and Σ w over the block
	}
	st := make([]blk, 0, len(v))
	for i := range v {
		b := blk{start: i, end: i + 1, sum: w[i] * v[i], wt: w[i]}
		// Pool while the block before has a mean as large (equal means too, so that the
		// blocks' values strictly increase): pooling only lowers the new block's mean, so
		// one backward sweep per point restores the order.
		for len(st) > 0 {
			p := st[len(st)-1]
			if p.sum/p.wt < b.sum/b.wt {
				break
			}
			b = blk{start: p.start, end: b.end, sum: p.sum + b.sum, wt: p.wt + b.wt}
			st = st[:len(st)-1]
		}
		st = append(st, b)
	}
	out := make([]Block, len(st))
	for k, b := range st {
		out[k] = Block{Start: b.start, End: b.end, Value: b.sum / b.wt}
	}
	return out
}
