package solver

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// interruptedCheckpoint runs toy over d for opts.Passes passes, cancelled after stopAt
// examples, and returns the checkpoint file it left.
func interruptedCheckpoint(t *testing.T, src Source, opts RunOptions, stopAt int64) string {
	t.Helper()
	opts.Checkpoint, opts.Resume, opts.ProgressEvery = filepath.Join(t.TempDir(), "run.ckpt"), true, 1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts.Progress = func(p Progress) {
		if p.Seen >= stopAt {
			cancel()
		}
	}
	if _, err := Run(ctx, &toy{W: make([]float64, 6), Eta: 0.05}, src, opts); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: error %v, want context.Canceled", err)
	}
	return opts.Checkpoint
}

// TestCheckpointTamper interrupts a run and resumes it with one thing changed: the
// checkpoint's bytes (a flipped byte, truncation, junk, an empty file) or the run (its
// algorithm, passes, a setting, a setting more or less). Each must be refused with an
// error wrapping ErrCheckpoint that names the difference, and the unchanged resume
// must still work.
func TestCheckpointTamper(t *testing.T) {
	d := gaussian(3000, 6, 0.3, 2, 3)
	src := DatasetSource{D: d, Shuffle: true, Seed: 9}
	settings := []Setting{{"parameter eta", "0.05"}, {"seed", "9"}, {"shuffle", "true"}, {"training data", "sha256:abc"}}
	base := RunOptions{Passes: 2, Algo: "toy", Settings: settings}
	ckpt := interruptedCheckpoint(t, src, base, 1500)
	good, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	with := func(i int, v string) []Setting {
		s := slices.Clone(settings)
		s[i].Value = v
		return s
	}
	flip := slices.Clone(good)
	flip[len(flip)/2] ^= 0x01
	cases := []struct {
		name  string
		file  []byte
		opts  RunOptions
		wants []string
	}{
		{"flipped byte", flip, base, []string{"checksum mismatch"}},
		{"truncated", good[:len(good)-9], base, []string{"checksum mismatch"}},
		{"truncated to the magic", good[:10], base, []string{"not an aucopt checkpoint"}},
		{"empty", []byte{}, base, []string{"not an aucopt checkpoint"}},
		{"junk", []byte("junk, not a checkpoint at all"), base, []string{"not an aucopt checkpoint"}},
		{"other algorithm", good, RunOptions{Passes: 2, Algo: "opauc", Settings: settings}, []string{"holds a toy run, not opauc"}},
		{"other passes", good, RunOptions{Passes: 3, Algo: "toy", Settings: settings}, []string{"passes 2 there, 3 here"}},
		{"other parameter", good, RunOptions{Passes: 2, Algo: "toy", Settings: with(0, "0.5")}, []string{"parameter eta 0.05 there, 0.5 here"}},
		{"other seed", good, RunOptions{Passes: 2, Algo: "toy", Settings: with(1, "2")}, []string{"seed 9 there, 2 here"}},
		{"other data", good, RunOptions{Passes: 2, Algo: "toy", Settings: with(3, "sha256:def")}, []string{"training data sha256:abc there, sha256:def here"}},
		{"setting added", good, RunOptions{Passes: 2, Algo: "toy", Settings: append(slices.Clone(settings), Setting{"scaling", "minmax"})}, []string{"scaling unset there, minmax here"}},
		{"setting dropped", good, RunOptions{Passes: 2, Algo: "toy", Settings: settings[:3]}, []string{"training data sha256:abc there, unset here"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.ckpt")
			if err := os.WriteFile(p, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			opts := c.opts
			opts.Checkpoint, opts.Resume = p, true
			s := &toy{W: make([]float64, 6), Eta: 0.05}
			_, err := Run(context.Background(), s, src, opts)
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("error %v, want ErrCheckpoint", err)
			}
			for _, w := range append(c.wants, p) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if after, _ := os.ReadFile(p); !slices.Equal(after, c.file) {
				t.Error("a refused checkpoint was modified")
			}
		})
	}
	t.Run("unchanged resumes", func(t *testing.T) {
		opts := base
		opts.Checkpoint, opts.Resume = ckpt, true
		res, err := Run(context.Background(), &toy{W: make([]float64, 6), Eta: 0.05}, src, opts)
		if err != nil || !res.Resumed {
			t.Fatalf("resumed %t, error %v", res.Resumed, err)
		}
	})
}

