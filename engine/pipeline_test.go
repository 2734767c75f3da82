package engine

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
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
			res, err := Run(context.Background(), Problem{Train: sp.Train, Test: sp.Test},
				Settings{Backend: fallback.New(), Scale: data.ScaleAuto, Shuffle: true, Seed: 3},
				Method{Spec: spec, Points: params, Selection: Selection{Folds: tc.folds, Seed: 3}})
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
