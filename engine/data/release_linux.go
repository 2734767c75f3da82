package data

import (
	"os"
	"syscall"
)

// releaseRange drops this process's mappings of the whole pages within m[off:end] (m a
// read-only file mapping of mapSmall's): they stop counting in the resident set, while
// the bytes stay readable (a later read faults them in again from the page cache). A
// small file's chunks are released as soon as they are parsed, so that the text and the
// arrays parsed from it are not resident together at the load's end.
func releaseRange(m []byte, off, end int) {
	if lo, hi := pageSpan(off, end, len(m), os.Getpagesize()); lo < hi {
		_ = syscall.Madvise(m[lo:hi], syscall.MADV_DONTNEED)
	}
}

// pageSpan is the part [lo, hi) of [off, end) in a mapping of n bytes that releaseRange
// may release: the whole pages of size page within it, and the mapping's last, partial
// page when end is the mapping's end (the system rounds the length up to a page). The
// pages at the ends, shared with the neighbouring chunks, are kept. lo ≥ hi: nothing.
func pageSpan(off, end, n, page int) (lo, hi int) {
	lo = (off + page - 1) &^ (page - 1)
	hi = end &^ (page - 1)
	if end == n {
		hi = end
	}
	return lo, hi
}
