package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"syscall"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
)

// PredictOptions control Predict. The zero value is the strict default.
type PredictOptions struct {
	// AllowExtraFeatures scores data with more features than the model, the extra
	// features getting weight 0 (LIBLINEAR's rule) and the Prediction a note. Without
	// it such data is refused with an error wrapping model.ErrFeatureSpace: it is more
	// often data of another feature space than a wider test file.
	AllowExtraFeatures bool
	// AllowFewerFeatures scores data with fewer features than the model, the missing
	// ones counting 0 (a sparse file whose last features never occur), with a note.
	// Without it such data is refused with an error wrapping model.ErrFeatureSpace: it
	// is most often data of another feature space.
	AllowFewerFeatures bool
	// Unlabelled lets a table scored by a model trained on a table lack the label
	// column: its rows are scored all the same, and the Prediction says it is
	// Unlabelled. Without it such a table is refused, as evaluation needs labels.
	Unlabelled bool
	// ID names a column of a table whose cell text each row's score goes with
	// (Prediction.IDs), a column the model knows or not. LIBSVM data has no columns: an
	// ID is an error there, as are Ignore, Missing and AllowExtraColumns.
	ID string
	// Ignore names columns of a table that the model does not know, left out. A column
	// the model reads (a feature, the label) cannot be.
	Ignore []string
	// Missing, when set, replaces the missing-value policy the model was trained with
	// (data.MissingError, data.MissingZero, data.MissingSkip) for the data scored: with
	// skip, a row with an empty cell has no score, and the Prediction counts it.
	Missing string
	// AllowExtraColumns leaves out every column of a table that the model does not
	// know. Without it such a column, unless ID or Ignore names it, is refused with an
	// error wrapping a *data.ExtraColumnsError. Columns are matched by name, in any
	// order; a feature column of the model that the table lacks is always refused.
	AllowExtraColumns bool
}

// table reports whether o sets an option that applies to a table's columns only.
func (o *PredictOptions) table() bool {
	return o.ID != "" || len(o.Ignore) > 0 || o.Missing != "" || o.AllowExtraColumns
}

// Prediction is a model's scores of a data.
type Prediction struct {
	Data   string    // the data as named
	Part   string    // "test" for a dataset name's test part, "all" for every row read
	Scores []float64 // w·T(x), one per row in the data's order
	Y      []int8    // the rows' labels, +1 or −1; 0 when Unlabelled
	// IDs are the text of each row's PredictOptions.ID cell; nil without an ID.
	IDs []string
	// Skipped counts the rows of a table left out for a missing value (the
	// missing-value policy skip): they have no score.
	Skipped int
	// Unlabelled: the data is a table without its label column (PredictOptions.Unlabelled).
	Unlabelled bool
	Notes      []string // things the user should know (extra features ignored)

	labelText []string  // a table's label cells, nil when Unlabelled
	labelNum  []float64 // LIBSVM labels as read
}

// Label is row i's label as the data writes it: a table's label cell (yes, no, 1, 0),
// a LIBSVM row's label as a number in its shortest form (+1 is 1); "" when Unlabelled.
func (p *Prediction) Label(i int) string {
	switch {
	case p.labelText != nil:
		return p.labelText[i]
	case p.labelNum != nil:
		return strconv.FormatFloat(p.labelNum[i], 'g', -1, 64)
	}
	return ""
}

