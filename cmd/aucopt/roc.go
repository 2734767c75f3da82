package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/internal/figure"
)

const rocExamples = `  aucopt train --algo opauc --model opauc.json && aucopt train --algo olr --model olr.json
  aucopt roc --model opauc.json --model olr.json --data a9a --out roc.png      # a9a's test split
  aucopt roc --model opauc.json,olr.json --data test.svm --out roc.svg --title "Adult, test set"
  aucopt roc --model m.json --label "OPAUC, 3 passes" --data test.svm --out roc.pdf --width 4in --height 4in
  aucopt roc --model opauc.json --data a9a --log-fpr --out roc-low-fpr.svg   # the low false-positive end
`

func runROC(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("roc", "roc --model M [--model M2 …] --data TEST --out roc.png|svg|pdf [flags]", rocExamples, stdout, stderr)
	models := fs.StringSlice("model", nil, "model file(s) written by train --model, repeatable or comma-separated; one curve each")
	labels := fs.StringArray("label", nil, "legend name of each model, repeatable, in --model order (default: the file name without .json)")
	dataArg := fs.String("data", "", "the data to draw the curves on: a file, or a dataset name (its test split, if it has one)")
	out := fs.String("out", "", "output file; the format follows the extension: .png, .svg or .pdf (drawn by aucopt-plot, beside aucopt or on $PATH)")
	width := fs.String("width", "6in", "plot width, with a unit: in, cm, mm, pt or px (px at 96 per inch)")
	height := fs.String("height", "6in", "plot height, with a unit")
	title := fs.String("title", "", "plot title (default: ROC on DATA)")
	logFPR := fs.Bool("log-fpr", false, "draw the false positive rate on a log scale, from one negative (1/negatives) to 1: the low-FPR end that fraud and screening thresholds live in")
	seed := fs.Uint64("seed", 1, "with a multi-class dataset name: the seed of its random class grouping (train's --seed)")
	ignoreSum := ignoreChecksumFlag(fs)
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case len(*models) == 0:
		return usageError(fs, "give at least one --model")
	case *dataArg == "":
		return usageError(fs, "give --data")
	case *out == "":
		return usageError(fs, "give --out FILE (.png, .svg or .pdf)")
	case len(*labels) > 0 && len(*labels) != len(*models):
		return usageError(fs, fmt.Sprintf("%d --label for %d --model: give one per model, or none", len(*labels), len(*models)))
	}
	format, err := plotFormat(*out)
	if err != nil {
		return err
	}
	w, h, err := plotSize(*width, *height)
	if err != nil {
		return err
	}
	for _, m := range *models {
		if _, err := os.Stat(m); err != nil {
			return fmt.Errorf("model: %w", err)
		}
	}
	if err := checkNotInput("--out", *out, append([]string{*dataArg}, *models...)...); err != nil {
		return err
	}
	plotBin, err := plotProgram()
	if err != nil {
		return err
	}
	sch, err := modelsTable(ctx, *models, model.ReadOptions{IgnoreChecksum: *ignoreSum})
	if err != nil {
		return err
	}
	ds, note, err := loadEvalData(ctx, *dataArg, *seed, sch)
	if err != nil {
		return err
	}
	curves := make([]rocCurve, len(*models))
	for i, m := range *models {
		scores, err := loadModelScores(ctx, m, ds, model.ReadOptions{IgnoreChecksum: *ignoreSum})
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(filepath.Base(m), ".json")
		if len(*labels) > 0 {
			name = (*labels)[i]
		}
		curves[i] = rocCurve{Name: name, Scores: scores, Labels: ds.Y}
	}
	if *title == "" {
		*title = "ROC on " + ds.Name
	}
	p, aucs, err := rocPlot(*title, curves, *logFPR)
	if err != nil {
		return err
	}
	fig := &figure.Figure{Version: figure.Version, Format: format, Width: w, Height: h, Rows: [][]figure.Panel{{p}}}
	if err := drawFigure(ctx, plotBin, fig, *out); err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintf(stderr, "aucopt roc: note: %s\n", note)
	}
	pos, neg := ds.Counts()
	for i, c := range curves {
		fmt.Fprintf(stdout, "%-20s AUC %.4f\n", c.Name, aucs[i])
	}
	fmt.Fprintf(stdout, "%d %s on %s (%d rows: %d positive, %d negative) written to %s\n", len(curves), plural(len(curves), "curve"), ds.Name, ds.Rows(), pos, neg, *out)
	return nil
}

// plural is "1 curve", "2 curves": the noun for n.
func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// rocCurve is one model's scores on labelled data.
type rocCurve struct {
	Name   string
	Scores []float64
	Labels []int8 // ±1
}

