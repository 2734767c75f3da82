package model

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// Format is the version of the model file format this package writes and reads.
const Format = 1

var (
	// ErrModel is wrapped by every error Read and Decode return for a file that is not a
	// model this package can apply (not JSON, another format version, a missing or
	// inconsistent field). An unreadable file gives the os error instead.
	ErrModel = fault.NewInput("bad model file")
	// ErrFeatureSpace is wrapped by Transform's and Score's error for data with another
	// number of features than the model: most likely data of another feature space.
	ErrFeatureSpace = fault.NewInput("data and model feature spaces differ")
	// ErrChecksum is wrapped (with ErrModel) by the error for a model file whose
	// checksum does not match its content: edited by hand or corrupted.
	ErrChecksum = errors.New("checksum mismatch")
)

// Model is a trained linear scorer, score(x) = w·T(x), with T the scaling fitted on the
// training data, and what is known of how it was made. Its JSON form (format 1) is the
// model file:
//
//	{"format": 1, "aucopt_version": "0.1.0", "algorithm": "opauc", "params": {"eta": 0.0625, …},
//	 "features": 123, "scaling": {"kind": "minmax", "scale": […], "shift": […]},
//	 "backend": "avx2", "train_data": "a9a", "train_rows": 32561, "train_sha256": "…",
//	 "seed": 1, "test_auc": 0.9003, "test_rows": 16281, "weights": […]}
//
// A model trained on binned features (TrainConfig.Bins) also has "bins": {"edges":
// [[…], null, …]}, one list of bin edges per feature (data.Bins; null for a feature not
// binned), in the scaled features' units: its rows are scaled, then expanded by the
// bins, before the weights apply, and it has Width() weights rather than Features.
//
// weights is an array of Width() numbers, or, when fewer than half of them are
// non-zero, {"index": […], "value": […]} with LIBSVM's 1-based feature numbers in
// increasing order. Numbers are written in the shortest form that reads back exactly,
// and nothing depends on the time of writing, so the same run writes the same bytes.
//
// The last member, "checksum": "sha256:…", is the SHA-256 of the model's canonical
// content (Sum): its compact JSON as this format writes it (the members in the order
// above, no white space, no checksum). Reading re-encodes what it read and compares,
// so a file whose content was changed (a weight, a scaling shift, a parameter) is
// refused with an error wrapping ErrChecksum, while white space and layout are free.
// ReadOptions.IgnoreChecksum reads a model edited by hand. A file without a checksum
// (written by aucopt before 0.1.0-dev of 2026-11-28) is read as before, its content
// unverified: Checksum is "".
type Model struct {
	Version  string         // aucopt version that wrote the model
	Algo     string         // registered algorithm name
	Params   map[string]any // its hyper-parameters
	Features int            // number of features of the training data
	Scaling  Scaling        // the transformation applied before w
	// Bins, when not nil, expands the scaled rows by quantile-bin indicators (data.Bins)
	// before w applies: Bins.Dim is Features and w has Bins.OutDim() weights.
	Bins      *data.Bins
	Backend   string // compute backend that trained it
	TrainData string // the training data as named: a file or a dataset name
	TrainRows int    // training rows
	// TrainSHA256 is the SHA-256 of the training file's bytes (for a dataset name, of its
	// training file, on disk or embedded; for a version-3 binary cache, the digest it
	// stores, data.Fingerprint); "" when unknown.
	TrainSHA256 string
	Seed        uint64  // seed of the run (shuffling, a multi-class dataset's grouping)
	TestAUC     float64 // AUC on the test data at training time; NaN when unknown
	TestRows    int     // rows of that test data, 0 when none
	// Weights are the Width() weights. They are nil in a model Decode read with sparse
	// weights and more features than its file has bytes (a file that does not prove
	// its width): such a model holds its weights sparse, and Score, NonZero, Narrow and
	// the encoding work on them, never allocating Width() numbers.
	Weights []float64
	held    *sparse // the sparse weights when Weights is nil (Decode)

	// Table, for a model trained on a CSV, TSV or Parquet table, is how its columns
	// became features (label, numeric columns, hashed categorical columns): new files
	// are read with it, and refused when their columns do not match. nil for LIBSVM data.
	Table *data.Schema
	// ZeroBased: the training data was LIBSVM text numbered from 0 (data.IndexZero);
	// LIBSVM files are read with the model the same way.
	ZeroBased bool

	// Notes are what the run told the user: data-scaled defaults, why --algo auto chose
	// this algorithm and these parameters.
	Notes []string

	// Checksum is the checksum the model file carried ("sha256:…"), which Decode
	// checked unless told to ignore it; "" for a file without one (from an aucopt
	// before checksums) or a model not read from a file. Writing ignores it: the
	// checksum written is always Sum's.
	Checksum string
	// Calibration, when not nil, maps scores to probabilities (train --calibrate): the
	// optional "calibration" member of the file. Models without it read as before.
	Calibration *Calibration

	// Vocabulary, for a model trained on a table with hashed columns, names buckets with
	// the column=value strings of the training file that fell in them, with their
	// counts (data.Vocab.Terms: the most frequent few of the buckets of largest |w|) in
	// the file's first VocabularyRows rows (data.VocabRows at most);
	// VocabularyTruncated says that the counting stopped at data.MaxVocabKeys distinct
	// strings. The optional "vocabulary", "vocabulary_rows" and "vocabulary_truncated"
	// members.
	Vocabulary          []data.VocabTerm
	VocabularyRows      int
	VocabularyTruncated bool
}

