package model

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// sample returns a valid model of dim features with the given scaling and weights.
func sample(kind string, w []float64) *Model {
	dim := len(w)
	m := &Model{Version: "test", Algo: "opauc", Params: map[string]any{"eta": 0.5, "lambda": 1e-3}, Features: dim,
		Scaling: Scaling{Kind: kind}, Backend: "generic", TrainData: "train.svm", TrainRows: 10,
		TrainSHA256: strings.Repeat("ab", 32), Seed: 7, TestAUC: math.NaN(), Weights: w}
	switch kind {
	case data.ScaleMinMax:
		m.Scaling.Scale, m.Scaling.Shift = make([]float64, dim), make([]float64, dim)
		for j := range dim {
			m.Scaling.Scale[j], m.Scaling.Shift[j] = 1/float64(j+1), -0.1*float64(j)
		}
	case data.ScaleNorm:
		m.Scaling.Mean = make([]float64, dim)
		for j := range dim {
			m.Scaling.Mean[j] = 1 / 3.0 * float64(j)
		}
	case data.ScaleMinMaxUnit:
		mm, norm := sample(data.ScaleMinMax, w), sample(data.ScaleNorm, w)
		m.Scaling.Scale, m.Scaling.Shift, m.Scaling.Mean = mm.Scaling.Scale, mm.Scaling.Shift, norm.Scaling.Mean
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	dense := []float64{0.1, -2.5e-17, 1.0 / 3, math.Pi, -7, 1e300, 5e-324, 0.2}
	sparseW := []float64{0, 0, 1.0 / 7, 0, 0, -3, 0, 0, 0, 0}
	tests := []struct {
		name       string
		m          *Model
		wantSparse bool
	}{
		{"dense none", sample(data.ScaleNone, dense), false},
		{"dense minmax", sample(data.ScaleMinMax, dense), false},
		{"dense norm centred", sample(data.ScaleNorm, dense), false},
		{"sparse none", sample(data.ScaleNone, sparseW), true},
		{"sparse minmax", sample(data.ScaleMinMax, sparseW), true},
		{"dense minmax-unit", sample(data.ScaleMinMaxUnit, dense), false},
		{"sparse norm uncentred", func() *Model { m := sample(data.ScaleNorm, sparseW); m.Scaling.Mean = nil; return m }(), true},
		{"half non-zero stays dense", sample(data.ScaleNone, []float64{1, 0, 2, 0}), false},
		{"all zero", sample(data.ScaleNone, make([]float64, 5)), true},
		{"no features", sample(data.ScaleNone, []float64{}), false},
		{"with test AUC", func() *Model { m := sample(data.ScaleNone, dense); m.TestAUC, m.TestRows = 0.875, 8; return m }(), false},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
			if err := tt.m.Write(path); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			if got := bytes.Contains(b, []byte(`"index"`)); got != tt.wantSparse {
				t.Errorf("sparse form = %v, want %v:\n%s", got, tt.wantSparse, b)
			}
			got, err := Read(path)
			if err != nil {
				t.Fatalf("Read: %v\n%s", err, b)
			}
			if math.IsNaN(tt.m.TestAUC) != math.IsNaN(got.TestAUC) || (!math.IsNaN(got.TestAUC) && got.TestAUC != tt.m.TestAUC) {
				t.Errorf("test AUC %v, want %v", got.TestAUC, tt.m.TestAUC)
			}
			// Same model, same bytes: nothing depends on the time of writing.
			again := filepath.Join(dir, "again.json")
			if err := got.Write(again); err != nil {
				t.Fatal(err)
			}
			if b2, _ := os.ReadFile(again); !bytes.Equal(b, b2) {
				t.Errorf("rewriting the read model changed the file:\n%s\n%s", b, b2)
			}
			want := *tt.m
			want.TestAUC, got.TestAUC = 0, 0
			if want.Checksum, err = tt.m.Sum(); err != nil || !bytes.Contains(b, []byte(`"checksum": "`+want.Checksum+`"`)) {
				t.Errorf("the file does not end with the checksum %s of its content (%v):\n%s", want.Checksum, err, b)
			}
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("round trip:\n got %+v\nwant %+v", *got, want)
			}
		})
	}
}

