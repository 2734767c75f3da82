package main_test

// The end-to-end test of the aucopt command, run as a new user would run it: the binary
// is built once, $AUCOPT_DATA points at an empty directory (so only the embedded a9a and
// german exist, as on a fresh clone), and every command `aucopt help` lists is run in a
// scratch directory. What is checked comes from outside the command where it can: a
// brute-force AUC of predict's scores, the confusion counts at eval's thresholds, the
// SHA-256 of the embedded files, the PNG and SVG decoders.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	_ "image/png" // image.DecodeConfig of the plots
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// e2e is the built binary and the scratch directory it runs in.
type e2e struct {
	t    *testing.T
	bin  string // the built aucopt
	dir  string // the working directory of every run
	env  []string
	used map[string]bool // commands that ran successfully
}

// newE2E builds aucopt, and aucopt-plot beside it as an install puts it, into a
// temporary directory and prepares a scratch directory with an empty $AUCOPT_DATA.
func newE2E(t *testing.T) *e2e {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Skipf("no go command to build aucopt with: %v", err)
		}
	}
	bin, plotBin := filepath.Join(t.TempDir(), "aucopt"), "aucopt-plot"
	if runtime.GOOS == "windows" {
		bin, plotBin = bin+".exe", plotBin+".exe"
	}
	for _, b := range [][]string{{bin, "."}, {filepath.Join(filepath.Dir(bin), plotBin), "../aucopt-plot"}} {
		if out, err := exec.Command(goBin, "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	empty := t.TempDir()
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "AUCOPT_")
	})
	env = append(env, "AUCOPT_DATA="+empty)
	return &e2e{t: t, bin: bin, dir: t.TempDir(), env: env, used: map[string]bool{}}
}

// path is name inside the scratch directory.
func (e *e2e) path(name string) string { return filepath.Join(e.dir, name) }

// cmd returns the command running aucopt with args in the scratch directory.
func (e *e2e) cmd(args ...string) *exec.Cmd {
	c := exec.Command(e.bin, args...)
	c.Dir, c.Env = e.dir, e.env
	return c
}

// run runs aucopt with args and returns its stdout, stderr and exit status.
func (e *e2e) run(args ...string) (stdout, stderr string, status int) {
	e.t.Helper()
	var out, errOut bytes.Buffer
	c := e.cmd(args...)
	c.Stdout, c.Stderr = &out, &errOut
	err := c.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		status = ee.ExitCode()
	case err != nil:
		e.t.Fatalf("aucopt %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), status
}

// ok runs aucopt with args, fails the test unless it exits 0, and returns its stdout.
func (e *e2e) ok(args ...string) string {
	e.t.Helper()
	out, errOut, status := e.run(args...)
	if status != 0 {
		e.t.Fatalf("aucopt %s: exit %d\nstderr:\n%s", strings.Join(args, " "), status, errOut)
	}
	if len(args) > 0 {
		e.used[args[0]] = true
	}
	return out
}

// okJSON runs aucopt with args (which ask for JSON) and decodes its stdout into v.
func (e *e2e) okJSON(v any, args ...string) {
	e.t.Helper()
	out := e.ok(args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		e.t.Fatalf("aucopt %s: stdout is not the expected JSON: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// listing is the names of every file under the scratch directory.
func (e *e2e) listing() []string {
	e.t.Helper()
	var names []string
	err := filepath.WalkDir(e.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		names = append(names, p)
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return names
}

// embedded is the path of a dataset file shipped inside the binary, as it lies in the
// source tree a new user cloned.
func embedded(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "engine", "data", "embedded", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("embedded data file: %v", err)
	}
	return p
}

// fileSHA256 is the hex SHA-256 of a file's bytes.
func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// parseScores reads predict's CSV of LIBSVM data: the header "label,score", then a
// row per example, the label 1 positive and any other negative.
func parseScores(t *testing.T, out string) ([]float64, []int8) {
	t.Helper()
	var scores []float64
	var labels []int8
	sc := bufio.NewScanner(strings.NewReader(out))
	if !sc.Scan() || sc.Text() != "label,score" {
		t.Fatalf("predict's header is not 'label,score': %.200q", out)
	}
	for n := 2; sc.Scan(); n++ {
		label, score, ok := strings.Cut(sc.Text(), ",")
		if !ok || label == "" {
			t.Fatalf("predict line %d is not 'label,score': %q", n, sc.Text())
		}
		s, err := strconv.ParseFloat(score, 64)
		if err != nil || math.IsNaN(s) || math.IsInf(s, 0) {
			t.Fatalf("predict line %d: score %q: not a finite number", n, score)
		}
		y := int8(-1)
		if label == "1" {
			y = 1
		}
		scores, labels = append(scores, s), append(labels, y)
	}
	return scores, labels
}

// bruteAUC is the AUC by its definition: the share of (positive, negative) pairs the
// scores order correctly, a tie counting one half, over all P·N pairs.
func bruteAUC(scores []float64, labels []int8) float64 {
	var pos, neg []float64
	for i, s := range scores {
		if labels[i] > 0 {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	var twice int64 // 2·(correct pairs) + ties: exact
	for _, p := range pos {
		for _, n := range neg {
			switch {
			case p > n:
				twice += 2
			case p == n:
				twice++
			}
		}
	}
	return float64(twice) / (2 * float64(len(pos)) * float64(len(neg)))
}

// trainJSON is train --json's output.
type trainJSON struct {
	Algo        string             `json:"algo"`
	Params      map[string]float64 `json:"params"`
	Backend     string             `json:"backend"`
	Data        string             `json:"data"`
	TrainRows   int                `json:"train_rows"`
	Features    int                `json:"features"`
	Passes      *int               `json:"passes"`
	Scale       string             `json:"scale"`
	Seconds     float64            `json:"seconds"`
	TestRows    int                `json:"test_rows"`
	TestAUC     *float64           `json:"test_auc"`
	TrainSHA256 string             `json:"train_sha256"`
}

// modelJSON is the part of a model file the test reads.
type modelJSON struct {
	Format      int                `json:"format"`
	Version     string             `json:"aucopt_version"`
	Algo        string             `json:"algorithm"`
	Params      map[string]float64 `json:"params"`
	Features    int                `json:"features"`
	Scaling     struct{ Kind string }
	Backend     string          `json:"backend"`
	TrainSHA256 string          `json:"train_sha256"`
	TestAUC     *float64        `json:"test_auc"`
	Weights     json.RawMessage `json:"weights"`
}

func readModel(t *testing.T, path string) modelJSON {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("model file: %v", err)
	}
	var m modelJSON
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("model file %s is not JSON: %v", path, err)
	}
	return m
}

// threshold is one of eval's best thresholds.
type threshold struct {
	Threshold, Accuracy, Precision, Recall, F1 float64
	TP, FP, TN, FN                             int64
}

// evalJSON is eval --json's output.
type evalJSON struct {
	Model struct {
		Algo        string   `json:"algorithm"`
		Features    int      `json:"features"`
		TrainSHA256 string   `json:"train_sha256"`
		Version     string   `json:"aucopt_version"`
		TestAUC     *float64 `json:"test_auc"`
	} `json:"model"`
	Data         string                       `json:"data"`
	Part         string                       `json:"part"`
	Rows         int                          `json:"rows"`
	AUC          float64                      `json:"auc"`
	Positives    int                          `json:"positives"`
	Negatives    int                          `json:"negatives"`
	ROCPoints    int                          `json:"roc_points"`
	TPRAt        []struct{ FPR, TPR float64 } `json:"tpr_at_fpr"`
	BestF1       threshold                    `json:"best_f1"`
	BestAccuracy threshold                    `json:"best_accuracy"`
}

// confusion counts score ≥ threshold as predicted positive.
func confusion(scores []float64, labels []int8, thr float64) (tp, fp, tn, fn int64) {
	for i, s := range scores {
		switch {
		case s >= thr && labels[i] > 0:
			tp++
		case s >= thr:
			fp++
		case labels[i] > 0:
			fn++
		default:
			tn++
		}
	}
	return
}

// pngSize decodes a PNG's header.
func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("plot file: %v", err)
	}
	defer f.Close()
	cfg, format, err := image.DecodeConfig(f)
	if err != nil || format != "png" {
		t.Fatalf("%s does not decode as PNG: format %q, %v", path, format, err)
	}
	return cfg.Width, cfg.Height
}

// parseSVG parses an SVG file with encoding/xml and returns the root's width and
// height attributes and the text of its <text> elements, one per line.
func parseSVG(t *testing.T, path string) (width, height, text string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("plot file: %v", err)
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	var sb strings.Builder
	depth, inText := 0, false
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
			if depth == 0 {
				if tok.Name.Local != "svg" {
					t.Fatalf("%s: root element <%s>, want <svg>", path, tok.Name.Local)
				}
				for _, a := range tok.Attr {
					switch a.Name.Local {
					case "width":
						width = a.Value
					case "height":
						height = a.Value
					}
				}
			}
			depth++
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			depth--
			if inText {
				sb.WriteByte('\n')
			}
			inText = false
		case xml.CharData:
			if inText {
				sb.Write(tok)
			}
		}
	}
	if depth != 0 {
		t.Fatalf("%s: unbalanced elements", path)
	}
	return width, height, sb.String()
}

