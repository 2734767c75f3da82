// Command aucopt-beam runs aucopt's Beam pipelines (package aucbeam) on any Beam
// runner, chosen with Beam's usual flags:
//
//	aucopt-beam --job train --algo ls-auc --data 'shards/part-*.svm' --model m.json
//	aucopt-beam --job grid  --algo spam-l2 --grid 'eta=2^[-8..0]' --folds 5 --data 'shards/*' --model m.json
//	aucopt-beam --job eval  --model m.json --data 'test/part-*.svm'
//	aucopt-beam --job train --data 'clicks/part-*.csv' --label click --hash-bits 8 --model c.json
//
// With no --runner the pipeline runs on prism, Beam's local runner, in this process.
// For a cluster, name the runner and its job service, e.g. --runner=universal
// --endpoint=localhost:8099 --environment_type=LOOPBACK for a Flink or Spark job
// server, or --runner=dataflow --project=… --region=… --staging_location=gs://…
// (README, "Scaling out"); --results_dir must then be a directory both the workers
// and this launcher reach (e.g. gs://bucket/tmp).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/aucopt/aucopt/backends/all" // the compute backends the workers run
	aucbeam "github.com/aucopt/aucopt/dist/beam"
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/cliflag"
	"github.com/aucopt/aucopt/internal/sigctx"
)

// params collects repeated -p key=value flags.
type params []string

func (p *params) String() string     { return strings.Join(*p, " ") }
func (p *params) Set(v string) error { *p = append(*p, v); return nil }

// usageError is a bad command line or input (exit status 2).
type usageError struct{ error }

func main() { os.Exit(realMain()) }

// realMain runs the command line and returns the exit status, by aucopt's rule: 0
// success, 1 the computation or the disk failed, 2 the input
// is at fault (a usage error or fault.IsInput: flags, a glob that matches nothing, a
// malformed shard, an output that would overwrite an input), 130 Ctrl-C, 143 SIGTERM;
// an error is one line "aucopt-beam: …".
func realMain() int {
	beamFlags := map[string]bool{} // the flags Beam's packages defined: the help lists them after aucopt-beam's
	flag.VisitAll(func(f *flag.Flag) { beamFlags[f.Name] = true })
	job := flag.String("job", "train", "what to run: train (class moments, then solve: ls-auc, mba-* with -p pairs=all), grid (grid × folds, refit the best) or eval (exact AUC of --model)")
	dataGlob := flag.String("data", "", "glob of shards on any Beam filesystem (local, gs://, s3://, …): LIBSVM text, or CSV, TSV or Parquet tables (the table flags say how their columns become features, as in aucopt train)")
	algo := flag.String("algo", "ls-auc", "algorithm (aucopt train --help lists them)")
	var ps params
	flag.Var(&ps, "p", "hyper-parameter key=value, repeatable")
	scale := flag.String("scale", data.ScaleAuto, "feature scaling: auto, none, minmax (train also norm, unit with --job grid)")
	seed := flag.Uint64("seed", 1, "random seed (folds, online learners)")
	positive := flag.String("positive", "", "the positive label (one-vs-rest); default: the binary conventions (1/-1, 1/0, 1/2)")
	modelPath := flag.String("model", "", "train, grid: write the model here; eval: the model to evaluate")
	grid := flag.String("grid", solver.GridPaper, "grid: 'paper' or 'key=v1,v2,b^[lo..hi];…'")
	folds := flag.Int("folds", 5, "grid: stratified folds")
	passes := flag.Int("passes", 0, "grid: passes of an online algorithm (0: its default, as aucopt train)")
	table := addTableFlags()
	results := flag.String("results_dir", "", "where the pipeline leaves its result for this launcher (default: a local temporary directory, for local runners)")
	asJSON := flag.Bool("json", false, "print the result as JSON")
	logLevel := flag.String("log", "", "level of Beam's and the runner's logs on stderr: debug, info, warn, error or off (default: off on the local runner, prism, whose failure aucopt-beam says in its one line; warn on another)")
	verbose := flag.Bool("verbose", false, "Beam's and the runner's logs at info (--log info)")
	flag.Usage = func() { usage(flag.CommandLine.Output(), beamFlags) }
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "aucopt-beam: unexpected argument %q (see aucopt-beam --help)\n", flag.Arg(0))
		return 2
	}
	if err := checkJobFlags(*job); err != nil {
		fmt.Fprintf(os.Stderr, "aucopt-beam: %v (see aucopt-beam --help)\n", err)
		return 2
	}
	if *verbose {
		if *logLevel != "" {
			fmt.Fprintf(os.Stderr, "aucopt-beam: --verbose is --log info: give one or the other (see aucopt-beam --help)\n")
			return 2
		}
		*logLevel = "info"
	}
	level, err := logLevelOf(*logLevel)
	if err != nil {
		fmt.Fprintf(os.Stderr, "aucopt-beam: --log %q: %v (see aucopt-beam --help)\n", *logLevel, err)
		return 2
	}
	if err := defaultWorkerBinary(); err != nil {
		fmt.Fprintln(os.Stderr, "aucopt-beam:", err)
		return 1
	}
	beam.Init() // a worker does not return; a launcher's logging is set up, at Beam's level
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
	// Beam's loopback mode (prism's, in this process) leaves an empty
	// beamloopbackworker-* file in the temporary directory for every pipeline it runs;
	// they go into a directory of this run's, removed at the end.
	tmp, err := os.MkdirTemp("", "aucopt-beam-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "aucopt-beam:", err)
		return 1
	}
	defer os.RemoveAll(tmp)
	os.Setenv("TMPDIR", tmp)
	ctx, stop := sigctx.Context(context.Background())
	topts, err := table.options()
	if err != nil {
		fmt.Fprintf(os.Stderr, "aucopt-beam: %v (see aucopt-beam --help)\n", err)
		return 2
	}
	err = run(ctx, os.Stdout, *job, *dataGlob, *algo, ps, *scale, *seed, *positive, topts, *modelPath, *grid, *folds, *passes, *results, *asJSON)
	sig, _ := context.Cause(ctx).(sigctx.Error) // before stop, which cancels ctx
	stop()
	if err == nil {
		return 0
	}
	msg := strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(cliflag.Message(err)), "\n", "; "), "\t", "")
	switch {
	case sig.Signal != nil:
		fmt.Fprintf(os.Stderr, "aucopt-beam: %s (%s)\n", sig.Verb(), msg)
		return sig.Status()
	case errors.As(err, new(usageError)) || fault.IsInput(err):
		fmt.Fprintln(os.Stderr, "aucopt-beam:", msg)
		return 2
	}
	fmt.Fprintln(os.Stderr, "aucopt-beam:", msg)
	return 1
}

