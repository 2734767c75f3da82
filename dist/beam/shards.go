package aucbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/kernels"
)

// FileLabels summarises one shard file: its path, its rows and where each of its
// distinct labels first occurred (data.LabelSet), so that the labels of all shards
// can be checked in file order as one reader of their concatenation would.
type FileLabels struct {
	File   string
	Rows   int64
	Labels []data.LabelAt
	Dim    int          `json:",omitempty"` // the shard's largest feature index (eval)
	Schema *data.Schema `json:",omitempty"` // how a table shard's columns became features
}

// checkLabels checks the shards' labels in the order of their names, by data.Reader's
// rules: the first label that makes no binary problem with those before it is an error
// naming its file and line. It also rejects a set of shards without rows ("no examples",
// as the reader of an empty file says).
func checkLabels(files []FileLabels, positive, glob string) error {
	if len(files) == 0 {
		return inputErrorf("%s: no file matches", glob)
	}
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b FileLabels) int {
		switch {
		case a.File < b.File:
			return -1
		case a.File > b.File:
			return 1
		}
		return 0
	})
	var all data.LabelSet
	var rows int64
	for _, f := range files {
		if err := sameSchema(files[0], f); err != nil {
			return err
		}
		all.Merge(data.LabelSet{Labels: f.Labels})
		rows += f.Rows
	}
	if err := all.Check(positive); err != nil {
		return err
	}
	if rows == 0 {
		return inputError{fmt.Errorf("%s: %w (in %d files)", glob, data.ErrEmpty, len(files))}
	}
	return nil
}

// sameSchema checks that shard f was read with first's table schema (both LIBSVM, or
// tables whose columns became the same features): the shards of one dataset must be.
func sameSchema(first, f FileLabels) error {
	a, b := first.Schema, f.Schema
	switch {
	case a == nil && b == nil:
		return nil
	case a == nil || b == nil:
		return inputErrorf("%s and %s: a table and LIBSVM text in one set of shards", first.File, f.File)
	case !reflect.DeepEqual(a, b):
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		return inputErrorf("%s: its columns make other features than %s's (%s, not %s): the shards must have the same columns, of the same kinds (--categorical, --ignore)",
			f.File, first.File, jb, ja)
	}
	return nil
}

// maxMomentsDim bounds the features of a table read for its class moments (two d×d
// matrices): a table's width follows from its columns and --hash-bits, not its rows.
const maxMomentsDim = 1 << 14

// readShard streams one shard (LIBSVM text, compressed or an aucopt cache; or a CSV,
// TSV or Parquet table, read with table: nil for the defaults, or a model's Schema)
// and calls add for each row with its ±1 label; begin, when not nil, is called first
// with the table's schema (nil for LIBSVM). A malformed line is a *data.ParseError
// naming path and line. It stops at a third distinct label (no binary problem is
// possible then; the check over all shards reports the exact line).
func readShard(ctx context.Context, rf fileio.ReadableFile, rule data.LabelRule, table *data.TableOptions,
	begin func(*data.Schema) error, add func(y int8, label float64, x kernels.Sparse)) (FileLabels, error) {
	path := rf.Metadata.Path
	fl := FileLabels{File: path}
	rd, cleanup, err := openRows(ctx, rf, rule, table)
	if err != nil {
		return fl, err
	}
	defer cleanup()
	fl.Schema = rd.Schema()
	if begin != nil {
		if err := begin(fl.Schema); err != nil {
			return fl, err
		}
	}
	// A table's reader applies the label rules of one file; the labels of all shards
	// are checked together, as for LIBSVM, unless a positive label makes any binary.
	noteTable := fl.Schema != nil && fl.Schema.Positive == ""
	var seen data.LabelSet
	for {
		if fl.Rows%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return fl, err
			}
		}
		ex, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fl, err
		}
		y := ex.Y // an aucopt cache's rows are labelled ±1 already, a table's by its reader
		if y == 0 || noteTable {
			if seen.Note(ex.Label, path, ex.Line) {
				break
			}
		}
		if y == 0 {
			y = rule.Y(ex.Label)
		}
		add(y, ex.Label, ex.X)
		fl.Rows++
	}
	fl.Labels = seen.Labels
	return fl, nil
}

// isTable reports whether the shard path is read as a table.
func isTable(path string, table *data.TableOptions) bool {
	return data.TableFormat(path) != "" || !table.IsZero()
}

// openRows opens a shard's rows through engine/data's readers: LIBSVM text (labels
// raw, mapped by rule) from Beam's stream; a table by data.Open where the shard is a
// local file (a CSV's columns are typed in a first pass over it), else from the stream
// (CSV, TSV) or a local copy (Parquet, read by offsets).
func openRows(ctx context.Context, rf fileio.ReadableFile, rule data.LabelRule, table *data.TableOptions) (*data.Reader, func(), error) {
	path := rf.Metadata.Path
	if !isTable(path, table) {
		rc, err := openShard(ctx, rf)
		if err != nil {
			return nil, nil, err
		}
		rd, err := data.NewReader(rc, path, data.Options{Raw: true})
		if err != nil {
			rc.Close()
			return nil, nil, err
		}
		return rd, func() { rc.Close() }, nil
	}
	opts := data.Options{Positive: rule.Positive(), Table: table, Context: ctx}
	if table != nil && table.Schema != nil {
		opts.Positive = "" // the model's schema has it
	}
	if !strings.Contains(path, "://") {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			rd, err := data.Open(path, opts)
			if err != nil {
				return nil, nil, err
			}
			return rd, func() { rd.Close() }, nil
		}
	}
	rc, err := openShard(ctx, rf)
	if err != nil {
		return nil, nil, err
	}
	if data.TableFormat(path) != data.FormatParquet {
		rd, err := data.NewReader(rc, path, opts)
		if err != nil {
			rc.Close()
			return nil, nil, err
		}
		return rd, func() { rc.Close() }, nil
	}
	defer rc.Close()
	return openParquetCopy(rc, path, opts)
}

