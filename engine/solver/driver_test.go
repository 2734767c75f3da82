package solver

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// toy is a deterministic online learner for the driver's tests: a perceptron-like step
// whose weights depend on the exact order of the examples, with a checkpointable state.
type toy struct {
	W   []float64
	T   int
	Eta float64
}

func (s *toy) Observe(x kernels.Sparse, y int8) float64 {
	var score float64
	for k, j := range x.Idx {
		score += s.W[j] * x.Val[k]
	}
	s.T++
	step := s.Eta / math.Sqrt(float64(s.T))
	for k, j := range x.Idx {
		s.W[j] += step * (float64(y) - 0.1*score) * x.Val[k]
	}
	return score
}

func (s *toy) Weights() []float64 { return slices.Clone(s.W) }

// toyState is toy without its methods, so that gob does not call MarshalBinary again.
type toyState toy

func (s *toy) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode((*toyState)(s))
	return b.Bytes(), err
}

func (s *toy) UnmarshalBinary(b []byte) error {
	return gob.NewDecoder(bytes.NewReader(b)).Decode((*toyState)(s))
}

func TestRunPasses(t *testing.T) {
	d := gaussian(500, 7, 0.3, 2, 1)
	var calls, done int
	s := &toy{W: make([]float64, 7), Eta: 0.1}
	res, err := Run(context.Background(), s, DatasetSource{D: d, Shuffle: true, Seed: 3}, RunOptions{
		Passes: 3, ProgressEvery: 100,
		Progress: func(p Progress) {
			calls++
			if p.Done {
				done++
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Examples != 1500 || s.T != 1500 || done != 3 || calls != 15+3 {
		t.Errorf("examples %d, observed %d, progress calls %d (%d pass ends)", res.Examples, s.T, calls, done)
	}
	pos, _ := d.Counts()
	if res.Positives != int64(pos) {
		t.Errorf("positives %d, want %d", res.Positives, pos)
	}
	// Shuffled and unshuffled orders differ; the same seed repeats.
	again := &toy{W: make([]float64, 7), Eta: 0.1}
	Run(context.Background(), again, DatasetSource{D: d, Shuffle: true, Seed: 3}, RunOptions{Passes: 3})
	ordered := &toy{W: make([]float64, 7), Eta: 0.1}
	Run(context.Background(), ordered, DatasetSource{D: d}, RunOptions{Passes: 3})
	if !slices.Equal(again.W, s.W) || slices.Equal(ordered.W, s.W) {
		t.Error("same seed must repeat, another order must differ")
	}
}

func TestRunErrors(t *testing.T) {
	d := gaussian(300, 5, 0.3, 2, 2)
	t.Run("diverged", func(t *testing.T) {
		s := &toy{W: make([]float64, 5), Eta: 1e200}
		_, err := Run(context.Background(), s, DatasetSource{D: d}, RunOptions{})
		if !errors.Is(err, ErrDiverged) || !strings.Contains(err.Error(), "pass 1, example ") || !strings.Contains(err.Error(), "smaller step") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("one class", func(t *testing.T) {
		one := d.Subset(nil)
		for i := range d.Rows() {
			if d.Y[i] == 1 {
				one.Append(1, 1, d.Row(i))
			}
		}
		_, err := Run(context.Background(), &toy{W: make([]float64, 5)}, DatasetSource{D: one}, RunOptions{})
		if !errors.Is(err, ErrOneClass) {
			t.Errorf("error %v, want ErrOneClass", err)
		}
	})
	t.Run("dimension", func(t *testing.T) {
		_, err := Run(context.Background(), &toy{W: make([]float64, 5)}, DatasetSource{D: d}, RunOptions{Dim: 4})
		if err == nil || !strings.Contains(err.Error(), "has feature 5, beyond the 4 features") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("raw labels", func(t *testing.T) {
		raw := d.Subset([]int{0, 1})
		raw.Y[1] = 0
		_, err := Run(context.Background(), &toy{W: make([]float64, 5)}, DatasetSource{D: raw}, RunOptions{})
		if err == nil || !strings.Contains(err.Error(), "not mapped to ±1") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("no checkpoint support", func(t *testing.T) {
		type plain struct{ Online }
		_, err := Run(context.Background(), plain{&toy{W: make([]float64, 5)}}, DatasetSource{D: d},
			RunOptions{Checkpoint: filepath.Join(t.TempDir(), "c"), Algo: "plain"})
		if err == nil || !strings.Contains(err.Error(), "plain does not support checkpoints") {
			t.Errorf("error %v", err)
		}
	})
}

// TestResumeBitIdentical interrupts a run (context cancelled mid-pass), resumes it from
// its checkpoint in a fresh learner, and requires the weights of an uninterrupted run,
// bit for bit, from an in-memory shuffled source and from a file.
func TestResumeBitIdentical(t *testing.T) {
	d := gaussian(2000, 6, 0.3, 2, 3)
	file := filepath.Join(t.TempDir(), "train.cache")
	if err := data.SaveCache(file, d); err != nil {
		t.Fatal(err)
	}
	sources := map[string]Source{
		"dataset": DatasetSource{D: d, Shuffle: true, Seed: 9},
		"file":    FileSource{Path: file},
	}
	for name, src := range sources {
		t.Run(name, func(t *testing.T) {
			want := &toy{W: make([]float64, 6), Eta: 0.05}
			if _, err := Run(context.Background(), want, src, RunOptions{Passes: 3}); err != nil {
				t.Fatal(err)
			}
			for _, stopAt := range []int64{1, 1024 * 3, 2000, 4096 + 17} {
				ckpt := filepath.Join(t.TempDir(), "run.ckpt")
				ctx, cancel := context.WithCancel(context.Background())
				first := &toy{W: make([]float64, 6), Eta: 0.05}
				opts := RunOptions{Passes: 3, Checkpoint: ckpt, Resume: true, Algo: "toy", ProgressEvery: 1,
					Progress: func(p Progress) {
						if p.Seen >= stopAt {
							cancel()
						}
					}}
				_, err := Run(ctx, first, src, opts)
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("stop at %d: error %v, want context.Canceled", stopAt, err)
				}
				opts.Progress = nil
				resumed := &toy{W: make([]float64, 6), Eta: 0.05}
				res, err := Run(context.Background(), resumed, src, opts)
				if err != nil {
					t.Fatal(err)
				}
				if !res.Resumed || !slices.Equal(resumed.W, want.W) || resumed.T != want.T {
					t.Errorf("stop at %d: resumed run differs (resumed %t, T %d vs %d)", stopAt, res.Resumed, resumed.T, want.T)
				}
			}
		})
	}
}