// Scaling is the record of a model's fitted data.Scaling (ScalingOf, Data). Kind is
// data.ScaleNone (features as read), data.ScaleMinMax (x'_j = Scale[j]·x_j + Shift[j]),
// data.ScaleNorm (x' = (x − Mean)/‖x‖, or x/‖x‖ when Mean is nil: data.ScaleUnit
// is recorded as norm without a mean) or data.ScaleMinMaxUnit (the min-max map, then
// (x − Mean)/‖x − Mean‖ with the min-maxed rows' Mean).
type Scaling struct {
	Kind  string    `json:"kind"`            // data.ScaleNone, ScaleMinMax, ScaleNorm or ScaleMinMaxUnit
	Scale []float64 `json:"scale,omitempty"` // minmax, minmax-unit: per-feature factor, Features long
	Shift []float64 `json:"shift,omitempty"` // minmax, minmax-unit: per-feature offset, Features long
	Mean  []float64 `json:"mean,omitempty"`  // norm: training mean (nil: no centring); minmax-unit: the min-maxed rows' mean
}

// ScalingOf is the record of the scaling kind (data.ScaleNone, ScaleMinMax, ScaleNorm,
// ScaleUnit or ScaleMinMaxUnit) fitted as s (nil for none).
func ScalingOf(kind string, s *data.Scaling) Scaling {
	switch {
	case s != nil && s.MinMax != nil && s.Norm != nil:
		return Scaling{Kind: data.ScaleMinMaxUnit, Scale: s.MinMax.Scale, Shift: s.MinMax.Shift, Mean: s.Norm.Mean}
	case s != nil && s.MinMax != nil:
		return Scaling{Kind: data.ScaleMinMax, Scale: s.MinMax.Scale, Shift: s.MinMax.Shift}
	case s != nil && s.Norm != nil:
		return Scaling{Kind: data.ScaleNorm, Mean: s.Norm.Mean}
	}
	return Scaling{Kind: kind}
}

// Data returns the recorded scaling as a data.Scaling to apply.
func (s Scaling) Data() *data.Scaling {
	switch s.Kind {
	case data.ScaleMinMax:
		return &data.Scaling{Kind: s.Kind, MinMax: &data.Scaler{Scale: s.Scale, Shift: s.Shift}}
	case data.ScaleMinMaxUnit:
		return &data.Scaling{Kind: s.Kind, MinMax: &data.Scaler{Scale: s.Scale, Shift: s.Shift}, Norm: &data.RowNormalizer{Mean: s.Mean, Centred: true}}
	case data.ScaleNorm:
		if s.Mean == nil {
			return &data.Scaling{Kind: data.ScaleUnit, Norm: &data.RowNormalizer{}}
		}
		return &data.Scaling{Kind: s.Kind, Norm: &data.RowNormalizer{Mean: s.Mean}}
	}
	return &data.Scaling{Kind: s.Kind}
}

