package engine

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
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
			p, err := Predict(m, testName, PredictOptions{})
			if testDS.Dim > res.Features {
				if !errors.Is(err, model.ErrFeatureSpace) {
					t.Fatalf("Predict on wider data: %v, want ErrFeatureSpace", err)
				}
				if p, err = Predict(m, testName, PredictOptions{AllowExtraFeatures: true}); err != nil || len(p.Notes) != 1 {
					t.Fatalf("Predict allowing extra features: %v, %+v", err, p)
				}
			} else if testDS.Dim < res.Features {
				if !errors.Is(err, model.ErrFeatureSpace) {
					t.Fatalf("Predict on narrower data: %v, want ErrFeatureSpace", err)
				}
				if p, err = Predict(m, testName, PredictOptions{AllowFewerFeatures: true}); err != nil || len(p.Notes) != 1 {
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

func TestEvaluate(t *testing.T) {
	// Scores 0.9 0.8 0.7 0.6 0.5 0.4 for labels + + − + − −: P = N = 3.
	scores := []float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4}
	y := []int8{1, 1, -1, 1, -1, -1}
	e, err := Evaluate(scores, y)
	if err != nil {
		t.Fatal(err)
	}
	auc, _ := metric.AUC(scores, y)
	if e.AUC != auc || e.AUC != 8.0/9 || e.Positives != 3 || e.Negatives != 3 || e.ROCPoints != 7 {
		t.Errorf("Evaluate = %+v, want AUC 8/9, 3+3, 7 points", e)
	}
	// At threshold 0.6: TP 3, FP 1, TN 2, FN 0 → accuracy 5/6, F1 6/7, the best F1; at
	// 0.8: TP 2, FP 0, TN 3, FN 1 → accuracy 5/6 too, F1 4/5: the tie on accuracy goes
	// to the higher threshold.
	wantF1 := Threshold{Threshold: 0.6, Accuracy: 5.0 / 6, Precision: 0.75, Recall: 1, F1: 6.0 / 7, TP: 3, FP: 1, TN: 2, FN: 0}
	wantAcc := Threshold{Threshold: 0.8, Accuracy: 5.0 / 6, Precision: 1, Recall: 2.0 / 3, F1: 0.8, TP: 2, FP: 0, TN: 3, FN: 1}
	if e.BestF1 != wantF1 || e.BestAccuracy != wantAcc {
		t.Errorf("best F1 %+v, best accuracy %+v, want %+v and %+v", e.BestF1, e.BestAccuracy, wantF1, wantAcc)
	}
	// FPR 1%, 5%, 10% all lie on the first vertical run up to TPR 2/3, then the segment
	// to (1/3, 2/3): TPR stays 2/3.
	for _, r := range e.TPRAt {
		if math.Abs(r.TPR-2.0/3) > 1e-15 {
			t.Errorf("TPR at FPR %v = %v, want 2/3", r.FPR, r.TPR)
		}
	}
	// A tie moves diagonally: interpolation on it.
	e2, _ := Evaluate([]float64{1, 1, 0}, []int8{1, -1, -1}) // (0,0) → (½,1) → (1,1)
	if got := e2.TPRAt[2].TPR; math.Abs(got-0.2) > 1e-15 {
		t.Errorf("TPR at FPR 10%% on a tie = %v, want 0.2", got)
	}
	// All scores useless and positives rare: predicting nothing positive is best; the
	// threshold says so with a finite number above every score.
	e3, _ := Evaluate([]float64{0, 0, 0, 0}, []int8{1, -1, -1, -1})
	if e3.BestAccuracy.TP != 0 || e3.BestAccuracy.Accuracy != 0.75 || !(e3.BestAccuracy.Threshold > 0) || math.IsInf(e3.BestAccuracy.Threshold, 0) {
		t.Errorf("best accuracy %+v, want nothing positive at a finite threshold above 0", e3.BestAccuracy)
	}
	if _, err := Evaluate([]float64{1, 2}, []int8{1, 1}); !errors.Is(err, metric.ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
}
