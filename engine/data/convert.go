package data

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The output formats of Convert.
const (
	FormatCache   = "cache"
	FormatLibSVM  = "libsvm"
	FormatCSV     = "csv"
	FormatTSV     = "tsv"
	FormatParquet = "parquet"
)

// OutputFormat is the format Convert writes to path, by its extension: .csv, .tsv,
// .parquet for tables, .svm, .libsvm or .svmlight for LIBSVM text, anything else the
// binary cache.
func OutputFormat(path string) string {
	if f := TableFormat(path); f != "" {
		switch strings.ToLower(filepath.Ext(path)) {
		case ".csv", ".tsv", ".tab", ".parquet", ".pq":
			return f
		}
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svm", ".libsvm", ".svmlight":
		return FormatLibSVM
	}
	return FormatCache
}

// MaxTableColumns is the most feature columns Convert writes a LIBSVM file or cache to
// a table with: one column per feature, which suits tabular data, not text.
const MaxTableColumns = 10_000

// ConvertStats is what Convert read.
type ConvertStats struct {
	Rows, Features int
	Values         int64
	Pos, Neg       int
}

// Convert reads in (LIBSVM text, a cache, or a table read with opts) and writes it to
// out in OutputFormat(out), atomically. A table written to a table keeps its columns
// (text stays text, numbers numbers, empty cells empty); anything else written to a
// table has a label column and one numeric column per feature, x1 … xD (zero-padded to
// sort in feature order); a table written to LIBSVM text or a cache has its features
// as its schema maps them. With opts.Positive (and not opts.Raw) the labels written are
// the binary ones, +1 for the positive class and -1 for the rest, which the counts
// report; otherwise they are written as read. opts.Context, when set, stops the read
// and the write (checked at every 64 KiB written and before the rename), leaving out
// as it was.
func Convert(in, out string, opts Options) (ConvertStats, error) {
	var st ConvertStats
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	format := OutputFormat(out)
	inTable := TableFormat(in) != "" || isParquetFile(in)
	if inTable && (format == FormatCSV || format == FormatTSV || format == FormatParquet) {
		if !opts.Table.IsZero() || opts.Positive != "" {
			return st, fmt.Errorf("convert %s to %s: a table copied to a table keeps its columns: the table options do not apply", in, out)
		}
		var readErr error // the input's, reported as it is, not as the output's write
		err := WriteAtomicContext(ctx, out, func(w io.Writer) error {
			var err error
			st, readErr, err = copyTable(in, w, format)
			if readErr != nil {
				return readErr
			}
			return err
		})
		if readErr != nil {
			return st, readErr
		}
		return st, err
	}
	d, _, err := ReadTableFile(in, opts)
	if err != nil {
		return st, err
	}
	if opts.Positive != "" && !opts.Raw {
		d = withBinaryLabels(d)
	}
	st.Rows, st.Features, st.Values = d.Rows(), d.Dim, int64(d.Nnz())
	st.Pos, st.Neg = d.Counts()
	var write func(io.Writer) error
	switch format {
	case FormatCache:
		write = func(w io.Writer) error { return WriteCache(w, d) }
	case FormatLibSVM:
		write = func(w io.Writer) error { return WriteLibSVM(w, d) }
	default:
		if d.Dim > MaxTableColumns {
			return st, fmt.Errorf("convert %s to %s: %d features would be %d columns (at most %d)", in, out, d.Dim, d.Dim, MaxTableColumns)
		}
		write = func(w io.Writer) error { return writeDatasetTable(w, format, d) }
	}
	return st, WriteAtomicContext(ctx, out, write)
}

// withBinaryLabels returns d (a shallow copy) with its labels as its classes, +1 and
// -1: what a --positive read made of them, written so that a reader of the output sees
// the same classes without the flag.
func withBinaryLabels(d *Dataset) *Dataset {
	c := *d
	c.Labels = make([]float64, len(d.Y))
	for i, y := range d.Y {
		c.Labels[i] = float64(y)
	}
	return &c
}

