//go:build unix

package data

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid runs (signal 0 reaches it, or it exists but
// belongs to another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
