// Command aucopt learns linear scoring functions that maximise the area under the ROC
// curve, and benchmarks the compute backends it runs them on.
//
// Usage:
//
//	aucopt <command> [flags]
//
// Run `aucopt help` for the list of commands and `aucopt <command> --help` for each.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	_ "github.com/aucopt/aucopt/backends/all" // generic, avx2 and cuda
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/internal/cliflag"
	"github.com/aucopt/aucopt/internal/sigctx"
	"github.com/aucopt/aucopt/internal/suggest"
	flag "github.com/spf13/pflag"
)

// version is aucopt's version, recorded in every model and result file.
const version = engine.Version

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in help order.
var commands = []command{
	{"train", "train an AUC maximiser (default: OPAUC on the embedded a9a) and report its test AUC", runTrain},
	{"predict", "score data with a model file: a CSV of each row's label and score (--id, --proba add columns)", runPredict},
	{"eval", "evaluate a model on labelled data: AUC, ROC summary, best-F1 and best-accuracy thresholds", runEval},
	{"inspect", "show a model: its settings, training data and its largest weights by name (hashed buckets by their column=value strings)", runInspect},
	{"cv", "cross-validate an algorithm: stratified (repeated) k-fold AUC, mean ± std, optionally with a grid inside each fold", runCV},
	{"experiment", "reproduce a paper's experiment (opauc, ubauc, mba, thesis, mba-sim): tables beside the published numbers", runExperiment},
	{"roc", "draw the ROC curves of models on test data, with their AUCs, to a PNG, SVG or PDF file", runROC},
	{"plot", "plot convergence: test AUC against examples seen and training seconds, several algorithms", runPlot},
	{"datasets", "list the known datasets: rows, features, positives and where each was found", runDatasets},
	{"convert", "convert between LIBSVM text (plain, .gz, .bz2, .xz), CSV/TSV, Parquet and aucopt's binary cache", runConvert},
	{"gen", "write a synthetic click log (Avazu-shaped: 22 categorical fields, 17% clicks) as CSV or Parquet", runGen},
	{"backends", "list the compute backends, which are available, and the CPU's features", runBackends},
	{"bench", "time the kernel operations and OPAUC, SPAM and MBA on every available backend, in one table", runBench},
	{"version", "print aucopt's version", runVersion},
}

func main() {
	deferFirstGC()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks an error as a usage error (exit status 2); the message was printed.
var errUsage = fault.NewInput("usage")

// Exit statuses: 0 success (and --help); 1 the computation failed (it diverged, a
// solver or device failed); 2 the user's input is at fault (flags, files, models,
// parameters, output paths), said in one line "aucopt <command>: …"; 130 when Ctrl-C
// stopped the command (it stops at the next check, leaving no partial output file), 143
// when SIGTERM did (sigctx.Error.Status: 128 + the signal). exitTable prints the rule.
const (
	exitOK          = 0
	exitFailure     = 1
	exitInput       = 2
	exitInterrupted = 130 // Ctrl-C: 128 + SIGINT, as shells report it
)

// inputErrorf returns an error of the user's input (exit status 2).
func inputErrorf(format string, args ...any) error {
	return fault.Input(fmt.Errorf(format, args...))
}

// exitStatus classifies a command's error by the exit-status rule, which package fault
// holds for every front end: the user's input (fault.IsInput: bad flags or parameters,
// unknown names, missing, unreadable or malformed files and models, a model of another
// feature space, data with one class, output paths that cannot be written) is 2;
// divergence, a failed device or disk and anything not known to come from the input
// are failures of the computation (1).
func exitStatus(err error) int {
	if fault.IsInput(err) {
		return exitInput
	}
	return exitFailure
}

// checkGridFlags checks the grid-selection flags of train and cv: they need --grid,
// --grid-folds is 0 (a held-out split) or at least 2, --grid-holdout a share in (0, 1)
// that only a held-out split uses. A setting that cannot take effect is an error.
func checkGridFlags(fs *flag.FlagSet) error {
	folds, _ := fs.GetInt("grid-folds")
	holdout, _ := fs.GetFloat64("grid-holdout")
	switch {
	case !fs.Changed("grid") && (fs.Changed("grid-folds") || fs.Changed("grid-holdout")):
		return inputErrorf("--grid-folds and --grid-holdout choose among the points of a --grid: give --grid")
	case folds < 0 || folds == 1:
		return inputErrorf("--grid-folds %d: want 0 (a held-out split) or at least 2", folds)
	case !(holdout > 0 && holdout < 1):
		return inputErrorf("--grid-holdout %g: want a share of the rows in (0, 1), e.g. 0.2", holdout)
	case folds >= 2 && fs.Changed("grid-holdout"):
		return inputErrorf("--grid-holdout %g: with --grid-folds %d the best is chosen by cross-validation, no rows are held out", holdout, folds)
	}
	return nil
}

// checkSeed refuses --seed 0, which the library takes for its default seed 1
// (engine.DefaultSeed): it would silently run seed 1.
func checkSeed(seed uint64) error {
	if seed == 0 {
		return inputErrorf("--seed 0: 0 stands for the default seed %d; give a seed of 1 or more", engine.DefaultSeed)
	}
	return nil
}

// run executes the command line args and returns the process exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && (len(args) == 1 || args[1] == "help") {
		usage(stdout)
		return 0
	}
	if args[0] == "--version" {
		args = []string{"version"}
	}
	if args[0] == "help" {
		// aucopt help CMD [KIND]: the command's own help, as CMD [KIND] --help.
		if !slices.Contains(commandNames(), args[1]) {
			fmt.Fprintf(stderr, "aucopt help: unknown command %q%s (commands: %s)\n", args[1], suggest.Hint(args[1], commandNames()), strings.Join(commandNames(), ", "))
			return exitInput
		}
		args = append(slices.Clone(args[1:]), "--help")
	}
	for _, c := range commands {
		if c.name == args[0] {
			ctx, stop := sigctx.Context(context.Background())
			err := c.run(ctx, args[1:], stdout, stderr)
			stop()
			var sig sigctx.Error
			switch {
			case err == nil:
				return exitOK
			case errors.Is(err, flag.ErrHelp):
				return exitOK
			case errors.Is(err, errUsage):
				return exitInput // the message was printed
			case errors.Is(err, context.Canceled) && errors.As(context.Cause(ctx), &sig):
				fmt.Fprintf(stderr, "aucopt %s: %s (%s)\n", c.name, sig.Verb(), message(err))
				return sig.Status()
			case errors.Is(err, context.Canceled):
				fmt.Fprintf(stderr, "aucopt %s: interrupted (%s)\n", c.name, message(err))
				return exitInterrupted
			default:
				fmt.Fprintf(stderr, "aucopt %s: %s\n", c.name, message(err))
				return exitStatus(err)
			}
		}
	}
	fmt.Fprintf(stderr, "aucopt: unknown command %q%s (commands: %s; see aucopt help)\n", args[0], suggest.Hint(args[0], commandNames()), strings.Join(commandNames(), ", "))
	return exitInput
}

