package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/figure"
	flag "github.com/spf13/pflag"
)

const plotExamples = `  aucopt plot convergence --out conv.png                       # OPAUC, SPAM-NET and OLR on a9a
  aucopt plot convergence --algo opauc,solam,fsauc,ftrl --data a9a --passes 3 --out conv.svg
  aucopt plot convergence --algo opauc,spam-l2 -p spam-l2:eta=0.25 -p opauc:lambda=1e-3 --x seconds --log-x --out t.pdf
  aucopt plot convergence --algo olr,ftrl --data train.svm --test test.svm --every 5000 --json > traces.json
`

func runPlot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "convergence" {
		return runConvergence(ctx, args[1:], stdout, stderr)
	}
	plotUsage := func(w io.Writer) {
		fmt.Fprintln(w, "Usage: aucopt plot convergence [flags]")
		fmt.Fprintln(w, "\nKinds:\n  convergence  test AUC against examples seen and training seconds, one line per algorithm")
		fmt.Fprintln(w, "\nRun 'aucopt plot convergence --help' for its flags; 'aucopt roc --help' draws ROC curves of models.")
		fmt.Fprintf(w, "\nExamples:\n%s", plotExamples)
	}
	switch {
	case len(args) == 0:
		fmt.Fprintln(stderr, "aucopt plot: say what to plot: convergence (see aucopt plot --help)")
		return errUsage
	case args[0] == "-h" || args[0] == "--help" || args[0] == "help":
		plotUsage(stdout)
		return flag.ErrHelp
	}
	fmt.Fprintf(stderr, "aucopt plot: unknown kind %q (want convergence; see aucopt plot --help)\n", args[0])
	return errUsage
}

