package metric

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/aucopt/aucopt/engine/fault"
)

// Errors returned by AUC and ROC.
var (
	// ErrOneClass: a class has no example, so AUC is undefined.
	ErrOneClass = fault.NewInput("metric: AUC undefined: one class has no example")
	// ErrLabel: a label other than +1 or -1.
	ErrLabel = fault.NewInput("metric: label must be +1 or -1")
	// ErrNaN: a score is NaN, so it cannot be ranked.
	ErrNaN = errors.New("metric: NaN score")
)

// Point is one point of a ROC curve: false and true positive rates at a threshold, and
// the counts behind them. Threshold is the lowest score classified positive (+Inf for
// the origin).
type Point struct {
	FPR, TPR  float64
	FP, TP    int64
	Threshold float64
}

// group is a run of equal scores with its class counts.
type group struct {
	score    float64
	pos, neg int64
}

// groups sorts the scores in descending order and returns the runs of equal scores.
func groups(scores []float64, y []int8) ([]group, int64, int64, error) {
	if len(scores) != len(y) {
		panic(fmt.Sprintf("metric: %d scores but %d labels", len(scores), len(y)))
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
		if math.IsNaN(scores[i]) {
			return nil, 0, 0, fmt.Errorf("%w at example %d", ErrNaN, i)
		}
		if y[i] != 1 && y[i] != -1 {
			return nil, 0, 0, fmt.Errorf("%w: example %d has %d", ErrLabel, i, y[i])
		}
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	var gs []group
	var np, nn int64
	for _, i := range idx {
		if len(gs) == 0 || gs[len(gs)-1].score != scores[i] {
			gs = append(gs, group{score: scores[i]})
		}
		g := &gs[len(gs)-1]
		if y[i] == 1 {
			g.pos++
			np++
		} else {
			g.neg++
			nn++
		}
	}
	if np == 0 || nn == 0 {
		return nil, np, nn, fmt.Errorf("%w (%d positives, %d negatives)", ErrOneClass, np, nn)
	}
	return gs, np, nn, nil
}

// AUC returns the area under the ROC curve of scores for labels y (+1 or -1):
//
//	(#{(i,j): y_i=+1, y_j=-1, s_i > s_j} + ½·#{… s_i = s_j}) / (n₊·n₋)
//
// computed in O(n log n) by sorting. It returns an error wrapping ErrOneClass when a
// class is empty, ErrLabel for a label other than ±1 and ErrNaN for a NaN score; it
// panics if the lengths differ. ±Inf scores rank as usual.
func AUC(scores []float64, y []int8) (float64, error) {
	if len(scores) != len(y) {
		panic(fmt.Sprintf("metric: %d scores but %d labels", len(scores), len(y)))
	}
	// Sort each class's scores (as order-preserving integer keys, by radix), then count
	// for each positive the negatives below it and those tied with it: the pair count
	// in integers, as the ROC's groups give it.
	pos, neg := make([]uint64, 0, len(scores)), make([]uint64, 0, len(scores))
	for i, s := range scores {
		if math.IsNaN(s) {
			return 0, fmt.Errorf("%w at example %d", ErrNaN, i)
		}
		switch y[i] {
		case 1:
			pos = append(pos, scoreKey(s))
		case -1:
			neg = append(neg, scoreKey(s))
		default:
			return 0, fmt.Errorf("%w: example %d has %d", ErrLabel, i, y[i])
		}
	}
	np, nn := int64(len(pos)), int64(len(neg))
	if np == 0 || nn == 0 {
		return 0, fmt.Errorf("%w (%d positives, %d negatives)", ErrOneClass, np, nn)
	}
	pos, neg = sortKeys(pos, nil), sortKeys(neg, nil)
	// twice the number of correctly ordered pairs, ties counting one (of two halves)
	var twice int64
	below, upTo := 0, 0 // negatives < p, and ≤ p
	for _, p := range pos {
		for below < len(neg) && neg[below] < p {
			below++
		}
		upTo = max(upTo, below)
		for upTo < len(neg) && neg[upTo] <= p {
			upTo++
		}
		twice += int64(2*below + (upTo - below))
	}
	return float64(twice) / (2 * float64(np) * float64(nn)), nil
}

// scoreKey is an unsigned integer in the order of the score s (not NaN): equal scores,
// −0 and +0 included, have equal keys.
func scoreKey(s float64) uint64 {
	if s == 0 {
		s = 0 // −0 is +0
	}
	u := math.Float64bits(s)
	if u>>63 == 1 {
		return ^u
	}
	return u | 1<<63
}

// radixMin is the length from which sortKeys sorts by radix: below it the comparison
// sort is as fast.
const radixMin = 256

// sortKeys sorts keys ascending, by least-significant-digit radix on bytes (a byte
// every key shares is skipped) for long slices, returning the sorted slice: keys
// itself or the scratch tmp, which must then hold len(keys) (a nil or short tmp is
// allocated). On 16,281 test scores it takes about a tenth of slices.Sort's time.
func sortKeys(keys, tmp []uint64) []uint64 {
	n := len(keys)
	if n < radixMin {
		slices.Sort(keys)
		return keys
	}
	if cap(tmp) < n {
		tmp = make([]uint64, n)
	}
	tmp = tmp[:n]
	var count [8][256]int
	for _, k := range keys {
		for p := range 8 {
			count[p][byte(k>>(8*p))]++
		}
	}
	src, dst := keys, tmp
	for p := range 8 {
		c := &count[p]
		if c[byte(src[0]>>(8*p))] == n {
			continue
		}
		var at [256]int
		sum := 0
		for v := range 256 {
			at[v] = sum
			sum += c[v]
		}
		for _, k := range src {
			b := byte(k >> (8 * p))
			dst[at[b]] = k
			at[b]++
		}
		src, dst = dst, src
	}
	return src
}

// ROC returns the ROC curve of scores for labels y: the origin, then one point per
// distinct score in descending order (ties move diagonally), ending at (1, 1).
// Errors are those of AUC.
func ROC(scores []float64, y []int8) ([]Point, error) {
	gs, np, nn, err := groups(scores, y)
	if err != nil {
		return nil, err
	}
	pts := make([]Point, 0, len(gs)+1)
	pts = append(pts, Point{Threshold: math.Inf(1)})
	var tp, fp int64
	for _, g := range gs {
		tp += g.pos
		fp += g.neg
		pts = append(pts, Point{FPR: float64(fp) / float64(nn), TPR: float64(tp) / float64(np), FP: fp, TP: tp, Threshold: g.score})
	}
	return pts, nil
}

// Area returns the trapezoidal area under a ROC curve from ROC,
//
//	Σ_k (FPR_k − FPR_{k−1})·(TPR_k + TPR_{k−1})/2
//
// computed from the points' integer counts, so that for the points of ROC(scores, y)
// it equals AUC(scores, y) exactly: both reduce to the same count of ordered pairs
// (each step adds ΔFP·(TP_{k−1} + TP_k) half-pairs). It returns 0 for fewer than two
// points.
func Area(pts []Point) float64 {
	if len(pts) < 2 {
		return 0
	}
	last := pts[len(pts)-1]
	if last.FP == 0 || last.TP == 0 {
		return 0
	}
	var twice int64
	for k := 1; k < len(pts); k++ {
		twice += (pts[k].FP - pts[k-1].FP) * (pts[k-1].TP + pts[k].TP)
	}
	return float64(twice) / (2 * float64(last.TP) * float64(last.FP))
}
