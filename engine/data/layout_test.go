package data

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

func TestLayouts(t *testing.T) {
	t.Setenv(EnvData, t.TempDir())
	sp, err := Load("german", LoadOptions{Layout: LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	sparse := sp.Train
	if sparse.IsDense() {
		t.Fatal("LayoutSparse gave a dense dataset")
	}
	dense := sparse.ToDense()
	if !dense.IsDense() || dense.Nnz() != 1000*24 {
		t.Fatalf("ToDense: dense %t, %d values", dense.IsDense(), dense.Nnz())
	}
	// german is dense enough for LayoutAuto.
	auto, _ := Load("german", LoadOptions{})
	if !auto.Train.IsDense() || sparse.Density() < DenseAuto {
		t.Errorf("german (density %.2f) loaded with LayoutAuto is not dense", sparse.Density())
	}
	// Row i holds the same values in both layouts.
	for i := range sparse.Rows() {
		s, d := sparse.Row(i), dense.Row(i)
		full := make([]float64, 24)
		for k, j := range s.Idx {
			full[j] = s.Val[k]
		}
		if !slices.Equal(full, d.Val) || len(d.Idx) != 24 || !slices.Equal(full, dense.DenseRow(i)) {
			t.Fatalf("row %d differs between layouts", i)
		}
	}
	back := dense.ToSparse()
	if !slices.Equal(back.Idx, sparse.Idx) || !slices.Equal(back.Val, sparse.Val) || !slices.Equal(back.Ptr, sparse.Ptr) {
		t.Error("ToSparse(ToDense(d)) differs from d")
	}
	// Subset, scaling and caching keep the layout and agree with the sparse path.
	sub := dense.Subset([]int{5, 1, 5})
	if !sub.IsDense() || !slices.Equal(sub.DenseRow(0), dense.DenseRow(5)) || !slices.Equal(sub.DenseRow(1), dense.DenseRow(1)) {
		t.Error("Subset of a dense dataset")
	}
	sc, _ := FitMinMax(sparse, -1, 1)
	sd, _ := FitMinMax(dense, -1, 1)
	if !slices.Equal(sc.Scale, sd.Scale) || !slices.Equal(sc.Shift, sd.Shift) {
		t.Error("min-max fit differs between layouts")
	}
	if a, b := sc.Apply(sparse).ToDense().Dense, sd.Apply(dense).Dense; !slices.Equal(a, b) {
		t.Error("scaled data differs between layouts")
	}
	p := filepath.Join(t.TempDir(), "g.cache")
	if err := SaveCache(p, dense); err != nil {
		t.Fatal(err)
	}
	got, err := ReadCache(p)
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsDense() || !slices.Equal(got.Dense, dense.Dense) || !slices.Equal(got.Y, dense.Y) || got.Row(3).Idx[23] != 23 {
		t.Error("dense cache round trip")
	}
}

func TestTruncate(t *testing.T) {
	d, err := readString(t, "+1 1:1 5:2 9:3\n-1 9:4\n+1 2:5\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := d.Truncate(5)
	if tr.Dim != 5 || !slices.Equal(tr.Row(0).Idx, []int32{0, 4}) || len(tr.Row(1).Idx) != 0 || tr.Row(2).Val[0] != 5 {
		t.Errorf("Truncate(5) = dim %d rows %v %v %v", tr.Dim, tr.Row(0), tr.Row(1), tr.Row(2))
	}
	if dd := d.ToDense().Truncate(2); !dd.IsDense() || !slices.Equal(dd.DenseRow(0), []float64{1, 0}) {
		t.Errorf("dense Truncate(2) = %v", dd.Dense)
	}
}

// TestCSRBuilder: the builder gives the dataset Append gives, across chunk boundaries,
// with exact, loose and violated reserved bounds.
func TestCSRBuilder(t *testing.T) {
	const rows = 9000 // about 27,000 values: several chunks
	row := func(i int) (int8, float64, kernels.Sparse) {
		n := i % 6
		x := kernels.Sparse{Idx: make([]int32, n), Val: make([]float64, n)}
		for k := range n {
			x.Idx[k], x.Val[k] = int32(k*7+i%5), float64(i)+float64(k)/8
		}
		return int8(1 - 2*(i%2)), float64(i % 2), x
	}
	want := &Dataset{Name: "t", Ptr: []int64{0}}
	var nnz int64
	for i := range rows {
		y, l, x := row(i)
		want.Append(y, l, x)
		nnz += int64(len(x.Idx))
	}
	for _, tc := range []struct {
		name string
		rows int
		nnz  int64
	}{{"no bounds", 0, 0}, {"exact bounds", rows, nnz}, {"loose bounds", 2 * rows, 3 * nnz}, {"violated bounds", rows, nnz / 3}} {
		t.Run(tc.name, func(t *testing.T) {
			var b csrBuilder
			b.reserve(tc.rows, tc.nnz)
			for i := range rows {
				b.add(row(i))
			}
			got := b.dataset("t")
			if got.Dim != want.Dim || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.Labels, want.Labels) ||
				!slices.Equal(got.Ptr, want.Ptr) || !slices.Equal(got.Idx, want.Idx) || !slices.Equal(got.Val, want.Val) {
				t.Errorf("dataset differs from Append's: dim %d/%d, %d/%d values", got.Dim, want.Dim, len(got.Val), len(want.Val))
			}
		})
	}
	if d := new(csrBuilder).dataset("empty"); d.Rows() != 0 || !slices.Equal(d.Ptr, []int64{0}) {
		t.Errorf("empty builder: %d rows, ptr %v", d.Rows(), d.Ptr)
	}
}
