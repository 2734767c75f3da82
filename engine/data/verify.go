package data

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"runtime"
	"sort"
	"sync"
)

// validate checks the invariants a cache promises, those the LIBSVM reader enforces:
// CSR structure, labels ±1 or 0 (unmapped), finite labels and values. A checksum
// catches corruption, this catches a well-formed file written by something else (a
// crafted one with a valid CRC and a NaN value, say). The rules are the range checks
// below, which verifyMapped applies piece by piece as it checksums a mapped cache.
func (d *Dataset) validate() error {
	if err := d.checkHead(); err != nil {
		return err
	}
	if d.Dense != nil {
		return inParts(len(d.Dense), d.checkDense)
	}
	if err := inParts(len(d.Idx), d.checkIdx); err != nil {
		return err
	}
	return inParts(len(d.Val), d.checkVal)
}

// checkHead checks what precedes the values in a cache: the labels and, for a sparse
// dataset, the row pointers (which the index and value checks rely on).
func (d *Dataset) checkHead() error {
	for i, l := range d.Labels {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return fmt.Errorf("row %d: label %v", i+1, l)
		}
		if y := d.Y[i]; y != 1 && y != -1 && y != 0 {
			return fmt.Errorf("row %d: label %d", i+1, y)
		}
	}
	if d.Dense != nil {
		return nil
	}
	rows := d.Rows()
	if len(d.Ptr) != rows+1 || d.Ptr[0] != 0 || d.Ptr[rows] != int64(len(d.Idx)) || len(d.Val) != len(d.Idx) {
		return fmt.Errorf("row pointers do not span the values")
	}
	for i := range rows {
		if d.Ptr[i+1] < d.Ptr[i] {
			return fmt.Errorf("row %d: pointers decrease", i+1)
		}
	}
	return nil
}

