//go:build !linux

package data

// releaseRange does nothing here: a mapping's pages stay until it is unmapped.
func releaseRange([]byte, int, int) {}
