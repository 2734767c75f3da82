package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPlotConvergence runs two online algorithms and a batch one on a9a: the --json
// traces have the requested spacing and end at the run's test AUC, which the plot's
// legend shows; the SVG parses.
func TestPlotConvergence(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir) // the embedded a9a
	svg := filepath.Join(dir, "conv.svg")
	var out, errOut bytes.Buffer
	status := run([]string{"plot", "convergence", "--algo", "olr,spam-net", "--algo", "ls-auc", "-p", "olr:eta=0.5", "--every", "10000",
		"--backend", "generic", "--json", "--quiet", "--out", svg}, &out, &errOut)
	if status != 0 {
		t.Fatalf("plot convergence exited %d: %s", status, errOut.String())
	}
	if errOut.Len() != 0 {
		t.Errorf("--quiet, yet stderr %q", errOut.String())
	}
	var got struct {
		Data   string `json:"data"`
		Traces []struct {
			Algo    string         `json:"algo"`
			Params  map[string]any `json:"params"`
			Backend string         `json:"backend"`
			Passes  int            `json:"passes"`
			Seconds float64        `json:"seconds"`
			TestAUC float64        `json:"test_auc"`
			Every   int64          `json:"every"`
			Points  []struct {
				Seen    int64   `json:"seen"`
				Seconds float64 `json:"seconds"`
				TestAUC float64 `json:"test_auc"`
			} `json:"points"`
		} `json:"traces"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out.String())
	}
	if got.Data != "a9a" || len(got.Traces) != 3 {
		t.Fatalf("--json: data %q, %d traces; want a9a, 3", got.Data, len(got.Traces))
	}
	text := svgText(t, svg)
	for i, tr := range got.Traces {
		var seen []int64
		for _, p := range tr.Points {
			seen = append(seen, p.Seen)
		}
		want := []int64{0, 10_000, 20_000, 30_000, 32_561}
		if i == 2 {
			want = []int64{32_561} // a batch fit: one point
		}
		if tr.Algo != []string{"olr", "spam-net", "ls-auc"}[i] || tr.Backend != "generic" || tr.Every != 10_000 || !slices.Equal(seen, want) {
			t.Errorf("trace %d: %s on %s, every %d, seen %v; want seen %v", i, tr.Algo, tr.Backend, tr.Every, seen, want)
		}
		last := tr.Points[len(tr.Points)-1]
		if last.TestAUC != tr.TestAUC || tr.TestAUC < 0.85 || last.Seconds > tr.Seconds+1e-9 {
			t.Errorf("%s: last point %+v, run's test AUC %.4f in %.4fs", tr.Algo, last, tr.TestAUC, tr.Seconds)
		}
		if legend := fmt.Sprintf("%s (AUC %.4f)", tr.Algo, tr.TestAUC); !strings.Contains(text, legend) {
			t.Errorf("the plot's legend lacks %q:\n%s", legend, text)
		}
	}
	if eta := got.Traces[0].Params["eta"]; eta != 0.5 {
		t.Errorf("olr's eta %v, want 0.5 from -p olr:eta=0.5", eta)
	}
	for _, want := range []string{"test AUC against examples seen", "test AUC against training time", "training seconds"} {
		if !strings.Contains(text, want) {
			t.Errorf("the plot lacks %q", want)
		}
	}

	// One panel, PNG, at the requested size.
	pngPath := filepath.Join(dir, "conv.png")
	out.Reset()
	status = run([]string{"plot", "convergence", "--algo", "olr", "--x", "seconds", "--log-x", "--width", "400px", "--height", "300px",
		"--quiet", "--out", pngPath}, &out, &errOut)
	if status != 0 || !strings.Contains(out.String(), "written to "+pngPath) {
		t.Fatalf("plot convergence exited %d: %s%s", status, out.String(), errOut.String())
	}
	f, err := os.Open(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("conv.png does not decode: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 400 || b.Dy() != 300 {
		t.Errorf("conv.png is %d×%d, want 400×300", b.Dx(), b.Dy())
	}
}

func TestPlotConvergenceErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	out := filepath.Join(dir, "conv.png")
	tests := []struct {
		name   string
		args   []string
		status int // 0: any non-zero
		want   string
	}{
		{"no output", []string{"convergence"}, 2, "give --out FILE (the plot), --json (the traces), or both"},
		{"bad axis", []string{"convergence", "--x", "epochs", "--out", out}, 2, `--x "epochs": want examples, seconds or both`},
		{"unknown kind", []string{"histogram"}, 2, `unknown kind "histogram"`},
		{"no kind", nil, 2, "say what to plot"},
		{"unknown algorithm", []string{"convergence", "--algo", "olr,svm", "--out", out}, 0, `unknown algorithm "svm"`},
		{"twice", []string{"convergence", "--algo", "olr,olr", "--out", out}, 0, "--algo lists olr twice"},
		{"param of another algorithm", []string{"convergence", "--algo", "olr", "-p", "opauc:eta=1", "--out", out}, 0, "-p opauc:eta=1: opauc is not among --algo (olr)"},
		{"unknown key", []string{"convergence", "--algo", "olr", "-p", "olr:zeta=1", "--out", out}, 0, `unknown key "zeta"`},
		{"bad extension", []string{"convergence", "--out", filepath.Join(dir, "conv.jpeg")}, 0, `unknown plot format ".jpeg"`},
		{"missing directory", []string{"convergence", "--out", filepath.Join(dir, "no", "conv.png")}, 0, "does not exist"},
		{"no test data", []string{"convergence", "--algo", "olr", "--data", "german", "--out", out}, 0, "no test data"},
		{"passes", []string{"convergence", "--passes", "-1", "--out", out}, 0, "--passes -1: want 0 (the learner's default) or more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout := runFailing(t, "plot", tt.args, tt.status, tt.want)
			if entries, _ := os.ReadDir(dir); len(entries) != 0 || stdout != "" {
				t.Errorf("files %v, stdout %q", entries, stdout)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if status := run([]string{"plot", "convergence", "--help"}, &stdout, &stderr); status != 0 || !strings.Contains(stdout.String(), "Examples:") || stderr.Len() != 0 {
		t.Errorf("plot convergence --help: exit %d, stdout %s, stderr %s", status, stdout.String(), stderr.String())
	}
}
