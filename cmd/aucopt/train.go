package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"sort"
	"strings"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
)

// defaultAlgo is what `aucopt train` runs with no --algo.
const defaultAlgo = "opauc"

const trainExamples = `  aucopt train                                   # the default: OPAUC on the embedded a9a, test AUC on a9a.t
  aucopt train --algo spam-net -p eta=0.5 -p beta1=1e-4 --data a9a
  aucopt train --algo opauc --data train.svm --test test.svm --passes 3 --model m.json
  aucopt train --algo ftrl --data news.svm.xz --scale none --json
  aucopt train --algo solam --data big.svm --checkpoint run.ckpt   # Ctrl-C, rerun: resumes
`

func runTrain(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("train", "train [--algo NAME] [--data TRAIN] [--test TEST] [-p key=value …] [flags]", trainExamples, stderr)
	algo := fs.String("algo", defaultAlgo, "algorithm: "+strings.Join(solver.Names(), ", "))
	dataArg := fs.String("data", "a9a", "training data: a file (LIBSVM text, .gz/.bz2/.xz, or an aucopt cache) or a dataset name (aucopt datasets)")
	test := fs.String("test", "", "test data, file or name (default: the dataset's own test split, if any)")
	params := fs.StringArrayP("param", "p", nil, "hyper-parameter key=value, repeatable (keys per algorithm: aucopt train --algo NAME --help-params)")
	helpParams := fs.Bool("help-params", false, "list the algorithm's parameters, defaults and paper grid, and exit")
	passes := fs.Int("passes", 1, "passes over the training data")
	shuffle := fs.Bool("shuffle", true, "visit the training rows in a seeded random order each pass")
	scale := fs.String("scale", engine.ScaleAuto, "feature scaling: auto (minmax up to 1000 features, else none), none, minmax ([-1,1] fitted on training data), norm ((x-mean)/||x||)")
	seed := fs.Uint64("seed", 1, "random seed (shuffling, class grouping, the algorithm's own randomness)")
	backend := fs.String("backend", "", "compute backend: auto, cuda, avx2 or generic (default $AUCOPT_BACKEND, else auto)")
	model := fs.String("model", "", "write the trained model (JSON) to this file")
	ckpt := fs.String("checkpoint", "", "checkpoint file: written during training and on Ctrl-C; an existing one is resumed")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := parse(fs, args); err != nil {
		return err
	}
	spec, err := solver.Lookup(*algo)
	if err != nil {
		return err
	}
	if *helpParams {
		printParams(stdout, spec)
		return nil
	}
	if *passes < 1 {
		return fmt.Errorf("--passes %d: want at least 1", *passes)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := engine.TrainConfig{
		Algo: *algo, Params: *params, Data: *dataArg, Test: *test, Passes: *passes, Shuffle: *shuffle,
		Scale: *scale, Seed: *seed, Backend: *backend, Checkpoint: *ckpt,
	}
	if !*quiet {
		cfg.Progress = func(p solver.Progress) {
			if p.Done {
				fmt.Fprintf(stderr, "pass %d done: %d examples in %.2fs\n", p.Pass+1, p.PassSeen, p.Elapsed.Seconds())
			} else if p.Seen%100_000 == 0 {
				fmt.Fprintf(stderr, "pass %d: %d examples, %.2fs\n", p.Pass+1, p.PassSeen, p.Elapsed.Seconds())
			}
		}
	}
	res, err := engine.Train(ctx, cfg)
	if err != nil {
		return err
	}
	if *model != "" {
		if err := writeModel(*model, res); err != nil {
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
	fmt.Fprintf(stdout, "  trained in %.3fs (%d pass%s)\n", res.Seconds, res.Passes, map[bool]string{true: "", false: "es"}[res.Passes == 1])
	for _, n := range res.Notes {
		fmt.Fprintf(stdout, "  note: %s\n", n)
	}
	if math.IsNaN(res.TestAUC) {
		fmt.Fprintln(stdout, "  no test data (give --test to measure AUC)")
	} else {
		fmt.Fprintf(stdout, "  test AUC %.4f on %d rows\n", res.TestAUC, res.TestRows)
	}
	if *model != "" {
		fmt.Fprintf(stdout, "  model written to %s\n", *model)
	}
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
	vals := solver.Values(spec.Params())
	for _, k := range solver.Keys(spec.Params()) {
		fmt.Fprintf(w, "  %-8s %v\n", k, vals[k])
	}
	if len(spec.Grid.Keys) > 0 {
		fmt.Fprintln(w, "\npaper grid:")
		for i, k := range spec.Grid.Keys {
			v := spec.Grid.Values[i]
			fmt.Fprintf(w, "  %-8s %d values from %g to %g\n", k, len(v), v[0], v[len(v)-1])
		}
	}
}

// modelFile is the JSON model written by --model. (Issue 6 extends it with the
// training file's fingerprint and the scaling's round trip through predict.)
type modelFile struct {
	Format   int            `json:"format"`
	Version  string         `json:"aucopt_version"`
	Algo     string         `json:"algorithm"`
	Params   map[string]any `json:"params"`
	Features int            `json:"features"`
	Scale    string         `json:"scale"`
	Scaler   any            `json:"scaler,omitempty"`
	Backend  string         `json:"backend"`
	Weights  []float64      `json:"weights"`
	TestAUC  *float64       `json:"test_auc,omitempty"`
}

// writeModel writes the model atomically: a temporary file in the same directory,
// then a rename, so the path never holds a half-written model.
func writeModel(path string, res *engine.TrainResult) error {
	m := modelFile{Format: 1, Version: version, Algo: res.Algo, Params: res.Params, Features: res.Features,
		Scale: res.Scale, Backend: res.Backend, Weights: res.Weights}
	if res.Scaler != nil {
		m.Scaler = res.Scaler
	} else if res.Normalize != nil {
		m.Scaler = res.Normalize
	}
	if !math.IsNaN(res.TestAUC) {
		m.TestAUC = &res.TestAUC
	}
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		return err
	}
	if err := data.WriteAtomic(path, func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err }); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	return nil
}