// TestCheckpointFinished requires a completed run to mark its checkpoint finished, so
// that a rerun trains again from the start (here with another setting, which a resume
// would refuse) and gives the weights of a fresh run.
func TestCheckpointFinished(t *testing.T) {
	d := gaussian(800, 6, 0.3, 2, 4)
	src := DatasetSource{D: d}
	ckpt := filepath.Join(t.TempDir(), "run.ckpt")
	opts := RunOptions{Passes: 2, Algo: "toy", Checkpoint: ckpt, Resume: true, Settings: []Setting{{"parameter eta", "0.05"}}}
	if _, err := Run(context.Background(), &toy{W: make([]float64, 6), Eta: 0.05}, src, opts); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	st, err := decodeCheckpoint(b)
	if err != nil || !st.Finished || st.Solver != nil {
		t.Fatalf("after a complete run the checkpoint is finished %t with %d bytes of state (error %v)", st.Finished, len(st.Solver), err)
	}
	want := &toy{W: make([]float64, 6), Eta: 0.5}
	if _, err := Run(context.Background(), want, src, RunOptions{Passes: 2}); err != nil {
		t.Fatal(err)
	}
	opts.Settings = []Setting{{"parameter eta", "0.5"}}
	got := &toy{W: make([]float64, 6), Eta: 0.5}
	res, err := Run(context.Background(), got, src, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Resumed || !slices.Equal(got.W, want.W) {
		t.Errorf("rerun after a finished checkpoint: resumed %t, weights equal to a fresh run's %t", res.Resumed, slices.Equal(got.W, want.W))
	}
}

// FuzzCheckpointDecode feeds arbitrary bytes to the checkpoint decoder, as a file and
// wrapped in a valid frame (magic, version, checksum) so that the body decoder is
// reached too. It must never panic, and whatever it accepts must encode and decode to
// the same state.
func FuzzCheckpointDecode(f *testing.F) {
	seeds := []checkpoint{
		{Algo: "opauc", Passes: 1, Settings: []Setting{{"seed", "1"}}, Pass: 0, Pos: 3, Seen: 3, Pos1: 1, Neg: 2, Solver: []byte{1, 2, 3}},
		{Algo: "spam-net", Passes: 3, Finished: true, Pass: 3, Seen: 90},
	}
	for _, st := range seeds {
		b, err := encodeCheckpoint(st)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[len(checkpointMagic)+4 : len(b)-4])
	}
	f.Add([]byte("AUCOPTCK"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeCheckpoint(b)
		framed := binary.LittleEndian.AppendUint32([]byte(checkpointMagic), checkpointVersion)
		framed = append(framed, b...)
		framed = binaryAppendCRC(framed)
		st, err := decodeCheckpoint(framed)
		if err != nil {
			if !errors.Is(err, ErrCheckpoint) {
				t.Fatalf("error %v does not wrap ErrCheckpoint", err)
			}
			return
		}
		again, err := encodeCheckpoint(st)
		if err != nil {
			t.Fatal(err)
		}
		st2, err := decodeCheckpoint(again)
		if err != nil || st2.Algo != st.Algo || st2.Pass != st.Pass || st2.Pos != st.Pos || !slices.Equal(st2.Solver, st.Solver) {
			t.Fatalf("re-encoded checkpoint decodes differently: %v", err)
		}
	})
}

// binaryAppendCRC appends the CRC-32C of b, as a checkpoint file ends.
func binaryAppendCRC(b []byte) []byte {
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// TestCheckpointBounded: a checkpoint that is not a regular file (/dev/zero, read
// without end before; a FIFO, which blocked in open) is refused before it is opened,
// for resuming and for writing, and one larger than MaxCheckpointBytes (a sparse file)
// before it is read.
func TestCheckpointBounded(t *testing.T) {
	src := DatasetSource{D: gaussian(200, 6, 0.3, 2, 5)}
	huge := filepath.Join(t.TempDir(), "huge.ckpt")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxCheckpointBytes + 1); err != nil {
		f.Close()
		t.Skipf("no sparse file of %d bytes here: %v", int64(MaxCheckpointBytes+1), err)
	}
	f.Close()
	cases := []struct {
		name, path string
		resume     bool
		is         error
		want       string
	}{
		{"device to resume", os.DevNull, true, data.ErrNotRegular, "character device"},
		{"device to write", os.DevNull, false, data.ErrNotRegular, "character device"},
		{"directory", t.TempDir(), true, data.ErrNotRegular, "directory"},
		{"too large", huge, true, ErrCheckpoint, "the most it may have"},
	}
	if fifo := makeFIFO(t); fifo != "" {
		cases = append(cases, struct {
			name, path string
			resume     bool
			is         error
			want       string
		}{"fifo", fifo, true, data.ErrNotRegular, "named pipe"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := RunOptions{Passes: 1, Algo: "toy", Checkpoint: c.path, Resume: c.resume}
			_, err := Run(context.Background(), &toy{W: make([]float64, 6), Eta: 0.05}, src, opts)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path) {
				t.Errorf("error %v, want one wrapping %v that names %s and says %q", err, c.is, c.path, c.want)
			}
		})
	}
}
