package solver

import (
	"context"
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
)

// Source provides the examples of each pass of a run.
type Source interface {
	// Pass returns a stream over pass p (0-based). The driver closes it (if it is an
	// io.Closer) at the end of the pass.
	Pass(p int) (data.Stream, error)
	// Name names the source in errors.
	Name() string
}

// DatasetSource streams an in-memory dataset, in row order or, with Shuffle, in a
// seeded permutation drawn anew for every pass (pass p uses data.Shuffle(n, Seed+p)).
type DatasetSource struct {
	D       *data.Dataset
	Shuffle bool
	Seed    uint64
}

// Name is the dataset's name.
func (s DatasetSource) Name() string { return s.D.Name }

// Pass returns the stream of pass p.
func (s DatasetSource) Pass(p int) (data.Stream, error) {
	var order []int
	if s.Shuffle {
		order = data.Shuffle(s.D.Rows(), s.Seed+uint64(p))
	}
	return &datasetStream{d: s.D, order: order}, nil
}

type datasetStream struct {
	d     *data.Dataset
	order []int
	next  int
	ex    data.Example
}

func (s *datasetStream) Next() (*data.Example, error) {
	if s.next >= s.d.Rows() {
		return nil, io.EOF
	}
	i := s.next
	if s.order != nil {
		i = s.order[i]
	}
	s.next++
	s.ex.X, s.ex.Y, s.ex.Label, s.ex.Line = s.d.Row(i), s.d.Y[i], s.d.Labels[i], i+1
	return &s.ex, nil
}

// FileSource streams a LIBSVM file (or cache) from disk, reopening it for every pass:
// one pass holds one row in memory at a time.
type FileSource struct {
	Path string
	Opts data.Options
}

// Name is the file's path.
func (s FileSource) Name() string { return s.Path }

// Pass opens the file for pass p. A vocabulary to count (data.Options.Vocab) counts the
// first pass's strings only.
func (s FileSource) Pass(p int) (data.Stream, error) {
	o := s.Opts
	if p > 0 {
		o.Vocab = nil
	}
	return data.Open(s.Path, o)
}

// Progress is what the driver reports to RunOptions.Progress.
type Progress struct {
	Pass     int           // 0-based pass
	PassSeen int64         // examples seen in this pass
	Seen     int64         // examples seen in the run
	Elapsed  time.Duration // since Run started (or resumed)
	Done     bool          // the pass is complete
}

// RunOptions control Run. The zero value is one pass, no progress, no checkpoint.
type RunOptions struct {
	// Passes over the data; 0 means 1.
	Passes int
	// Progress, if set, is called every ProgressEvery examples and at the end of each pass.
	Progress func(Progress)
	// ProgressEvery is the number of examples between progress calls (default 10,000).
	ProgressEvery int64
	// Checkpoint, if set, is the file the complete run state (solver and position) is
	// written to, atomically, every CheckpointEvery examples, at the end of each pass and
	// when the context is cancelled. The solver must implement
	// encoding.BinaryMarshaler and encoding.BinaryUnmarshaler.
	Checkpoint string
	// CheckpointEvery is the number of examples between checkpoints; 0 means only at the
	// end of passes and on cancellation.
	CheckpointEvery int64
	// Resume, with Checkpoint, continues from the checkpoint file when it exists and
	// holds an unfinished run with the same Algo, Passes and Settings: the resumed run
	// gives bit-identical weights to an uninterrupted one. A checkpoint marked finished
	// is ignored (the run trains again and replaces it); one that is corrupt, of another
	// format, or of a run with other settings is an error wrapping ErrCheckpoint that
	// names the first difference.
	Resume bool
	// Algo names the algorithm in the checkpoint, so that a resume with another
	// algorithm is refused.
	Algo string
	// Settings are everything besides Algo and Passes that determines the run (the
	// parameters, seed, shuffling, scaling, the training data's fingerprint, …), in a
	// fixed order: the checkpoint records them, and a resume compares them one by one.
	Settings []Setting
	// Dim, when positive, is checked against every row: an index at or above it is an
	// error (the solver was made for Dim features).
	Dim int
}

// Result summarises a run.
type Result struct {
	Passes    int
	Examples  int64 // observed in the run, over all passes (resumed runs count from the start)
	Positives int64 // in the last pass
	Negatives int64
	Duration  time.Duration
	Resumed   bool
}

// ErrOneClass: the training data held only one class, so there is nothing to rank.
var ErrOneClass = fault.NewInput("training data has only one class")

// Setting is one named value that determines a run, recorded in its checkpoint.
type Setting struct {
	Key, Value string
}

// ErrCheckpoint is wrapped by every error about a checkpoint file that cannot be
// resumed: corrupt or truncated, of another format, or written by a run with another
// algorithm or other settings.
var ErrCheckpoint = errors.New("bad checkpoint")

