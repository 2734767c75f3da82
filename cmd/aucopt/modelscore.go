package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
	flag "github.com/spf13/pflag"
)

// loadModelScores reads the model file at path (stopping once ctx is done) and returns its score of every row of
// ds, with the training scaling applied (model.Model.Score). It refuses a model it
// cannot read (an unknown algorithm, non-finite or overflowing weights), data with
// another number of features than the model's (another feature space), and scores that
// overflow to ±Inf.
func loadModelScores(ctx context.Context, path string, ds *data.Dataset, opts model.ReadOptions) ([]float64, error) {
	m, err := readModel(ctx, path, opts)
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
func modelsTable(ctx context.Context, paths []string, opts model.ReadOptions) (*data.Schema, error) {
	var sch *data.Schema
	var first string
	for i, p := range paths {
		m, err := readModel(ctx, p, opts)
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

// ignoreChecksumFlag registers --ignore-checksum on fs.
func ignoreChecksumFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("ignore-checksum", false, "read a model file whose checksum does not match its content (a model edited by hand); without it such a model is refused")
}

// readModel reads the model file at path (model.ReadContext); a checksum mismatch says
// how to read the model anyway.
func readModel(ctx context.Context, path string, opts model.ReadOptions) (*model.Model, error) {
	m, err := model.ReadContext(ctx, path, opts)
	if errors.Is(err, model.ErrChecksum) {
		return nil, fmt.Errorf("%w; --ignore-checksum reads it anyway", err)
	}
	return m, err
}

// checksumNote is what the user should know of m's checksum, read from path with
// opts: nothing when it was verified; that there is none (a model file of an aucopt
// before checksums), or that it was ignored and does not match.
func checksumNote(m *model.Model, path string, opts model.ReadOptions) string {
	if m.Checksum == "" {
		return fmt.Sprintf("model %s has no checksum (written before aucopt checked them): its content is not verified", path)
	}
	if opts.IgnoreChecksum {
		if sum, err := m.Sum(); err == nil && sum != m.Checksum {
			return fmt.Sprintf("model %s: its checksum does not match its content, read anyway (--ignore-checksum)", path)
		}
	}
	return ""
}
