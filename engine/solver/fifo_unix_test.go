//go:build unix

package solver

import (
	"path/filepath"
	"syscall"
	"testing"
)

// makeFIFO returns a new named pipe in a temporary directory.
func makeFIFO(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	return p
}
