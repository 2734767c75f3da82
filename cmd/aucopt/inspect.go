package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
)

const inspectExamples = `  aucopt inspect --model m.json                 # settings, training data, the 20 largest weights
  aucopt inspect --model ctr.json --top 5       # a hashed table: each bucket's column=value strings
  aucopt inspect --model m.json --top 0 --json | jq '.weights[0]'

Weights are named by the features they weigh: a LIBSVM feature as f<index> (1-based, the
file's own number), a table's numeric column by its name, a hashed bucket as
"bucket N" with the column=value strings of the training file that fell in it (the
most frequent few, with their row counts and the sign the hash gave them, counted over
the file's first rows; recorded at training for the buckets of largest |w|), a bin
indicator (--bins) as the feature and its interval in scaled units.
`

// inspectWeight is one weight of inspect's report.
type inspectWeight struct {
	Rank    int              `json:"rank"`
	Feature int              `json:"feature"` // 1-based, as in the model file's sparse weights
	Name    string           `json:"name"`
	Weight  float64          `json:"weight"`
	Terms   []data.VocabTerm `json:"terms,omitempty"`
}

// inspectReport is inspect's --json output.
type inspectReport struct {
	Model       modelInfo          `json:"model"`
	Table       *data.Schema       `json:"table,omitempty"`
	Calibration *model.Calibration `json:"calibration,omitempty"`
	// Intercept is always null: every learner's score is w·x without one (AUC does not
	// depend on a shift); a calibration's offset is the probability's.
	Intercept      *float64        `json:"intercept"`
	Notes          []string        `json:"notes,omitempty"`
	VocabularyRows int             `json:"vocabulary_rows,omitempty"`
	Truncated      bool            `json:"vocabulary_truncated,omitempty"`
	Weights        []inspectWeight `json:"weights"`
}

func runInspect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("inspect", "inspect --model M [--top K] [--json]", inspectExamples, stdout, stderr)
	path := fs.String("model", "", "model file written by aucopt train --model (required)")
	top := fs.Int("top", 20, "the number of largest weights to list (0: every non-zero one)")
	asJSON := fs.Bool("json", false, "print the report as one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *path == "" {
		return inputErrorf("--model is required (a file written by aucopt train --model)")
	}
	if *top < 0 {
		return inputErrorf("--top %d: want 0 (every non-zero weight) or more", *top)
	}
	m, err := model.Read(*path)
	if err != nil {
		return err
	}
	rep := inspectReport{Model: infoOf(*path, m), Table: m.Table, Calibration: m.Calibration, Notes: m.Notes,
		VocabularyRows: m.VocabularyRows, Truncated: m.VocabularyTruncated}
	rep.Weights = namedWeights(m, *top)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printInspect(stdout, m, &rep)
	return nil
}

// infoOf is eval's and inspect's summary of model m read from file.
func infoOf(file string, m *model.Model) modelInfo {
	mi := modelInfo{File: file, Algo: m.Algo, Params: m.Params, Features: m.Features,
		Scaling: m.Scaling.Kind, Backend: m.Backend, TrainData: m.TrainData, TrainRows: m.TrainRows,
		TrainSHA256: m.TrainSHA256, Version: m.Version}
	if !math.IsNaN(m.TestAUC) {
		mi.TestAUC = &m.TestAUC
	}
	mi.NonZero = m.NonZero()
	return mi
}

// namedWeights returns the top non-zero weights of m (all for top 0) by decreasing |w|
// (then increasing feature), named.
func namedWeights(m *model.Model, top int) []inspectWeight {
	type weight struct {
		j int
		w float64
	}
	var order []weight
	m.EachNonZero(func(j int, w float64) { order = append(order, weight{j, w}) })
	slices.SortFunc(order, func(a, b weight) int {
		return cmp.Or(cmp.Compare(math.Abs(b.w), math.Abs(a.w)), cmp.Compare(a.j, b.j))
	})
	if top > 0 && len(order) > top {
		order = order[:top]
	}
	terms := map[int][]data.VocabTerm{}
	for _, t := range m.Vocabulary {
		terms[t.Feature] = append(terms[t.Feature], t)
	}
	out := make([]inspectWeight, len(order))
	for k, x := range order {
		out[k] = inspectWeight{Rank: k + 1, Feature: x.j + 1, Name: featureName(m, x.j), Weight: x.w, Terms: terms[x.j]}
	}
	return out
}

