package engine

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/fallback"
)

// a9aSHA256 is the SHA-256 of a9a/a9a.txt.xz in shared/data/MANIFEST.tsv (the
// embedded copy is the same file).
const a9aSHA256 = "c7a2952bcd0877f2c8a6c44b52b1e8086ffff5c4cb1ff9e4d700c97313f2d6a4"

// TestModelScoresEqualTraining checks that a model written and read back scores the
// test data exactly as the training run did: model.Score on the raw test set equals
// Score on the test set transformed at training time, bit for bit, and the AUC equals
// the run's test AUC, for every scaling.
func TestModelScoresEqualTraining(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, dir) // the embedded a9a and german
	// Files whose test part has fewer features than the training part (the model must
	// widen it as training did, shifts included) and one with more (refused unless
	// allowed, then the extra feature gets weight 0).
	train := filepath.Join(dir, "train.svm")
	os.WriteFile(train, []byte("+1 1:0.5 3:2\n-1 2:1 4:-1\n+1 1:1 2:0.25\n-1 3:-1 4:3\n+1 1:2 4:1\n-1 2:-2 3:0.5\n"), 0o644)
	narrow := filepath.Join(dir, "narrow.svm")
	os.WriteFile(narrow, []byte("+1 1:0.7 2:0.1\n-1 2:1\n+1 1:1.5\n-1 2:-0.5\n"), 0o644)
	wide := filepath.Join(dir, "wide.svm")
	os.WriteFile(wide, []byte("+1 1:0.7 6:9\n-1 2:1 4:2\n+1 1:1.5 3:1\n-1 2:-0.5 5:1\n"), 0o644)
	tests := []struct {
		name, algo, data, test, scale string
		slow                          bool // skipped with -short
	}{
		{"a9a minmax online", "opauc", "a9a", "", data.ScaleMinMax, false},
		{"a9a none", "ubauc-online", "a9a", "", data.ScaleNone, false},
		{"a9a norm", "olr", "a9a", "", data.ScaleNorm, true},
		{"a9a minmax batch", "ls-auc", "a9a", "", data.ScaleMinMax, true},
		{"narrower test minmax", "olr", train, narrow, data.ScaleMinMax, false},
		{"narrower test norm", "olr", train, narrow, data.ScaleNorm, false},
		{"wider test minmax", "olr", train, wide, data.ScaleMinMax, false},
		{"wider test streamed", "olr", train, wide, data.ScaleNone, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.slow && testing.Short() {
				t.Skip("-short: one more a9a run")
			}
			cfg := TrainConfig{Algo: tt.algo, Data: tt.data, Test: tt.test, Scale: tt.scale, Seed: 3, Backend: fallback.New(),
				AllowExtraFeatures: tt.test == wide} // as Predict's option allows it below
			cfg.Shuffle = tt.scale != data.ScaleNone // exercise the streamed path too
			res, err := Train(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			wantSHA := a9aSHA256
			if tt.data != "a9a" {
				b, _ := os.ReadFile(tt.data)
				wantSHA = fmt.Sprintf("%x", sha256.Sum256(b))
			}
			if res.TrainSHA256 != wantSHA || len(wantSHA) != 64 {
				t.Errorf("TrainSHA256 = %q, want %q", res.TrainSHA256, wantSHA)
			}
			path := filepath.Join(dir, "m.json")
			if err := res.Model().Write(path); err != nil {
				t.Fatal(err)
			}
			m, err := model.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			// The test set as training scored it.
			trainDS, testDS, _, err := loadData(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			fitted := &TrainResult{Features: trainDS.Dim}
			if _, err := scale(tt.scale, false, trainDS, false, fitted); err != nil {
				t.Fatal(err)
			}
			scaled := fitted.asTrained(testDS)
			want := Score(res.Weights, scaled)
			testName := tt.test
			if testName == "" {
				testName = tt.data
			}
			p, err := Predict(context.Background(), m, testName, PredictOptions{})
			if testDS.Dim > res.Features {
				if !errors.Is(err, model.ErrFeatureSpace) {
					t.Fatalf("Predict on wider data: %v, want ErrFeatureSpace", err)
				}
				if p, err = Predict(context.Background(), m, testName, PredictOptions{AllowExtraFeatures: true}); err != nil || len(p.Notes) != 1 {
					t.Fatalf("Predict allowing extra features: %v, %+v", err, p)
				}
			} else if testDS.Dim < res.Features {
				if !errors.Is(err, model.ErrFeatureSpace) {
					t.Fatalf("Predict on narrower data: %v, want ErrFeatureSpace", err)
				}
				if p, err = Predict(context.Background(), m, testName, PredictOptions{AllowFewerFeatures: true}); err != nil || len(p.Notes) != 1 {
					t.Fatalf("Predict allowing fewer features: %v, %+v", err, p)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Scores, want) || !slices.Equal(p.Y, testDS.Y) {
				t.Fatalf("model scores differ from training's:\n got %v\nwant %v", p.Scores[:min(5, len(p.Scores))], want[:min(5, len(want))])
			}
			auc, err := metric.AUC(p.Scores, p.Y)
			if err != nil || auc != res.TestAUC {
				t.Errorf("AUC of the model's scores %v (%v), training's test AUC %v", auc, err, res.TestAUC)
			}
		})
	}
}
