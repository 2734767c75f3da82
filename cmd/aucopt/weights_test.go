package main_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// weightedFiles writes a small LIBSVM training file, a weight file of integer weights
// 0…3 for it, and the file with each row repeated its weight's times, into e's
// directory: train.svm, w.txt, dup.svm.
func weightedFiles(t *testing.T, e *e2e) {
	t.Helper()
	r := rand.New(rand.NewPCG(4, 2))
	var train, w, dup strings.Builder
	for i := range 60 {
		y := "-1"
		if i%3 == 0 {
			y = "+1"
		}
		row := y
		for j := 1; j <= 4; j++ {
			v := r.NormFloat64()
			if y == "+1" {
				v += 0.7 * float64(j%2)
			}
			row += fmt.Sprintf(" %d:%.6g", j, v)
		}
		k := r.IntN(4)
		if i < 2 {
			k = 2 // both classes keep weight
		}
		fmt.Fprintln(&train, row)
		fmt.Fprintln(&w, k)
		for range k {
			fmt.Fprintln(&dup, row)
		}
	}
	for name, s := range map[string]string{"train.svm": train.String(), "w.txt": w.String(), "dup.svm": dup.String()} {
		if err := os.WriteFile(e.path(name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// weightedModel is what the test reads of a model file.
type weightedModel struct {
	Params  map[string]any `json:"params"`
	Weights []float64      `json:"weights"`
	Notes   []string       `json:"notes"`
}

func readWeightedModel(t *testing.T, path string) weightedModel {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m weightedModel
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// TestTrainSampleWeights: train --weight gives the model of the rows repeated as the
// weights say (to 1e-12 relative), records the weights in the model's notes and the
// class weights in its parameters, and refuses what cannot take effect with exit 2
// and one line.
func TestTrainSampleWeights(t *testing.T) {
	e := newE2E(t)
	weightedFiles(t, e)
	for _, tc := range []struct {
		algo   string
		params []string
	}{
		// λ given: the data-scaled defaults see the rows, not the weights.
		{"ls-auc", []string{"-p", "lambda=1e-3"}},
		{"unilog", []string{"--class-weight", "1:2", "-p", "lambda=1e-3", "-p", "eps=1e-4"}},
		{"mba-l2", []string{"-p", "pairs=all", "-p", "lambda2=1e-3"}},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			common := append([]string{"train", "--algo", tc.algo, "--scale", "none", "--quiet"}, tc.params...)
			e.ok(append(common, "--data", "train.svm", "--weight", "w.txt", "--model", tc.algo+"-w.json")...)
			e.ok(append(common, "--data", "dup.svm", "--model", tc.algo+"-dup.json")...)
			e.ok(append(common, "--data", "train.svm", "--model", tc.algo+"-none.json")...)
			mw, md, mn := readWeightedModel(t, e.path(tc.algo+"-w.json")), readWeightedModel(t, e.path(tc.algo+"-dup.json")), readWeightedModel(t, e.path(tc.algo+"-none.json"))
			var num, den, diff float64
			for j := range md.Weights {
				num += (mw.Weights[j] - md.Weights[j]) * (mw.Weights[j] - md.Weights[j])
				den += md.Weights[j] * md.Weights[j]
				diff += math.Abs(mw.Weights[j] - mn.Weights[j])
			}
			if len(mw.Weights) != len(md.Weights) || math.Sqrt(num/den) > 1e-12 {
				t.Errorf("weighted %v, repeated rows %v", mw.Weights, md.Weights)
			}
			if diff == 0 {
				t.Errorf("the weights changed nothing: %v", mw.Weights)
			}
			if !strings.Contains(strings.Join(mw.Notes, "\n"), "sample weights: w.txt, 60 rows") {
				t.Errorf("the model's notes do not record the weights: %q", mw.Notes)
			}
			if tc.algo == "unilog" && mw.Params["class-weight"] != "1:2" {
				t.Errorf("class-weight parameter %v, want 1:2", mw.Params["class-weight"])
			}
		})
	}
	write := func(name, s string) {
		if err := os.WriteFile(e.path(name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("neg.txt", strings.Repeat("1\n", 2)+"-1\n"+strings.Repeat("1\n", 57))
	write("short.txt", "1\n1\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "opauc", "--weight", "w.txt"}, "opauc takes no sample weights"},
		{[]string{"--algo", "spdam", "--weight", "w.txt"}, "spdam takes no sample weights"},
		{[]string{"--algo", "mba-l2", "-p", "pairs=sampled", "--weight", "w.txt"}, "only with every pair"},
		{[]string{"--algo", "ls-auc", "--class-weight", "balanced"}, "pairwise objective"},
		{[]string{"--algo", "unilog", "--class-weight", "2"}, "want balanced or P:N"},
		{[]string{"--algo", "unilog", "--class-weight", "1:2", "-p", "class-weight=1:3"}, "class weights given twice"},
		{[]string{"--algo", "unilog", "--weight", "neg.txt"}, "neg.txt:3: bad sample weight: -1"},
		{[]string{"--algo", "unilog", "--weight", "short.txt"}, "2 weights for 60 training rows"},
		{[]string{"--algo", "unilog", "--weight", "none.txt"}, "no such file"},
		{[]string{"--algo", "unilog", "--weight", "w.txt", "--grid"}, "do not go with --grid"},
		{[]string{"--algo", "ls-auc", "--weight", "w.txt", "--out-of-core"}, "out-of-core"},
	} {
		args := append([]string{"train", "--data", "train.svm", "--quiet", "--model", "x.json"}, tc.args...)
		out, errOut, status := e.run(args...)
		if status != 2 || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("aucopt %s: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", strings.Join(tc.args, " "), status, out, errOut, tc.want)
		}
		if _, err := os.Stat(e.path("x.json")); err == nil {
			t.Errorf("aucopt %s wrote a model", strings.Join(tc.args, " "))
		}
	}
	help := e.ok("train", "--algo", "unilog", "--help-params")
	if !strings.Contains(help, "weights: sample weights; class weights") {
		t.Errorf("--help-params does not say unilog's weights:\n%s", help)
	}
}

// TestTrainWeightColumn: on a table, --weight names a column of weights: the model is
// the repeated rows' (1e-12 relative), the column is no feature, and predict scores a
// file with the column or without it.
func TestTrainWeightColumn(t *testing.T) {
	e := newE2E(t)
	r := rand.New(rand.NewPCG(8, 1))
	var tab, dup, plain strings.Builder
	fmt.Fprintln(&tab, "label,x1,x2,w")
	fmt.Fprintln(&dup, "label,x1,x2")
	fmt.Fprintln(&plain, "label,x1,x2")
	for i := range 50 {
		y := i % 2
		x1, x2 := r.NormFloat64()+float64(y), r.NormFloat64()
		k := r.IntN(4)
		if i < 2 {
			k = 1
		}
		fmt.Fprintf(&tab, "%d,%.6g,%.6g,%d\n", y, x1, x2, k)
		fmt.Fprintf(&plain, "%d,%.6g,%.6g\n", y, x1, x2)
		for range k {
			fmt.Fprintf(&dup, "%d,%.6g,%.6g\n", y, x1, x2)
		}
	}
	for name, s := range map[string]string{"t.csv": tab.String(), "dup.csv": dup.String(), "plain.csv": plain.String()} {
		if err := os.WriteFile(e.path(name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	common := []string{"train", "--algo", "ls-auc", "-p", "lambda=1e-3", "--scale", "none", "--quiet"}
	e.ok(append(common, "--data", "t.csv", "--weight", "w", "--model", "w.json")...)
	e.ok(append(common, "--data", "dup.csv", "--model", "dup.json")...)
	mw, md := readWeightedModel(t, e.path("w.json")), readWeightedModel(t, e.path("dup.json"))
	if len(mw.Weights) != 2 || len(md.Weights) != 2 {
		t.Fatalf("weights %v and %v: want the two feature columns only", mw.Weights, md.Weights)
	}
	for j := range md.Weights {
		if math.Abs(mw.Weights[j]-md.Weights[j]) > 1e-12*math.Abs(md.Weights[j]) {
			t.Errorf("weight %d: %v from the column, %v from the repeated rows", j, mw.Weights[j], md.Weights[j])
		}
	}
	if !strings.Contains(strings.Join(mw.Notes, "\n"), `sample weights: column "w", 50 rows`) {
		t.Errorf("notes %q", mw.Notes)
	}
	withW := e.ok("predict", "--model", "w.json", "--data", "t.csv")
	without := e.ok("predict", "--model", "w.json", "--data", "plain.csv")
	if withW != without || withW == "" {
		t.Errorf("predict with the weight column:\n%s\nwithout:\n%s", withW, without)
	}
	if _, errOut, status := e.run(append(common, "--data", "t.csv", "--weight", "nope")...); status != 2 || !strings.Contains(errOut, `no weight column "nope"`) {
		t.Errorf("an unknown weight column: exit %d, %q", status, errOut)
	}
}
