package engine

import (
	"context"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/fallback"
)

// TestTestNameIsTestPart requires --test NAME (TrainConfig.Test a dataset name) to score
// that dataset's test part, the rows the run without Test scores, not its training part.
func TestTestNameIsTestPart(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir()) // the embedded a9a, on any machine
	cfg := TrainConfig{Algo: "olr", Data: "a9a", Seed: 1, Backend: fallback.New()}
	own, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Test = "a9a"
	named, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if named.TestRows != own.TestRows || named.TestAUC != own.TestAUC {
		t.Errorf("--test a9a scored %d rows, AUC %.6f; the dataset's own test part is %d rows, AUC %.6f",
			named.TestRows, named.TestAUC, own.TestRows, own.TestAUC)
	}
}
