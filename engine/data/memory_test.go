package data

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// memoryText is the rows the in-memory tests build, as a LIBSVM file: 4 rows of 3
// features, {1, 0} labels, a zero stored nowhere.
const memoryText = "1 1:0.5 3:-2\n0 2:1.25\n1 1:3 2:4 3:5\n0 3:0.125\n"

// memoryRows is memoryText as NumPy would hold it: dense row-major, dense column-major,
// CSR parts.
var (
	memoryDense = []float64{0.5, 0, -2, 0, 1.25, 0, 3, 4, 5, 0, 0, 0.125}
	memoryFort  = []float64{0.5, 0, 3, 0, 0, 1.25, 4, 0, -2, 0, 5, 0.125}
	memoryPtr   = []int64{0, 2, 3, 6, 7}
	memoryIdx   = []int32{0, 2, 1, 0, 1, 2, 2}
	memoryVal   = []float64{0.5, -2, 1.25, 3, 4, 5, 0.125}
	memoryY     = []float64{1, 0, 1, 0}
)

// fileTwin reads memoryText from a file named name, in layout l.
func fileTwin(t *testing.T, l Layout) *Dataset {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.svm")
	if err := os.WriteFile(path, []byte(memoryText), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d = d.WithLayout(l)
	d.Name = MemoryName
	return d
}

func narrow[T int32 | int64, F int32 | int64](s []F) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = T(v)
	}
	return out
}

// TestMemoryLikeFile: every in-memory layout of the same rows is the dataset a file
// of them reads into (labels mapped by the same rules), and the arrays the layout can
// keep are kept, not copied.
func TestMemoryLikeFile(t *testing.T) {
	same := func(a, b []float64) bool { return len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b) }
	dense, sparse := fileTwin(t, LayoutDense), fileTwin(t, LayoutSparse)
	cases := []struct {
		name              string
		make              func() (*Dataset, error)
		want              *Dataset
		keepsX, keepsVals bool
	}{
		{"row-major", func() (*Dataset, error) { return NewDenseRows("", 4, 3, memoryDense, false, memoryY, "") }, dense, true, false},
		{"column-major", func() (*Dataset, error) { return NewDenseRows("", 4, 3, memoryFort, true, memoryY, "") }, dense, false, false},
		{"csr int64/int32", func() (*Dataset, error) {
			return NewCSR("", 3, memoryPtr, memoryIdx, memoryVal, memoryY, "")
		}, sparse, false, true},
		{"csr int32/int32", func() (*Dataset, error) {
			return NewCSR("", 3, narrow[int32](memoryPtr), memoryIdx, memoryVal, memoryY, "")
		}, sparse, false, true},
		{"csr int64/int64", func() (*Dataset, error) {
			return NewCSR("", 3, memoryPtr, narrow[int64](memoryIdx), memoryVal, memoryY, "")
		}, sparse, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := c.make()
			if err != nil {
				t.Fatal(err)
			}
			identical(t, c.name, d, c.want)
			if !same(d.Labels, memoryY) {
				t.Error("the labels were copied")
			}
			if c.keepsX != same(d.Dense, memoryDense) {
				t.Errorf("dense values kept: %v, want %v", same(d.Dense, memoryDense), c.keepsX)
			}
			if c.keepsVals != same(d.Val, memoryVal) {
				t.Errorf("CSR values kept: %v, want %v", same(d.Val, memoryVal), c.keepsVals)
			}
		})
	}
	// The int64 row pointers and int32 indices SciPy holds for 2³¹ values or more are kept.
	d, err := NewCSR("", 3, memoryPtr, memoryIdx, memoryVal, memoryY, "")
	if err != nil {
		t.Fatal(err)
	}
	if unsafe.SliceData(d.Ptr) != unsafe.SliceData(memoryPtr) || unsafe.SliceData(d.Idx) != unsafe.SliceData(memoryIdx) {
		t.Error("int64 row pointers or int32 indices were copied")
	}
}

