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

// mapSmall maps the whole regular file f of size bytes (at most mapSmallMax, more than
// 0) read only (mapWindow), for one pass of reading that would otherwise copy it out of
// the page cache; nil when it cannot. The caller unmaps it (unmapFile) when the pass is
// done. A file truncated while mapped would fault on access, so the mapping lives only
// for the read.
func mapSmall(f *os.File, size int64) []byte {
	if size > mapSmallMax {
		return nil
	}
	m, _ := mapWindow(f, 0, size)
	return m
}

// mapWindow maps bytes [off, end) of the regular file f read only, for one pass over
// that range (a chunk of a file too large for mapSmall): it returns the mapping, to
// unmap (unmapFile) when the pass is done, and the range's bytes within it; nil when it
// cannot. Only a chunk's pages are mapped at a time, so that a large file's pages do
// not all count in the resident set.
func mapWindow(f *os.File, off, end int64) (m, b []byte) {
	page := int64(os.Getpagesize())
	start := off &^ (page - 1)
	if end <= off || int64(int(end-start)) != end-start {
		return nil, nil
	}
	m, err := syscall.Mmap(int(f.Fd()), start, int(end-start), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil
	}
	return m, m[off-start:]
}
