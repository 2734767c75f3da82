package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	aucmodel "github.com/aucopt/aucopt/engine/model"
)

// readPredictions parses predict's CSV output: its header and its records, each of the
// header's length.
func readPredictions(t *testing.T, b []byte) ([]string, [][]string) {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("predict's output is not CSV with a header (%v):\n%.500s", err, b)
	}
	return recs[0], recs[1:]
}

// readScores parses predict's "label,score" CSV of LIBSVM data, the label 1 positive
// and any other negative (the {1,-1}, {1,0} and {1,2} conventions).
func readScores(t *testing.T, b []byte) ([]float64, []int8) {
	t.Helper()
	head, recs := readPredictions(t, b)
	if strings.Join(head, ",") != "label,score" {
		t.Fatalf("header %q, want label,score", head)
	}
	var scores []float64
	var y []int8
	for i, r := range recs {
		v, err := strconv.ParseFloat(r[1], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("row %d %q: the score is not a finite number", i+1, r)
		}
		l := int8(-1)
		if r[0] == "1" {
			l = 1
		}
		scores, y = append(scores, v), append(y, l)
	}
	return scores, y
}

// TestPredictEval: the AUC of predict's scores, eval's AUC and train's test AUC are the
// same number for the same model and data.
func TestPredictEval(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, dir) // the embedded a9a and german
	t.Setenv("AUCOPT_BACKEND", "")
	model := filepath.Join(dir, "m.json")
	var out, errOut bytes.Buffer
	if status := run([]string{"train", "--algo", "opauc", "--data", "a9a", "--model", model, "--json", "--quiet"}, &out, &errOut); status != 0 {
		t.Fatalf("train exited %d: %s", status, errOut.String())
	}
	var res struct {
		TestAUC  float64 `json:"test_auc"`
		TestRows int     `json:"test_rows"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}

	scoresFile := filepath.Join(dir, "scores.tsv")
	out.Reset()
	if status := run([]string{"predict", "--model", model, "--data", "a9a", "--out", scoresFile}, &out, &errOut); status != 0 || out.Len() != 0 {
		t.Fatalf("predict --out exited %d, stdout %q: %s", status, out.String(), errOut.String())
	}
	b, err := os.ReadFile(scoresFile)
	if err != nil {
		t.Fatal(err)
	}
	scores, y := readScores(t, b)
	auc, err := metric.AUC(scores, y)
	if err != nil || auc != res.TestAUC || len(scores) != res.TestRows {
		t.Errorf("AUC of predict's %d scores %v (%v); train: %v on %d rows", len(scores), auc, err, res.TestAUC, res.TestRows)
	}
	out.Reset()
	if status := run([]string{"predict", "--model", model, "--data", "a9a"}, &out, &errOut); status != 0 || !bytes.Equal(out.Bytes(), b) {
		t.Errorf("predict to stdout (exit %d) differs from --out", status)
	}

	out.Reset()
	if status := run([]string{"eval", "--model", model, "--data", "a9a", "--json"}, &out, &errOut); status != 0 {
		t.Fatalf("eval exited %d: %s", status, errOut.String())
	}
	type threshold struct {
		Threshold, Accuracy, F1, Precision, Recall float64
		TP, FP, TN, FN                             int
	}
	var ev struct {
		AUC   float64 `json:"auc"`
		Rows  int     `json:"rows"`
		Part  string  `json:"part"`
		Pos   int     `json:"positives"`
		Neg   int     `json:"negatives"`
		ROC   int     `json:"roc_points"`
		TPRAt []struct {
			FPR, TPR float64
		} `json:"tpr_at_fpr"`
		BestF1       threshold `json:"best_f1"`
		BestAccuracy threshold `json:"best_accuracy"`
		Model        struct {
			Algo     string   `json:"algorithm"`
			SHA      string   `json:"train_sha256"`
			TestAUC  *float64 `json:"test_auc"`
			Features int      `json:"features"`
		} `json:"model"`
	}
	if err := json.Unmarshal(out.Bytes(), &ev); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, out.String())
	}
	sha, _ := data.SourceSHA256("a9a")
	if ev.AUC != res.TestAUC || ev.Rows != res.TestRows || ev.Pos+ev.Neg != ev.Rows || ev.Part != "test" || ev.ROC < 2 ||
		len(ev.TPRAt) != 3 || ev.Model.Algo != "opauc" || ev.Model.SHA != sha || ev.Model.TestAUC == nil || *ev.Model.TestAUC != res.TestAUC {
		t.Errorf("eval --json = %+v; train's test AUC %v", ev, res.TestAUC)
	}
	for _, f := range []threshold{ev.BestF1, ev.BestAccuracy} {
		if f.TP+f.FP+f.TN+f.FN != ev.Rows || f.TP+f.FN != ev.Pos || math.Abs(f.F1-2*f.Precision*f.Recall/(f.Precision+f.Recall)) > 1e-12 ||
			f.Accuracy != float64(f.TP+f.TN)/float64(ev.Rows) {
			t.Errorf("threshold %+v inconsistent", f)
		}
	}
	if ev.BestAccuracy.Accuracy < ev.BestF1.Accuracy || ev.BestF1.F1 < ev.BestAccuracy.F1 {
		t.Errorf("best accuracy %+v, best F1 %+v: not the best", ev.BestAccuracy, ev.BestF1)
	}
	out.Reset()
	if status := run([]string{"eval", "--model", model, "--data", "a9a"}, &out, &errOut); status != 0 ||
		!strings.Contains(out.String(), "AUC "+strconv.FormatFloat(res.TestAUC, 'f', 4, 64)) || !strings.Contains(out.String(), "best accuracy") {
		t.Errorf("eval (exit %d):\n%s", status, out.String())
	}
}

// TestPredictBadInput: each bad input gives exit status 2, one line on stderr naming
// the command, nothing on stdout and no output file.
func TestPredictBadInput(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, dir)
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// A valid model of 3 features: german (24 features) is another feature space.
	small := filepath.Join(dir, "small.json")
	m := &aucmodel.Model{Algo: "opauc", Features: 3, Scaling: aucmodel.Scaling{Kind: data.ScaleNone},
		TestAUC: math.NaN(), Weights: []float64{1, -1, 0.5}}
	if err := m.Write(small); err != nil {
		t.Fatal(err)
	}
	garbage := write("garbage.json", "{\"format\": 1,\n \"weights\": [1, 2,,]}\n")
	v2 := write("v2.json", `{"format": 2, "weights": []}`)
	svm := write("d.svm", "+1 1:1 3:0.5\n-1 2:1\n")
	badSVM := write("bad.svm", "+1 1:1\n-1 2:x\n")
	out := filepath.Join(dir, "out", "scores.tsv") // no such directory
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing model", []string{"--model", filepath.Join(dir, "nowhere.json"), "--data", svm}, "model: open " + filepath.Join(dir, "nowhere.json") + ": no such file or directory"},
		{"unreadable model", []string{"--model", dir, "--data", svm}, "is a directory"},
		{"not JSON", []string{"--model", garbage, "--data", svm}, "garbage.json:2:19: bad model file: not JSON: invalid character ','"},
		{"format 2", []string{"--model", v2, "--data", svm}, "model format 2, this aucopt reads 1"},
		{"another feature space", []string{"--model", small, "--data", "german"}, "the data has 24 features, the model 3"},
		{"no --model", []string{"--data", svm}, "--model is required"},
		{"no --data", []string{"--model", small}, "--data is required"},
		{"missing data", []string{"--model", small, "--data", filepath.Join(dir, "none.svm")}, "none.svm is neither a file nor a known dataset"},
		{"malformed data", []string{"--model", small, "--data", badSVM}, "bad.svm:2:6: bad feature value"},
		{"unknown flag", []string{"--model", small, "--data", svm, "--bogus"}, "unknown flag: --bogus"},
	}
	var stdout, stderr bytes.Buffer
	if status := run([]string{"predict", "--model", small, "--data", svm, "--out", svm}, &stdout, &stderr); status != 2 ||
		!strings.Contains(stderr.String(), "would overwrite the input") {
		t.Errorf("--out the data file: exit %d, %q", status, stderr.String())
	}
	for _, cmd := range []string{"predict", "eval"} {
		for _, tt := range tests {
			args := append([]string{cmd}, tt.args...)
			if cmd == "predict" {
				args = append(args, "--out", filepath.Join(dir, "scores.tsv"))
			}
			var stdout, stderr bytes.Buffer
			status := run(args, &stdout, &stderr)
			if status != 2 || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), "aucopt "+cmd+": ") ||
				strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), tt.want) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", cmd, tt.name, status, stdout.String(), stderr.String(), tt.want)
			}
		}
	}
	stdout.Reset()
	stderr.Reset()
	if status := run([]string{"predict", "--model", small, "--data", svm, "--out", out}, &stdout, &stderr); status != 2 ||
		stderr.String() != "aucopt predict: --out "+out+": directory "+filepath.Dir(out)+" does not exist\n" || stdout.Len() != 0 {
		t.Errorf("--out in a missing directory: exit %d, %q", status, stderr.String())
	}
	// Nothing was written: no scores, no temporary files.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "scores") {
			t.Errorf("a failed predict left %s", e.Name())
		}
	}
	// The same model and data with the extra features allowed: LIBLINEAR's rule, a note.
	stdout.Reset()
	stderr.Reset()
	if status := run([]string{"predict", "--model", small, "--data", "german", "--allow-extra-features"}, &stdout, &stderr); status != 0 ||
		strings.Count(stdout.String(), "\n") != 1001 || !strings.Contains(stderr.String(), "note: the data has 24 features, the model 3: the extra features get weight 0") {
		t.Errorf("--allow-extra-features: exit %d, %d lines, stderr %q", status, strings.Count(stdout.String(), "\n"), stderr.String())
	}
}

func TestPredictEvalHelp(t *testing.T) {
	for _, cmd := range []string{"predict", "eval"} {
		var stdout, stderr bytes.Buffer
		if status := run([]string{cmd, "--help"}, &stdout, &stderr); status != 0 || stderr.Len() != 0 ||
			!strings.Contains(stdout.String(), "Usage: aucopt "+cmd+" --model M --data D") || !strings.Contains(stdout.String(), "Examples:") ||
			!strings.Contains(stdout.String(), "--allow-extra-features") || !strings.Contains(stdout.String(), "--id string") ||
			!strings.Contains(stdout.String(), "--ignore strings") || !strings.Contains(stdout.String(), "--missing string") ||
			!strings.Contains(stdout.String(), "--allow-extra-columns") {
			t.Errorf("%s --help: exit %d\n%s%s", cmd, status, stdout.String(), stderr.String())
		}
	}
}
