package model

import (
	"reflect"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// TestScalingRecord: a fitted data.Scaling recorded in a model file (ScalingOf) comes
// back (Data) as the same transformation; unit is recorded as norm without a mean.
func TestScalingRecord(t *testing.T) {
	mm := &data.Scaler{Scale: []float64{2, 3}, Shift: []float64{-1, 0}}
	for _, tc := range []struct {
		in   *data.Scaling
		kind string // recorded
	}{
		{&data.Scaling{Kind: data.ScaleNone}, data.ScaleNone},
		{&data.Scaling{Kind: data.ScaleMinMax, MinMax: mm}, data.ScaleMinMax},
		{&data.Scaling{Kind: data.ScaleNorm, Norm: &data.RowNormalizer{Mean: []float64{1, 2}}}, data.ScaleNorm},
		{&data.Scaling{Kind: data.ScaleUnit, Norm: &data.RowNormalizer{}}, data.ScaleNorm},
	} {
		rec := ScalingOf(tc.in.Kind, tc.in)
		if rec.Kind != tc.kind {
			t.Errorf("%s recorded as %q, want %q", tc.in.Kind, rec.Kind, tc.kind)
		}
		if back := rec.Data(); !reflect.DeepEqual(back, tc.in) {
			t.Errorf("%s: back %+v, want %+v", tc.in.Kind, back, tc.in)
		}
	}
}
