package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	flag "github.com/spf13/pflag"
)

const predictExamples = `  aucopt train --data train.svm --model m.json && aucopt predict --model m.json --data test.svm > scores.csv
  aucopt predict --model m.json --data a9a --out scores.csv    # a dataset name: its test part
  aucopt predict --model m.json --data wide.svm --allow-extra-features
  aucopt predict --model churn.json --data new.csv --id user_id --proba --out scores.csv
  aucopt predict --model churn.json --data new.csv --ignore signup_date,region --missing zero

Output: CSV with a header, one row per row of the data, in its order: the --id column's
value (when given), the label as the data writes it (a table's label cell: yes, no, 1,
0; a LIBSVM label as a number: +1 is 1; no label column when a table has none), the
score w·x of the row after the model's scaling, as the shortest decimal that reads back
exactly, and with --proba the calibrated probability:

  user_id,label,score,probability
  u17,yes,0.8125,0.7311

A LIBSVM file gives "label,score". A table is matched to the model's columns by name, in
any order; a feature column it lacks is refused, and a column the model does not know
is refused unless --id or --ignore names it or --allow-extra-columns is given. With
--missing skip, a row with an empty cell has no output row (a note counts them; --id
joins the scores back). Written to stdout, or with --out to a file that appears only
when complete.
`

const evalExamples = `  aucopt eval --model m.json --data test.svm
  aucopt eval --model m.json --data a9a --json | jq .auc      # a dataset name: its test part
  aucopt eval --model churn.json --data new.csv --id user_id --missing zero
`

// scoringFlags are the flags predict and eval share.
type scoringFlags struct {
	fs                     *flag.FlagSet
	model, data            string
	allowExtra, allowFewer bool
	ignoreChecksum         *bool
	// a table's columns (a model trained on a table)
	id           string
	ignore       *[]string
	missing      *string
	allowColumns bool
}

