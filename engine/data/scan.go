package data

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
)

// lineStats is what a byte scan of LIBSVM text learns without parsing a number: it
// finds line ends, comments and colons with the bytes package's vectorised searches
// and reads only the digits of each row's last index.
type lineStats struct {
	lines  int   // lines seen (the last one may lack its newline)
	rows   int   // lines holding an example: not blank or comment-only
	colons int64 // colons before any comment on the rows: an upper bound of the stored values
	maxIdx int   // largest index before a row's last colon: the dimension of a well-formed file
	// long is the 1-based line (counted in lines) of the first line over MaxLineBytes,
	// 0 when there is none.
	long int
	// zero is the 1-based line of the first row with an index 0 (a file numbered from
	// 0), 0 when there is none.
	zero int
	// maybeZero: the bytes scanned may hold an index 0 (" 0:" or a tab before it), so
	// scanLine looks for one; false skips the look in the common case.
	maybeZero bool
}

var (
	spaceZero = []byte(" 0:")
	tabZero   = []byte("\t0:")
)

// scan adds the lines of b, which holds whole lines (the last one may lack its newline
// only at the end of the file).
func (s *lineStats) scan(b []byte) {
	s.maybeZero = s.zero == 0 && (bytes.Contains(b, spaceZero) || bytes.Contains(b, tabZero))
	for len(b) > 0 {
		var line []byte
		n := bytes.IndexByte(b, '\n')
		if n < 0 {
			line, b = b, nil
		} else {
			line, b = b[:n], b[n+1:]
		}
		s.lines++
		if s.long == 0 && len(line)+min(n+1, 1) > MaxLineBytes {
			s.long = s.lines // the Reader's rule: the line with its newline over the limit
		}
		s.scanLine(line)
	}
}

// scanLine adds one line (without its newline) that is not the first over the limit.
func (s *lineStats) scanLine(line []byte) {
	if h := bytes.IndexByte(line, '#'); h >= 0 {
		line = line[:h]
	}
	i := 0
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	if i == len(line) {
		return
	}
	s.rows++
	if s.maybeZero && s.zero == 0 && (bytes.Contains(line[i:], spaceZero) || bytes.Contains(line[i:], tabZero)) {
		s.zero = s.lines
	}
	c := bytes.LastIndexByte(line, ':')
	if c < 0 {
		return
	}
	s.colons += int64(bytes.Count(line[i:c], colon)) + 1
	// The row's last index is its largest in a well-formed row (indices increase); a
	// malformed one fails the parse, which reports it.
	idx, mul := 0, 1
	for j := c - 1; j >= i && line[j]-'0' <= 9 && mul <= 1e10; j-- {
		idx += int(line[j]-'0') * mul
		mul *= 10
	}
	s.maxIdx = max(s.maxIdx, idx)
}

var colon = []byte{':'}

// add merges the counts of a later part of the same file.
func (s *lineStats) add(o lineStats) {
	if s.long == 0 && o.long != 0 {
		s.long = s.lines + o.long
	}
	if s.zero == 0 && o.zero != 0 {
		s.zero = s.lines + o.zero
	}
	s.lines += o.lines
	s.rows += o.rows
	s.colons += o.colons
	s.maxIdx = max(s.maxIdx, o.maxIdx)
}

// FileInfo is what one read of a data file learns without parsing its numbers.
type FileInfo struct {
	// Rows is the number of examples: lines that are not blank or comment-only.
	Rows int
	// Dim is the number of features of a well-formed file (its largest index).
	Dim int
	// Nnz is an upper bound of the stored values (the colons of the rows); for a
	// binary cache it is exact.
	Nnz int64
	// Bytes is the size of the file as stored.
	Bytes int64
	// SHA256 is the file's fingerprint, as Fingerprint computes it: the hexadecimal
	// SHA-256 of the file as stored (a compressed file's compressed bytes), or the
	// digest a version-3 binary cache stores.
	SHA256 string
	// Cache tells that the file is a binary cache (SaveCache).
	Cache bool
	// ZeroLine is the first line with a feature index 0, 0 when there is none: a file
	// numbered from 0 (Options.Indices), whose Dim is then one more (DimOf).
	ZeroLine int
}

