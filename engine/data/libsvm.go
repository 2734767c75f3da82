package data

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"syscall"
	"unsafe"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/kernels"
)

func init() {
	RegisterFormat(Format{Name: FormatLibSVM, Extensions: []string{".svm", ".libsvm", ".svmlight", ".txt"}, Chunked: true, Default: true})
}

// MaxLineBytes is the longest line a Reader accepts (a news20 row is about 10 KB; a
// longer line is taken for a corrupt or non-LIBSVM file).
const MaxLineBytes = 1 << 20

// Options control how a file is read.
type Options struct {
	// Positive, when set, is the label value of the positive class; every other label
	// is negative (one-vs-rest). It is compared as a number ("1" matches "+1" and "1.0").
	Positive string
	// Raw keeps labels as read: Example.Y is 0 and Example.Label holds the value, for
	// callers that group classes themselves (multi-class data).
	Raw bool
	// Dim, when positive, fixes the number of features: an index above it is an error.
	Dim int
	// Table, when set, says how a CSV, TSV or Parquet table's columns become the label
	// and features (table.go); nil means the defaults.
	Table *TableOptions
	// Context, when set, is checked every CheckLines lines: once it is done, reading
	// stops with an error wrapping its error (Ctrl-C while a large file loads).
	Context context.Context
	// Indices is how LIBSVM text numbers its features: from 1 (the format's rule), from
	// 0 (scikit-learn's dump_svmlight_file default), or IndexAuto: from 0 when an index
	// 0 occurs anywhere in the file, else from 1, decided by a whole-file read
	// (ReadFileContext, ScanFile; ReadConfig.Notes says when it found 0). A Reader that
	// sees each row once (Open, NewReader) cannot decide before its first row: under
	// IndexAuto it reads from 1 and refuses an index 0 with an error that names it.
	Indices IndexBase
	// Vocab, when set, counts the column=value strings of a table's hashed columns as
	// they are read (a model's names for its buckets).
	Vocab *Vocab
}

// IndexBase is how a LIBSVM file numbers its features (Options.Indices).
type IndexBase int8

// The index bases.
const (
	IndexAuto      IndexBase = iota // from 0 when a 0 occurs in the file, else from 1
	IndexOne                        // from 1
	IndexZero                       // from 0
	indexTentative                  // from 0 for now: readStream decides at the end
)

// ParseIndexBase parses the --zero-based flag's values: "auto" (or ""), "true" and
// "false".
func ParseIndexBase(s string) (IndexBase, error) {
	switch s {
	case "", "auto":
		return IndexAuto, nil
	case "true":
		return IndexZero, nil
	case "false":
		return IndexOne, nil
	}
	return IndexAuto, fault.Settingf("{Indices} %q: want true, false or auto", s)
}

// CheckLines is the number of lines between two checks of Options.Context.
const CheckLines = 1024

// Example is one labelled row. Its slices belong to the Reader and stay valid until
// the next call to Next.
type Example struct {
	Y     int8           // +1 or −1 (0 with Options.Raw)
	Label float64        // the label as read
	X     kernels.Sparse // features, 0-based indices, strictly increasing
	Line  int            // 1-based line of the file
	// Weight is the row's sample weight from a table's weight column
	// (TableOptions.Weight); 1 otherwise.
	Weight float64
}

// Reader streams examples from LIBSVM/svmlight text, in constant memory.
type Reader struct {
	path   string
	br     *bufio.Reader
	closer io.Closer
	opts   Options
	rule   LabelRule // maps labels to ±1 (labels.go)
	labels labelMap
	line   int
	maxIdx int // largest 1-based index seen
	zb     int // 1 when the file's indices start at 0, else 0: index i is feature i−1+zb
	ex     Example
	long   []byte   // a line longer than the buffer, assembled
	cached *Dataset // a binary cache being streamed, when the input was one

	table tableSource // a CSV, TSV or Parquet table being streamed (table.go)
	// reopen opens the file read anew (Open's), for a table's column kinds
	// (csvKinds); nil for a stream, which is held in memory for them.
	reopen func() (*os.File, error)
	// plain is set when the text is the file's bytes as stored (not decompressed), so
	// that parts of the file can be read at their offsets (readCSVChunks).
	plain bool
}

