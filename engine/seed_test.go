package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/fallback"
)

// TestSeedZeroIsDefault checks that TrainConfig's zero Seed runs as the command line's
// default --seed 1, for Train, Grid and CV.
func TestSeedZeroIsDefault(t *testing.T) {
	ctx := context.Background()
	base := TrainConfig{Algo: "opauc", Data: "german", Shuffle: true, Backend: fallback.New()}
	withSeed := func(s uint64) TrainConfig { c := base; c.Seed = s; return c }
	tests := []struct {
		name string
		run  func(seed uint64) ([]float64, error)
	}{
		{"train", func(s uint64) ([]float64, error) {
			r, err := Train(ctx, withSeed(s))
			if err != nil {
				return nil, err
			}
			return append(r.Weights, float64(r.Seed)), nil
		}},
		{"grid", func(s uint64) ([]float64, error) {
			r, err := Grid(ctx, GridConfig{TrainConfig: withSeed(s), Grid: "eta=2^[-8..-7]"})
			if err != nil {
				return nil, err
			}
			return append(r.Weights, float64(r.Seed)), nil
		}},
		{"cv", func(s uint64) ([]float64, error) {
			r, err := CV(ctx, CVConfig{TrainConfig: withSeed(s), Folds: 3, Workers: 1})
			if err != nil {
				return nil, err
			}
			return r.AUCs, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zero, err := tt.run(0)
			if err != nil {
				t.Fatal(err)
			}
			one, err := tt.run(DefaultSeed)
			if err != nil {
				t.Fatal(err)
			}
			two, err := tt.run(2)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(zero, one) {
				t.Errorf("seed 0 differs from the default seed %d", DefaultSeed)
			}
			if slices.Equal(one, two) {
				t.Error("seeds 1 and 2 give the same run: the check cannot tell seeds apart")
			}
		})
	}
}
