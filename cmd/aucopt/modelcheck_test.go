package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// TestScoringRefuses runs predict and eval on what they must refuse, each with exit 2
// and one line naming the cause: data with fewer or more features than the model, a
// model of an unknown algorithm, weights whose scores overflow, and a crafted cache with
// a valid checksum and a NaN value.
func TestScoringRefuses(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	t.Setenv("AUCOPT_BACKEND", "generic")
	train, narrow, wide := filepath.Join(dir, "train.svm"), filepath.Join(dir, "narrow.svm"), filepath.Join(dir, "wide.svm")
	writeSVM(t, train, 200, 12, false)
	writeSVM(t, narrow, 50, 5, false)
	writeSVM(t, wide, 50, 20, false)
	modelPath := filepath.Join(dir, "m.json")
	var out, errOut bytes.Buffer
	if status := run([]string{"train", "--algo", "olr", "--data", train, "--quiet", "--scale", "none", "--model", modelPath}, &out, &errOut); status != 0 {
		t.Fatalf("train: exit %d: %s", status, errOut.String())
	}
	good, err := os.ReadFile(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name, from, to string) string {
		p := filepath.Join(dir, name)
		b := strings.Replace(string(good), from, to, 1)
		if b == string(good) {
			t.Fatalf("%s: %q not in the model file", name, from)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unknown := edit("unknown.json", `"algorithm": "olr"`, `"algorithm": "nosuch"`)
	i := strings.Index(string(good), `"weights": [`) + len(`"weights": [`)
	j := i + strings.IndexAny(string(good[i:]), ",]")
	huge := edit("huge.json", string(good[i:j]), "1.7e308")
	nanCache := filepath.Join(dir, "nan.cache")
	d, err := data.ReadFile(train, data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Val[3] = math.NaN()
	if err := data.SaveCache(nanCache, d); err != nil {
		t.Fatal(err)
	}
	bigRow := filepath.Join(dir, "big.svm")
	os.WriteFile(bigRow, []byte("+1 1:4 12:1\n-1 1:-4 12:1\n"), 0o644)
	tests := []struct {
		name  string
		args  []string
		wants []string
	}{
		{"fewer features", []string{"--model", modelPath, "--data", narrow}, []string{"the data has 5 features, the model 12", "--allow-fewer-features"}},
		{"more features", []string{"--model", modelPath, "--data", wide}, []string{"the data has 20 features, the model 12", "--allow-extra-features"}},
		{"unknown algorithm", []string{"--model", unknown, "--data", train}, []string{unknown, `unknown algorithm "nosuch"`}},
		{"scores overflow", []string{"--model", huge, "--ignore-checksum", "--data", bigRow}, []string{huge, "row 1 is +Inf"}},
		{"edited weights", []string{"--model", huge, "--data", bigRow}, []string{huge, "checksum mismatch", "--ignore-checksum reads it anyway"}},
		{"NaN in a cache", []string{"--model", modelPath, "--data", nanCache}, []string{nanCache, "value NaN"}},
	}
	for _, c := range tests {
		for _, cmd := range []string{"predict", "eval"} {
			t.Run(cmd+" "+c.name, func(t *testing.T) {
				var out, errOut bytes.Buffer
				status := run(append([]string{cmd}, c.args...), &out, &errOut)
				msg := errOut.String()
				if status != exitInput || strings.Count(msg, "\n") != 1 || out.Len() > 0 {
					t.Errorf("exit %d, stdout %d bytes, stderr %q; want exit 2, no output and one line", status, out.Len(), msg)
				}
				for _, w := range c.wants {
					if !strings.Contains(msg, w) {
						t.Errorf("stderr %q does not say %q", msg, w)
					}
				}
			})
		}
	}
	// The override for a sparse file whose last features never occur.
	out.Reset()
	if status := run([]string{"predict", "--model", modelPath, "--data", narrow, "--allow-fewer-features", "--quiet"}, &out, &errOut); status != 0 || strings.Count(out.String(), "\n") != 51 { // the header and 50 rows
		t.Errorf("predict --allow-fewer-features: exit %d, %d lines", status, strings.Count(out.String(), "\n"))
	}
}

// TestModelChecksum: a model whose content was edited (a scaling shift, the rows it
// records) is refused with exit 2 and one line naming it, unless --ignore-checksum
// (with a note); a change of layout only is read; a model without a checksum (an
// aucopt before them) is read with a note.
func TestModelChecksum(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	t.Setenv("AUCOPT_BACKEND", "generic")
	train := filepath.Join(dir, "train.svm")
	writeSVM(t, train, 200, 6, false)
	modelPath := filepath.Join(dir, "m.json")
	var out, errOut bytes.Buffer
	if status := run([]string{"train", "--algo", "olr", "--data", train, "--quiet", "--scale", "minmax", "--model", modelPath}, &out, &errOut); status != 0 {
		t.Fatalf("train: exit %d: %s", status, errOut.String())
	}
	good, err := os.ReadFile(modelPath)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, change func(string) string) string {
		p := filepath.Join(dir, name)
		b := change(string(good))
		if b == string(good) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A finite but absurd shift: every score the same, AUC 0.5, exit 0 before.
	shifted := edit("shifted.json", func(s string) string {
		i := strings.Index(s, `"shift":[`) + len(`"shift":[`)
		return s[:i] + "1e300," + s[i+strings.IndexAny(s[i:], ",]")+1:]
	})
	rows := edit("rows.json", func(s string) string { return strings.Replace(s, `"train_rows": 200`, `"train_rows": 201`, 1) })
	sum := edit("sum.json", func(s string) string { return strings.Replace(s, `"checksum": "sha256:`, `"checksum": "sha256:0`, 1) })
	layout := edit("layout.json", func(s string) string { return strings.ReplaceAll(s, "\n  ", "\n\t\t") })
	old := edit("old.json", func(s string) string {
		i := strings.Index(s, ",\n  \"checksum\"")
		return s[:i] + "\n}\n"
	})
	want := func(args ...string) string {
		var out, errOut bytes.Buffer
		if status := run(args, &out, &errOut); status != 0 {
			t.Fatalf("%v: exit %d: %s", args, status, errOut.String())
		}
		return out.String()
	}
	scores := want("predict", "--model", modelPath, "--data", train)
	for _, c := range []struct{ name, path string }{{"shifted", shifted}, {"rows", rows}, {"checksum", sum}} {
		for _, cmd := range []string{"predict", "eval"} {
			var out, errOut bytes.Buffer
			status := run([]string{cmd, "--model", c.path, "--data", train}, &out, &errOut)
			if msg := errOut.String(); status != exitInput || out.Len() > 0 || strings.Count(msg, "\n") != 1 ||
				!strings.Contains(msg, c.path) || !strings.Contains(msg, "checksum mismatch") || !strings.Contains(msg, "--ignore-checksum") {
				t.Errorf("%s of the %s model: exit %d, stdout %d bytes, stderr %q; want exit 2 and one line naming the file and the mismatch", cmd, c.name, status, out.Len(), msg)
			}
		}
	}
	for _, c := range []struct {
		name string
		args []string
		same bool   // the scores of the model as written
		note string // on stderr
	}{
		{"layout", []string{"--model", layout}, true, ""},
		{"no checksum", []string{"--model", old}, true, "has no checksum"},
		{"edited, ignored", []string{"--model", rows, "--ignore-checksum"}, true, "does not match its content, read anyway"},
		{"shifted, ignored", []string{"--model", shifted, "--ignore-checksum"}, false, "does not match"},
	} {
		var out, errOut bytes.Buffer
		status := run(append([]string{"predict", "--data", train}, c.args...), &out, &errOut)
		if status != 0 || (out.String() == scores) != c.same || !strings.Contains(errOut.String(), c.note) || c.note == "" && errOut.Len() > 0 {
			t.Errorf("predict of the %s model: exit %d, scores as written %t, stderr %q; want 0, %t and a note %q", c.name, status, out.String() == scores, errOut.String(), c.same, c.note)
		}
	}
}