// Open opens the data file path (a file, or standard input as StdinName) for reading
// its rows in order, one at a time (a Source): its format told from the registered
// formats (a Parquet file by offsets; a compression or a binary cache by magic bytes;
// a table by name or table options; else LIBSVM text).
func Open(path string, opts Options) (*Reader, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	// A format read by offsets (Parquet), by its magic bytes or its name.
	if t, err := openFileRows(f, path, opts); t != nil || err != nil {
		if err != nil {
			f.Close()
			return nil, err
		}
		o := opts
		o.Dim = t.schema().Dim()
		return &Reader{path: path, opts: o, closer: f, table: t, maxIdx: o.Dim}, nil
	}
	var reopen func() (*os.File, error)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		reopen = func() (*os.File, error) { return openInput(path) }
	}
	r, err := newReader(f, path, opts, reopen)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.closer = f
	return r, nil
}

// openFileRows opens the rows of f when its format is read by offsets (a FileOnly
// format with fileRows, told by its magic bytes or path's name); nil otherwise.
func openFileRows(f *os.File, path string, opts Options) (tableSource, error) {
	head := make([]byte, 16)
	n, _ := f.ReadAt(head, 0)
	named := byName(path)
	for _, ft := range Formats() {
		if ft.fileRows != nil && (ft.Magic != nil && bytes.HasPrefix(head[:n], ft.Magic) || named.Name == ft.Name) {
			return ft.fileRows(f, path, opts)
		}
	}
	return nil, nil
}

// NewReader reads examples from r, decompressing gzip, bzip2 or xz by their magic
// bytes. path names the source in errors.
func NewReader(r io.Reader, path string, opts Options) (*Reader, error) {
	return newReader(r, path, opts, nil)
}