func TestWriteRefusesBadModel(t *testing.T) {
	dir := t.TempDir()
	for name, m := range map[string]*Model{
		"NaN weight": sample(data.ScaleNone, []float64{1, math.NaN()}),
		"short scale": func() *Model {
			m := sample(data.ScaleMinMax, []float64{1, 2})
			m.Scaling.Scale = m.Scaling.Scale[:1]
			return m
		}(),
		"weights≠features":  func() *Model { m := sample(data.ScaleNone, []float64{1, 2}); m.Features = 3; return m }(),
		"unknown scaling":   sample("zscore", []float64{1}),
		"missing algorithm": func() *Model { m := sample(data.ScaleNone, []float64{1}); m.Algo = ""; return m }(),
	} {
		path := filepath.Join(dir, "m.json")
		if err := m.Write(path); !errors.Is(err, ErrModel) {
			t.Errorf("%s: Write = %v, want ErrModel", name, err)
		}
		if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: a refused model left a file", name)
		}
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	good := `{"format": 1, "algorithm": "opauc", "features": 2, "scaling": {"kind": "none"}, "weights": [1, 2]}`
	tests := []struct {
		name    string
		content string // "" with path set: no file written
		path    string // instead of a file with content
		want    string // substring of the error, after the file name
		is      error
	}{
		{"missing file", "", filepath.Join(dir, "nowhere.json"), "no such file", fs.ErrNotExist},
		{"a directory", "", dir, "is a directory", nil},
		{"empty", "", "", "m.json:1:1: bad model file: not JSON: unexpected end of JSON input", ErrModel},
		{"not JSON", "{\n  \"format\": 1,\n  oops\n}", "", ":3:3: bad model file: not JSON: invalid character 'o'", ErrModel},
		{"truncated", good[:40], "", "bad model file: not JSON: unexpected end", ErrModel},
		{"an array", "[1, 2]", "", "want map[string]json.RawMessage", ErrModel},
		{"no format", `{"algorithm": "opauc"}`, "", `no "format" field: not an aucopt model file`, ErrModel},
		{"format 2", `{"format": 2, "weights": {"new": "layout"}}`, "", "model format 2, this aucopt reads 1", ErrModel},
		{"format not a number", `{"format": "one"}`, "", `format "one" is not a version number`, ErrModel},
		{"no weights", `{"format": 1, "algorithm": "opauc", "features": 2, "scaling": {"kind": "none"}}`, "", `no "weights" field`, ErrModel},
		{"no scaling", `{"format": 1, "algorithm": "opauc", "features": 2, "weights": [1, 2]}`, "", `no "scaling" field`, ErrModel},
		{"features a string", strings.Replace(good, `"features": 2`, `"features": "2"`, 1), "", "m.json:1:51: bad model file: features: want int, got JSON string", ErrModel},
		{"negative features", strings.Replace(good, `"features": 2`, `"features": -1`, 1), "", "features -1 is negative", ErrModel},
		{"weights ≠ features", strings.Replace(good, `[1, 2]`, `[1, 2, 3]`, 1), "", "3 weights for 2 features", ErrModel},
		{"weights null", strings.Replace(good, `[1, 2]`, `null`, 1), "", "weights: null", ErrModel},
		{"weights strings", strings.Replace(good, `[1, 2]`, `["a"]`, 1), "", "weights: not an array of numbers", ErrModel},
		{"weight overflows", strings.Replace(good, `[1, 2]`, `[1, 1e999]`, 1), "", "weights: not an array of numbers", ErrModel},
		{"sparse out of range", strings.Replace(good, `[1, 2]`, `{"index": [3], "value": [1]}`, 1), "", "weights: feature 3 outside 1..2", ErrModel},
		{"sparse index 0", strings.Replace(good, `[1, 2]`, `{"index": [0], "value": [1]}`, 1), "", "weights: feature 0 outside 1..2", ErrModel},
		{"sparse not increasing", strings.Replace(good, `[1, 2]`, `{"index": [2, 1], "value": [1, 1]}`, 1), "", "feature 1 after 2: indices not increasing", ErrModel},
		{"sparse lengths", strings.Replace(good, `[1, 2]`, `{"index": [1, 2], "value": [1]}`, 1), "", "2 indices but 1 values", ErrModel},
		{"unknown scaling", strings.Replace(good, `"none"`, `"zscore"`, 1), "", `unknown scaling "zscore"`, ErrModel},
		{"minmax without vectors", strings.Replace(good, `"none"`, `"minmax"`, 1), "", "scaling minmax: 0 scale values for 2 features", ErrModel},
		{"minmax-unit without vectors", strings.Replace(good, `"none"`, `"minmax-unit"`, 1), "", "scaling minmax-unit: 0 scale values for 2 features", ErrModel},
		{"no algorithm", strings.Replace(good, `"opauc"`, `""`, 1), "", "no algorithm", ErrModel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = filepath.Join(dir, "m.json")
				if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			m, err := Read(path)
			if err == nil {
				t.Fatalf("Read = %+v, want an error with %q", m, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("Read error %q, want %q and the path", err, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q has more than one line", err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Read error %v does not wrap %v", err, tt.is)
			}
		})
	}
	path := filepath.Join(dir, "good.json")
	os.WriteFile(path, []byte(good), 0o644)
	if m, err := Read(path); err != nil || len(m.Weights) != 2 || !math.IsNaN(m.TestAUC) {
		t.Errorf("Read(good) = %+v, %v", m, err)
	}
}

