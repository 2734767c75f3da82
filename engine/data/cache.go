package data

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"sync"
	"unsafe"
)

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
//	crc      uint32  CRC-32C (Castagnoli) of every byte before it
//
// Reading it back is one sequential read into the dataset's arrays and a checksum.
const (
	flagDense    = 1
	cacheMagic   = "AUCOPTDS"
	cacheVersion = 1
	cacheHeader  = 8 + 4 + 4 + 8 + 8 + 8 + 4
)

// ErrCache is wrapped by every error about a malformed cache file.
var ErrCache = errors.New("bad cache file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// IsCache reports whether head (the first bytes of a file) starts a binary cache.
func IsCache(head []byte) bool { return bytes.HasPrefix(head, []byte(cacheMagic)) }

// WriteCache writes d in the binary cache format. On a little-endian machine the
// arrays are written as they lie in memory, without conversion.
func WriteCache(w io.Writer, d *Dataset) error {
	h := crc32.New(castagnoli)
	bw := &errWriter{w: io.MultiWriter(w, h)}
	var hdr [cacheHeader]byte
	copy(hdr[:8], cacheMagic)
	binary.LittleEndian.PutUint32(hdr[8:], cacheVersion)
	if d.Dense != nil {
		binary.LittleEndian.PutUint32(hdr[12:], flagDense)
	}
	binary.LittleEndian.PutUint64(hdr[16:], uint64(d.Rows()))
	binary.LittleEndian.PutUint64(hdr[24:], uint64(d.Dim))
	binary.LittleEndian.PutUint64(hdr[32:], uint64(d.Nnz()))
	binary.LittleEndian.PutUint32(hdr[40:], uint32(len(d.Name)))
	bw.write(hdr[:])
	bw.write([]byte(d.Name))
	writeLE(bw, d.Y)
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
		writeLE(bw, d.Val)
	}
	if bw.err != nil {
		return bw.err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], h.Sum32())
	_, err := w.Write(sum[:])
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

// ReadCache reads a binary cache file, verifying its checksum: one sequential read
// straight into the dataset's arrays (no copy of the file in memory).
func ReadCache(path string) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	d, err := readCache(bufio.NewReaderSize(f, 1<<16), st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// DecodeCache decodes a binary cache held in memory.
func DecodeCache(b []byte) (*Dataset, error) {
	return readCache(bytes.NewReader(b), int64(len(b)))
}

// readCache reads a cache of size bytes from r into a new dataset. The header is
// checked against size before anything is allocated; the checksum covers every byte.
func readCache(r io.Reader, size int64) (*Dataset, error) {
	var hdr [cacheHeader]byte
	if size < cacheHeader+4 {
		return nil, fmt.Errorf("%w: not an aucopt cache (too short or wrong magic)", ErrCache)
	}
	if _, err := io.ReadFull(r, hdr[:]); err != nil || !IsCache(hdr[:]) {
		return nil, fmt.Errorf("%w: not an aucopt cache (too short or wrong magic)", ErrCache)
	}
	rows := binary.LittleEndian.Uint64(hdr[16:])
	dim := binary.LittleEndian.Uint64(hdr[24:])
	nnz := binary.LittleEndian.Uint64(hdr[32:])
	nameLen := uint64(binary.LittleEndian.Uint32(hdr[40:]))
	dense := binary.LittleEndian.Uint32(hdr[12:])&flagDense != 0
	want := uint64(cacheHeader) + nameLen + rows*(1+8+8) + 8 + nnz*(4+8)
	if dense {
		want = uint64(cacheHeader) + nameLen + rows*(1+8) + nnz*8
	}
	if rows > 1<<40 || nnz > 1<<40 || dim > math.MaxInt32 || dense && nnz != rows*dim || want+4 != uint64(size) {
		return nil, fmt.Errorf("%w: header (%d rows, %d features, %d values) does not match the file size %d "+
			"(the file is corrupt or truncated)", ErrCache, rows, dim, nnz, size)
	}
	h := crc32.New(castagnoli)
	h.Write(hdr[:])
	if v := binary.LittleEndian.Uint32(hdr[8:]); v != cacheVersion {
		return nil, fmt.Errorf("%w: format version %d, this aucopt reads version %d", ErrCache, v, cacheVersion)
	}
	name := make([]byte, nameLen)
	if _, err := io.ReadFull(r, name); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCache, err)
	}
	h.Write(name)
	d := &Dataset{Name: string(name), Dim: int(dim), Y: make([]int8, rows), Labels: make([]float64, rows)}
	arrays := []func() error{
		func() error { return readLE(r, h, d.Y) },
		func() error { return readLE(r, h, d.Labels) },
	}
	if dense {
		d.Dense = makeFloats(int(nnz))
		arrays = append(arrays, func() error { return readLE(r, h, d.Dense) })
	} else {
		d.Ptr, d.Idx, d.Val = make([]int64, rows+1), make([]int32, nnz), makeFloats(int(nnz))
		arrays = append(arrays,
			func() error { return readLE(r, h, d.Ptr) },
			func() error { return readLE(r, h, d.Idx) },
			func() error { return readLE(r, h, d.Val) })
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
		return nil, fmt.Errorf("%w: checksum mismatch (stored %08x, computed %08x): the file is corrupt or truncated", ErrCache, stored, got)
	}
	if dense {
		d.setIndices()
	}
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCache, err)
	}
	return d, nil
}

