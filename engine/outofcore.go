package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// Out-of-core training: a learner whose fit needs only the class moments
// (solver.MomentsLearner: ls-auc, MBA with pairs=all) trains from a LIBSVM file of any
// size in memory independent of its rows, reading it once. An uncompressed file is cut
// into chunks of whole lines (DefaultChunkBytes each: the layout depends on the file
// alone), parsed and accumulated (stats.ClassMoments) by one goroutine per core, and
// the chunks' moments are merged in file order, so the result is bit-identical
// whatever the number of workers. A compressed file (or a binary cache) is streamed by
// one goroutine.

// DefaultChunkBytes is the size of the chunks an uncompressed file is cut into for
// out-of-core accumulation (rounded down to whole lines).
const DefaultChunkBytes = 8 << 20

// StreamOptions control StreamClassMoments.
type StreamOptions struct {
	// Workers is the number of goroutines parsing chunks; ≤ 0 means GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// ChunkBytes is the chunk size; ≤ 0 means DefaultChunkBytes. The result depends on
	// it (by rounding only): it fixes the shard layout.
	ChunkBytes int
	// Options are the reader's: Positive names the positive label; Dim fixes the
	// dimension. Raw is not allowed (the rows must be labelled ±1).
	Options data.Options
	// Guard, when set, is called before the accumulation grows to a dimension dim
	// above any it allowed before (a row with a larger feature index), with bytes the
	// memory the accumulators may then hold at once (AccumulatorBytes of dim for each
	// of them); its error stops the stream before anything grows, and is returned
	// prefixed with the file and line of the row. It may be called from several
	// goroutines at once.
	Guard func(dim int, bytes float64) error
}

// AccumulatorBytes bounds the memory of one accumulator of class moments
// (stats.ClassMoments) that has seen dim features: its capacity doubles as the
// dimension grows, so it is below 2·dim, and holds two classes' means and d×d
// scatters and two blocks of stats.ClassBlock densified rows (host and backend) per
// class, and while it grows the old moments beside the new ones (a quarter more).
func AccumulatorBytes(dim int) float64 {
	c := 2 * float64(dim)
	return 1.25*2*8*(c*c+c) + 2*2*stats.ClassBlock*8*c + 3*8*c
}

// dimGuard calls a StreamOptions.Guard once per new largest dimension, for the
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
	if err := g.guard(int(top), float64(g.live)*AccumulatorBytes(int(top))); err != nil {
		return fmt.Errorf("%s:%d: %w", path, line, err)
	}
	for cur := g.allowed.Load(); top > cur && !g.allowed.CompareAndSwap(cur, top); cur = g.allowed.Load() {
	}
	return nil
}

// StreamInfo describes a streamed file.
type StreamInfo struct {
	Rows   int64  // examples read
	Chunks int    // chunks the file was cut into (1 for a compressed one)
	SHA256 string // of the file as stored
	Bytes  int64  // bytes of the file as stored
	// Schema is the table schema a CSV, TSV or Parquet file was read with (nil for
	// LIBSVM text or a cache).
	Schema *data.Schema
}

// StreamClassMoments reads the data file path once (LIBSVM text in parallel chunks, a
// table by streamTable) and returns its class moments on
// backend b (a CPU backend is used for the accumulation when b cannot be called from
// several goroutines). Labels follow data.Reader's rules over the whole file (a label
// that makes no binary problem with the earlier ones is an error naming its line); a
// malformed line gives the *data.ParseError of the file's first bad line, as reading it
// in one piece would.
func StreamClassMoments(ctx context.Context, b kernels.Backend, path string, opts StreamOptions) (*stats.ClassMoments, StreamInfo, error) {
	var info StreamInfo
	if opts.Options.Raw {
		return nil, info, fmt.Errorf("out-of-core: raw labels cannot be accumulated per class")
	}
	if data.IsTableFile(path, opts.Options) {
		acc, release := accBackend(b)
		defer release()
		return streamTable(ctx, acc, path, opts, &info)
	}
	var pos float64
	if p := opts.Options.Positive; p != "" {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(v) {
			return nil, info, inputErrorf("positive label %q is not a number", p)
		}
		pos = v
	}
	ff, err := data.DetectFile(path)
	if err != nil {
		return nil, info, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, info, err
	}
	defer f.Close()
	// The accumulation runs on one-worker CPU backends (one per goroutine): tensors of
	// a CPU backend's kind mix, and a single worker keeps each result independent of
	// how the cores are shared.
	acc, release := accBackend(b)
	defer release()
	h := sha256.New()
	lab := labeler{path: path, opts: opts.Options, pos: pos}
	var total *stats.ClassMoments
	if ff.Compression != "" || ff.Format.Name == data.FormatCache {
		guard := &dimGuard{guard: opts.Guard, live: 1}
		total, err = streamSequential(ctx, acc, io.TeeReader(f, h), path, opts, &lab, &info, guard)
	} else {
		// The chunks being parsed or waiting to be merged (at most workers + 2, the
		// buffers in flight, and at most the file's chunks) and the merged total.
		live := streamWorkers(opts) + 2
		if st, err := f.Stat(); err == nil {
			live = int(min(int64(live), st.Size()/int64(chunkBytes(opts))+1))
		}
		guard := &dimGuard{guard: opts.Guard, live: live + 1}
		total, err = streamChunks(ctx, acc, f, h, path, opts, &lab, &info, guard)
	}
	if err != nil {
		return nil, info, err
	}
	if info.Rows == 0 {
		return nil, info, fmt.Errorf("%s: no examples", path) // as data.ReadFile says
	}
	info.SHA256 = hex.EncodeToString(h.Sum(nil))
	return total, info, nil
}

