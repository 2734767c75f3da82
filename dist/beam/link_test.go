package aucbeam

import (
	"os/exec"
	"strings"
	"testing"

	_ "github.com/aucopt/aucopt/backends/all" // the pipelines' accumulators run on avx2 where the CPU has it
	"github.com/aucopt/aucopt/internal/depcheck"
)

// TestNoBackendImported: the package selects its backend through package backends and
// imports no implementation, directly or through another package; aucopt-beam links
// them (backends/all).
func TestNoBackendImported(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	if err := depcheck.NoBackends("."); err != nil {
		t.Error(err)
	}
	if err := depcheck.NoBackends("./cmd/aucopt-beam"); err == nil || !strings.Contains(err.Error(), "fallback") {
		t.Errorf("the check passes aucopt-beam, which links every backend: %v", err)
	}
}
