//go:build unix

package data

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

// CharDevice returns a character device to write to: /dev/NAME ("null" or "full") for
// a user who cannot replace it, and a fresh node of the same device in dir for root, so
// that a broken write cannot turn the system's /dev/NAME into a regular file. It skips
// the test when neither is possible.
func CharDevice(t *testing.T, dir, name string) string {
	t.Helper()
	minor := map[string]int{"null": 3, "full": 7}[name]
	sys := "/dev/" + name
	if _, err := os.Stat(sys); err != nil {
		t.Skipf("no %s: %v", sys, err)
	}
	if os.Geteuid() != 0 {
		return sys
	}
	if runtime.GOOS != "linux" {
		t.Skipf("running as root, which could replace %s: no private node of it (device numbers are Linux's)", sys)
	}
	p := filepath.Join(dir, name)
	if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|minor); err != nil {
		t.Skipf("running as root, which could replace %s: no private device node to test with instead (mknod: %v)", sys, err)
	}
	return p
}
