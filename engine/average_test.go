package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
)

func TestTrainAverage(t *testing.T) {
	path := writeFile(t, "train.svm", synthText(3000, 20, []string{"+1", "-1"}, 9))
	cfg := TrainConfig{Algo: "spam-l2", Data: path, Scale: data.ScaleNone, Seed: 3, Backend: fallback.New(), Average: 3, Passes: 1}
	res, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if relDiff(res.Weights, again.Weights) != 0 {
		t.Error("two averaged runs differ")
	}
	// The average of three one-pass runs on the three thirds, each made here.
	ds, err := data.ReadFile(path, data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := solver.Lookup("spam-l2")
	b, _ := backends.Open("generic")
	defer b.Close()
	want := make([]float64, ds.Dim)
	n := ds.Rows()
	for s := range 3 {
		rows := make([]int, 0, n/3+1)
		for i := s * n / 3; i < (s+1)*n/3; i++ {
			rows = append(rows, i)
		}
		l, err := spec.NewOnline(b, ds.Dim, spec.Params(), data.SubSeed(3, uint64(s)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := solver.Run(context.Background(), l, solver.DatasetSource{D: ds.Subset(rows), Seed: data.SubSeed(3, uint64(s))}, solver.RunOptions{Dim: ds.Dim}); err != nil {
			t.Fatal(err)
		}
		for j, v := range l.Weights() {
			want[j] += v / 3
		}
	}
	if d := relDiff(want, res.Weights); d > 1e-12 {
		t.Errorf("averaged weights differ from the shards' mean by %.3g", d)
	}
	for _, tc := range []struct {
		name string
		cfg  TrainConfig
		want string
	}{
		{"batch", TrainConfig{Algo: "ls-auc", Data: path, Average: 2}, "batch algorithm"},
		{"checkpoint", TrainConfig{Algo: "spam-l2", Data: path, Average: 2, Checkpoint: t.TempDir() + "/c"}, "Average and Checkpoint"},
		{"too many shards", TrainConfig{Algo: "spam-l2", Data: path, Average: 5000}, "more shards"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Backend = fallback.New()
			_, err := Train(context.Background(), tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}
