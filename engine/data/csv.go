package data

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
)

// CSV and TSV tables, told by their names (or on a stream by a header line:
// streamTable).
func init() {
	RegisterFormat(Format{Name: FormatCSV, Extensions: []string{".csv"}, Table: true, rows: csvRows(',')})
	RegisterFormat(Format{Name: FormatTSV, Extensions: []string{".tsv", ".tab"}, Table: true, rows: csvRows('\t')})
}

// csvRows returns the function that opens the rows of a table whose cells sep
// separates, for a Reader: the kinds of its columns from the whole file first (read
// anew, or a stream held for it), unless a schema says them.
func csvRows(sep byte) func(rd *Reader, path string, opts Options) (tableSource, error) {
	return func(rd *Reader, path string, opts Options) (tableSource, error) {
		var kinds []colKind
		var why []string
		if opts.Table == nil || opts.Table.Schema == nil {
			ctx := opts.Context
			if ctx == nil {
				ctx = context.Background()
			}
			var err error
			if rd.reopen != nil {
				kinds, why, err = csvKindsOf(ctx, rd.reopen, path, sep)
			} else {
				// A stream cannot be read twice for its columns' kinds: it is held.
				var b []byte
				if b, err = io.ReadAll(rd.br); err != nil {
					return nil, rd.ioError(err)
				}
				rd.br = bufio.NewReaderSize(bytes.NewReader(b), 1<<16)
				kinds, why, err = csvKinds(ctx, bufio.NewReaderSize(bytes.NewReader(b), 1<<16), path, sep)
			}
			if err != nil {
				return nil, err
			}
		}
		return newCSVSource(rd.br, path, sep, opts, kinds, why)
	}
}

// csvSource streams the rows of a CSV or TSV table (RFC 4180 quoting; the first record
// is the header). The kinds of its columns come from the whole file (csvKinds), read
// before: a column is numeric unless more than 1 % of its values are not numbers, and
// a non-number in a numeric column is an error naming its line and column wherever it
// is (--categorical makes a column categorical whatever its values).
type csvSource struct {
	br     *bufio.Reader
	path   string
	sep    byte
	line   int // lines read
	start  int // first line of the current record
	header []string
	kinds  []colKind
	b      *rowBuilder
	sch    *Schema
	fields [][]byte
	long   []byte // a line longer than the buffer, assembled
	quoted []byte // the unquoted cells of a record with quotes
	offs   []int
	notes  []string // what the user should know of the columns' kinds (csvKinds)
	body   int      // the lines before the first row: the header's, blank ones before it
}

// newCSVSource reads the header from br and resolves the schema under o with the
// columns' kinds (csvKinds of the same text). With a schema (o.Table.Schema) kinds is
// nil: its numeric columns are checked cell by cell as they are read.
//
// why is csvKinds' notes on the columns; those of the columns the schema hashes as
// categories without the user's saying so become the source's notes.
func newCSVSource(br *bufio.Reader, path string, sep byte, o Options, kinds []colKind, why []string) (*csvSource, error) {
	s := &csvSource{br: br, path: path, sep: sep}
	if err := s.readHeader(); err != nil {
		return nil, err
	}
	s.body = s.line
	kinds = append(kinds, make([]colKind, max(0, len(s.header)-len(kinds)))...)[:len(s.header)]
	s.kinds = kinds
	sch, err := resolveSchema(path, s.header, kinds, func(i int) string {
		if kinds[i] == kindString {
			return "text"
		}
		return "numbers"
	}, o)
	if err != nil {
		return nil, err
	}
	s.sch = sch
	s.b = newRowBuilder(path, s.header, sch, o)
	for i, w := range why {
		if w != "" && slices.Contains(sch.Categorical, s.header[i]) && (o.Table == nil || !slices.Contains(o.Table.Categorical, s.header[i])) {
			s.notes = append(s.notes, w)
		}
	}
	return s, nil
}

// readHeader reads the header record.
func (s *csvSource) readHeader() error {
	hdr, err := s.record()
	if err == io.EOF {
		return &ParseError{Path: s.path, Line: 1, Err: fmt.Errorf("%w: empty file, want a header row", ErrColumn)}
	}
	if err != nil {
		return err
	}
	for _, h := range hdr {
		s.header = append(s.header, string(bytes.TrimSpace(h)))
	}
	s.header[0] = strings.TrimPrefix(s.header[0], "\ufeff") // a byte-order mark
	return nil
}

