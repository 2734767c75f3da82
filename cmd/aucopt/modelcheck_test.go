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
		{"scores overflow", []string{"--model", huge, "--data", bigRow}, []string{huge, "row 1 is +Inf"}},
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
	if status := run([]string{"predict", "--model", modelPath, "--data", narrow, "--allow-fewer-features", "--quiet"}, &out, &errOut); status != 0 || strings.Count(out.String(), "\n") != 50 {
		t.Errorf("predict --allow-fewer-features: exit %d, %d lines", status, strings.Count(out.String(), "\n"))
	}
}
