package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/fallback"
)

// TestGridSelectionSettings checks that a grid's selection settings that cannot take
// effect are input errors that name them, in Grid and in CV, before any data is read.
func TestGridSelectionSettings(t *testing.T) {
	tests := []struct {
		name    string
		folds   int
		holdout float64
		want    string
	}{
		{"holdout above 1", 0, 1.5, "held-out share 1.5"},
		{"holdout 1", 0, 1, "held-out share 1"},
		{"negative holdout", 0, -0.2, "held-out share -0.2"},
		{"negative folds", -3, 0, "-3 folds"},
		{"one fold", 1, 0, "1 folds"},
	}
	base := TrainConfig{Algo: "opauc", Data: "no-such-file.svm", Shuffle: true, Backend: fallback.New()}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, gerr := Grid(context.Background(), GridConfig{TrainConfig: base, Grid: "eta=0.1,0.2", Folds: tt.folds, Holdout: tt.holdout})
			_, cerr := CV(context.Background(), CVConfig{TrainConfig: base, Grid: "eta=0.1,0.2", GridFolds: tt.folds, GridHoldout: tt.holdout})
			for what, err := range map[string]error{"Grid": gerr, "CV": cerr} {
				if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "fraction") {
					t.Errorf("%s: error %v, want an input error naming %q", what, err, tt.want)
				}
			}
		})
	}
}
