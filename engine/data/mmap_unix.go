//go:build unix

package data

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f into memory, readable and writable, copy on
// write (a write changes this process's page, never the file).
func mapFile(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
}

// unmapFile releases a mapping of mapFile's.
func unmapFile(m []byte) { _ = syscall.Munmap(m) }