// featureName names weight j of m: f<j+1> for LIBSVM data, the column for a table's
// numeric feature, "bucket N" for a hashed one, the feature and its interval for a bin
// indicator.
func featureName(m *model.Model, j int) string {
	if j >= m.Features && m.Bins != nil {
		at := m.Features
		for f, e := range m.Bins.Edges {
			if e == nil {
				continue
			}
			if j < at+len(e)+1 {
				k := j - at
				lo, hi := "-inf", "+inf"
				if k > 0 {
					lo = strconv.FormatFloat(e[k-1], 'g', 4, 64)
				}
				if k < len(e) {
					hi = strconv.FormatFloat(e[k], 'g', 4, 64)
				}
				return fmt.Sprintf("%s in [%s, %s)", featureName(m, f), lo, hi)
			}
			at += len(e) + 1
		}
	}
	t := m.Table
	switch {
	case t == nil:
		return "f" + strconv.Itoa(j+1)
	case j < len(t.Numeric):
		return t.Numeric[j]
	}
	return "bucket " + strconv.Itoa(j-len(t.Numeric))
}

func printInspect(w io.Writer, m *model.Model, r *inspectReport) {
	mi := r.Model
	fmt.Fprintf(w, "model %s: %s, %d features (%d non-zero weights), scaling %s\n", mi.File, mi.Algo, mi.Features, mi.NonZero, mi.Scaling)
	fmt.Fprintf(w, "  parameters: %s\n", formatParams(mi.Params))
	sha := mi.TrainSHA256
	if sha == "" {
		sha = "unknown"
	}
	fmt.Fprintf(w, "  trained on %s (%d rows, seed %d, sha256 %s) with backend %s by aucopt %s", mi.TrainData, mi.TrainRows, m.Seed, sha, mi.Backend, mi.Version)
	if mi.TestAUC != nil {
		fmt.Fprintf(w, "; test AUC %.4f on %d rows", *mi.TestAUC, m.TestRows)
	}
	fmt.Fprintln(w)
	if t := m.Table; t != nil {
		fmt.Fprintf(w, "  table: label %s, %d numeric columns", t.Label, len(t.Numeric))
		if len(t.Categorical) > 0 {
			fmt.Fprintf(w, ", %d hashed columns into %d buckets (%s, seed %d)", len(t.Categorical), 1<<t.HashBits, t.Hash, t.HashSeed)
		}
		fmt.Fprintln(w)
	}
	if m.Bins != nil {
		fmt.Fprintf(w, "  bins: %d indicators beside the %d features\n", m.Width()-m.Features, m.Features)
	}
	if c := m.Calibration; c != nil {
		switch c.Method {
		case model.CalibratePlatt:
			fmt.Fprintf(w, "  calibration: platt, p = 1/(1+exp(-(a*score+b))), a=%.6g b=%.6g", c.A, c.B)
		default:
			fmt.Fprintf(w, "  calibration: isotonic, %d knots from score %.4g (p %.4g) to %.4g (p %.4g)", len(c.X), c.X[0], c.Y[0], c.X[len(c.X)-1], c.Y[len(c.Y)-1])
		}
		if c.Folds != 0 {
			fmt.Fprintf(w, ", fitted on the out-of-fold scores of %d training rows (%d folds)\n", c.Rows, c.Folds)
		} else {
			fmt.Fprintf(w, ", fitted on %d held-out training rows\n", c.Rows)
		}
	}
	fmt.Fprintln(w, "  intercept: none (the score is w·x: AUC does not depend on a shift)")
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if len(m.Vocabulary) > 0 {
		trunc := ""
		if r.Truncated {
			trunc = fmt.Sprintf(", at most %d distinct strings", data.MaxVocabKeys)
		}
		fmt.Fprintf(w, "  bucket names: column=value strings counted over the first %d training rows%s (count, sign)\n", r.VocabularyRows, trunc)
	}
	fmt.Fprintf(w, "weights, largest |w| first (%d of %d non-zero):\n", len(r.Weights), mi.NonZero)
	width := 0
	for _, x := range r.Weights {
		width = max(width, len(x.Name))
	}
	for _, x := range r.Weights {
		fmt.Fprintf(w, "  %4d  %-+12.6g  %-*s", x.Rank, x.Weight, width, x.Name)
		if len(x.Terms) > 0 {
			parts := make([]string, len(x.Terms))
			for i, t := range x.Terms {
				sign := "+"
				if t.Sign < 0 {
					sign = "-"
				}
				parts[i] = fmt.Sprintf("%s (%d, %s)", t.Term, t.Count, sign)
			}
			fmt.Fprintf(w, "  %s", strings.Join(parts, ", "))
		}
		fmt.Fprintln(w)
	}
}
