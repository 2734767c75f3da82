package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/experiment"
)

const experimentExamples = `  aucopt experiment --protocol opauc --datasets a9a --algos opauc --out a9a.md     # OPAUC's 5 x 5 CV on a9a, inner 5-fold grid
  aucopt experiment --protocol opauc --datasets german,diabetes --trials 1 --folds 3  # a quick, reduced run
  aucopt experiment --protocol opauc --datasets a9a --algos opauc --inner-folds 1   # inner 20% hold-out instead of inner 5-fold CV
  aucopt experiment --protocol mba-sim --runs 10 --out sim.md                        # the MBA simulation (Table II)
  aucopt experiment --protocol thesis --datasets german --grid 'spam-l2=beta=10^[-5..0]'
  aucopt experiment --render bench/results/opauc-small.json --out bench/results/opauc-small.md  # both files, with explain.tsv there
`

func runExperiment(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("experiment", "experiment --protocol "+strings.Join(experiment.Names(), "|")+" [--datasets a,b,…] [--algos a,b,…] [--trials T] [--folds K] [--out FILE.md] [flags]", experimentExamples, stdout, stderr)
	tf := addTrainFlags(fs, 0)
	protocol := fs.String("protocol", "", "the paper's protocol: "+strings.Join(experiment.Names(), ", ")+" (required)")
	datasets := fs.String("datasets", "", "comma-separated datasets (default: every dataset of the protocol's tables; aucopt datasets lists them)")
	algos := fs.String("algos", "", "comma-separated algorithms (default: the protocol's; any registered algorithm may be added)")
	trials := fs.Int("trials", 0, "trials of the k-fold split (cv protocols; 0: the paper's, 5)")
	folds := fs.Int("folds", 0, "folds k (cv protocols; 0: the paper's, 5)")
	runs := fs.Int("runs", 0, "runs per dataset (ubauc: 25, mba: 10, mba-sim: 50; 0: the protocol's)")
	innerFolds := fs.Int("inner-folds", 0, "hyper-parameter selection: inner k-fold CV (k ≥ 2) or 1 for a held-out share (0: the protocol's)")
	holdout := fs.Float64("holdout", 0.2, "with --inner-folds 1: the share of each training part held out")
	maxTrain := fs.Int("max-train", 0, "train on at most this many random rows of each training part (0: all; a reduced protocol)")
	grids := fs.StringArray("grid", nil, "ALGO=SPEC: a grid for ALGO instead of its paper grid, SPEC as in 'aucopt cv --grid' (repeatable)")
	workers := fs.Int("workers", 0, "jobs (an algorithm on one split) run at once (0: one per core)")
	out := fs.String("out", "", "write the Markdown tables to FILE (default: stdout)")
	jsonOut := fs.String("json", "", "write every run's numbers and parameters as JSON to FILE (default: beside --out, .json)")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	render := fs.String("render", "", "train nothing: re-render the report FILE.json (an earlier --json) with this build's tables and published numbers and the explanations; with --out, FILE.json is rewritten too (or --json), so that both say the same")
	explain := fs.String("explain", "", "the explanations of the cells below the paper, a TSV (default: "+explainFile+" beside --out, or beside the --render FILE, where there is one)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *render != "" {
		if err := checkNotInput("--out", *out, *render); err != nil {
			return err
		}
		if *jsonOut == "" && *out != "" {
			*jsonOut = *render // the explanations in the JSON and the .md agree
		}
		ex, err := loadExplanations(*explain, *render)
		if err != nil {
			return err
		}
		return renderReport(*render, *out, *jsonOut, ex, stdout)
	}
	if *protocol == "" {
		return inputErrorf("--protocol is required (%s)", strings.Join(experiment.Names(), ", "))
	}
	p, err := experiment.Lookup(*protocol)
	if err != nil {
		return inputErrorf("--protocol: %v", err)
	}
	for _, c := range []struct {
		flag string
		v    int
	}{{"--trials", *trials}, {"--folds", *folds}, {"--runs", *runs}, {"--inner-folds", *innerFolds}, {"--max-train", *maxTrain}, {"--passes", *tf.passes}, {"--workers", *workers}} {
		if c.v < 0 {
			return inputErrorf("%s %d: want 0 (the default) or more", c.flag, c.v)
		}
	}
	if *folds == 1 {
		return inputErrorf("--folds 1: want at least 2")
	}
	if !(*holdout > 0 && *holdout < 1) {
		return inputErrorf("--holdout %g: want a share in (0, 1)", *holdout)
	}
	if err := tf.check(); err != nil {
		return err
	}
	b, err := tf.selectBackend()
	if err != nil {
		return err
	}
	if b != nil {
		defer b.Close()
	}
	tcfg, err := tf.config("", b)
	if err != nil {
		return err
	}
	cfg := experiment.Config{Protocol: p, Trials: *trials, Folds: *folds, Runs: *runs, InnerFolds: *innerFolds, Holdout: *holdout,
		MaxTrain: *maxTrain, Passes: tcfg.Passes, Seed: tcfg.Seed, Workers: *workers, Backend: tcfg.Backend, MaxMemory: tcfg.MaxMemory}
	if *datasets != "" {
		cfg.Datasets = splitList(*datasets)
		if p.Split != experiment.SplitSimulation {
			for _, d := range cfg.Datasets {
				if _, err := data.Lookup(d); err != nil {
					return inputErrorf("--datasets: %v", err)
				}
			}
		}
	}
	if *algos != "" {
		cfg.Algos = splitList(*algos)
	}
	if len(*grids) > 0 {
		cfg.Grids = map[string]string{}
		for _, g := range *grids {
			a, spec, ok := strings.Cut(g, "=")
			if !ok || a == "" || spec == "" {
				return inputErrorf("--grid %q: want ALGO=SPEC, e.g. opauc='eta=2^[-8..-4];lambda=2^[-10..-6]'", g)
			}
			cfg.Grids[a] = spec
		}
	}
	if *jsonOut == "" && *out != "" {
		*jsonOut = strings.TrimSuffix(*out, ".md") + ".json"
	}
	if err := checkOutput("--out", *out); err != nil {
		return err
	}
	if err := checkOutput("--json", *jsonOut); err != nil {
		return err
	}
	if err := checkNotInput("--json", *jsonOut, *out); err != nil {
		return err
	}
	ex, err := loadExplanations(*explain, *out)
	if err != nil {
		return err
	}
	if !*quiet {
		cfg.Progress = func(done, total int, what string) {
			fmt.Fprintf(stderr, "[%d/%d] %s\n", done, total, what)
		}
	}
	rep, err := experiment.Experiment(ctx, cfg)
	if err != nil {
		return err
	}
	rep.Explain(ex)
	if *out == "" {
		if err := rep.WriteMarkdown(stdout); err != nil {
			return err
		}
	} else if err := data.WriteAtomic(*out, rep.WriteMarkdown); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if *jsonOut != "" {
		if err := data.WriteAtomic(*jsonOut, rep.WriteJSON); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
	}
	if !*quiet && *out != "" {
		fmt.Fprintf(stderr, "wrote %s and %s (%.1f s)\n", *out, *jsonOut, rep.Seconds)
	}
	return nil
}