// csvKinds reads the table text of br whole (the header first) and returns the kind
// of each column by all its values: numeric, unless more than one in a hundred of its
// non-empty cells are not decimal numbers (then text, hashed as categories). A column
// of numbers with a typo stays numeric, and the parse reports the typo at its line
// and column; a column of identifiers, some of which are all digits, is categorical.
// ctx is checked every few thousand records.
//
// A column made categorical though most of its values are numbers (a small table with
// a typo, say) is not left silent: its entry in why says so, for the reader's notes
// (Reader.Notes); the other entries are "".
func csvKinds(ctx context.Context, br *bufio.Reader, path string, sep byte) (kinds []colKind, why []string, err error) {
	s := &csvSource{br: br, path: path, sep: sep}
	if err := s.readHeader(); err != nil {
		return nil, nil, err
	}
	return kindsOfRows(ctx, s)
}

// kindsOfRows is csvKinds of the records s has not read, after its header.
func kindsOfRows(ctx context.Context, s *csvSource) (kinds []colKind, why []string, err error) {
	c := newKindCounts(len(s.header))
	if err := c.count(ctx, s); err != nil {
		return nil, nil, err
	}
	kinds, why = c.decide(s.path, s.header)
	return kinds, why, nil
}

// kindCounts counts, for each column of a table, its cells that are numbers and those
// that are not, with the first of the latter.
type kindCounts struct {
	num, text []int64
	firstLine []int
	first     []string
}

func newKindCounts(n int) *kindCounts {
	return &kindCounts{num: make([]int64, n), text: make([]int64, n), firstLine: make([]int, n), first: make([]string, n)}
}

// count counts the cells of s's remaining records, checking ctx every few thousand.
func (c *kindCounts) count(ctx context.Context, s *csvSource) error {
	n := len(c.num)
	for r := 0; ; r++ {
		if r%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("%s: reading stopped: %w", s.path, err)
			}
		}
		rec, err := s.record()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		for i, cell := range rec[:min(len(rec), n)] {
			if cell = trimSpace(cell); len(cell) == 0 {
				continue
			}
			if _, ok := numberSyntax(cell); ok {
				c.num[i]++
			} else {
				if c.text[i]++; c.text[i] == 1 {
					c.firstLine[i], c.first[i] = s.start, string(cell[:min(len(cell), 40)])
				}
			}
		}
	}
}

// add adds the counts of the records that follow c's.
func (c *kindCounts) add(later *kindCounts) {
	for i := range c.num {
		if c.text[i] == 0 && later.text[i] > 0 {
			c.firstLine[i], c.first[i] = later.firstLine[i], later.first[i]
		}
		c.num[i] += later.num[i]
		c.text[i] += later.text[i]
	}
}

// decide returns each column's kind by its counts, and the notes on columns made
// categorical though most of their values are numbers.
func (c *kindCounts) decide(path string, header []string) (kinds []colKind, why []string) {
	kinds, why = make([]colKind, len(c.num)), make([]string, len(c.num))
	for i := range kinds {
		text, num := c.text[i], c.num[i]
		if 100*text > text+num {
			kinds[i] = kindString
			if num > text {
				why[i] = fmt.Sprintf("%s: column %q is read as categories, since %d of its %d values are not numbers (the first at line %d: %q); "+
					"naming it a categorical column says so, or correct them to keep it numeric", path, header[i], text, text+num, c.firstLine[i], c.first[i])
			}
		}
	}
	return kinds, why
}

// csvKindsOf is csvKinds of the table that open opens anew (decompressed when it is).
// A large plain file is counted in parts on every core (csvKindsParts).
func csvKindsOf(ctx context.Context, open func() (*os.File, error), path string, sep byte) ([]colKind, []string, error) {
	f, err := open()
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	dec, err := decompressor(br, path)
	if err != nil {
		return nil, nil, err
	}
	if dec != nil {
		return csvKinds(ctx, bufio.NewReaderSize(dec, 1<<16), path, sep)
	}
	s := &csvSource{br: br, path: path, sep: sep}
	if err := s.readHeader(); err != nil {
		return nil, nil, err
	}
	if kinds, why, ok, err := csvKindsParts(ctx, f, s, runtime.GOMAXPROCS(0), csvChunkMin); ok || err != nil {
		return kinds, why, err
	}
	return kindsOfRows(ctx, s)
}

// nextRecord returns the next record.
func (s *csvSource) nextRecord() ([][]byte, error) { return s.record() }

func (s *csvSource) schema() *Schema { return s.sch }
func (s *csvSource) close() error    { return nil }

// trimSpace drops leading and trailing blanks, cheaply when there are none.
func trimSpace(c []byte) []byte {
	if len(c) > 0 && (c[0] == ' ' || c[len(c)-1] == ' ' || c[0] == '\t' || c[len(c)-1] == '\t') {
		return bytes.TrimSpace(c)
	}
	return c
}

