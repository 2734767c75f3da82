package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	aucmodel "github.com/aucopt/aucopt/engine/model"
)

func TestTrainCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir) // the embedded a9a
	t.Setenv("AUCOPT_BACKEND", "")
	model := filepath.Join(dir, "m.json")
	var out, errOut bytes.Buffer
	status := run([]string{"train", "--algo", "ubauc-online", "--json", "--quiet", "--model", model}, &out, &errOut)
	if status != 0 {
		t.Fatalf("train exited %d: %s", status, errOut.String())
	}
	var res map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out.String())
	}
	for _, k := range []string{"algo", "params", "backend", "train_rows", "features", "passes", "seconds", "test_auc"} {
		if _, ok := res[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out.String())
		}
	}
	if auc := res["test_auc"].(float64); auc < 0.89 {
		t.Errorf("test AUC %.4f", auc)
	}
	m, err := aucmodel.Read(model)
	if err != nil || len(m.Weights) != 123 || m.Algo != "ubauc-online" || m.Scaling.Kind != data.ScaleMinMax ||
		m.TestAUC != res["test_auc"].(float64) || len(m.TrainSHA256) != 64 {
		t.Errorf("model file: %v, %+v", err, m)
	}
}

func TestTrainCommandErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	one := filepath.Join(dir, "one.svm")
	os.WriteFile(one, []byte("+1 1:1\n+1 2:1\n"), 0o644)
	bad := filepath.Join(dir, "bad.svm")
	os.WriteFile(bad, []byte("+1 1:1\n-1 x:1\n"), 0o644) // (an index 0 makes a file numbered from 0)
	model := filepath.Join(dir, "m.json")
	tests := []struct {
		args   []string
		status int
		want   string
	}{
		// the user's input: exit 2
		{[]string{"train", "--algo", "svm"}, 2, `aucopt train: unknown algorithm "svm" (known: opauc, opaucr,`},
		{[]string{"train", "--algo", "olr", "-p", "gamma=1"}, 2, `unknown key "gamma" (valid: eta, lambda)`},
		{[]string{"train", "--algo", "olr", "-p", "eta"}, 2, `"eta" is not key=value`},
		{[]string{"train", "--algo", "olr", "-p", "eta=1e300"}, 2, "bad parameter: eta*lambda"},
		{[]string{"train", "--passes", "-1"}, 2, "--passes -1: want 0 (the learner's default) or more"},
		{[]string{"train", "--algo", "olr", "--data", one, "--model", model}, 2, "only one class"},
		{[]string{"train", "--algo", "olr", "--data", bad}, 2, "bad.svm:2:4: bad feature index"},
		{[]string{"train", "--algo", "olr", "--data", filepath.Join(dir, "nowhere.svm")}, 2, "nowhere.svm is neither a file nor a known dataset"},
		{[]string{"train", "--algo", "olr", "--data", dir}, 2, "is a directory, not a data file"},
		{[]string{"train", "--data", "german", "--scale", "zscore"}, 2, `unknown scaling "zscore"`},
		{[]string{"train", "--data", "german", "--backend", "tpu"}, 2, `unknown backend "tpu"`},
		{[]string{"train", "--data", "german", "--model", filepath.Join(dir, "no", "m.json")}, 2, "--model " + filepath.Join(dir, "no", "m.json") + ": directory " + filepath.Join(dir, "no") + " does not exist"},
		{[]string{"train", "--data", "german", "--grid", "eta=x"}, 2, `grid eta=x: "x" is not a number`},
		{[]string{"train", "--algo", "ls-auc", "--data", "german", "--passes", "2"}, 2, "--passes does not apply"},
		{[]string{"train", "--bogus"}, 2, "aucopt train: unknown flag: --bogus (see aucopt train --help)"},
		{[]string{"train", "--algo", "ls-auc", "--data", bad, "--out-of-core"}, 2, "bad.svm:2:4: bad feature index"},
		{[]string{"train", "--algo", "ls-auc", "--data", one, "--out-of-core", "--model", model}, 2, "only one class"},
		{[]string{"train", "--algo", "olr", "--data", one, "--out-of-core"}, 2, "olr is an online algorithm"},
		{[]string{"train", "--algo", "mba-l2", "--data", one, "--out-of-core"}, 2, "set -p pairs=all"},
		{[]string{"train", "--algo", "ls-auc", "-p", "steps=5", "--data", one, "--out-of-core"}, 2, "ls-auc needs the rows, not only the class moments (early stopping"},
		{[]string{"train", "--algo", "ls-auc", "--data", "german", "--out-of-core"}, 2, `--out-of-core reads a data file; "german" is not one`},
		{[]string{"train", "--algo", "ls-auc", "--data", one, "--out-of-core", "--scale", "norm"}, 2, "--scale norm needs a pass"},
		{[]string{"train", "--algo", "ls-auc", "--data", one, "--out-of-core", "--shuffle"}, 2, "--shuffle does not apply"},
		{[]string{"train", "--algo", "ls-auc", "--data", "german", "--average", "2"}, 2, "ls-auc is a batch algorithm"},
		{[]string{"train", "--data", "german", "--average", "0"}, 2, "--average 0: want at least 1"},
		// the computation failed: exit 1
		{[]string{"train", "--algo", "opauc", "--data", "german", "-p", "eta=1e300", "--model", model}, 1, "aucopt train: train opauc on german: diverged at pass 1"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		status := run(append(tt.args, "--quiet"), &out, &errOut)
		if status != tt.status || !strings.Contains(errOut.String(), tt.want) || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want exit %d with %q in one line", tt.args, status, errOut.String(), tt.status, tt.want)
		}
	}
	if _, err := os.Stat(model); !os.IsNotExist(err) {
		t.Error("a failed training run wrote a model")
	}
	var out, errOut bytes.Buffer
	if status := run([]string{"train", "--algo", "spam-net", "--help-params"}, &out, &errOut); status != 0 ||
		!strings.Contains(out.String(), "beta1") || !strings.Contains(out.String(), "paper grid") {
		t.Errorf("--help-params: exit %d, %s", status, out.String())
	}
}

func TestTrainGridCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir) // the embedded german
	model := filepath.Join(dir, "m.json")
	var out, errOut bytes.Buffer
	args := []string{"train", "--algo", "spam-l2", "--data", "german", "--grid", "eta=0.01,0.1;beta=1e-4,1e-2", "--grid-folds", "3", "--json", "--model", model}
	if status := run(args, &out, &errOut); status != 0 {
		t.Fatalf("exit %d: %s", status, errOut.String())
	}
	var res struct {
		Algo      string           `json:"algo"`
		Grid      []map[string]any `json:"grid"`
		Best      int              `json:"best"`
		Selection string           `json:"selection"`
		Params    map[string]any   `json:"params"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out.String())
	}
	if res.Algo != "spam-l2" || len(res.Grid) != 4 || !strings.Contains(res.Selection, "3-fold") || res.Params["eta"] != res.Grid[res.Best]["params"].(map[string]any)["eta"] {
		t.Errorf("grid result %+v", res)
	}
	if _, err := os.Stat(model); err != nil {
		t.Errorf("no model written: %v", err)
	}
	out.Reset()
	if status := run([]string{"train", "--data", "german", "--grid", "eta=2^[-8..-7]", "--quiet"}, &out, &errOut); status != 0 ||
		!strings.Contains(out.String(), "opauc grid on german: 2 points") || !strings.Contains(out.String(), "shared statistics") {
		t.Errorf("bare grid output (exit %d): %s %s", status, out.String(), errOut.String())
	}
	out.Reset()
	if status := run([]string{"train", "--data", "german", "--grid", "eta=0.001", "--quiet"}, &out, &errOut); status != 0 ||
		!strings.Contains(out.String(), "a grid of one point, trained without selection") || !strings.Contains(out.String(), "eta=0.001") {
		t.Errorf("one-point grid output (exit %d): %s %s", status, out.String(), errOut.String())
	}
}

func TestFailureSummary(t *testing.T) {
	auc := 0.9
	ok := engine.GridPoint{ValAUC: &auc}
	bad := func(why string) engine.GridPoint { return engine.GridPoint{Failed: why} }
	tests := []struct {
		name   string
		points []engine.GridPoint
		want   string
	}{
		{"none failed", []engine.GridPoint{ok, ok}, "0 failed"},
		{"one reason", []engine.GridPoint{ok, bad("diverged at example 12"), bad("diverged at example 7")}, "2 failed: 2 diverged at example N"},
		{"most common first", []engine.GridPoint{bad("solver: out of memory"), bad("diverged at example 3"), bad("diverged at example 40")},
			"3 failed: 2 diverged at example N; 1 other reasons, see --json"},
		{"no reason", []engine.GridPoint{bad("")}, "1 failed: 1 no reason given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := failureSummary(tt.points); got != tt.want {
				t.Errorf("failureSummary = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCheckNotInput(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	in := filepath.Join(dir, "in.svm")
	if err := os.WriteFile(in, []byte("+1 1:1\n-1 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.svm", filepath.Join(dir, "link.svm")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "german.numer"), 0o755); err != nil {
		t.Fatal(err)
	}
	german := filepath.Join(dir, "german.numer", "german_scale.txt.xz")
	if err := os.WriteFile(german, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		out     string
		inputs  []string
		refused bool
	}{
		{"the input itself", in, []string{in}, true},
		{"through a link", filepath.Join(dir, "link.svm"), []string{in}, true},
		{"the link's target by another path", in, []string{filepath.Join(dir, ".", "link.svm")}, true},
		{"another file", filepath.Join(dir, "out.json"), []string{in}, false},
		{"two new files of one path", filepath.Join(dir, "new.json"), []string{filepath.Join(dir, "sub", "..", "new.json")}, true},
		{"a dataset's file in the data directory", german, []string{"german"}, true},
		{"a dataset name elsewhere", filepath.Join(dir, "g.json"), []string{"german"}, false},
		{"no input", in, []string{""}, false},
		{"no output", "", []string{in}, false},
		{"a device", os.DevNull, []string{os.DevNull}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkNotInput("--out", tt.out, tt.inputs...)
			if (err != nil) != tt.refused {
				t.Errorf("checkNotInput(%s, %q) = %v, want refused %v", tt.out, tt.inputs, err, tt.refused)
			}
			if err != nil && exitStatus(err) != 2 {
				t.Errorf("exit status %d, want 2", exitStatus(err))
			}
		})
	}
}
