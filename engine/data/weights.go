package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Sample weights: Dataset.W holds one weight a row (nil: every row weighs 1). A weight
// is a finite number ≥ 0; 0 is allowed (the row takes no part in a weighted fit, as if
// it were not there), a negative, infinite or NaN weight is an error wrapping
// ErrWeight. The transforms that copy rows (Subset, Permuted, ToDense, ToSparse,
// Truncate, the scalings and Bins.Apply) carry the weights with their rows.

// ErrWeight: a sample weight is not a finite number ≥ 0, or a weight file does not
// have one weight per row.
var ErrWeight = errors.New("bad sample weight")

// Weight is row i's sample weight: W[i], or 1 without weights.
func (d *Dataset) Weight(i int) float64 {
	if d.W == nil {
		return 1
	}
	return d.W[i]
}

// SetWeights sets the rows' sample weights to w (kept, not copied; nil removes them).
// It returns an error wrapping ErrWeight naming the first row (1-based) whose weight is
// not a finite number ≥ 0, or when w does not have one weight per row.
func (d *Dataset) SetWeights(w []float64) error {
	if w == nil {
		d.W = nil
		return nil
	}
	if len(w) != d.Rows() {
		return fmt.Errorf("%s: %w: %d weights for %d rows", d.Name, ErrWeight, len(w), d.Rows())
	}
	for i, v := range w {
		if err := checkWeight(v); err != nil {
			return fmt.Errorf("%s: row %d: %w", d.Name, i+1, err)
		}
	}
	d.W = w
	return nil
}

// checkWeight returns an error wrapping ErrWeight unless v is a finite number ≥ 0.
func checkWeight(v float64) error {
	if !(v >= 0) || math.IsInf(v, 1) {
		return fmt.Errorf("%w: %v, want a finite number ≥ 0", ErrWeight, v)
	}
	return nil
}

// WeightSums returns the sums of the positive and of the negative rows' sample
// weights (their counts without weights), each summed in row order.
func (d *Dataset) WeightSums() (pos, neg float64) {
	for i, y := range d.Y {
		switch y {
		case 1:
			pos += d.Weight(i)
		case -1:
			neg += d.Weight(i)
		}
	}
	return pos, neg
}

// UnitWeights reports whether every row weighs 1 (no weights, or all of them 1): a
// weighted fit is then the unweighted one, bit for bit.
func (d *Dataset) UnitWeights() bool {
	for _, v := range d.W {
		if v != 1 {
			return false
		}
	}
	return true
}

// subsetWeights returns the weights of rows (nil without weights).
func (d *Dataset) subsetWeights(rows []int) []float64 {
	if d.W == nil {
		return nil
	}
	w := make([]float64, len(rows))
	for k, i := range rows {
		w[k] = d.W[i]
	}
	return w
}

// ReadWeights reads a sample-weight file for a training file of rows rows, as
// LIBLINEAR's -W takes it: one weight per line, a finite number ≥ 0, the k-th for the
// k-th row; blank lines and surrounding spaces are not allowed to shift rows (a blank
// line is an error). A bad weight is a *ParseError naming its line; a count other than
// rows is an error wrapping ErrWeight naming both.
func ReadWeights(path string, rows int) ([]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("weight file: %w", err)
	}
	defer f.Close()
	return readWeights(f, path, rows)
}

// readWeights is ReadWeights on r, named path in errors.
func readWeights(r io.Reader, path string, rows int) ([]float64, error) {
	sc := bufio.NewScanner(r)
	w := make([]float64, 0, max(rows, 0))
	line := 0
	for sc.Scan() {
		line++
		tok := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if tok == "" {
			return nil, &ParseError{Path: path, Line: line, Err: fmt.Errorf("%w: empty line, want one weight per row", ErrWeight)}
		}
		v, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return nil, &ParseError{Path: path, Line: line, Token: tok, Err: fmt.Errorf("%w: not a number", ErrWeight)}
		}
		if err := checkWeight(v); err != nil {
			return nil, &ParseError{Path: path, Line: line, Token: tok, Err: err}
		}
		w = append(w, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(w) != rows {
		return nil, fmt.Errorf("%s: %w: %d weights for %d training rows (want one per row)", path, ErrWeight, len(w), rows)
	}
	return w, nil
}