// file is the JSON layout of a model file.
type file struct {
	Format      int              `json:"format"`
	Version     string           `json:"aucopt_version"`
	Algo        string           `json:"algorithm"`
	Params      map[string]any   `json:"params"`
	Features    int              `json:"features"`
	Scaling     Scaling          `json:"scaling"`
	Bins        *binsFile        `json:"bins,omitempty"`
	Backend     string           `json:"backend"`
	TrainData   string           `json:"train_data"`
	TrainRows   int              `json:"train_rows"`
	TrainSHA256 string           `json:"train_sha256"`
	Seed        uint64           `json:"seed"`
	TestAUC     *float64         `json:"test_auc,omitempty"`
	TestRows    int              `json:"test_rows,omitempty"`
	Table       *data.Schema     `json:"table,omitempty"`
	ZeroBased   bool             `json:"zero_based,omitempty"`
	Notes       []string         `json:"notes,omitempty"`
	Calibration *Calibration     `json:"calibration,omitempty"`
	Vocabulary  []data.VocabTerm `json:"vocabulary,omitempty"`
	VocabRows   int              `json:"vocabulary_rows,omitempty"`
	VocabTrunc  bool             `json:"vocabulary_truncated,omitempty"`
	Weights     json.RawMessage  `json:"weights"`
	Checksum    *string          `json:"checksum,omitempty"` // read only: encode appends it
}

// required lists the fields a format-1 file must have.
var required = []string{"format", "algorithm", "features", "scaling", "weights"}

// binsFile is the JSON of a model's data.Bins.
type binsFile struct {
	Edges [][]float64 `json:"edges"`
}

// sparse is the sparse form of the weights.
type sparse struct {
	Index []int     `json:"index"` // 1-based feature numbers, increasing
	Value []float64 `json:"value"`
}

// MarshalJSON writes the model file's JSON, compact, with its checksum. It fails on a
// model Validate rejects.
func (m *Model) MarshalJSON() ([]byte, error) {
	return m.encode("", "")
}

// checksumPrefix starts a checksum: the hash's name.
const checksumPrefix = "sha256:"

// Sum returns the checksum of m's canonical content, "sha256:" and 64 hex digits: what
// a model file of m carries. It fails on a model Validate rejects.
func (m *Model) Sum() (string, error) {
	b, err := m.canonical()
	if err != nil {
		return "", err
	}
	return sum(b), nil
}

func sum(canonical []byte) string {
	h := sha256.Sum256(canonical)
	return checksumPrefix + hex.EncodeToString(h[:])
}

// encode writes the file object with its checksum, each member on its own line
// (prefixed by indent) when nl is "\n", the members' values themselves compact: a
// vector stays on one line.
func (m *Model) encode(nl, indent string) ([]byte, error) {
	b, err := m.canonical()
	if err != nil {
		return nil, err
	}
	b = append(b[:len(b)-1], `,"checksum":"`+sum(b)+`"}`...)
	if nl == "" {
		return b, nil
	}
	return members(b, nl, indent), nil
}

// canonical writes the file object without its checksum, compact: the content the
// checksum covers.
func (m *Model) canonical() ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	f := file{Format: Format, Version: m.Version, Algo: m.Algo, Params: m.Params, Features: m.Features,
		Scaling: m.Scaling, Backend: m.Backend, TrainData: m.TrainData, TrainRows: m.TrainRows,
		TrainSHA256: m.TrainSHA256, Seed: m.Seed, TestRows: m.TestRows, Table: m.Table, ZeroBased: m.ZeroBased, Notes: m.Notes,
		Calibration: m.Calibration, Vocabulary: m.Vocabulary, VocabRows: m.VocabularyRows, VocabTrunc: m.VocabularyTruncated}
	if m.Bins != nil {
		f.Bins = &binsFile{Edges: m.Bins.Edges}
	}
	if f.Params == nil {
		f.Params = map[string]any{}
	}
	if !math.IsNaN(m.TestAUC) {
		f.TestAUC = &m.TestAUC
	}
	var w any = m.Weights
	switch nnz := m.NonZero(); {
	case m.held != nil: // more features than non-zero weights: always sparse
		s := sparse{Index: make([]int, 0, nnz), Value: make([]float64, 0, nnz)}
		for k, v := range m.held.Value {
			if v != 0 {
				s.Index, s.Value = append(s.Index, m.held.Index[k]), append(s.Value, v)
			}
		}
		w = s
	case 2*nnz < len(m.Weights):
		s := sparse{Index: make([]int, 0, nnz), Value: make([]float64, 0, nnz)}
		for j, v := range m.Weights {
			if v != 0 {
				s.Index, s.Value = append(s.Index, j+1), append(s.Value, v)
			}
		}
		w = s
	}
	var err error
	if f.Weights, err = json.Marshal(w); err != nil {
		return nil, err
	}
	return json.Marshal(f)
}