// dataset builds a sparse dataset of dim features from dense rows (zeros not stored).
func dataset(dim int, rows [][]float64) *data.Dataset {
	d := &data.Dataset{Dim: dim, Ptr: []int64{0}}
	for i, r := range rows {
		var x kernels.Sparse
		for j, v := range r {
			if v != 0 {
				x.Idx, x.Val = append(x.Idx, int32(j)), append(x.Val, v)
			}
		}
		y := int8(1 - 2*(i%2))
		d.Append(y, float64(y), x)
	}
	d.Dim = dim
	return d
}

func TestScore(t *testing.T) {
	w := []float64{1, -2, 0.5}
	rows := [][]float64{{1, 2, 3}, {0, 0, 0}, {4, 0, -2}}
	minmax := sample(data.ScaleMinMax, w) // scale 1/(j+1), shift −0.1·j
	norm := sample(data.ScaleNorm, w)     // mean j/3
	tests := []struct {
		name string
		m    *Model
		ds   *data.Dataset
		want []float64 // by hand: w·T(x)
	}{
		{"none", sample(data.ScaleNone, w), dataset(3, rows), []float64{1 - 4 + 1.5, 0, 4 - 1}},
		{"none, narrower data widened", sample(data.ScaleNone, w), dataset(2, [][]float64{{1, 2}, {3, 0}}).Truncate(3), []float64{-3, 3}},
		// T(x)_j = x_j/(j+1) − 0.1·j: row {1,2,3} → {1, 0.9, 0.8}; {0,0,0} → {0, −0.1, −0.2}; {4,0,−2} → {4, −0.1, −0.8667}
		{"minmax", minmax, dataset(3, rows), []float64{1 - 1.8 + 0.4, 0.2 - 0.1, 4 + 0.2 - 0.4333333333333333}},
		// a narrower dataset still gets the shift of the feature it lacks (an implicit 0)
		{"minmax, narrower data widened", minmax, dataset(2, [][]float64{{1, 2}}).Truncate(3), []float64{1 - 1.8 - 0.1}},
		// (x − mean)/‖x‖, mean {0, 1/3, 2/3}: row {1,2,3}, ‖x‖ = √14
		{"norm", norm, dataset(3, rows[:2]), []float64{(1 - 2*(2-1.0/3) + 0.5*(3-2.0/3)) / math.Sqrt(14), 0}},
		// min-max first: row {1,2,3} → {1, 0.9, 0.8}; minus mean {0, 1/3, 2/3}: {1, 17/30, 4/30}, its norm √(1 + 289/900 + 16/900)
		{"minmax-unit", sample(data.ScaleMinMaxUnit, w), dataset(3, rows[:1]), []float64{(1 - 2*(0.9-1.0/3) + 0.5*(0.8-2.0/3)) / math.Sqrt(1+305.0/900)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.m.Score(tt.ds)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("Score = %v, want %v", got, tt.want)
			}
			for i := range got {
				if math.Abs(got[i]-tt.want[i]) > 1e-12 {
					t.Errorf("Score[%d] = %v, want %v", i, got[i], tt.want[i])
				}
				// One row scores as it does in the dataset, bit for bit.
				x := make([]float64, tt.ds.Dim)
				r := tt.ds.Row(i)
				for k, j := range r.Idx {
					x[j] = r.Val[k]
				}
				if s, err := tt.m.ScoreRow(x); err != nil || s != got[i] {
					t.Errorf("ScoreRow(row %d) = %v, %v, want Score's %v", i, s, err, got[i])
				}
			}
		})
	}
	if _, err := sample(data.ScaleNone, w).ScoreRow([]float64{1, 2}); !errors.Is(err, ErrFeatureSpace) {
		t.Errorf("ScoreRow(2 values, 3 features) error %v, want ErrFeatureSpace", err)
	}
	wide := dataset(4, [][]float64{{1, 2, 3, 9}})
	if _, err := sample(data.ScaleNone, w).Score(wide); !errors.Is(err, ErrFeatureSpace) || !strings.Contains(err.Error(), "the data has 4 features, the model 3") {
		t.Errorf("Score(wider data) error %v, want ErrFeatureSpace", err)
	}
	// LIBLINEAR's rule on request: the extra feature gets weight 0.
	if got, err := sample(data.ScaleNone, w).Score(wide.Truncate(3)); err != nil || got[0] != 1-4+1.5 {
		t.Errorf("Score(truncated) = %v, %v", got, err)
	}
}

