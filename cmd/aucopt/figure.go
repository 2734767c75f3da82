package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/internal/figure"
)

// plotProgramName is the program that draws aucopt's figures (cmd/aucopt-plot). The
// plots are drawn in a process of their own so that aucopt does not link gonum/plot,
// whose package init parses twelve fonts at every start of every command.
const plotProgramName = "aucopt-plot"

// plotProgram returns the path of the aucopt-plot program: $AUCOPT_PLOT when set, else
// the one beside aucopt's own executable, else the one on $PATH. The commands that draw
// look it up before any work, so that a missing one fails at once.
func plotProgram() (string, error) {
	if p := os.Getenv("AUCOPT_PLOT"); p != "" {
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return "", fmt.Errorf("$AUCOPT_PLOT=%s: not the %s program", p, plotProgramName)
		}
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		// A path with a directory is checked as it is (plus .exe on Windows).
		if p, err := exec.LookPath(filepath.Join(filepath.Dir(exe), plotProgramName)); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath(plotProgramName)
	if err != nil {
		return "", fmt.Errorf("%s, which draws the plots, is neither beside aucopt nor on $PATH: install it with go install github.com/aucopt/aucopt/cmd/%s (or go install ./cmd/... in a clone), or name it in $AUCOPT_PLOT", plotProgramName, plotProgramName)
	}
	return p, nil
}

// drawFigure has the program prog (aucopt-plot) draw fig and writes the image to path
// atomically: nothing is written unless the drawing succeeded.
func drawFigure(ctx context.Context, prog string, fig *figure.Figure, path string) error {
	if err := fig.Check(); err != nil {
		return err // a bug of the caller: the figure is built here
	}
	var in, img, errOut bytes.Buffer
	if err := fig.Write(&in); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, prog)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = &in, &img, &errOut
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("drawing %s: %w", path, context.Cause(ctx))
		}
		msg := strings.TrimSpace(errOut.String())
		var ee *exec.ExitError
		if msg == "" || !errors.As(err, &ee) {
			msg = err.Error()
		}
		return fmt.Errorf("drawing %s with %s: %s", path, prog, msg)
	}
	return data.WriteAtomicContext(ctx, path, func(w io.Writer) error {
		_, err := img.WriteTo(w)
		return err
	})
}
