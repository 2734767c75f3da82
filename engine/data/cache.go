package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
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
// Reading it back is a checksum and a copy: data re-read at memory speed.
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

// WriteCache writes d in the binary cache format.
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
	ys := make([]byte, len(d.Y))
	for i, y := range d.Y {
		ys[i] = byte(y)
	}
	bw.write(ys)
	buf := make([]byte, 0, 1<<16)
	flush := func() { bw.write(buf); buf = buf[:0] }
	for _, l := range d.Labels {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(l))
		if len(buf) >= 1<<16-8 {
			flush()
		}
	}
	if d.Dense != nil {
		for _, v := range d.Dense {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
			if len(buf) >= 1<<16-8 {
				flush()
			}
		}
	}
	ptr := d.Ptr
	if len(ptr) == 0 && d.Dense == nil {
		ptr = []int64{0}
	}
	for _, p := range ptr {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(p))
		if len(buf) >= 1<<16-8 {
			flush()
		}
	}
	for _, i := range d.Idx {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(i))
		if len(buf) >= 1<<16-8 {
			flush()
		}
	}
	for _, v := range d.Val {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		if len(buf) >= 1<<16-8 {
			flush()
		}
	}
	flush()
	if bw.err != nil {
		return bw.err
	}
	var sum [4]byte
	binary.LittleEndian.PutUint32(sum[:], h.Sum32())
	_, err := w.Write(sum[:])
	return err
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

// ReadCache reads a binary cache file, verifying its checksum.
func ReadCache(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d, err := DecodeCache(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// DecodeCache decodes a binary cache held in memory.
func DecodeCache(b []byte) (*Dataset, error) {
	if len(b) < cacheHeader+4 || !IsCache(b) {
		return nil, fmt.Errorf("%w: not an aucopt cache (too short or wrong magic)", ErrCache)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if got := crc32.Checksum(body, castagnoli); got != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (stored %08x, computed %08x): the file is corrupt or truncated", ErrCache, sum, got)
	}
	if v := binary.LittleEndian.Uint32(b[8:]); v != cacheVersion {
		return nil, fmt.Errorf("%w: format version %d, this aucopt reads version %d", ErrCache, v, cacheVersion)
	}
	rows := binary.LittleEndian.Uint64(b[16:])
	dim := binary.LittleEndian.Uint64(b[24:])
	nnz := binary.LittleEndian.Uint64(b[32:])
	nameLen := uint64(binary.LittleEndian.Uint32(b[40:]))
	dense := binary.LittleEndian.Uint32(b[12:])&flagDense != 0
	want := uint64(cacheHeader) + nameLen + rows*(1+8+8) + 8 + nnz*(4+8)
	if dense {
		want = uint64(cacheHeader) + nameLen + rows*(1+8) + nnz*8
	}
	if rows > 1<<40 || nnz > 1<<40 || dim > math.MaxInt32 || dense && nnz != rows*dim || want != uint64(len(body)) {
		return nil, fmt.Errorf("%w: header (%d rows, %d features, %d values) does not match the file size %d", ErrCache, rows, dim, nnz, len(b))
	}
	p := body[cacheHeader:]
	d := &Dataset{Name: string(p[:nameLen]), Dim: int(dim)}
	p = p[nameLen:]
	d.Y = make([]int8, rows)
	for i := range d.Y {
		d.Y[i] = int8(p[i])
	}
	p = p[rows:]
	d.Labels = make([]float64, rows)
	for i := range d.Labels {
		d.Labels[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	p = p[8*rows:]
	if dense {
		d.Dense = make([]float64, nnz)
		for i := range d.Dense {
			d.Dense[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
		}
		d.setIndices()
		if err := d.validate(); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCache, err)
		}
		return d, nil
	}
	d.Ptr = make([]int64, rows+1)
	for i := range d.Ptr {
		d.Ptr[i] = int64(binary.LittleEndian.Uint64(p[8*i:]))
	}
	p = p[8*(rows+1):]
	d.Idx = make([]int32, nnz)
	for i := range d.Idx {
		d.Idx[i] = int32(binary.LittleEndian.Uint32(p[4*i:]))
	}
	p = p[4*nnz:]
	d.Val = make([]float64, nnz)
	for i := range d.Val {
		d.Val[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
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
		for k, v := range d.Dense {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("row %d, feature %d: value %v", k/max(d.Dim, 1)+1, k%max(d.Dim, 1)+1, v)
			}
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