// next returns the next row.
func (s *csvSource) next() (*Example, error) {
	b := s.b
	for {
		fields, err := s.nextRecord()
		if err != nil {
			return nil, err
		}
		if len(fields) != len(s.header) {
			return nil, &ParseError{Path: s.path, Line: s.start, Column: min(len(fields), len(s.header)) + 1,
				Err: fmt.Errorf("%w: %d fields, the header has %d", ErrRagged, len(fields), len(s.header))}
		}
		b.start(s.start)
		skip := false
		for i, cell := range fields {
			if b.keep != nil {
				b.keepCell(i, trimSpace(cell))
			}
			if b.role[i] == roleIgnore {
				continue
			}
			var err error
			if cell = trimSpace(cell); len(cell) == 0 {
				var skipRow bool
				skipRow, err = b.missing(s.start, i+1)
				skip = skip || skipRow
			} else {
				err = b.cell(s.start, i+1, cell, 0, false)
			}
			if err != nil {
				return nil, err
			}
		}
		if !skip {
			return b.finish(), nil
		}
		b.skipped()
	}
}

// readLine returns the next line without its end of line; the slice is valid until the
// next call.
func (s *csvSource) readLine() ([]byte, error) {
	s.line++
	line, err := s.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		s.long = append(s.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = s.br.ReadSlice('\n')
			s.long = append(s.long, line...)
			if len(s.long) > MaxLineBytes {
				return nil, &ParseError{Path: s.path, Line: s.line, Column: MaxLineBytes + 1, Err: fmt.Errorf("%w: over %d bytes", ErrLineTooLong, MaxLineBytes)}
			}
		}
		line = s.long
	}
	for len(line) > 0 && (line[len(line)-1] == '\n' || line[len(line)-1] == '\r') {
		line = line[:len(line)-1]
	}
	return line, err
}

// record returns the next non-blank record's cells, valid until the next call.
func (s *csvSource) record() ([][]byte, error) {
	for {
		line, err := s.readLine()
		if len(line) == 0 {
			if err == io.EOF {
				return nil, io.EOF
			}
			if err != nil {
				return nil, s.ioError(err)
			}
			continue // a blank line
		}
		if err != nil && err != io.EOF {
			return nil, s.ioError(err)
		}
		s.start = s.line
		if bytes.IndexByte(line, '"') < 0 {
			f := s.fields[:0]
			for {
				i := bytes.IndexByte(line, s.sep)
				if i < 0 {
					break
				}
				f = append(f, line[:i:i])
				line = line[i+1:]
			}
			s.fields = append(f, line)
			return s.fields, nil
		}
		return s.quotedRecord(line)
	}
}

// quotedRecord splits a record with quotes (RFC 4180: a quoted cell may hold the
// separator, doubled quotes and line breaks).
func (s *csvSource) quotedRecord(line []byte) ([][]byte, error) {
	s.quoted, s.offs = s.quoted[:0], s.offs[:0]
	inQuote, cellStart := false, true
	for {
		for i := 0; i < len(line); i++ {
			c := line[i]
			switch {
			case inQuote && c == '"' && i+1 < len(line) && line[i+1] == '"':
				s.quoted = append(s.quoted, '"')
				i++
			case inQuote && c == '"':
				inQuote = false
			case inQuote:
				s.quoted = append(s.quoted, c)
			case c == '"' && cellStart:
				inQuote = true
				cellStart = false
			case c == s.sep:
				s.offs = append(s.offs, len(s.quoted))
				cellStart = true
			case c == '"':
				return nil, &ParseError{Path: s.path, Line: s.line, Column: len(s.offs) + 1, Err: fmt.Errorf("%w: a quote inside an unquoted cell", ErrFeature)}
			default:
				s.quoted = append(s.quoted, c)
				cellStart = false
			}
		}
		if !inQuote {
			break
		}
		next, err := s.readLine()
		if len(next) == 0 && err != nil {
			return nil, &ParseError{Path: s.path, Line: s.start, Column: len(s.offs) + 1, Err: fmt.Errorf("%w: a quoted cell is not closed", ErrFeature)}
		}
		s.quoted = append(s.quoted, '\n')
		line = next
	}
	s.offs = append(s.offs, len(s.quoted))
	f, lo := s.fields[:0], 0
	for _, hi := range s.offs {
		f = append(f, s.quoted[lo:hi:hi])
		lo = hi
	}
	s.fields = f
	return f, nil
}

func (s *csvSource) ioError(err error) error {
	if pe := (*ParseError)(nil); errors.As(err, &pe) {
		return err // a line too long: it names its place
	}
	if err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%s:%d: truncated file: %w", s.path, s.line, err)
	}
	return fmt.Errorf("%s: after line %d: %w", s.path, s.line, err)
}