// TestModelBins: a model with bins round-trips, scores the scaled row expanded by its
// bins, and is refused when its bins or weights do not fit its features.
func TestModelBins(t *testing.T) {
	m := sample(data.ScaleMinMax, []float64{1, -2, 0.5})
	m.Bins = &data.Bins{Dim: 3, Edges: [][]float64{{0, 0.5}, nil, {-0.5}}}
	// features, then feature 1's three bins, then feature 3's two
	m.Weights = []float64{1, -2, 0.5, 10, 20, 30, 100, 200}
	var buf bytes.Buffer
	path := filepath.Join(t.TempDir(), "m.json")
	if err := m.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Bins.Edges, m.Bins.Edges) || !reflect.DeepEqual(back.Weights, m.Weights) || back.Width() != 8 {
		t.Errorf("read back bins %v, weights %v, width %d", back.Bins, back.Weights, back.Width())
	}
	// row {1,2,3} min-maxes to {1, 0.9, 0.8}: feature 1 in bin 2 (≥ 0.5), feature 3 in
	// bin 1 (≥ −0.5); row {0,0,0} to {0, −0.1, −0.2}: bins 1 and 1.
	got, err := back.Score(dataset(3, [][]float64{{1, 2, 3}, {0, 0, 0}}))
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1 - 1.8 + 0.4 + 30 + 200, 0.2 - 0.1 + 20 + 200}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Errorf("Score[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	for _, tt := range []struct {
		name string
		edit func(*Model)
		want string
	}{
		{"weights for the features alone", func(m *Model) { m.Weights = m.Weights[:3] }, "3 weights for 3 features and their 5 bin indicators"},
		{"bins of another width", func(m *Model) { m.Bins = &data.Bins{Dim: 2, Edges: [][]float64{{0}, nil}} }, "bins for 2 features, the model has 3"},
		{"edges not increasing", func(m *Model) { m.Bins = &data.Bins{Dim: 3, Edges: [][]float64{{0.5, 0}, nil, {-0.5}}} }, "want finite and above the one before"},
	} {
		bad := *m
		tt.edit(&bad)
		if err := bad.Write(filepath.Join(t.TempDir(), "bad.json")); !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want ErrModel with %q", tt.name, err, tt.want)
		}
	}
	b, _ := os.ReadFile(path)
	buf.Write(bytes.Replace(b, []byte(`"edges":[[0,0.5],null,[-0.5]]`), []byte(`"edges":[[0,0.5],null]`), 1))
	if _, err := Decode(buf.Bytes(), "short.json"); !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), "2 edge lists for 3 features") {
		t.Errorf("a file with 2 edge lists for 3 features: error %v", err)
	}
}
