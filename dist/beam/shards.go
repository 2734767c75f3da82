package aucbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
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
	Dim    int `json:",omitempty"` // the shard's largest feature index (eval)
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

// readShard streams one shard (text, compressed or an aucopt cache) and calls add for
// each row with its ±1 label. A malformed line is a *data.ParseError naming path and
// line. It stops at a third distinct label (no binary problem is possible then; the
// check over all shards reports the exact line).
func readShard(ctx context.Context, r io.Reader, path string, rule data.LabelRule, add func(y int8, label float64, x kernels.Sparse)) (FileLabels, error) {
	fl := FileLabels{File: path}
	rd, err := data.NewReader(r, path, data.Options{Raw: true})
	if err != nil {
		return fl, err
	}
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
		y := ex.Y // an aucopt cache's rows are labelled ±1 already
		if y == 0 {
			if seen.Note(ex.Label, path, ex.Line) {
				break
			}
			y = rule.Y(ex.Label)
		}
		add(y, ex.Label, ex.X)
		fl.Rows++
	}
	fl.Labels = seen.Labels
	return fl, nil
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
func readDataset(ctx context.Context, files []fileio.ReadableFile, positive, glob string) (*data.Dataset, error) {
	rule, err := data.NewLabelRule(positive)
	if err != nil {
		return nil, err
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
		rc, err := openShard(ctx, f)
		if err != nil {
			return nil, err
		}
		fl, err := readShard(ctx, rc, f.Metadata.Path, rule, ds.Append)
		rc.Close()
		if err != nil {
			return nil, err
		}
		labels = append(labels, fl)
	}
	if err := checkLabels(labels, positive, glob); err != nil {
		return nil, err
	}
	return ds, nil
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