// newReader is NewReader with the function that opens the file anew (Reader.reopen).
func newReader(r io.Reader, path string, opts Options, reopen func() (*os.File, error)) (*Reader, error) {
	rd := &Reader{path: path, opts: opts, reopen: reopen}
	if opts.Indices == IndexZero || opts.Indices == indexTentative {
		rd.zb = 1
	}
	if opts.Positive != "" && opts.Table.IsZero() && TableFormat(path) == "" { // tables: table.go
		rule, err := NewLabelRule(opts.Positive)
		if err != nil {
			return nil, err
		}
		rd.rule = rule
	} else if opts.Positive != "" {
		rd.rule = LabelRule{positive: opts.Positive, pos: math.NaN()} // a table's rows are labelled by table.go
	}
	_, serr := statOf(r) // before the buffer moves the file's offset
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(len(cacheMagic))
	if IsCache(head) {
		// A binary cache is read whole (that is its point: memory speed) and streamed
		// from memory; labels are as stored, Options do not apply.
		var d *Dataset
		var err error
		if serr == nil {
			d, err = readCacheFile(r.(*os.File))
		} else {
			var b []byte
			if b, err = io.ReadAll(br); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			d, err = DecodeCache(b)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		rd.cached, rd.maxIdx = d, d.Dim
		return rd, nil
	}
	dec, err := decompressor(br, path)
	if err != nil {
		return nil, err
	}
	if dec != nil {
		br = bufio.NewReaderSize(dec, 1<<16)
	}
	rd.br, rd.plain = br, dec == nil
	if _, err := openTable(rd, path, opts); err != nil { // CSV and TSV tables: table.go
		return nil, err
	}
	return rd, nil
}

// statOf returns the file information of r when it is a regular file read from its
// start (as Open gives it).
func statOf(r io.Reader) (os.FileInfo, error) {
	f, ok := r.(*os.File)
	if !ok {
		return nil, errors.New("not a file")
	}
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if off, err := f.Seek(0, io.SeekCurrent); err != nil || off != 0 || !st.Mode().IsRegular() {
		return nil, errors.New("not a regular file read from its start")
	}
	return st, nil
}

// Close closes the underlying file when the Reader came from Open.
func (r *Reader) Close() error {
	if r.table != nil {
		r.table.close()
	}
	if r.closer != nil {
		return r.closer.Close()
	}
	return nil
}

// MaxIndex is the largest 1-based feature index seen so far: the dimension of the data.
func (r *Reader) MaxIndex() int { return r.maxIdx }

// Path is the name the Reader reports in errors.
func (r *Reader) Path() string { return r.path }

// Next returns the next example, skipping blank and comment-only lines. It returns
// io.EOF after the last one, a *ParseError for a malformed line, or the I/O or
// decompression error.
func (r *Reader) Next() (*Example, error) {
	if r.table != nil {
		return r.table.next()
	}
	if d := r.cached; d != nil {
		if r.line >= d.Rows() {
			return nil, io.EOF
		}
		i := r.line
		r.line++
		r.ex.X, r.ex.Y, r.ex.Label, r.ex.Line = d.Row(i), d.Y[i], d.Labels[i], i+1
		return &r.ex, nil
	}
	for {
		if r.line%CheckLines == CheckLines-1 && r.opts.Context != nil {
			if err := r.opts.Context.Err(); err != nil {
				return nil, fmt.Errorf("%s: reading stopped after line %d: %w", r.path, r.line, err)
			}
		}
		line, err := r.readLine()
		if len(line) == 0 && err != nil {
			var pe *ParseError
			switch {
			case err == io.EOF:
				return nil, io.EOF
			case errors.As(err, &pe):
				return nil, err // a line too long: it names its place
			}
			return nil, r.ioError(err)
		}
		ok, perr := r.parse(line)
		if perr != nil {
			return nil, perr
		}
		if ok {
			return &r.ex, nil
		}
		if err != nil && err != io.EOF {
			return nil, r.ioError(err)
		}
	}
}

// ioError names the file and line of a read error; an error that is not the system's
// (a decompressor's, an early end) means the file is corrupt: it wraps ErrCorrupt.
func (r *Reader) ioError(err error) error {
	var pe *fs.PathError
	var errno syscall.Errno
	if errors.As(err, &pe) || errors.As(err, &errno) {
		return fmt.Errorf("%s: after line %d: %w", r.path, r.line, err)
	}
	return fmt.Errorf("%s:%d: %w: %w", r.path, r.line, ErrCorrupt, err)
}

// readLine returns the next line without its end of line; the slice is valid until the
// next call.
func (r *Reader) readLine() ([]byte, error) {
	r.line++
	line, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = r.br.ReadSlice('\n')
			r.long = append(r.long, line...)
			if len(r.long) > MaxLineBytes {
				return nil, &ParseError{Path: r.path, Line: r.line, Column: MaxLineBytes + 1, Err: fmt.Errorf("%w: over %d bytes", ErrLineTooLong, MaxLineBytes)}
			}
		}
		line = r.long
	}
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line, err
}

// byteOrderMark is UTF-8's byte-order mark, skipped at the start of a file.
var byteOrderMark = []byte("\ufeff")