func (s *scoringFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&s.model, "model", "", "model file written by aucopt train --model (required)")
	fs.StringVar(&s.data, "data", "", "data to score: a file (LIBSVM text, CSV, TSV, Parquet, an aucopt cache; .gz/.bz2/.xz told by content), - for standard input, or a dataset name, meaning its test part when it has one (required)")
	fs.BoolVar(&s.allowExtra, "allow-extra-features", false, "LIBSVM data: score data with more features than the model, giving the extra ones weight 0 (LIBLINEAR's rule); without it such data is refused (a table: --allow-extra-columns)")
	fs.BoolVar(&s.allowFewer, "allow-fewer-features", false, "LIBSVM data: score data with fewer features than the model, the missing ones counting 0 (a sparse file whose last features never occur); without it such data is refused")
	s.ignoreChecksum = ignoreChecksumFlag(fs)
	fs.StringVar(&s.id, "id", "", "table: a column identifying the rows, any column of the file: predict writes its value first on each output row; it need not be one the model knows")
	s.ignore = ignoreFlag(fs)
	s.missing = missingFlag(fs, "")
	fs.BoolVar(&s.allowColumns, "allow-extra-columns", false, "table: leave out every column the model does not know; without it such a column is refused unless --id or --ignore names it")
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
	if *s.missing != "" {
		if err := checkMissing(*s.missing); err != nil {
			return nil, nil, err
		}
	}
	opts := model.ReadOptions{IgnoreChecksum: *s.ignoreChecksum}
	m, err := readModel(ctx, s.model, opts)
	if err != nil {
		return nil, nil, err
	}
	if m.Table != nil {
		for _, f := range []string{"allow-extra-features", "allow-fewer-features"} {
			if s.fs.Changed(f) {
				return nil, nil, inputErrorf("--%s: model %s was trained on a table, whose features are its columns: --allow-extra-columns leaves out the columns it does not know, and a feature column the data lacks is refused", f, s.model)
			}
		}
	}
	if m.Table == nil {
		for _, f := range []string{"id", "ignore", "missing", "allow-extra-columns"} {
			if s.fs.Changed(f) {
				return nil, nil, inputErrorf("--%s: model %s was trained on LIBSVM data, whose rows have no columns: --id, --ignore, --missing and --allow-extra-columns apply to a model trained on a table", f, s.model)
			}
		}
	}
	p, err := engine.Predict(ctx, m, s.data, engine.PredictOptions{AllowExtraFeatures: s.allowExtra, AllowFewerFeatures: s.allowFewer, Unlabelled: unlabelled,
		ID: s.id, Ignore: *s.ignore, Missing: *s.missing, AllowExtraColumns: s.allowColumns})
	var extra *data.ExtraColumnsError
	if errors.As(err, &extra) {
		them := "them"
		if len(extra.Columns) == 1 {
			them = "it"
		}
		return nil, nil, fmt.Errorf("%w; --ignore %s leaves %s out, --allow-extra-columns every column the model does not know", err, strings.Join(extra.Columns, ","), them)
	}
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
	fs := newFlags("predict", "predict --model M --data D [--id COL] [--proba] [--out FILE]", predictExamples, stdout, stderr)
	sf := scoringFlags{fs: fs}
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
	if slices.Contains(scoreColumns, sf.id) {
		return inputErrorf("--id %q: predict's output has a column of that name (%s)", sf.id, strings.Join(scoreColumns, ", "))
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
	rows := rowsOf(p, sf.id, probs)
	write := func(w io.Writer) error { return writeScores(w, rows) }
	if *out == "" {
		bw := bufio.NewWriterSize(stdout, 1<<16)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return data.WriteAtomicContext(ctx, *out, write)
}

// scoreColumns are the names of predict's output columns but the --id one.
var scoreColumns = []string{"label", "score", "probability"}

// scoreRows are the columns of predict's output.
type scoreRows struct {
	idName string           // the ID column's name
	ids    []string         // nil: no ID column
	label  func(int) string // nil: no label column
	scores []float64
	probs  []float64 // nil: no probability column
}

// rowsOf are the columns of p's output, with the probabilities probs (nil for none)
// and the ID column idName.
func rowsOf(p *engine.Prediction, idName string, probs []float64) scoreRows {
	r := scoreRows{idName: idName, ids: p.IDs, scores: p.Scores, probs: probs}
	if !p.Unlabelled {
		r.label = p.Label
	}
	return r
}

// writeScores writes r as CSV with a header: per row the ID, the label, the score and
// the probability, each where r has it.
func writeScores(w io.Writer, r scoreRows) error {
	var head []string
	if r.ids != nil {
		head = append(head, r.idName)
	}
	if r.label != nil {
		head = append(head, "label")
	}
	head = append(head, "score")
	if r.probs != nil {
		head = append(head, "probability")
	}
	buf := make([]byte, 0, 64)
	for i, h := range head {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = appendCSVField(buf, h)
	}
	buf = append(buf, '\n')
	if _, err := w.Write(buf); err != nil {
		return err
	}
	for i, s := range r.scores {
		buf = buf[:0]
		if r.ids != nil {
			buf = append(appendCSVField(buf, r.ids[i]), ',')
		}
		if r.label != nil {
			buf = append(appendCSVField(buf, r.label(i)), ',')
		}
		buf = strconv.AppendFloat(buf, s, 'g', -1, 64)
		if r.probs != nil {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, r.probs[i], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// appendCSVField appends the CSV field of text: as it is, or in double quotes (its
// quotes doubled) when it holds a comma, a quote, a line break, or leading or trailing
// blanks, which a reader would otherwise split or trim (RFC 4180).
func appendCSVField(buf []byte, text string) []byte {
	if text == "" || !strings.ContainsAny(text, ",\"\r\n") && strings.TrimSpace(text) == text {
		return append(buf, text...)
	}
	buf = append(buf, '"')
	buf = append(buf, strings.ReplaceAll(text, `"`, `""`)...)
	return append(buf, '"')
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
	*metric.Evaluation
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
	sf := scoringFlags{fs: fs}
	sf.register(fs)
	asJSON := fs.Bool("json", false, "print the evaluation as one JSON object")
	if err := parse(fs, args); err != nil {
		return err
	}
	m, p, err := sf.score(ctx, false)
	if err != nil {
		return err
	}
	ev, err := metric.Evaluate(p.Scores, p.Y)
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
		t    metric.Threshold
	}{{"best F1      ", e.BestF1}, {"best accuracy", e.BestAccuracy}} {
		fmt.Fprintf(w, "%s  score ≥ %-10.4g  accuracy %.4f  F1 %.4f  precision %.4f  recall %.4f  (TP %d FP %d TN %d FN %d)\n",
			t.name, t.t.Threshold, t.t.Accuracy, t.t.F1, t.t.Precision, t.t.Recall, t.t.TP, t.t.FP, t.t.TN, t.t.FN)
	}
	fmt.Fprintf(w, "  note: the thresholds were %s\n", r.Thresholds)
}