// checkpointError is an error about a checkpoint file: its message says what, and it
// wraps ErrCheckpoint without repeating its text.
type checkpointError struct{ msg string }

func (e checkpointError) Error() string { return e.msg }
func (e checkpointError) Unwrap() error { return ErrCheckpoint }

func checkpointErrorf(format string, args ...any) error {
	return checkpointError{fmt.Sprintf(format, args...)}
}

// checkpoint is the driver's run state, the body of a checkpoint file (gob).
type checkpoint struct {
	Algo      string
	Passes    int
	Settings  []Setting
	Finished  bool  // the run completed: nothing to resume
	Pass      int   // the pass in progress
	Pos       int64 // examples of that pass already observed
	Seen      int64
	Pos1, Neg int64 // class counts of the pass in progress
	Solver    []byte
}

// The checkpoint file, little-endian:
//
//	magic    [8]byte "AUCOPTCK"
//	version  uint32  (checkpointVersion)
//	body     the gob of checkpoint
//	crc      uint32  CRC-32C (Castagnoli) of every byte before it
//
// Version 1 (before the magic, the settings and the checksum) is refused as another
// format.
const (
	checkpointMagic   = "AUCOPTCK"
	checkpointVersion = 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// encodeCheckpoint returns the file bytes of st.
func encodeCheckpoint(st checkpoint) ([]byte, error) {
	body, err := encodeState(st)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(checkpointMagic)+4+len(body)+4)
	b = append(b, checkpointMagic...)
	b = binary.LittleEndian.AppendUint32(b, checkpointVersion)
	b = append(b, body...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli)), nil
}

// decodeCheckpoint parses and verifies the bytes of a checkpoint file. Its errors wrap
// ErrCheckpoint.
func decodeCheckpoint(b []byte) (checkpoint, error) {
	var st checkpoint
	head := len(checkpointMagic) + 4
	if len(b) < head+4 || string(b[:len(checkpointMagic)]) != checkpointMagic {
		return st, checkpointErrorf("not an aucopt checkpoint (too short or wrong magic; checkpoints of aucopt before format %d are not read)", checkpointVersion)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return st, checkpointErrorf("checksum mismatch (stored %08x, computed %08x): the file is corrupt or truncated", sum, got)
	}
	if v := binary.LittleEndian.Uint32(b[len(checkpointMagic):]); v != checkpointVersion {
		return st, checkpointErrorf("format version %d, this aucopt reads version %d", v, checkpointVersion)
	}
	return decodeCheckpointBody(body[head:])
}

// decodeCheckpointBody decodes and sanity-checks a checkpoint's body.
func decodeCheckpointBody(body []byte) (checkpoint, error) {
	var st checkpoint
	if err := decodeState(body, &st); err != nil {
		return checkpoint{}, checkpointErrorf("undecodable body: %v", err)
	}
	if st.Algo == "" || st.Passes < 1 || st.Pass < 0 || st.Pass > st.Passes || !st.Finished && st.Pass == st.Passes || st.Pos < 0 || st.Seen < st.Pos ||
		st.Pos1 < 0 || st.Neg < 0 || st.Pos1+st.Neg != st.Pos {
		return checkpoint{}, checkpointErrorf("inconsistent state (algorithm %q, pass %d of %d, position %d, seen %d)",
			st.Algo, st.Pass, st.Passes, st.Pos, st.Seen)
	}
	return st, nil
}

// compareRun returns an error wrapping ErrCheckpoint naming the first difference
// between the run recorded in st and the run described by opts, or nil.
func compareRun(path string, st checkpoint, opts RunOptions, passes int) error {
	differ := func(what, there, here string) error {
		return checkpointErrorf("%s was written by another run: %s %s there, %s here (resume with the same settings, or remove the checkpoint to train afresh)",
			path, what, there, here)
	}
	if st.Algo != opts.Algo {
		return checkpointErrorf("%s holds a %s run, not %s (remove it or give another checkpoint file)", path, st.Algo, opts.Algo)
	}
	if st.Passes != passes {
		return differ("passes", strconv.Itoa(st.Passes), strconv.Itoa(passes))
	}
	there := make(map[string]string, len(st.Settings))
	for _, s := range st.Settings {
		there[s.Key] = s.Value
	}
	for _, s := range opts.Settings {
		v, ok := there[s.Key]
		switch {
		case !ok:
			return differ(s.Key, "unset", s.Value)
		case v != s.Value:
			return differ(s.Key, v, s.Value)
		}
		delete(there, s.Key)
	}
	for _, s := range st.Settings {
		if _, ok := there[s.Key]; ok {
			return differ(s.Key, s.Value, "unset")
		}
	}
	return nil
}

