package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strings"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/suggest"
	flag "github.com/spf13/pflag"
)

// defaultAlgo is what `aucopt train` runs with no --algo.
const defaultAlgo = "opauc"

const trainExamples = `  aucopt train                                   # the default: OPAUC on the embedded a9a, test AUC on a9a.t
  aucopt train --algo spam-net -p eta=0.5 -p beta1=1e-4 --data a9a
  aucopt train --algo opauc --data train.svm --test test.svm --passes 3 --model m.json
  aucopt train --algo ftrl --data news.svm.xz --scale none --json
  aucopt train --algo solam --data big.svm --checkpoint run.ckpt   # Ctrl-C, rerun: resumes
  aucopt train --algo opauc --grid                 # the paper's 23×13 grid in one pass, best by a held-out 20%
  aucopt train --algo spam-l2 --grid 'eta=2^[-8..0];beta=10^[-5..-1]' --grid-folds 5
  aucopt train --algo ls-auc --data big.svm --test test.svm --out-of-core   # any file size, constant memory
  aucopt train --algo auto --data train.svm --test test.svm --budget 30s --model m.json   # race the portfolio, keep the best
`

func runTrain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "train [--algo NAME] [--data TRAIN] [--test TEST] [-p key=value …] [flags]", trainExamples, stdout, stderr)
	tf := addTrainFlags(fs, withLearner|withBins)
	algo := fs.String("algo", defaultAlgo, algoUsage("choose one within --budget; in cv on each training fold"))
	budget := fs.Duration("budget", engine.DefaultAutoBudget, budgetUsage)
	dataArg := fs.String("data", "a9a", "training data: a file (LIBSVM text, CSV, TSV, Parquet, an aucopt cache; .gz/.bz2/.xz told by content), - for standard input, or a dataset name (aucopt datasets)")
	test := fs.String("test", "", "test data: a file, or a dataset name meaning its test part (default: the training dataset's own test split, if any)")
	helpParams := fs.Bool("help-params", false, "list the algorithm's parameters, defaults and paper grid, and exit")
	model := fs.String("model", "", "write the trained model (JSON) to this file")
	ckpt := fs.String("checkpoint", "", "checkpoint file: written during training and on Ctrl-C; an unfinished one of the same run (algorithm, parameters, passes, seed, shuffling, scaling, data) is resumed, one of another run refused; a finished run marks it finished, so a rerun trains again")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	grid := fs.String("grid", "", "train a whole grid in one pass and keep the best: 'paper' (the default when the flag is bare) or 'key=v1,v2,b^[lo..hi];key2=…'")
	fs.Lookup("grid").NoOptDefVal = solver.GridPaper
	gridFolds := fs.Int("grid-folds", 0, "with --grid: choose the best by this many stratified folds of the training data (0: a held-out split)")
	gridHoldout := fs.Float64("grid-holdout", 0.2, "with --grid and no --grid-folds: the share of the training rows held out to choose the best")
	average := fs.Int("average", 1, "one-pass algorithms: train this many independent learners on as many contiguous shards of the training rows, in parallel, and average their weights (parameter averaging)")
	allowExtra := allowExtraFlag(fs)
	calib := fs.String("calibrate", "", "fit a map from scores to probabilities (platt: a sigmoid a·s+b with Platt's smoothed targets; isotonic: pool-adjacent-violators, interpolated) on a stratified seeded --calibrate-holdout of the training rows, trained on the others; recorded in the model (predict --proba)")
	calibHoldout := fs.Float64("calibrate-holdout", engine.DefaultCalibrateHoldout, "with --calibrate: the share of the training rows held out to fit the calibration")
	calibFolds := fs.Int("calibrate-folds", 0, "with --calibrate: cross-fit the map instead of holding rows out: each of this many stratified folds scored by a fit on the others, the map fitted on every row's out-of-fold score, the weights trained on every row (folds+1 fits)")
	testSplit := fs.Float64("test-split", 0, "hold out this share of the training rows (stratified, seeded by --seed) as the test data, when no --test is given")
	weights := weightFlags(fs)
	outOfCore := fs.Bool("out-of-core", false, "stream the --data file once (LIBSVM text in parallel chunks, a CSV/TSV/Parquet table row by row), memory independent of its rows: ls-auc, mba-l2/l1/el with -p pairs=all (scaling none, minmax or auto; no shuffling)")
	if err := parse(fs, joinOptional(args, "--grid")); err != nil {
		return err
	}
	if err := tf.check(); err != nil {
		return err
	}
	tf.table = weights.column(*dataArg, tf.table)
	if err := checkAutoName(*algo); err != nil {
		return err
	}
	auto := *algo == engine.AlgoAuto
	if err := checkAutoFlags(auto, *budget, fs.Changed, "param", "help-params", "grid", "checkpoint", "passes", "average", "out-of-core", "bins", "calibrate", "test-split", "weight", "class-weight"); err != nil {
		return err
	}
	if err := checkHoldOutFlags(fs); err != nil {
		return err
	}
	if auto {
		*algo = defaultAlgo // for the checks below; Auto chooses
	}
	spec, err := solver.Lookup(*algo)
	if err != nil {
		return fault.Input(err)
	}
	if *helpParams {
		printParams(stdout, spec)
		return nil
	}
	if err := checkGridFlags(fs); err != nil {
		return err
	}
	if err := checkOutput("--model", *model); err != nil {
		return err
	}
	if err := checkOutput("--checkpoint", *ckpt); err != nil {
		return err
	}
	if st, err := os.Stat(*ckpt); err == nil && !st.Mode().IsRegular() {
		// A device or a FIFO passes checkOutput, as an output to write through; a
		// checkpoint is read back whole and replaced by a rename.
		return inputErrorf("--checkpoint %s: %w (a %s): a checkpoint is read back to resume and replaced whole; name a regular file",
			*ckpt, data.ErrNotRegular, data.FileKind(st.Mode()))
	}
	if err := checkNotInput("--model", *model, *dataArg, *test, *ckpt); err != nil {
		return err
	}
	if err := checkNotInput("--checkpoint", *ckpt, *dataArg, *test); err != nil {
		return err
	}
	b, err := tf.selectBackend()
	if err != nil {
		return err
	}
	if b != nil {
		defer b.Close()
	}
	cfg, err := tf.config(*algo, b)
	if err != nil {
		return err
	}
	cfg.Data, cfg.Test, cfg.Checkpoint = *dataArg, *test, *ckpt
	cfg.OutOfCore, cfg.Average, cfg.AllowExtraFeatures = *outOfCore, *average, *allowExtra
	cfg.TestSplit, cfg.Calibrate = *testSplit, *calib
	cfg.Weights, cfg.ClassWeight = weights.file, weights.class // weights.file is "" for a table's column
	cfg.AlgoDefaulted = !fs.Changed("algo")
	// Only the model file and the JSON report show the training data's SHA-256.
	cfg.NoFingerprint = *model == "" && !*asJSON && *ckpt == ""
	if fs.Changed("calibrate-holdout") {
		cfg.CalibrateHoldout = *calibHoldout
	}
	cfg.CalibrateFolds = *calibFolds
	if auto {
		cfg.Algo, cfg.Passes = engine.AlgoAuto, 0
		acfg := engine.AutoConfig{TrainConfig: cfg, Budget: *budget, Folds: *gridFolds}
		if fs.Changed("grid-holdout") {
			acfg.Holdout = *gridHoldout
		}
		return runAuto(ctx, acfg, *model, *asJSON, *quiet, stdout, stderr)
	}
	if *average < 1 {
		return inputErrorf("--average %d: want at least 1", *average)
	}
	if *average > 1 && (fs.Changed("grid") || *outOfCore) {
		return inputErrorf("--average does not go with --grid or --out-of-core")
	}
	if *outOfCore {
		if fs.Changed("grid") {
			return inputErrorf("--grid and --out-of-core do not go together")
		}
		cfg.Shuffle = cfg.Shuffle && fs.Changed("shuffle") // the moments do not depend on the order
	}
	if fs.Changed("grid") {
		if *ckpt != "" {
			return inputErrorf("--grid and --checkpoint do not go together")
		}
		if weights.set() {
			return inputErrorf("--weight and --class-weight do not go with --grid yet: train one point")
		}
		gres, err := engine.Grid(ctx, engine.GridConfig{TrainConfig: cfg, Grid: *grid, Folds: *gridFolds, Holdout: *gridHoldout})
		if err != nil {
			return err
		}
		return reportGrid(gres, *model, *asJSON, stdout)
	}
	prog := newProgress(stderr, *quiet, spec.Name)
	cfg.Progress, cfg.Started = prog.update, prog.started
	res, err := engine.Train(ctx, cfg)
	prog.finish()
	if err != nil {
		return err
	}
	if *model != "" {
		if err := res.Model().Write(*model); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "%s on %s: %d rows, %d features, scaling %s, backend %s\n", res.Algo, res.Data, res.TrainRows, res.Features, res.Scale, res.Backend)
	fmt.Fprintf(stdout, "  parameters: %s\n", formatParams(res.Params))
	switch res.Passes {
	case 0:
		fmt.Fprintf(stdout, "  trained in %.3fs (batch fit on the whole training set)\n", res.Seconds)
	case 1:
		fmt.Fprintf(stdout, "  trained in %.3fs (1 pass)\n", res.Seconds)
	default:
		fmt.Fprintf(stdout, "  trained in %.3fs (%d passes)\n", res.Seconds, res.Passes)
	}
	printOutcome(stdout, res, *model)
	return nil
}

