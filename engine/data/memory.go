package data

import (
	"fmt"
	"math"
)

// In-memory datasets: rows and labels a caller already holds (a Go program, or NumPy and
// SciPy arrays through the C ABI in capi/), made a Dataset without parsing and, where
// the layout allows, without copying.
//
// What is kept and what is copied:
//
//   - row-major dense values are kept as Dataset.Dense;
//   - column-major dense values are transposed into a row-major copy (the Dataset's dense
//     layout is row-major, and every learner reads whole rows);
//   - CSR values are kept as Dataset.Val; indices are kept when they are int32
//     (Dataset.Idx's type) and narrowed into a copy when int64; the row pointers are kept
//     when they are int64 (Dataset.Ptr's type) and widened into a copy when int32, which
//     is what SciPy holds for fewer than 2³¹ stored values: rows+1 int64s, small beside
//     the values;
//   - labels are kept as Dataset.Labels; Dataset.Y, the ±1 labels, is made (one byte a
//     row).
//
// The Dataset shares the caller's arrays: the caller must not change them while it is
// in use, and nothing in this package or in engine writes to them (engine.Train does not
// reorder or scale a caller's dataset in place; TrainConfig.Dataset).
//
// Values are checked as a file's are: a value that is not a finite number is an error
// wrapping ErrValue, an index out of range or out of order one wrapping ErrIndex or
// ErrOrder, each naming the row (and feature); labels follow the files' binary rules
// (see the package doc), through the same code as a file's, and a label that breaks them
// is an error wrapping ErrLabel naming its row.

// MemoryName is the name of an in-memory dataset made without one.
const MemoryName = "memory"

// NewDenseRows returns a dense dataset over x, rows×dim float64 values, row-major
// (C order) when colMajor is false and column-major (Fortran order) when it is true,
// with labels (one per row, mapped to ±1 by the files' rules, or one-vs-rest against
// positive when it is not ""; Options.Positive; nil labels: rows to score, their Y 0).
// A row-major x and labels are kept, not copied; a column-major x is transposed into a
// copy. name names the data in errors and results ("" for MemoryName).
func NewDenseRows(name string, rows, dim int, x []float64, colMajor bool, labels []float64, positive string) (*Dataset, error) {
	name = memoryName(name)
	if err := checkShape(name, rows, dim, labels); err != nil {
		return nil, err
	}
	if len(x) != rows*dim {
		return nil, fmt.Errorf("%s: %d values for %d rows of %d features", name, len(x), rows, dim)
	}
	for k, v := range x {
		if v-v != 0 { // NaN or ±Inf
			i, j := k/dim, k%dim
			if colMajor {
				i, j = k%rows, k/rows
			}
			return nil, fmt.Errorf("%s: row %d, feature %d: %w: not a finite number (%v)", name, i+1, j+1, ErrValue, v)
		}
	}
	y, err := memoryLabels(name, labels, positive)
	if err != nil {
		return nil, err
	}
	if colMajor && rows > 1 && dim > 1 {
		t := make([]float64, len(x))
		for j := range dim {
			col := x[j*rows : (j+1)*rows]
			for i, v := range col {
				t[i*dim+j] = v
			}
		}
		x = t
	}
	y, labels = unlabelled(y, labels, rows)
	d := &Dataset{Name: name, Dim: dim, Y: y, Labels: labels, Dense: x}
	d.setIndices()
	return d, nil
}

