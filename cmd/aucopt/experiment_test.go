package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExperimentCommand(t *testing.T) {
	t.Setenv("AUCOPT_DATA", t.TempDir()) // the embedded german
	t.Setenv("AUCOPT_BACKEND", "generic")
	dir := t.TempDir()
	md := filepath.Join(dir, "german.md")
	args := []string{"experiment", "--protocol", "opauc", "--datasets", "german", "--algos", "opauc,ls-auc", "--trials", "1", "--folds", "3",
		"--inner-folds", "1", "--grid", "opauc=eta=2^[-8..-6];lambda=0.01", "--grid", "ls-auc=lambda=0.001,0.1", "--out", md}
	var out, errOut bytes.Buffer
	if status := run(args, &out, &errOut); status != 0 {
		t.Fatalf("experiment exited %d: %s", status, errOut.String())
	}
	if n := strings.Count(errOut.String(), "] german"); n != 6 {
		t.Errorf("%d progress lines, want 6 (3 folds × 2 algorithms):\n%s", n, errOut.String())
	}
	b, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| dataset | **opauc** | ls-auc |", "| german |", "| win/tie/loss |", "held-out share", "opauc on the grid eta=2^[-8..-6];lambda=0.01"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %q:\n%s", md, want, b)
		}
	}
	js, err := os.ReadFile(filepath.Join(dir, "german.json"))
	if err != nil {
		t.Fatalf("no JSON beside --out: %v", err)
	}
	var rep struct {
		Protocol string
		Tables   []struct{ Algos []string }
	}
	if err := json.Unmarshal(js, &rep); err != nil || rep.Protocol != "opauc" || len(rep.Tables) != 1 || len(rep.Tables[0].Algos) != 2 {
		t.Errorf("JSON %v: %s", err, js)
	}

	// Markdown on stdout without --out; nothing on stderr with --quiet.
	out.Reset()
	errOut.Reset()
	args = []string{"experiment", "--protocol", "opauc", "--datasets", "german", "--algos", "ls-auc", "--trials", "1", "--folds", "2",
		"--grid", "ls-auc=lambda=0.01", "--quiet"}
	if status := run(args, &out, &errOut); status != 0 || errOut.Len() != 0 || !strings.Contains(out.String(), "| german |") {
		t.Errorf("exit %d, stderr %q, stdout:\n%s", status, errOut.String(), out.String())
	}
}

func TestExperimentInputErrors(t *testing.T) {
	t.Setenv("AUCOPT_DATA", t.TempDir())
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no protocol", nil, "--protocol is required"},
		{"unknown protocol", []string{"--protocol", "nope"}, "unknown protocol"},
		{"unknown dataset", []string{"--protocol", "opauc", "--datasets", "nope"}, "unknown dataset"},
		{"unknown algorithm", []string{"--protocol", "opauc", "--datasets", "german", "--algos", "nope"}, "unknown algorithm"},
		{"bad grid", []string{"--protocol", "opauc", "--datasets", "german", "--grid", "opauc"}, "want ALGO=SPEC"},
		{"negative trials", []string{"--protocol", "opauc", "--trials", "-1"}, "--trials -1"},
		{"one fold", []string{"--protocol", "opauc", "--folds", "1"}, "--folds 1"},
		{"bad holdout", []string{"--protocol", "opauc", "--holdout", "1.5"}, "--holdout"},
		{"missing directory", []string{"--protocol", "opauc", "--datasets", "german", "--out", "/nonexistent/x.md"}, "does not exist"},
		{"extra argument", []string{"--protocol", "opauc", "german"}, "unexpected argument"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(append([]string{"experiment"}, tt.args...), &out, &errOut)
			if status != exitInput || !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", status, errOut.String(), exitInput, tt.want)
			}
		})
	}
}
