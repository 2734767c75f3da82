package data

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"unsafe"

	"github.com/aucopt/aucopt/engine/fault"
)

// The binary cache, told by its magic bytes only.
func init() {
	RegisterFormat(Format{Name: FormatCache, Magic: []byte(cacheMagic)})
}

// The binary cache format, little-endian:
//
//	magic    [8]byte "AUCOPTDS"
//	version  uint32  (cacheVersion)
//	flags    uint32  (bit 0: dense layout)
//	rows     uint64
//	dim      uint64
//	nnz      uint64
//	nameLen  uint32, then the name's bytes
//	Y        [rows]int8
//	Labels   [rows]float64
//	Ptr      [rows+1]int64    (sparse layout) or Dense [rows·dim]float64 (dense; nnz = rows·dim)
//	Idx      [nnz]int32       (sparse layout only)
//	Val      [nnz]float64     (sparse layout only)
//	digest   [32]byte SHA-256 of every byte before it (version 3)
//	crc      uint32  CRC-32C (Castagnoli) of every byte before it
//
// From version 2 on every array starts at a multiple of 8 bytes from the file's start (zero
// bytes pad the name, Y and Idx), so that on a little-endian machine the arrays of a
// file mapped into memory are the dataset's arrays: ReadCache maps the file (copy on
// write) instead of copying it, checks the checksum and the values, and is done.
// Version 1 files (no padding) are still read, by one sequential read into the
// dataset's arrays.
//
// Version 3 adds the digest: the file's fingerprint (what a model records of its
// training data, Fingerprint), stored when the cache is written so that it is not
// computed again, at SHA-256 speed, each time the cache is read (0.55 s of CPU for an
// 800 MB file). It is trusted because the checksum, which every read verifies, covers
// it. Versions 1 and 2 are still read; their fingerprint is the SHA-256 of the file.
const (
	flagDense    = 1
	cacheMagic   = "AUCOPTDS"
	cacheVersion = 3
	cacheHeader  = 8 + 4 + 4 + 8 + 8 + 8 + 4
	digestSize   = sha256.Size
)

// cacheLayout is where a cache's parts lie: the byte offset of each array (Ptr's is
// Dense's in the dense layout) and of the checksum, and the zero bytes that pad the
// name, Y and Idx to the next array.
type cacheLayout struct {
	y, labels, ptr, idx, val, digest, crc uint64
	padName, padY, padIdx                 uint64
}

// layoutOf computes the layout of a version-v cache with the given header fields; the
// counts must be checked (below 2⁴⁰) before, so that nothing overflows.
func layoutOf(v uint32, nameLen, rows, nnz uint64, dense bool) cacheLayout {
	align := func(off uint64) uint64 {
		if v >= 2 {
			return (off + 7) &^ 7
		}
		return off
	}
	var l cacheLayout
	l.y = align(cacheHeader + nameLen)
	l.padName = l.y - (cacheHeader + nameLen)
	l.labels = align(l.y + rows)
	l.padY = l.labels - (l.y + rows)
	l.ptr = l.labels + 8*rows
	if dense {
		l.digest = l.ptr + 8*nnz
	} else {
		l.idx = l.ptr + 8*(rows+1)
		l.val = align(l.idx + 4*nnz)
		l.padIdx = l.val - (l.idx + 4*nnz)
		l.digest = l.val + 8*nnz
	}
	l.crc = l.digest
	if v >= 3 {
		l.crc += digestSize
	}
	return l
}