// isSpace reports whether c separates tokens.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// parse parses one line into r.ex; ok is false for a blank or comment-only line.
func (r *Reader) parse(line []byte) (ok bool, err error) {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	ex := &r.ex
	ex.X.Idx, ex.X.Val = ex.X.Idx[:0], ex.X.Val[:0]
	ex.Line = r.line
	n := len(line)
	pos := 0
	if r.line == 1 && bytes.HasPrefix(line, byteOrderMark) {
		pos = len(byteOrderMark) // a byte-order mark, as CSV files may have
	}
	for pos < n && isSpace(line[pos]) {
		pos++
	}
	if pos == n {
		return false, nil
	}
	start := pos
	for pos < n && !isSpace(line[pos]) {
		pos++
	}
	tok := line[start:pos]
	label, perr := parseFloat(tok)
	if perr != nil || math.IsNaN(label) || math.IsInf(label, 0) {
		return false, r.errorf(start+1, tok, "%w: not a finite number", ErrLabel)
	}
	ex.Label = label
	ex.Y = 0
	if !r.opts.Raw {
		y, lerr := r.mapLabel(label)
		if lerr != nil {
			return false, r.errorf(start+1, tok, "%w", lerr)
		}
		ex.Y = y
	}
	// An optional qid:… first (svmlight's query id), skipped.
	for pos < n && isSpace(line[pos]) {
		pos++
	}
	if bytes.HasPrefix(line[pos:], []byte("qid:")) {
		for pos < n && !isSpace(line[pos]) {
			pos++
		}
	}
	// The features are written into the full capacity of the row's buffers, grown
	// first to the most that the line can hold (a feature takes at least "i:v" and a
	// separator), so that the loop keeps little state; the row's largest index is its
	// last.
	if most := (n-pos)/4 + 1; cap(ex.X.Idx) < most || cap(ex.X.Val) < most {
		ex.X.Idx, ex.X.Val = make([]int32, 0, 2*most), make([]float64, 0, 2*most)
	}
	idxs, vals := ex.X.Idx[:cap(ex.X.Idx)], ex.X.Val[:cap(ex.X.Val)]
	k, prev := 0, 0
	for {
		pos, k, prev = fastRow(line, pos, idxs, vals, k, prev, r.opts.Dim, r.zb)
		for pos < n && isSpace(line[pos]) {
			pos++
		}
		if pos == n {
			ex.X.Idx, ex.X.Val = idxs[:k], vals[:k]
			r.maxIdx = max(r.maxIdx, prev)
			return true, nil
		}
		start = pos
		// index: decimal digits up to the colon
		idx, digits := 0, 0
		for pos < n && line[pos] >= '0' && line[pos] <= '9' {
			if digits < 11 {
				idx = idx*10 + int(line[pos]-'0')
			}
			digits++
			pos++
		}
		if pos == n || line[pos] != ':' {
			for pos < n && !isSpace(line[pos]) {
				pos++
			}
			tok = line[start:pos]
			if bytes.IndexByte(tok, ':') < 0 {
				return false, r.errorf(start+1, tok, "%w: want index:value", ErrFeature)
			}
			return false, r.errorf(start+1, tok, "%w: want an integer in [1, %d]", ErrIndex, math.MaxInt32)
		}
		colon := pos
		pos++ // the colon
		vstart := pos
		// The common values are parsed in the scan itself: an integer of at most 15
		// digits (exact as float64(m)) here, another plain decimal by scanDecimal.
		// Anything else is scanned to the token's end and left to parseFloat.
		var m uint64
		for pos < n && line[pos]-'0' <= 9 && pos-vstart < 15 {
			m = m*10 + uint64(line[pos]-'0')
			pos++
		}
		v, fast := float64(m), pos > vstart && (pos == n || isSpace(line[pos]))
		if !fast {
			var end int
			if v, end, fast = fastDecimal(line, vstart); fast {
				pos = end
			} else if v, end, fast = scanDecimal(line, vstart); fast {
				pos = end
			} else {
				for pos < n && !isSpace(line[pos]) {
					pos++
				}
			}
		}
		if digits > 0 && digits <= 10 && idx == 0 && r.zb == 0 {
			if r.opts.Indices == IndexAuto {
				return false, r.errorf(start+1, line[start:pos], "%w: 0, and the rows before were read as numbered from 1; "+
					"a file numbered from 0 (scikit-learn's default) is read whole with {Indices} auto, or say {Indices} true", ErrIndex)
			}
			return false, r.errorf(start+1, line[start:pos], "%w: 0 in a file numbered from 1 ({Indices} false)", ErrIndex)
		}
		idx += r.zb // 1-based from here on
		if digits == 0 || digits > 10 || idx < 1 || idx > math.MaxInt32 {
			return false, r.errorf(start+1, line[start:pos], "%w: want an integer in [%d, %d]", ErrIndex, 1-r.zb, math.MaxInt32-r.zb)
		}
		if dim := r.opts.Dim; dim > 0 && idx > dim {
			return false, r.errorf(start+1, line[start:pos], "%w: %d is above the dimension %d", ErrIndex, idx-r.zb, dim)
		}
		if idx <= prev {
			return false, r.errorf(start+1, line[start:pos], "%w (%d after %d)", ErrOrder, idx-r.zb, prev-r.zb)
		}
		if !fast {
			var verr error
			v, verr = parseFloat(line[vstart:pos])
			if verr != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return false, r.errorf(colon+2, line[start:pos], "%w: not a finite number", ErrValue)
			}
		}
		prev = idx
		idxs[k], vals[k] = int32(idx-1), v
		k++
	}
}