// Run feeds the examples of src to s for opts.Passes passes and returns a summary. A
// learner that asks for a pre-pass (PrePasser) first gets the class moments of pass 0
// of src, read once more (not on resume: its checkpoint holds them). It
// stops with an error wrapping ErrDiverged, naming the pass and example, as soon as s
// scores an example NaN or ±Inf (its weights have diverged); with ctx's error when ctx
// is cancelled (after writing a checkpoint when one is configured); and with
// ErrOneClass when a pass saw a single class.
func Run(ctx context.Context, s Online, src Source, opts RunOptions) (Result, error) {
	start := time.Now()
	passes := max(opts.Passes, 1)
	every := opts.ProgressEvery
	if every <= 0 {
		every = 10_000
	}
	var st checkpoint
	res := Result{Passes: passes}
	if opts.Checkpoint != "" {
		if _, ok := s.(encoding.BinaryMarshaler); !ok {
			return res, fmt.Errorf("checkpoint: %s does not support checkpoints", algoName(opts.Algo, s))
		}
		if opts.Resume {
			resumed, err := loadCheckpoint(ctx, opts.Checkpoint, opts, passes, s)
			switch {
			case err == nil && !resumed.Finished:
				st = resumed
				res.Resumed = true
			case err == nil, errors.Is(err, os.ErrNotExist):
				// nothing to resume: train from the start
			default:
				return res, err
			}
		}
	}
	if pp, ok := s.(PrePasser); ok && pp.WantsPrePass() && !res.Resumed {
		if err := prePassSource(ctx, pp, src); err != nil {
			return res, err
		}
	}
	st.Algo, st.Passes, st.Settings, st.Finished = opts.Algo, passes, opts.Settings, false
	save := func() error {
		if opts.Checkpoint == "" {
			return nil
		}
		return saveCheckpoint(opts.Checkpoint, s, st)
	}
	for ; st.Pass < passes; st.Pass, st.Pos, st.Pos1, st.Neg = st.Pass+1, 0, 0, 0 {
		stream, err := src.Pass(st.Pass)
		if err != nil {
			return res, fmt.Errorf("pass %d: %w", st.Pass+1, err)
		}
		err = runPass(ctx, s, src, stream, &st, opts, every, start, save)
		if c, ok := stream.(io.Closer); ok {
			c.Close()
		}
		if err != nil {
			res.Examples = st.Seen
			res.Duration = time.Since(start)
			return res, err
		}
		res.Positives, res.Negatives = st.Pos1, st.Neg
		if st.Pos1 == 0 || st.Neg == 0 {
			return res, fmt.Errorf("%s: %w (%d positives, %d negatives)", src.Name(), ErrOneClass, st.Pos1, st.Neg)
		}
		if opts.Progress != nil {
			opts.Progress(Progress{Pass: st.Pass, PassSeen: st.Pos, Seen: st.Seen, Elapsed: time.Since(start), Done: true})
		}
		if st.Pass+1 < passes && opts.Checkpoint != "" {
			next := st
			next.Pass, next.Pos, next.Pos1, next.Neg = st.Pass+1, 0, 0, 0
			if err := saveCheckpoint(opts.Checkpoint, s, next); err != nil {
				return res, err
			}
		}
	}
	res.Examples = st.Seen
	res.Duration = time.Since(start)
	for j, v := range s.Weights() {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return res, fmt.Errorf("%w: weight %d is %v after training; try a smaller step size", ErrDiverged, j, v)
		}
	}
	if opts.Checkpoint != "" {
		// The run is complete: mark the checkpoint finished (no solver state), so that
		// a rerun trains again instead of returning these weights under other settings.
		done := checkpoint{Algo: opts.Algo, Passes: passes, Settings: opts.Settings, Finished: true, Pass: passes, Seen: st.Seen}
		if err := writeCheckpoint(opts.Checkpoint, done); err != nil {
			return res, err
		}
	}
	return res, nil
}