func formatParams(p map[string]any) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, p[k])
	}
	return strings.Join(parts, " ")
}

func printParams(w io.Writer, spec solver.Spec) {
	fmt.Fprintf(w, "%s: %s\n  %s\n\nparameters (defaults):\n", spec.Name, spec.Doc, spec.Ref)
	p, scaled := spec.Params(), scaledKeys(spec)
	vals := p.Values()
	for _, k := range p.Keys() {
		if scaled[k] {
			fmt.Fprintf(w, "  %-8s %v, scaled to the training data when not given (the run's notes say to what)\n", k, vals[k])
			continue
		}
		fmt.Fprintf(w, "  %-8s %v\n", k, vals[k])
	}
	switch {
	case spec.IsBatch():
	case spec.MinSteps > 0:
		fmt.Fprintf(w, "\npasses (--passes 0, the default): ⌈%d/rows⌉, at most %d, one from %d rows on\n", spec.MinSteps, solver.MaxDefaultPasses, min(spec.MinSteps, solver.OnePassRows))
	default:
		fmt.Fprintln(w, "\npasses (--passes 0, the default): one")
	}
	if len(spec.Grid.Keys) > 0 {
		fmt.Fprintln(w, "\npaper grid:")
		for i, k := range spec.Grid.Keys {
			v := spec.Grid.Values[i]
			fmt.Fprintf(w, "  %-8s %d values from %g to %g\n", k, len(v), v[0], v[len(v)-1])
		}
	}
	fmt.Fprintf(w, "\n%s (--weight, --class-weight)\n", solver.WeightsDoc(spec.Name))
}

