package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	flag "github.com/spf13/pflag"
)

const predictExamples = `  aucopt train --data train.svm --model m.json && aucopt predict --model m.json --data test.svm > scores.tsv
  aucopt predict --model m.json --data a9a --out scores.tsv    # a dataset name: its test part
  aucopt predict --model m.json --data wide.svm --allow-extra-features
  cut -f2 scores.tsv | sort -g | tail -1                       # the highest score

Output: one line per row of the data, in its order: the label (+1 or -1), a tab, and the
score w·x of the row after the model's scaling, as the shortest decimal that reads back
exactly; for a table without the label column (a model trained on a table), the score
alone. Written to stdout, or with --out to a file that appears only when complete.
`

const evalExamples = `  aucopt eval --model m.json --data test.svm
  aucopt eval --model m.json --data a9a --json | jq .auc      # a dataset name: its test part
`

// scoringFlags are the flags predict and eval share.
type scoringFlags struct {
	model, data            string
	allowExtra, allowFewer bool
	ignoreChecksum         *bool
}

func (s *scoringFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.model, "model", "", "model file written by aucopt train --model (required)")
	fs.StringVar(&s.data, "data", "", "data to score: a file (LIBSVM text, CSV, TSV, Parquet, an aucopt cache; .gz/.bz2/.xz told by content), - for standard input, or a dataset name, meaning its test part when it has one (required)")
	fs.BoolVar(&s.allowExtra, "allow-extra-features", false, "score data with more features than the model, giving the extra ones weight 0 (LIBLINEAR's rule); without it such data is refused")
	fs.BoolVar(&s.allowFewer, "allow-fewer-features", false, "score data with fewer features than the model, the missing ones counting 0 (a sparse file whose last features never occur); without it such data is refused")
	s.ignoreChecksum = ignoreChecksumFlag(fs)
}

// score reads the model and scores the data; unlabelled lets a table lack its label
// column (predict: scores need no labels).
func (s *scoringFlags) score(ctx context.Context, unlabelled bool) (*model.Model, *engine.Prediction, error) {
	if s.model == "" {
		return nil, nil, inputErrorf("--model is required (a file written by aucopt train --model)")
	}
	if s.data == "" {
		return nil, nil, inputErrorf("--data is required (a file or a dataset name)")
	}
	opts := model.ReadOptions{IgnoreChecksum: *s.ignoreChecksum}
	m, err := readModel(ctx, s.model, opts)
	if err != nil {
		return nil, nil, err
	}
	p, err := engine.Predict(m, s.data, engine.PredictOptions{AllowExtraFeatures: s.allowExtra, AllowFewerFeatures: s.allowFewer, Unlabelled: unlabelled, Context: ctx})
	if errors.Is(err, model.ErrFeatureSpace) {
		return nil, nil, fmt.Errorf("model %s: %w (if it is the same feature space, --allow-extra-features gives extra ones weight 0 and --allow-fewer-features lets missing ones count 0)", s.model, err)
	}
	if errors.Is(err, model.ErrModel) {
		return nil, nil, fmt.Errorf("model %s: %w", s.model, err)
	}
	if err != nil {
		return nil, nil, err
	}
	if n := checksumNote(m, s.model, opts); n != "" {
		p.Notes = append(p.Notes, n)
	}
	return m, p, nil
}

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("predict", "predict --model M --data D [--out FILE]", predictExamples, stdout, stderr)
	var sf scoringFlags
	sf.register(fs)
	out := fs.String("out", "", "write the scores to this file instead of stdout")
	quiet := fs.Bool("quiet", false, "no notes on stderr")
	proba := fs.Bool("proba", false, "add a column: the calibrated probability of the positive class (a model trained with --calibrate)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if err := checkOutput("--out", *out); err != nil {
		return err
	}
	if err := checkNotInput("--out", *out, sf.model, sf.data); err != nil {
		return err
	}
	if *proba && sf.model != "" {
		if m, err := model.Read(sf.model); err == nil && m.Calibration == nil {
			return inputErrorf("--proba: model %s is not calibrated (train it with --calibrate platt or isotonic)", sf.model)
		}
	}
	m, p, err := sf.score(ctx, true)
	if err != nil {
		return err
	}
	var probs []float64
	if *proba {
		probs = m.Probabilities(p.Scores)
	}
	if !*quiet {
		for _, n := range p.Notes {
			fmt.Fprintf(stderr, "aucopt predict: note: %s\n", n)
		}
	}
	write := func(w io.Writer) error { return writeScores(w, p, probs) }
	if *out == "" {
		bw := bufio.NewWriterSize(stdout, 1<<16)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return data.WriteAtomicContext(ctx, *out, write)
}