// inParts runs check over [0, n), in parts on all cores when n is large, and returns
// the first part's error (the first in the data's order, whatever finished first).
func inParts(n int, check func(lo, hi int) error) error {
	parts := min(runtime.GOMAXPROCS(0), n/(1<<20))
	if parts <= 1 {
		return check(0, n)
	}
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { errs[p] = check(p*n/parts, (p+1)*n/parts) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// checkDense checks that the dense values [lo, hi) are finite.
func (d *Dataset) checkDense(lo, hi int) error {
	if k := firstNonFinite(d.Dense[lo:hi]); k >= 0 {
		k += lo
		return fmt.Errorf("row %d, feature %d: value %v", k/max(d.Dim, 1)+1, k%max(d.Dim, 1)+1, d.Dense[k])
	}
	return nil
}

// checkVal checks that the sparse values [lo, hi) are finite (the pointers checked).
func (d *Dataset) checkVal(lo, hi int) error {
	if k := firstNonFinite(d.Val[lo:hi]); k >= 0 {
		k += lo
		return fmt.Errorf("row %d, feature %d: value %v", d.rowOf(k)+1, d.Idx[k]+1, d.Val[k])
	}
	return nil
}

// rowOf is the row that holds stored value k (the pointers checked).
func (d *Dataset) rowOf(k int) int {
	return sort.Search(d.Rows(), func(i int) bool { return d.Ptr[i+1] > int64(k) })
}

// checkIdx checks the sparse indices [lo, hi) (the pointers checked): each in [0, Dim)
// and above the one before it in its row, which may have begun before lo.
func (d *Dataset) checkIdx(lo, hi int) error {
	for k, i := lo, d.rowOf(lo); k < hi; i++ {
		end := min(hi, int(d.Ptr[i+1]))
		if k >= end {
			continue // an empty row
		}
		seg := d.Idx[k:end]
		// s's sign stays set while the segment's first index is above the one before it
		// (or not negative, at the row's start) and each index is above the one before
		// it: no branch per index, and four differences at a time.
		prev := int64(-1)
		if k > int(d.Ptr[i]) {
			prev = int64(d.Idx[k-1])
		}
		s, t := prev-int64(seg[0]), int64(-1)
		n := 1
		for ; n+4 <= len(seg); n += 4 {
			w := seg[n-1 : n+4 : n+4]
			a, b, c, e, f := int64(w[0]), int64(w[1]), int64(w[2]), int64(w[3]), int64(w[4])
			s &= (a - b) & (c - e)
			t &= (b - c) & (e - f)
		}
		for ; n < len(seg); n++ {
			s &= int64(seg[n-1]) - int64(seg[n])
		}
		s &= t
		prev = int64(seg[len(seg)-1])
		if s >= 0 || prev >= int64(d.Dim) {
			row := d.Idx[d.Ptr[i]:d.Ptr[i+1]]
			return fmt.Errorf("row %d: index %d out of order or range", i+1, firstBadIndex(row, d.Dim)+1)
		}
		k = end
	}
	return nil
}

// firstBadIndex is the first index of a row that is negative, at least dim, or not above
// the one before it.
func firstBadIndex(row []int32, dim int) int32 {
	for k, j := range row {
		if j < 0 || int(j) >= dim || k > 0 && j <= row[k-1] {
			return j
		}
	}
	return row[len(row)-1]
}

// firstNonFinite returns the index of the first NaN or ±Inf in v, or −1.
func firstNonFinite(v []float64) int {
	const top = 0x7ff << 53 // a value's bits shifted past the sign: exponent all ones
	f := func(x float64) uint64 { return math.Float64bits(x) << 1 }
	k := 0
	for ; k+8 <= len(v); k += 8 {
		w := v[k : k+8 : k+8]
		if max(f(w[0]), f(w[1]), f(w[2]), f(w[3]), f(w[4]), f(w[5]), f(w[6]), f(w[7])) >= top {
			break
		}
	}
	for ; k < len(v); k++ {
		if f(v[k]) >= top {
			return k
		}
	}
	return -1
}

// verifyBlock is how much of a mapped cache verifyMapped checksums and then checks
// before the next: well inside a core's L2 cache, so that the checks read what the
// checksum has just brought in rather than the memory again.
const verifyBlock = 256 << 10

// verifyMapped checks the mapped version-2 or -3 cache m of layout l, whose arrays d
// holds: its checksum (first: a mismatch is the error) and validate's rules (an error
// wrapping ErrCache), in one pass over m's memory. The labels and pointers are checked
// first; then each core takes a contiguous part of the values and, block by block,
// adds the block to its part's checksum and checks the indices and values in it.
// Otherwise a mapped cache is read twice, to checksum it and to check it, each time
// from memory (the file is larger than the CPU's caches).
func verifyMapped(m []byte, l cacheLayout, d *Dataset) error {
	body := l.idx // the values' part: from the indices (sparse) or the dense values
	if d.Dense != nil {
		body = l.ptr
	}
	stored := binary.LittleEndian.Uint32(m[l.crc:])
	head := crc32.Update(0, castagnoli, m[:body])
	if err := d.checkHead(); err != nil {
		if got := crc32Combine(crc32.Castagnoli, head, checksum(m[body:l.crc]), int64(l.crc-body)); got != stored {
			return checksumError(stored, got)
		}
		return fmt.Errorf("%w: %v", ErrCache, err)
	}
	n := int(l.crc - body)
	parts := max(1, min(runtime.GOMAXPROCS(0), n/(4<<20)))
	sums, errs := make([]uint32, parts), make([]error, parts)
	// part p is bytes [cut(p), cut(p+1)), its start 8-byte aligned; the last ends at the CRC.
	cut := func(p int) int {
		if p == parts {
			return int(l.crc)
		}
		return int(body) + (p*n/parts)&^7
	}
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() {
			end := cut(p + 1)
			for a := cut(p); a < end; a += verifyBlock {
				b := min(a+verifyBlock, end)
				sums[p] = crc32.Update(sums[p], castagnoli, m[a:b])
				if errs[p] == nil {
					errs[p] = d.checkBytes(l, a, b)
				}
			}
		})
	}
	wg.Wait()
	got := head
	for p := range parts {
		got = crc32Combine(crc32.Castagnoli, got, sums[p], int64(cut(p+1)-cut(p)))
	}
	if got != stored {
		return checksumError(stored, got)
	}
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("%w: %v", ErrCache, err)
		}
	}
	return nil
}

// checkBytes checks the indices and values of d (a mapped cache of layout l) that lie
// in its bytes [a, b).
func (d *Dataset) checkBytes(l cacheLayout, a, b int) error {
	if d.Dense != nil {
		lo, hi := elems(l.ptr, 8, len(d.Dense), a, b)
		return d.checkDense(lo, hi)
	}
	if lo, hi := elems(l.idx, 4, len(d.Idx), a, b); lo < hi {
		if err := d.checkIdx(lo, hi); err != nil {
			return err
		}
	}
	if lo, hi := elems(l.val, 8, len(d.Val), a, b); lo < hi {
		return d.checkVal(lo, hi)
	}
	return nil
}

// elems is the range of the n elements of size bytes from offset off that start in
// bytes [a, b).
func elems(off uint64, size, n, a, b int) (lo, hi int) {
	at := func(x int) int { return min(n, max(0, (x-int(off)+size-1)/size)) }
	return at(a), at(b)
}
