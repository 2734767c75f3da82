package engine

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
)

// memoryRows returns rows×dim dense values (a fifth of them zero), row-major, and ±1
// labels that depend on them, from seed.
func memoryRows(rows, dim int, seed uint64) (x, labels []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	x, labels = make([]float64, rows*dim), make([]float64, rows)
	for i := range rows {
		s := 0.0
		for j := range dim {
			if rng.IntN(5) > 0 {
				x[i*dim+j] = rng.NormFloat64() * float64(j+1)
			}
			s += x[i*dim+j] * float64(j%3-1)
		}
		labels[i] = -1
		if s+rng.NormFloat64()*2 > 0 {
			labels[i] = 1
		}
	}
	return x, labels
}

// TestTrainMemoryLikeFile: training from a dataset in memory gives the weights (bit for
// bit), scaling, rows and parameters of training from a file of the same rows, in the
// layout each learner reads the file in, and leaves the caller's arrays as they were.
func TestTrainMemoryLikeFile(t *testing.T) {
	const rows, dim = 600, 7
	x, labels := memoryRows(rows, dim, 3)
	dense, err := data.NewDenseRows("", rows, dim, x, false, labels, "")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rows.svm")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := data.WriteLibSVM(f, dense); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	sp := dense.ToSparse()
	sparse, err := data.NewCSR("", dim, sp.Ptr, sp.Idx, sp.Val, labels, "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		algo    string
		mem     *data.Dataset // the file's layout for the learner
		scale   string
		shuffle bool
		params  []string
	}{
		{"ls-auc", dense, "", true, nil}, // batch: the file is read dense
		{"ls-auc", dense, data.ScaleNone, false, nil},
		{"mba-l2", dense, data.ScaleNone, true, []string{"pairs=sampled"}}, // shuffled rows, sampled pairs: no permutation in place
		{"opauc", sparse, "", true, nil},                                   // online: the file is read sparse
		{"spam-l2", sparse, data.ScaleNorm, false, []string{"eta=0.5"}},
		{"olr", sparse, data.ScaleNone, true, nil},
	}
	for _, c := range cases {
		t.Run(c.algo+"/"+c.scale, func(t *testing.T) {
			x0, l0 := slices.Clone(x), slices.Clone(labels)
			base := TrainConfig{Algo: c.algo, Params: testParams(t, c.algo, c.params...), Scale: c.scale, Shuffle: c.shuffle, Seed: 5, NoFingerprint: true}
			fromFile := base
			fromFile.Data = path
			want, err := Train(context.Background(), fromFile)
			if err != nil {
				t.Fatal(err)
			}
			fromMem := base
			fromMem.Dataset = c.mem
			got, err := Train(context.Background(), fromMem)
			if err != nil {
				t.Fatal(err)
			}
			if !sameBits(got.Weights, want.Weights) {
				t.Errorf("weights differ from the file's:\n%v\n%v", got.Weights, want.Weights)
			}
			if got.Scale != want.Scale || got.TrainRows != want.TrainRows || got.Features != want.Features || got.Passes != want.Passes ||
				!slices.Equal(got.Notes, want.Notes) || got.Data != data.MemoryName {
				t.Errorf("memory run %+v, file run %+v", got, want)
			}
			if !sameBits(x, x0) || !sameBits(labels, l0) {
				t.Error("the caller's arrays were changed")
			}
		})
	}
}

// sameBits reports whether a and b hold the same float64s bit for bit.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(p, q float64) bool { return math.Float64bits(p) == math.Float64bits(q) })
}

// TestTrainMemoryRefused: the settings that apply to files only are refused with a
// dataset in memory.
func TestTrainMemoryRefused(t *testing.T) {
	x, labels := memoryRows(50, 3, 1)
	d, err := data.NewDenseRows("", 50, 3, x, false, labels, "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		cfg  TrainConfig
		says string
	}{
		{TrainConfig{Algo: "ls-auc", Data: "a9a"}, "given twice"},
		{TrainConfig{Algo: "opauc", Checkpoint: filepath.Join(t.TempDir(), "c")}, "checkpoint"},
		{TrainConfig{Algo: "ls-auc", OutOfCore: true}, "OutOfCore streams a file"},
		{TrainConfig{Algo: "ls-auc", Positive: "1"}, "positive label"},
	}
	for _, c := range cases {
		c.cfg.Dataset = d
		_, err := Train(context.Background(), c.cfg)
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%+v: error %v, want an input error saying %q", c.cfg, err, c.says)
		}
	}
}