// Predict scores the data name with m, applying the scaling m was trained with. name
// is a file (LIBSVM text, compressed or not, an aucopt cache, or for a model trained
// on a table a CSV, TSV or Parquet file) or a registered dataset's name,
// which stands for its test part when it has a train/test split and for all its rows
// otherwise (a multi-class dataset's classes are grouped with the model's seed, as in
// training). The scores of a model's own test data equal those its test AUC was
// measured on. Reading stops once ctx is done (Ctrl-C). Rows in memory (a
// data.Dataset) are scored by m.Score, one row by m.ScoreRow.
func Predict(ctx context.Context, m *model.Model, name string, opts PredictOptions) (*Prediction, error) {
	if name == "" {
		return nil, inputErrorf("no data to score")
	}
	if m.Table == nil && opts.table() {
		return nil, inputErrorf("%s: the model was trained on LIBSVM data, whose rows have no columns: an identifier column, columns to leave out and a missing-value policy apply to a model trained on a table", name)
	}
	var carry *data.Carry
	if m.Table != nil {
		carry = &data.Carry{Label: true}
		if opts.ID != "" {
			carry.Columns = []string{opts.ID}
		}
	}
	ds, test, err := loadModelData(ctx, m, name, opts, carry)
	if err != nil {
		return nil, err
	}
	p := &Prediction{Data: name, Part: "all"}
	if test != nil {
		ds, p.Part = test, "test"
	}
	if carry != nil {
		if carry.Rows() != ds.Rows() && len(carry.Columns) > 0 || carry.Labels != nil && len(carry.Labels) != ds.Rows() {
			return nil, fmt.Errorf("scoring %s: %d rows read, %d carried", name, ds.Rows(), max(carry.Rows(), len(carry.Labels)))
		}
		p.labelText, p.Skipped = carry.Labels, carry.Skipped
		if opts.ID != "" {
			p.IDs = carry.Text
		}
		if p.Skipped > 0 {
			rows := fmt.Sprintf("%d rows with a missing value were", p.Skipped)
			if p.Skipped == 1 {
				rows = "1 row with a missing value was"
			}
			p.Notes = append(p.Notes, rows+" left out (missing-value policy skip), without a score")
		}
	} else {
		p.labelNum = ds.Labels
	}
	if ds.Dim > m.Features && opts.AllowExtraFeatures {
		p.Notes = append(p.Notes, fmt.Sprintf("the data has %d features, the model %d: the extra features get weight 0", ds.Dim, m.Features))
		ds = ds.Truncate(m.Features)
	}
	if ds.Dim < m.Features && opts.AllowFewerFeatures {
		p.Notes = append(p.Notes, fmt.Sprintf("the data has %d features, the model %d: the missing features count 0", ds.Dim, m.Features))
		if narrow, ok := m.Narrow(ds.Dim); ok {
			m = narrow // the missing features add nothing: the model's width is never allocated
		} else {
			ds = ds.Truncate(m.Features) // the model's scaling vectors or bins prove its width
		}
	}
	if p.Scores, err = m.Score(ds); err != nil {
		return nil, fmt.Errorf("scoring %s: %w", name, err)
	}
	p.Y = ds.Y
	// A table's rows all have their label or none has (no label column): Y is ±1, or 0.
	p.Unlabelled = len(ds.Y) > 0 && ds.Y[0] == 0
	return p, nil
}

// loadModelData loads name as Predict does: a file of a model trained on a table is
// read with the model's table schema (and must have its columns) under opts, carrying
// carry's columns.
func loadModelData(ctx context.Context, m *model.Model, name string, opts PredictOptions, carry *data.Carry) (*data.Dataset, *data.Dataset, error) {
	if m.Table == nil {
		var in data.Options
		if _, err := data.StatInput(name); err == nil { // a LIBSVM file numbered as the training file was
			in.Indices = data.IndexOne
			if m.ZeroBased {
				in.Indices = data.IndexZero
			}
		}
		train, test, _, err := loadWith(ctx, name, m.Seed, data.LayoutSparse, in)
		return train, test, err
	}
	ff, err := data.DetectFile(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, inputErrorf("%s: no such file", name)
	case err != nil && !errors.Is(err, syscall.EISDIR):
		return nil, nil, inputErrorf("%s: %w", name, err)
	case err != nil || !ff.Stream && !ff.Table(data.Options{}): // a directory, or a file not a table (a stream is told by its content)
		return nil, nil, inputErrorf("%s: the model was trained on a table (label %q): give a CSV, TSV or Parquet file with its columns", name, m.Table.Label)
	}
	if opts.Missing != "" {
		if err := data.CheckMissing(opts.Missing); err != nil {
			return nil, nil, inputErrorf("%w", err)
		}
	}
	t := &data.TableOptions{Schema: m.Table, Unlabelled: opts.Unlabelled, Ignore: opts.Ignore, Missing: opts.Missing,
		AllowExtra: opts.AllowExtraColumns, Carry: carry}
	ds, _, _, err := loadWith(ctx, name, m.Seed, data.LayoutSparse, data.Options{Table: t})
	return ds, nil, err
}
