package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// TestModelRefuses covers the models and data a model must refuse: an unknown
// algorithm, weights whose magnitudes overflow, data with fewer or more features, and
// data whose score overflows to ±Inf.
func TestModelRefuses(t *testing.T) {
	good, err := sample(data.ScaleNone, []float64{1, -2, 0.5}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	decodeCases := []struct {
		name string
		file []byte
		want string
	}{
		{"unknown algorithm", bytes.Replace(good, []byte(`"opauc"`), []byte(`"nosuch"`), 1), `unknown algorithm "nosuch"`},
		{"weights overflow", bytes.Replace(good, []byte(`[1,-2,0.5]`), []byte(`[1.7e308,-1.7e308,0.5]`), 1), "magnitudes sum to +Inf"},
		{"too many features", bytes.Replace(bytes.Replace(good, []byte(`"features":3`), []byte(`"features":4294967296`), 1),
			[]byte(`[1,-2,0.5]`), []byte(`{"index":[1],"value":[1]}`), 1), "features 4294967296"},
	}
	for _, c := range decodeCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.file, "m.json")
			if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "m.json") {
				t.Errorf("Decode: error %v, want ErrModel naming m.json and %q", err, c.want)
			}
		})
	}
	scoreCases := []struct {
		name    string
		m       *Model
		rows    [][]float64
		dim     int
		wantErr error
		want    string
	}{
		{"fewer features", sample(data.ScaleNone, []float64{1, -2, 0.5}), [][]float64{{1, 2}}, 2, ErrFeatureSpace, "the data has 2 features, the model 3"},
		{"more features", sample(data.ScaleNone, []float64{1, -2, 0.5}), [][]float64{{1, 2, 3, 4}}, 4, ErrFeatureSpace, "the data has 4 features, the model 3"},
		{"score overflows", sample(data.ScaleNone, []float64{1.7e308, 0, 0}), [][]float64{{1, 0, 0}, {2, 0, 0}}, 3, ErrModel, "row 2 is +Inf"},
		{"score NaN", sample(data.ScaleNone, []float64{1.7e308, 1.7e308, 0}), [][]float64{{2, -2, 0}}, 3, ErrModel, "is NaN"},
	}
	for _, c := range scoreCases {
		t.Run(c.name, func(t *testing.T) {
			ds := dataset(c.dim, c.rows)
			ds.Name = "test"
			_, err := c.m.Score(ds)
			if !errors.Is(err, c.wantErr) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Score: error %v, want %v with %q", err, c.wantErr, c.want)
			}
		})
	}
}

// FuzzModelDecode feeds arbitrary bytes to the model decoder. It must never panic, and
// a model it accepts must be valid and encode to a file that decodes to the same model.
// Inputs declaring more than 2²⁰ features are skipped: their weights' allocation is the
// memory guard's business (tested elsewhere), not the parser's.
func FuzzModelDecode(f *testing.F) {
	for _, m := range []*Model{
		sample(data.ScaleNone, []float64{1, -2, 0.5}),
		sample(data.ScaleMinMax, []float64{0, 0, 0, 3, 0}),
		sample(data.ScaleNorm, []float64{0.25, 1e-300}),
		func() *Model {
			m := sample(data.ScaleNorm, []float64{0, 0, 7})
			m.Scaling.Mean, m.TestAUC = nil, 0.5
			return m
		}(),
	} {
		b, err := m.MarshalJSON()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":1}`))
	f.Add([]byte(`{"format":1,"algorithm":"olr","features":2,"scaling":{"kind":"none"},"weights":{"index":[2],"value":[1]}}`))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var head struct {
			Features json.Number `json:"features"`
		}
		if json.Unmarshal(b, &head) == nil {
			if n, err := head.Features.Float64(); err == nil && n > 1<<20 {
				t.Skip("more than 2²⁰ features")
			}
		}
		m, err := Decode(b, "fuzz.json")
		if err != nil {
			if !errors.Is(err, ErrModel) {
				t.Fatalf("error %v does not wrap ErrModel", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Decode accepted a model Validate refuses: %v", err)
		}
		again, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Decode(again, "again.json")
		if err != nil {
			t.Fatalf("the re-encoded model does not decode: %v", err)
		}
		if m2.Algo != m.Algo || m2.Features != m.Features || len(m2.Weights) != len(m.Weights) {
			t.Fatal("the re-encoded model decodes differently")
		}
		for j := range m.Weights {
			if m.Weights[j] != m2.Weights[j] && !(math.IsNaN(m.Weights[j]) && math.IsNaN(m2.Weights[j])) {
				t.Fatalf("weight %d: %v, then %v", j, m.Weights[j], m2.Weights[j])
			}
		}
	})
}