// members breaks the compact object b into its members, one per line: a member starts
// after a comma at depth 1 outside strings.
func members(b []byte, nl, indent string) []byte {
	var out bytes.Buffer
	out.WriteString("{" + nl + indent)
	depth, inStr, esc := 0, false, false
	for _, c := range b[1 : len(b)-1] {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out.WriteString("," + nl + indent)
			continue
		case c == ':' && depth == 0:
			out.WriteString(": ")
			continue
		}
		out.WriteByte(c)
	}
	out.WriteString(nl + "}")
	return out.Bytes()
}

func countNonZero(w []float64) int {
	n := 0
	for _, v := range w {
		if v != 0 {
			n++
		}
	}
	return n
}

// Write writes m to path atomically (data.WriteAtomic): path holds either its old
// content or the whole new model, never part of one.
func (m *Model) Write(path string) error {
	b, err := m.encode("\n", "  ")
	if err != nil {
		return fmt.Errorf("model %s: %w", path, err)
	}
	return data.WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}

// MaxFileBytes is the most bytes a model file may have: 1 GiB, the JSON of about 40
// million dense weights (a model of more features is written with sparse weights
// unless most of them are non-zero).
const MaxFileBytes = 1 << 30

// Read reads and validates the model file at path, checking its checksum
// (ReadContext without a context or options).
func Read(path string) (*Model, error) {
	return ReadContext(context.Background(), path, ReadOptions{})
}

// ReadOptions control ReadContext and DecodeOptions.
type ReadOptions struct {
	// IgnoreChecksum reads a model file whose checksum does not match its content (a
	// model edited by hand); without it such a file is refused with an error wrapping
	// ErrChecksum and ErrModel.
	IgnoreChecksum bool
}

// ReadContext reads and validates the model file at path. The read is bounded: a
// regular file by its size, any file by MaxFileBytes (a larger one is refused), a
// stream (a pipe, a device) that does not start as JSON is refused at its first
// byte, and it stops with ctx's error once ctx is done, even while a FIFO
// waits for its writer or while a large file is decoded. Its errors name the file: an unreadable file gives the os
// error (errors.Is os.ErrNotExist, fs.ErrPermission, …), anything else one wrapping
// ErrModel, with line:column for malformed JSON.
func ReadContext(ctx context.Context, path string, opts ReadOptions) (*Model, error) {
	b, err := data.ReadLimited(ctx, path, data.ReadOptions{Max: MaxFileBytes, Check: startsAsJSON(path)})
	switch {
	case errors.Is(err, data.ErrTooLarge):
		return nil, fmt.Errorf("model %w", modelError{err})
	case errors.Is(err, ErrModel):
		return nil, fmt.Errorf("model %w", err)
	case err != nil:
		return nil, fmt.Errorf("model: %w", err)
	}
	// Decoding a large file takes seconds: it runs aside, abandoned when ctx is done.
	type result struct {
		m   *Model
		err error
	}
	done := make(chan result, 1)
	go func() {
		m, err := DecodeOptions(b, path, opts)
		done <- result{m, err}
	}()
	select {
	case r := <-done:
		return r.m, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("model %s: decoding stopped: %w", path, ctx.Err())
	}
}

// modelError is an error of reading a model file that wraps ErrModel without
// repeating its text.
type modelError struct{ err error }

func (e modelError) Error() string   { return e.err.Error() }
func (e modelError) Unwrap() []error { return []error{e.err, ErrModel} }

