package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/metric"
)

// trainModel trains algo on data with train --model and returns the model's path and
// the test AUC train reported.
func trainModel(t *testing.T, dir, algo, dataArg string) (string, float64) {
	t.Helper()
	model := filepath.Join(dir, algo+".json")
	var out, errOut bytes.Buffer
	if status := run([]string{"train", "--algo", algo, "--data", dataArg, "--model", model, "--json", "--quiet", "--backend", "generic"}, &out, &errOut); status != 0 {
		t.Fatalf("train %s exited %d: %s", algo, status, errOut.String())
	}
	var res struct {
		TestAUC float64 `json:"test_auc"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	return model, res.TestAUC
}

// svgText returns the text elements of an SVG document, failing if it does not parse.
func svgText(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	var text strings.Builder
	inText, root := false, ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s does not parse as XML: %v", path, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = tok.Name.Local
			}
			inText = tok.Name.Local == "text"
		case xml.CharData:
			if inText {
				text.Write(tok)
				text.WriteByte('\n')
			}
		case xml.EndElement:
			inText = false
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q, want svg", path, root)
	}
	return text.String()
}

// TestROCCommand trains two models on a9a and draws their ROC curves on a9a's test
// split: the legend's AUCs are the test AUCs train reported (the model files read back,
// scaling included), the PNG has the requested pixel size, the SVG parses.
func TestROCCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir) // the embedded a9a
	olr, olrAUC := trainModel(t, dir, "olr", "a9a")
	opauc, opaucAUC := trainModel(t, dir, "opauc", "a9a")

	pngPath := filepath.Join(dir, "roc.png")
	var out, errOut bytes.Buffer
	status := run([]string{"roc", "--model", olr + "," + opauc, "--data", "a9a", "--out", pngPath, "--width", "300px", "--height", "200px"}, &out, &errOut)
	if status != 0 {
		t.Fatalf("roc exited %d: %s", status, errOut.String())
	}
	for _, want := range []string{fmt.Sprintf("olr                  AUC %.4f", olrAUC), fmt.Sprintf("opauc                AUC %.4f", opaucAUC), "2 curves on a9a (test split) (16281 rows"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("roc stdout lacks %q:\n%s", want, out.String())
		}
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatalf("roc.png does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 300 || b.Dy() != 200 {
		t.Errorf("roc.png is %d×%d, want 300×200", b.Dx(), b.Dy())
	}

	svgPath := filepath.Join(dir, "roc.svg")
	out.Reset()
	errOut.Reset()
	status = run([]string{"roc", "--model", olr, "--model", opauc, "--label", "logistic <OLR> & co", "--label", "OPAUC",
		"--data", "a9a", "--out", svgPath, "--title", "Adult"}, &out, &errOut)
	if status != 0 {
		t.Fatalf("roc exited %d: %s", status, errOut.String())
	}
	text := svgText(t, svgPath)
	for _, want := range []string{"Adult", fmt.Sprintf("logistic <OLR> & co (AUC %.4f)", olrAUC), fmt.Sprintf("OPAUC (AUC %.4f)", opaucAUC),
		"chance (AUC 0.5)", "false positive rate", "true positive rate"} {
		if !strings.Contains(text, want) {
			t.Errorf("roc.svg's text lacks %q:\n%s", want, text)
		}
	}
	raw, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "@font-face") {
		t.Errorf("roc.svg names its fonts without embedding them (no @font-face)")
	}

	logPath := filepath.Join(dir, "roc-log.svg")
	out.Reset()
	errOut.Reset()
	if status := run([]string{"roc", "--model", opauc, "--data", "a9a", "--out", logPath, "--log-fpr"}, &out, &errOut); status != 0 {
		t.Fatalf("roc --log-fpr exited %d: %s", status, errOut.String())
	}
	if text := svgText(t, logPath); !strings.Contains(text, "false positive rate (log scale)") || !strings.Contains(text, fmt.Sprintf("opauc (AUC %.4f)", opaucAUC)) {
		t.Errorf("roc-log.svg's text lacks the log axis label or the curve's AUC:\n%s", text)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 5 {
		t.Errorf("files left in the output directory: %v", entries)
	}
}

// TestROCPlotLogFPR: on a log FPR axis every point is drawable (x > 0), the curve's
// FPR-0 points sit at one negative's rate, the AUC is the linear curve's, and the
// chance curve runs from 1/negatives to 1 on y = x.
func TestROCPlotLogFPR(t *testing.T) {
	c := rocCurve{Name: "m", Scores: []float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4}, Labels: []int8{1, 1, -1, 1, -1, -1}}
	lin, linAUC, err := rocPlot("t", []rocCurve{c}, false)
	if err != nil {
		t.Fatal(err)
	}
	p, aucs, err := rocPlot("t", []rocCurve{c}, true)
	if err != nil {
		t.Fatal(err)
	}
	if !p.LogX || aucs[0] != linAUC[0] || aucs[0] != 8.0/9 {
		t.Errorf("LogX %v, AUC %v (linear %v), want true and 8/9 both", p.LogX, aucs[0], linAUC[0])
	}
	chance, curve := p.Series[0], p.Series[1]
	if chance.X[0] != 1.0/3 || chance.X[len(chance.X)-1] != 1 || chance.Y[0] != chance.X[0] {
		t.Errorf("chance from (%g, %g) to %g, want (1/3, 1/3) to 1", chance.X[0], chance.Y[0], chance.X[len(chance.X)-1])
	}
	for k, x := range curve.X {
		if x < 1.0/3 {
			t.Errorf("point %d at FPR %g, below one negative's rate 1/3", k, x)
		}
		if lx := lin.Series[1].X[k]; lx >= 1.0/3 && lx != x {
			t.Errorf("point %d moved from %g to %g", k, lx, x)
		}
	}
	if _, _, err := rocPlot("t", []rocCurve{{Name: "m", Scores: []float64{1, 2}, Labels: []int8{1, 1}}}, true); err == nil {
		t.Error("no negatives: want an error")
	}
}

// TestROCCommandErrors: bad input fails before writing anything, with one line.
func TestROCCommandErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	german, _ := trainModel(t, dir, "olr", "german") // 24 features
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("not a model\n"), 0o644)
	future := filepath.Join(dir, "future.json")
	os.WriteFile(future, []byte(`{"format": 7, "features": 1, "weights": [1]}`), 0o644)
	out := filepath.Join(dir, "roc.png")
	tests := []struct {
		name   string
		args   []string
		status int // 0: any non-zero
		want   string
	}{
		{"unknown extension", []string{"--model", german, "--data", "german", "--out", filepath.Join(dir, "roc.gif")}, 0, `unknown plot format ".gif" (want .png, .svg or .pdf)`},
		{"missing directory", []string{"--model", german, "--data", "german", "--out", filepath.Join(dir, "nodir", "roc.png")}, 0, "nodir does not exist"},
		{"other feature space", []string{"--model", german, "--data", "a9a", "--out", out}, 0, "feature spaces differ: the data has 123 features, the model 24 (trained on german)"},
		{"missing model", []string{"--model", filepath.Join(dir, "none.json"), "--data", "german", "--out", out}, 0, "none.json: no such file"},
		{"unreadable model", []string{"--model", garbage, "--data", "german", "--out", out}, 0, "garbage.json:1:2: bad model file: not JSON"},
		{"format", []string{"--model", future, "--data", "german", "--out", out}, 0, "future.json: bad model file: model format 7, this aucopt reads 1"},
		{"missing data", []string{"--model", german, "--data", filepath.Join(dir, "none.svm"), "--out", out}, 0, "none.svm is neither a file nor a known dataset"},
		{"bad width", []string{"--model", german, "--data", "german", "--out", out, "--width", "6"}, 0, `--width: "6": want a number with a unit`},
		{"no model", []string{"--data", "german", "--out", out}, 2, "give at least one --model"},
		{"labels", []string{"--model", german, "--label", "a", "--label", "b", "--data", "german", "--out", out}, 2, "2 --label for 1 --model"},
		{"unknown flag", []string{"--model", german, "--bogus"}, 2, "unknown flag: --bogus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout := runFailing(t, "roc", tt.args, tt.status, tt.want)
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 3 { // the model, garbage.json and future.json
				t.Errorf("files in the directory: %v", entries)
			}
		})
	}
}

// TestThinROC: the thinned curve keeps the area and ends, and drops only points inside
// axis-parallel runs.
func TestThinROC(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 3, 10, 1000} {
		scores := make([]float64, n)
		y := make([]int8, n)
		for i := range scores {
			scores[i] = float64(rng.IntN(n/2 + 1)) // ties
			y[i] = 1
			if rng.IntN(3) == 0 {
				y[i] = -1
			}
		}
		y[0], y[1] = 1, -1
		pts, err := metric.ROC(scores, y)
		if err != nil {
			t.Fatal(err)
		}
		thin := thinROC(pts)
		if metric.Area(thin) != metric.Area(pts) || thin[0] != pts[0] || thin[len(thin)-1] != pts[len(pts)-1] {
			t.Errorf("n=%d: area %v → %v, ends %v %v", n, metric.Area(pts), metric.Area(thin), thin[0], thin[len(thin)-1])
		}
		for k := 1; k < len(thin)-1; k++ {
			a, b, c := thin[k-1], thin[k], thin[k+1]
			if a.FP == b.FP && b.FP == c.FP || a.TP == b.TP && b.TP == c.TP {
				t.Errorf("n=%d: point %d (%v) is inside a run", n, k, b)
			}
		}
	}
}

func TestParseLength(t *testing.T) {
	tests := []struct {
		in   string
		want float64 // points
		ok   bool
	}{
		{"6in", 6 * 72, true},
		{"2.54cm", 72, true},
		{"72pt", 72, true},
		{"25.4mm", 72, true},
		{"96px", 72, true},
		{"6", 0, false},
		{"-1in", 0, false},
		{"0in", 0, false},
		{"NaNin", 0, false},
		{"1000in", 0, false},
		{"in", 0, false},
	}
	for _, tt := range tests {
		got, err := parseLength(tt.in)
		if (err == nil) != tt.ok || tt.ok && (got-tt.want > 1e-9 || tt.want-got > 1e-9) {
			t.Errorf("parseLength(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
