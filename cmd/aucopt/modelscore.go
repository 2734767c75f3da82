package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
)

// loadModelScores reads the model file at path (stopping once ctx is done) and returns its score of every row of
// ds, with the training scaling applied (model.Model.Score). It refuses a model it
// cannot read (an unknown algorithm, non-finite or overflowing weights), data with
// another number of features than the model's (another feature space), and scores that
// overflow to ±Inf.
func loadModelScores(ctx context.Context, path string, ds *data.Dataset) ([]float64, error) {
	m, err := model.ReadContext(ctx, path)
	if err != nil {
		return nil, err
	}
	scores, err := m.Score(ds)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	return scores, nil
}

// modelsTable returns the table schema the models were trained with: nil when none was
// trained on a table; an error when they were trained on different tables or not all
// on tables, since one data file cannot be read both ways.
func modelsTable(ctx context.Context, paths []string) (*data.Schema, error) {
	var sch *data.Schema
	var first string
	for i, p := range paths {
		m, err := model.ReadContext(ctx, p)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			sch, first = m.Table, p
			continue
		}
		a, _ := json.Marshal(sch)
		b, _ := json.Marshal(m.Table)
		if !bytes.Equal(a, b) {
			return nil, inputErrorf("models %s and %s read their data differently (table schemas differ): draw them on separate plots", first, p)
		}
	}
	return sch, nil
}