// accBackend returns a one-worker CPU backend for accumulation, and its release.
func accBackend(b kernels.Backend) (kernels.Backend, func()) {
	if !concurrentSafe(b) {
		b = nil
	}
	if s, ok := b.(kernels.Splitter); ok {
		jb := s.WithWorkers(1)
		return jb, func() { _ = jb.Close() }
	}
	cpu := cpuBackend()
	if s, ok := cpu.(kernels.Splitter); ok {
		jb := s.WithWorkers(1)
		_ = cpu.Close()
		return jb, func() { _ = jb.Close() }
	}
	return cpu, func() { _ = cpu.Close() }
}

// streamSequential accumulates a compressed file (or cache) read by one data.Reader.
func streamSequential(ctx context.Context, b kernels.Backend, r io.Reader, path string, opts StreamOptions,
	lab *labeler, info *StreamInfo, guard *dimGuard) (*stats.ClassMoments, error) {
	ropts := opts.Options
	ropts.Raw = true
	rd, err := data.NewReader(r, path, ropts)
	if err != nil {
		return nil, err
	}
	total := stats.NewClassMoments(b, ropts.Dim)
	var seen LabelSet
	for {
		if info.Rows%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		ex, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		y := ex.Y // a cache's rows are labelled ±1 already
		if y == 0 {
			if err := lab.check(&seen, ex.Label, ex.Line); err != nil {
				return nil, err
			}
			y = lab.y(ex.Label)
		}
		if err := guard.check(ex.X, path, ex.Line); err != nil {
			return nil, err
		}
		total.Add(y, ex.X)
		info.Rows++
	}
	info.Chunks = 1
	if st, err := os.Stat(path); err == nil {
		info.Bytes = st.Size()
	}
	return total, nil
}

// streamTable accumulates a CSV, TSV or Parquet table read row by row by a
// data.Reader (data.Open: the kinds of its columns from the whole file first, then its
// rows in order, so that no row of a chunk is taken for a header), its labels mapped
// by the table's rules (--label, --positive), on one core; then its fingerprint.
func streamTable(ctx context.Context, b kernels.Backend, path string, opts StreamOptions, info *StreamInfo) (*stats.ClassMoments, StreamInfo, error) {
	in := opts.Options
	in.Context = ctx
	rd, err := data.Open(path, in)
	if err != nil {
		return nil, *info, err
	}
	defer rd.Close()
	// A table's dimension is its schema's, known before the first row: the guard
	// sees it once, before anything is sized by it.
	if dim := rd.MaxIndex(); opts.Guard != nil {
		if err := opts.Guard(dim, AccumulatorBytes(dim)); err != nil {
			return nil, *info, fmt.Errorf("%s: %w", path, err)
		}
	}
	total := stats.NewClassMoments(b, rd.MaxIndex())
	for {
		if info.Rows%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, *info, err
			}
		}
		ex, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, *info, err
		}
		total.Add(ex.Y, ex.X)
		info.Rows++
	}
	if info.Rows == 0 {
		return nil, *info, fmt.Errorf("%s: %w", path, data.ErrEmpty)
	}
	info.Chunks, info.Schema = 1, rd.Schema()
	if st, err := os.Stat(path); err == nil {
		info.Bytes = st.Size()
	}
	if info.SHA256, err = data.Fingerprint(path); err != nil {
		return nil, *info, err
	}
	return total, *info, nil
}

