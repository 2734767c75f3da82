package main

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	aucmodel "github.com/aucopt/aucopt/engine/model"
)

// TestCalibrateCLI: train --calibrate records the map, predict --proba writes the
// model's probability of each row beside its score, and eval reports log-loss and the
// Brier score (of the calibration, or of a sigmoid of the raw score) and where the
// thresholds were chosen.
func TestCalibrateCLI(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, dir)
	t.Setenv("AUCOPT_BACKEND", "")
	cal, raw := filepath.Join(dir, "cal.json"), filepath.Join(dir, "raw.json")
	var out, errOut bytes.Buffer
	if status := run([]string{"train", "--algo", "spam-l2", "--data", "german", "--calibrate", "isotonic", "--calibrate-holdout", "0.3", "--model", cal, "--quiet"}, &out, &errOut); status != 0 {
		t.Fatalf("train --calibrate exited %d: %s", status, errOut.String())
	}
	if !strings.Contains(out.String(), "note: calibration: isotonic fitted on 300 held-out training rows (a stratified 0.3 split, seed 1)") {
		t.Errorf("train output does not say how it calibrated:\n%s", out.String())
	}
	if status := run([]string{"train", "--algo", "spam-l2", "--data", "german", "--model", raw, "--quiet"}, &out, &errOut); status != 0 {
		t.Fatalf("train exited %d: %s", status, errOut.String())
	}
	m, err := aucmodel.Read(cal)
	if err != nil || m.Calibration == nil || m.Calibration.Method != "isotonic" || m.Calibration.Holdout != 0.3 {
		t.Fatalf("model %s: %v, calibration %+v", cal, err, m.Calibration)
	}
	out.Reset()
	if status := run([]string{"predict", "--model", cal, "--data", "german", "--proba"}, &out, &errOut); status != 0 {
		t.Fatalf("predict --proba exited %d: %s", status, errOut.String())
	}
	head, recs := readPredictions(t, out.Bytes())
	if strings.Join(head, ",") != "label,score,probability" {
		t.Errorf("header %q, want label,score,probability", head)
	}
	if len(recs) != 1000 {
		t.Errorf("%d rows, want german's 1000 rows", len(recs))
	}
	for i, f := range recs {
		s, err1 := strconv.ParseFloat(f[1], 64)
		p, err2 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || p != m.Calibration.Prob(s) {
			t.Fatalf("row %d %q: probability is not the calibration's of the score (%v)", i+1, f, m.Calibration.Prob(s))
		}
	}
	for _, tt := range []struct {
		model, source string
	}{{cal, "isotonic"}, {raw, "sigmoid of the raw score"}} {
		out.Reset()
		if status := run([]string{"eval", "--model", tt.model, "--data", "german", "--json"}, &out, &errOut); status != 0 {
			t.Fatalf("eval exited %d: %s", status, errOut.String())
		}
		var rep struct {
			Probabilities struct {
				Source  string  `json:"source"`
				LogLoss float64 `json:"log_loss"`
				Brier   float64 `json:"brier"`
			} `json:"probabilities"`
			Thresholds string `json:"thresholds"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		pr := rep.Probabilities
		if pr.Source != tt.source || !(pr.LogLoss > 0 && pr.LogLoss < 2) || !(pr.Brier > 0 && pr.Brier < 1) || !strings.Contains(rep.Thresholds, "evaluated data") {
			t.Errorf("eval %s: probabilities %+v, thresholds %q", tt.model, pr, rep.Thresholds)
		}
		out.Reset()
		run([]string{"eval", "--model", tt.model, "--data", "german"}, &out, &errOut)
		want := "log-loss " + strconv.FormatFloat(pr.LogLoss, 'f', 4, 64)
		if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), tt.source) || !strings.Contains(out.String(), "thresholds were chosen on the evaluated data") {
			t.Errorf("eval text lacks %q, %q or the thresholds note:\n%s", want, tt.source, out.String())
		}
		if math.IsNaN(pr.LogLoss) {
			t.Error("NaN log-loss")
		}
	}
	runFailing(t, "predict", []string{"--model", raw, "--data", "german", "--proba"}, 2, "is not calibrated")
}

// TestHoldOutFlags: train's --test-split and --calibrate flags refuse what cannot take
// effect, before any work.
func TestHoldOutFlags(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--test-split", "0"}, "--test-split 0: want a share"},
		{[]string{"--test-split", "1.5"}, "--test-split 1.5"},
		{[]string{"--test-split", "0.2", "--test", "a9a"}, "not both"},
		{[]string{"--calibrate-holdout", "0.3"}, "--calibrate-holdout goes with --calibrate"},
		{[]string{"--calibrate", "platt", "--calibrate-holdout", "1"}, "--calibrate-holdout 1"},
		{[]string{"--calibrate", "probit"}, `--calibrate "probit"`},
		{[]string{"--calibrate-folds", "5"}, "--calibrate-folds goes with --calibrate"},
		{[]string{"--calibrate", "platt", "--calibrate-folds", "5", "--calibrate-holdout", "0.3"}, "not both"},
		{[]string{"--calibrate", "platt", "--calibrate-folds", "1", "--data", "german"}, "calibration folds 1: want at least 2"},
		{[]string{"--calibrate", "platt", "--calibrate-folds", "3", "--data", "german", "--grid", "lambda=0.1,1"}, "cross-fitted calibration"},
		{[]string{"--algo", "auto", "--calibrate", "platt"}, "--calibrate does not apply"},
		{[]string{"--algo", "auto", "--test-split", "0.2"}, "--test-split does not apply"},
		{[]string{"--algo", "ls-auc", "--out-of-core", "--test-split", "0.2", "--scale", "none"}, "out-of-core"},
	} {
		runFailing(t, "train", tt.args, 2, tt.want)
	}
	// Cross-fitted: the weights are the uncalibrated run's, the model records the folds.
	dir := t.TempDir()
	runOK(t, "train", "--algo", "spam-l2", "--data", "german", "--model", dir+"/plain.json", "--quiet")
	runOK(t, "train", "--algo", "spam-l2", "--data", "german", "--calibrate", "platt", "--calibrate-folds", "4", "--model", dir+"/cross.json", "--quiet")
	plain, err := aucmodel.Read(dir + "/plain.json")
	if err != nil {
		t.Fatal(err)
	}
	cross, err := aucmodel.Read(dir + "/cross.json")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plain.Weights, cross.Weights) || cross.Calibration == nil || cross.Calibration.Folds != 4 || cross.Calibration.Rows != 1000 {
		t.Errorf("cross-fitted model: calibration %+v, weights the plain run's: %v", cross.Calibration, slices.Equal(plain.Weights, cross.Weights))
	}
	if ins := runOK(t, "inspect", "--model", dir+"/cross.json"); !strings.Contains(ins, "fitted on the out-of-fold scores of 1000 training rows (4 folds)") {
		t.Errorf("inspect:\n%s", ins)
	}
	out := runOK(t, "train", "--algo", "spam-l2", "--data", "german", "--test-split", "0.2", "--quiet")
	if !strings.Contains(out, "note: test data: 200 of the 1000 training rows held out (stratified 0.2 split, seed 1)") || !strings.Contains(out, "test AUC") || !strings.Contains(out, "on 200 rows") {
		t.Errorf("train --test-split output:\n%s", out)
	}
}

// runOK runs `aucopt args…`, which must succeed, and returns its stdout.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if status := run(args, &out, &errOut); status != 0 {
		t.Fatalf("aucopt %s exited %d: %s", strings.Join(args, " "), status, errOut.String())
	}
	return out.String()
}

// TestDefaultFallback: with no --algo, a table too wide for OPAUC's d×d state trains
// LS-AUC (in memory) or SPAM-ℓ2 (streamed) instead and says so; named, or given
// parameters, OPAUC is refused as before.
func TestDefaultFallback(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_BACKEND", "")
	ctr := filepath.Join(dir, "ctr.csv")
	runOK(t, "gen", "--rows", "3000", "--out", ctr)
	base := []string{"train", "--data", ctr, "--label", "click", "--hash-bits", "14", "--max-memory", "64MB", "--quiet"}
	for _, tt := range []struct {
		extra []string
		algo  string
	}{{[]string{"--test-split", "0.2"}, "ls-auc"}, {[]string{"--shuffle=false", "--scale", "none"}, "spam-l2"}, {[]string{"--passes", "2", "--test-split", "0.2"}, "spam-l2"}} {
		out := runOK(t, append(slices.Clone(base), tt.extra...)...)
		if !strings.HasPrefix(out, tt.algo+" on ") || !strings.Contains(out, "note: the default algorithm opauc needs 4.3 GB for 16,384 features, more than the 64 MB of the memory limit given: trained "+tt.algo+" instead") {
			t.Errorf("%v: want %s with a note:\n%s", tt.extra, tt.algo, out)
		}
	}
	base = base[1:]
	runFailing(t, "train", append(slices.Clone(base), "--algo", "opauc"), 2, "opauc needs 4.3 GB")
	runFailing(t, "train", append(slices.Clone(base), "-p", "eta=0.1"), 2, "opauc needs 4.3 GB")
}
