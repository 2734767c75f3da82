package engine

import (
	"os/exec"
	"strings"
	"testing"

	_ "github.com/aucopt/aucopt/backends/all" // the tests train on every backend
	"github.com/aucopt/aucopt/internal/depcheck"
)

// TestNoBackendImported: the engine selects backends through package backends and
// imports no implementation, directly or through another package; a program links
// them (backends/all).
func TestNoBackendImported(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command:", err)
	}
	if err := depcheck.NoBackends("."); err != nil {
		t.Error(err)
	}
	if err := depcheck.NoBackends("../backends/all"); err == nil || !strings.Contains(err.Error(), "fallback") {
		t.Errorf("the check passes backends/all, which links every backend: %v", err)
	}
}