// TestEndToEnd builds aucopt and runs every command on the embedded data, then the bad
// inputs, as a new user would.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs every command (about 15 s); skipped with -short")
	}
	e := newE2E(t)
	a9aTrain, a9aTest := embedded(t, "a9a.txt.xz"), embedded(t, "a9a.t.xz")
	germanFile := embedded(t, "german_scale.txt.xz")

	// help lists the commands; each must be exercised below (checked at the end).
	helpOut := e.ok("help")
	var listed []string
	inCommands := false
	for _, line := range strings.Split(helpOut, "\n") {
		switch {
		case line == "Commands:":
			inCommands = true
		case inCommands && strings.HasPrefix(line, "  "):
			listed = append(listed, strings.Fields(line)[0])
		case inCommands:
			inCommands = false
		}
	}
	if len(listed) < 10 {
		t.Fatalf("aucopt help lists %d commands (%q), want the issue's ten or more:\n%s", len(listed), listed, helpOut)
	}
	if out, _, status := e.run(); status != 0 || out != helpOut {
		t.Errorf("aucopt with no command: exit %d, want 0 and the help", status)
	}

	var opauc trainJSON
	t.Run("train", func(t *testing.T) {
		out := e.ok("train")
		for _, want := range []string{"opauc on a9a", "32561 rows", "123 features", "test AUC 0.", "16281 rows"} {
			if !strings.Contains(out, want) {
				t.Errorf("train's summary lacks %q:\n%s", want, out)
			}
		}
		e.okJSON(&opauc, "train", "--json", "--quiet", "--model", "opauc.json")
		switch {
		case opauc.Algo != "opauc", opauc.Data != "a9a", opauc.TrainRows != 32561, opauc.Features != 123,
			opauc.Passes == nil || *opauc.Passes != 1, opauc.TestRows != 16281, opauc.Backend == "",
			opauc.Seconds <= 0, opauc.Scale != "minmax":
			t.Errorf("train --json = %+v", opauc)
		case opauc.TestAUC == nil || *opauc.TestAUC < 0.85 || *opauc.TestAUC > 0.95:
			t.Fatalf("train --json: test_auc %v, want OPAUC's ≈0.90 on a9a", opauc.TestAUC)
		case len(opauc.Params) != 2 || opauc.Params["eta"] <= 0 || opauc.Params["lambda"] <= 0:
			t.Errorf("train --json: params %v, want OPAUC's eta and lambda", opauc.Params)
		}
		if want := fileSHA256(t, a9aTrain); opauc.TrainSHA256 != want {
			t.Errorf("train_sha256 %s, want the embedded a9a.txt.xz's %s", opauc.TrainSHA256, want)
		}
		m := readModel(t, e.path("opauc.json"))
		if m.Format != 1 || m.Algo != "opauc" || m.Features != 123 || m.Scaling.Kind != "minmax" ||
			m.Backend != opauc.Backend || m.TrainSHA256 != opauc.TrainSHA256 || m.TestAUC == nil ||
			*m.TestAUC != *opauc.TestAUC || m.Params["eta"] != opauc.Params["eta"] || len(m.Weights) == 0 {
			t.Errorf("model file %+v does not record train's run %+v", m, opauc)
		}
		// The same run writes the same bytes.
		e.ok("train", "--quiet", "--model", "opauc2.json")
		b1, _ := os.ReadFile(e.path("opauc.json"))
		b2, _ := os.ReadFile(e.path("opauc2.json"))
		if !bytes.Equal(b1, b2) {
			t.Error("two runs of train with the same seed wrote different model files")
		}
	})
	if opauc.TestAUC == nil {
		t.Fatal("no OPAUC model to go on with")
	}

	t.Run("train progress", func(t *testing.T) {
		_, errOut, status := e.run("train", "--data", "german", "--passes", "2")
		if status != 0 || !strings.Contains(errOut, "pass 1 done") || !strings.Contains(errOut, "pass 2 done") {
			t.Errorf("train without --quiet (stderr not a terminal): exit %d, want plain progress lines, got %q", status, errOut)
		}
		_, errOut, status = e.run("train", "--data", "german", "--passes", "2", "--quiet")
		if status != 0 || errOut != "" {
			t.Errorf("train --quiet: exit %d, stderr %q, want nothing", status, errOut)
		}
	})

	var batch trainJSON
	t.Run("train batch", func(t *testing.T) {
		e.okJSON(&batch, "train", "--algo", "ls-auc", "--json", "--quiet", "--model", "ls-auc.json")
		if batch.Algo != "ls-auc" || batch.Passes == nil || *batch.Passes != 0 || batch.TestAUC == nil ||
			*batch.TestAUC < 0.85 || batch.TrainRows != 32561 {
			t.Errorf("train --algo ls-auc --json = %+v, want a batch fit (passes 0) with test AUC ≈0.90", batch)
		}
	})

	t.Run("train grid", func(t *testing.T) {
		var g struct {
			Algo   string `json:"algo"`
			Points []struct {
				Params map[string]float64 `json:"params"`
				ValAUC *float64           `json:"val_auc"`
			} `json:"grid"`
			Best      int                `json:"best"`
			Params    map[string]float64 `json:"params"`
			TrainRows int                `json:"train_rows"`
			TestAUC   *float64           `json:"test_auc"`
		}
		e.okJSON(&g, "train", "--data", "german", "--grid", "eta=2^[-8..-6];lambda=10^[-3..-2]", "--json", "--quiet", "--model", "grid.json")
		if g.Algo != "opauc" || len(g.Points) != 6 || g.Best < 0 || g.Best >= len(g.Points) || g.TrainRows != 1000 {
			t.Fatalf("train --grid --json: algo %q, %d points, best %d, %d rows; want opauc, 3×2 points, 1000 rows", g.Algo, len(g.Points), g.Best, g.TrainRows)
		}
		for i, p := range g.Points {
			if p.ValAUC == nil || *p.ValAUC > *g.Points[g.Best].ValAUC {
				t.Errorf("grid point %d %v: validation AUC %v, above the best's %v", i, p.Params, p.ValAUC, *g.Points[g.Best].ValAUC)
			}
		}
		if fmt.Sprint(g.Params) != fmt.Sprint(g.Points[g.Best].Params) {
			t.Errorf("refitted params %v, want the best point's %v", g.Params, g.Points[g.Best].Params)
		}
		if g.TestAUC != nil {
			t.Errorf("german has no test split, but the grid reports test AUC %v", *g.TestAUC)
		}
		if m := readModel(t, e.path("grid.json")); fmt.Sprint(m.Params) != fmt.Sprint(g.Params) || m.Features != 24 {
			t.Errorf("grid model: params %v, %d features; want %v, 24", m.Params, m.Features, g.Params)
		}
	})

	var scores []float64
	var labels []int8
	t.Run("predict", func(t *testing.T) {
		out := e.ok("predict", "--model", "opauc.json", "--data", "a9a")
		if _, errOut, _ := e.run("predict", "--model", "opauc.json", "--data", "a9a", "--out", "scores.tsv"); errOut != "" {
			t.Errorf("predict --out wrote to stderr: %q", errOut)
		}
		file, err := os.ReadFile(e.path("scores.tsv"))
		if err != nil {
			t.Fatalf("predict --out: %v", err)
		}
		if string(file) != out {
			t.Error("predict --out wrote other scores than predict to stdout")
		}
		scores, labels = parseScores(t, out)
		if len(scores) != 16281 {
			t.Fatalf("predict on a9a: %d scores, want one per row of its test split (16281)", len(scores))
		}
		// The a9a model refuses the german file (fewer features: another space), unless
		// told that the missing features count 0.
		if _, errOut, status := e.run("predict", "--model", "opauc.json", "--data", germanFile); status != 2 || !strings.Contains(errOut, "the data has 24 features, the model 123") {
			t.Errorf("predict an a9a model on german: exit %d, %q; want 2 naming both feature counts", status, errOut)
		}
		if g, _ := parseScores(t, e.ok("predict", "--model", "opauc.json", "--data", germanFile, "--allow-fewer-features")); len(g) != 1000 {
			t.Errorf("predict on german_scale.txt.xz: %d scores, want 1000", len(g))
		}
	})
	if scores == nil {
		t.Fatal("no scores to go on with")
	}

	t.Run("eval", func(t *testing.T) {
		var ev evalJSON
		e.okJSON(&ev, "eval", "--model", "opauc.json", "--data", "a9a", "--json")
		auc := bruteAUC(scores, labels)
		if math.Abs(ev.AUC-auc) > 1e-12 {
			t.Errorf("eval's AUC %.15f, the brute-force AUC of predict's scores %.15f", ev.AUC, auc)
		}
		if math.Abs(ev.AUC-*opauc.TestAUC) > 1e-12 {
			t.Errorf("eval's AUC %.15f, train's test_auc %.15f", ev.AUC, *opauc.TestAUC)
		}
		pos := 0
		for _, y := range labels {
			if y > 0 {
				pos++
			}
		}
		if ev.Rows != len(scores) || ev.Positives != pos || ev.Negatives != len(scores)-pos || ev.Part != "test" || ev.Data != "a9a" {
			t.Errorf("eval: %d rows (%d+, %d-), part %q of %q; predict gave %d rows, %d positive, of a9a's test part",
				ev.Rows, ev.Positives, ev.Negatives, ev.Part, ev.Data, len(scores), pos)
		}
		if ev.Model.Algo != "opauc" || ev.Model.Features != 123 || ev.Model.TrainSHA256 != opauc.TrainSHA256 ||
			ev.Model.TestAUC == nil || *ev.Model.TestAUC != *opauc.TestAUC || ev.Model.Version == "" {
			t.Errorf("eval's model %+v does not match train's run", ev.Model)
		}
		if ev.ROCPoints < 2 || len(ev.TPRAt) == 0 {
			t.Errorf("eval: %d ROC points, %d TPR@FPR; want a ROC summary", ev.ROCPoints, len(ev.TPRAt))
		}
		for name, th := range map[string]threshold{"best_f1": ev.BestF1, "best_accuracy": ev.BestAccuracy} {
			tp, fp, tn, fn := confusion(scores, labels, th.Threshold)
			if tp != th.TP || fp != th.FP || tn != th.TN || fn != th.FN {
				t.Errorf("eval %s at score ≥ %g: TP %d FP %d TN %d FN %d; counted from predict's scores: %d %d %d %d",
					name, th.Threshold, th.TP, th.FP, th.TN, th.FN, tp, fp, tn, fn)
			}
			if acc := float64(tp+tn) / float64(len(scores)); math.Abs(acc-th.Accuracy) > 1e-12 {
				t.Errorf("eval %s: accuracy %g, counted %g", name, th.Accuracy, acc)
			}
			if f1 := float64(2*tp) / float64(2*tp+fp+fn); math.Abs(f1-th.F1) > 1e-12 {
				t.Errorf("eval %s: F1 %g, counted %g", name, th.F1, f1)
			}
		}
		if ev.BestAccuracy.Accuracy < ev.BestF1.Accuracy || ev.BestF1.F1 < ev.BestAccuracy.F1 {
			t.Errorf("eval: best accuracy %+v and best F1 %+v are not the best of each", ev.BestAccuracy, ev.BestF1)
		}
		out := e.ok("eval", "--model", "opauc.json", "--data", "a9a")
		for _, want := range []string{fmt.Sprintf("AUC %.4f", ev.AUC), "best F1", "best accuracy", "3846 positive, 12435 negative"} {
			if !strings.Contains(out, want) {
				t.Errorf("eval's report lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("inspect", func(t *testing.T) {
		var rep struct {
			Model struct {
				Algo string `json:"algorithm"`
			} `json:"model"`
			Weights []struct {
				Name string `json:"name"`
			} `json:"weights"`
		}
		e.okJSON(&rep, "inspect", "--model", "opauc.json", "--top", "3", "--json")
		if len(rep.Weights) != 3 || rep.Model.Algo != "opauc" || !strings.HasPrefix(rep.Weights[0].Name, "f") {
			t.Errorf("inspect: %d weights, algorithm %q, first %+v", len(rep.Weights), rep.Model.Algo, rep.Weights)
		}
	})

	t.Run("experiment", func(t *testing.T) {
		out := e.ok("experiment", "--protocol", "opauc", "--datasets", "german", "--algos", "opauc,ls-auc",
			"--trials", "1", "--folds", "3", "--inner-folds", "1", "--grid", "opauc=eta=2^[-10..-8];lambda=2^-10",
			"--grid", "ls-auc=lambda=1e-4,1e-2", "--out", "exp.md", "--quiet")
		if out != "" {
			t.Errorf("experiment --out wrote to stdout: %q", out)
		}
		md, err := os.ReadFile(e.path("exp.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"german", "opauc", "ls-auc", "±"} {
			if !strings.Contains(string(md), want) {
				t.Errorf("exp.md lacks %q:\n%s", want, md)
			}
		}
		var rep map[string]any
		b, err := os.ReadFile(e.path("exp.json"))
		if err != nil || json.Unmarshal(b, &rep) != nil {
			t.Fatalf("exp.json beside exp.md: %v", err)
		}
		again := e.ok("experiment", "--render", "exp.json")
		if !strings.Contains(again, "ls-auc") {
			t.Errorf("--render of exp.json: %s", again)
		}
	})

	t.Run("cv", func(t *testing.T) {
		var cv struct {
			Algo    string    `json:"algo"`
			Rows    int       `json:"rows"`
			Folds   int       `json:"folds"`
			Repeats int       `json:"repeats"`
			AUCs    []float64 `json:"aucs"`
			Mean    float64   `json:"mean"`
			Std     float64   `json:"std"`
			Runs    []struct {
				Repeat, Fold int
				TrainRows    int     `json:"train_rows"`
				TestRows     int     `json:"test_rows"`
				AUC          float64 `json:"auc"`
			} `json:"runs"`
		}
		e.okJSON(&cv, "cv", "--data", "german", "--folds", "5", "--repeats", "2", "--json", "--quiet")
		if cv.Algo != "opauc" || cv.Rows != 1000 || cv.Folds != 5 || cv.Repeats != 2 || len(cv.AUCs) != 10 || len(cv.Runs) != 10 {
			t.Fatalf("cv --json: %s, %d rows, %d×%d folds, %d AUCs, %d runs; want opauc, 1000, 2×5, 10, 10",
				cv.Algo, cv.Rows, cv.Repeats, cv.Folds, len(cv.AUCs), len(cv.Runs))
		}
		var sum, sq float64
		tested := map[int]int{}
		for i, r := range cv.Runs {
			sum += r.AUC
			if r.AUC != cv.AUCs[i] || r.AUC < 0.6 || r.TrainRows+r.TestRows != 1000 {
				t.Errorf("cv run %d: %+v (aucs[%d] = %v)", i, r, i, cv.AUCs[i])
			}
			tested[r.Repeat] += r.TestRows
		}
		for rep, n := range tested {
			if n != 1000 {
				t.Errorf("cv repeat %d tests %d rows, want each of the 1000 once", rep, n)
			}
		}
		mean := sum / 10
		for _, a := range cv.AUCs {
			sq += (a - mean) * (a - mean)
		}
		if math.Abs(cv.Mean-mean) > 1e-12 || math.Abs(cv.Std-math.Sqrt(sq/9)) > 1e-12 {
			t.Errorf("cv: mean ± std %v ± %v, want %v ± %v (sample std)", cv.Mean, cv.Std, mean, math.Sqrt(sq/9))
		}
		if out := e.ok("cv", "--data", "german", "--quiet"); !strings.Contains(out, "5-fold stratified") || !strings.Contains(out, "±") {
			t.Errorf("cv's report lacks the protocol or mean ± std:\n%s", out)
		}
	})

	t.Run("roc", func(t *testing.T) {
		out := e.ok("roc", "--model", "opauc.json", "--model", "ls-auc.json", "--data", "a9a", "--out", "roc.png", "--width", "400px", "--height", "300px")
		if w, h := pngSize(t, e.path("roc.png")); w != 400 || h != 300 {
			t.Errorf("roc.png is %d×%d, want the requested 400×300", w, h)
		}
		if want := fmt.Sprintf("AUC %.4f", *opauc.TestAUC); !strings.Contains(out, want) {
			t.Errorf("roc's stdout lacks OPAUC's %s:\n%s", want, out)
		}
		e.ok("roc", "--model", "opauc.json,ls-auc.json", "--data", "a9a", "--out", "roc.svg", "--width", "5in", "--height", "4in")
		w, h, text := parseSVG(t, e.path("roc.svg"))
		if w != "360pt" || h != "288pt" {
			t.Errorf("roc.svg is %s × %s, want 5in × 4in (360pt × 288pt)", w, h)
		}
		for _, want := range []string{
			fmt.Sprintf("opauc (AUC %.4f)", *opauc.TestAUC),
			fmt.Sprintf("ls-auc (AUC %.4f)", *batch.TestAUC),
			"chance (AUC 0.5)",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("roc.svg's legend lacks %q; its text:\n%s", want, text)
			}
		}
		e.ok("roc", "--model", "opauc.json", "--data", "a9a", "--out", "roc.pdf")
		if b, err := os.ReadFile(e.path("roc.pdf")); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Errorf("roc.pdf is not a PDF: %v", err)
		}
	})

	t.Run("plot convergence", func(t *testing.T) {
		var tr struct {
			Data   string `json:"data"`
			Traces []struct {
				Algo    string  `json:"algo"`
				TestAUC float64 `json:"test_auc"`
				Points  []struct {
					Seen    int64   `json:"seen"`
					Seconds float64 `json:"seconds"`
					TestAUC float64 `json:"test_auc"`
				} `json:"points"`
			} `json:"traces"`
		}
		e.okJSON(&tr, "plot", "convergence", "--algo", "opauc,olr", "--every", "8000", "--out", "conv.png",
			"--width", "800px", "--height", "300px", "--json", "--quiet")
		if w, h := pngSize(t, e.path("conv.png")); w != 800 || h != 300 {
			t.Errorf("conv.png is %d×%d, want the requested 800×300", w, h)
		}
		if tr.Data != "a9a" || len(tr.Traces) != 2 || tr.Traces[0].Algo != "opauc" || tr.Traces[1].Algo != "olr" {
			t.Fatalf("plot convergence --json: data %q, %d traces; want a9a, opauc then olr", tr.Data, len(tr.Traces))
		}
		for _, c := range tr.Traces {
			if len(c.Points) < 5 {
				t.Errorf("%s: %d points, want one per 8000 examples of 32561", c.Algo, len(c.Points))
				continue
			}
			for k := 1; k < len(c.Points); k++ {
				p, q := c.Points[k-1], c.Points[k]
				if q.Seen <= p.Seen || q.Seconds < p.Seconds || q.TestAUC < 0 || q.TestAUC > 1 {
					t.Errorf("%s: point %d %+v after %+v: examples and seconds must grow, AUC in [0,1]", c.Algo, k, q, p)
				}
			}
			last := c.Points[len(c.Points)-1]
			if last.Seen != 32561 || last.TestAUC != c.TestAUC || c.TestAUC < 0.85 {
				t.Errorf("%s: last point %+v, trace's test AUC %v; want all 32561 examples seen and the trace's AUC ≈0.90", c.Algo, last, c.TestAUC)
			}
		}
		if got := tr.Traces[0].TestAUC; math.Abs(got-*opauc.TestAUC) > 1e-12 {
			t.Errorf("plot's OPAUC ends at test AUC %v, train's same run at %v", got, *opauc.TestAUC)
		}
		e.ok("plot", "convergence", "--algo", "opauc", "--every", "16000", "--x", "examples", "--out", "conv.svg", "--quiet")
		if _, _, text := parseSVG(t, e.path("conv.svg")); !strings.Contains(text, "opauc") {
			t.Errorf("conv.svg's legend lacks opauc; its text:\n%s", text)
		}
	})

	t.Run("datasets", func(t *testing.T) {
		var ds []struct {
			Name      string `json:"name"`
			Rows      int    `json:"rows"`
			TestRows  int    `json:"test_rows"`
			Features  int    `json:"features"`
			Positives int    `json:"positives"`
			Where     string `json:"where"`
			Error     string `json:"error"`
		}
		e.okJSON(&ds, "datasets", "--json")
		found := map[string]string{}
		for _, d := range ds {
			switch d.Name {
			case "a9a":
				if d.Rows != 32561 || d.TestRows != 16281 || d.Features != 123 || d.Positives != 7841 {
					t.Errorf("datasets: a9a %+v", d)
				}
			case "german":
				if d.Rows != 1000 || d.Features != 24 || d.Positives != 300 {
					t.Errorf("datasets: german %+v", d)
				}
			default:
				if d.Error == "" {
					t.Errorf("datasets: %s found in an empty $AUCOPT_DATA: %+v", d.Name, d)
				}
			}
			found[d.Name] = d.Where
		}
		if found["a9a"] != "embedded" || found["german"] != "embedded" {
			t.Errorf("datasets: a9a in %q, german in %q; want both embedded", found["a9a"], found["german"])
		}
		if out := e.ok("datasets"); !strings.Contains(out, "a9a") || !strings.Contains(out, "embedded") {
			t.Errorf("datasets' table:\n%s", out)
		}
	})

	t.Run("gen", func(t *testing.T) { // issue 16: a click log, trained on as a table
		if out := e.ok("gen", "--rows", "2000", "--out", "clicks.parquet"); !strings.Contains(out, "2000 rows") {
			t.Errorf("gen's summary: %s", out)
		}
		out := e.ok("train", "--algo", "ftrl", "--data", "clicks.parquet", "--label", "click", "--hash-bits", "10", "--quiet")
		if !strings.Contains(out, "2000 rows, 1024 features") {
			t.Errorf("train on the generated table: %s", out)
		}
	})

	t.Run("convert", func(t *testing.T) {
		out := e.ok("convert", a9aTrain, "a9a.cache")
		if !strings.Contains(out, "32561 rows") || !strings.Contains(out, "123 features") {
			t.Errorf("convert's summary: %s", out)
		}
		var fromText, fromCache trainJSON
		e.okJSON(&fromText, "train", "--data", a9aTrain, "--test", a9aTest, "--json", "--quiet", "--model", "text.json")
		e.okJSON(&fromCache, "train", "--data", "a9a.cache", "--test", a9aTest, "--json", "--quiet", "--model", "cache.json")
		if fromText.TestAUC == nil || fromCache.TestAUC == nil || *fromText.TestAUC != *fromCache.TestAUC ||
			fromText.TrainRows != fromCache.TrainRows || fromText.Features != fromCache.Features {
			t.Errorf("train from text %+v, from the cache %+v: want the same run", fromText, fromCache)
		}
		if fromText.TrainSHA256 != opauc.TrainSHA256 {
			t.Errorf("train from the a9a file: sha256 %s; from its name %s", fromText.TrainSHA256, opauc.TrainSHA256)
		}
		mt, mc := readModel(t, e.path("text.json")), readModel(t, e.path("cache.json"))
		if !bytes.Equal(mt.Weights, mc.Weights) {
			t.Error("train from the cache gives other weights than from the text it was converted from")
		}
		if *fromText.TestAUC != *opauc.TestAUC || !bytes.Equal(mt.Weights, readModel(t, e.path("opauc.json")).Weights) {
			t.Errorf("train from the embedded files: test AUC %v, from the name a9a %v; want the same weights", *fromText.TestAUC, *opauc.TestAUC)
		}
	})

	t.Run("backends", func(t *testing.T) {
		var rep struct {
			Backends []struct {
				Name      string
				Available bool
			} `json:"backends"`
			CPU      map[string]any `json:"cpu"`
			Selected string         `json:"selected"`
		}
		e.okJSON(&rep, "backends", "--json")
		avail := map[string]bool{}
		for _, b := range rep.Backends {
			avail[b.Name] = b.Available
		}
		if !avail["generic"] || !avail[rep.Selected] || len(rep.CPU) == 0 {
			t.Errorf("backends --json: %+v; want generic available and an available backend selected", rep)
		}
		if rep.Selected != opauc.Backend {
			t.Errorf("backends selects %s, train ran on %s", rep.Selected, opauc.Backend)
		}
		if out := e.ok("backends"); !strings.Contains(out, "generic") || !strings.Contains(out, "selected: ") {
			t.Errorf("backends' table:\n%s", out)
		}
	})

	t.Run("bench", func(t *testing.T) {
		var rows []struct {
			Op       string `json:"op"`
			Kind     string `json:"kind"`
			Size     string `json:"size"`
			Backends []struct {
				Backend string  `json:"backend"`
				Seconds float64 `json:"seconds"`
				Ratio   float64 `json:"ratio"`
				AUC     float64 `json:"auc"`
			} `json:"backends"`
		}
		e.okJSON(&rows, "bench", "--quick", "--json", "--quiet")
		ops := map[string]bool{}
		for _, r := range rows {
			ops[r.Op] = true
			if len(r.Backends) == 0 || r.Backends[0].Backend != "generic" {
				t.Errorf("bench row %s %s: backends %+v, want generic first", r.Op, r.Size, r.Backends)
				continue
			}
			for _, b := range r.Backends {
				if b.Seconds <= 0 || b.Ratio <= 0 || (r.Kind == "algorithm" && (b.AUC < 0.5 || b.AUC > 1)) {
					t.Errorf("bench row %s %s on %s: %+v", r.Op, r.Size, b.Backend, b)
				}
			}
			if r.Backends[0].Ratio != 1 {
				t.Errorf("bench row %s %s: generic's ratio to itself %v", r.Op, r.Size, r.Backends[0].Ratio)
			}
		}
		for _, op := range []string{"Dot", "Gemv", "Syrk", "opauc", "spam-l2", "mba-l2"} {
			if !ops[op] {
				t.Errorf("bench --json has no %s row", op)
			}
		}
	})

	t.Run("version", func(t *testing.T) {
		out := e.ok("version")
		m := readModel(t, e.path("opauc.json"))
		if !strings.HasPrefix(out, "aucopt "+m.Version+" (go") || strings.Count(out, "\n") != 1 || m.Version == "" {
			t.Errorf("version prints %q; the model records version %q", out, m.Version)
		}
	})

	t.Run("help", func(t *testing.T) {
		for _, c := range append(slices.Clone(listed), "plot convergence") {
			args := append(strings.Fields(c), "--help")
			out, errOut, status := e.run(args...)
			if status != 0 || !strings.Contains(out+errOut, "Usage: aucopt "+c) || !strings.Contains(out+errOut, "Examples:") {
				t.Errorf("aucopt %s --help: exit %d, want 0 with a usage and examples:\n%s%s", c, status, out, errOut)
			}
		}
	})

	t.Run("interrupt", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("no SIGINT to send on windows")
		}
		c := e.cmd("train", "--passes", "100000", "--model", "interrupted.json")
		stderr, err := c.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stdout bytes.Buffer
		c.Stdout = &stdout
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if len(lines) == 1 { // training has started: a pass is done
				if err := c.Process.Signal(os.Interrupt); err != nil {
					t.Fatal(err)
				}
			}
		}
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		select {
		case err = <-done:
		case <-time.After(20 * time.Second):
			c.Process.Kill()
			t.Fatal("train did not stop within 20 s of Ctrl-C")
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("train after Ctrl-C: %v, want exit status 130", err)
		}
		if len(lines) == 0 || !strings.Contains(lines[len(lines)-1], "aucopt train: interrupted") || stdout.Len() != 0 {
			t.Errorf("train after Ctrl-C: stderr %q, stdout %q; want an 'interrupted' line and no result", lines, stdout.String())
		}
		if _, err := os.Stat(e.path("interrupted.json")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("train after Ctrl-C left a model file: %v", err)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		e.ok("train", "--data", "german", "--quiet", "--model", "german.json")
		if err := os.WriteFile(e.path("garbage.json"), []byte("this is not a model\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(e.path("adir.json"), 0o755); err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name string
			args []string
			want []string // what the one line must name
		}{
			{"train missing data", []string{"train", "--data", "missing.svm"}, []string{"missing.svm"}},
			{"train missing test", []string{"train", "--data", "german", "--test", "missing.svm", "--model", "out.json"}, []string{"missing.svm"}},
			{"predict missing data", []string{"predict", "--model", "opauc.json", "--data", "missing.svm", "--out", "out.tsv"}, []string{"missing.svm"}},
			{"eval missing data", []string{"eval", "--model", "opauc.json", "--data", "missing.svm"}, []string{"missing.svm"}},
			{"eval missing model", []string{"eval", "--model", "missing.json", "--data", "a9a"}, []string{"missing.json"}},
			{"predict missing model", []string{"predict", "--model", "missing.json", "--data", "a9a", "--out", "out.tsv"}, []string{"missing.json"}},
			{"roc missing model", []string{"roc", "--model", "missing.json", "--data", "a9a", "--out", "out.png"}, []string{"missing.json"}},
			{"roc missing data", []string{"roc", "--model", "opauc.json", "--data", "missing.svm", "--out", "out.png"}, []string{"missing.svm"}},
			{"cv missing data", []string{"cv", "--data", "missing.svm"}, []string{"missing.svm"}},
			{"plot missing data", []string{"plot", "convergence", "--data", "missing.svm", "--out", "out.png"}, []string{"missing.svm"}},
			{"convert missing input", []string{"convert", "missing.svm", "out.cache"}, []string{"missing.svm"}},
			{"train unknown flag", []string{"train", "--bogus"}, []string{"--bogus", "--help"}},
			{"predict unknown flag", []string{"predict", "--bogus"}, []string{"--bogus"}},
			{"roc unknown flag", []string{"roc", "--bogus"}, []string{"--bogus"}},
			{"bench unknown flag", []string{"bench", "--bogus"}, []string{"--bogus"}},
			{"version unknown flag", []string{"version", "--bogus"}, []string{"--bogus"}},
			{"unknown command", []string{"frobnicate"}, []string{`"frobnicate"`, "aucopt help"}},
			{"unknown plot kind", []string{"plot", "histogram"}, []string{`"histogram"`}},
			{"no plot kind", []string{"plot"}, []string{"convergence"}},
			{"convert one argument", []string{"convert", "only.svm"}, []string{"IN and OUT"}},
			{"predict german model on a9a", []string{"predict", "--model", "german.json", "--data", "a9a", "--out", "out.tsv"}, []string{"german.json", "feature"}},
			{"eval german model on a9a", []string{"eval", "--model", "german.json", "--data", "a9a"}, []string{"german.json", "feature"}},
			{"roc german model on a9a", []string{"roc", "--model", "german.json", "--data", "a9a", "--out", "out.png"}, []string{"german.json", "feature"}},
			{"train model in missing dir", []string{"train", "--data", "german", "--model", "nodir/m.json"}, []string{"--model", "nodir"}},
			{"train checkpoint in missing dir", []string{"train", "--data", "german", "--checkpoint", "nodir/c.ckpt"}, []string{"--checkpoint", "nodir"}},
			{"predict out in missing dir", []string{"predict", "--model", "opauc.json", "--data", "a9a", "--out", "nodir/s.tsv"}, []string{"--out", "nodir"}},
			{"predict out a directory", []string{"predict", "--model", "opauc.json", "--data", "a9a", "--out", "adir.json"}, []string{"--out", "adir.json"}},
			{"roc out in missing dir", []string{"roc", "--model", "opauc.json", "--data", "a9a", "--out", "nodir/r.png"}, []string{"--out", "nodir"}},
			{"roc unknown format", []string{"roc", "--model", "opauc.json", "--data", "a9a", "--out", "roc.bmp"}, []string{"roc.bmp"}},
			{"roc no out", []string{"roc", "--model", "opauc.json", "--data", "a9a"}, []string{"--out"}},
			{"plot out in missing dir", []string{"plot", "convergence", "--out", "nodir/c.png"}, []string{"--out", "nodir"}},
			{"convert out in missing dir", []string{"convert", germanFile, "nodir/g.cache"}, []string{"nodir/g.cache"}},
			{"predict garbage model", []string{"predict", "--model", "garbage.json", "--data", "a9a", "--out", "out.tsv"}, []string{"garbage.json"}},
			{"eval garbage model", []string{"eval", "--model", "garbage.json", "--data", "a9a"}, []string{"garbage.json"}},
			{"roc garbage model", []string{"roc", "--model", "garbage.json", "--data", "a9a", "--out", "out.png"}, []string{"garbage.json"}},
			{"predict directory model", []string{"predict", "--model", "adir.json", "--data", "a9a", "--out", "out.tsv"}, []string{"adir.json"}},
			{"eval directory model", []string{"eval", "--model", "adir.json", "--data", "a9a"}, []string{"adir.json"}},
			{"roc directory model", []string{"roc", "--model", "adir.json", "--data", "a9a", "--out", "out.png"}, []string{"adir.json"}},
			{"train garbage data", []string{"train", "--data", "garbage.json", "--model", "out.json"}, []string{"garbage.json"}},
			{"train unknown algorithm", []string{"train", "--algo", "nope"}, []string{`"nope"`}},
			{"cv unknown algorithm", []string{"cv", "--algo", "nope"}, []string{`"nope"`}},
			{"plot unknown algorithm", []string{"plot", "convergence", "--algo", "nope", "--out", "out.png"}, []string{`"nope"`}},
			{"bench unknown algorithm", []string{"bench", "--quick", "--algos", "nope"}, []string{`"nope"`}},
			{"train bad -p value", []string{"train", "-p", "eta=abc", "--model", "out.json"}, []string{"eta", "abc"}},
			{"train unknown -p key", []string{"train", "-p", "nokey=1"}, []string{"nokey"}},
			{"train -p not key=value", []string{"train", "-p", "eta"}, []string{"eta", "key=value"}},
			{"cv bad -p value", []string{"cv", "-p", "eta=abc"}, []string{"eta", "abc"}},
			{"train bad grid", []string{"train", "--grid", "eta=abc"}, []string{"abc"}},
			{"train bad passes", []string{"train", "--passes", "-1"}, []string{"--passes"}},
			{"train unknown backend", []string{"train", "--backend", "tpu"}, []string{`"tpu"`}},
			{"train unknown scaling", []string{"train", "--scale", "bogus"}, []string{`"bogus"`}},
			{"cv one fold", []string{"cv", "--folds", "1"}, []string{"--folds"}},
			{"predict without model", []string{"predict", "--data", "a9a"}, []string{"--model"}},
			{"datasets unknown name", []string{"datasets", "nope"}, []string{`"nope"`}},
			{"stray argument", []string{"eval", "--model", "opauc.json", "--data", "a9a", "extra"}, []string{`"extra"`}},
		}
		for _, c := range reliabilityCases(t, e, germanFile) { // issue 18's cases and the testdata/bad corpus
			tests = append(tests, struct {
				name string
				args []string
				want []string
			}{c.name, c.args, c.want})
		}
		if os.Geteuid() != 0 { // root reads any file
			if err := os.WriteFile(e.path("unreadable.json"), []byte("{}"), 0o000); err != nil {
				t.Fatal(err)
			}
			tests = append(tests, struct {
				name string
				args []string
				want []string
			}{"eval unreadable model", []string{"eval", "--model", "unreadable.json", "--data", "a9a"}, []string{"unreadable.json"}})
		} else {
			t.Log("running as root: the unreadable-model case (mode 000) cannot fail, left out")
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := e.listing()
				out, errOut, status := e.run(tt.args...)
				if status != 2 {
					t.Errorf("aucopt %s: exit %d, want 2", strings.Join(tt.args, " "), status)
				}
				if out != "" {
					t.Errorf("aucopt %s: stdout %q, want nothing", strings.Join(tt.args, " "), out)
				}
				if !strings.HasPrefix(errOut, "aucopt") || strings.Count(errOut, "\n") != 1 || !strings.HasSuffix(errOut, "\n") {
					t.Errorf("aucopt %s: stderr is not one line 'aucopt …':\n%s", strings.Join(tt.args, " "), errOut)
				}
				if strings.Contains(errOut, ".tmp") {
					t.Errorf("aucopt %s: the error names a temporary file, not the user's: %s", strings.Join(tt.args, " "), errOut)
				}
				for _, w := range tt.want {
					if !strings.Contains(errOut, w) {
						t.Errorf("aucopt %s: the error does not name %q: %s", strings.Join(tt.args, " "), w, errOut)
					}
				}
				if after := e.listing(); !slices.Equal(before, after) {
					t.Errorf("aucopt %s: files changed: before %q, after %q", strings.Join(tt.args, " "), before, after)
				}
			})
		}
	})

	t.Run("reliability drill", func(t *testing.T) { reliabilityDrill(t, e) })

	t.Run("divergence", func(t *testing.T) {
		out, errOut, status := e.run("train", "-p", "eta=1e300", "--quiet", "--model", "diverged.json")
		if status != 1 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "diverged") {
			t.Errorf("train with a huge step: exit %d, stdout %q, stderr %q; want exit 1 and one line saying it diverged", status, out, errOut)
		}
		if _, err := os.Stat(e.path("diverged.json")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a diverged run left a model file: %v", err)
		}
	})

	// Every command help lists ran; a new command must be added here.
	for _, c := range listed {
		if !e.used[c] && c != "help" {
			t.Errorf("aucopt help lists %q, which this test does not run: add it", c)
		}
	}
}
