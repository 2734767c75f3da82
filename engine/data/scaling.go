package data

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// Feature scalings: the names --scale, results and model files use.
const (
	// ScaleAuto is ScaleMinMax for at most AutoScaleMaxDim features, else ScaleNone;
	// for an algorithm that assumes ‖x‖ ≤ 1, ScaleMinMaxUnit, else ScaleUnit
	// (ResolveScale).
	ScaleAuto   = "auto"
	ScaleNone   = "none"   // features as read
	ScaleMinMax = "minmax" // each feature's training range onto [−1, 1] (Scaler; the OPAUC protocol)
	ScaleNorm   = "norm"   // the thesis' (x − mean)/‖x‖ (RowNormalizer)
	ScaleUnit   = "unit"   // x/‖x‖: unit-length rows, sparsity kept (RowNormalizer without a mean)
	// ScaleMinMaxUnit is ScaleMinMax, then each row centred on the training rows' mean
	// and scaled to unit length, (x − mean)/‖x − mean‖: the rows of norm 1 that SOLAM
	// and FSAUC assume, in which no feature dominates by its units. ScaleNorm divides
	// by the norm of the row as read, which a feature of large values (australian's, up
	// to 10⁵) makes all of: SOLAM's default test AUC on australian is .658 after norm,
	// .931 after minmax-unit (unilog .928), and on svmguide3 .770 and .819 (.808).
	ScaleMinMaxUnit = "minmax-unit"
)

// AutoScaleMaxDim is the number of features up to which ScaleAuto scales each feature
// (or centres the rows); beyond it that would turn sparse rows dense.
const AutoScaleMaxDim = 1000

// Scaling is a feature scaling fitted on training data (FitScaling), applied as it is
// to every part of the data and stored with a model.
type Scaling struct {
	Kind   string         // ScaleNone, ScaleMinMax, ScaleNorm, ScaleUnit or ScaleMinMaxUnit
	MinMax *Scaler        // ScaleMinMax's per-feature map (ScaleMinMaxUnit's first step)
	Norm   *RowNormalizer // ScaleNorm's (with a mean) and ScaleUnit's (without); ScaleMinMaxUnit's second step (Centred), its mean that of the min-maxed rows
}

// ResolveScale returns the scaling that kind stands for on dim features: ScaleAuto
// (or "") resolved as its comment says, unitRows meaning that the algorithm assumes
// rows of norm at most 1; any other kind as it is. An unknown kind is an error.
func ResolveScale(kind string, dim int, unitRows bool) (string, error) {
	small := dim <= AutoScaleMaxDim
	switch {
	case kind != "" && kind != ScaleAuto:
		switch kind {
		case ScaleNone, ScaleMinMax, ScaleNorm, ScaleUnit, ScaleMinMaxUnit:
			return kind, nil
		}
		return "", fmt.Errorf("unknown scaling %q (want %s, %s, %s, %s, %s or %s)", kind, ScaleAuto, ScaleNone, ScaleMinMax, ScaleNorm, ScaleUnit, ScaleMinMaxUnit)
	case unitRows && small:
		return ScaleMinMaxUnit, nil
	case unitRows:
		return ScaleUnit, nil
	case small:
		return ScaleMinMax, nil
	}
	return ScaleNone, nil
}

// FitScaling fits the scaling kind (ResolveScale's argument) on d.
func FitScaling(kind string, d *Dataset, unitRows bool) (*Scaling, error) {
	kind, err := ResolveScale(kind, d.Dim, unitRows)
	if err != nil {
		return nil, err
	}
	s := &Scaling{Kind: kind}
	switch kind {
	case ScaleMinMax:
		if s.MinMax, err = FitMinMax(d, -1, 1); err != nil {
			return nil, err
		}
	case ScaleNorm, ScaleUnit:
		s.Norm = FitRowNormalizer(d, kind == ScaleNorm)
	case ScaleMinMaxUnit:
		if s.MinMax, err = FitMinMax(d, -1, 1); err != nil {
			return nil, err
		}
		// The min-maxed rows' mean is the map of the raw mean (the map is affine).
		s.Norm = FitRowNormalizer(d, true)
		s.Norm.Centred = true
		for j, m := range s.Norm.Mean {
			s.Norm.Mean[j] = s.MinMax.Scale[j]*m + s.MinMax.Shift[j]
		}
	}
	return s, nil
}

// Apply returns d transformed by the scaling: a copy, or d itself for ScaleNone.
func (s *Scaling) Apply(d *Dataset) *Dataset {
	switch {
	case s.MinMax != nil && s.Norm != nil:
		return s.applyMinMaxUnit(d)
	case s.MinMax != nil:
		return s.MinMax.Apply(d)
	case s.Norm != nil:
		return s.Norm.Apply(d)
	}
	return d
}

