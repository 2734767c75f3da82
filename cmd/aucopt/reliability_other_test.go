//go:build !unix

package main_test

import "testing"

// fullDevice skips: there is no always-full device to write to.
func fullDevice(t *testing.T, dir string) string {
	t.Helper()
	t.Skip("no /dev/full")
	return ""
}
