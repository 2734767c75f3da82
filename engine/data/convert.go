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
	// Dense is whether the rows were written dense (a cache of dense data).
	Dense bool
}

// Convert reads in (LIBSVM text, a cache, or a table read with opts) and writes it to
// out in OutputFormat(out), atomically. A cache is written with dense rows when at
// least DenseAuto of the values are stored (the layout a dense learner reads in place),
// else with compressed sparse rows. A table written to a table keeps its columns
// (text stays text, numbers numbers, empty cells empty); anything else written to a
// table has a label column and one numeric column per feature, x1 … xD (zero-padded to
// sort in feature order); a table written to LIBSVM text or a cache has its features
// as its schema maps them. With opts.Positive (and not opts.Raw) the labels written are
// the binary ones, +1 for the positive class and -1 for the rest, which the counts
// report; otherwise they are written as read. opts.Context, when set, stops the read
// and the write (checked at every 64 KiB written and before the rename), leaving out
// as it was.
func Convert(in, out string, opts Options) (ConvertStats, error) {
	return ConvertShards(in, out, 1, opts)
}

// ConvertShards is Convert writing the rows of in to n shard files (ShardPaths(out,
// n); n = 1 writes out itself): consecutive runs of rows, the first shards one row
// longer where n does not divide the rows, so that the shards in the order of their
// names are in's rows in order. The same input gives the same shards. Either every
// shard is written or, when anything fails, none is changed (the shards' temporary
// files are renamed only once all are complete).
func ConvertShards(in, out string, n int, opts Options) (ConvertStats, error) {
	var st ConvertStats
	if n < 1 || n > MaxShards {
		return st, fmt.Errorf("convert %s: %d shards: want 1 to %d", in, n, MaxShards)
	}
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
		rows := -1 // one file: no need to count
		if n > 1 {
			var err error
			if rows, err = countTableRows(in); err != nil {
				return st, err
			}
		}
		return copyTableShards(ctx, in, ShardPaths(out, n), format, rows)
	}
	// A cache is written in the layout that trains fastest: dense rows for dense data
	// (Density() ≥ DenseAuto), which the loader parses straight into the matrix, else
	// compressed sparse rows.
	layout := LayoutSparse
	if format == FormatCache {
		layout = LayoutAuto
	}
	d, _, err := ReadInput(ctx, in, opts, ReadConfig{Layout: layout})
	if err != nil {
		return st, err
	}
	if opts.Positive != "" && !opts.Raw {
		d = withBinaryLabels(d)
	}
	if err := WriteDatasetShards(ctx, d, out, n); err != nil {
		return st, fmt.Errorf("convert %s: %w", in, err)
	}
	st.Rows, st.Features, st.Values = d.Rows(), d.Dim, int64(d.Nnz())
	st.Pos, st.Neg = d.Counts()
	st.Dense = format == FormatCache && d.IsDense()
	return st, nil
}

// MaxShards is the most shards ConvertShards writes (they are open together until all
// are complete).
const MaxShards = 1000

