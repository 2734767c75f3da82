package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	aucmodel "github.com/aucopt/aucopt/engine/model"
)

// TestTrainAutoCommand runs aucopt train --algo auto on german and checks the
// leaderboard in the text and JSON output and the choice recorded in the model file.
func TestTrainAutoCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir) // the embedded german
	t.Setenv("AUCOPT_BACKEND", "")
	model := filepath.Join(dir, "m.json")
	var out, errOut bytes.Buffer
	if status := run([]string{"train", "--algo", "auto", "--data", "german", "--budget", "30s", "--json", "--quiet", "--model", model}, &out, &errOut); status != 0 {
		t.Fatalf("train --algo auto exited %d: %s", status, errOut.String())
	}
	var res struct {
		Algo        string `json:"algo"`
		Leaderboard []struct {
			Algo   string   `json:"algo"`
			ValAUC *float64 `json:"val_auc"`
		} `json:"leaderboard"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out.String())
	}
	if len(res.Leaderboard) == 0 || res.Leaderboard[0].Algo != res.Algo || res.Leaderboard[0].ValAUC == nil {
		t.Errorf("winner %s, leaderboard %+v", res.Algo, res.Leaderboard)
	}
	m, err := aucmodel.Read(model)
	if err != nil || m.Algo != res.Algo || len(m.Notes) == 0 || !strings.HasPrefix(m.Notes[len(m.Notes)-1], "auto: "+res.Algo) {
		t.Errorf("model file: %v, algorithm %s, notes %q", err, m.Algo, m.Notes)
	}

	out.Reset()
	errOut.Reset()
	if status := run([]string{"train", "--algo", "auto", "--data", "german", "--budget", "30s"}, &out, &errOut); status != 0 {
		t.Fatalf("train --algo auto exited %d: %s", status, errOut.String())
	}
	for _, want := range []string{"val AUC", "trial s", "est. s", "winner ", "first in portfolio order within 0.0", "of search after"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
	// Progress: a line as each candidate starts and as it ends, with the best so far
	// and the time left.
	for _, want := range []string{"auto: unilog        started: estimated ", "1 done, best validation AUC 0.", "s left\n"} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("progress lacks %q:\n%s", want, errOut.String())
		}
	}
}

// TestAutoDegenerateCommand checks that auto gives train's exit status on data it
// cannot select on: one row or one class exit 2 with one line, as train does; one
// positive in 2,000 rows trains, as --algo unilog does, and says why nothing was
// chosen.
func TestAutoDegenerateCommand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("one.svm", "1 1:0.5 2:1\n")
	oneClass := write("oneclass.svm", "1 1:0.5 2:1\n1 1:0.2\n1 2:3\n")
	var rare strings.Builder
	for i := range 2000 {
		y := -1
		if i == 1000 {
			y = 1
		}
		fmt.Fprintf(&rare, "%d 1:%g 2:%g\n", y, float64(i%37)/37, float64(i%11)/11)
	}
	rareFile := write("rare.svm", rare.String())
	for _, data := range []string{one, oneClass} {
		runFailing(t, "train", []string{"--algo", "unilog", "--data", data, "--quiet"}, 2, "training data has only one class")
		runFailing(t, "train", []string{"--algo", "auto", "--data", data, "--quiet"}, 2, "training data has only one class")
	}
	for _, algo := range []string{"unilog", "auto"} {
		var out, errOut bytes.Buffer
		if status := run([]string{"train", "--algo", algo, "--data", rareFile, "--quiet"}, &out, &errOut); status != 0 {
			t.Errorf("--algo %s on one positive in 2000 rows exited %d: %s", algo, status, errOut.String())
		}
		if algo == "auto" && !strings.Contains(out.String(), "without selection") {
			t.Errorf("--algo auto on one positive in 2000 rows does not say it did not select:\n%s", out.String())
		}
	}
}

func TestAutoCommandErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"train", "--algo", "auto", "-p", "lambda=1"}, "--param does not apply"},
		{[]string{"train", "--algo", "auto", "--grid"}, "--grid does not apply"},
		{[]string{"train", "--algo", "auto", "--passes", "2"}, "--passes does not apply"},
		{[]string{"train", "--algo", "opauc", "--budget", "5s"}, "--budget goes with --algo auto"},
		{[]string{"cv", "--algo", "auto", "--grid"}, "--grid does not apply"},
		{[]string{"cv", "--algo", "ls-auc", "--budget", "5s"}, "--budget goes with --algo auto"},
		{[]string{"train", "--algo", "auto", "--budget", "-1s"}, "--budget -1s: want a positive duration"},
		{[]string{"train", "--algo", "auto", "--budget", "0"}, "--budget 0s: want a positive duration"},
		{[]string{"cv", "--algo", "auto", "--budget", "0s"}, "--budget 0s: want a positive duration"},
		{[]string{"train", "--algo", "auto", "--bins", "5"}, "--algo auto chooses whether to bin the features (its candidate unilog+bins10"},
		{[]string{"train", "--algo", "auto", "--data", "german", "--budget", "1ns"}, "auto: a budget of 1ns is too short for german"},
	}
	for _, tt := range tests {
		runFailing(t, tt.args[0], tt.args[1:], 2, tt.want)
	}
}

// TestHelpParamsScaled checks that --help-params marks the data-scaled defaults.
func TestHelpParamsScaled(t *testing.T) {
	tests := []struct {
		algo, key string
		scaled    bool
	}{
		{"ls-auc", "lambda", true},
		{"opauc", "eta", true},
		{"opauc", "lambda", true},
		{"ubauc-online", "center", true}, // the same on both datasets, not the static default
		{"mba-l2", "pairs", true},
		{"olr", "eta", true}, // only when it makes more than one pass
		{"solam", "eta", false},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if status := run([]string{"train", "--algo", tt.algo, "--help-params"}, &out, &errOut); status != 0 {
			t.Fatalf("%s --help-params exited %d: %s", tt.algo, status, errOut.String())
		}
		var line string
		for l := range strings.SplitSeq(out.String(), "\n") {
			if f := strings.Fields(l); len(f) > 0 && f[0] == tt.key {
				line = l
				break
			}
		}
		if got := strings.Contains(line, "scaled to the training data"); got != tt.scaled {
			t.Errorf("%s %s: line %q, want scaled %v", tt.algo, tt.key, line, tt.scaled)
		}
	}
}

// TestHelpParamsPasses checks the default passes --help-params states: ⌈MinSteps/rows⌉
// below solver.OnePassRows rows, one from there on, even where MinSteps is larger.
func TestHelpParamsPasses(t *testing.T) {
	for algo, want := range map[string]string{
		"opauc":   "⌈50000/rows⌉, at most 100, one from 20000 rows on",
		"oam-seq": "⌈30000/rows⌉, at most 100, one from 20000 rows on",
		"solam":   "⌈20000/rows⌉, at most 100, one from 20000 rows on",
		"fsauc":   "passes (--passes 0, the default): one\n",
	} {
		var out, errOut bytes.Buffer
		if status := run([]string{"train", "--algo", algo, "--help-params"}, &out, &errOut); status != 0 {
			t.Fatalf("%s --help-params exited %d: %s", algo, status, errOut.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s --help-params:\n%s\nwant passes line %q", algo, out.String(), want)
		}
	}
}
