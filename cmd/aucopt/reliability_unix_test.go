//go:build unix

package main_test

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// fullDevice returns a character device that is always full: /dev/full for a user
// who cannot replace it, a private node of it for root (whose broken write could turn
// the system's /dev/full into a regular file).
func fullDevice(t *testing.T, dir string) string {
	t.Helper()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	if os.Geteuid() != 0 {
		return "/dev/full"
	}
	if runtime.GOOS != "linux" {
		t.Skip("running as root, which could replace /dev/full: no private node of it (device numbers are Linux's)")
	}
	p := filepath.Join(dir, "full")
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		t.Skipf("running as root, with no private device node to write to (mknod: %v)", err)
	}
	return p
}
