// Command aucopt-plot draws the figures of `aucopt plot` and `aucopt roc`: it reads one
// figure (package internal/figure, JSON) on stdin and writes it as PNG, SVG or PDF on
// stdout. aucopt runs it; it is not meant to be run by hand.
//
// It is a program of its own so that the aucopt binary does not link gonum/plot, whose
// package init parses twelve fonts on every start of every command. aucopt looks for it
// in $AUCOPT_PLOT, then beside its own executable, then on $PATH; `go install
// github.com/aucopt/aucopt/cmd/...` installs both.
//
// Usage:
//
//	aucopt-plot < figure.json > plot.png
//
// Exit status: 0 drawn; 2 the figure is malformed (one line on stderr); 1 drawing or
// writing failed.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/aucopt/aucopt/internal/figure"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run draws the figure read from stdin to stdout and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "aucopt-plot: takes no arguments (got %q): it reads a figure on stdin, from aucopt plot or aucopt roc\n", args[0])
		return 2
	}
	f, err := figure.Read(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "aucopt-plot: %v\n", err)
		return 2
	}
	w := bufio.NewWriter(stdout)
	if err := render(f, w); err != nil {
		fmt.Fprintf(stderr, "aucopt-plot: %v\n", err)
		if errors.Is(err, figure.ErrFigure) {
			return 2
		}
		return 1
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "aucopt-plot: writing: %v\n", err)
		return 1
	}
	return 0
}