// NewCSR returns a sparse dataset over compressed sparse rows as SciPy's csr_matrix
// holds them: row i has the zero-based feature indices indices[indptr[i]:indptr[i+1]]
// (strictly increasing, below dim: SciPy's canonical format) and the values
// values[…]; indptr has rows+1 entries from 0 to len(indices). Labels are as for
// NewDenseRows. values and labels are kept, indptr when it is []int64 and indices when
// they are []int32; the others are converted into copies (see the notes above).
func NewCSR[P, I int32 | int64](name string, dim int, indptr []P, indices []I, values []float64, labels []float64, positive string) (*Dataset, error) {
	name = memoryName(name)
	rows := len(indptr) - 1
	if len(indptr) == 0 {
		return nil, fmt.Errorf("%s: no row pointers (want rows+1 of them)", name)
	}
	if err := checkShape(name, rows, dim, labels); err != nil {
		return nil, err
	}
	if len(indices) != len(values) {
		return nil, fmt.Errorf("%s: %d indices but %d values", name, len(indices), len(values))
	}
	if indptr[0] != 0 || int64(indptr[rows]) != int64(len(values)) {
		return nil, fmt.Errorf("%s: row pointers run from %d to %d, want 0 to %d (the stored values)", name, indptr[0], indptr[rows], len(values))
	}
	for i := range rows {
		lo, hi := int64(indptr[i]), int64(indptr[i+1])
		if hi < lo || hi > int64(len(values)) {
			return nil, fmt.Errorf("%s: row %d: row pointers %d, %d out of order or beyond the %d values", name, i+1, lo, hi, len(values))
		}
		prev := int64(-1)
		for k := lo; k < hi; k++ {
			j := int64(indices[k])
			switch {
			case j < 0 || j >= int64(dim):
				return nil, fmt.Errorf("%s: row %d: %w: %d is outside [0, %d)", name, i+1, ErrIndex, j, dim)
			case j <= prev:
				return nil, fmt.Errorf("%s: row %d: %w: %d after %d (sort the indices and sum duplicates first: scipy's sum_duplicates())", name, i+1, ErrOrder, j, prev)
			}
			if v := values[k]; v-v != 0 {
				return nil, fmt.Errorf("%s: row %d, feature %d: %w: not a finite number (%v)", name, i+1, j+1, ErrValue, v)
			}
			prev = j
		}
	}
	y, err := memoryLabels(name, labels, positive)
	if err != nil {
		return nil, err
	}
	y, labels = unlabelled(y, labels, rows)
	d := &Dataset{Name: name, Dim: dim, Y: y, Labels: labels, Val: values}
	if p, ok := any(indptr).([]int64); ok {
		d.Ptr = p
	} else {
		d.Ptr = make([]int64, len(indptr))
		for i, v := range indptr {
			d.Ptr[i] = int64(v)
		}
	}
	if idx, ok := any(indices).([]int32); ok {
		d.Idx = idx
	} else {
		d.Idx = make([]int32, len(indices))
		for k, v := range indices {
			d.Idx[k] = int32(v) // below dim, checked above, and dim fits an int32
		}
	}
	return d, nil
}

// unlabelled returns y and labels, or for nil labels (rows to score) rows zero labels
// and zero Y, as Options.Raw's unmapped labels.
func unlabelled(y []int8, labels []float64, rows int) ([]int8, []float64) {
	if labels != nil {
		return y, labels
	}
	return make([]int8, rows), make([]float64, rows)
}

// memoryName is name, or MemoryName for "".
func memoryName(name string) string {
	if name == "" {
		return MemoryName
	}
	return name
}

// checkShape checks an in-memory dataset's rows, features and labels.
func checkShape(name string, rows, dim int, labels []float64) error {
	switch {
	case rows < 1:
		return fmt.Errorf("%s: %w", name, ErrEmpty)
	case dim < 1 || dim > math.MaxInt32:
		return fmt.Errorf("%s: %d features: want 1 to %d", name, dim, math.MaxInt32)
	case labels != nil && len(labels) != rows:
		return fmt.Errorf("%s: %d labels for %d rows", name, len(labels), rows)
	}
	return nil
}

// memoryLabels maps labels to ±1 by the rules a Reader applies to a file's labels (its
// mapLabel: the same code), in row order.
func memoryLabels(name string, labels []float64, positive string) ([]int8, error) {
	if labels == nil {
		return nil, nil // rows to score: unlabelled
	}
	// The reader reads nothing: it only holds the label state. Its name is fixed so that
	// a name like "x.csv" does not make it take the table rules for positive.
	r, err := NewReader(eofReader{}, MemoryName, Options{Positive: positive})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	y := make([]int8, len(labels))
	for i, l := range labels {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return nil, fmt.Errorf("%s: row %d: %w: not a finite number (%v)", name, i+1, ErrLabel, l)
		}
		if y[i], err = r.mapLabel(l); err != nil {
			return nil, fmt.Errorf("%s: row %d: %w", name, i+1, err)
		}
	}
	return y, nil
}
