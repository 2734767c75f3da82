package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestCVCommand(t *testing.T) {
	t.Setenv("AUCOPT_DATA", t.TempDir()) // the embedded german
	t.Setenv("AUCOPT_BACKEND", "generic")
	var out, errOut bytes.Buffer
	status := run([]string{"cv", "--algo", "spam-l2", "--data", "german", "--folds", "4", "--repeats", "2", "--grid", "eta=2^[-8..-5]", "--json"}, &out, &errOut)
	if status != 0 {
		t.Fatalf("cv exited %d: %s", status, errOut.String())
	}
	var res struct {
		Algo, Backend, Data, Grid string
		Folds, Repeats, Rows      int
		AUCs                      []float64
		Mean, Std                 float64
		Params                    map[string]any
		Runs                      []struct {
			Repeat, Fold int
			AUC          float64
			Params       map[string]any
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out.String())
	}
	if res.Algo != "spam-l2" || res.Backend != "generic" || res.Folds != 4 || res.Repeats != 2 || res.Rows != 1000 ||
		len(res.AUCs) != 8 || len(res.Runs) != 8 || res.Grid != "eta=2^[-8..-5]" {
		t.Fatalf("JSON fields: %s", out.String())
	}
	var sum float64
	for i, r := range res.Runs {
		sum += res.AUCs[i]
		if r.AUC != res.AUCs[i] || r.Repeat != i/4+1 || r.Fold != i%4+1 || r.Params["eta"] == nil {
			t.Errorf("run %d: %+v", i, r)
		}
	}
	if math.Abs(sum/8-res.Mean) > 1e-12 || res.Mean < 0.7 || res.Std <= 0 {
		t.Errorf("mean %v ± %v, AUCs %v", res.Mean, res.Std, res.AUCs)
	}
	if _, ok := res.Params["eta"]; ok {
		t.Errorf("params %v include the grid's key eta", res.Params)
	}
	if n := strings.Count(errOut.String(), "AUC"); n != 8 {
		t.Errorf("%d progress lines on stderr, want 8:\n%s", n, errOut.String())
	}

	out.Reset()
	errOut.Reset()
	if status := run([]string{"cv", "--data", "german", "--quiet"}, &out, &errOut); status != 0 || errOut.Len() != 0 {
		t.Fatalf("cv --quiet exited %d, stderr %q", status, errOut.String())
	}
	for _, want := range []string{"opauc on german: 5-fold stratified cross-validation", "parameters: eta=", "AUC 0.7", "(mean ± sample std over 5 folds)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestCVCommandErrors(t *testing.T) {
	t.Setenv("AUCOPT_DATA", t.TempDir())
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"cv", "--folds", "1"}, "--folds 1: want at least 2"},
		{[]string{"cv", "--repeats", "0"}, "--repeats 0: want at least 1"},
		{[]string{"cv", "--data", "german", "--folds", "400"}, "300 positives and 700 negatives cannot fill 400 stratified folds"},
		{[]string{"cv", "--data", "/no/such/file.svm"}, "/no/such/file.svm is neither a file nor a known dataset"},
		{[]string{"cv", "--algo", "nope"}, `unknown algorithm "nope"`},
		{[]string{"cv", "--bogus"}, "unknown flag: --bogus"},
	} {
		var out, errOut bytes.Buffer
		status := run(tt.args, &out, &errOut)
		if status == 0 || out.Len() != 0 || !strings.Contains(errOut.String(), tt.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a failure saying %q", tt.args, status, out.String(), errOut.String(), tt.want)
		}
	}
	var out, errOut bytes.Buffer
	if status := run([]string{"cv", "--help"}, &out, &errOut); status != 0 || !strings.Contains(out.String(), "Examples:") || errOut.Len() != 0 {
		t.Errorf("cv --help: exit %d, stdout %s, stderr %s", status, out.String(), errOut.String())
	}
}
