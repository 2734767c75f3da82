package aucbeam

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	_ "github.com/aucopt/aucopt/backends/all" // the pipelines' accumulators run on avx2 where the CPU has it
)

// TestNoBackendImported: the package selects its backend through package backends and
// imports no implementation, directly or through another package; aucopt-beam links
// them (backends/all).
func TestNoBackendImported(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	if err := noBackendDeps("."); err != nil {
		t.Error(err)
	}
	if err := noBackendDeps("./cmd/aucopt-beam"); err == nil || !strings.Contains(err.Error(), "fallback") {
		t.Errorf("the check passes aucopt-beam, which links every backend: %v", err)
	}
}

// noBackendDeps runs `go list -deps` on the package in dir and returns an error naming
// every backend implementation (fallback, asm, cuda) among its dependencies.
func noBackendDeps(dir string) error {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list -deps: %v", err)
	}
	var found []string
	for _, p := range strings.Fields(string(out)) {
		switch p {
		case "github.com/aucopt/aucopt/fallback", "github.com/aucopt/aucopt/asm", "github.com/aucopt/aucopt/cuda":
			found = append(found, p)
		}
	}
	if len(found) > 0 {
		return fmt.Errorf("the package imports %s (through package backends only, please)", strings.Join(found, ", "))
	}
	return nil
}