// TestMemoryLabels: the labels follow the files' rules (and errors), with positive as
// Options.Positive.
func TestMemoryLabels(t *testing.T) {
	cases := []struct {
		labels   []float64
		positive string
		want     []int8
		err      error
	}{
		{[]float64{1, -1, -1}, "", []int8{1, -1, -1}, nil},
		{[]float64{2, 1, 2}, "", []int8{-1, 1, -1}, nil},
		{[]float64{0, 1, 0}, "", []int8{-1, 1, -1}, nil},
		{[]float64{1, 0, 2}, "", nil, ErrLabel},
		{[]float64{3, 4, 3}, "", nil, ErrLabel},
		{[]float64{3, 4, 5}, "4", []int8{-1, 1, -1}, nil},
		{[]float64{1, math.NaN(), 1}, "", nil, ErrLabel},
	}
	for _, c := range cases {
		x := make([]float64, len(c.labels))
		d, err := NewDenseRows("", len(c.labels), 1, x, false, c.labels, c.positive)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("labels %v: error %v, want %v", c.labels, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("labels %v: %v", c.labels, err)
			continue
		}
		if !slices.Equal(d.Y, c.want) {
			t.Errorf("labels %v (positive %q): Y %v, want %v", c.labels, c.positive, d.Y, c.want)
		}
	}
}

// TestMemoryErrors: bad shapes and values are refused with an error naming the row
// and feature, as a file's line and column.
func TestMemoryErrors(t *testing.T) {
	lab := []float64{1, 0}
	cases := []struct {
		name string
		make func() (*Dataset, error)
		err  error
		says string
	}{
		{"no rows", func() (*Dataset, error) { return NewDenseRows("", 0, 2, nil, false, nil, "") }, ErrEmpty, "no examples"},
		{"short values", func() (*Dataset, error) { return NewDenseRows("", 2, 2, []float64{1, 2, 3}, false, lab, "") }, nil, "3 values for 2 rows of 2"},
		{"labels", func() (*Dataset, error) { return NewDenseRows("", 2, 1, []float64{1, 2}, false, []float64{1}, "") }, nil, "1 labels for 2 rows"},
		{"NaN row-major", func() (*Dataset, error) {
			return NewDenseRows("x", 2, 2, []float64{1, 2, 3, math.NaN()}, false, lab, "")
		}, ErrValue, "x: row 2, feature 2"},
		{"Inf column-major", func() (*Dataset, error) {
			return NewDenseRows("", 2, 2, []float64{1, math.Inf(1), 3, 4}, true, lab, "")
		}, ErrValue, "row 2, feature 1"},
		{"index range", func() (*Dataset, error) {
			return NewCSR("", 2, []int32{0, 1, 2}, []int32{0, 2}, []float64{1, 1}, lab, "")
		}, ErrIndex, "row 2: bad feature index: 2 is outside [0, 2)"},
		{"index order", func() (*Dataset, error) {
			return NewCSR("", 3, []int32{0, 2, 2}, []int32{2, 1}, []float64{1, 1}, lab, "")
		}, ErrOrder, "row 1"},
		{"duplicate", func() (*Dataset, error) {
			return NewCSR("", 3, []int32{0, 2, 2}, []int32{1, 1}, []float64{1, 1}, lab, "")
		}, ErrOrder, "sum_duplicates"},
		{"pointers", func() (*Dataset, error) {
			return NewCSR("", 3, []int64{0, 1, 2}, []int32{0}, []float64{1}, lab, "")
		}, nil, "want 0 to 1"},
		{"pointers order", func() (*Dataset, error) {
			return NewCSR("", 3, []int64{0, 2, 1, 1}, []int32{0}, []float64{1}, []float64{1, 0, 1}, "")
		}, nil, "row 1: row pointers 0, 2"},
		{"CSR NaN", func() (*Dataset, error) {
			return NewCSR("", 3, []int64{0, 1, 1}, []int32{2}, []float64{math.NaN()}, lab, "")
		}, ErrValue, "row 1, feature 3"},
		{"lengths", func() (*Dataset, error) { return NewCSR("", 3, []int64{0, 1, 1}, []int32{2}, nil, lab, "") }, nil, "1 indices but 0 values"},
	}
	for _, c := range cases {
		d, err := c.make()
		if err == nil {
			t.Errorf("%s: no error, a dataset of %d rows", c.name, d.Rows())
			continue
		}
		if c.err != nil && !errors.Is(err, c.err) {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
		if !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %q does not say %q", c.name, err, c.says)
		}
	}
}

// TestMemoryUnlabelled: rows to score need no labels: Y and Labels are zero.
func TestMemoryUnlabelled(t *testing.T) {
	d, err := NewDenseRows("", 4, 3, memoryDense, false, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewCSR("", 3, memoryPtr, memoryIdx, memoryVal, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []*Dataset{d, s} {
		if d.Rows() != 4 || !slices.Equal(d.Y, make([]int8, 4)) || !slices.Equal(d.Labels, make([]float64, 4)) {
			t.Errorf("unlabelled: %d rows, Y %v, labels %v", d.Rows(), d.Y, d.Labels)
		}
	}
}
