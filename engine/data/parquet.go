package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"
)

// Parquet tables, told by magic bytes or name, read by offsets from a file.
func init() {
	RegisterFormat(Format{Name: FormatParquet, Extensions: []string{".parquet", ".pq"}, Magic: parquetMagic, Table: true, FileOnly: true,
		fileRows: func(f *os.File, path string, o Options) (tableSource, error) {
			s, err := openParquet(f, path, o)
			if err != nil {
				return nil, err
			}
			return s, nil
		}})
}

// parquetMagic starts (and ends) every Parquet file.
var parquetMagic = []byte("PAR1")

// parquetBatch is the number of rows read from a row group at a time: memory stays that
// of one batch and of the pages it spans, whatever the size of the file or its row groups.
const parquetBatch = 1024

// parquetSource streams the rows of a Parquet file, row group by row group, a batch of
// rows at a time. Its columns must be flat (no nesting or repetition) of a boolean,
// integer, floating-point or string (byte array) type; for errors, a row is numbered
// from 1 over the whole file and stands in the line's place.
type parquetSource struct {
	f      *parquet.File
	path   string
	header []string
	kinds  []colKind
	types  []string
	b      *rowBuilder
	sch    *Schema
	groups []parquet.RowGroup
	group  int
	rows   parquet.Rows
	buf    []parquet.Row
	n, i   int // rows in buf, the next one
	row    int // rows returned
	text   []byte
	eof    bool
}

// isParquetFile reports whether path starts with the Parquet magic bytes.
func isParquetFile(path string) bool {
	if IsStream(path) {
		return false // a stream's bytes are read once, by its reader
	}
	f, err := openInput(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(parquetMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, parquetMagic)
}

// openParquet opens f as a Parquet table (Open calls it for a file that starts with
// the Parquet magic bytes or is named as one: rawParquet then says what it is not).
func openParquet(f *os.File, path string, o Options) (*parquetSource, error) {
	if o.Dim > 0 {
		return nil, fault.Settingf("%s: a table's dimension follows from its columns and {HashBits}: {Dim} does not apply", path)
	}
	s, err := rawParquet(f, path)
	if err != nil {
		return nil, err
	}
	types := s.types
	sch, err := resolveSchema(path, s.header, s.kinds, func(i int) string { return types[i] }, o)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			pe.Line = 0 // a Parquet file has no header line
		}
		return nil, err
	}
	s.sch = sch
	s.b = newRowBuilder(path, s.header, sch, o)
	return s, nil
}

// rawParquet opens a Parquet file and reads its columns' names and kinds. A file that
// is empty, does not start with the magic bytes, or whose footer cannot be read is an
// error naming it (ErrEmpty, ErrCorrupt), not one of its columns.
func rawParquet(f *os.File, path string) (*parquetSource, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	head := make([]byte, len(parquetMagic))
	n, _ := f.ReadAt(head, 0)
	switch {
	case st.Size() == 0:
		return nil, fmt.Errorf("%s: %w: an empty file, not a Parquet table", path, ErrEmpty)
	case !bytes.Equal(head[:n], parquetMagic):
		return nil, &ParseError{Path: path, Err: fmt.Errorf("%w: not a Parquet file (it does not start with the magic bytes PAR1)", ErrCorrupt)}
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, &ParseError{Path: path, Err: fmt.Errorf("%w: a Parquet file whose footer cannot be read (%v)", ErrCorrupt, err)}
	}
	s := &parquetSource{f: pf, path: path, groups: pf.RowGroups(), buf: make([]parquet.Row, parquetBatch)}
	fields := pf.Schema().Fields()
	s.kinds, s.types = make([]colKind, len(fields)), make([]string, len(fields))
	for i, fd := range fields {
		s.header = append(s.header, fd.Name())
		s.kinds[i], s.types[i] = parquetKind(fd)
	}
	return s, nil
}

