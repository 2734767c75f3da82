package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
)

// weightedMemory is an in-memory dense dataset of 40 rows with weights 1 and 2.
func weightedMemory(t *testing.T) *data.Dataset {
	t.Helper()
	x := make([]float64, 40*3)
	y := make([]float64, 40)
	w := make([]float64, 40)
	for i := range y {
		y[i] = float64(2*(i%2) - 1)
		for j := range 3 {
			x[i*3+j] = float64((i*7+j*3)%11)/10 + 0.3*y[i]*float64(j)
		}
		w[i] = float64(1 + i%3%2)
	}
	d, err := data.NewDenseRows("mem", 40, 3, x, false, y, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetWeights(w); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestWeightsOnlyWhereTheyTakeEffect: an in-memory Dataset's weights train a learner
// that takes them (and change its weights, noted in the result), and are refused, as
// input errors, by a learner that does not and by the runs that take none yet.
func TestWeightsOnlyWhereTheyTakeEffect(t *testing.T) {
	ctx := context.Background()
	d := weightedMemory(t)
	res, err := Train(ctx, TrainConfig{Algo: "ls-auc", Dataset: d, Scale: data.ScaleNone})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "sample weights: the dataset's own, 40 rows") {
		t.Errorf("notes %q do not record the weights", res.Notes)
	}
	plain := *d
	plain.W = nil
	un, err := Train(ctx, TrainConfig{Algo: "ls-auc", Dataset: &plain, Scale: data.ScaleNone})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(res.Weights, un.Weights) {
		t.Error("the weights changed nothing")
	}
	for _, tc := range []struct {
		name string
		run  func() error
		want string
	}{
		{"online learner", func() error { _, err := Train(ctx, TrainConfig{Algo: "spam-l2", Dataset: d}); return err }, "spam-l2 takes no sample weights"},
		{"class weights pairwise", func() error {
			_, err := Train(ctx, TrainConfig{Algo: "ls-auc", Dataset: &plain, ClassWeight: "balanced"})
			return err
		}, "pairwise objective"},
		{"weight file and dataset", func() error {
			_, err := Train(ctx, TrainConfig{Algo: "ls-auc", Dataset: d, Weights: "w.txt"})
			return err
		}, "given twice"},
		{"grid", func() error {
			_, err := Grid(ctx, GridConfig{TrainConfig: TrainConfig{Algo: "ls-auc", Dataset: d}, Grid: "lambda=1e-3,1e-2"})
			return err
		}, "a grid search takes no sample or class weights"},
		{"cv", func() error {
			_, err := CV(ctx, CVConfig{TrainConfig: TrainConfig{Algo: "ls-auc", Dataset: d}})
			return err
		}, "cross-validation takes no"},
		{"auto", func() error {
			_, err := Auto(ctx, AutoConfig{TrainConfig: TrainConfig{Algo: AlgoAuto, Dataset: d}})
			return err
		}, "auto takes no"},
	} {
		err := tc.run()
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an input error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestWeightsRefusedAtFit: weights that only the fit finds it cannot take (mba-*'s
// pairs auto on more than B·T rows: sampled pairs) are an input error too.
func TestWeightsRefusedAtFit(t *testing.T) {
	d := weightedMemory(t)
	_, err := Train(context.Background(), TrainConfig{Algo: "mba-l2", Dataset: d, Scale: data.ScaleNone,
		Params: testParams(t, "mba-l2", "pairs=auto", "B=2", "T=3")})
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "only with every pair") {
		t.Fatalf("mba-l2 pairs=auto on 40 rows > B·T = 6: %v, want an input error", err)
	}
	if _, err := Train(context.Background(), TrainConfig{Algo: "mba-l2", Dataset: d, Scale: data.ScaleNone,
		Params: testParams(t, "mba-l2", "pairs=auto")}); err != nil {
		t.Fatalf("mba-l2 pairs=auto on 40 rows ≤ B·T: %v", err)
	}
}