// rocPlot describes the exact ROC curves (metric.ROC) of curves on one plot, named
// "name (AUC 0.9012)" in the legend, over the dashed chance diagonal, and returns the
// plot and the AUCs. With logFPR the false positive rate is on a log axis from one
// negative's rate, 1/negatives, to 1: a point at FPR 0 (positives above every negative)
// is drawn there, and the chance diagonal, a curve on that axis, by 64 points.
func rocPlot(title string, curves []rocCurve, logFPR bool) (figure.Panel, []float64, error) {
	p := figure.Panel{Title: title, XLabel: "false positive rate", YLabel: "true positive rate", Unit: true, LogX: logFPR}
	chance := figure.Series{Name: "chance (AUC 0.5)", Style: figure.Reference, X: []float64{0, 1}, Y: []float64{0, 1}}
	floor := 0.0
	if logFPR {
		p.XLabel = "false positive rate (log scale)"
		neg := 0
		for _, c := range curves {
			for _, y := range c.Labels {
				if y < 0 {
					neg++
				}
			}
			break // the curves share their labels
		}
		if neg == 0 {
			return figure.Panel{}, nil, inputErrorf("--log-fpr: the data has no negatives, so no false positive rate to draw")
		}
		floor = 1 / float64(neg)
		const n = 64
		chance.X, chance.Y = make([]float64, n), make([]float64, n)
		for k := range n {
			x := math.Pow(floor, 1-float64(k)/(n-1)) // floor … 1, evenly on the log axis
			chance.X[k], chance.Y[k] = x, x
		}
	}
	// The diagonal first, under the curves; last in the legend.
	p.Series = append(p.Series, chance)
	aucs := make([]float64, len(curves))
	for i, c := range curves {
		pts, err := metric.ROC(c.Scores, c.Labels)
		if err != nil {
			return figure.Panel{}, nil, fmt.Errorf("ROC of %s: %w", c.Name, err)
		}
		aucs[i] = metric.Area(pts)
		thin := thinROC(pts)
		s := figure.Series{Name: fmt.Sprintf("%s (AUC %.4f)", c.Name, aucs[i]), Style: figure.Line, Index: i,
			X: make([]float64, len(thin)), Y: make([]float64, len(thin))}
		for k, q := range thin {
			s.X[k], s.Y[k] = max(q.FPR, floor), q.TPR
		}
		p.Legend = append(p.Legend, len(p.Series))
		p.Series = append(p.Series, s)
	}
	p.Legend = append(p.Legend, 0)
	return p, aucs, nil
}

// thinROC drops the points of a ROC curve that lie inside a vertical or horizontal run
// (a run of positives or of negatives between distinct scores): the drawn curve is the
// same, with fewer points.
func thinROC(pts []metric.Point) []metric.Point {
	if len(pts) < 3 {
		return pts
	}
	out := append(make([]metric.Point, 0, len(pts)), pts[0])
	for k := 1; k < len(pts)-1; k++ {
		a, b, c := out[len(out)-1], pts[k], pts[k+1]
		if (a.FP == b.FP && b.FP == c.FP) || (a.TP == b.TP && b.TP == c.TP) {
			continue
		}
		out = append(out, b)
	}
	return append(out, pts[len(pts)-1])
}

// loadEvalData reads the data a model is evaluated on: a file, or a registered
// dataset's test split (its training part, with a note, when it has none).
func loadEvalData(ctx context.Context, name string, seed uint64, sch *data.Schema) (*data.Dataset, string, error) {
	if st, err := os.Stat(name); err == nil {
		if st.IsDir() {
			return nil, "", inputErrorf("%s is a directory, not a data file", name)
		}
		if sch != nil { // models trained on a table: a table read with their schema
			d, _, err := data.ReadTableFile(name, data.Options{Table: &data.TableOptions{Schema: sch}, Context: ctx})
			return d, "", err
		}
		d, err := data.ReadFile(name, data.Options{Context: ctx})
		return d, "", err
	}
	if _, err := data.Lookup(name); err != nil {
		return nil, "", inputErrorf("%s is neither a file nor a known dataset (aucopt datasets)", name)
	}
	sp, err := data.Load(name, data.LoadOptions{Seed: seed, Layout: data.LayoutSparse, Context: ctx})
	if err != nil {
		return nil, "", err
	}
	if sp.Test == nil {
		return sp.Train, fmt.Sprintf("%s has no test split: the curves are on all its %d rows", name, sp.Train.Rows()), nil
	}
	sp.Test.Name = name + " (test split)"
	return sp.Test, "", nil
}