// startsAsJSON returns a ReadOptions.Check that refuses a file whose first byte
// after white space cannot start a JSON value (the NUL bytes of /dev/zero): Decode
// reports anything else.
func startsAsJSON(path string) func([]byte) error {
	return func(b []byte) error {
		i := bytes.IndexFunc(b, func(r rune) bool { return !strings.ContainsRune(" \t\r\n", r) })
		if i < 0 || strings.IndexByte(`{["-0123456789tfn`, b[i]) >= 0 {
			return nil
		}
		line, col := position(b, int64(i+1))
		return fmt.Errorf("%s:%d:%d: %w: not JSON: it starts with byte %q", path, line, col, ErrModel, b[i])
	}
}

// Decode parses and validates a model file's bytes, checking its checksum; name
// stands for the file in errors.
func Decode(b []byte, name string) (*Model, error) {
	return DecodeOptions(b, name, ReadOptions{})
}

// DecodeOptions parses and validates a model file's bytes as opts say; name stands
// for the file in errors.
func DecodeOptions(b []byte, name string, opts ReadOptions) (*Model, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("model %s: %w: %s", name, ErrModel, fmt.Sprintf(format, args...))
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, jsonError(b, name, err)
	}
	rawFormat, ok := fields["format"]
	if !ok {
		return nil, fail("no \"format\" field: not an aucopt model file")
	}
	var format int
	if err := json.Unmarshal(rawFormat, &format); err != nil {
		return nil, fail("format %s is not a version number", rawFormat)
	}
	if format != Format {
		return nil, fail("model format %d, this aucopt reads %d", format, Format)
	}
	for _, k := range required {
		if _, ok := fields[k]; !ok {
			return nil, fail("no %q field", k)
		}
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&f); err != nil {
		return nil, jsonError(b, name, err)
	}
	m := &Model{Version: f.Version, Algo: f.Algo, Params: f.Params, Features: f.Features, Scaling: f.Scaling,
		Backend: f.Backend, TrainData: f.TrainData, TrainRows: f.TrainRows, TrainSHA256: f.TrainSHA256,
		Seed: f.Seed, TestAUC: math.NaN(), TestRows: f.TestRows, Table: f.Table, ZeroBased: f.ZeroBased, Notes: f.Notes,
		Calibration: f.Calibration, Vocabulary: f.Vocabulary, VocabularyRows: f.VocabRows, VocabularyTruncated: f.VocabTrunc}
	if f.TestAUC != nil {
		m.TestAUC = *f.TestAUC
	}
	if f.Features < 0 {
		return nil, fail("features %d is negative", f.Features)
	}
	if f.Features > math.MaxInt32 {
		return nil, fail("features %d: more than the %d aucopt's data can have", f.Features, math.MaxInt32)
	}
	if f.Bins != nil {
		m.Bins = &data.Bins{Dim: f.Features, Edges: f.Bins.Edges} // Validate checks them
	}
	var err error
	if m.Weights, m.held, err = decodeWeights(f.Weights, m.Width(), max(len(b), minDense)); err != nil {
		return nil, fail("%v", err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("model %s: %w", name, err)
	}
	if f.Checksum == nil {
		return m, nil // a file of an aucopt before checksums
	}
	m.Checksum = *f.Checksum
	if opts.IgnoreChecksum {
		return m, nil
	}
	got, err := m.Sum()
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", name, err)
	}
	if got != m.Checksum {
		return nil, fmt.Errorf("model %s: %w: %w: the file says %q, its content sums to %q (edited by hand or corrupted)",
			name, ErrModel, ErrChecksum, m.Checksum, got)
	}
	return m, nil
}

// minDense is the width up to which sparse weights are always made dense: 2²⁰
// weights, 8 MiB. Above it they are made dense only when the file has at least as
// many bytes as the model has weights (decodeWeights).
const minDense = 1 << 20

