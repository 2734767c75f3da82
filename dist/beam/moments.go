package aucbeam

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/kernels"
)

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(*Acc), error](&momentsFn{})
	register.Emitter1[*Acc]()
	register.Combiner1[*Acc](&momentsCombine{})
	register.Function1x2(encodeAccLine)
	beam.RegisterCoder(reflect.TypeOf((*Acc)(nil)), encodeAcc, decodeAcc)
}

// accBackend is the backend of every Moments in a pipeline: the best host backend
// (backends.Host: avx2 where the CPU has it, else generic) with one worker (no
// goroutines to start or release; their tensors are host slices either way, so
// accumulators decoded anywhere merge). A program that links no backend (see package
// backends) cannot run a pipeline: that is its build's fault, not an input's, and the
// panic's value, backends.ErrNone, names the import to add.
func accBackend() kernels.Backend {
	b, err := backends.Host(1)
	if err != nil {
		panic(err)
	}
	return b
}

// Acc is the moments pipeline's accumulator: aucopt's ClassMoments (the Moments of each
// class and the features' ranges) of the rows seen, and the summary of each shard file
// they came from.
type Acc struct {
	CM    *stats.ClassMoments // nil before any file
	Files []FileLabels
}

// merge adds b to a (b is consumed) and returns a.
func (a *Acc) merge(b *Acc) *Acc {
	switch {
	case b == nil:
	case a.CM == nil:
		a.CM = b.CM
	case b.CM != nil:
		a.CM.Merge(b.CM)
	}
	if b != nil {
		a.Files = append(a.Files, b.Files...)
	}
	return a
}

// encodeAcc is Acc's Beam coder: the files as JSON, then the ClassMoments' binary form.
func encodeAcc(a *Acc) ([]byte, error) {
	files, err := json.Marshal(a.Files)
	if err != nil {
		return nil, err
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(files)))
	out = append(out, files...)
	if a.CM != nil {
		cm, err := a.CM.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out = append(out, cm...)
	}
	return out, nil
}

func decodeAcc(b []byte) (*Acc, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("aucbeam: accumulator of %d bytes", len(b))
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-8) {
		return nil, fmt.Errorf("aucbeam: accumulator header says %d bytes of %d", n, len(b)-8)
	}
	a := &Acc{}
	if err := json.Unmarshal(b[8:8+n], &a.Files); err != nil {
		return nil, fmt.Errorf("aucbeam: accumulator files: %w", err)
	}
	if rest := b[8+n:]; len(rest) > 0 {
		cm, err := stats.UnmarshalClassMoments(accBackend(), rest)
		if err != nil {
			return nil, err
		}
		a.CM = cm
	}
	return a, nil
}

// encodeAccLine writes the final accumulator as one line of base64 for textio.
func encodeAccLine(a *Acc) (string, error) {
	b, err := encodeAcc(a)
	return base64.StdEncoding.EncodeToString(b), err
}

// momentsFn reads one shard file into its class moments.
type momentsFn struct {
	Positive string
	Table    *data.TableOptions
}

// ProcessElement emits the file's accumulator; a malformed line fails the bundle with
// the *data.ParseError naming the file and line.
func (f *momentsFn) ProcessElement(ctx context.Context, rf fileio.ReadableFile, emit func(*Acc)) error {
	return markInput(f.process(ctx, rf, emit))
}

func (f *momentsFn) process(ctx context.Context, rf fileio.ReadableFile, emit func(*Acc)) error {
	rule, err := data.NewLabelRule(f.Positive)
	if err != nil {
		return err
	}
	var cm *stats.ClassMoments
	begin := func(sch *data.Schema) error {
		dim := 0 // LIBSVM: the largest index seen
		if sch != nil {
			// A table's width is its schema's (a shard need not reach its last feature).
			if dim = sch.Dim(); dim > maxMomentsDim {
				return inputErrorf("%s: %d features (%d numeric columns, %d hashed into 2^%d buckets): their moments are %d² numbers a class, more than the %d² the moments job takes (give fewer --hash-bits, or use --job grid)",
					rf.Metadata.Path, dim, len(sch.Numeric), len(sch.Categorical), sch.HashBits, dim, maxMomentsDim)
			}
		}
		cm = stats.NewClassMoments(accBackend(), dim)
		return nil
	}
	fl, err := readShard(ctx, rf, rule, f.Table, begin, func(y int8, _ float64, x kernels.Sparse) { cm.Add(y, x) })
	if err != nil {
		return err
	}
	emit(&Acc{CM: cm, Files: []FileLabels{fl}})
	return nil
}

// momentsCombine merges the files' accumulators (Moments.Merge: exact up to rounding,
// in whatever order the runner combines).
type momentsCombine struct{}

// CreateAccumulator returns an empty accumulator.
func (momentsCombine) CreateAccumulator() *Acc { return &Acc{} }

// AddInput merges a file's accumulator.
func (momentsCombine) AddInput(a, in *Acc) *Acc { return a.merge(in) }

