package solver

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/kernels"
)

// Online is a learner fed one example at a time. Its memory does not grow with the
// number of examples.
type Online interface {
	// Observe learns from one example (y is +1 or −1; x's indices are below the
	// dimension the learner was made for) and returns the score w·x the learner gave x
	// before learning from it: the progressive-validation prediction, and how the
	// driver notices divergence (a non-finite score).
	Observe(x kernels.Sparse, y int8) float64
	// Weights returns a copy of the scoring weights w (for averaging methods, the
	// averaged output).
	Weights() []float64
}

// Batch is a learner fitted to a whole in-memory training set (labels ±1).
type Batch interface {
	// Fit learns from ds, whose Dim is the dimension the learner was made for. It
	// returns ctx's error when cancelled, an error wrapping ErrOneClass when ds holds a
	// single class, and one wrapping ErrDiverged when the weights became non-finite.
	Fit(ctx context.Context, ds *data.Dataset) error
	// Weights returns a copy of the fitted scoring weights w.
	Weights() []float64
}

// OrderedBatch is a batch learner that can fit a dataset's rows in a given order
// without moving them, as a run's shuffle asks: B-LS-SVM, and MBA with every pair, whose
// fits read the rows once into class moments.
type OrderedBatch interface {
	Batch
	// ReadsInPlace reports whether FitOrdered reads a training set of rows rows where
	// they lie (else it copies them in order first).
	ReadsInPlace(rows int) bool
	// FitOrdered is Fit(ctx, ds.Subset(order)); order nil is ds's own order. Where the
	// fit sums the rows in their order (the class moments) it is bit for bit; a fit by
	// conjugate gradients, whose every product is a sum over all rows, reads them as
	// stored whatever the order (the same bits for any order, the copy's to rounding).
	FitOrdered(ctx context.Context, ds *data.Dataset, order []int) error
}

var (
	_ OrderedBatch = (*LSAUC)(nil)
	_ OrderedBatch = (*MBA)(nil)
)

// Errors of the solver package.
var (
	// ErrParam is wrapped by every error about a hyper-parameter: an unknown key, an
	// unparseable value or one out of its range.
	ErrParam = fault.NewInput("bad parameter")
	// ErrDiverged: the weights became NaN or infinite.
	ErrDiverged = fault.NewRuntime("diverged")
)

// encodeState is every learner's checkpoint codec: gob of its state struct (a type
// without methods, so that gob does not call MarshalBinary again).
func encodeState(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeState decodes a state written by encodeState into v.
func decodeState(data []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}

// checkLabel panics unless y is +1 or −1: a programmer error, since the data layer
// maps labels and the driver refuses unmapped ones.
func checkLabel(name string, y int8) {
	if y != 1 && y != -1 {
		panic(fmt.Sprintf("solver: %s.Observe: label %d, want +1 or −1", name, y))
	}
}

// checkDim validates a learner's dimension.
func checkDim(dim int) error { return Check(dim >= 1, "dim", dim, "≥ 1") }

// Check is a validation helper for constructors: it returns an error wrapping ErrParam
// naming key when ok is false.
func Check(ok bool, key string, value any, want string) error {
	if ok {
		return nil
	}
	return fmt.Errorf("%w: %s = %v, want %s", ErrParam, key, value, want)
}

// Grid is a set of values for each of some parameter keys; its points are the
// Cartesian product, keys varying in the order given (the last fastest).
type Grid struct {
	Keys   []string
	Values [][]float64
}

// Points returns the grid's assignments as key=value lists.
func (g Grid) Points() [][]string {
	pts := [][]string{nil}
	for k, key := range g.Keys {
		var next [][]string
		for _, p := range pts {
			for _, v := range g.Values[k] {
				next = append(next, append(slices.Clone(p), key+"="+strconv.FormatFloat(v, 'g', -1, 64)))
			}
		}
		pts = next
	}
	return pts
}

// Pow2 returns 2^lo … 2^hi.
func Pow2(lo, hi int) []float64 { return powers(2, lo, hi) }

// Pow10 returns 10^lo … 10^hi.
func Pow10(lo, hi int) []float64 { return powers(10, lo, hi) }

func powers(base float64, lo, hi int) []float64 {
	var out []float64
	for e := lo; e <= hi; e++ {
		out = append(out, math.Pow(base, float64(e)))
	}
	return out
}

// scaledCopy returns s·v as a new slice: the weights of a learner that keeps them as
// w = s·v so that an ℓ2 shrink costs O(1).
func scaledCopy(s float64, v []float64) []float64 {
	w := make([]float64, len(v))
	for j, vj := range v {
		w[j] = s * vj
	}
	return w
}
