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