// ShardPaths names the n shards of out: out itself for one, else out's name with "-"
// and the shard's number before its extension, zero-padded so that the names sort in
// shard order: train/part.svm in 4 shards is train/part-0.svm … train/part-3.svm (a
// glob 'train/part-*.svm' matches them), in 12 part-00.svm … part-11.svm.
func ShardPaths(out string, n int) []string {
	if n == 1 {
		return []string{out}
	}
	ext := filepath.Ext(out)
	if strings.ContainsAny(ext, `/\`) {
		ext = ""
	}
	stem, width := strings.TrimSuffix(out, ext), len(strconv.Itoa(n-1))
	paths := make([]string, n)
	for s := range paths {
		paths[s] = fmt.Sprintf("%s-%0*d%s", stem, width, s, ext)
	}
	return paths
}

// shardBounds returns the first row of each of n shards of rows rows, and rows: shard
// s is rows [b[s], b[s+1]).
func shardBounds(rows, n int) []int {
	b := make([]int, n+1)
	for s := range b {
		b[s] = s * rows / n
	}
	return b
}

// WriteDatasetShards writes d to out in OutputFormat(out), in n shards as
// ConvertShards does (n = 1: out itself), labels as d holds them.
func WriteDatasetShards(ctx context.Context, d *Dataset, out string, n int) error {
	if n < 1 || n > MaxShards {
		return fmt.Errorf("%d shards: want 1 to %d", n, MaxShards)
	}
	format := OutputFormat(out)
	if (format == FormatCSV || format == FormatTSV || format == FormatParquet) && d.Dim > MaxTableColumns {
		return fmt.Errorf("writing %s: %d features would be %d columns (at most %d)", out, d.Dim, d.Dim, MaxTableColumns)
	}
	bounds := shardBounds(d.Rows(), n)
	return writeAllAtomic(ctx, ShardPaths(out, n), func(s int, w io.Writer) error {
		part := d
		if n > 1 {
			rows := make([]int, 0, bounds[s+1]-bounds[s])
			for i := bounds[s]; i < bounds[s+1]; i++ {
				rows = append(rows, i)
			}
			part = d.Subset(rows)
		}
		switch format {
		case FormatCache:
			return WriteCache(w, part)
		case FormatLibSVM:
			return WriteLibSVM(w, part)
		}
		return writeDatasetTable(w, format, part)
	})
}

// errInnerWrite stands for the error of a later file of writeAllAtomic.
var errInnerWrite = errors.New("a later file failed")

// writeAllAtomic writes the files paths with WriteAtomicContext, file s by write(s,
// w), each one's temporary file kept until the later ones are complete, so that a
// failure anywhere leaves every path as it was. (Only a failing rename, after all were
// written, could leave the later files renamed and the earlier not.)
func writeAllAtomic(ctx context.Context, paths []string, write func(s int, w io.Writer) error) error {
	var inner error
	var chain func(s int) error
	chain = func(s int) error {
		return WriteAtomicContext(ctx, paths[s], func(w io.Writer) error {
			if err := write(s, w); err != nil {
				return err
			}
			if s+1 < len(paths) {
				if err := chain(s + 1); err != nil {
					if inner == nil {
						inner = err
					}
					return errInnerWrite
				}
			}
			return nil
		})
	}
	err := chain(0)
	if inner != nil {
		return inner
	}
	return err
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

// countTableRows counts the rows of the table in (a first pass of a sharded copy).
func countTableRows(in string) (int, error) {
	f, err := openInput(in)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	header, _, next, err := tableCells(f, in)
	if err != nil {
		return 0, err
	}
	cells := make([]Cell, len(header))
	rows := 0
	for {
		err := next(cells)
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return 0, err
		}
		rows++
	}
}

// tableCells opens the cells of the table in f (CSV, TSV or Parquet).
func tableCells(f *os.File, in string) ([]string, []colKind, func([]Cell) error, error) {
	if isParquetFile(in) || TableFormat(in) == FormatParquet {
		return parquetCells(f, in)
	}
	return csvCells(f, in)
}

// copyTableShards copies the table in to paths in format, column by column, rows
// (counted before; -1 for one file) split as ConvertShards says. An error reading in is
// returned as it is, one writing as WriteAtomicContext's.
func copyTableShards(ctx context.Context, in string, paths []string, format string, rows int) (ConvertStats, error) {
	var st ConvertStats
	f, err := openInput(in)
	if err != nil {
		return st, err
	}
	defer f.Close()
	header, kinds, next, err := tableCells(f, in)
	if err != nil {
		return st, err
	}
	cols := make([]TableColumn, len(header))
	for i, h := range header {
		cols[i] = TableColumn{Name: h, Text: kinds[i] == kindString}
	}
	st.Features = len(cols)
	bounds := []int{0, -1}
	if len(paths) > 1 {
		bounds = shardBounds(rows, len(paths))
	}
	var readErr error // the input's, reported as it is, not as the output's write
	cells := make([]Cell, len(cols))
	err = writeAllAtomic(ctx, paths, func(s int, w io.Writer) error {
		tw, err := NewTableWriter(w, format, cols, 0)
		if err != nil {
			return err
		}
		for i := bounds[s]; bounds[s+1] < 0 || i < bounds[s+1]; i++ {
			err := next(cells)
			if errors.Is(err, io.EOF) && bounds[s+1] < 0 {
				break
			}
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("%s: %w: it ended after %d rows, %d were counted before", in, ErrCorrupt, i, rows)
			}
			if err != nil {
				readErr = err
				return err
			}
			st.Rows++
			for _, c := range cells {
				if !c.Null {
					st.Values++
				}
			}
			if err := tw.WriteRow(cells); err != nil {
				return err
			}
		}
		return tw.Close()
	})
	if readErr != nil {
		return st, readErr
	}
	return st, err
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