// notFor lists, for each job, the flags that cannot take effect in it.
var notFor = map[string][]string{
	"train": {"grid", "folds", "passes"},
	"grid":  {"p"},
	"eval":  append([]string{"algo", "p", "scale", "seed", "grid", "folds", "passes"}, tableFlagNames...), // a table model has its schema
}

// tableFlagNames are the flags of the table options, as aucopt train's.
var tableFlagNames = []string{"label", "columns", "ignore", "categorical", "hash-bits", "hash-seed", "missing"}

// tableFlags are the table options' flags.
type tableFlags struct {
	label, columns, ignore, categorical, missing *string
	hashBits                                     *int
	hashSeed                                     *uint64
}

func addTableFlags() *tableFlags {
	return &tableFlags{
		label:       flag.String("label", data.DefaultLabel, "table shards (CSV, TSV, Parquet): the label column"),
		columns:     flag.String("columns", "", "table: the feature columns, comma-separated (default: all but the label and --ignore)"),
		ignore:      flag.String("ignore", "", "table: columns to leave out, comma-separated"),
		categorical: flag.String("categorical", "", "table: numeric columns to treat as categories (text columns always are), comma-separated"),
		hashBits:    flag.Int("hash-bits", data.DefaultHashBits, "table: categorical values are hashed (signed MurmurHash3 of column=value) into 2^B features"),
		hashSeed:    flag.Uint64("hash-seed", 0, "table: seed of the feature hash"),
		missing:     flag.String("missing", data.MissingError, "table: an empty cell (a Parquet null) is an error, zero (no feature), or skip (the row is left out)"),
	}
}

