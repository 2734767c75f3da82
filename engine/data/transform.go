package data

import (
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// Scaler is a per-feature affine map fitted on training data and stored with a model,
// so that scoring applies exactly the training transformation:
//
//	x'_j = Scale[j]·x_j + Shift[j]
//
// Features at or beyond len(Scale) (unseen in training) map to 0.
type Scaler struct {
	Scale, Shift []float64
}

// FitMinMax fits the map of each feature's training range [min, max] onto [lo, hi]
// (the papers scale to [−1, 1]), counting the implicit zeros of sparse rows. A constant
// feature maps to 0, as LIBSVM's svm-scale drops it.
func FitMinMax(d *Dataset, lo, hi float64) (*Scaler, error) {
	return FitMinMaxRows(d, nil, lo, hi)
}

// FitMinMaxRows is FitMinMax(d.Subset(rows), lo, hi) without the copy (rows nil: all
// of d's rows; each row named once).
func FitMinMaxRows(d *Dataset, rows []int, lo, hi float64) (*Scaler, error) {
	if !(lo < hi) {
		return nil, fmt.Errorf("min-max scaling: range [%v, %v] is empty", lo, hi)
	}
	mins, maxs := make([]float64, d.Dim), make([]float64, d.Dim)
	stored := make([]int, d.Dim)
	for j := range mins {
		mins[j], maxs[j] = math.Inf(1), math.Inf(-1)
	}
	n := d.Rows()
	if rows != nil {
		n = len(rows)
	}
	for q := range n {
		i := q
		if rows != nil {
			i = rows[q]
		}
		r := d.Row(i)
		for k, j := range r.Idx {
			v := r.Val[k]
			mins[j] = min(mins[j], v)
			maxs[j] = max(maxs[j], v)
			stored[j]++
		}
	}
	s := &Scaler{Scale: make([]float64, d.Dim), Shift: make([]float64, d.Dim)}
	for j := range mins {
		if stored[j] < n { // some rows hold an implicit 0
			mins[j], maxs[j] = min(mins[j], 0), max(maxs[j], 0)
		}
		if !(maxs[j] > mins[j]) {
			continue // constant (or absent): maps to 0
		}
		s.Scale[j] = (hi - lo) / (maxs[j] - mins[j])
		s.Shift[j] = lo - mins[j]*s.Scale[j]
	}
	return s, nil
}

// Apply returns the scaled copy of d. Rows keep only non-zero results; when a shift is
// non-zero the implicit zeros of that feature become stored values.
func (s *Scaler) Apply(d *Dataset) *Dataset {
	return d.mapRows(s.ApplyRow)
}

// mapRows returns a copy of d with each row replaced by f(row, d.Dim, dense, out):
// dense is scratch of length d.Dim, out the previous result's storage to reuse.
func (d *Dataset) mapRows(f func(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse) *Dataset {
	out := d.empty()
	dense := make([]float64, d.Dim)
	var buf kernels.Sparse
	for i := range d.Rows() {
		buf = f(d.Row(i), d.Dim, dense, buf)
		out.Append(d.Y[i], d.Labels[i], buf)
	}
	out.Dim, out.W = d.Dim, d.W
	return out
}

// ApplyRow scales one row of dimension dim into out (reusing its storage) and returns
// it; dense is scratch of length dim.
func (s *Scaler) ApplyRow(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse {
	out.Idx, out.Val = out.Idx[:0], out.Val[:0]
	shifted := false
	for j := range min(dim, len(s.Shift)) {
		if s.Shift[j] != 0 {
			shifted = true
			break
		}
	}
	if !shifted {
		for k, j := range x.Idx {
			if int(j) < len(s.Scale) && s.Scale[j] != 0 {
				out.Idx = append(out.Idx, j)
				out.Val = append(out.Val, s.Scale[j]*x.Val[k])
			}
		}
		return out
	}
	dense = dense[:dim]
	for j := range dense {
		dense[j] = 0
		if j < len(s.Shift) {
			dense[j] = s.Shift[j]
		}
	}
	for k, j := range x.Idx {
		if int(j) < len(s.Scale) {
			dense[j] = s.Scale[j]*x.Val[k] + s.Shift[j]
		}
	}
	for j, v := range dense {
		if v != 0 {
			out.Idx = append(out.Idx, int32(j))
			out.Val = append(out.Val, v)
		}
	}
	return out
}

// RowNormalizer is the thesis' normalisation of each example x (Natole's experiments,
// ch. 4–5): x ← (x − Mean)/‖x‖ for the large datasets, and x ← x/‖x‖ (Mean nil) for
// the small ones (diabetes, fourclass, german). ‖x‖ is the norm of the example as
// read, as the thesis writes it; a zero row stays zero. Mean is fitted on training rows.
// With Centred, the divisor is the centred row's norm instead: x ← (x − Mean)/‖x − Mean‖,
// unit-length rows (a row equal to the mean becomes zero).
type RowNormalizer struct {
	Mean    []float64
	Centred bool
}

// FitRowNormalizer fits the training mean when center is true.
func FitRowNormalizer(d *Dataset, center bool) *RowNormalizer {
	if !center {
		return &RowNormalizer{}
	}
	return &RowNormalizer{Mean: d.Mean()}
}

// Apply returns the normalised copy of d.
func (n *RowNormalizer) Apply(d *Dataset) *Dataset {
	return d.mapRows(n.normalizeRow)
}

// normalizeRow writes (x − Mean)/‖x‖ (x/‖x‖ without a mean) into out, reusing its
// storage, and returns it; a zero row stays zero. dense is scratch of length dim.
func (n *RowNormalizer) normalizeRow(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse {
	var norm float64
	for _, v := range x.Val {
		norm += v * v
	}
	norm = math.Sqrt(norm)
	out.Idx, out.Val = out.Idx[:0], out.Val[:0]
	if norm == 0 && !n.Centred {
		return out
	}
	if n.Mean == nil {
		for k, j := range x.Idx {
			out.Idx = append(out.Idx, j)
			out.Val = append(out.Val, x.Val[k]/norm)
		}
		return out
	}
	dense = dense[:dim]
	for j := range dense {
		dense[j] = 0
		if j < len(n.Mean) {
			dense[j] = -n.Mean[j]
		}
	}
	for k, j := range x.Idx {
		dense[j] += x.Val[k]
	}
	if n.Centred {
		norm = 0
		for _, v := range dense {
			norm += v * v
		}
		if norm == 0 {
			return out
		}
		norm = math.Sqrt(norm)
	}
	for j, v := range dense {
		if v != 0 {
			out.Idx = append(out.Idx, int32(j))
			out.Val = append(out.Val, v/norm)
		}
	}
	return out
}