// MergeAccumulators merges two partial results.
func (momentsCombine) MergeAccumulators(a, b *Acc) *Acc { return a.merge(b) }

// ExtractOutput returns the merged accumulator.
func (momentsCombine) ExtractOutput(a *Acc) *Acc { return a }

// ClassMoments adds to s the pipeline that reads the shards matching glob (any Beam
// filesystem; LIBSVM, or CSV, TSV or Parquet tables read with table) and combines their
// class moments into one *Acc.
func ClassMoments(s beam.Scope, glob, positive string, table *data.TableOptions) beam.PCollection {
	s = s.Scope("aucopt.ClassMoments")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob, fileio.MatchEmptyAllow()))
	accs := beam.ParDo(s, &momentsFn{Positive: positive, Table: table}, files)
	return beam.Combine(s, &momentsCombine{}, accs)
}

// MomentsConfig is one TrainMoments run.
type MomentsConfig struct {
	Data     string   // glob of LIBSVM shards (local, gs://, …)
	Algo     string   // ls-auc, or mba-l2/mba-l1/mba-el with pairs=all
	Params   []string // key=value over the algorithm's defaults
	Scale    string   // data.ScaleAuto (default), ScaleNone or ScaleMinMax: applied on the moments, exactly
	Positive string   // the positive label (one-vs-rest); "" for the binary conventions
	// Table says how CSV, TSV or Parquet shards' columns become the label and features,
	// as `aucopt train`'s table flags (nil: the defaults); every shard must give the
	// same schema, which the model records.
	Table *data.TableOptions
	Seed  uint64
	// TempDir is where the pipeline writes its result for the launcher (a directory on
	// a filesystem both reach; default a local temporary directory, for local runners).
	TempDir string
}

// TrainMoments runs the moments pipeline on the runner of the --runner flag (Beam's
// flags must be parsed: beam.Init after flag.Parse) and solves on the launcher: the
// same weights as `aucopt train --algo ALGO` on the concatenation of the shards, to
// rounding. The result's Seconds is the pipeline's and the solve's wall time.
func TrainMoments(ctx context.Context, cfg MomentsConfig) (*engine.TrainResult, error) {
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		return nil, err
	}
	params := spec.Params()
	if err := params.SetAll(cfg.Params); err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Algo, err)
	}
	if _, err := data.NewLabelRule(cfg.Positive); err != nil {
		return nil, err
	}
	// Fail before running the pipeline when the learner cannot use moments.
	method := engine.Method{Spec: spec, Points: []solver.Params{params}, DataDefaults: true}
	if err := method.CheckMoments(cfg.Scale); err != nil {
		return nil, err
	}
	dir, cleanup, err := tempDir(cfg.TempDir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	out := dir + "/moments.txt"
	start := time.Now()
	p, s := beam.NewPipelineWithRoot()
	textio.Write(s, out, beam.ParDo(s, encodeAccLine, ClassMoments(s, cfg.Data, cfg.Positive, cfg.Table)))
	if _, err := beamx.RunWithMetrics(ctx, p); err != nil {
		return nil, pipelineError(fmt.Sprintf("moments pipeline on %s", cfg.Data), err)
	}
	acc, err := readAcc(ctx, out)
	if err != nil {
		return nil, err
	}
	if err := checkLabels(acc.Files, cfg.Positive, cfg.Data); err != nil {
		return nil, err
	}
	res := &engine.TrainResult{Data: cfg.Data, Seed: cfg.Seed}
	res.TestAUC = nanAUC()
	set := engine.Settings{Backend: accBackend(), Scale: cfg.Scale, Seed: cfg.Seed}
	if _, err := engine.Run(ctx, engine.Problem{Moments: acc.CM, Info: res}, set, method); err != nil {
		return nil, fmt.Errorf("train %s on %s: %w", spec.Name, cfg.Data, err)
	}
	res.Schema = acc.Files[0].Schema // the same for all (checkLabels)
	res.Seconds = time.Since(start).Seconds()
	res.Notes = append(res.Notes, fmt.Sprintf("class moments of %d shards combined by Beam", len(acc.Files)))
	return res, nil
}

// readAcc reads the accumulator the pipeline wrote (no line: no shard).
func readAcc(ctx context.Context, path string) (*Acc, error) {
	b, err := readOutput(ctx, path)
	if err != nil {
		return nil, err
	}
	line := strings.TrimSpace(string(b))
	if line == "" {
		return &Acc{}, nil
	}
	if strings.Contains(line, "\n") {
		return nil, fmt.Errorf("%s: more than one accumulator", path)
	}
	raw, err := base64.StdEncoding.DecodeString(line)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return decodeAcc(raw)
}

// tempDir returns dir, or a new local temporary directory removed by cleanup.
func tempDir(dir string) (string, func(), error) {
	if dir != "" {
		return strings.TrimSuffix(dir, "/"), func() {}, nil
	}
	d, err := mkdirTemp()
	if err != nil {
		return "", nil, err
	}
	return filepath.ToSlash(d), func() { removeAll(d) }, nil
}
