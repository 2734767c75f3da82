package data

import (
	"math"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

func TestResolveScale(t *testing.T) {
	for _, tc := range []struct {
		kind     string
		dim      int
		unitRows bool
		want     string // "" for an error
	}{
		{ScaleAuto, 10, false, ScaleMinMax},
		{"", AutoScaleMaxDim, false, ScaleMinMax},
		{ScaleAuto, AutoScaleMaxDim + 1, false, ScaleNone},
		{ScaleAuto, 10, true, ScaleMinMaxUnit},
		{ScaleMinMaxUnit, 1e6, false, ScaleMinMaxUnit},
		{ScaleAuto, AutoScaleMaxDim + 1, true, ScaleUnit},
		{ScaleMinMax, 1e6, true, ScaleMinMax},
		{ScaleUnit, 10, false, ScaleUnit},
		{"thesis", 10, false, ""},
	} {
		got, err := ResolveScale(tc.kind, tc.dim, tc.unitRows)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("ResolveScale(%q, %d, %v) = %q, %v; want %q", tc.kind, tc.dim, tc.unitRows, got, err, tc.want)
		}
	}
}

// TestFitScaling: each kind applies the transformation it names, fitted on the data.
func TestFitScaling(t *testing.T) {
	d := &Dataset{Dim: 2}
	for i, r := range [][]float64{{1, 0}, {3, 4}, {0, 2}} {
		d.Append([]int8{1, -1, 1}[i], float64(i), kernels.Sparse{Idx: []int32{0, 1}, Val: r})
	}
	mm, err := FitMinMax(d, -1, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind string
		want *Dataset
	}{
		{ScaleNone, d},
		{ScaleMinMax, mm.Apply(d)},
		{ScaleNorm, FitRowNormalizer(d, true).Apply(d)},
		{ScaleUnit, FitRowNormalizer(d, false).Apply(d)},
		// min-max, then centred on the min-maxed rows' mean, unit rows
		{ScaleMinMaxUnit, (&RowNormalizer{Mean: FitRowNormalizer(mm.Apply(d), true).Mean, Centred: true}).Apply(mm.Apply(d))},
	} {
		s, err := FitScaling(tc.kind, d, false)
		if err != nil {
			t.Fatal(err)
		}
		got := s.Apply(d)
		if s.Kind != tc.kind || got.Rows() != tc.want.Rows() {
			t.Fatalf("%s: kind %q, %d rows", tc.kind, s.Kind, got.Rows())
		}
		for i := range got.Rows() {
			g, w := got.Row(i), tc.want.Row(i)
			if !slices.Equal(g.Idx, w.Idx) || !slices.EqualFunc(g.Val, w.Val, func(a, b float64) bool { return math.Abs(a-b) <= 1e-15 }) {
				t.Errorf("%s: row %d = %v want %v", tc.kind, i, got.Row(i).Val, tc.want.Row(i).Val)
			}
		}
	}
}
