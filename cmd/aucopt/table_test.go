package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTableCommands: the README's three commands on a CSV with a label column and
// categorical fields (train, eval, predict), gen and convert, and bad tables refused
// with one line naming file, line and column, exit status 2 and no model written.
func TestTableCommands(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_BACKEND", "generic")
	p := func(name string) string { return filepath.Join(dir, name) }
	cmd := func(want int, args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if got := run(args, &out, &errOut); got != want {
			t.Fatalf("aucopt %s: exit %d, want %d: %s%s", strings.Join(args, " "), got, want, out.String(), errOut.String())
		}
		return out.String() + errOut.String()
	}
	cmd(0, "gen", "--rows", "3000", "--out", p("train.csv"))
	cmd(0, "gen", "--rows", "1000", "--first-row", "1000000", "--out", p("test.parquet"))
	out := cmd(0, "train", "--algo", "ftrl", "--data", p("train.csv"), "--test", p("test.parquet"), "--label", "click", "--hash-bits", "12", "--model", p("m.json"), "--quiet")
	if !strings.Contains(out, "test AUC 0.") {
		t.Errorf("train: %s", out)
	}
	if out := cmd(0, "eval", "--model", p("m.json"), "--data", p("test.parquet")); !strings.Contains(out, "AUC") {
		t.Errorf("eval: %s", out)
	}
	if out := cmd(0, "predict", "--model", p("m.json"), "--data", p("test.parquet")); strings.Count(out, "\n") != 1001 { // the header and 1000 rows
		t.Errorf("predict: %d lines", strings.Count(out, "\n"))
	}
	cmd(0, "cv", "--algo", "olr", "--data", p("train.csv"), "--label", "click", "--hash-bits", "10", "--folds", "2")
	cmd(0, "convert", "--label", "click", "--hash-bits", "12", p("test.parquet"), p("test.svm"))
	cmd(0, "convert", p("test.parquet"), p("test.tsv"))

	bad := []struct {
		name, text string
		args       []string
		msg        string
	}{
		{"unknown label value", "label,x\n1,2\n0,3\n3,1\n", nil, ":4:1: column \"label\": bad label"},
		{"missing label column", "y,x\n1,2\n0,3\n", nil, ":1: bad columns: no label column \"label\""},
		{"ragged row", "label,x\n1,2\n0\n", nil, ":3:2: wrong number of fields: 1 fields, the header has 2"},
		{"non-numeric value", "label,x\n" + strings.Repeat("1,2\n0,3\n", 60) + "1,q\n", nil, ":122:2: column \"x\": bad feature value"},
		{"missing value", "label,x\n1,2\n0,\n", nil, ":3:2: column \"x\": missing value"},
		{"table flag on LIBSVM", "", []string{"--label", "y"}, "not a table"},
	}
	for i, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			file := p("bad" + string(rune('a'+i)) + ".csv")
			if tt.text == "" {
				file = p("test.svm")
			} else {
				os.WriteFile(file, []byte(tt.text), 0o644)
			}
			model := p("bad.json")
			out := cmd(2, append([]string{"train", "--algo", "olr", "--data", file, "--model", model, "--quiet"}, tt.args...)...)
			if !strings.Contains(out, tt.msg) || strings.Count(strings.TrimSpace(out), "\n") != 0 {
				t.Errorf("output %q, want one line with %q", out, tt.msg)
			}
			if _, err := os.Stat(model); err == nil {
				t.Error("a model was written")
			}
		})
	}
}

// TestPredictUnlabelled: predict scores a CSV or Parquet table without the label
// column (the model's schema says where the features are), one score a line, equal to
// the scores of the same rows with their labels; eval refuses such a table.
func TestPredictUnlabelled(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_BACKEND", "generic")
	p := func(name string) string { return filepath.Join(dir, name) }
	cmd := func(want int, args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if got := run(args, &out, &errOut); got != want {
			t.Fatalf("aucopt %s: exit %d, want %d: %s%s", strings.Join(args, " "), got, want, out.String(), errOut.String())
		}
		return out.String() + errOut.String()
	}
	cmd(0, "gen", "--rows", "2000", "--out", p("train.csv"))
	cmd(0, "gen", "--rows", "300", "--first-row", "1000000", "--out", p("test.csv"))
	cmd(0, "train", "--algo", "olr", "--data", p("train.csv"), "--label", "click", "--hash-bits", "10", "--model", p("m.json"), "--quiet")
	head, labelled := readPredictions(t, []byte(cmd(0, "predict", "--model", p("m.json"), "--data", p("test.csv"), "--quiet")))
	if strings.Join(head, ",") != "label,score" {
		t.Fatalf("header of the labelled file's scores %q, want label,score", head)
	}

	// The test table without its label column, as CSV and as Parquet.
	text, err := os.ReadFile(p("test.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(text)), "\n")
	col := slices.Index(strings.Split(lines[0], ","), "click")
	if col < 0 {
		t.Fatalf("no click column in %q", lines[0])
	}
	var b strings.Builder
	for _, l := range lines {
		f := strings.Split(l, ",")
		b.WriteString(strings.Join(slices.Delete(f, col, col+1), ",") + "\n")
	}
	os.WriteFile(p("unlabelled.csv"), []byte(b.String()), 0o644)
	cmd(0, "convert", p("unlabelled.csv"), p("unlabelled.parquet"))

	for _, file := range []string{"unlabelled.csv", "unlabelled.parquet"} {
		head, got := readPredictions(t, []byte(cmd(0, "predict", "--model", p("m.json"), "--data", p(file), "--quiet")))
		if len(head) != 1 || head[0] != "score" || len(got) != len(labelled) || len(got) != 300 {
			t.Fatalf("%s: header %q, %d scores, the labelled file %d; want score and 300", file, head, len(got), len(labelled))
		}
		for i := range got {
			if got[i][0] != labelled[i][1] {
				t.Fatalf("%s row %d: %q, want the labelled file's score %q", file, i+1, got[i][0], labelled[i][1])
			}
		}
		if out := cmd(2, "eval", "--model", p("m.json"), "--data", p(file)); !strings.Contains(out, `no label column "click"`) {
			t.Errorf("eval on %s: %q, want no label column", file, out)
		}
	}
}