// decodeWeights reads the dense or sparse weights of a model of width dim. Sparse
// weights are returned dense when dim is at most dense (the file's size, or
// minDense): a dense array, or scaling vectors of one number per feature, prove that
// many numbers are there. Above it the file declares a width it does not prove (a
// 500-byte file declaring 2³¹ − 1 features), and the weights are returned held, as
// read: nothing proportional to dim is allocated.
func decodeWeights(raw json.RawMessage, dim, dense int) ([]float64, *sparse, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		var s sparse
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, nil, fmt.Errorf("weights: %v", err)
		}
		if len(s.Index) != len(s.Value) {
			return nil, nil, fmt.Errorf("weights: %d indices but %d values", len(s.Index), len(s.Value))
		}
		for k, j := range s.Index {
			if j < 1 || j > dim {
				return nil, nil, fmt.Errorf("weights: feature %d outside 1..%d", j, dim)
			}
			if k > 0 && j <= s.Index[k-1] {
				return nil, nil, fmt.Errorf("weights: feature %d after %d: indices not increasing", j, s.Index[k-1])
			}
		}
		if dim > dense {
			return nil, &s, nil
		}
		return s.upTo(dim), nil, nil
	}
	var w []float64
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, nil, fmt.Errorf("weights: not an array of numbers or {\"index\", \"value\"}: %v", err)
	}
	if w == nil {
		return nil, nil, fmt.Errorf("weights: null")
	}
	return w, nil, nil
}

// upTo returns the first n weights, dense.
func (s *sparse) upTo(n int) []float64 {
	w := make([]float64, n)
	for k, j := range s.Index {
		if j > n {
			break
		}
		w[j-1] = s.Value[k]
	}
	return w
}

// weightsUpTo returns the first n ≤ Width() weights, dense: Weights[:n], or made from
// the held sparse weights.
func (m *Model) weightsUpTo(n int) []float64 {
	if m.held != nil {
		return m.held.upTo(n)
	}
	return m.Weights[:n]
}

// values are the weights as stored: Weights, or the held sparse values.
func (m *Model) values() []float64 {
	if m.held != nil {
		return m.held.Value
	}
	return m.Weights
}

// NonZero is the number of non-zero weights.
func (m *Model) NonZero() int { return countNonZero(m.values()) }

// EachNonZero calls f with the 0-based index and the value of every non-zero weight,
// in increasing index, dense or held sparse.
func (m *Model) EachNonZero(f func(j int, w float64)) {
	if m.held != nil {
		for k, j := range m.held.Index {
			if v := m.held.Value[k]; v != 0 {
				f(j-1, v)
			}
		}
		return
	}
	for j, v := range m.Weights {
		if v != 0 {
			f(j, v)
		}
	}
}

// Narrow returns the model restricted to its first dim < Features features, and true,
// when the features past dim add nothing to the score of a row that does not have
// them: no bins and no table, scaling none or norm without centring (a feature at 0
// stays 0). Predict scores data with fewer features than the model this way, so that
// nothing of the model's declared width is allocated. Otherwise it returns nil and
// false: such data must be widened to the model's features (data.Dataset.Truncate).
func (m *Model) Narrow(dim int) (*Model, bool) {
	k := m.Scaling.Kind
	if dim < 0 || dim >= m.Features || m.Bins != nil || m.Table != nil || !(k == data.ScaleNone || k == data.ScaleNorm && m.Scaling.Mean == nil) {
		return nil, false
	}
	n := *m
	n.Features, n.Weights, n.held = dim, m.weightsUpTo(dim), nil
	return &n, true
}

// jsonError turns a JSON decoding error into one naming the file and the line:column.
func jsonError(b []byte, name string, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(b, syn.Offset)
		return fmt.Errorf("model %s:%d:%d: %w: not JSON: %v", name, line, col, ErrModel, syn)
	case errors.As(err, &typ):
		line, col := position(b, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "the file"
		}
		return fmt.Errorf("model %s:%d:%d: %w: %s: want %s, got JSON %s", name, line, col, ErrModel, field, typ.Type, typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		line, col := position(b, int64(len(b)))
		return fmt.Errorf("model %s:%d:%d: %w: not JSON: unexpected end of file", name, line, col, ErrModel)
	}
	return fmt.Errorf("model %s: %w: %v", name, ErrModel, err)
}

// position returns the 1-based line and column of byte offset off of b. The JSON
// decoder's offsets point just past the offending byte or value.
func position(b []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(b)))
	before := b[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, max(col, 1)
}