// runPass observes one pass, skipping the st.Pos examples a resumed run has seen.
func runPass(ctx context.Context, s Online, src Source, stream data.Stream, st *checkpoint, opts RunOptions,
	every int64, start time.Time, save func() error) error {
	for skip := st.Pos; skip > 0; skip-- {
		if _, err := stream.Next(); err != nil {
			return checkpointErrorf("resume: pass %d of %s ended before the checkpoint's position %d: %v", st.Pass+1, src.Name(), st.Pos, err)
		}
	}
	for {
		if st.Pos&1023 == 0 && ctx.Err() != nil {
			if err := save(); err != nil {
				return err
			}
			return fmt.Errorf("pass %d, after %d examples: %w", st.Pass+1, st.Pos, ctx.Err())
		}
		ex, err := stream.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch ex.Y {
		case 1:
			st.Pos1++
		case -1:
			st.Neg++
		default:
			return fmt.Errorf("%s: example %d has label %v, not mapped to ±1 (multi-class data needs grouping)", src.Name(), ex.Line, ex.Label)
		}
		if opts.Dim > 0 {
			if n := len(ex.X.Idx); n > 0 && int(ex.X.Idx[n-1]) >= opts.Dim {
				return fmt.Errorf("%s: example %d has feature %d, beyond the %d features of the model", src.Name(), ex.Line, ex.X.Idx[n-1]+1, opts.Dim)
			}
		}
		score := s.Observe(ex.X, ex.Y)
		if math.IsNaN(score) || math.IsInf(score, 0) {
			return fmt.Errorf("%w at pass %d, example %d (row %d of %s): score %v; try a smaller step size",
				ErrDiverged, st.Pass+1, st.Pos+1, ex.Line, src.Name(), score)
		}
		st.Pos++
		st.Seen++
		if opts.Progress != nil && st.Seen%every == 0 {
			opts.Progress(Progress{Pass: st.Pass, PassSeen: st.Pos, Seen: st.Seen, Elapsed: time.Since(start)})
		}
		if opts.CheckpointEvery > 0 && st.Seen%opts.CheckpointEvery == 0 {
			if err := save(); err != nil {
				return err
			}
		}
	}
}

func algoName(algo string, s Online) string {
	if algo != "" {
		return algo
	}
	return fmt.Sprintf("%T", s)
}

// saveCheckpoint writes the run state st with s's state to path atomically.
func saveCheckpoint(path string, s Online, st checkpoint) error {
	blob, err := s.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	st.Solver = blob
	return writeCheckpoint(path, st)
}

// writeCheckpoint writes st to path atomically (temporary file, sync, rename); path
// must be a regular file or none (checkRegular).
func writeCheckpoint(path string, st checkpoint) error {
	if err := checkRegular(path); err != nil {
		return err
	}
	file, err := encodeCheckpoint(st)
	if err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := data.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(file); return err }); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

// MaxCheckpointBytes is the most bytes a checkpoint file may have: 64 GiB, above the
// state of any learner the memory guard lets a machine train.
const MaxCheckpointBytes = 1 << 36

// checkRegular refuses a checkpoint path that names something other than a regular
// file (or nothing): a checkpoint is read back whole to resume and replaced whole by a
// rename, which a device or a FIFO cannot be (/dev/zero would be read without end, a
// FIFO blocks in open). The error wraps data.ErrNotRegular.
func checkRegular(path string) error {
	st, err := os.Stat(path)
	if err != nil || st.Mode().IsRegular() {
		return nil // none yet (or unreadable: the read or the write says why)
	}
	return fmt.Errorf("checkpoint %s: %w (a %s): a checkpoint is read back whole to resume and replaced by a rename; name a regular file",
		path, data.ErrNotRegular, data.FileKind(st.Mode()))
}

// loadCheckpoint reads the checkpoint at path, checks that it records the run opts
// describes, and, unless it is finished, restores s from it. It returns the position to
// continue from; its errors other than the file's absence or unreadability wrap
// ErrCheckpoint. The read is bounded by the file's size and MaxCheckpointBytes, refuses
// a file that is not regular (checkRegular), and stops once ctx is done.
func loadCheckpoint(ctx context.Context, path string, opts RunOptions, passes int, s Online) (checkpoint, error) {
	if err := checkRegular(path); err != nil {
		return checkpoint{}, err
	}
	b, err := data.ReadLimited(ctx, path, data.ReadOptions{Max: MaxCheckpointBytes, RegularOnly: true})
	switch {
	case errors.Is(err, os.ErrNotExist):
		return checkpoint{}, err
	case errors.Is(err, data.ErrTooLarge):
		return checkpoint{}, checkpointErrorf("checkpoint %v", err)
	case err != nil:
		return checkpoint{}, fmt.Errorf("checkpoint: %w", err) // the os error: unreadable; or ctx's
	}
	st, err := decodeCheckpoint(b)
	if err != nil {
		return st, fmt.Errorf("checkpoint %s: %w", path, err) // wraps ErrCheckpoint
	}
	if st.Finished {
		return st, nil
	}
	if err := compareRun("checkpoint "+path, st, opts, passes); err != nil {
		return st, err
	}
	u, ok := s.(encoding.BinaryUnmarshaler)
	if !ok {
		return st, fmt.Errorf("checkpoint: %s cannot restore a checkpoint", algoName(opts.Algo, s))
	}
	if err := u.UnmarshalBinary(st.Solver); err != nil {
		return st, checkpointErrorf("checkpoint %s: solver state: %v", path, err)
	}
	return st, nil
}