// validate checks the invariants a cache promises, those the LIBSVM reader enforces:
// CSR structure, labels ±1 or 0 (unmapped), finite labels and values. A checksum
// catches corruption, this catches a well-formed file written by something else (a
// crafted one with a valid CRC and a NaN value, say).
func (d *Dataset) validate() error {
	for i, l := range d.Labels {
		if math.IsNaN(l) || math.IsInf(l, 0) {
			return fmt.Errorf("row %d: label %v", i+1, l)
		}
		if y := d.Y[i]; y != 1 && y != -1 && y != 0 {
			return fmt.Errorf("row %d: label %d", i+1, y)
		}
	}
	if d.Dense != nil {
		if k := firstNonFinite(d.Dense); k >= 0 {
			return fmt.Errorf("row %d, feature %d: value %v", k/max(d.Dim, 1)+1, k%max(d.Dim, 1)+1, d.Dense[k])
		}
		return nil
	}
	if len(d.Ptr) != d.Rows()+1 || d.Ptr[0] != 0 || d.Ptr[d.Rows()] != int64(len(d.Idx)) {
		return fmt.Errorf("row pointers do not span the values")
	}
	for i := range d.Rows() {
		lo, hi := d.Ptr[i], d.Ptr[i+1]
		if hi < lo {
			return fmt.Errorf("row %d: pointers decrease", i+1)
		}
		for k := lo; k < hi; k++ {
			if d.Idx[k] < 0 || int(d.Idx[k]) >= d.Dim || k > lo && d.Idx[k] <= d.Idx[k-1] {
				return fmt.Errorf("row %d: index %d out of order or range", i+1, d.Idx[k]+1)
			}
			if v := d.Val[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("row %d, feature %d: value %v", i+1, d.Idx[k]+1, v)
			}
		}
	}
	return nil
}

// firstNonFinite returns the index of the first NaN or ±Inf in v, or −1, checking large
// slices in parts on all cores.
func firstNonFinite(v []float64) int {
	first := func(v []float64) int {
		for k, x := range v {
			if math.Float64bits(x)&(0x7ff<<52) == 0x7ff<<52 { // exponent all ones
				return k
			}
		}
		return -1
	}
	parts := min(runtime.GOMAXPROCS(0), len(v)/(1<<20))
	if parts <= 1 {
		return first(v)
	}
	found := make([]int, parts)
	var wg sync.WaitGroup
	size := (len(v) + parts - 1) / parts
	for p := range parts {
		wg.Go(func() {
			lo := min(p*size, len(v))
			found[p] = first(v[lo:min(lo+size, len(v))])
			if found[p] >= 0 {
				found[p] += lo
			}
		})
	}
	wg.Wait()
	for _, k := range found {
		if k >= 0 {
			return k
		}
	}
	return -1
}
