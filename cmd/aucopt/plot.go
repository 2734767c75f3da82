package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
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
		plotUsage(stderr)
		return flag.ErrHelp
	}
	fmt.Fprintf(stderr, "aucopt plot: unknown kind %q (want convergence; see aucopt plot --help)\n", args[0])
	return errUsage
}

func runConvergence(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plot convergence", "plot convergence [--algo A,B,…] [--data TRAIN] [--test TEST] [-p algo:key=value …] --out conv.png|svg|pdf [flags]", plotExamples, stderr)
	algos := fs.StringSlice("algo", []string{"opauc", "spam-net", "olr"}, "algorithms, comma-separated or repeated; one line each: "+strings.Join(solver.Names(), ", "))
	dataArg := fs.String("data", "a9a", "training data: a file or a dataset name (aucopt datasets)")
	test := fs.String("test", "", "test data, file or name (default: the dataset's own test split)")
	params := fs.StringArrayP("param", "p", nil, "hyper-parameter algo:key=value for one algorithm, or key=value for all of them; repeatable")
	passes := fs.Int("passes", 1, "passes over the training data (online algorithms; a batch one fits once)")
	every := fs.Int64("every", 0, "examples between two evaluations of the test AUC (default: about 50 evaluations per run)")
	shuffle := fs.Bool("shuffle", true, "visit the training rows in a seeded random order each pass")
	scale := fs.String("scale", data.ScaleAuto, "feature scaling: auto, none, minmax or norm (as in train)")
	seed := fs.Uint64("seed", 1, "random seed (shuffling, class grouping, the algorithms' own randomness)")
	maxMemory := maxMemoryFlag(fs)
	backend := fs.String("backend", "", "compute backend: auto, cuda, avx2 or generic (default $AUCOPT_BACKEND, else auto)")
	out := fs.String("out", "", "plot file; the format follows the extension: .png, .svg or .pdf")
	xAxis := fs.String("x", "both", "horizontal axis: examples (seen), seconds (of training), or both (two panels)")
	logX := fs.Bool("log-x", false, "logarithmic horizontal axes")
	width := fs.String("width", "", "plot width, with a unit: in, cm, mm, pt or px (default 10in for both panels, 6in for one)")
	height := fs.String("height", "4.5in", "plot height, with a unit")
	title := fs.String("title", "", "title prefix of the panels (default: the data's name)")
	asJSON := fs.Bool("json", false, "print the traces (every point of every algorithm) as JSON on stdout")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	read := addReadFlags(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	positive, table, err := read.options()
	if err != nil {
		return err
	}
	if *out == "" && !*asJSON {
		return usageError(fs, "give --out FILE (the plot), --json (the traces), or both")
	}
	if *xAxis != "examples" && *xAxis != "seconds" && *xAxis != "both" {
		return usageError(fs, fmt.Sprintf("--x %q: want examples, seconds or both", *xAxis))
	}
	if *passes < 1 {
		return inputErrorf("--passes %d: want at least 1", *passes)
	}
	if err := checkSeed(*seed); err != nil {
		return err
	}
	if *width == "" {
		*width = "10in"
		if *xAxis != "both" {
			*width = "6in"
		}
	}
	var format string
	var w, h vg.Length
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
	}
	perAlgo, err := splitParams(*algos, *params)
	if err != nil {
		return err
	}

	maxBytes, err := parseMaxMemory(*maxMemory)
	if err != nil {
		return err
	}
	b, err := engine.BackendFromEnv(*backend)
	if err != nil {
		return err
	}
	defer b.Close()
	traces := make([]*engine.TraceResult, 0, len(*algos))
	for _, a := range *algos {
		cfg := engine.TraceConfig{Every: *every, TrainConfig: engine.TrainConfig{
			Algo: a, Params: perAlgo[a], Data: *dataArg, Test: *test, Passes: *passes, Shuffle: *shuffle,
			Scale: *scale, Seed: *seed, Backend: b, MaxMemory: maxBytes, Positive: positive, Table: table,
		}}
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
		var panels []*panel
		for _, x := range []string{"examples", "seconds"} {
			if *xAxis == x || *xAxis == "both" {
				p, err := convergencePlot(name, x, *logX, traces)
				if err != nil {
					return err
				}
				panels = append(panels, p)
			}
		}
		for _, p := range panels[1:] {
			p.Legend, p.legend = plot.NewLegend(), nil // one legend, on the first panel
		}
		if err := writePlots(*out, format, w, h, [][]*panel{panels}); err != nil {
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

// splitParams sorts -p values into each algorithm's key=value list: "algo:key=value"
// goes to algo (which must be among algos), a bare "key=value" to every algorithm. It
// checks the names and values, so that a mistake fails before the first run.
func splitParams(algos, params []string) (map[string][]string, error) {
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
	for _, a := range algos { // every value checked before any run
		spec, _ := solver.Lookup(a)
		if err := solver.SetAll(spec.Params(), out[a]); err != nil {
			return nil, fmt.Errorf("%s: %w", a, err)
		}
	}
	return out, nil
}

// convergencePlot draws the test AUC of every trace against the examples seen or the
// training seconds (x), one line per algorithm, named with its final test AUC. The
// point at 0 examples (the untrained model) is not drawn. A batch algorithm's single
// point is drawn as a marker.
func convergencePlot(title, x string, logX bool, traces []*engine.TraceResult) (*panel, error) {
	p := newPanel()
	p.Y.Label.Text = "test AUC"
	switch x {
	case "examples":
		p.Title.Text = title + ": test AUC against examples seen"
		p.X.Label.Text = "examples seen"
	default:
		p.Title.Text = title + ": test AUC against training time"
		p.X.Label.Text = "training seconds"
	}
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for i, tr := range traces {
		xys := make(plotter.XYs, 0, len(tr.Points))
		for _, q := range tr.Points {
			v := q.Seconds
			if x == "examples" {
				v = float64(q.Seen)
			}
			if q.Seen == 0 || logX && v <= 0 {
				continue
			}
			xys = append(xys, plotter.XY{X: v, Y: q.TestAUC})
		}
		if len(xys) == 0 {
			continue
		}
		name := fmt.Sprintf("%s (AUC %.4f)", tr.Algo, tr.TestAUC)
		if len(xys) == 1 {
			s, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			s.Color = plotutil.Color(i)
			s.Shape = plotutil.Shape(i)
			s.Radius = vg.Points(4)
			p.Add(s)
			p.addLegend(name, s)
			continue
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("trace of %s: %w", tr.Algo, err)
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.addLegend(name, l)
	}
	return p, nil
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

// plotSize parses the --width and --height flags.
func plotSize(width, height string) (vg.Length, vg.Length, error) {
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

// parseLength parses a length with its unit: "6in", "15cm", "120mm", "432pt" or
// "800px" (pixels of a PNG, at vgimg's 96 per inch).
func parseLength(s string) (vg.Length, error) {
	units := []struct {
		suffix string
		size   vg.Length
	}{{"in", vg.Inch}, {"cm", vg.Centimeter}, {"mm", vg.Millimeter}, {"pt", vg.Points(1)}, {"px", vg.Inch / vgimg.DefaultDPI}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
			if err != nil || !(v > 0) || v*float64(u.size) > 100*float64(vg.Inch) {
				return 0, inputErrorf("%q: want a positive length up to 100in, like 6in, 15cm or 800px", s)
			}
			return vg.Length(v) * u.size, nil
		}
	}
	return 0, inputErrorf("%q: want a number with a unit (in, cm, mm, pt or px), like 6in", s)
}

// panel is a plot with the names of its legend's entries, so that the legend can be
// drawn on a white box over the data (gonum's Legend keeps them to itself).
type panel struct {
	*plot.Plot
	legend []string
}

// newPanel returns an empty panel with a grid and the legend at the bottom right of the
// data area.
func newPanel() *panel {
	p := plot.New()
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = false, false
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(6), vg.Points(6)
	return &panel{Plot: p}
}

// addLegend adds a legend entry.
func (pn *panel) addLegend(name string, thumbs ...plot.Thumbnailer) {
	pn.Legend.Add(name, thumbs...)
	pn.legend = append(pn.legend, name)
}

// draw draws the plot on c, then its legend inside the data area, on a white box.
func (pn *panel) draw(c draw.Canvas) {
	legend := pn.Legend
	pn.Legend = plot.NewLegend()
	pn.Plot.Draw(c)
	pn.Legend = legend
	if len(pn.legend) == 0 {
		return
	}
	dc := pn.DataCanvas(c)
	sty := legend.TextStyle
	var textW, entryH vg.Length
	for _, name := range pn.legend {
		r := sty.Rectangle(name)
		textW, entryH = max(textW, r.Max.X), max(entryH, r.Max.Y)
	}
	n := vg.Length(len(pn.legend))
	margin := vg.Points(3)
	right := dc.Max.X + legend.XOffs + margin
	bottom := dc.Min.Y + legend.YOffs - margin
	box := vg.Rectangle{
		Min: vg.Point{X: right - legend.ThumbnailWidth - sty.Rectangle(" ").Max.X - textW - 2*margin, Y: bottom},
		Max: vg.Point{X: right, Y: bottom + n*entryH + (n-1)*legend.Padding + 2*margin},
	}
	c.SetColor(color.NRGBA{R: 255, G: 255, B: 255, A: 230})
	c.Fill(box.Path())
	c.SetLineStyle(draw.LineStyle{Color: color.Gray{Y: 180}, Width: vg.Points(0.5)})
	c.Stroke(box.Path())
	legend.Draw(dc)
}

// writePlots draws a grid of panels (rows of plots) on one w×h canvas of the format
// (png, svg or pdf) and writes it to path atomically: no partial file is left on error.
func writePlots(path, format string, w, h vg.Length, panels [][]*panel) error {
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	case "svg":
		c = vgsvg.New(w, h)
	case "pdf":
		c = vgpdf.New(w, h)
	default:
		return inputErrorf("unknown plot format %q", format)
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, row := range panels {
		for _, pn := range row {
			plots[i] = append(plots[i], pn.Plot)
		}
	}
	tiles := draw.Tiles{Rows: len(panels), Cols: len(panels[0]), PadX: vg.Points(12), PadY: vg.Points(12),
		PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(4)}
	canvases := plot.Align(plots, tiles, draw.New(c))
	for i, row := range panels {
		for j, pn := range row {
			pn.draw(canvases[i][j])
		}
	}
	return data.WriteAtomic(path, func(out io.Writer) error {
		_, err := c.WriteTo(out)
		return err
	})
}