// ErrCache is wrapped by every error about a malformed cache file.
var ErrCache = fault.NewInput("bad cache file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// IsCache reports whether head (the first bytes of a file) starts a binary cache.
func IsCache(head []byte) bool { return bytes.HasPrefix(head, []byte(cacheMagic)) }

// WriteCache writes d in the binary cache format (its current version). On a
// little-endian machine the arrays are written as they lie in memory, without
// conversion.
func WriteCache(w io.Writer, d *Dataset) error { return writeCache(w, d, cacheVersion) }

// writeCache writes d in version v (2 or 3) of the binary cache format.
func writeCache(w io.Writer, d *Dataset, v uint32) error {
	h := crc32.New(castagnoli)
	sum := sha256.New()
	bw := &errWriter{w: io.MultiWriter(w, h, sum)}
	var hdr [cacheHeader]byte
	copy(hdr[:8], cacheMagic)
	binary.LittleEndian.PutUint32(hdr[8:], v)
	if d.Dense != nil {
		binary.LittleEndian.PutUint32(hdr[12:], flagDense)
	}
	binary.LittleEndian.PutUint64(hdr[16:], uint64(d.Rows()))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(d.Dim))
	binary.LittleEndian.PutUint64(hdr[32:], uint64(d.Nnz()))
	binary.LittleEndian.PutUint32(hdr[40:], uint32(len(d.Name)))
	l := layoutOf(v, uint64(len(d.Name)), uint64(d.Rows()), uint64(d.Nnz()), d.Dense != nil)
	bw.write(hdr[:])
	bw.write([]byte(d.Name))
	bw.write(make([]byte, l.padName))
	writeLE(bw, d.Y)
	bw.write(make([]byte, l.padY))
	writeLE(bw, d.Labels)
	if d.Dense != nil {
		writeLE(bw, d.Dense)
	} else {
		ptr := d.Ptr
		if len(ptr) == 0 {
			ptr = []int64{0}
		}
		writeLE(bw, ptr)
		writeLE(bw, d.Idx)
		bw.write(make([]byte, l.padIdx))
		writeLE(bw, d.Val)
	}
	if v >= 3 {
		bw.write(sum.Sum(nil))
	}
	if bw.err != nil {
		return bw.err
	}
	var crc [4]byte
	binary.LittleEndian.PutUint32(crc[:], h.Sum32())
	_, err := w.Write(crc[:])
	return err
}

// cacheElem is the element types of a cache's arrays.
type cacheElem interface {
	~int8 | ~int32 | ~int64 | ~float64
}

// littleEndian reports whether this machine stores numbers little-endian, as the
// cache does: then an array's memory is its cache bytes.
func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}

