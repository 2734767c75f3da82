package data

import "fmt"

// Feature scalings: the names --scale, results and model files use.
const (
	// ScaleAuto is ScaleMinMax for at most AutoScaleMaxDim features, else ScaleNone;
	// for an algorithm that assumes ‖x‖ ≤ 1, ScaleNorm, else ScaleUnit (ResolveScale).
	ScaleAuto   = "auto"
	ScaleNone   = "none"   // features as read
	ScaleMinMax = "minmax" // each feature's training range onto [−1, 1] (Scaler; the OPAUC protocol)
	ScaleNorm   = "norm"   // the thesis' (x − mean)/‖x‖ (RowNormalizer)
	ScaleUnit   = "unit"   // x/‖x‖: unit-length rows, sparsity kept (RowNormalizer without a mean)
)

// AutoScaleMaxDim is the number of features up to which ScaleAuto scales each feature
// (or centres the rows); beyond it that would turn sparse rows dense.
const AutoScaleMaxDim = 1000

// Scaling is a feature scaling fitted on training data (FitScaling), applied as it is
// to every part of the data and stored with a model.
type Scaling struct {
	Kind   string         // ScaleNone, ScaleMinMax, ScaleNorm or ScaleUnit
	MinMax *Scaler        // ScaleMinMax's per-feature map
	Norm   *RowNormalizer // ScaleNorm's (with a mean) and ScaleUnit's (without)
}

// ResolveScale returns the scaling that kind stands for on dim features: ScaleAuto
// (or "") resolved as its comment says, unitRows meaning that the algorithm assumes
// rows of norm at most 1; any other kind as it is. An unknown kind is an error.
func ResolveScale(kind string, dim int, unitRows bool) (string, error) {
	small := dim <= AutoScaleMaxDim
	switch {
	case kind != "" && kind != ScaleAuto:
		switch kind {
		case ScaleNone, ScaleMinMax, ScaleNorm, ScaleUnit:
			return kind, nil
		}
		return "", fmt.Errorf("unknown scaling %q (want %s, %s, %s, %s or %s)", kind, ScaleAuto, ScaleNone, ScaleMinMax, ScaleNorm, ScaleUnit)
	case unitRows && small:
		return ScaleNorm, nil
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
	}
	return s, nil
}

// Apply returns d transformed by the scaling: a copy, or d itself for ScaleNone.
func (s *Scaling) Apply(d *Dataset) *Dataset {
	switch {
	case s.MinMax != nil:
		return s.MinMax.Apply(d)
	case s.Norm != nil:
		return s.Norm.Apply(d)
	}
	return d
}