// WriteLibSVM writes d as LIBSVM text: the label as read, then index:value for each
// stored value (1-based indices), numbers in the shortest form that reads back exactly.
func WriteLibSVM(w io.Writer, d *Dataset) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	for i := range d.Rows() {
		buf = strconv.AppendFloat(buf[:0], d.Labels[i], 'g', -1, 64)
		r := d.Row(i)
		for k, j := range r.Idx {
			if r.Val[k] == 0 && d.IsDense() {
				continue
			}
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j)+1, 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, r.Val[k], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeDatasetTable writes d as a table: "label", then x1 … xDim.
func writeDatasetTable(w io.Writer, format string, d *Dataset) error {
	cols := []TableColumn{{Name: DefaultLabel}}
	width := len(strconv.Itoa(d.Dim))
	for j := range d.Dim {
		cols = append(cols, TableColumn{Name: fmt.Sprintf("x%0*d", width, j+1)})
	}
	tw, err := NewTableWriter(w, format, cols, 0)
	if err != nil {
		return err
	}
	cells := make([]Cell, len(cols))
	for i := range d.Rows() {
		clear(cells)
		cells[0].Num = d.Labels[i]
		r := d.Row(i)
		for k, j := range r.Idx {
			cells[j+1].Num = r.Val[k]
		}
		if err := tw.WriteRow(cells); err != nil {
			return err
		}
	}
	return tw.Close()
}

// copyTable copies the table in to w in format, column by column. readErr is an error
// reading in, err one writing w.
func copyTable(in string, w io.Writer, format string) (st ConvertStats, readErr, err error) {
	f, err := openInput(in)
	if err != nil {
		return st, err, nil
	}
	defer f.Close()
	var (
		header []string
		kinds  []colKind
		next   func(cells []Cell) error
	)
	if isParquetFile(in) || TableFormat(in) == FormatParquet {
		header, kinds, next, err = parquetCells(f, in)
	} else {
		header, kinds, next, err = csvCells(f, in)
	}
	if err != nil {
		return st, err, nil
	}
	cols := make([]TableColumn, len(header))
	for i, h := range header {
		cols[i] = TableColumn{Name: h, Text: kinds[i] == kindString}
	}
	tw, err := NewTableWriter(w, format, cols, 0)
	if err != nil {
		return st, nil, err
	}
	cells := make([]Cell, len(cols))
	for {
		err := next(cells)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return st, err, nil
		}
		st.Rows++
		for _, c := range cells {
			if !c.Null {
				st.Values++
			}
		}
		if err := tw.WriteRow(cells); err != nil {
			return st, nil, err
		}
	}
	st.Features = len(cols)
	return st, nil, tw.Close()
}

// csvCells reads a CSV or TSV file's cells, the kinds of its columns taken from its
// first row.
func csvCells(f *os.File, path string) ([]string, []colKind, func([]Cell) error, error) {
	s, err := rawCSV(f, path)
	if err != nil {
		return nil, nil, nil, err
	}
	next := func(cells []Cell) error {
		fields, err := s.nextRecord()
		if err != nil {
			return err
		}
		if len(fields) != len(s.header) {
			return &ParseError{Path: path, Line: s.start, Column: min(len(fields), len(s.header)) + 1,
				Err: fmt.Errorf("%w: %d fields, the header has %d", ErrRagged, len(fields), len(s.header))}
		}
		for i, c := range fields {
			c = trimSpace(c)
			switch {
			case len(c) == 0:
				cells[i] = Cell{Null: true}
			case s.kinds[i] == kindString:
				cells[i] = Cell{Str: string(c)}
			default:
				v, err := parseFloat(c)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return &ParseError{Path: path, Line: s.start, Column: i + 1, Token: string(c),
						Err: fmt.Errorf("column %q: %w: not a finite number in a numeric column", s.header[i], ErrValue)}
				}
				cells[i] = Cell{Num: v}
			}
		}
		return nil
	}
	return s.header, s.kinds, next, nil
}

// rawCSV opens a CSV or TSV file for its cells only.
func rawCSV(f *os.File, path string) (*csvSource, error) {
	rd, err := NewReader(f, "", Options{}) // decompression only: no table name, no schema
	if err != nil {
		return nil, err
	}
	sep := byte(',')
	if TableFormat(path) == "tsv" {
		sep = '\t'
	}
	if IsStream(path) {
		return nil, fmt.Errorf("%s: a table is copied to a table from a file, which is read twice (the kinds of its columns, then its cells), not from a stream", path)
	}
	kinds, _, err := csvKindsOf(context.Background(), func() (*os.File, error) { return openInput(path) }, path, sep)
	if err != nil {
		return nil, err
	}
	s := &csvSource{br: rd.br, path: path, sep: sep}
	if err := s.readHeader(); err != nil {
		return nil, err
	}
	s.kinds = append(kinds, make([]colKind, max(0, len(s.header)-len(kinds)))...)[:len(s.header)]
	return s, nil
}

// parquetCells reads a Parquet file's cells.
func parquetCells(f *os.File, path string) ([]string, []colKind, func([]Cell) error, error) {
	// Columns of any name: a schema with a placeholder label is not needed, read raw.
	s, err := rawParquet(f, path)
	if err != nil {
		return nil, nil, nil, err
	}
	for i, k := range s.kinds {
		if k == kindOther {
			return nil, nil, nil, &ParseError{Path: path, Column: i + 1, Err: fmt.Errorf("%w: column %q is %s", ErrColumnType, s.header[i], s.types[i])}
		}
	}
	next := func(cells []Cell) error {
		for s.i >= s.n {
			if err := s.fill(); err != nil {
				return err
			}
		}
		row := s.buf[s.i]
		s.i++
		s.row++
		clear(cells)
		for _, v := range row {
			c := v.Column()
			switch {
			case c < 0 || c >= len(cells):
			case v.IsNull():
				cells[c] = Cell{Null: true}
			case s.kinds[c] == kindString:
				cells[c] = Cell{Str: string(s.valueText(v))}
			default:
				num, _ := valueNumber(v)
				cells[c] = Cell{Num: num}
			}
		}
		return nil
	}
	return s.header, s.kinds, next, nil
}
