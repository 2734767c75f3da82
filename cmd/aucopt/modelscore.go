package main

import (
	"fmt"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
)

// loadModelScores reads the model file at path and returns its score of every row of
// ds, with the training scaling applied (model.Model.Score). It refuses a model it
// cannot read (an unknown algorithm, non-finite or overflowing weights), data with
// another number of features than the model's (another feature space), and scores that
// overflow to ±Inf.
func loadModelScores(path string, ds *data.Dataset) ([]float64, error) {
	m, err := model.Read(path)
	if err != nil {
		return nil, err
	}
	scores, err := m.Score(ds)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	return scores, nil
}
