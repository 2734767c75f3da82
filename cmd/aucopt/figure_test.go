package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain builds aucopt-plot, which draws the figures of plot and roc, and names it
// in $AUCOPT_PLOT for the tests (unless it is set already).
func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if os.Getenv("AUCOPT_PLOT") == "" {
		dir, err := os.MkdirTemp("", "aucopt-plot-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, plotProgramName)
		if out, err := exec.Command("go", "build", "-o", bin, "../aucopt-plot").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building %s: %v\n%s", plotProgramName, err, out)
			return 1
		}
		os.Setenv("AUCOPT_PLOT", bin)
	}
	return m.Run()
}

// TestPlotProgramMissing: without aucopt-plot, plot and roc fail at once (before any
// training) with a line that says how to install it, and write nothing.
func TestPlotProgramMissing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	t.Setenv("PATH", dir)
	t.Setenv("AUCOPT_PLOT", "")
	model, _ := trainModel(t, dir, "olr", "german")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"plot", []string{"plot", "convergence", "--algo", "olr", "--out", filepath.Join(dir, "c.png")}, "go install github.com/aucopt/aucopt/cmd/aucopt-plot"},
		{"roc", []string{"roc", "--model", model, "--data", "german", "--out", filepath.Join(dir, "r.svg")}, "go install github.com/aucopt/aucopt/cmd/aucopt-plot"},
		{"plot, $AUCOPT_PLOT a directory", []string{"plot", "convergence", "--out", filepath.Join(dir, "c.pdf")}, "$AUCOPT_PLOT=" + dir + ": not the aucopt-plot program"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.Contains(tt.name, "$AUCOPT_PLOT") {
				t.Setenv("AUCOPT_PLOT", dir)
			}
			var out, errOut bytes.Buffer
			status := run(tt.args, &out, &errOut)
			if status != 1 || !strings.Contains(errOut.String(), tt.want) || strings.Count(errOut.String(), "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 1 and one line with %q", status, errOut.String(), tt.want)
			}
			if strings.Contains(errOut.String(), "test AUC") || out.Len() != 0 {
				t.Errorf("it trained before failing: stdout %q, stderr %q", out.String(), errOut.String())
			}
			ents, _ := filepath.Glob(filepath.Join(dir, "[cr].*"))
			if len(ents) != 0 {
				t.Errorf("files written: %v", ents)
			}
		})
	}
}