// checkAutoName refuses a name that means auto but for its case or a typo (AUTO,
// atuo), which solver.Lookup cannot suggest: auto chooses among the algorithms, it is
// none of them.
func checkAutoName(algo string) error {
	if algo == engine.AlgoAuto {
		return nil
	}
	if k, ok := suggest.Closest(algo, append(solver.Names(), engine.AlgoAuto)); ok && k == engine.AlgoAuto {
		return inputErrorf("unknown algorithm %q: did you mean %s?", algo, engine.AlgoAuto)
	}
	return nil
}

// allowExtraFlag defines --allow-extra-features of the commands that score --test
// data beside training.
func allowExtraFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("allow-extra-features", false, "score --test data with more features than the training data, the extra ones at weight 0 (LIBLINEAR's rule); without it such test data is refused, as predict and eval refuse it")
}

// checkOutput checks, before any work, that the file named by flag can be created
// (data.CheckOutput: its name is not too long, its directory exists, it is no
// directory or other file aucopt does not replace). An empty path is no output.
func checkOutput(flag, path string) error {
	if err := data.CheckOutput(path); err != nil {
		return inputErrorf("%s %s: %w", flag, path, err)
	}
	return nil
}

// checkNotInput refuses an output path that names one of the inputs (data.Overwritten-
// Input: the same file through any link or path, a glob's matches, a dataset's files):
// writing it would destroy the input.
func checkNotInput(flag, out string, inputs ...string) error {
	in, file := data.OverwrittenInput(out, inputs...)
	switch {
	case in == "":
		return nil
	case file != in && strings.ContainsAny(in, "*?["):
		return inputErrorf("%s %s would overwrite the input %s (matched by %s)", flag, out, file, in)
	}
	return inputErrorf("%s %s would overwrite the input %s", flag, out, in)
}

