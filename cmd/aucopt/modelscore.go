package main

// This file is the only place where roc reads model files: it knows the format-1 JSON
// written by writeModel (train.go) and nothing else. It is meant to be replaced by the
// model package's reader; the plotting code takes scores and labels only.

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
)

// loadModelScores reads the model file at path, applies its fitted scaling to ds and
// returns the model's score of every row of ds. It refuses a model it cannot apply: a
// file that is not a format-1 model, or data with features beyond the model's (another
// feature space). Data with fewer features is taken as having the model's, the missing
// ones zero (LIBSVM files end at their largest index).
func loadModelScores(path string, ds *data.Dataset) ([]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	var m struct {
		Format   int             `json:"format"`
		Algo     string          `json:"algorithm"`
		Features int             `json:"features"`
		Scale    string          `json:"scale"`
		Scaler   json.RawMessage `json:"scaler"`
		Weights  []float64       `json:"weights"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("model %s: not an aucopt model file: %v", path, err)
	}
	if m.Format != 1 {
		return nil, fmt.Errorf("model %s: format %d, this aucopt reads format 1", path, m.Format)
	}
	if m.Features < 1 || len(m.Weights) != m.Features {
		return nil, fmt.Errorf("model %s: %d weights for %d features", path, len(m.Weights), m.Features)
	}
	if ds.Dim > m.Features {
		return nil, fmt.Errorf("model %s has %d features but %s has %d: the model was trained on another feature space", path, m.Features, ds.Name, ds.Dim)
	}
	if ds.Dim < m.Features {
		ds = widen(ds, m.Features)
	}
	switch m.Scale {
	case engine.ScaleNone:
	case engine.ScaleMinMax:
		var s data.Scaler
		if err := json.Unmarshal(m.Scaler, &s); err != nil || len(s.Scale) != m.Features || len(s.Shift) != m.Features {
			return nil, fmt.Errorf("model %s: scaling minmax without a scaler of %d features", path, m.Features)
		}
		ds = s.Apply(ds)
	case engine.ScaleNorm:
		var n data.RowNormalizer
		if err := json.Unmarshal(m.Scaler, &n); err != nil || n.Mean != nil && len(n.Mean) != m.Features {
			return nil, fmt.Errorf("model %s: scaling norm without a normaliser of %d features", path, m.Features)
		}
		ds = n.Apply(ds)
	default:
		return nil, fmt.Errorf("model %s: unknown scaling %q", path, m.Scale)
	}
	return engine.Score(m.Weights, ds), nil
}

// widen returns d with dim features, the ones beyond d.Dim zero.
func widen(d *data.Dataset, dim int) *data.Dataset {
	out := d.ToSparse()
	if out == d {
		cp := *d
		out = &cp
	}
	out.Dim = dim
	return out
}
