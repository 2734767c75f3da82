package engine

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

// TestGrid: the grid search picks the point with the best validation AUC, the refit
// equals a plain training run with that point's parameters, and diverged points are
// reported, not chosen.
func TestGrid(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir()) // the embedded german
	for _, tc := range []struct {
		algo, grid string
		folds      int
	}{
		{"opauc", "eta=2^[-8..-4],2^8;lambda=2^-10,2^-2", 0},
		{"spam-l2", "eta=0.01,0.1,1e9;beta=1e-4", 3},
	} {
		cfg := GridConfig{
			TrainConfig: TrainConfig{Algo: tc.algo, Data: "german", Shuffle: true, Seed: 3, Backend: fallback.New()},
			Grid:        tc.grid, Folds: tc.folds,
		}
		res, err := Grid(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.algo, err)
		}
		var failed int
		for g, p := range res.Points {
			if p.ValAUC == nil {
				failed++
				if g == res.Best || !strings.Contains(p.Failed, "diverged") {
					t.Errorf("%s: point %d failed (%q) but best is %d", tc.algo, g, p.Failed, res.Best)
				}
				continue
			}
			if *p.ValAUC > *res.Points[res.Best].ValAUC {
				t.Errorf("%s: point %d has validation AUC %.4f above the best's %.4f", tc.algo, g, *p.ValAUC, *res.Points[res.Best].ValAUC)
			}
		}
		if failed == 0 {
			t.Errorf("%s: the huge step should have diverged", tc.algo)
		}
		var params []string
		for k, v := range res.Points[res.Best].Params {
			params = append(params, k+"="+jsonNumber(t, v))
		}
		plain, err := Train(context.Background(), TrainConfig{Algo: tc.algo, Data: "german", Shuffle: true, Seed: 3, Backend: fallback.New(), Params: testParams(t, tc.algo, params...)})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(plain.Weights, res.Weights) || plain.TestAUC != res.TestAUC && !math.IsNaN(plain.TestAUC) {
			t.Errorf("%s: the refit differs from a plain run with the best parameters %v", tc.algo, params)
		}
		if _, err := json.Marshal(res); err != nil {
			t.Errorf("%s: JSON: %v", tc.algo, err)
		}
	}
}

func jsonNumber(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGridErrors(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	for _, tc := range []struct {
		cfg  GridConfig
		want string
	}{
		{GridConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "german"}, Grid: "nope=1"}, "unknown key"},
		{GridConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "german"}, Grid: "eta=-1"}, "eta"},
		{GridConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "german"}, Grid: "eta=1e300,1e299"}, "all 2 points failed"},
		{GridConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "german", Checkpoint: "x"}, Grid: "eta=1"}, "Grid does not take Checkpoint"},
		{GridConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "german"}, Grid: "eta=1", Holdout: 1.5}, "held-out share"},
	} {
		_, err := Grid(context.Background(), tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.cfg, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Grid(ctx, GridConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: "german"}, Grid: "eta=1"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestUnitRowsScaling: every entry point gives an algorithm that assumes ‖x‖ ≤ 1
// min-maxed, centred unit rows under automatic scaling, and min-max scaling to the
// others.
func TestUnitRowsScaling(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	ctx := context.Background()
	for algo, want := range map[string]string{"solam": data.ScaleMinMaxUnit, "opauc": data.ScaleMinMax} {
		base := TrainConfig{Algo: algo, Data: "german", Seed: 1, Backend: fallback.New()}
		tr, err := Train(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		gr, err := Grid(ctx, GridConfig{TrainConfig: base, Grid: "eta=0.001"})
		if algo == "solam" {
			gr, err = Grid(ctx, GridConfig{TrainConfig: base, Grid: "zeta=28"})
		}
		if err != nil {
			t.Fatal(err)
		}
		cv, err := CV(ctx, CVConfig{TrainConfig: base, Folds: 3})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Scale != want || gr.Scale != want || cv.Scale != want {
			t.Errorf("%s: scaling train %q, grid %q, cv %q; want %q", algo, tr.Scale, gr.Scale, cv.Scale, want)
		}
	}
}