// reportGrid prints a grid search's outcome: the best points, the refit and its test
// AUC, and writes the refitted model.
func reportGrid(res *engine.GridResult, model string, asJSON bool, stdout io.Writer) error {
	if model != "" {
		if err := res.Model().Write(model); err != nil {
			return err
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	if len(res.Points) == 0 { // a grid of one point: nothing to select
		fmt.Fprintf(stdout, "%s on %s: a grid of one point, trained without selection; backend %s\n", res.Algo, res.Data, res.Backend)
		fmt.Fprintf(stdout, "trained on all %d training rows in %.3fs: %s\n", res.TrainRows, res.Seconds, formatParams(res.Params))
		printOutcome(stdout, res.TrainResult, model)
		return nil
	}
	order := make([]int, 0, len(res.Points))
	for g, p := range res.Points {
		if p.ValAUC != nil {
			order = append(order, g)
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return *res.Points[order[i]].ValAUC > *res.Points[order[j]].ValAUC })
	shared := "independent learners"
	if res.Shared {
		shared = "shared statistics"
	}
	how := "one pass per fold"
	if res.Passes == 0 {
		how = "batch fits"
	}
	fmt.Fprintf(stdout, "%s grid on %s: %d points (%s) in %.3fs, %s, %s; %s; backend %s\n",
		res.Algo, res.Data, len(res.Points), failureSummary(res.Points), res.GridSeconds, how, shared, res.Selection, res.Backend)
	for k, g := range order[:min(len(order), 5)] {
		fmt.Fprintf(stdout, "  #%d  validation AUC %.4f  %s\n", k+1, *res.Points[g].ValAUC, formatParams(res.Points[g].Params))
	}
	fmt.Fprintf(stdout, "best refitted on all %d training rows in %.3fs: %s\n", res.TrainRows, res.Seconds, formatParams(res.Params))
	printOutcome(stdout, res.TrainResult, model)
	return nil
}

// failureSummary says how many grid points failed and why: the most common reason
// (numbers in it generalised to N) with its count, and how many other reasons there are.
func failureSummary(points []engine.GridPoint) string {
	counts := map[string]int{}
	failed := 0
	for _, p := range points {
		if p.ValAUC == nil {
			failed++
			counts[digits.ReplaceAllString(p.Failed, "N")]++
		}
	}
	if failed == 0 {
		return "0 failed"
	}
	top := ""
	for r, n := range counts {
		if n > counts[top] || n == counts[top] && r < top {
			top = r
		}
	}
	why := top
	if why == "" {
		why = "no reason given"
	}
	s := fmt.Sprintf("%d failed: %d %s", failed, counts[top], why)
	if len(counts) > 1 {
		s += fmt.Sprintf("; %d other reasons, see --json", len(counts)-1)
	}
	return s
}

// digits matches a run of digits.
var digits = regexp.MustCompile(`[0-9]+`)

// joinOptional rewrites "--flag VALUE" as "--flag=VALUE" for a flag whose value is
// optional (pflag's NoOptDefVal only takes the "=" form), when VALUE is not a flag:
// train takes no positional arguments, so the next word can only be the value.
func joinOptional(args []string, flag string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			return append(out, args[i:]...)
		}
		if args[i] == flag && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, flag+"="+args[i+1])
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// printOutcome prints the end of a training report: the notes, the test AUC and where
// the model went.
func printOutcome(stdout io.Writer, res *engine.TrainResult, model string) {
	for _, n := range res.Notes {
		fmt.Fprintf(stdout, "  note: %s\n", n)
	}
	if math.IsNaN(res.TestAUC) {
		fmt.Fprintln(stdout, "  no test data (give --test to measure AUC)")
	} else {
		fmt.Fprintf(stdout, "  test AUC %.4f on %d rows\n", res.TestAUC, res.TestRows)
	}
	if model != "" {
		fmt.Fprintf(stdout, "  model written to %s\n", model)
	}
}

// checkHoldOutFlags checks train's --test-split and --calibrate flags before any work:
// a share in (0, 1), --test-split without --test, --calibrate-holdout only with
// --calibrate, a known method.
func checkHoldOutFlags(fs *flag.FlagSet) error {
	split, _ := fs.GetFloat64("test-split")
	holdout, _ := fs.GetFloat64("calibrate-holdout")
	method, _ := fs.GetString("calibrate")
	switch {
	case fs.Changed("test-split") && !(split > 0 && split < 1):
		return inputErrorf("--test-split %g: want a share of the training rows in (0, 1), e.g. 0.2", split)
	case fs.Changed("test-split") && fs.Changed("test"):
		return inputErrorf("--test-split holds out part of --data as the test data: give --test or --test-split, not both")
	case fs.Changed("calibrate-holdout") && !fs.Changed("calibrate"):
		return inputErrorf("--calibrate-holdout goes with --calibrate platt or --calibrate isotonic")
	case fs.Changed("calibrate-folds") && !fs.Changed("calibrate"):
		return inputErrorf("--calibrate-folds goes with --calibrate platt or --calibrate isotonic")
	case fs.Changed("calibrate-folds") && fs.Changed("calibrate-holdout"):
		return inputErrorf("--calibrate-folds cross-fits the map on every row: give --calibrate-holdout or --calibrate-folds, not both")
	case !(holdout > 0 && holdout < 1):
		return inputErrorf("--calibrate-holdout %g: want a share of the training rows in (0, 1), e.g. 0.2", holdout)
	case fs.Changed("calibrate") && method != model.CalibratePlatt && method != model.CalibrateIsotonic:
		return inputErrorf("--calibrate %q: want %s or %s", method, model.CalibratePlatt, model.CalibrateIsotonic)
	}
	return nil
}