// IndicesOf resolves the index base opts asks for on the scanned file: IndexAuto is
// IndexZero when the file has an index 0. dim is the number of features under it.
func (info FileInfo) IndicesOf(base IndexBase) (resolved IndexBase, dim int) {
	if base == IndexAuto || base == indexTentative {
		base = IndexOne
		if info.ZeroLine != 0 {
			base = IndexZero
		}
	}
	dim = info.Dim
	if base == IndexZero && !info.Cache {
		dim++ // indices 0..Dim
	}
	return base, dim
}

// ScanFile reads path once, sequentially, and returns its number of examples and of
// features and its fingerprint, without parsing a number: what a streamed training
// run needs before its pass, for one read instead of a parse and a hash. Compressed
// files are decompressed (the fingerprint is of the bytes as stored); a binary cache's
// header is read, and the cache hashed unless it stores its digest (version 3). A malformed row is not detected here but by the parse
// (the pass), which reports it by file and line; only an index too large for any
// well-formed file (which would size a learner absurdly) makes ScanFile parse the file
// and return its first error. ctx is checked every few thousand lines.
func ScanFile(ctx context.Context, path string) (FileInfo, error) {
	f, err := openInput(path)
	if err != nil {
		return FileInfo{}, err
	}
	defer f.Close()
	h := sha256.New()
	cr := &countingReader{r: io.TeeReader(f, h)}
	br := bufio.NewReaderSize(cr, 1<<16)
	head, _ := br.Peek(len(cacheMagic))
	var info FileInfo
	if IsCache(head) {
		hdr, err := br.Peek(cacheHeader)
		if err != nil {
			return FileInfo{}, fmt.Errorf("%s: %w: too short for its header", path, ErrCache)
		}
		info.Cache = true
		info.Rows = int(binary.LittleEndian.Uint64(hdr[16:]))
		info.Dim = int(binary.LittleEndian.Uint64(hdr[24:]))
		info.Nnz = int64(binary.LittleEndian.Uint64(hdr[32:]))
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			if sum, ok := storedDigest(f, st.Size()); ok { // nothing more to read
				info.Bytes, info.SHA256 = st.Size(), sum
				return info, nil
			}
		}
		if _, err := io.Copy(io.Discard, br); err != nil {
			return FileInfo{}, fmt.Errorf("%s: %w", path, err)
		}
	} else {
		dec, err := decompressor(br, path)
		if err != nil {
			return FileInfo{}, err
		}
		var src io.Reader = br
		if dec != nil {
			src = dec
		}
		st, err := scanLines(ctx, src, path)
		if err != nil {
			return FileInfo{}, err
		}
		if st.maxIdx > math.MaxInt32 {
			// No well-formed file has such an index: the parse names the bad line, before
			// anything is sized by this dimension.
			return FileInfo{}, firstError(path)
		}
		info.Rows, info.Dim, info.Nnz, info.ZeroLine = st.rows, st.maxIdx, st.colons, st.zero
	}
	info.Bytes = cr.n
	info.SHA256 = hex.EncodeToString(h.Sum(nil))
	return info, nil
}

// firstError parses path and returns its first error (a malformed file's ParseError).
func firstError(path string) error {
	r, err := Open(path, Options{})
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		if _, err := r.Next(); err == io.EOF {
			return fmt.Errorf("%s: internal error: the scan found an index over %d, the parse none", path, math.MaxInt32)
		} else if err != nil {
			return err
		}
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// scanLines scans the LIBSVM text of r line by line. A line over MaxLineBytes is
// counted (lineStats.long) and skipped, not an error: the parse reports it in its
// place among the file's errors.
func scanLines(ctx context.Context, r io.Reader, path string) (lineStats, error) {
	var st lineStats
	br := bufio.NewReaderSize(r, MaxLineBytes)
	for {
		if st.lines%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return st, fmt.Errorf("%s: %w", path, err)
			}
		}
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			st.lines++
			if st.long == 0 {
				st.long = st.lines
			}
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
		} else if len(line) > 0 {
			st.lines++
			if line[len(line)-1] == '\n' {
				line = line[:len(line)-1]
			}
			st.maybeZero = st.zero == 0
			st.scanLine(line)
		}
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			return st, fmt.Errorf("%s: after line %d: %w", path, st.lines, err)
		}
	}
}
