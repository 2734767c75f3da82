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
		{"missing explanations", []string{"--protocol", "opauc", "--datasets", "german", "--explain", "/nonexistent/explain.tsv"}, "--explain: open /nonexistent/explain.tsv"},
		{"bad explanations", []string{"--render", "testdata/none.json", "--explain", "experiment_test.go"}, "--explain: experiment_test.go:1: header"},
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

// TestRenderCommitted re-renders every committed table of bench/results from its JSON
// with bench/results/explain.tsv, as `aucopt experiment --render X.json --out X.md`
// does there, and requires both files byte-identical to the committed ones: the .md and
// the JSON's explanations agree, and rendering an unchanged input changes nothing.
func TestRenderCommitted(t *testing.T) {
	const results = "../../bench/results"
	jsons, err := filepath.Glob(filepath.Join(results, "*.json"))
	if err != nil || len(jsons) == 0 {
		t.Fatalf("no JSON in %s: %v", results, err)
	}
	dir := t.TempDir()
	explain, err := os.ReadFile(filepath.Join(results, explainFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, explainFile), explain, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, js := range jsons {
		name := strings.TrimSuffix(filepath.Base(js), ".json")
		t.Run(name, func(t *testing.T) {
			wantJSON, err := os.ReadFile(js)
			if err != nil {
				t.Fatal(err)
			}
			wantMD, err := os.ReadFile(filepath.Join(results, name+".md"))
			if err != nil {
				t.Fatal(err)
			}
			in, md := filepath.Join(dir, name+".json"), filepath.Join(dir, name+".md")
			if err := os.WriteFile(in, wantJSON, 0o644); err != nil {
				t.Fatal(err)
			}
			var out, errOut bytes.Buffer
			if status := run([]string{"experiment", "--render", in, "--out", md}, &out, &errOut); status != 0 {
				t.Fatalf("--render exited %d: %s", status, errOut.String())
			}
			for _, f := range []struct {
				path string
				want []byte
			}{{in, wantJSON}, {md, wantMD}} {
				got, err := os.ReadFile(f.path)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, f.want) {
					t.Errorf("%s re-rendered differs from the committed file (run aucopt experiment --render %s.json --out %s.md in bench/results)",
						filepath.Base(f.path), name, name)
				}
			}
		})
	}
}

// TestRenderExplain checks that --render with --out rewrites the JSON's explanations
// from --explain together with the .md, and leaves the JSON alone without --out.
func TestRenderExplain(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../bench/results/mba-small.json")
	if err != nil {
		t.Fatal(err)
	}
	in, md, ex := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md"), filepath.Join(dir, "other.tsv")
	if err := os.WriteFile(in, src, 0o644); err != nil {
		t.Fatal(err)
	}
	const why = "a reason checked by TestRenderExplain"
	if err := os.WriteFile(ex, []byte("protocol\tdataset\talgo\texplanation\n*\tgerman\t*\t"+why+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if status := run([]string{"experiment", "--render", in, "--explain", ex}, &out, &errOut); status != 0 || !strings.Contains(out.String(), why) {
		t.Fatalf("--render to stdout: exit %d, stderr %s", status, errOut.String())
	}
	if got, _ := os.ReadFile(in); !bytes.Equal(got, src) {
		t.Errorf("--render without --out rewrote the JSON")
	}
	if status := run([]string{"experiment", "--render", in, "--out", md, "--explain", ex}, &out, &errOut); status != 0 {
		t.Fatalf("--render --out: exit %d, stderr %s", status, errOut.String())
	}
	for _, f := range []string{in, md} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), why) {
			t.Errorf("%s lacks the new explanation", filepath.Base(f))
		}
	}
}
