//go:build !unix

package data

import "os"

// processAlive reports whether process pid runs; where that cannot be told (os.FindProcess
// succeeds for any pid), it says yes, and temporary files are never taken for stale.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
