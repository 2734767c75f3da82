package engine

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/internal/jobs"
	"github.com/aucopt/aucopt/kernels"
)

// Out-of-core training: a learner whose fit needs only the class moments
// (solver.MomentsLearner: ls-auc, MBA with pairs=all) trains from a data file of any
// size in memory independent of its rows, reading it once: the class moments
// (stats.ClassMoments) are accumulated by data.StreamRows, which cuts plain text into
// chunks parsed on every core and merged in file order (bit-identical whatever the
// number of workers) and reads anything else in order.

// defaultChunkBytes is the size of the chunks an uncompressed file is cut into for
// out-of-core accumulation (rounded down to whole lines).
const defaultChunkBytes = data.DefaultChunkBytes

// streamOptions control streamClassMoments.
type streamOptions struct {
	// Workers is the number of goroutines parsing chunks; ≤ 0 means GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// ChunkBytes is the chunk size; ≤ 0 means defaultChunkBytes. The result depends on
	// it (by rounding only): it fixes the shard layout.
	ChunkBytes int
	// Options are the reader's: Positive names the positive label; Dim fixes the
	// dimension. Raw is not allowed (the rows must be labelled ±1).
	Options data.Options
	// Guard, when set, is called before the accumulation grows to a dimension dim
	// above any it allowed before (a row with a larger feature index), with bytes the
	// memory the accumulators may then hold at once (accumulatorBytes of dim for each
	// of them); its error stops the stream before anything grows, and is returned
	// prefixed with the file and line of the row. It may be called from several
	// goroutines at once.
	Guard func(dim int, bytes float64) error
}

// accumulatorBytes bounds the memory of one accumulator of class moments
// (stats.ClassMoments) that has seen dim features: its capacity doubles as the
// dimension grows, so it is below 2·dim, and holds two classes' means and d×d
// scatters and two blocks of stats.ClassBlock densified rows (host and backend) per
// class, and while it grows the old moments beside the new ones (a quarter more).
func accumulatorBytes(dim int) float64 {
	c := 2 * float64(dim)
	return 1.25*2*8*(c*c+c) + 2*2*stats.ClassBlock*8*c + 3*8*c
}

// dimGuard calls a streamOptions.Guard once per new largest dimension, for the
// goroutines of one stream: allowed is the largest dimension the guard allowed.
type dimGuard struct {
	guard   func(dim int, bytes float64) error
	live    int // accumulators alive at once
	allowed atomic.Int64
}

// check returns the guard's error for a row whose largest 0-based index is top−1 at
// path:line, or nil.
func (g *dimGuard) check(x kernels.Sparse, path string, line int) error {
	n := len(x.Idx)
	if g == nil || g.guard == nil || n == 0 {
		return nil
	}
	top := int64(x.Idx[n-1]) + 1
	if top <= g.allowed.Load() {
		return nil
	}
	if err := g.guard(int(top), float64(g.live)*accumulatorBytes(int(top))); err != nil {
		return fmt.Errorf("%s:%d: %w", path, line, err)
	}
	for cur := g.allowed.Load(); top > cur && !g.allowed.CompareAndSwap(cur, top); cur = g.allowed.Load() {
	}
	return nil
}

// streamInfo describes a streamed file (data.StreamInfo).
type streamInfo = data.StreamInfo

// streamClassMoments reads the data file path once (LIBSVM text in parallel chunks, a
// table by streamTable) and returns its class moments on
// backend b (a CPU backend is used for the accumulation when b cannot be called from
// several goroutines). Labels follow data.Reader's rules over the whole file (a label
// that makes no binary problem with the earlier ones is an error naming its line); a
// malformed line gives the *data.ParseError of the file's first bad line, as reading it
// in one piece would.
func streamClassMoments(ctx context.Context, b kernels.Backend, path string, opts streamOptions) (*stats.ClassMoments, streamInfo, error) {
	var info streamInfo
	if opts.Options.Raw {
		return nil, info, fmt.Errorf("out-of-core: raw labels cannot be accumulated per class")
	}
	if _, err := data.NewLabelRule(opts.Options.Positive); err != nil && !data.IsTableFile(path, opts.Options) {
		return nil, info, inputError{err}
	}
	// The accumulation runs on one-worker CPU backends (one per goroutine): tensors of
	// a CPU backend's kind mix, and a single worker keeps each result independent of
	// how the cores are shared.
	acc, release, err := accBackend(b)
	if err != nil {
		return nil, info, err
	}
	defer release()
	var guard *dimGuard
	return data.StreamRows(ctx, path, opts.Options, data.StreamConfig{Workers: opts.Workers, ChunkBytes: opts.ChunkBytes},
		data.Accumulator[*stats.ClassMoments]{
			Begin: func(plan data.StreamPlan) error {
				guard = &dimGuard{guard: opts.Guard, live: plan.Live}
				if plan.Dim > 0 && opts.Guard != nil {
					// A table's dimension is its schema's, known before the first row: the
					// guard sees it once, before anything is sized by it.
					return opts.Guard(plan.Dim, float64(plan.Live)*accumulatorBytes(plan.Dim))
				}
				return nil
			},
			New: func(dim int) *stats.ClassMoments { return stats.NewClassMoments(acc, dim) },
			Add: func(cm *stats.ClassMoments, y int8, x kernels.Sparse, line int) error {
				if err := guard.check(x, path, line); err != nil {
					return err
				}
				cm.Add(y, x)
				return nil
			},
			Merge: func(total, next *stats.ClassMoments) { total.Merge(next) },
		})
}

