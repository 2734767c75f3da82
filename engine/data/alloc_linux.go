package data

import "syscall"

// hugeMin is the size from which adviseHuge asks for huge pages.
const hugeMin = 64 << 20

// adviseHuge asks Linux to back b with transparent huge pages (madvise MADV_HUGEPAGE),
// for systems whose THP setting is "madvise"; a failure only costs speed.
func adviseHuge(b []byte) {
	if len(b) < hugeMin {
		return
	}
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
}