// applyMinMaxUnit applies ScaleMinMaxUnit row by row: the min-max map, then (x −
// Mean)/‖x − Mean‖, without a copy in between.
func (s *Scaling) applyMinMaxUnit(d *Dataset) *Dataset {
	var mm kernels.Sparse
	return d.mapRows(func(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse {
		mm = s.MinMax.ApplyRow(x, dim, dense, mm)
		return s.Norm.normalizeRow(mm, dim, dense, out)
	})
}

// ApplyInPlace is Apply writing a dense d's rows in place, and returns d: the values of
// Apply's copy, bit for bit, without holding the matrix twice. d must be the caller's
// alone (no one else reads its rows: a mapped cache's pages are copied on write, and the
// file is left as it was). A sparse d, whose rows may gain stored values, gets Apply's
// copy.
func (s *Scaling) ApplyInPlace(d *Dataset) *Dataset {
	f := s.rowMap()
	if d.Dense == nil {
		return s.Apply(d)
	}
	if f == nil {
		return d
	}
	dense := make([]float64, d.Dim)
	var buf kernels.Sparse
	for i := range d.Rows() {
		buf = f(d.Row(i), d.Dim, dense, buf) // reads the row before it is written
		row := d.DenseRow(i)
		clear(row)
		for k, j := range buf.Idx {
			row[j] = buf.Val[k]
		}
	}
	return d
}

// AppliedStats is what solver.FactsOf and a learner's choice of method see in the
// mapped copy s.Apply(d).Subset(order) (order nil: all of d's rows), without making
// it: sqSum, Σᵢ ‖s(xᵢ)‖² summed as FactsOf sums the copy's values (bit for bit), and
// nnz, the values the copy would store.
func (s *Scaler) AppliedStats(d *Dataset, order []int) (sqSum float64, nnz int64) {
	shifted := false
	for j := range min(d.Dim, len(s.Shift)) {
		if s.Shift[j] != 0 {
			shifted = true
			break
		}
	}
	n := d.Rows()
	if order != nil {
		n = len(order)
	}
	dense := make([]float64, d.Dim)
	for r := range n {
		i := r
		if order != nil {
			i = order[r]
		}
		x := d.Row(i)
		if !shifted { // ApplyRow keeps the stored values of the features with a scale
			for k, j := range x.Idx {
				if int(j) < len(s.Scale) && s.Scale[j] != 0 {
					v := s.Scale[j] * x.Val[k]
					sqSum += v * v
					nnz++
				}
			}
			continue
		}
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
		for _, v := range dense { // the zeros ApplyRow drops add nothing to the sum
			sqSum += v * v
			if v != 0 {
				nnz++
			}
		}
	}
	if d.Dense != nil { // the copy is dense: every value stored
		nnz = int64(n) * int64(d.Dim)
	}
	return sqSum, nnz
}

// SqNormStats is AppliedStats without a scaling: the squared norms of d's rows order
// (nil: all), summed as solver.FactsOf sums d.Subset(order)'s stored values, and the
// values that copy stores.
func SqNormStats(d *Dataset, order []int) (sqSum float64, nnz int64) {
	n := d.Rows()
	if order != nil {
		n = len(order)
	}
	for r := range n {
		i := r
		if order != nil {
			i = order[r]
		}
		x := d.Row(i)
		for _, v := range x.Val {
			sqSum += v * v
		}
		nnz += int64(len(x.Val))
	}
	return sqSum, nnz
}

// rowMap is the scaling of one row (x of dimension dim into out, reusing its storage;
// dense is scratch of length dim), as Apply maps each row; nil for ScaleNone.
func (s *Scaling) rowMap() func(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse {
	switch {
	case s.MinMax != nil && s.Norm != nil:
		var mm kernels.Sparse
		return func(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse {
			mm = s.MinMax.ApplyRow(x, dim, dense, mm)
			return s.Norm.normalizeRow(mm, dim, dense, out)
		}
	case s.MinMax != nil:
		return s.MinMax.ApplyRow
	case s.Norm != nil:
		return s.Norm.normalizeRow
	}
	return nil
}

// RowMapper returns the scaling of one row as Apply maps each row of a dataset: x of
// dimension dim written into out (reusing its storage) and returned, dense scratch of
// length dim; for ScaleNone, x itself. The function keeps state between calls: one
// per goroutine.
func (s *Scaling) RowMapper() func(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse {
	if f := s.rowMap(); f != nil {
		return f
	}
	return func(x kernels.Sparse, _ int, _ []float64, _ kernels.Sparse) kernels.Sparse { return x }
}
