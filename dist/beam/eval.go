package aucbeam

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/kernels"
)

func init() {
	register.DoFn4x1[context.Context, fileio.ReadableFile, func(int64, Counts), func(string), error](&scoreFn{})
	register.Emitter2[int64, Counts]()
	register.Emitter1[string]()
	register.Function2x1(addCounts)
	register.Function2x1(formatCounts)
	beam.RegisterType(reflectTypeOf[Counts]())
}

// Counts are the positives and negatives that share one score.
type Counts struct {
	Pos, Neg int64
}

func addCounts(a, b Counts) Counts { return Counts{a.Pos + b.Pos, a.Neg + b.Neg} }

// scoreKey is the key of a score: its bits (Beam hashes integer keys, not floats),
// with −0 taken as +0 since they rank equal.
func scoreKey(s float64) int64 {
	if s == 0 {
		s = 0
	}
	return int64(math.Float64bits(s))
}

// formatCounts writes one distinct score (its exact bits) and its counts.
func formatCounts(key int64, c Counts) string {
	return fmt.Sprintf("%016x %d %d", uint64(key), c.Pos, c.Neg)
}

// scoreFn scores one test shard with a model, as `aucopt eval` scores rows (the model's
// scaling, then w·x), and emits each distinct score with its class counts, and the
// shard's summary (JSON) on the second output.
type scoreFn struct {
	Model    []byte // the model file's JSON
	Positive string
}

// ProcessElement reads and scores one shard.
func (f *scoreFn) ProcessElement(ctx context.Context, rf fileio.ReadableFile, emit func(int64, Counts), summary func(string)) error {
	return markInput(f.process(ctx, rf, emit, summary))
}

func (f *scoreFn) process(ctx context.Context, rf fileio.ReadableFile, emit func(int64, Counts), summary func(string)) error {
	m, err := model.Decode(f.Model, "model")
	if err != nil {
		return err
	}
	rule, err := data.NewLabelRule(f.Positive)
	if err != nil {
		return err
	}
	var table *data.TableOptions
	if m.Table != nil {
		table = &data.TableOptions{Schema: m.Table} // a table shard is read as the model's training table
	}
	ds := &data.Dataset{Name: rf.Metadata.Path}
	fl, err := readShard(ctx, rf, rule, table, nil, func(y int8, label float64, x kernels.Sparse) { ds.Append(y, label, x) })
	if err != nil {
		return err
	}
	fl.Dim = ds.Dim
	if ds.Dim > m.Features {
		return fmt.Errorf("scoring %s: %w: the data has at least %d features, the model %d", rf.Metadata.Path, model.ErrFeatureSpace, ds.Dim, m.Features)
	}
	// A shard need not reach the last feature; the launcher checks that the shards
	// together have the model's features, as the concatenation would.
	ds.Dim = m.Features
	if ds.Rows() > 0 {
		scores, err := m.Score(ds)
		if err != nil {
			return fmt.Errorf("scoring %s: %w", rf.Metadata.Path, err)
		}
		counts := map[int64]Counts{}
		for i, s := range scores {
			if math.IsNaN(s) {
				return fmt.Errorf("%s: row %d scores NaN", rf.Metadata.Path, i+1)
			}
			k := scoreKey(s)
			c := counts[k]
			if ds.Y[i] == 1 {
				c.Pos++
			} else {
				c.Neg++
			}
			counts[k] = c
		}
		for s, c := range counts {
			emit(s, c)
		}
	}
	b, err := json.Marshal(fl)
	if err != nil {
		return err
	}
	summary(string(b))
	return nil
}

// ScoreCounts adds to s the pipeline that scores the shards matching glob (LIBSVM, or
// tables read with the model's schema) with
// the model (its JSON) and merges the counts of positives and negatives per distinct
// score; the second collection holds each shard's summary (FileLabels as JSON).
func ScoreCounts(s beam.Scope, glob string, modelJSON []byte, positive string) (counts, files beam.PCollection) {
	s = s.Scope("aucopt.ScoreCounts")
	matched := fileio.ReadMatches(s, fileio.MatchFiles(s, glob, fileio.MatchEmptyAllow()))
	kv, files := beam.ParDo2(s, &scoreFn{Model: modelJSON, Positive: positive}, matched)
	return beam.CombinePerKey(s, addCounts, kv), files
}

// EvalConfig is one Eval run.
type EvalConfig struct {
	Model    *model.Model
	Data     string // glob of labelled LIBSVM test shards
	Positive string
	TempDir  string // see MomentsConfig.TempDir
}

