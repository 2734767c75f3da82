//go:build !linux

package data

// adviseHuge does nothing where Linux's transparent huge pages are not available.
func adviseHuge([]byte) {}