func (r *Reader) errorf(col int, tok []byte, format string, args ...any) *ParseError {
	const maxToken = 40 // a binary file's "token" can be megabytes: quote its start
	t := string(tok)
	if len(tok) > maxToken {
		t = string(tok[:maxToken]) + "…"
	}
	return &ParseError{Path: r.path, Line: r.line, Column: col, Token: t, Err: fault.Settingf(format, args...)}
}

// pow10 holds the powers of ten that are exact in float64.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloat parses a decimal number as strconv.ParseFloat does, bit for bit, taking
// parseDecimal's fast path when it applies. The strconv fallback does not copy b (the
// string never outlives the call: strconv's error, which would keep it, is dropped).
func parseFloat(b []byte) (float64, error) {
	if v, ok := parseDecimal(b); ok {
		return v, nil
	}
	if len(b) == 0 {
		return 0, strconv.ErrSyntax
	}
	v, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil {
		return 0, strconv.ErrSyntax
	}
	return v, nil
}

// parseDecimal is the exact fast path of parseFloat (Clinger's): a plain decimal
// [+-]digits[.digits] with at most 15 significant digits and 22 fraction digits is
// m / 10^k with m < 2⁵³ and 10^k both exact in float64, so one IEEE division rounds it
// correctly. ok is false for anything else (exponents, inf, nan, junk, long numbers).
func parseDecimal(b []byte) (v float64, ok bool) {
	i, neg := 0, false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i++
	}
	var m uint64
	digits, sig, frac, dot := 0, 0, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		if c == '.' {
			if dot {
				return 0, false
			}
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		digits++
		if dot {
			frac++
		}
		if m == 0 && c == '0' {
			continue // a leading zero is not significant
		}
		m = m*10 + uint64(c-'0')
		if sig++; sig > 15 {
			return 0, false
		}
	}
	if digits == 0 || frac >= len(pow10) {
		return 0, false
	}
	v = float64(m) / pow10[frac]
	if neg {
		v = -v
	}
	return v, true
}

// scanDecimal is parseDecimal fused with the token scan of the line parser: it parses
// the plain decimal starting at line[p] and returns its value and the index just past
// it. ok is false unless the decimal is one parseDecimal accepts and is followed by a
// separator or the end of the line; then the caller parses the token the slow way.
func scanDecimal(line []byte, p int) (v float64, end int, ok bool) {
	n := len(line)
	neg := false
	if p < n && (line[p] == '-' || line[p] == '+') {
		neg = line[p] == '-'
		p++
	}
	var m uint64
	digits, sig, frac, dot := 0, 0, 0, false
	for ; p < n; p++ {
		c := line[p] - '0'
		if c > 9 {
			if line[p] == '.' && !dot {
				dot = true
				continue
			}
			break
		}
		digits++
		if dot {
			frac++
		}
		if m == 0 && c == 0 {
			continue // a leading zero is not significant
		}
		m = m*10 + uint64(c)
		sig++
	}
	if digits == 0 || sig > 15 || frac >= len(pow10) || p < n && !isSpace(line[p]) {
		return 0, p, false
	}
	v = float64(m)
	if frac > 0 { // x/1 is x: integers, the usual case of binary features, skip the division
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, p, true
}
