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
	"errors"
	"fmt"
	"io"
	"os"

	flag "github.com/spf13/pflag"
)

// version is aucopt's version, recorded in every model and result file.
const version = "0.1.0-dev"

// command is one subcommand of the CLI.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in help order.
var commands = []command{
	{"train", "train an AUC maximiser (default: OPAUC on the embedded a9a) and report its test AUC", runTrain},
	{"roc", "draw the ROC curves of models on test data, with their AUCs, to a PNG, SVG or PDF file", runROC},
	{"plot", "plot convergence: test AUC against examples seen and training seconds, several algorithms", runPlot},
	{"datasets", "list the known datasets: rows, features, positives and where each was found", runDatasets},
	{"convert", "convert a LIBSVM file (plain, .gz, .bz2, .xz) to aucopt's binary cache", runConvert},
	{"backends", "list the compute backends, which are available, and the CPU's features", runBackends},
	{"version", "print aucopt's version", runVersion},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks an error as a usage error (exit status 2); the message was printed.
var errUsage = errors.New("usage")

// run executes the command line args and returns the process exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			default:
				fmt.Fprintf(stderr, "aucopt: %s: %v\n", c.name, err)
				return 1
			}
		}
	}
	fmt.Fprintf(stderr, "aucopt: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "aucopt learns linear scores that maximise AUC (OPAUC, SPAM, MBA, UBAUC and more).")
	fmt.Fprintln(w, "\nUsage:\n  aucopt <command> [flags]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'aucopt <command> --help' for a command's flags.")
}

// newFlags returns a flag set for a command that prints its usage, with examples, to
// stderr and reports parse errors as usage errors.
func newFlags(name, synopsis, examples string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: aucopt %s\n\n", synopsis)
		fmt.Fprintln(stderr, "Flags:")
		fs.PrintDefaults()
		if examples != "" {
			fmt.Fprintf(stderr, "\nExamples:\n%s", examples)
		}
	}
	return fs
}

// parse parses args; a parse error is printed with the usage and becomes errUsage.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return parseError(fs, err)
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "aucopt %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return errUsage
	}
	return nil
}

func runVersion(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("version", "version", "", stderr)
	if err := parse(fs, args); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "aucopt %s\n", version)
	return nil
}
