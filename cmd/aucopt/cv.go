package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/solver"
)

const cvExamples = `  aucopt cv                                      # OPAUC, 5-fold stratified CV on the training rows of the embedded a9a
  aucopt cv --algo spam-l2 --data german --folds 5 --repeats 5    # the papers' 5 x 5 protocol
  aucopt cv --algo opauc --data train.svm --passes 3 --workers 2 --json
  aucopt cv --algo opauc --data german --grid    # the paper grid chosen inside each training fold (nested CV)
  aucopt cv --algo ls-auc --data german --grid 'lambda=10^[-4..0]' --grid-folds 3
  aucopt cv --algo auto --data german --budget 5s   # auto's choice made inside each training fold
`

func runCV(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("cv", "cv [--algo NAME] [--data DATA] [--folds K] [--repeats R] [-p key=value …] [--grid [SPEC]] [flags]", cvExamples, stdout, stderr)
	tf := addTrainFlags(fs, withLearner|withBins)
	algo := fs.String("algo", defaultAlgo, algoUsage("choose one within --budget; in cv on each training fold"))
	budget := fs.Duration("budget", engine.DefaultAutoBudget, budgetUsage+", per fold")
	dataArg := fs.String("data", "a9a", "data: a file (LIBSVM text, CSV, TSV, Parquet, an aucopt cache; .gz/.bz2/.xz told by content), - for standard input, or a dataset name (aucopt datasets); a dataset with a fixed split is cross-validated on its training part")
	folds := fs.Int("folds", 5, "number of stratified folds k")
	repeats := fs.Int("repeats", 1, "repetitions of the k-fold split with different seeds (repeated k-fold)")
	workers := fs.Int("workers", 0, "folds trained at once (0: one per core)")
	grid := fs.String("grid", "", "choose the parameters inside each training fold from a grid: 'paper' (the default when the flag is bare) or 'key=v1,v2,b^[lo..hi];key2=…'")
	fs.Lookup("grid").NoOptDefVal = solver.GridPaper
	gridFolds := fs.Int("grid-folds", 0, "with --grid: choose by this many inner stratified folds of each training fold (0: an inner held-out split)")
	gridHoldout := fs.Float64("grid-holdout", 0.2, "with --grid and no --grid-folds: the share of each training fold held out to choose")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := parse(fs, joinOptional(args, "--grid")); err != nil {
		return err
	}
	if err := tf.check(); err != nil {
		return err
	}
	if *folds < 2 {
		return inputErrorf("--folds %d: want at least 2", *folds)
	}
	if *repeats < 1 {
		return inputErrorf("--repeats %d: want at least 1", *repeats)
	}
	if *workers < 0 {
		return inputErrorf("--workers %d: want 0 (one per core) or more", *workers)
	}
	if err := checkGridFlags(fs); err != nil {
		return err
	}
	b, err := tf.selectBackend()
	if err != nil {
		return err
	}
	if b != nil {
		defer b.Close()
	}
	tcfg, err := tf.config(*algo, b)
	if err != nil {
		return err
	}
	tcfg.Data = *dataArg
	cfg := engine.CVConfig{TrainConfig: tcfg, Folds: *folds, Repeats: *repeats, Workers: *workers}
	if fs.Changed("grid") {
		cfg.Grid, cfg.GridFolds, cfg.GridHoldout = *grid, *gridFolds, *gridHoldout
		if cfg.Grid == "" {
			cfg.Grid = solver.GridPaper
		}
	}
	if !*quiet {
		cfg.FoldDone = func(r engine.CVRun, done, total int) {
			fmt.Fprintf(stderr, "[%d/%d] %s: AUC %.4f in %.2fs\n", done, total, runName(r, *repeats), r.AUC, r.Seconds)
		}
	}
	if err := checkAutoName(*algo); err != nil {
		return err
	}
	auto := *algo == engine.AlgoAuto
	if err := checkAutoFlags(auto, *budget, fs.Changed, "param", "grid", "passes", "workers", "bins"); err != nil {
		return err
	}
	var res *engine.CVResult
	if auto {
		acfg := engine.AutoCVConfig{AutoConfig: engine.AutoConfig{TrainConfig: cfg.TrainConfig, Budget: *budget, Folds: *gridFolds},
			Folds: *folds, Repeats: *repeats, FoldDone: cfg.FoldDone}
		acfg.Passes = 0
		if fs.Changed("grid-holdout") {
			acfg.Holdout = *gridHoldout
		}
		res, err = engine.AutoCV(ctx, acfg)
	} else {
		res, err = engine.CV(ctx, cfg)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	reportCV(stdout, res)
	return nil
}

// runName names a fold as "fold 3", or "repeat 2 fold 3" in a repeated k-fold.
func runName(r engine.CVRun, repeats int) string {
	if repeats > 1 {
		return fmt.Sprintf("repeat %d fold %d", r.Repeat, r.Fold)
	}
	return fmt.Sprintf("fold %d", r.Fold)
}

// reportCV prints a cross-validation as a table of folds and the mean ± std, as the
// papers' tables give it.
func reportCV(w io.Writer, res *engine.CVResult) {
	protocol := fmt.Sprintf("%d-fold stratified cross-validation", res.Folds)
	if res.Repeats > 1 {
		protocol = fmt.Sprintf("%d × %d-fold stratified cross-validation (repeated)", res.Repeats, res.Folds)
	}
	fmt.Fprintf(w, "%s on %s: %s, %d rows, %d features, scaling %s (fitted per training fold), backend %s, %d workers\n",
		res.Algo, res.Data, protocol, res.Rows, res.Features, res.Scale, res.Backend, res.Workers)
	switch res.Passes {
	case 0:
		fmt.Fprintln(w, "  batch fit on each training fold")
	case 1:
		fmt.Fprintln(w, "  1 pass over each training fold")
	default:
		fmt.Fprintf(w, "  %d passes over each training fold\n", res.Passes)
	}
	if res.Algo == engine.AlgoAuto {
		fmt.Fprintf(w, "  algorithm and parameters chosen inside each training fold, by %s\n", res.Selection)
	} else if res.Grid != "" {
		fmt.Fprintf(w, "  grid %s inside each training fold, best by %s\n", res.Grid, res.Selection)
		if len(res.Params) > 0 {
			fmt.Fprintf(w, "  other parameters: %s\n", formatParams(res.Params))
		}
	} else {
		fmt.Fprintf(w, "  parameters: %s\n", formatParams(res.Params))
	}
	head := "  %-6s %-6s %8s %8s %8s %9s"
	if res.Repeats > 1 {
		fmt.Fprintf(w, head, "repeat", "fold", "AUC", "train", "test", "seconds")
	} else {
		fmt.Fprintf(w, "  %-6s %8s %8s %8s %9s", "fold", "AUC", "train", "test", "seconds")
	}
	if res.Grid != "" || res.Algo == engine.AlgoAuto {
		fmt.Fprintf(w, "  %-8s %s", "val AUC", "chosen")
	}
	fmt.Fprintln(w)
	for _, r := range res.Runs {
		if res.Repeats > 1 {
			fmt.Fprintf(w, "  %-6d %-6d %8.4f %8d %8d %9.3f", r.Repeat, r.Fold, r.AUC, r.TrainRows, r.TestRows, r.Seconds)
		} else {
			fmt.Fprintf(w, "  %-6d %8.4f %8d %8d %9.3f", r.Fold, r.AUC, r.TrainRows, r.TestRows, r.Seconds)
		}
		if r.ValAUC != nil {
			chosen := map[string]any{} // the grid's keys only
			for k, v := range r.Params {
				if _, fixed := res.Params[k]; !fixed {
					chosen[k] = v
				}
			}
			if r.Algo != "" {
				chosen = r.Params // auto: the algorithm and all its parameters
				fmt.Fprintf(w, "  %-8.4f %s %s", *r.ValAUC, r.Algo, formatParams(chosen))
			} else {
				fmt.Fprintf(w, "  %-8.4f %s", *r.ValAUC, formatParams(chosen))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "AUC %.4f ± %.4f (mean ± sample std over %d folds) in %.3fs\n", res.Mean, res.Std, len(res.AUCs), res.Seconds)
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
}