// rawBytes is the memory of s as bytes.
func rawBytes[T cacheElem](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// writeLE writes s little-endian, in pieces of at most 1 MiB (a writer that copies,
// like the CRC's, then works on cache-sized pieces).
func writeLE[T cacheElem](w *errWriter, s []T) {
	const piece = 1 << 20
	if littleEndian() {
		b := rawBytes(s)
		for len(b) > 0 {
			n := min(len(b), piece)
			w.write(b[:n])
			b = b[n:]
		}
		return
	}
	buf := make([]byte, 0, piece)
	for _, v := range s {
		buf = appendLE(buf, v)
		if len(buf) > piece-8 {
			w.write(buf)
			buf = buf[:0]
		}
	}
	w.write(buf)
}

// appendLE appends v's little-endian bytes.
func appendLE[T cacheElem](b []byte, v T) []byte {
	switch x := any(v).(type) {
	case int8:
		return append(b, byte(x))
	case int32:
		return binary.LittleEndian.AppendUint32(b, uint32(x))
	case int64:
		return binary.LittleEndian.AppendUint64(b, uint64(x))
	case float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	panic("unreachable")
}

// readLE fills s from r's little-endian bytes, adding them to the checksum h; on a
// little-endian machine by reading straight into s's memory.
func readLE[T cacheElem](r io.Reader, h hash.Hash32, s []T) error {
	if littleEndian() {
		b := rawBytes(s)
		if _, err := io.ReadFull(r, b); err != nil {
			return err
		}
		h.Write(b)
		return nil
	}
	size := int(unsafe.Sizeof(*new(T)))
	buf := make([]byte, 1<<16-(1<<16)%size)
	for i := 0; i < len(s); {
		n := min(len(buf)/size, len(s)-i)
		b := buf[:n*size]
		if _, err := io.ReadFull(r, b); err != nil {
			return err
		}
		h.Write(b)
		for k := range n {
			var v T
			switch p := any(&v).(type) {
			case *int8:
				*p = int8(b[k])
			case *int32:
				*p = int32(binary.LittleEndian.Uint32(b[4*k:]))
			case *int64:
				*p = int64(binary.LittleEndian.Uint64(b[8*k:]))
			case *float64:
				*p = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
			}
			s[i+k] = v
		}
		i += n
	}
	return nil
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

// SaveCache writes d to path atomically (WriteAtomic): path never holds a partial cache.
func SaveCache(path string, d *Dataset) error {
	return WriteAtomic(path, func(w io.Writer) error { return WriteCache(w, d) })
}

// ReadCache reads a binary cache file, verifying its checksum and values: a version-2
// or -3 cache is mapped into memory (mapCache: no copy), where the system can; otherwise one
// sequential read goes straight into the dataset's arrays.
func ReadCache(path string) (*Dataset, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := readCacheFile(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// readCacheFile reads the cache f from its start, wherever f's offset is: mapped where
// it can be, else read.
func readCacheFile(f *os.File) (*Dataset, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Mode().IsRegular() {
		if d, ok, err := mapCache(f, st.Size()); ok {
			return d, err
		}
	}
	return readCache(bufio.NewReaderSize(io.NewSectionReader(f, 0, st.Size()), 1<<16), st.Size())
}

// DecodeCache decodes a binary cache held in memory.
func DecodeCache(b []byte) (*Dataset, error) {
	return readCache(bytes.NewReader(b), int64(len(b)))
}

// cacheHead is a cache's header, checked against the file's size.
type cacheHead struct {
	version             uint32
	dense               bool
	rows, dim, nnz, nam uint64
	layout              cacheLayout
}

// parseCacheHead checks hdr (the first cacheHeader bytes) against the file's size:
// nothing is allocated for a header that the size contradicts.
func parseCacheHead(hdr []byte, size int64) (cacheHead, error) {
	if size < cacheHeader+4 || len(hdr) < cacheHeader || !IsCache(hdr) {
		return cacheHead{}, fmt.Errorf("%w: not an aucopt cache (too short or wrong magic)", ErrCache)
	}
	h := cacheHead{version: binary.LittleEndian.Uint32(hdr[8:]), dense: binary.LittleEndian.Uint32(hdr[12:])&flagDense != 0,
		rows: binary.LittleEndian.Uint64(hdr[16:]), dim: binary.LittleEndian.Uint64(hdr[24:]),
		nnz: binary.LittleEndian.Uint64(hdr[32:]), nam: uint64(binary.LittleEndian.Uint32(hdr[40:]))}
	v := h.version
	if !h.known() {
		v = cacheVersion // judged by the size as this version; the checksum speaks first
	}
	if h.rows > 1<<40 || h.nnz > 1<<40 || h.dim > math.MaxInt32 || h.dense && h.nnz != h.rows*h.dim {
		return cacheHead{}, h.sizeError(size)
	}
	h.layout = layoutOf(v, h.nam, h.rows, h.nnz, h.dense)
	if h.layout.crc+4 != uint64(size) {
		return cacheHead{}, h.sizeError(size)
	}
	return h, nil
}

func (h cacheHead) sizeError(size int64) error {
	why := "the file is corrupt or truncated"
	if !h.known() {
		why = fmt.Sprintf("the file is corrupt, or of format version %d, which this aucopt does not read (1 to %d)", h.version, cacheVersion)
	}
	return fmt.Errorf("%w: header (%d rows, %d features, %d values) does not match the file size %d (%s)",
		ErrCache, h.rows, h.dim, h.nnz, size, why)
}

// known reports whether this aucopt reads h's format version (1 to cacheVersion).
func (h cacheHead) known() bool { return h.version >= 1 && h.version <= cacheVersion }

// checkVersion is the error for a version this aucopt does not read (after the
// checksum, so that a corrupt file is called corrupt).
func (h cacheHead) checkVersion() error {
	if !h.known() {
		return fmt.Errorf("%w: format version %d, this aucopt reads versions 1 to %d", ErrCache, h.version, cacheVersion)
	}
	return nil
}

// readCache reads a cache of size bytes from r into a new dataset. The header is
// checked against size before anything is allocated; the checksum covers every byte.
func readCache(r io.Reader, size int64) (*Dataset, error) {
	var hdr [cacheHeader]byte
	if size < cacheHeader+4 {
		return nil, fmt.Errorf("%w: not an aucopt cache (too short or wrong magic)", ErrCache)
	}
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("%w: not an aucopt cache (too short or wrong magic)", ErrCache)
	}
	ch, err := parseCacheHead(hdr[:], size)
	if err != nil {
		return nil, err
	}
	l := ch.layout
	h := crc32.New(castagnoli)
	h.Write(hdr[:])
	name := make([]byte, ch.nam)
	if _, err := io.ReadFull(r, name); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCache, err)
	}
	h.Write(name)
	skip := func(n uint64) error { // n bytes of padding, into the checksum
		pad := make([]byte, n)
		if _, err := io.ReadFull(r, pad); err != nil {
			return err
		}
		h.Write(pad)
		return nil
	}
	rows, nnz := int(ch.rows), int(ch.nnz)
	d := &Dataset{Name: string(name), Dim: int(ch.dim), Y: make([]int8, rows), Labels: make([]float64, rows)}
	arrays := []func() error{
		func() error { return skip(l.padName) },
		func() error { return readLE(r, h, d.Y) },
		func() error { return skip(l.padY) },
		func() error { return readLE(r, h, d.Labels) },
	}
	if ch.dense {
		d.Dense = makeFloats(nnz)
		arrays = append(arrays, func() error { return readLE(r, h, d.Dense) })
	} else {
		d.Ptr, d.Idx, d.Val = make([]int64, rows+1), make([]int32, nnz), makeFloats(nnz)
		arrays = append(arrays,
			func() error { return readLE(r, h, d.Ptr) },
			func() error { return readLE(r, h, d.Idx) },
			func() error { return skip(l.padIdx) },
			func() error { return readLE(r, h, d.Val) })
	}
	if l.crc > l.digest {
		arrays = append(arrays, func() error { return skip(l.crc - l.digest) })
	}
	for _, read := range arrays {
		if err := read(); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCache, err)
		}
	}
	var sum [4]byte
	if _, err := io.ReadFull(r, sum[:]); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCache, err)
	}
	if got, stored := h.Sum32(), binary.LittleEndian.Uint32(sum[:]); got != stored {
		return nil, checksumError(stored, got)
	}
	if err := ch.checkVersion(); err != nil {
		return nil, err
	}
	return finishCache(d)
}