// EvalResult is the exact AUC of a model on the shards.
type EvalResult struct {
	AUC       float64 `json:"auc"`
	Rows      int64   `json:"rows"`
	Positives int64   `json:"positives"`
	Negatives int64   `json:"negatives"`
	Scores    int     `json:"distinct_scores"`
	Shards    int     `json:"shards"`
	Seconds   float64 `json:"seconds"`
}

// Eval runs the scoring pipeline and computes the exact AUC on the launcher from the
// merged counts: the number of correctly ordered positive–negative pairs, ties counting
// half, as an integer, over n₊·n₋ — the same arithmetic as metric.AUC, so the same
// float64 as `aucopt eval` on the concatenated shards.
func Eval(ctx context.Context, cfg EvalConfig) (*EvalResult, error) {
	if cfg.Model == nil {
		return nil, fmt.Errorf("eval: no model")
	}
	mj, err := json.Marshal(cfg.Model)
	if err != nil {
		return nil, err
	}
	if _, err := data.NewLabelRule(cfg.Positive); err != nil {
		return nil, err
	}
	if t := cfg.Model.Table; t != nil && cfg.Positive != "" && cfg.Positive != t.Positive {
		return nil, inputErrorf("eval: the model was trained on a table with positive label %q: --positive %s cannot change it", t.Positive, cfg.Positive)
	}
	dir, cleanup, err := tempDir(cfg.TempDir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	countsOut, filesOut := dir+"/counts.txt", dir+"/shards.txt"
	start := time.Now()
	p, s := beam.NewPipelineWithRoot()
	counts, files := ScoreCounts(s, cfg.Data, mj, cfg.Positive)
	textio.Write(s, countsOut, beam.ParDo(s, formatCounts, counts))
	textio.Write(s, filesOut, files)
	if _, err := beamx.RunWithMetrics(ctx, p); err != nil {
		return nil, pipelineError(fmt.Sprintf("eval pipeline on %s", cfg.Data), err)
	}
	shards, err := readJSONLines[FileLabels](ctx, filesOut)
	if err != nil {
		return nil, err
	}
	if err := checkLabels(shards, cfg.Positive, cfg.Data); err != nil {
		return nil, err
	}
	dim := 0
	for _, fl := range shards {
		dim = max(dim, fl.Dim)
	}
	if dim != cfg.Model.Features {
		return nil, fmt.Errorf("scoring %s: %w: the data has %d features, the model %d (trained on %s)",
			cfg.Data, model.ErrFeatureSpace, dim, cfg.Model.Features, cfg.Model.TrainData)
	}
	cb, err := readOutput(ctx, countsOut)
	if err != nil {
		return nil, err
	}
	groups, err := parseCounts(string(cb))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", countsOut, err)
	}
	res, err := aucFromCounts(groups)
	if err != nil {
		return nil, err
	}
	res.Shards, res.Seconds = len(shards), time.Since(start).Seconds()
	return res, nil
}

// scoreCount is one distinct score's counts.
type scoreCount struct {
	score float64
	Counts
}

func parseCounts(text string) ([]scoreCount, error) {
	var out []scoreCount
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("bad line %q", line)
		}
		bits, err1 := strconv.ParseUint(f[0], 16, 64)
		p, err2 := strconv.ParseInt(f[1], 10, 64)
		n, err3 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("bad line %q", line)
		}
		out = append(out, scoreCount{math.Float64frombits(bits), Counts{p, n}})
	}
	return out, nil
}

// aucFromCounts is metric.AUC from per-score counts (scores equal as numbers, −0 and
// +0 included, are one group).
func aucFromCounts(groups []scoreCount) (*EvalResult, error) {
	slices.SortFunc(groups, func(a, b scoreCount) int {
		switch {
		case a.score < b.score:
			return -1
		case a.score > b.score:
			return 1
		}
		return 0
	})
	res := &EvalResult{}
	var twice, below int64 // below: negatives with a lower score
	for i := 0; i < len(groups); {
		var c Counts
		j := i
		for ; j < len(groups) && groups[j].score == groups[i].score; j++ {
			c = addCounts(c, groups[j].Counts)
		}
		twice += c.Pos * (2*below + c.Neg)
		below += c.Neg
		res.Positives += c.Pos
		res.Negatives += c.Neg
		res.Scores++
		i = j
	}
	res.Rows = res.Positives + res.Negatives
	if res.Positives == 0 || res.Negatives == 0 {
		return nil, fmt.Errorf("%w (%d positives, %d negatives)", metric.ErrOneClass, res.Positives, res.Negatives)
	}
	res.AUC = float64(twice) / (2 * float64(res.Positives) * float64(res.Negatives))
	return res, nil
}