// renderReport re-renders a report's JSON with the explanations ex as Markdown (to
// out, else stdout) and, when jsonOut is set, writes the re-summarised JSON (first, so
// that a failure leaves the .md as it was).
func renderReport(path, out, jsonOut string, ex *experiment.Explanations, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return inputErrorf("--render: %w", err)
	}
	rep, err := experiment.ReadReport(f)
	f.Close()
	if err != nil {
		return inputErrorf("--render %s: %w", path, err)
	}
	rep.Explain(ex)
	if jsonOut != "" {
		if err := data.WriteAtomic(jsonOut, rep.WriteJSON); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
	}
	if out == "" {
		return rep.WriteMarkdown(stdout)
	}
	if err := data.WriteAtomic(out, rep.WriteMarkdown); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}

// explainFile is the name of the explanations file aucopt experiment looks for beside
// the table it writes (bench/results/explain.tsv).
const explainFile = "explain.tsv"

// loadExplanations reads the explanations: the file --explain names (which must exist),
// else explainFile in the directory of beside (the --out or --render file) when that
// exists; nil when there is none.
func loadExplanations(path, beside string) (*experiment.Explanations, error) {
	if path == "" {
		if beside == "" || data.IsStream(beside) {
			return nil, nil
		}
		path = filepath.Join(filepath.Dir(beside), explainFile)
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, inputErrorf("--explain: %w", err)
	}
	defer f.Close()
	ex, err := experiment.ParseExplanations(path, f)
	if err != nil {
		return nil, inputErrorf("--explain: %w", err)
	}
	return ex, nil
}

// splitList splits a comma-separated list, dropping empty items.
func splitList(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