func checksumError(stored, got uint32) error {
	return fmt.Errorf("%w: checksum mismatch (stored %08x, computed %08x): the file is corrupt or truncated", ErrCache, stored, got)
}

// finishCache validates a dataset read from a cache and completes it.
func finishCache(d *Dataset) (*Dataset, error) {
	if d.Dense != nil {
		d.setIndices()
	}
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCache, err)
	}
	return d, nil
}

// mapCache is ReadCache's fast path for a version-2 or -3 cache on a little-endian machine
// that can map files: f's bytes mapped copy on write, the dataset's arrays slices of
// the mapping, checked by the checksum and validate. ok is false (and the error nil)
// when the file cannot be mapped; then the caller reads it. The mapping is never
// unmapped: the arrays may be referenced for as long as the process runs (its pages
// are the page cache's, which the kernel reclaims as it needs; a write copies a page).
// A file replaced by rename, as WriteAtomic and SaveCache replace files, leaves the
// mapping as it was; one truncated in place while mapped would fault on access.
func mapCache(f *os.File, size int64) (d *Dataset, ok bool, err error) {
	if !littleEndian() || size < cacheHeader+4 || int64(int(size)) != size {
		return nil, false, nil
	}
	var hdr [cacheHeader]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return nil, false, nil
	}
	ch, err := parseCacheHead(hdr[:], size)
	if err != nil || ch.version < 2 || !ch.known() {
		return nil, false, nil // the reader says what is wrong, or reads version 1
	}
	m, err := mapFile(f, int(size))
	if err != nil || m == nil {
		return nil, false, nil
	}
	l := ch.layout
	rows, nnz := int(ch.rows), int(ch.nnz)
	d = &Dataset{Name: string(m[cacheHeader : cacheHeader+ch.nam]), Dim: int(ch.dim),
		Y: mapped[int8](m, l.y, rows), Labels: mapped[float64](m, l.labels, rows)}
	if ch.dense {
		d.Dense = mapped[float64](m, l.ptr, nnz)
	} else {
		d.Ptr, d.Idx, d.Val = mapped[int64](m, l.ptr, rows+1), mapped[int32](m, l.idx, nnz), mapped[float64](m, l.val, nnz)
	}
	if err := verifyMapped(m, l, d); err != nil {
		unmapFile(m)
		return nil, true, err
	}
	if d.Dense != nil {
		d.setIndices()
	}
	return d, true, nil
}

// mapped is the n elements of type T at byte offset off of m (8-byte aligned in a
// version-2 or -3 cache, as is m).
func mapped[T cacheElem](m []byte, off uint64, n int) []T {
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&m[off])), n)
}