func runConvergence(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plot convergence", "plot convergence [--algo A,B,…] [--data TRAIN] [--test TEST] [-p algo:key=value …] --out conv.png|svg|pdf [flags]", plotExamples, stdout, stderr)
	tf := addTrainFlags(fs, withLearner)
	algos := fs.StringSlice("algo", []string{"opauc", "spam-net", "olr"}, "algorithms, comma-separated or repeated; one line each: "+strings.Join(solver.Names(), ", "))
	dataArg := fs.String("data", "a9a", "training data: a file or a dataset name (aucopt datasets)")
	test := fs.String("test", "", "test data, file or name (default: the dataset's own test split)")
	every := fs.Int64("every", 0, "examples between two evaluations of the test AUC (default: about 50 evaluations per run)")
	out := fs.String("out", "", "plot file; the format follows the extension: .png, .svg or .pdf (drawn by aucopt-plot, beside aucopt or on $PATH)")
	xAxis := fs.String("x", "both", "horizontal axis: examples (seen), seconds (of training), or both (two panels)")
	logX := fs.Bool("log-x", false, "logarithmic horizontal axes")
	width := fs.String("width", "", "plot width, with a unit: in, cm, mm, pt or px (default 10in for both panels, 6in for one)")
	height := fs.String("height", "4.5in", "plot height, with a unit")
	title := fs.String("title", "", "title prefix of the panels (default: the data's name)")
	asJSON := fs.Bool("json", false, "print the traces (every point of every algorithm) as JSON on stdout")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	allowExtra := allowExtraFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	if *out == "" && !*asJSON {
		return usageError(fs, "give --out FILE (the plot), --json (the traces), or both")
	}
	if *xAxis != "examples" && *xAxis != "seconds" && *xAxis != "both" {
		return usageError(fs, fmt.Sprintf("--x %q: want examples, seconds or both", *xAxis))
	}
	if err := tf.check(); err != nil {
		return err
	}
	if *width == "" {
		*width = "10in"
		if *xAxis != "both" {
			*width = "6in"
		}
	}
	var format, plotBin string
	var w, h float64
	if *out != "" {
		var err error
		if format, err = plotFormat(*out); err != nil {
			return err
		}
		if w, h, err = plotSize(*width, *height); err != nil {
			return err
		}
		if err := checkNotInput("--out", *out, *dataArg, *test); err != nil {
			return err
		}
		if plotBin, err = plotProgram(); err != nil { // before any training
			return err
		}
	}
	perAlgo, err := splitParams(*algos, *tf.params)
	if err != nil {
		return err
	}
	tf.perAlgo = perAlgo

	b, err := tf.selectBackend()
	if err != nil {
		return err
	}
	if b != nil {
		defer b.Close()
	}
	traces := make([]*engine.TraceResult, 0, len(*algos))
	for _, a := range *algos {
		tcfg, err := tf.config(a, b)
		if err != nil {
			return err
		}
		tcfg.Data, tcfg.Test, tcfg.AllowExtraFeatures = *dataArg, *test, *allowExtra
		cfg := engine.TraceConfig{Every: *every, TrainConfig: tcfg}
		if spec, _ := solver.Lookup(a); spec.IsBatch() {
			cfg.Passes = 1
		}
		if !*quiet {
			last := time.Now()
			cfg.Progress = func(p solver.Progress) {
				if time.Since(last) >= 5*time.Second {
					last = time.Now()
					fmt.Fprintf(stderr, "aucopt plot: %s: pass %d, %d examples, %.1fs\n", a, p.Pass+1, p.Seen, p.Elapsed.Seconds())
				}
			}
		}
		tr, err := engine.Trace(ctx, cfg)
		if err != nil {
			return err
		}
		if !*quiet {
			fmt.Fprintf(stderr, "aucopt plot: %s: test AUC %.4f after %d examples, %.3fs of training, %d points\n",
				a, tr.TestAUC, tr.Points[len(tr.Points)-1].Seen, tr.Seconds, len(tr.Points))
		}
		traces = append(traces, tr)
	}

	if *out != "" {
		name := *title
		if name == "" {
			name = traces[0].Data
		}
		var panels []figure.Panel
		for _, x := range []string{"examples", "seconds"} {
			if *xAxis == x || *xAxis == "both" {
				panels = append(panels, convergencePlot(name, x, *logX, traces))
			}
		}
		for i := range panels[1:] {
			panels[1+i].Legend = nil // one legend, on the first panel
		}
		fig := &figure.Figure{Version: figure.Version, Format: format, Width: w, Height: h, Rows: [][]figure.Panel{panels}}
		if err := drawFigure(ctx, plotBin, fig, *out); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Data   string                `json:"data"`
			Test   string                `json:"test,omitempty"`
			Traces []*engine.TraceResult `json:"traces"`
		}{*dataArg, *test, traces})
	}
	for _, tr := range traces {
		fmt.Fprintf(stdout, "%-14s test AUC %.4f  %8.3fs  %s\n", tr.Algo, tr.TestAUC, tr.Seconds, formatParams(tr.Params))
	}
	fmt.Fprintf(stdout, "written to %s\n", *out)
	return nil
}

// splitParams sorts -p values into each algorithm's parameters: "algo:key=value" goes
// to algo (which must be among algos), a bare "key=value" to every algorithm. It
// checks the names and values, so that a mistake fails before the first run.
func splitParams(algos, params []string) (map[string]solver.Params, error) {
	out := make(map[string][]string, len(algos))
	for i, a := range algos {
		if _, err := solver.Lookup(a); err != nil {
			return nil, err
		}
		if slices.Contains(algos[:i], a) {
			return nil, inputErrorf("--algo lists %s twice", a)
		}
	}
	for _, p := range params {
		algo, kv, ok := strings.Cut(p, ":")
		if !ok || strings.Contains(algo, "=") {
			for _, a := range algos {
				out[a] = append(out[a], p)
			}
			continue
		}
		if !slices.Contains(algos, algo) {
			return nil, inputErrorf("-p %s: %s is not among --algo (%s)", p, algo, strings.Join(algos, ","))
		}
		out[algo] = append(out[algo], kv)
	}
	typed := make(map[string]solver.Params, len(algos))
	for _, a := range algos { // every value checked before any run
		p, err := solver.ParamsOf(a, out[a])
		if err != nil {
			return nil, err
		}
		typed[a] = p
	}
	return typed, nil
}

