package data

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// weightedSet is a small sparse dataset of 4 rows with weights 1…4.
func weightedSet(t *testing.T) *Dataset {
	t.Helper()
	d := &Dataset{Name: "w", Dim: 3, Ptr: []int64{0}}
	for i, y := range []int8{1, -1, 1, -1} {
		d.Append(y, float64(y), kernels.Sparse{Idx: []int32{int32(i % 3)}, Val: []float64{float64(i + 1)}})
	}
	if err := d.SetWeights([]float64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestSetWeights(t *testing.T) {
	for _, tc := range []struct {
		name string
		w    []float64
		want string // "" for no error
	}{
		{"ok", []float64{1, 0, 2.5, 1e-3}, ""},
		{"zero allowed", []float64{0, 0, 1, 1}, ""},
		{"negative", []float64{1, -1, 1, 1}, "row 2"},
		{"NaN", []float64{1, 1, math.NaN(), 1}, "row 3"},
		{"Inf", []float64{math.Inf(1), 1, 1, 1}, "row 1"},
		{"count", []float64{1, 1, 1}, "3 weights for 4 rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := weightedSet(t)
			err := d.SetWeights(tc.w)
			if tc.want == "" {
				if err != nil || !slices.Equal(d.W, tc.w) {
					t.Fatalf("SetWeights = %v, W %v", err, d.W)
				}
				return
			}
			if !errors.Is(err, ErrWeight) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("SetWeights(%v) = %v, want ErrWeight naming %q", tc.w, err, tc.want)
			}
		})
	}
}