// writeScores writes "label<TAB>score" lines, or "score" lines for an unlabelled table,
// each followed by a tab and the row's probability when probs is not nil.
func writeScores(w io.Writer, p *engine.Prediction, probs []float64) error {
	buf := make([]byte, 0, 32)
	for i, s := range p.Scores {
		buf = buf[:0]
		switch {
		case p.Unlabelled:
		case p.Y[i] > 0:
			buf = append(buf, "+1\t"...)
		default:
			buf = append(buf, "-1\t"...)
		}
		buf = strconv.AppendFloat(buf, s, 'g', -1, 64)
		if probs != nil {
			buf = append(buf, '\t')
			buf = strconv.AppendFloat(buf, probs[i], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// modelInfo is what eval reports of the model: its file without the vectors.
type modelInfo struct {
	File        string         `json:"file"`
	Algo        string         `json:"algorithm"`
	Params      map[string]any `json:"params"`
	Features    int            `json:"features"`
	Scaling     string         `json:"scaling"`
	Backend     string         `json:"backend"`
	TrainData   string         `json:"train_data"`
	TrainRows   int            `json:"train_rows"`
	TrainSHA256 string         `json:"train_sha256"`
	Version     string         `json:"aucopt_version"`
	TestAUC     *float64       `json:"test_auc,omitempty"`
	NonZero     int            `json:"nonzero_weights"`
}

// evalReport is eval's --json output: the Evaluation's fields at top level.
type evalReport struct {
	Model modelInfo `json:"model"`
	Data  string    `json:"data"`
	Part  string    `json:"part"`
	Rows  int       `json:"rows"`
	*engine.Evaluation
	Notes []string `json:"notes,omitempty"`
	// Probabilities are the log-loss and Brier score of the model's probabilities.
	Probabilities *probReport `json:"probabilities,omitempty"`
	// Thresholds says on what data best_f1 and best_accuracy were chosen.
	Thresholds string `json:"thresholds"`
}

// probReport is how good eval finds a model's probabilities: the calibration's, or for
// an uncalibrated model a sigmoid of its raw score.
type probReport struct {
	Source  string  `json:"source"` // "platt", "isotonic" or "sigmoid of the raw score"
	LogLoss float64 `json:"log_loss"`
	Brier   float64 `json:"brier"`
}

// thresholdsOnData says that eval's thresholds were chosen on the data they are
// evaluated on.
const thresholdsOnData = "chosen on the evaluated data itself: their accuracy and F1 are optimistic for new data"

// probabilities scores the model's probabilities of labels y: the calibration's when it
// has one, else a sigmoid of the raw scores.
func probabilities(m *model.Model, scores []float64, y []int8) (*probReport, error) {
	r := &probReport{Source: "sigmoid of the raw score"}
	p := m.Probabilities(scores)
	if p != nil {
		r.Source = m.Calibration.Method
	} else {
		p = make([]float64, len(scores))
		for i, s := range scores {
			p[i] = model.Sigmoid(s)
		}
	}
	var err error
	if r.LogLoss, err = metric.LogLoss(p, y); err != nil {
		return nil, err
	}
	if r.Brier, err = metric.Brier(p, y); err != nil {
		return nil, err
	}
	return r, nil
}

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "eval --model M --data D [--json]", evalExamples, stdout, stderr)
	var sf scoringFlags
	sf.register(fs)
	asJSON := fs.Bool("json", false, "print the evaluation as one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, p, err := sf.score(ctx, false)
	if err != nil {
		return err
	}
	ev, err := engine.Evaluate(p.Scores, p.Y)
	if err != nil {
		return fmt.Errorf("evaluating on %s: %w", p.Data, err)
	}
	rep := evalReport{Model: infoOf(sf.model, m),
		Data: p.Data, Part: p.Part, Rows: len(p.Scores), Evaluation: ev, Notes: p.Notes, Thresholds: thresholdsOnData}
	if rep.Probabilities, err = probabilities(m, p.Scores, p.Y); err != nil {
		return fmt.Errorf("evaluating on %s: %w", p.Data, err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printEval(stdout, &rep)
	return nil
}

func printEval(w io.Writer, r *evalReport) {
	mi := r.Model
	sha := mi.TrainSHA256
	if len(sha) > 12 {
		sha = sha[:12] + "…"
	}
	fmt.Fprintf(w, "model %s: %s, %d features (%d non-zero weights), scaling %s\n", mi.File, mi.Algo, mi.Features, mi.NonZero, mi.Scaling)
	fmt.Fprintf(w, "  parameters: %s\n", formatParams(mi.Params))
	fmt.Fprintf(w, "  trained on %s (%d rows, sha256 %s) with backend %s by aucopt %s", mi.TrainData, mi.TrainRows, sha, mi.Backend, mi.Version)
	if mi.TestAUC != nil {
		fmt.Fprintf(w, "; test AUC then %.4f", *mi.TestAUC)
	}
	fmt.Fprintln(w)
	part := ""
	if r.Part == "test" {
		part = " (its test part)"
	}
	e := r.Evaluation
	fmt.Fprintf(w, "data %s%s: %d rows, %d positive, %d negative\n", r.Data, part, r.Rows, e.Positives, e.Negatives)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	fmt.Fprintf(w, "AUC %.4f", e.AUC)
	if pr := r.Probabilities; pr != nil {
		what := "calibrated by " + pr.Source
		if pr.Source != model.CalibratePlatt && pr.Source != model.CalibrateIsotonic {
			what = "uncalibrated: " + pr.Source
		}
		fmt.Fprintf(w, "  log-loss %.4f  Brier %.4f  (probabilities %s)", pr.LogLoss, pr.Brier, what)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "ROC %d points; TPR", e.ROCPoints)
	for i, t := range e.TPRAt {
		sep := ","
		if i == len(e.TPRAt)-1 {
			sep = ""
		}
		fmt.Fprintf(w, " %.4f at FPR %g%%%s", t.TPR, 100*t.FPR, sep)
	}
	fmt.Fprintln(w)
	for _, t := range []struct {
		name string
		t    engine.Threshold
	}{{"best F1      ", e.BestF1}, {"best accuracy", e.BestAccuracy}} {
		fmt.Fprintf(w, "%s  score ≥ %-10.4g  accuracy %.4f  F1 %.4f  precision %.4f  recall %.4f  (TP %d FP %d TN %d FN %d)\n",
			t.name, t.t.Threshold, t.t.Accuracy, t.t.F1, t.t.Precision, t.t.Recall, t.t.TP, t.t.FP, t.t.TN, t.t.FN)
	}
	fmt.Fprintf(w, "  note: the thresholds were %s\n", r.Thresholds)
}
