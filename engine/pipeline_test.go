package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// TestRunFailedPoints: a diverging point is marked failed with its reason and the
// search goes on; when every point fails, Run's error wraps solver.ErrDiverged.
func TestRunFailedPoints(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	sp, err := data.Load("german", data.LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := solver.Lookup("opauc")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		grid  string
		folds int
		best  int // -1: every point fails
	}{
		{"hold-out", "eta=1e300,1e-3", 0, 1},
		{"folds", "eta=1e-3,1e300", 3, 0},
		{"all", "eta=1e300,1e299", 3, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			params, err := spec.GridPoints(solver.Params{}, tc.grid)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), fallback.New(), Task{Spec: spec, Points: params, Train: sp.Train, Test: sp.Test,
				Scale: data.ScaleAuto, Selection: Selection{Folds: tc.folds, Seed: 3}, Shuffle: true, Seed: 3})
			if tc.best < 0 {
				if !errors.Is(err, solver.ErrDiverged) {
					t.Fatalf("error %v, want one wrapping solver.ErrDiverged", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Best != tc.best || res.Points[1-tc.best].Failed == "" || res.Points[1-tc.best].ValAUC != nil {
				t.Errorf("best %d, points %+v; want best %d and the other point failed", res.Best, res.Points, tc.best)
			}
		})
	}
}

func TestEdges(t *testing.T) {
	pts := func(vals ...float64) []GridPoint {
		var out []GridPoint
		for _, v := range vals {
			out = append(out, GridPoint{Params: map[string]any{"eta": v, "lambda": 0.5, "n": int(v * 10)}})
		}
		return out
	}
	for _, tc := range []struct {
		points []GridPoint
		best   int
		want   []string
	}{
		{pts(1, 2, 3), 0, []string{"eta", "n"}},
		{pts(1, 2, 3), 2, []string{"eta", "n"}},
		{pts(1, 2, 3), 1, []string{}},
		{pts(1, 2), 0, []string{}}, // two values: every choice is an edge, none reported
	} {
		if got := edges(tc.points, tc.best); !slices.Equal(got, tc.want) {
			t.Errorf("edges(%d points, best %d) = %v want %v", len(tc.points), tc.best, got, tc.want)
		}
	}
}

// TestRunJobs: every job runs once, done counts the successes, and the first failure
// comes back as a *JobError naming its job.
func TestRunJobs(t *testing.T) {
	b := fallback.New()
	for _, tc := range []struct {
		n, workers, fail int // fail: the failing job, -1 for none
	}{
		{10, 1, -1},
		{10, 4, -1},
		{10, 1, 3},
		{0, 2, -1},
	} {
		t.Run(fmt.Sprintf("n=%d/workers=%d/fail=%d", tc.n, tc.workers, tc.fail), func(t *testing.T) {
			var ran atomic.Int64
			count := 0
			err := RunJobs(context.Background(), b, tc.n, tc.workers, func(_ context.Context, _ kernels.Backend, i int) error {
				ran.Add(1)
				if i == tc.fail {
					return errors.New("boom")
				}
				return nil
			}, func(i, c int) { count = c })
			var je *JobError
			switch {
			case tc.fail < 0 && (err != nil || count != tc.n || int(ran.Load()) != tc.n):
				t.Errorf("error %v, %d done, %d ran; want nil, %d, %d", err, count, ran.Load(), tc.n, tc.n)
			case tc.fail >= 0 && (!errors.As(err, &je) || je.Index != tc.fail):
				t.Errorf("error %v, want a *JobError for job %d", err, tc.fail)
			}
		})
	}
	if w := Workers(b, 0, 3); w < 1 || w > 3 {
		t.Errorf("Workers(generic, 0, 3) = %d, want 1..3", w)
	}
}
