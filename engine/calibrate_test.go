package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/fallback"
)

// TestCalibrateA9A: a model calibrated on held-out training rows of the embedded a9a
// gives its test part a lower log-loss and Brier score than a sigmoid of the raw
// scores, and the weights are trained on the other rows only.
func TestCalibrateA9A(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir()) // the embedded a9a
	for _, method := range []string{model.CalibratePlatt, model.CalibrateIsotonic} {
		res, err := Train(context.Background(), TrainConfig{Algo: "spam-l2", Data: "a9a", Shuffle: true, Seed: 1,
			Backend: fallback.New(), Calibrate: method, NoFingerprint: true})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Calibration
		if c == nil || c.Method != method || c.Holdout != DefaultCalibrateHoldout || c.Rows+res.TrainRows != 32561 {
			t.Fatalf("%s: calibration %+v after %d training rows, want %s on the rest of 32,561 rows at 0.2", method, c, res.TrainRows, method)
		}
		if !strings.Contains(strings.Join(res.Notes, "\n"), "calibration: "+method+" fitted on") {
			t.Errorf("%s: notes %q do not say how it was calibrated", method, res.Notes)
		}
		m := res.Model()
		p, err := Predict(context.Background(), m, "a9a", PredictOptions{})
		if err != nil {
			t.Fatal(err)
		}
		raw := make([]float64, len(p.Scores))
		for i, s := range p.Scores {
			raw[i] = model.Sigmoid(s)
		}
		cal := m.Probabilities(p.Scores)
		llRaw, _ := metric.LogLoss(raw, p.Y)
		llCal, err := metric.LogLoss(cal, p.Y)
		if err != nil {
			t.Fatal(err)
		}
		brRaw, _ := metric.Brier(raw, p.Y)
		brCal, _ := metric.Brier(cal, p.Y)
		t.Logf("%s on a9a's test part: log-loss %.4f (sigmoid of raw scores %.4f), Brier %.4f (%.4f)", method, llCal, llRaw, brCal, brRaw)
		if !(llCal < llRaw && brCal < brRaw) || llCal > 0.36 {
			t.Errorf("%s: calibrated log-loss %.4f Brier %.4f, sigmoid of raw scores %.4f %.4f: want lower, log-loss ≤ 0.36", method, llCal, brCal, llRaw, brRaw)
		}
	}
}

// TestHoldOut: --test-split holds out a stratified share of the training rows as the
// test data, in place of a dataset's own test part; bad shares and combinations are
// input errors.
func TestHoldOut(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	res, err := Train(context.Background(), TrainConfig{Algo: "spam-l2", Data: "a9a", Shuffle: true, Seed: 3,
		Backend: fallback.New(), TestSplit: 0.25, NoFingerprint: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.TrainRows+res.TestRows != 32561 || res.TestRows != 8140 && res.TestRows != 8141 {
		t.Errorf("train %d + test %d rows, want a quarter of a9a's 32,561 training rows held out", res.TrainRows, res.TestRows)
	}
	if !(res.TestAUC > 0.88) {
		t.Errorf("test AUC %v on the held-out rows", res.TestAUC)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "in place of a9a's own test part") {
		t.Errorf("notes %q do not say the test data were held out", res.Notes)
	}
	for _, tt := range []struct {
		name string
		cfg  TrainConfig
		want string
	}{
		{"share 1", TrainConfig{TestSplit: 1}, "test split 1: want a share"},
		{"negative", TrainConfig{TestSplit: -0.1}, "test split -0.1"},
		{"with a test file", TrainConfig{TestSplit: 0.2, Test: "a9a"}, "not both"},
		{"unknown method", TrainConfig{Calibrate: "probit"}, `calibration "probit"`},
		{"holdout alone", TrainConfig{CalibrateHoldout: 0.3}, "without a calibration method"},
		{"holdout 0.5 fine, 1 not", TrainConfig{Calibrate: "platt", CalibrateHoldout: 1}, "calibration hold-out 1"},
		{"out of core", TrainConfig{Algo: "ls-auc", Calibrate: "platt", OutOfCore: true}, "out-of-core"},
	} {
		cfg := tt.cfg
		if cfg.Algo == "" {
			cfg.Algo = "spam-l2"
		}
		cfg.Data = "a9a"
		_, err := Train(context.Background(), cfg)
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an input error with %q", tt.name, err, tt.want)
		}
	}
}
