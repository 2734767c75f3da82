package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// csvSample is the number of data rows from which a CSV file's column kinds are taken.
const csvSample = 100

// csvSource streams the rows of a CSV or TSV table (RFC 4180 quoting; the first record
// is the header). A column's kind is taken from its values in the first csvSample data
// rows: all numbers (or empty) make it numeric, anything else categorical; a later
// non-number in a numeric column is an error that suggests --categorical.
// The sampled rows are kept (copied) and returned first.
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
	sample [][][]byte // the sampled rows' cells, not yet returned
	lines  []int      // their first lines
}

func newCSVSource(br *bufio.Reader, path string, sep byte, o Options) (*csvSource, error) {
	s := &csvSource{br: br, path: path, sep: sep}
	if err := s.readHeader(); err != nil {
		return nil, err
	}
	kinds := s.kinds
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
	return s, nil
}

// readHeader reads the header and the first data row, from which it takes the kinds
// of the columns.
func (s *csvSource) readHeader() error {
	path := s.path
	hdr, err := s.record()
	if err == io.EOF {
		return &ParseError{Path: path, Line: 1, Err: fmt.Errorf("%w: empty file, want a header row", ErrColumn)}
	}
	if err != nil {
		return err
	}
	for _, h := range hdr {
		s.header = append(s.header, string(bytes.TrimSpace(h)))
	}
	s.header[0] = string(bytes.TrimPrefix([]byte(s.header[0]), []byte("\ufeff"))) // a byte-order mark
	kinds := make([]colKind, len(s.header))
	s.kinds = kinds
	for range csvSample {
		rec, err := s.record()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		cp := make([][]byte, len(rec))
		for i, c := range rec {
			cp[i] = bytes.Clone(c)
			if c = trimSpace(c); i < len(kinds) && len(c) > 0 && kinds[i] == kindNumber {
				if _, perr := parseFloat(c); perr != nil {
					kinds[i] = kindString
				}
			}
		}
		s.sample, s.lines = append(s.sample, cp), append(s.lines, s.start)
	}
	return nil
}

// nextRecord returns the next record: a sampled one first.
func (s *csvSource) nextRecord() ([][]byte, error) {
	if len(s.sample) > 0 {
		rec := s.sample[0]
		s.start = s.lines[0]
		s.sample, s.lines = s.sample[1:], s.lines[1:]
		return rec, nil
	}
	return s.record()
}

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
				return nil, &ParseError{Path: s.path, Line: s.line, Err: fmt.Errorf("%w: over %d bytes", ErrLineTooLong, MaxLineBytes)}
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
	if err == io.ErrUnexpectedEOF {
		return fmt.Errorf("%s:%d: truncated file: %w", s.path, s.line, err)
	}
	return fmt.Errorf("%s: after line %d: %w", s.path, s.line, err)
}