// options returns the table options the flags give, nil when none was given (the
// defaults), as aucopt train reads them.
func (t *tableFlags) options() (*data.TableOptions, error) {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || slices.Contains(tableFlagNames, f.Name) })
	if !given {
		return nil, nil
	}
	if *t.hashBits < 1 || *t.hashBits > data.MaxHashBits {
		return nil, fmt.Errorf("--hash-bits %d: want 1 to %d", *t.hashBits, data.MaxHashBits)
	}
	if *t.hashSeed > math.MaxUint32 {
		return nil, fmt.Errorf("--hash-seed %d: want 0 to %d", *t.hashSeed, uint32(math.MaxUint32))
	}
	switch *t.missing {
	case data.MissingError, data.MissingZero, data.MissingSkip:
	default:
		return nil, fmt.Errorf("--missing %q: want %s, %s or %s", *t.missing, data.MissingError, data.MissingZero, data.MissingSkip)
	}
	list := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ",")
	}
	return &data.TableOptions{Label: *t.label, Columns: list(*t.columns), Ignore: list(*t.ignore), Categorical: list(*t.categorical),
		HashBits: *t.hashBits, HashSeed: uint32(*t.hashSeed), Missing: *t.missing}, nil
}

// checkJobFlags refuses a flag given on the command line that job does not use: a
// setting that cannot take effect is an error.
func checkJobFlags(job string) error {
	var bad []string
	flag.Visit(func(f *flag.Flag) {
		if slices.Contains(notFor[job], f.Name) {
			dash := "--"
			if len(f.Name) == 1 {
				dash = "-" // -p
			}
			bad = append(bad, dash+f.Name)
		}
	})
	if len(bad) > 0 {
		return fmt.Errorf("--job %s does not use %s", job, strings.Join(bad, ", "))
	}
	return nil
}

// logLevelOf is the level of the default slog logger, which Beam's SDK and prism log
// to: level, or by default off for the local runner (prism, in this process: its
// logs of a failed bundle repeat the error aucopt-beam reports, with the execution
// plan) and warn for another (a job server's: its progress at info, a job's every
// state, is asked for with --verbose).
func logLevelOf(level string) (slog.Level, error) {
	if level == "" {
		level = "warn"
		if inProcess() {
			level = "off"
		}
	}
	if level == "off" {
		return slog.LevelError + 100, nil
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return 0, errors.New("want debug, info, warn, error or off")
	}
	return l, nil
}

// defaultWorkerBinary makes this executable the worker binary that a portable runner
// stages for its SDK workers (environment PROCESS, DOCKER or EXTERNAL: a Flink, Spark or
// Dataflow job), unless --worker_binary names one. Beam's own default cross-compiles
// the program from its source, which an installed aucopt-beam does not have. The
// workers run linux/amd64 (Beam's Go SDK images), so this is done only where this
// executable is one; elsewhere --worker_binary must name a linux/amd64 build.
func defaultWorkerBinary() error {
	wb, env := flag.Lookup("worker_binary"), flag.Lookup("environment_type")
	if wb == nil || env == nil || wb.Value.String() != "" || strings.EqualFold(env.Value.String(), "LOOPBACK") ||
		runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return nil
	}
	if inProcess() {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this executable to stage as the worker binary (give --worker_binary): %w", err)
	}
	return wb.Value.Set(self)
}

// workerPath is the glob the pipeline reads: glob itself on the local runner, in this
// process, and for a path on a Beam filesystem (gs://…); a relative local path made
// absolute on another runner, whose workers run in directories of their own (a job
// server's, a container's), where it would match nothing.
func workerPath(glob string) (string, error) {
	if inProcess() || strings.Contains(glob, "://") || filepath.IsAbs(glob) {
		return glob, nil
	}
	abs, err := filepath.Abs(glob)
	if err != nil {
		return "", fmt.Errorf("--data %s: %w", glob, err)
	}
	return abs, nil
}

// inProcess reports whether the pipeline runs in this process: on prism, the local
// runner, which is the default, unless --endpoint names a prism job server of its own;
// or on Beam's direct runner.
func inProcess() bool {
	f, ep := flag.Lookup("runner"), flag.Lookup("endpoint")
	if f == nil {
		return true
	}
	switch strings.ToLower(f.Value.String()) {
	case "", "prism", "prismrunner":
		return ep == nil || ep.Value.String() == ""
	case "direct", "directrunner":
		return true
	}
	return false
}