// parquetKind classifies a top-level field and names its type.
func parquetKind(fd parquet.Field) (colKind, string) {
	if !fd.Leaf() {
		return kindOther, "a nested group"
	}
	t := fd.Type()
	name := t.String()
	if fd.Repeated() {
		return kindOther, "a repeated " + name
	}
	lt := t.LogicalType()
	if lt != nil && lt.Value != nil {
		switch lt.Value.(type) {
		case *format.StringType, *format.EnumType, *format.IntType, *format.DateType, *format.TimeType, *format.TimestampType:
		default:
			return kindOther, name
		}
	}
	switch t.Kind() {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		return kindNumber, name
	case parquet.ByteArray:
		return kindString, name
	}
	return kindOther, name
}

func (s *parquetSource) schema() *Schema { return s.sch }

// sizeHint bounds the rows (the file's metadata) and the stored values: one per
// feature column and row (a numeric value or a category's bucket), for readAllContext.
func (s *parquetSource) sizeHint() (rows int, nnz int64) {
	n := s.f.NumRows()
	return int(n), n * int64(len(s.sch.Numeric)+len(s.sch.Categorical))
}

func (s *parquetSource) close() error {
	if s.rows != nil {
		return s.rows.Close()
	}
	return nil
}

// next returns the next row.
func (s *parquetSource) next() (*Example, error) {
	b := s.b
	for {
		for s.i >= s.n {
			if err := s.fill(); err != nil {
				return nil, err
			}
		}
		row := s.buf[s.i]
		s.i++
		s.row++
		b.start(s.row)
		skip := false
		for _, v := range row {
			c := v.Column()
			if c < 0 || c >= len(b.role) {
				continue
			}
			if b.keep != nil && b.keep[c] >= 0 && !v.IsNull() {
				b.keepCell(c, s.valueText(v))
			}
			role := b.role[c]
			if role == roleIgnore {
				continue
			}
			var err error
			switch num, isNum := valueNumber(v); {
			case v.IsNull():
				var skipRow bool
				skipRow, err = b.missing(s.row, c+1)
				skip = skip || skipRow
			case role == roleNumeric && isNum:
				err = b.cell(s.row, c+1, nil, num, true) // no text needed
			default:
				err = b.cell(s.row, c+1, s.valueText(v), num, isNum)
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

// fill reads the next batch of rows, moving on to the next row group at the end of one.
func (s *parquetSource) fill() error {
	if s.eof {
		return io.EOF
	}
	for {
		if s.rows == nil {
			if s.group >= len(s.groups) {
				s.eof = true
				return io.EOF
			}
			s.rows = s.groups[s.group].Rows()
			s.group++
		}
		n, err := s.rows.ReadRows(s.buf)
		s.n, s.i = n, 0
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: row group %d, after row %d: %w", s.path, s.group, s.row, err)
		}
		if err == io.EOF || n == 0 {
			if cerr := s.rows.Close(); cerr != nil {
				return fmt.Errorf("%s: row group %d: %w", s.path, s.group, cerr)
			}
			s.rows = nil
		}
		if n > 0 {
			return nil
		}
	}
}

// valueNumber is v as a number, if it is one.
func valueNumber(v parquet.Value) (float64, bool) {
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return 1, true
		}
		return 0, true
	case parquet.Int32:
		return float64(v.Int32()), true
	case parquet.Int64:
		return float64(v.Int64()), true
	case parquet.Float:
		return float64(v.Float()), true
	case parquet.Double:
		return v.Double(), true
	}
	return 0, false
}

// valueText is v as the text a CSV file would hold, for hashing a category and for
// errors: numbers in Go's shortest form, booleans as true/false.
func (s *parquetSource) valueText(v parquet.Value) []byte {
	t := s.text[:0]
	switch v.Kind() {
	case parquet.ByteArray, parquet.FixedLenByteArray:
		return v.ByteArray()
	case parquet.Boolean:
		t = strconv.AppendBool(t, v.Boolean())
	case parquet.Int32:
		t = strconv.AppendInt(t, int64(v.Int32()), 10)
	case parquet.Int64:
		t = strconv.AppendInt(t, v.Int64(), 10)
	case parquet.Float:
		t = strconv.AppendFloat(t, float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		t = strconv.AppendFloat(t, v.Double(), 'g', -1, 64)
	}
	s.text = t
	return t
}

// IsParquet reports whether the file at path is a Parquet file (by its magic bytes).
func IsParquet(path string) bool { return isParquetFile(path) }