// Validate reports whether m can be applied: a known scaling whose vectors have one
// entry per feature, Features weights, all finite. Its errors wrap ErrModel.
func (m *Model) Validate() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrModel, fmt.Sprintf(format, args...))
	}
	if m.Algo == "" {
		return fail("no algorithm")
	}
	if _, err := solver.Lookup(m.Algo); err != nil {
		return fail("%v", err)
	}
	if b := m.Bins; b != nil {
		if b.Dim != m.Features {
			return fail("bins for %d features, the model has %d", b.Dim, m.Features)
		}
		if err := b.Check(); err != nil {
			return fail("%v", err)
		}
	}
	if m.held != nil {
		if m.Weights != nil {
			return fail("weights both dense and held sparse")
		}
	} else if len(m.Weights) != m.Width() {
		if m.Bins != nil {
			return fail("%d weights for %d features and their %d bin indicators", len(m.Weights), m.Features, m.Width()-m.Features)
		}
		return fail("%d weights for %d features", len(m.Weights), m.Features)
	}
	if t := m.Table; t != nil {
		if err := t.Validate(); err != nil {
			return fail("%v", err)
		}
		if t.Dim() != m.Features {
			return fail("the table schema makes %d features, the model has %d", t.Dim(), m.Features)
		}
	}
	if k := nonFinite(m.values()); k >= 0 {
		j := k
		if m.held != nil {
			j = m.held.Index[k] - 1
		}
		return fail("weight %d (feature %d) is %v", j, j+1, m.values()[k])
	}
	if m.Calibration != nil {
		if err := m.Calibration.Validate(); err != nil {
			return err
		}
	}
	for i, v := range m.Vocabulary {
		if m.Table == nil || len(m.Table.Categorical) == 0 {
			return fail("a vocabulary without hashed table columns")
		}
		if v.Feature < len(m.Table.Numeric) || v.Feature >= m.Features || v.Sign != 1 && v.Sign != -1 || v.Count < 1 || v.Term == "" {
			return fail("vocabulary term %d (%q, feature %d, sign %d, count %d): want a hashed bucket %d..%d, sign ±1, a count of at least 1",
				i+1, v.Term, v.Feature, v.Sign, v.Count, len(m.Table.Numeric), m.Features-1)
		}
	}
	var l1 float64
	for _, w := range m.values() {
		l1 += math.Abs(w)
	}
	if math.IsInf(l1, 0) {
		return fail("the weights' magnitudes sum to %v: scores of rows in [-1, 1] would overflow", l1)
	}
	s := m.Scaling
	vec := func(name string, v []float64) error {
		if len(v) != m.Features {
			return fail("scaling %s: %d %s values for %d features", s.Kind, len(v), name, m.Features)
		}
		if j := nonFinite(v); j >= 0 {
			return fail("scaling %s: %s of feature %d is %v", s.Kind, name, j+1, v[j])
		}
		return nil
	}
	switch s.Kind {
	case data.ScaleNone:
		if s.Scale != nil || s.Shift != nil || s.Mean != nil {
			return fail("scaling none has vectors")
		}
	case data.ScaleMinMax:
		if err := vec("scale", s.Scale); err != nil {
			return err
		}
		if err := vec("shift", s.Shift); err != nil {
			return err
		}
		if s.Mean != nil {
			return fail("scaling minmax has a mean")
		}
	case data.ScaleNorm:
		if s.Mean != nil {
			if err := vec("mean", s.Mean); err != nil {
				return err
			}
		}
		if s.Scale != nil || s.Shift != nil {
			return fail("scaling norm has scale or shift")
		}
	case data.ScaleMinMaxUnit:
		if err := vec("scale", s.Scale); err != nil {
			return err
		}
		if err := vec("shift", s.Shift); err != nil {
			return err
		}
		if err := vec("mean", s.Mean); err != nil {
			return err
		}
	default:
		return fail("unknown scaling %q (want %s)", s.Kind, strings.Join([]string{data.ScaleNone, data.ScaleMinMax, data.ScaleNorm, data.ScaleMinMaxUnit}, ", "))
	}
	return nil
}

// nonFinite returns the index of the first NaN or ±Inf of v, or −1.
func nonFinite(v []float64) int {
	return slices.IndexFunc(v, func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) })
}