// chunk is a piece of whole lines of the file and, once parsed, its moments.
type chunk struct {
	idx       int
	buf       []byte // "\n" then the lines: the leading newline keeps a chunk's first bytes from being taken for a compression magic
	firstLine int    // the file's line number of the chunk's first line
	lines     int    // newlines in the chunk
	cm        *stats.ClassMoments
	seen      LabelSet
	rows      int64
	err       error // the chunk's first parse error, with the file's line number
}

// streamChunks cuts the file into chunks of whole lines, parses them on workers and
// merges their moments in file order.
func streamChunks(ctx context.Context, b kernels.Backend, f io.Reader, h hash.Hash, path string, opts StreamOptions,
	lab *labeler, info *StreamInfo, guard *dimGuard) (*stats.ClassMoments, error) {
	workers := streamWorkers(opts)
	size := chunkBytes(opts)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// tokens bound the chunks alive at once (read, parsed or waiting to be merged).
	tokens := make(chan []byte, workers+2)
	for range workers + 2 {
		tokens <- make([]byte, 0, size+1)
	}
	todo := make(chan *chunk, workers)
	done := make(chan *chunk, workers+2)
	readErr := make(chan error, 1)
	var wg sync.WaitGroup
	// The reader: whole lines, the partial last one carried to the next chunk.
	wg.Go(func() {
		defer close(todo)
		var carry []byte
		line := 1
		for idx := 0; ; idx++ {
			var buf []byte
			select {
			case buf = <-tokens:
			case <-ctx.Done():
				return
			}
			buf = append(buf[:0], '\n')
			buf = append(buf, carry...)
			eof := false
			limit := size + 1
			for !eof {
				if len(buf) >= limit {
					// A chunk ends at a newline: read on while the chunk holds none (one
					// line longer than a chunk), up to what the parser rejects anyway.
					if bytes.IndexByte(buf[1:], '\n') >= 0 || len(buf) > size+data.MaxLineBytes+1 {
						break
					}
					limit = len(buf) + size
				}
				if cap(buf) < limit {
					buf = append(make([]byte, 0, limit), buf...)
				}
				n, err := f.Read(buf[len(buf):limit])
				if n > 0 {
					h.Write(buf[len(buf) : len(buf)+n])
					info.Bytes += int64(n)
				}
				buf = buf[:len(buf)+n]
				if err == io.EOF {
					eof = true
				} else if err != nil {
					readErr <- fmt.Errorf("%s: after line %d: %w", path, line, err)
					return
				}
			}
			carry = carry[:0]
			if !eof {
				if cut := bytes.LastIndexByte(buf[1:], '\n'); cut >= 0 {
					carry = append(carry, buf[cut+2:]...)
					buf = buf[:cut+2]
				}
			}
			if len(buf) == 1 && eof {
				tokens <- buf
				return
			}
			c := &chunk{idx: idx, buf: buf, firstLine: line}
			c.lines = bytes.Count(buf[1:], []byte{'\n'})
			line += c.lines
			select {
			case todo <- c:
			case <-ctx.Done():
				return
			}
			if eof {
				return
			}
		}
	})
	for range workers {
		wg.Go(func() {
			for c := range todo {
				parseChunk(ctx, b, c, path, opts, lab, guard)
				select {
				case done <- c:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	total := stats.NewClassMoments(b, opts.Options.Dim)
	var seen LabelSet
	pending := map[int]*chunk{}
	next := 0
	var err error
	for c := range done {
		if err != nil {
			continue // drain
		}
		pending[c.idx] = c
		for p := pending[next]; p != nil && err == nil; p = pending[next] {
			delete(pending, next)
			next++
			// The file's labels in order: the chunk's first occurrences, then its error.
			for _, l := range p.seen.Labels {
				if err = lab.check(&seen, l.Label, l.Line); err != nil {
					break
				}
			}
			if err == nil {
				err = p.err
			}
			if err == nil {
				total.Merge(p.cm)
				info.Rows += p.rows
			}
			p.cm = nil
			tokens <- p.buf
		}
		if err != nil {
			cancel()
		}
	}
	if err == nil {
		select {
		case err = <-readErr:
		default:
			err = ctx.Err()
		}
	}
	if err != nil {
		return nil, err
	}
	info.Chunks = next
	return total, nil
}

// chunkBytes is the size of the chunks a file is cut into.
func chunkBytes(opts StreamOptions) int {
	if opts.ChunkBytes > 0 {
		return opts.ChunkBytes
	}
	return DefaultChunkBytes
}

// streamWorkers is the number of goroutines parsing chunks.
func streamWorkers(opts StreamOptions) int {
	if opts.Workers > 0 {
		return opts.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// parseChunk parses c's lines into c.cm, c.seen and c.rows, or sets c.err.
func parseChunk(ctx context.Context, b kernels.Backend, c *chunk, path string, opts StreamOptions, lab *labeler, guard *dimGuard) {
	ropts := opts.Options
	ropts.Raw = true
	c.cm = stats.NewClassMoments(b, ropts.Dim)
	rd, err := data.NewReader(bytes.NewReader(c.buf), path, ropts)
	if err != nil {
		c.err = err
		return
	}
	// line maps the reader's line numbers (1 is the added newline) to the file's.
	line := func(l int) int { return c.firstLine + l - 2 }
	for {
		if c.rows%4096 == 0 && ctx.Err() != nil {
			c.err = ctx.Err()
			return
		}
		ex, err := rd.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			var pe *data.ParseError
			if errors.As(err, &pe) {
				e := *pe
				e.Line = line(pe.Line)
				err = &e
			}
			c.err = err
			return
		}
		if c.seen.Note(ex.Label, path, line(ex.Line)) {
			// A third distinct label: the file cannot be binary; the merge reports
			// the exact line from the labels noted so far.
			return
		}
		if err := guard.check(ex.X, path, line(ex.Line)); err != nil {
			c.err = err
			return
		}
		c.cm.Add(lab.y(ex.Label), ex.X)
		c.rows++
	}
}

// LabelSet notes the first occurrence of each distinct label of a shard of labelled
// rows, up to the three that decide whether the labels make a binary problem: merged
// over shards in file order, it lets a sharded reader report the same first bad label
// line as one reader of the whole file.
type LabelSet struct {
	Labels []LabelAt // in order of first occurrence, at most 3
}

// LabelAt is where a label first occurred.
type LabelAt struct {
	Label float64
	File  string
	Line  int
}

// Note records label at file:line if it is new (calls come in file order); it returns
// true when this is a third distinct label, after which a binary problem is impossible
// and further rows of the shard need not be read.
func (s *LabelSet) Note(label float64, file string, line int) bool {
	for _, l := range s.Labels {
		if l.Label == label {
			return false
		}
	}
	s.Labels = append(s.Labels, LabelAt{Label: label, File: file, Line: line})
	return len(s.Labels) >= 3
}

// Merge adds o's labels, which come after s's in file order.
func (s *LabelSet) Merge(o LabelSet) {
	for _, l := range o.Labels {
		if len(s.Labels) >= 3 {
			return
		}
		s.Note(l.Label, l.File, l.Line)
	}
}

// binaryConventions are the LIBSVM collection's binary label sets, positive first (as
// data.Reader maps them).
var binaryConventions = [][2]float64{{1, -1}, {1, 0}, {1, 2}}

// Check returns the error data.Reader gives at the first label (in file order) that
// makes no binary problem with the labels before it, as a *data.ParseError naming its
// file and line; nil when the labels fit one of the binary conventions. positive, when
// not "", is the positive label of a one-vs-rest problem: every label fits.
func (s *LabelSet) Check(positive string) error {
	if positive != "" {
		return nil
	}
	for k, l := range s.Labels {
		fits := false
		for _, c := range binaryConventions {
			all := true
			for _, p := range s.Labels[:k+1] {
				if p.Label != c[0] && p.Label != c[1] {
					all = false
				}
			}
			fits = fits || all
		}
		if !fits {
			before := make([]float64, k)
			for i, p := range s.Labels[:k] {
				before[i] = p.Label
			}
			return &data.ParseError{Path: l.File, Line: l.Line, Token: strconv.FormatFloat(l.Label, 'g', -1, 64),
				Err: fmt.Errorf("%w: %v does not make a binary problem with the labels seen before (%v); "+
					"name the positive class (--positive) or group the classes", data.ErrLabel, l.Label, before)}
		}
	}
	return nil
}

// BinaryLabel maps a label as read to ±1 by data.Reader's rules: the positive label
// when given, else 1 is positive and any other label (of a valid binary file) negative.
func BinaryLabel(label float64, positive float64, hasPositive bool) int8 {
	if hasPositive {
		if label == positive {
			return 1
		}
		return -1
	}
	if label == 1 {
		return 1
	}
	return -1
}

// labeler applies the reader's label rules to a streamed file.
type labeler struct {
	path string
	opts data.Options
	pos  float64
}

func (l *labeler) y(label float64) int8 { return BinaryLabel(label, l.pos, l.opts.Positive != "") }

// check notes label (at line) in the whole file's seen set and checks it.
func (l *labeler) check(seen *LabelSet, label float64, line int) error {
	if len(seen.Labels) >= 3 {
		return seen.Check(l.opts.Positive)
	}
	seen.Note(label, l.path, line)
	return seen.Check(l.opts.Positive)
}

// trainOutOfCore is Train for TrainConfig.OutOfCore: the class moments streamed from
// cfg.Data, then FitClassMoments.
func trainOutOfCore(ctx context.Context, spec solver.Spec, params solver.Params, cfg TrainConfig, res *TrainResult) (*TrainResult, error) {
	if err := CheckMomentsOnly(spec, params, cfg.Scale); err != nil {
		return nil, err
	}
	if ff, err := data.DetectFile(cfg.Data); err != nil || ff.Stream {
		return nil, inputErrorf("--out-of-core reads a data file; %q is not one", cfg.Data)
	}
	if cfg.Shuffle {
		return nil, inputErrorf("--out-of-core reads the file in its order; --shuffle does not apply (the moments do not depend on the order)")
	}
	if cfg.Checkpoint != "" {
		return nil, inputErrorf("--out-of-core fits from one pass of class moments; --checkpoint does not apply")
	}
	in := cfg.readOptions()
	b, release, err := OpenBackend(cfg.Backend)
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
	cm, info, err := StreamClassMoments(ctx, b, cfg.Data, StreamOptions{Guard: guard, Options: in})
	if err != nil {
		return nil, err
	}
	p, n := cm.Counts()
	need := momentsFitBytes(spec, params, cm.Dim(), int(p+n))
	if err := checkMemory(spec, need, featuresOf(cm.Dim()), cm.Dim(), int(p+n), limit); err != nil {
		return nil, err
	}
	if err := FitClassMoments(ctx, b, spec, params, true, cm, cfg.Scale, res); err != nil {
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
		if err := checkWiderTest(res, test, cfg.AllowExtraFeatures); err != nil {
			return nil, err
		}
		test = res.asTrained(test)
		res.TestRows = test.Rows()
		if res.TestAUC, err = ScoreAUC(res.Weights, test); err != nil {
			return nil, fmt.Errorf("test AUC on %s: %w", cfg.Test, err)
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

// CheckMomentsOnly checks that spec with params (made by spec.Params) trains from the
// class moments alone and that the scaling kind can be applied to them; the error,
// wrapping ErrInput, says what to change.
func CheckMomentsOnly(spec solver.Spec, params solver.Params, kind string) error {
	if !spec.IsBatch() {
		return inputErrorf("out of core: %s is an online algorithm; it streams its file from disk already (--shuffle=false --scale none)", spec.Name)
	}
	if kind != "" && kind != data.ScaleAuto && kind != data.ScaleNone && kind != data.ScaleMinMax {
		return inputErrorf("out of core: --scale %s needs a pass over the data before training; use none, minmax or auto", kind)
	}
	learner, err := spec.NewBatch(fallback.NewWorkers(1), 1, params, 0) // one worker: no goroutines to release
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

// FitClassMoments trains spec (with params, made by spec.Params) from class moments
// accumulated anywhere (streamed from a file, merged from shards): it applies
// the scaling kind exactly on the moments (data.ScaleAuto: min-max to [−1, 1] for at most
// data.AutoScaleMaxDim features, else none; ScaleMinMax; ScaleNone) and fits the learner,
// which must be a solver.MomentsLearner that needs only the moments. With dataDefaults
// the parameters are remade after scaling as Train makes them: the defaults scaled to
// the moments' data facts (solver.Spec.DataParams), with the keys set in params kept;
// without, params are used as given. It fills
// res's Algo, Params, Notes, Backend, TrainRows, Features, Scale, Scaling and Weights.
func FitClassMoments(ctx context.Context, b kernels.Backend, spec solver.Spec, params solver.Params, dataDefaults bool, cm *stats.ClassMoments, kind string, res *TrainResult) error {
	if err := CheckMomentsOnly(spec, params, kind); err != nil {
		return err
	}
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