// commandNames lists the commands in help order.
func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// message is err's message in one line, the library's settings named by the flags
// that set them (cliflag.Message).
func message(err error) string {
	return oneLine(cliflag.Message(err))
}

// oneLine joins a multi-line message into one line.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "aucopt learns linear scores that maximise AUC (OPAUC, SPAM, MBA, UBAUC and more).")
	fmt.Fprintln(w, "\nUsage:\n  aucopt <command> [flags]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'aucopt help <command>' or 'aucopt <command> --help' for a command's flags.")
	fmt.Fprint(w, exitTable)
}

// exitTable is the exit-status rule, as `aucopt help` and the README print it.
const exitTable = `
Exit status (every command):
  0    success, and --help
  1    the computation failed: training diverged, a solver, device or the disk failed
       (a full disk: ENOSPC); nothing partial is written
  2    the input is at fault: flags, parameters, names, data, model or checkpoint files
       (missing, empty, malformed, truncated), output paths that cannot be written or would
       overwrite an input; one line "aucopt <command>: …", nothing written
  130  interrupted (Ctrl-C, SIGINT): stopped at the next check, no partial output file;
       train --checkpoint writes its checkpoint first
  143  terminated (SIGTERM): as 130
`

// newFlags returns a flag set for a command that prints its usage, with examples, to
// stdout when asked for it (--help, -h: `aucopt train --help | less` pages it) and
// reports parse errors on stderr as usage errors.
func newFlags(name, synopsis, examples string, stdout, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "Usage: aucopt %s\n\n", synopsis)
		fmt.Fprintln(stdout, "Flags:")
		fs.SetOutput(stdout) // PrintDefaults writes to the output
		fs.PrintDefaults()
		fs.SetOutput(stderr)
		if examples != "" {
			fmt.Fprintf(stdout, "\nExamples:\n%s", examples)
		}
	}
	return fs
}

// parse parses args; a parse error is printed in one line and becomes errUsage.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "aucopt %s: unexpected argument %q (see aucopt %s --help)\n", fs.Name(), fs.Arg(0), fs.Name())
		return errUsage
	}
	return nil
}

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "version", "  aucopt version      # e.g. aucopt 0.1.0 (go1.26.0, commit 1f43576a6d2b, 2026-11-23T20:41:07Z)\n  aucopt --version    # the same\n", stdout, stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintf(stdout, "aucopt %s (%s)\n", version, buildDetails(info))
	return nil
}

// buildDetails describes the build from its build information: the Go version, the
// module version when installed as a module, and the VCS revision, time and whether the
// work tree had changes (go build in a clone stamps them).
func buildDetails(info *debug.BuildInfo) string {
	if info == nil {
		return "no build information"
	}
	parts := []string{info.GoVersion}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		parts = append(parts, "module "+v)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		parts = append(parts, "commit "+rev[:min(12, len(rev))])
		if t := settings["vcs.time"]; t != "" {
			parts = append(parts, t)
		}
		if settings["vcs.modified"] == "true" {
			parts = append(parts, "modified")
		}
	} else {
		parts = append(parts, "no VCS information")
	}
	return strings.Join(parts, ", ")
}