// Transform returns ds as the model sees it: scaled as the training data was, then
// expanded by its bins. It returns an error wrapping ErrFeatureSpace when ds has
// another number of features than the model: more or fewer features most likely mean
// data of another feature space (an a9a model scoring german). To score such data
// anyway, with the extra features at weight 0 (LIBLINEAR's rule) or the missing ones
// at value 0 (a sparse file whose last features never occur), pass
// ds.Truncate(m.Features).
func (m *Model) Transform(ds *data.Dataset) (*data.Dataset, error) {
	if ds.Dim != m.Features {
		return nil, fmt.Errorf("%w: the data has %d features, the model %d (trained on %s)", ErrFeatureSpace, ds.Dim, m.Features, m.TrainData)
	}
	ds = m.Scaling.Data().Apply(ds)
	if m.Bins != nil {
		ds = m.Bins.Apply(ds)
	}
	return ds, nil
}

// Width is the number of weights: Features, and the bin indicators when the model
// expands its rows by Bins.
func (m *Model) Width() int {
	if m.Bins != nil {
		return m.Bins.OutDim()
	}
	return m.Features
}

// Score returns the model's score w·T(x) of every row of ds, T being the training
// scaling (Transform, whose errors it returns). A score that overflows to ±Inf or is
// NaN is an error wrapping ErrModel naming the row: the weights or the scaling are too
// large for the data.
func (m *Model) Score(ds *data.Dataset) ([]float64, error) {
	if m.Bins != nil {
		t, err := m.Transform(ds)
		if err != nil {
			return nil, err
		}
		return m.scoreRows(t, nil)
	}
	if ds.Dim != m.Features {
		_, err := m.Transform(ds) // its error
		return nil, err
	}
	// Each row scaled into scratch as Transform's copy holds it, the same scores bit
	// for bit, without a scaled copy of the rows (a caller's 10⁶ × 100 array: 763 MiB).
	return m.scoreRows(ds, m.Scaling.Data().RowMapper())
}

// ScoreRow returns the model's score w·T(x) of one row x of Features values (its
// dense form; data.NewCSR and Score score sparse rows), as Score scores it in a
// dataset: the same bits, the same errors.
func (m *Model) ScoreRow(x []float64) (float64, error) {
	if len(x) != m.Features {
		return 0, fmt.Errorf("%w: the row has %d values, the model %d features (trained on %s)", ErrFeatureSpace, len(x), m.Features, m.TrainData)
	}
	ds, err := data.NewDenseRows("", 1, len(x), x, false, nil, "")
	if err != nil {
		return 0, err
	}
	s, err := m.Score(ds)
	if err != nil {
		return 0, err
	}
	return s[0], nil
}

// scoreRows is Score's sum over the rows of t, each mapped by mapRow first when it is
// not nil (data.Scaling.RowMapper).
func (m *Model) scoreRows(t *data.Dataset, mapRow func(x kernels.Sparse, dim int, dense []float64, out kernels.Sparse) kernels.Sparse) ([]float64, error) {
	dense := make([]float64, t.Dim)
	var buf kernels.Sparse
	row := func(i int) kernels.Sparse {
		if mapRow == nil {
			return t.Row(i)
		}
		buf = mapRow(t.Row(i), t.Dim, dense, buf)
		return buf
	}
	w := m.Weights
	if m.held != nil {
		// The weights up to the rows' largest feature: the data proves that width.
		top := 0
		for i := range t.Rows() {
			if idx := row(i).Idx; len(idx) > 0 {
				top = max(top, int(idx[len(idx)-1])+1)
			}
		}
		w = m.weightsUpTo(top)
	}
	scores := make([]float64, t.Rows())
	for i := range scores {
		r := row(i)
		var s float64
		for k, j := range r.Idx {
			s += w[j] * r.Val[k]
		}
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("%w: the score of row %d is %v: weights or scaling too large for the data", ErrModel, i+1, s)
		}
		scores[i] = s
	}
	return scores, nil
}

// Probabilities returns the calibrated probability of the positive class for each
// score (Calibration.Prob), or nil when the model is not calibrated.
func (m *Model) Probabilities(scores []float64) []float64 {
	if m.Calibration == nil {
		return nil
	}
	p := make([]float64, len(scores))
	for i, s := range scores {
		p[i] = m.Calibration.Prob(s)
	}
	return p
}
