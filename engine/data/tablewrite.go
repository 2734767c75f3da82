package data

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/parquet-go/parquet-go"
)

// TableColumn is a column of a table being written.
type TableColumn struct {
	Name string
	Text bool // a string column; else numbers (float64)
}

// Cell is one value of a row being written: Str for a text column, Num for a numeric
// one; Null marks a missing value.
type Cell struct {
	Str  string
	Num  float64
	Null bool
}

// TableWriter writes rows of cells, one per column, to a CSV, TSV or Parquet file.
type TableWriter interface {
	WriteRow(row []Cell) error
	// Close flushes what is buffered (and writes a Parquet file's footer); it does
	// not close the underlying writer.
	Close() error
}

// NewTableWriter returns a writer of format "csv", "tsv" or "parquet" with the given
// columns to w. rowGroup is the number of rows of a Parquet row group (0: 65,536).
func NewTableWriter(w io.Writer, format string, cols []TableColumn, rowGroup int) (TableWriter, error) {
	switch format {
	case "csv", "tsv":
		sep := byte(',')
		if format == "tsv" {
			sep = '\t'
		}
		t := &csvWriter{w: bufio.NewWriterSize(w, 1<<16), sep: sep, cols: cols}
		for i, c := range cols {
			if i > 0 {
				t.w.WriteByte(sep)
			}
			t.text(c.Name)
		}
		t.w.WriteByte('\n')
		return t, nil
	case "parquet":
		return newParquetWriter(w, cols, rowGroup)
	}
	return nil, fmt.Errorf("table format %q: want csv, tsv or parquet", format)
}

type csvWriter struct {
	w    *bufio.Writer
	sep  byte
	cols []TableColumn
	buf  []byte
}

// text writes s, quoted when it holds the separator, a quote or a line break.
func (t *csvWriter) text(s string) {
	if !bytes.ContainsAny([]byte(s), "\"\n\r"+string(t.sep)) {
		t.w.WriteString(s)
		return
	}
	t.w.WriteByte('"')
	for i := range len(s) {
		if s[i] == '"' {
			t.w.WriteByte('"')
		}
		t.w.WriteByte(s[i])
	}
	t.w.WriteByte('"')
}

func (t *csvWriter) WriteRow(row []Cell) error {
	if len(row) != len(t.cols) {
		return fmt.Errorf("table row of %d cells for %d columns", len(row), len(t.cols))
	}
	for i, c := range row {
		if i > 0 {
			t.w.WriteByte(t.sep)
		}
		switch {
		case c.Null:
		case t.cols[i].Text:
			t.text(c.Str)
		default:
			t.buf = strconv.AppendFloat(t.buf[:0], c.Num, 'g', -1, 64)
			t.w.Write(t.buf)
		}
	}
	return t.w.WriteByte('\n')
}

func (t *csvWriter) Close() error { return t.w.Flush() }

type parquetWriter struct {
	w     *parquet.Writer
	cols  []TableColumn
	index []int // leaf column of each of cols
	rows  []parquet.Row
	n     int
}

func newParquetWriter(w io.Writer, cols []TableColumn, rowGroup int) (*parquetWriter, error) {
	if rowGroup <= 0 {
		rowGroup = 1 << 16
	}
	g := parquet.Group{}
	for _, c := range cols {
		if _, dup := g[c.Name]; dup {
			return nil, fmt.Errorf("table column %q named twice", c.Name)
		}
		var n parquet.Node = parquet.Leaf(parquet.DoubleType)
		if c.Text {
			n = parquet.String()
		}
		g[c.Name] = parquet.Optional(n)
	}
	sch := parquet.NewSchema("aucopt", g)
	leaf := map[string]int{}
	for i, path := range sch.Columns() {
		leaf[path[0]] = i
	}
	p := &parquetWriter{cols: cols, rows: make([]parquet.Row, 0, 256)}
	for _, c := range cols {
		p.index = append(p.index, leaf[c.Name])
	}
	p.w = parquet.NewWriter(w, sch, parquet.Compression(&parquet.Snappy), parquet.MaxRowsPerRowGroup(int64(rowGroup)))
	return p, nil
}

func (p *parquetWriter) WriteRow(row []Cell) error {
	if len(row) != len(p.cols) {
		return fmt.Errorf("table row of %d cells for %d columns", len(row), len(p.cols))
	}
	r := make(parquet.Row, len(row))
	for i, c := range row {
		var v parquet.Value
		switch {
		case c.Null:
			v = parquet.NullValue().Level(0, 0, p.index[i])
		case p.cols[i].Text:
			v = parquet.ByteArrayValue([]byte(c.Str)).Level(0, 1, p.index[i])
		default:
			if math.IsNaN(c.Num) || math.IsInf(c.Num, 0) {
				return fmt.Errorf("column %q: %v is not finite", p.cols[i].Name, c.Num)
			}
			v = parquet.DoubleValue(c.Num).Level(0, 1, p.index[i])
		}
		r[p.index[i]] = v
	}
	p.rows = append(p.rows, r)
	if len(p.rows) == cap(p.rows) {
		return p.flush()
	}
	return nil
}

func (p *parquetWriter) flush() error {
	_, err := p.w.WriteRows(p.rows)
	p.rows = p.rows[:0]
	return err
}

func (p *parquetWriter) Close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.w.Close()
}