// convergencePlot describes the test AUC of every trace against the examples seen or
// the training seconds (x), one line per algorithm, named with its final test AUC. The
// point at 0 examples (the untrained model) is not drawn. A batch algorithm's single
// point is drawn as a marker.
func convergencePlot(title, x string, logX bool, traces []*engine.TraceResult) figure.Panel {
	p := figure.Panel{YLabel: "test AUC", LogX: logX}
	switch x {
	case "examples":
		p.Title = title + ": test AUC against examples seen"
		p.XLabel = "examples seen"
	default:
		p.Title = title + ": test AUC against training time"
		p.XLabel = "training seconds"
	}
	for i, tr := range traces {
		s := figure.Series{Name: fmt.Sprintf("%s (AUC %.4f)", tr.Algo, tr.TestAUC), Style: figure.Line, Index: i}
		for _, q := range tr.Points {
			v := q.Seconds
			if x == "examples" {
				v = float64(q.Seen)
			}
			if q.Seen == 0 || logX && v <= 0 {
				continue
			}
			s.X, s.Y = append(s.X, v), append(s.Y, q.TestAUC)
		}
		switch len(s.X) {
		case 0:
			continue
		case 1:
			s.Style = figure.Marker
		}
		p.Legend = append(p.Legend, len(p.Series))
		p.Series = append(p.Series, s)
	}
	return p
}

// usageError prints msg in one line, with a pointer to the command's --help, and
// returns errUsage.
func usageError(fs *flag.FlagSet, msg string) error {
	fmt.Fprintf(fs.Output(), "aucopt %s: %s (see aucopt %s --help)\n", fs.Name(), msg, fs.Name())
	return errUsage
}

// plotFormat returns the format of a plot file from its extension, after checking
// that its directory exists, so that a bad path fails before any work.
func plotFormat(path string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".png", ".svg", ".pdf":
	default:
		return "", inputErrorf("--out %s: unknown plot format %q (want .png, .svg or .pdf)", path, ext)
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", inputErrorf("--out %s: directory %s does not exist", path, dir)
	case err != nil:
		return "", inputErrorf("--out %s: %w", path, err)
	case !st.IsDir():
		return "", inputErrorf("--out %s: %s is not a directory", path, dir)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return "", inputErrorf("--out %s is a directory", path)
	}
	if err := checkOutput("--out", path); err != nil {
		return "", err
	}
	return ext[1:], nil
}

// plotSize parses the --width and --height flags, in points.
func plotSize(width, height string) (float64, float64, error) {
	w, err := parseLength(width)
	if err != nil {
		return 0, 0, inputErrorf("--width: %w", err)
	}
	h, err := parseLength(height)
	if err != nil {
		return 0, 0, inputErrorf("--height: %w", err)
	}
	return w, h, nil
}

// parseLength parses a length with its unit into points: "6in", "15cm", "120mm",
// "432pt" or "800px" (pixels of a PNG, at aucopt-plot's 96 per inch).
func parseLength(s string) (float64, error) {
	units := []struct {
		suffix string
		size   float64
	}{{"in", figure.Inch}, {"cm", figure.Centimeter}, {"mm", figure.Millimeter}, {"pt", 1}, {"px", figure.Pixel}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || !(v > 0) || v*u.size > 100*figure.Inch {
				return 0, inputErrorf("%q: want a positive length up to 100in, like 6in, 15cm or 800px", s)
			}
			return v * u.size, nil
		}
	}
	return 0, inputErrorf("%q: want a number with a unit (in, cm, mm, pt or px), like 6in", s)
}