// TestWeightsFollowRows checks that every transform that copies rows carries each
// row's weight with it.
func TestWeightsFollowRows(t *testing.T) {
	d := weightedSet(t)
	// Each row's first value is its weight (row i holds i+1), so a row's weight can be
	// checked against its content after any reordering.
	check := func(name string, out *Dataset) {
		t.Helper()
		if len(out.W) != out.Rows() {
			t.Fatalf("%s: %d weights for %d rows", name, len(out.W), out.Rows())
		}
		for i := range out.Rows() {
			r := out.Row(i)
			var v float64
			for k := range r.Idx {
				if r.Val[k] != 0 {
					v = r.Val[k]
				}
			}
			if out.W[i] != v {
				t.Errorf("%s: row %d holds %g but weighs %g", name, i, v, out.W[i])
			}
		}
	}
	if pos, neg := d.WeightSums(); pos != 4 || neg != 6 {
		t.Errorf("WeightSums = %g, %g, want 4, 6", pos, neg)
	}
	perm := []int{2, 0, 3, 1}
	check("Subset", d.Subset([]int{3, 1, 1}))
	check("ToDense", d.ToDense())
	check("ToDense.ToSparse", d.ToDense().ToSparse())
	check("Truncate", d.Truncate(3))
	check("Permuted sparse", d.Permuted(perm))
	dense := d.ToDense()
	check("Permuted dense", dense.Permuted(perm))
	s, err := FitMinMax(d, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	sc := s.Apply(d)
	if !slices.Equal(sc.W, d.W) {
		t.Errorf("scaled weights %v, want %v", sc.W, d.W)
	}
}

func TestPermutedDenseDoesNotWriteCallersWeights(t *testing.T) {
	d := weightedSet(t).ToDense()
	w := d.W
	orig := slices.Clone(w)
	d.Permuted([]int{3, 2, 1, 0})
	if !slices.Equal(w, orig) {
		t.Fatalf("the caller's weights changed: %v, were %v", w, orig)
	}
	if !slices.Equal(d.W, []float64{4, 3, 2, 1}) {
		t.Fatalf("permuted weights %v", d.W)
	}
}

func TestUnitWeights(t *testing.T) {
	d := weightedSet(t)
	if d.UnitWeights() {
		t.Error("weights 1…4 reported as unit")
	}
	if err := d.SetWeights([]float64{1, 1, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if !d.UnitWeights() {
		t.Error("all-ones weights not reported as unit")
	}
	d.W = nil
	if !d.UnitWeights() || d.Weight(2) != 1 {
		t.Error("no weights: not unit, or a row not weighing 1")
	}
}

func TestReadWeights(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		rows       int
		want       []float64
		err        string
	}{
		{"ok", "1\n2.5\r\n0\n", 3, []float64{1, 2.5, 0}, ""},
		{"no final newline", "1\n2", 2, []float64{1, 2}, ""},
		{"negative", "1\n-2\n", 2, nil, "w.txt:2: bad sample weight: -2"},
		{"nan", "nan\n1\n", 2, nil, "w.txt:1:"},
		{"word", "1\nx\n", 2, nil, `w.txt:2: bad sample weight: not a number (token "x")`},
		{"blank", "1\n\n1\n", 3, nil, "w.txt:2: bad sample weight: empty line"},
		{"too few", "1\n", 2, nil, "1 weights for 2 training rows"},
		{"too many", "1\n1\n1\n", 2, nil, "3 weights for 2 training rows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "w.txt")
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			w, err := ReadWeights(path, tc.rows)
			if tc.err == "" {
				if err != nil || !slices.Equal(w, tc.want) {
					t.Fatalf("ReadWeights = %v, %v; want %v", w, err, tc.want)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrWeight) || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("ReadWeights = %v, want ErrWeight containing %q", err, tc.err)
			}
		})
	}
	if _, err := ReadWeights(filepath.Join(t.TempDir(), "none"), 1); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestWeightColumn: a table's weight column becomes the Dataset's W (CSV and Parquet
// alike), is no feature, is recorded in the schema and ignored by a model's reading;
// bad weights are ParseErrors naming the line and column.
func TestWeightColumn(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(csvPath, []byte("label,a,w,b\n1,0.5,2,x\n0,1.5,0,y\n1,2.5,1.5,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	type row struct {
		Label int64   `parquet:"label"`
		A     float64 `parquet:"a"`
		W     float64 `parquet:"w"`
		B     string  `parquet:"b"`
	}
	pqPath := filepath.Join(dir, "t.parquet")
	writeParquet(t, pqPath, []row{{1, 0.5, 2, "x"}, {0, 1.5, 0, "y"}, {1, 2.5, 1.5, "x"}})
	for _, p := range []string{csvPath, pqPath} {
		d, sch, err := ReadTableFile(p, Options{Table: &TableOptions{Weight: "w", HashBits: 4}})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !slices.Equal(d.W, []float64{2, 0, 1.5}) || sch.Weight != "w" || !slices.Contains(sch.Ignored, "w") || slices.Contains(sch.Numeric, "w") {
			t.Errorf("%s: W %v, schema %+v", p, d.W, sch)
		}
		// A model's schema reads the file with the column, ignoring it, and without.
		m, _, err := ReadTableFile(p, Options{Table: &TableOptions{Schema: sch}})
		if err != nil || m.W != nil || m.Dim != d.Dim {
			t.Errorf("%s read with the model's schema: W %v, dim %d (want %d), %v", p, m.W, m.Dim, d.Dim, err)
		}
	}
	noW := filepath.Join(dir, "now.csv")
	if err := os.WriteFile(noW, []byte("label,a,b\n1,0.5,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, sch, err := ReadTableFile(csvPath, Options{Table: &TableOptions{Weight: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadTableFile(noW, Options{Table: &TableOptions{Schema: sch}}); err != nil {
		t.Errorf("a file without the weight column, read with the model's schema: %v", err)
	}
	for _, tc := range []struct {
		name, text string
		opt        TableOptions
		want       string
	}{
		{"negative", "label,a,w\n1,1,2\n0,2,-1\n", TableOptions{Weight: "w"}, "t2.csv:3:3: column \"w\": bad sample weight: -1"},
		{"nan", "label,a,w\n1,1,1\n0,2,nan\n", TableOptions{Weight: "w"}, "t2.csv:3:3: column \"w\": bad sample weight"},
		{"text", "label,a,w\n1,1,heavy\n0,2,1\n", TableOptions{Weight: "w"}, `t2.csv:2:3: column "w": bad sample weight: not a number (token "heavy")`},
		{"empty", "label,a,w\n1,1,1\n0,2,\n", TableOptions{Weight: "w"}, "the weight is empty"},
		{"empty, missing zero", "label,a,w\n1,1,1\n0,2,\n", TableOptions{Weight: "w", Missing: MissingZero}, "the weight is empty"},
		{"no column", "label,a\n1,1\n0,2\n", TableOptions{Weight: "w"}, "no weight column \"w\""},
		{"label", "label,a\n1,1\n0,2\n", TableOptions{Weight: "label"}, "the label column"},
		{"feature", "label,a,w\n1,1,1\n0,2,1\n", TableOptions{Weight: "w", Columns: []string{"a", "w"}}, "cannot also be a feature"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "t2.csv")
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := ReadTableFile(p, Options{Table: &tc.opt})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one containing %q", err, tc.want)
			}
		})
	}
	// With --missing skip a row without its weight is left out, as any incomplete row.
	p := filepath.Join(dir, "skip.csv")
	if err := os.WriteFile(p, []byte("label,a,w\n1,1,3\n0,2,\n0,3,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _, err := ReadTableFile(p, Options{Table: &TableOptions{Weight: "w", Missing: MissingSkip}})
	if err != nil || !slices.Equal(d.W, []float64{3, 1}) {
		t.Errorf("skip: W %v, %v", d.W, err)
	}
}
