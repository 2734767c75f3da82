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

// mapSmallMax is the largest file mapSmall maps.
const mapSmallMax = 64 << 20

// mapSmall maps a regular file of size bytes (at most mapSmallMax, more than 0) read
// only, for one pass of reading that would otherwise copy it out of the page cache; nil
// when it cannot. The caller unmaps it (unmapFile) when the pass is done. A file
// truncated while mapped would fault on access, so the mapping lives only for the read.
func mapSmall(f *os.File, size int64) []byte {
	if size <= 0 || size > mapSmallMax {
		return nil
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return nil
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return m
}