// usage prints aucopt-beam's own flags, then those of Beam's packages (runner,
// endpoints, pipeline options: beamFlags), which would otherwise bury them.
func usage(w io.Writer, beamFlags map[string]bool) {
	own, theirs := flag.NewFlagSet("aucopt-beam", flag.ContinueOnError), flag.NewFlagSet("beam", flag.ContinueOnError)
	flag.VisitAll(func(f *flag.Flag) {
		fs := own
		if beamFlags[f.Name] {
			fs = theirs
		}
		fs.Var(f.Value, f.Name, f.Usage)
		fs.Lookup(f.Name).DefValue = f.DefValue
	})
	fmt.Fprintf(w, "Usage: aucopt-beam --job train|grid|eval --data GLOB [flags] [Beam flags]\n\nFlags:\n")
	own.SetOutput(w)
	own.PrintDefaults()
	n := 0
	theirs.VisitAll(func(*flag.Flag) { n++ })
	fmt.Fprintf(w, "\nBeam's flags (%d: the runner, e.g. --runner=universal --endpoint=HOST:PORT, and its options):\n", n)
	theirs.SetOutput(w)
	theirs.PrintDefaults()
	fmt.Fprint(w, `
Examples:
  aucopt-beam --job train --algo ls-auc --data 'shards/part-*.svm' --model m.json
  aucopt-beam --job grid --algo spam-l2 --grid 'eta=2^[-8..0]' --folds 5 --data 'shards/*' --model m.json
  aucopt-beam --job eval --model m.json --data 'test/part-*.svm'
  aucopt-beam --job train --data 'clicks/part-*.csv' --label click --hash-bits 8 --model c.json
`)
}

func run(ctx context.Context, out io.Writer, job, glob, algo string, ps []string, scale string, seed uint64, positive string,
	table *data.TableOptions, modelPath, grid string, folds, passes int, results string, asJSON bool) error {
	if glob == "" {
		return usageError{errors.New("--data: give a glob of shards (LIBSVM, CSV, TSV or Parquet)")}
	}
	pipelineGlob, err := workerPath(glob)
	if err != nil {
		return err
	}
	if job == "train" || job == "grid" {
		// Before any pipeline: the model must be writable and no shard (aucopt's rule).
		if err := data.CheckOutput(modelPath); err != nil {
			return usageError{fmt.Errorf("--model %s: %w", modelPath, err)}
		}
		if in, file := data.OverwrittenInput(modelPath, glob); in != "" {
			return usageError{fmt.Errorf("--model %s would overwrite the input %s (matched by %s)", modelPath, file, in)}
		}
	}
	print := func(v any, text string) error {
		if asJSON {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			return enc.Encode(v)
		}
		_, err := fmt.Fprint(out, text)
		return err
	}
	switch job {
	case "train":
		res, err := aucbeam.TrainMoments(ctx, aucbeam.MomentsConfig{Data: pipelineGlob, Algo: algo, Params: ps, Scale: scale, Positive: positive, Table: table, Seed: seed, TempDir: results})
		if err != nil {
			return err
		}
		if err := writeModel(res, modelPath); err != nil {
			return err
		}
		return print(res, fmt.Sprintf("%s on %s: %d rows, %d features, scaling %s, in %.3fs (Beam pipeline and solve)\n",
			res.Algo, glob, res.TrainRows, res.Features, res.Scale, res.Seconds))
	case "grid":
		res, err := aucbeam.Grid(ctx, aucbeam.GridConfig{Data: pipelineGlob, Algo: algo, Grid: grid, Folds: folds, Passes: passes, Scale: scale, Seed: seed, Positive: positive, Table: table, TempDir: results})
		if err != nil {
			return err
		}
		if err := writeModel(res.Refit, modelPath); err != nil {
			return err
		}
		best := res.Points[res.Best]
		return print(res, fmt.Sprintf("%s grid on %s: %d points × %d folds = %d work items in %.3fs; best %s (mean validation AUC %.4f), refitted on %d rows\n",
			algo, glob, len(res.Points), folds, res.Items, res.Secs, strings.Join(best.Params, " "), *best.Mean, res.Refit.TrainRows))
	case "eval":
		if modelPath == "" {
			return usageError{errors.New("--job eval needs --model")}
		}
		m, err := model.Read(modelPath)
		if err != nil {
			return usageError{err}
		}
		res, err := aucbeam.Eval(ctx, aucbeam.EvalConfig{Model: m, Data: pipelineGlob, Positive: positive, TempDir: results})
		if err != nil {
			return err
		}
		return print(res, fmt.Sprintf("AUC %.6f on %d rows (%d positives, %d negatives; %d distinct scores) in %d shards, %.3fs\n",
			res.AUC, res.Rows, res.Positives, res.Negatives, res.Scores, res.Shards, res.Seconds))
	}
	return usageError{fmt.Errorf("--job %q: want train, grid or eval", job)}
}

func writeModel(res *engine.TrainResult, path string) error {
	if path == "" {
		return nil
	}
	return res.Model().Write(path)
}