// accBackend returns a one-worker CPU backend for accumulation, and its release: b's
// own with one worker where b can split and is safe for concurrent use, else the best
// host backend's (backends.Host).
func accBackend(b kernels.Backend) (kernels.Backend, func(), error) {
	if !jobs.ConcurrentSafe(b) {
		b = nil
	}
	if s, ok := b.(kernels.Splitter); ok {
		jb := s.WithWorkers(1)
		return jb, func() { _ = jb.Close() }, nil
	}
	cpu, err := backends.Host(1)
	if err != nil {
		return nil, nil, err
	}
	return cpu, func() { _ = cpu.Close() }, nil
}

// trainOutOfCore is Train for TrainConfig.OutOfCore: the class moments streamed from
// cfg.Data, then Run on them (Problem.Moments).
func trainOutOfCore(ctx context.Context, spec solver.Spec, params solver.Params, cfg TrainConfig, res *TrainResult) (*TrainResult, error) {
	method := Method{Spec: spec, Points: []solver.Params{params}, DataDefaults: true}
	if err := method.CheckMoments(cfg.Scale); err != nil {
		return nil, err
	}
	if ff, err := data.DetectFile(cfg.Data); err != nil || !ff.Passes() {
		return nil, fault.Settingf("{OutOfCore} reads a data file; %q is not one", cfg.Data)
	}
	if cfg.Shuffle {
		return nil, fault.Settingf("{OutOfCore} reads the file in its order; {Shuffle} does not apply (the moments do not depend on the order)")
	}
	if cfg.Checkpoint != "" {
		return nil, fault.Settingf("{OutOfCore} fits from one pass of class moments; {Checkpoint} does not apply")
	}
	in := cfg.readOptions()
	b, release, err := openBackendFor(cfg.Backend, workShape{})
	if err != nil {
		return nil, err
	}
	defer release()
	start := time.Now()
	limit := memoryLimit(cfg.MaxMemory)
	// The guard runs before the accumulators grow to a new dimension: the streamed
	// moments, and the fit to come, must fit at every dimension the file reaches.
	guard := func(dim int, bytes float64) error {
		return checkMemory(spec, max(bytes, momentsFitBytes(spec, params, dim, 0)),
			featuresOf(dim)+" out of core (the class moments of the chunks streamed at once, then the fit)", dim, 0, limit)
	}
	cm, info, err := streamClassMoments(ctx, b, cfg.Data, streamOptions{Guard: guard, Options: in})
	if err != nil {
		return nil, err
	}
	p, n := cm.Counts()
	need := momentsFitBytes(spec, params, cm.Dim(), int(p+n))
	if err := checkMemory(spec, need, featuresOf(cm.Dim()), cm.Dim(), int(p+n), limit); err != nil {
		return nil, err
	}
	if _, err := Run(ctx, Problem{Moments: cm, Info: res}, Settings{Backend: b, Scale: cfg.Scale, Seed: cfg.Seed}, method); err != nil {
		return nil, fmt.Errorf("train %s on %s: %w", spec.Name, cfg.Data, err)
	}
	res.TrainSHA256, res.Schema = info.SHA256, info.Schema
	if cfg.Indices == data.IndexZero && info.Schema == nil {
		res.indices = data.IndexZero
	}
	res.Seconds = time.Since(start).Seconds()
	res.Notes = append(res.Notes, fmt.Sprintf("out of core: %d chunks of the file streamed once and merged in order", info.Chunks))
	if cfg.Test != "" {
		in.Indices = max(in.Indices, data.IndexOne)
		test, err := loadTestLayout(ctx, cfg.Test, cfg.Seed, data.LayoutSparse, testOptions(in, info.Schema))
		if err != nil {
			return nil, err
		}
		if err := res.scoreTest(test, cfg.AllowExtraFeatures); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// momentsFitBytes is the memory of a fit from class moments of dim features: the two
// classes' d×d scatters and the system and its factor, whatever the learner's
// in-memory state (ls-auc above solver.LSAUCDirectMax features solves from the rows,
// in O(d) memory, in memory).
func momentsFitBytes(spec solver.Spec, params solver.Params, dim, rows int) float64 {
	d := float64(dim)
	return max(spec.StateBytes(dim, rows, params), 8*4*d*d)
}

// CheckMoments reports whether m, of one point, trains from class moments alone
// (Problem.Moments) and the scaling kind can be applied to them; the error, wrapping
// ErrInput, says what to change. A caller that accumulates the moments itself (Beam's
// pipeline) checks before it does; Run checks again.
func (m Method) CheckMoments(kind string) error {
	spec := m.Spec
	if len(m.Points) != 1 {
		return fmt.Errorf("%s: a fit from class moments takes one point, not %d", spec.Name, len(m.Points))
	}
	params := m.Points[0]
	if !spec.IsBatch() {
		return fault.Settingf("out of core: %s is an online algorithm; it streams its file from disk already ({Shuffle}=false {Scale} none)", spec.Name)
	}
	if kind != "" && kind != data.ScaleAuto && kind != data.ScaleNone && kind != data.ScaleMinMax {
		return fault.Settingf("out of core: {Scale} %s needs a pass over the data before training; use none, minmax or auto", kind)
	}
	b, err := backends.Host(1) // one worker: no goroutines to release
	if err != nil {
		return err
	}
	defer b.Close()
	learner, err := spec.NewBatch(b, 1, params, 0)
	if err != nil {
		return err
	}
	if ml, ok := learner.(solver.MomentsLearner); !ok || !ml.MomentsOnly() {
		hint := ""
		switch learner.(type) {
		case *solver.MBA:
			hint = " (set -p pairs=all)"
		case *solver.LSAUC:
			hint = " (early stopping, -p steps, runs on the rows; steps=0 is the exact minimiser)"
		}
		return inputErrorf("out of core: %s needs the rows, not only the class moments%s; the learners that do not: ls-auc, mba-l2/mba-l1/mba-el with pairs=all", spec.Name, hint)
	}
	return nil
}

// fitClassMoments trains spec (with params, made by spec.Params) from class moments
// accumulated anywhere (streamed from a file, merged from shards; Problem.Moments): it applies
// the scaling kind exactly on the moments (data.ScaleAuto: min-max to [−1, 1] for at most
// data.AutoScaleMaxDim features, else none; ScaleMinMax; ScaleNone) and fits the learner,
// which must be a solver.MomentsLearner that needs only the moments. With dataDefaults
// the parameters are remade after scaling as Train makes them: the defaults scaled to
// the moments' data facts (solver.Spec.DataParams), with the keys set in params kept;
// without, params are used as given. It fills
// res's Algo, Params, Notes, Backend, TrainRows, Features, Scale, Scaling and Weights.
func fitClassMoments(ctx context.Context, b kernels.Backend, spec solver.Spec, params solver.Params, dataDefaults bool, cm *stats.ClassMoments, kind string, res *TrainResult) error {
	res.Algo, res.Params, res.Backend = spec.Name, params.Values(), b.Name()
	p, n := cm.Counts()
	res.TrainRows, res.Features = int(p+n), cm.Dim()
	pos, neg := cm.Classes()
	kind, err := data.ResolveScale(kind, cm.Dim(), false)
	if err != nil {
		return inputError{err}
	}
	res.Scale = kind
	res.Scaling = &data.Scaling{Kind: kind}
	if kind == data.ScaleMinMax {
		s := minMaxScaler(cm, -1, 1)
		res.Scaling.MinMax = s
		pos.Affine(s.Scale, s.Shift)
		neg.Affine(s.Scale, s.Shift)
	}
	if dataDefaults && spec.Defaults != nil {
		var err error
		if params, err = scaledParams(spec, momentFacts(pos, neg), res, params); err != nil {
			return err
		}
	}
	learner, err := spec.NewBatch(b, max(cm.Dim(), 1), params, res.Seed)
	if err != nil {
		return err
	}
	if err := learner.(solver.MomentsLearner).FitMoments(ctx, pos, neg); err != nil {
		return err
	}
	res.Weights = learner.Weights()
	return nil
}

// minMaxScaler is data.FitMinMax from the streamed per-feature ranges.
func minMaxScaler(cm *stats.ClassMoments, lo, hi float64) *data.Scaler {
	mins, maxs := cm.Ranges()
	s := &data.Scaler{Scale: make([]float64, len(mins)), Shift: make([]float64, len(mins))}
	for j := range mins {
		if !(maxs[j] > mins[j]) {
			continue
		}
		s.Scale[j] = (hi - lo) / (maxs[j] - mins[j])
		s.Shift[j] = lo - mins[j]*s.Scale[j]
	}
	return s
}