// openParquetCopy copies a remote Parquet shard to a local temporary file (Parquet is
// read by offsets) and opens it; errors name the shard, not the copy.
func openParquetCopy(r io.Reader, path string, opts data.Options) (*data.Reader, func(), error) {
	dir, err := os.MkdirTemp("", "aucopt-shard-")
	if err != nil {
		return nil, nil, err
	}
	local := filepath.Join(dir, filepath.Base(path)) // its own name: the format is told by it
	f, err := os.Create(local)
	if err == nil {
		_, err = io.Copy(f, r)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, fmt.Errorf("copying %s: %w", path, err)
	}
	rd, err := data.Open(local, opts)
	if err != nil {
		os.RemoveAll(dir)
		var pe *data.ParseError
		if errors.As(err, &pe) && pe.Path == local {
			pe.Path = path
			return nil, nil, pe
		}
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return rd, func() { rd.Close(); os.RemoveAll(dir) }, nil
}

// openShard opens a matched file through Beam's filesystems (Beam decompresses .gz by
// its name; aucopt's reader decompresses .bz2 and .xz by their magic bytes).
func openShard(ctx context.Context, f fileio.ReadableFile) (io.ReadCloser, error) {
	rc, err := f.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", f.Metadata.Path, err)
	}
	return rc, nil
}

// readDataset reads the shards, in the order of their names, into one in-memory
// dataset, as data.ReadFile reads their concatenation.
func readDataset(ctx context.Context, files []fileio.ReadableFile, positive string, table *data.TableOptions, glob string) (*data.Dataset, *data.Schema, error) {
	rule, err := data.NewLabelRule(positive)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(files, func(a, b fileio.ReadableFile) int {
		switch {
		case a.Metadata.Path < b.Metadata.Path:
			return -1
		case a.Metadata.Path > b.Metadata.Path:
			return 1
		}
		return 0
	})
	ds := &data.Dataset{Name: glob}
	var labels []FileLabels
	for _, f := range files {
		fl, err := readShard(ctx, f, rule, table, nil, ds.Append)
		if err != nil {
			return nil, nil, err
		}
		labels = append(labels, fl)
	}
	if err := checkLabels(labels, positive, glob); err != nil {
		return nil, nil, err
	}
	sch := labels[0].Schema
	if sch != nil {
		ds.Dim = sch.Dim() // a table's width is its schema's, whatever its rows hold
	}
	return ds, sch, nil
}

// readOutput reads a file written by the pipeline, through Beam's filesystems (the
// launcher reads what the workers wrote: local, or e.g. gs:// for a remote runner).
func readOutput(ctx context.Context, path string) ([]byte, error) {
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, path)
	if errors.Is(err, iofs.ErrNotExist) {
		return nil, nil // nothing was written: no element (no shard matched)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the pipeline's output: %w", err)
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

// readJSONLines reads the pipeline's output file path (see readOutput) as one JSON value
// of type T per line, blank lines skipped.
func readJSONLines[T any](ctx context.Context, path string) ([]T, error) {
	b, err := readOutput(ctx, path)
	if err != nil {
		return nil, err
	}
	var vs []T
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line == "" {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		vs = append(vs, v)
	}
	return vs, nil
}

// pipelineError shortens a failed pipeline's error to what the failing DoFn said (a
// runner wraps it in a dump of the execution plan), e.g. the *data.ParseError naming
// the shard's file and line. A runner passes on only the DoFn's message: one that
// markInput marked as the input's fault becomes an error wrapping fault.ErrInput
// (fault.IsInput), its mark removed.
func pipelineError(what string, err error) error {
	msg := err.Error()
	i := strings.LastIndex(msg, " failed:\n")
	if i < 0 && !strings.Contains(msg, inputMark) {
		return fmt.Errorf("%s: %w", what, err)
	}
	if i >= 0 {
		msg = strings.TrimSpace(msg[i+len(" failed:\n"):])
	} else {
		msg = msg[strings.Index(msg, inputMark):]
	}
	if j := strings.Index(msg, "\n"); j >= 0 {
		msg = msg[:j]
	}
	if k := strings.Index(msg, inputMark); k >= 0 {
		return inputErrorf("%s: %s%s", what, msg[:k], msg[k+len(inputMark):])
	}
	return fmt.Errorf("%s: %s", what, msg)
}

// inputMark starts the message of a DoFn's error that is the input's fault
// (markInput), so that the launcher can tell (pipelineError).
const inputMark = "[aucopt input] "

// markInput marks err, the error of a DoFn, as the input's fault when it is one
// (fault.IsInput: a malformed shard, one that cannot be opened, a model of
// another feature space): the runner turns errors into their messages.
func markInput(err error) error {
	if err != nil && fault.IsInput(err) {
		return fmt.Errorf("%s%w", inputMark, err)
	}
	return err
}

// inputError marks err as caused by the caller's input (fault.ErrInput); its
// message is err's.
type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{e.err, fault.ErrInput} }

func inputErrorf(format string, args ...any) error {
	return inputError{fmt.Errorf(format, args...)}
}
