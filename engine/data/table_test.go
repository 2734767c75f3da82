package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// numericDataset is a small dense dataset with values of every shape the parsers
// take (integers, decimals, exponents, negatives, zeros).
func numericDataset(rows, dim int) *Dataset {
	s := &LinearStream{Rows: rows, Dim: dim, PosFrac: 0.3, Noise: 1, Seed: 3}
	d := &Dataset{Name: "num", Ptr: []int64{0}}
	for {
		ex, err := s.Next()
		if err == io.EOF {
			break
		}
		x := ex.X
		x.Val = slices.Clone(x.Val)
		for k := range x.Val {
			switch k % 4 {
			case 1:
				x.Val[k] = float64(int(x.Val[k] * 10)) // integers, some 0
			case 2:
				x.Val[k] *= 1e-7 // exponents
			}
		}
		sp := Dataset{Ptr: []int64{0}}
		var keep []int32
		var vals []float64
		for k, j := range x.Idx {
			if x.Val[k] != 0 {
				keep, vals = append(keep, j), append(vals, x.Val[k])
			}
		}
		_ = sp
		x.Idx, x.Val = keep, vals
		d.Append(ex.Y, ex.Label, x)
	}
	d.Dim = dim
	return d
}

func sameData(t *testing.T, what string, a, b *Dataset) {
	t.Helper()
	if a.Rows() != b.Rows() || a.Dim != b.Dim || !slices.Equal(a.Y, b.Y) || !slices.Equal(a.Labels, b.Labels) ||
		!slices.Equal(a.Ptr, b.Ptr) || !slices.Equal(a.Idx, b.Idx) || !slices.Equal(a.Val, b.Val) {
		t.Errorf("%s: datasets differ: %d×%d (%d values) vs %d×%d (%d values)", what, a.Rows(), a.Dim, a.Nnz(), b.Rows(), b.Dim, b.Nnz())
	}
}

// TestTableFormatsSameData: one dataset as LIBSVM text, CSV, gzipped CSV, TSV and Parquet
// (several row groups) reads back to the same rows, bit for bit; and a click-log table
// as CSV and Parquet hashes to the same rows.
func TestTableFormatsSameData(t *testing.T) {
	dir := t.TempDir()
	d := numericDataset(500, 7)
	svm := filepath.Join(dir, "d.svm")
	if err := WriteAtomic(svm, func(w io.Writer) error { return WriteLibSVM(w, d) }); err != nil {
		t.Fatal(err)
	}
	want, err := ReadFile(svm, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want.Dim = 7
	for _, out := range []string{"d.csv", "d.tsv", "d.parquet"} {
		if _, err := Convert(svm, filepath.Join(dir, out), Options{Dim: 7}); err != nil {
			t.Fatal(err)
		}
	}
	// a gzipped copy of the CSV
	csvBytes, _ := os.ReadFile(filepath.Join(dir, "d.csv"))
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(csvBytes)
	zw.Close()
	os.WriteFile(filepath.Join(dir, "d.csv.gz"), z.Bytes(), 0o644)
	for _, in := range []string{"d.csv", "d.csv.gz", "d.tsv", "d.parquet"} {
		got, sch, err := ReadTableFile(filepath.Join(dir, in), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if sch == nil || len(sch.Numeric) != 7 || len(sch.Categorical) != 0 {
			t.Fatalf("%s: schema %+v, want 7 numeric columns", in, sch)
		}
		got.Name = want.Name
		sameData(t, in, want, got)
	}

	c := &CTR{Rows: 3000, Seed: 5}
	var sets []*Dataset
	for _, f := range []string{"csv", "parquet"} {
		p := filepath.Join(dir, "ctr."+f)
		fh, _ := os.Create(p)
		if err := c.Write(fh, f, 700); err != nil {
			t.Fatal(err)
		}
		fh.Close()
		ds, sch, err := ReadTableFile(p, Options{Table: &TableOptions{Label: "click", HashBits: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if len(sch.Categorical) != len(AvazuFields) || ds.Dim != 1024 {
			t.Fatalf("%s: %d categorical columns, %d features", f, len(sch.Categorical), ds.Dim)
		}
		sets = append(sets, ds)
	}
	sets[1].Name = sets[0].Name
	sameData(t, "ctr csv vs parquet", sets[0], sets[1])
	pos, _ := sets[0].Counts()
	if r := float64(pos) / 3000; r < 0.14 || r > 0.20 {
		t.Errorf("click rate %.3f, want about 0.17", r)
	}
}

func TestTableColumnsAndHashing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.csv")
	os.WriteFile(p, []byte("id,age,city,label,plan\n1,30,paris,yes,2\n2,,\"new york, ny\",no,3\n3,41,paris,yes,2\n"), 0o644)
	tests := []struct {
		name string
		opt  TableOptions
		pos  string
		want func(*Schema, *Dataset) error
	}{
		{"ignore and categorical", TableOptions{Ignore: []string{"id"}, Categorical: []string{"plan"}, HashBits: 10, Missing: MissingZero}, "yes",
			func(s *Schema, d *Dataset) error {
				if !slices.Equal(s.Numeric, []string{"age"}) || !slices.Equal(s.Categorical, []string{"city", "plan"}) || !slices.Equal(s.Ignored, []string{"id"}) {
					return fmt.Errorf("schema %+v", s)
				}
				if d.Dim != 1+1024 || !slices.Equal(d.Y, []int8{1, -1, 1}) {
					return fmt.Errorf("dim %d, y %v", d.Dim, d.Y)
				}
				if r0, r2 := d.Row(0), d.Row(2); !slices.Equal(r0.Idx, r2.Idx) || r0.Val[0] != 30 || r2.Val[0] != 41 {
					return fmt.Errorf("rows 1 and 3 (same city and plan) hash differently: %v %v", r0, r2)
				}
				if r1 := d.Row(1); len(r1.Idx) > 2 || r1.Idx[0] == 0 {
					return fmt.Errorf("row 2 (age missing, zero) %v", r1)
				}
				return nil
			}},
		{"columns", TableOptions{Columns: []string{"age", "plan"}, Missing: MissingSkip}, "yes",
			func(s *Schema, d *Dataset) error {
				if !slices.Equal(s.Numeric, []string{"age", "plan"}) || d.Rows() != 2 || d.Dim != 2 {
					return fmt.Errorf("schema %+v, %d rows, dim %d", s, d.Rows(), d.Dim)
				}
				return nil
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, s, err := ReadTableFile(p, Options{Positive: tt.pos, Table: &tt.opt})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.want(s, d); err != nil {
				t.Error(err)
			}
			// The same file read with the recorded schema gives the same rows.
			d2, _, err := ReadTableFile(p, Options{Table: &TableOptions{Schema: s}})
			if err != nil {
				t.Fatal(err)
			}
			sameData(t, "schema reread", d, d2)
		})
	}
}

// writeParquet writes rows of a schema with parquet-go's generic writer.
func writeParquet[T any](t *testing.T, path string, rows []T) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[T](f)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestBadTables: each bad table gives one ParseError naming the file, the line (a
// Parquet file's row) and the column.
func TestBadTables(t *testing.T) {
	dir := t.TempDir()
	type listRow struct {
		Label int64   `parquet:"label"`
		Tags  []int64 `parquet:"tags,list"`
	}
	type fixedRow struct {
		Label int64   `parquet:"label"`
		X     float64 `parquet:"x"`
	}
	type nullRow struct {
		Label int64    `parquet:"label"`
		X     *float64 `parquet:"x,optional"`
	}
	writeParquet(t, filepath.Join(dir, "list.parquet"), []listRow{{1, []int64{1}}, {0, nil}})
	writeParquet(t, filepath.Join(dir, "lab.parquet"), []fixedRow{{1, 2}, {0, 3}, {5, 1}})
	one := 1.0
	writeParquet(t, filepath.Join(dir, "null.parquet"), []nullRow{{1, &one}, {0, nil}})
	tests := []struct {
		name, file, text string
		opt              *TableOptions
		sentinel         error
		line, col        int
		msg              string
	}{
		{"unknown label", "a.csv", "label,x\n1,2\n0,3\n7,1\n", nil, ErrLabel, 4, 1, "7 does not make a binary problem"},
		{"text label", "b.csv", "label,x\nyes,2\n", nil, ErrLabel, 2, 1, "name the positive class with Positive"},
		{"no label column", "c.csv", "y,x\n1,2\n", nil, ErrColumn, 1, 0, `no label column "label"`},
		{"named label absent", "c2.csv", "y,x\n1,2\n", &TableOptions{Label: "click"}, ErrColumn, 1, 0, `no label column "click"`},
		{"ragged row", "d.csv", "label,x,z\n1,2,3\n0,3\n", nil, ErrRagged, 3, 3, "2 fields, the header has 3"},
		{"non-numeric", "e.csv", "label,x\n" + strings.Repeat("1,2\n", 100) + "0,abc\n", nil, ErrValue, 102, 2, `column "x"`},
		{"non-numeric in row 3", "e3.csv", "label,x,z\n1,2,1\n0,3,1\n1,abc,1\n" + strings.Repeat("0,2,1\n1,3,1\n", 60), nil, ErrValue, 4, 2, `column "x"`},
		{"non-numeric in row 3 with a schema", "e4.csv", "label,x,z\n1,2,1\n0,3,1\n1,abc,1\n", &TableOptions{Schema: &Schema{Label: "label", Numeric: []string{"x", "z"},
			Hash: HashMurmur3Canonical, HashBits: 4, Missing: MissingError}}, ErrValue, 4, 2, `column "x"`},
		{"missing value", "f.tsv", "label\tx\n1\t2\n0\t\n", nil, ErrMissing, 3, 2, `column "x"`},
		{"missing label", "g.csv", "label,x\n1,2\n,3\n", &TableOptions{Missing: MissingZero}, ErrMissing, 3, 1, `column "label"`},
		{"unclosed quote", "h.csv", "label,x\n1,\"2\n", nil, ErrFeature, 2, 2, "not closed"},
		{"unknown column", "i.csv", "label,x\n1,2\n", &TableOptions{Ignore: []string{"nope"}}, ErrColumn, 1, 0, `no column "nope"`},
		{"empty", "j.csv", "", nil, ErrColumn, 1, 0, "header"},
		{"parquet list column", "list.parquet", "", nil, ErrColumnType, 0, 2, `column "tags"`},
		{"parquet unknown label", "lab.parquet", "", nil, ErrLabel, 3, 1, "5 does not make"},
		{"parquet null", "null.parquet", "", nil, ErrMissing, 2, 2, `column "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, tt.file)
			if tt.text != "" || !strings.HasSuffix(tt.file, ".parquet") {
				os.WriteFile(p, []byte(tt.text), 0o644)
			}
			_, _, err := ReadTableFile(p, Options{Table: tt.opt})
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if !errors.Is(err, tt.sentinel) || pe.Path != p || pe.Line != tt.line || pe.Column != tt.col || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q (line %d, column %d), want %v at line %d column %d saying %q", err, pe.Line, pe.Column, tt.sentinel, tt.line, tt.col, tt.msg)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error %q is not one line", err)
			}
		})
	}
}

func TestSchemaMismatch(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.csv")
	os.WriteFile(train, []byte("label,a,b,id\n1,1,x,7\n0,2,y,8\n"), 0o644)
	_, sch, err := ReadTableFile(train, Options{Table: &TableOptions{Ignore: []string{"id"}}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text string
		unlabelled bool
		msg        string
		y          []int8 // the rows' Y when read
	}{
		{"same columns, other order, no ignored column", "b,a,label\nx,3,1\n", false, "", []int8{1}},
		{"a feature column missing", "label,a\n1,2\n", false, `no column "b"`, nil},
		{"an extra column", "label,a,b,c\n1,2,x,3\n", false, `column "c" was not in the model's training data`, nil},
		{"numeric column holds text", "label,a,b\n1,3,x\n0,q,x\n", false, `new3.csv:3:2: column "a": bad feature value`, nil}, // at its cell, not line 1
		{"no label column", "a,b\n3,x\n", false, `no label column "label"`, nil},
		{"no label column, unlabelled", "a,b\n3,x\n4,y\n", true, "", []int8{0, 0}},
		{"label column, unlabelled", "a,b,label\n3,x,0\n", true, "", []int8{-1}},
		{"unlabelled, a feature column missing", "a\n3\n", true, `no column "b"`, nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, fmt.Sprintf("new%d.csv", i))
			os.WriteFile(p, []byte(tt.text), 0o644)
			d, _, err := ReadTableFile(p, Options{Table: &TableOptions{Schema: sch, Unlabelled: tt.unlabelled}})
			switch {
			case tt.msg == "" && err != nil:
				t.Fatal(err)
			case tt.msg != "" && (err == nil || !strings.Contains(err.Error(), tt.msg)):
				t.Fatalf("error %v, want one saying %q", err, tt.msg)
			case tt.msg == "" && !slices.Equal(d.Y, tt.y):
				t.Errorf("Y %v, want %v", d.Y, tt.y)
			}
		})
	}
	if _, _, err := ReadTableFile(train, Options{Table: &TableOptions{Unlabelled: true}}); err == nil || !strings.Contains(err.Error(), "needs the schema of a model") {
		t.Errorf("Unlabelled without a schema: error %v", err)
	}
}

func TestTableStreamingConstantMemory(t *testing.T) {
	// A table Reader reuses one Example: 20,000 rows allocate about as much as 200.
	dir := t.TempDir()
	allocs := func(format string, rows int) float64 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.%s", rows, format))
		f, _ := os.Create(p)
		if err := (&CTR{Rows: rows, Seed: 1}).Write(f, format, 1000); err != nil {
			t.Fatal(err)
		}
		f.Close()
		opts := Options{Table: &TableOptions{Label: "click", HashBits: 12}}
		return testing.AllocsPerRun(2, func() {
			r, err := Open(p, opts)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			for {
				if _, err := r.Next(); err == io.EOF {
					break
				} else if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	for _, format := range []string{"csv", "parquet"} {
		small, big := allocs(format, 200), allocs(format, 20_000)
		// Parquet allocates per row group and page (20 groups here), not per row.
		if limit := small + 40*float64(len(AvazuFields)+1)*20; big > limit {
			t.Errorf("%s: streaming 20,000 rows made %.0f allocations, 200 rows %.0f: memory grows with the rows", format, big, small)
		}
	}
}

// csvAndLibSVM renders one dense numeric dataset as LIBSVM text and as CSV.
func csvAndLibSVM(rows, dim int) (svm, csv []byte) {
	d := numericDataset(rows, dim)
	var a, b bytes.Buffer
	WriteLibSVM(&a, d)
	writeDatasetTable(&b, "csv", d)
	return a.Bytes(), b.Bytes()
}

func parseAll(t testing.TB, text []byte, path string) int {
	r, err := NewReader(bytes.NewReader(text), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
}

// TestCSVParseSpeed: CSV parses at least half as many MB/s as LIBSVM text of the same
// numbers (measured side by side, best of 5).
func TestCSVParseSpeed(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	svm, csv := csvAndLibSVM(20_000, 20)
	best := func(text []byte, path string) time.Duration {
		d := time.Duration(1 << 62)
		for range 5 {
			start := time.Now()
			parseAll(t, text, path)
			d = min(d, time.Since(start))
		}
		return d
	}
	var ts, tc time.Duration = 1 << 62, 1 << 62
	for range 2 { // interleaved
		ts, tc = min(ts, best(svm, "x.svm")), min(tc, best(csv, "x.csv"))
	}
	ms, mc := float64(len(svm))/ts.Seconds()/1e6, float64(len(csv))/tc.Seconds()/1e6
	t.Logf("LIBSVM %.0f MB/s (%d bytes), CSV %.0f MB/s (%d bytes): %.2f", ms, len(svm), mc, len(csv), mc/ms)
	if mc < 0.5*ms {
		t.Errorf("CSV %.0f MB/s, under half of LIBSVM's %.0f MB/s", mc, ms)
	}
}

// BenchmarkTableParse measures LIBSVM, CSV and Parquet reading of the same numbers;
// SetBytes counts the text's bytes, for Parquet the decoded values (8 bytes each).
func BenchmarkTableParse(b *testing.B) {
	svm, csv := csvAndLibSVM(50_000, 20)
	b.Run("libsvm", func(b *testing.B) {
		b.SetBytes(int64(len(svm)))
		for b.Loop() {
			parseAll(b, svm, "x.svm")
		}
	})
	b.Run("csv", func(b *testing.B) {
		b.SetBytes(int64(len(csv)))
		for b.Loop() {
			parseAll(b, csv, "x.csv")
		}
	})
	dir := b.TempDir()
	p := filepath.Join(dir, "x.parquet")
	rows := 50_000
	f, _ := os.Create(p)
	bw := bufio.NewWriter(f)
	writeDatasetTable(bw, "parquet", numericDataset(rows, 20))
	bw.Flush()
	f.Close()
	b.Run("parquet", func(b *testing.B) {
		b.SetBytes(int64(rows * 21 * 8))
		for b.Loop() {
			r, err := Open(p, Options{})
			if err != nil {
				b.Fatal(err)
			}
			for {
				if _, err := r.Next(); err == io.EOF {
					break
				}
			}
			r.Close()
		}
	})
}

func TestCanonicalCategory(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1", "1"}, {"01", "1"}, {"+1", "1"}, {"1.0", "1"}, {"1.", "1"}, {"1e0", "1"}, {"-0", "0"}, {"-0.0", "0"},
		{"007", "7"}, {"-12", "-12"}, {"1.50", "1.5"}, {".5", "0.5"}, {"1e3", "1000"}, {"2.5E-1", "0.25"},
		{"9223372036854775807", "9223372036854775807"}, {"-9223372036854775808", "-9223372036854775808"},
		{"9223372036854775808", "9.223372036854776e+18"}, {"1e20", "1e+20"}, {"100000000000000000000", "1e+20"},
		{"paris", "paris"}, {"", ""}, {"1a", "1a"}, {"2016-01-01", "2016-01-01"}, {"+", "+"}, {".", "."}, {"1e", "1e"},
		{"NaN", "NaN"}, {"inf", "inf"}, {"1e999", "1e999"}, {"0x10", "0x10"}, {"1_000", "1_000"}, {" 1", " 1"},
		{"0", "0"}, {"-007", "-7"}, {"+0", "0"}, {"-1", "-1"}, {"123456789012345678", "123456789012345678"},
		{"-123456789012345678", "-123456789012345678"}, {"1234567890123456789", "1234567890123456789"},
		{"0123456789012345678", "123456789012345678"}, {"14102100", "14102100"},
	}
	for _, tt := range tests {
		got := string(canonicalCategory(nil, []byte(tt.in)))
		if got != tt.want {
			t.Errorf("canonicalCategory(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := string(canonicalCategory(nil, []byte(got))); again != got {
			t.Errorf("canonicalCategory(%q) = %q, not canonical: it becomes %q", got, got, again)
		}
	}
}

// TestCategoriesSameAsCSVAndParquet: one table written as CSV (numbers as text in
// several spellings) and as Parquet (typed int64 and double columns) hashes to the same
// rows when its numeric columns are marked categorical, and a CSV's "07", "+7" and
// "7.0" are one category; a model's schema of the older hash (the text as written)
// still reads a CSV as it did, which differs.
func TestCategoriesSameAsCSVAndParquet(t *testing.T) {
	dir := t.TempDir()
	type row struct {
		Label int64   `parquet:"label"`
		Site  string  `parquet:"site"`
		Hour  int64   `parquet:"hour"`
		Price float64 `parquet:"price"`
		Code  string  `parquet:"code"` // numbers as strings in Parquet too
	}
	rows := []row{{1, "a1", 7, 1.5, "010"}, {0, "b2", 7, 2, "10"}, {1, "a1", 23, 1e20, "3.0"}, {0, "c3", 0, -0.25, "x"}}
	csvText := "label,site,hour,price,code\n1,a1,07,1.50,010\n0,b2,+7,2.0,10\n1,a1,23.0,100000000000000000000,3\n0,c3,-0,-.25,x\n"
	csvPath, pqPath := filepath.Join(dir, "t.csv"), filepath.Join(dir, "t.parquet")
	os.WriteFile(csvPath, []byte(csvText), 0o644)
	writeParquet(t, pqPath, rows)
	opts := Options{Table: &TableOptions{Categorical: []string{"hour", "price"}, HashBits: 12}}
	fromCSV, sch, err := ReadTableFile(csvPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	fromPQ, psch, err := ReadTableFile(pqPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sch.Hash != HashMurmur3Canonical || !slices.Equal(sch.Categorical, []string{"code", "hour", "price", "site"}) || !slices.Equal(psch.Categorical, sch.Categorical) {
		t.Fatalf("schemas: CSV %+v, Parquet %+v", sch, psch)
	}
	fromPQ.Name = fromCSV.Name
	sameData(t, "CSV vs Parquet", fromCSV, fromPQ)
	// Rows 1 and 2 share hour 7 ("07" and "+7"), and code 10 ("010" and "10").
	shared := 0
	r0, r1 := fromCSV.Row(0), fromCSV.Row(1)
	for _, j := range r0.Idx {
		if slices.Contains(r1.Idx, j) {
			shared++
		}
	}
	if shared < 2 {
		t.Errorf("rows 1 and 2 share %d buckets, want 2 (hour 7, code 10): %v %v", shared, r0.Idx, r1.Idx)
	}

	old := *sch
	old.Hash = HashMurmur3
	asWritten, _, err := ReadTableFile(csvPath, Options{Table: &TableOptions{Schema: &old}})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(asWritten.Idx, fromCSV.Idx) {
		t.Error("the older hash of the text as written gives the canonical rows: the test cannot tell them apart")
	}
}

// TestTableTypoAnywhere: a non-number in a numeric column is an error naming its file,
// line and column wherever it is, in row 3 or in row 10⁶, in a file or on a pipe; the
// column does not silently become categorical (its kinds came from the first 100 rows,
// so a typo in row 3 made the column hashed, 2^18 features, and scaling none).
func TestTableTypoAnywhere(t *testing.T) {
	dir := t.TempDir()
	for _, at := range []int{3, 1_000_000} {
		var b strings.Builder
		b.WriteString("label,x,z\n")
		for i := 1; i <= max(at, 1000); i++ {
			switch {
			case i == at:
				b.WriteString("1,abc,1\n")
			case i%2 == 0:
				fmt.Fprintf(&b, "0,%d.5,1\n", i%97)
			default:
				fmt.Fprintf(&b, "1,%d,0\n", i%89)
			}
		}
		b.WriteString("0,1,1\n1,2,0\n")
		p := filepath.Join(dir, fmt.Sprintf("typo%d.csv", at))
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		pipe, done := throughPipe(t, []byte(b.String()))
		for _, name := range []string{p, pipe} {
			_, _, err := ReadTableFile(name, Options{})
			if name == pipe {
				done()
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Path != name || pe.Line != at+1 || pe.Column != 2 || !errors.Is(err, ErrValue) {
				t.Errorf("typo in row %d of %s: error %v, want a ParseError at %s:%d:2", at, name, err, name, at+1)
			}
		}
	}
}

// TestTableKindNote: a column that most of its values would make numeric but that its
// non-numbers (over 1%) make categorical is said in a note naming the first of them;
// --categorical, or a column of words, gives none.
func TestTableKindNote(t *testing.T) {
	p := filepath.Join(t.TempDir(), "tiny.csv")
	os.WriteFile(p, []byte("label,x,w\n1,1,a\n0,2.5,b\n1,abc,a\n0,1,b\n1,2,a\n"), 0o644)
	for _, c := range []struct {
		opts Options
		want int
	}{{Options{}, 1}, {Options{Table: &TableOptions{Categorical: []string{"x"}}}, 0}} {
		var notes []string
		_, sch, err := ReadInput(context.Background(), p, c.opts, ReadConfig{Layout: LayoutSparse, Notes: &notes})
		if err != nil || !slices.Equal(sch.Categorical, []string{"w", "x"}) {
			t.Fatalf("%v: schema %+v, %v", c.opts.Table, sch, err)
		}
		if len(notes) != c.want || c.want == 1 && !strings.Contains(notes[0], `column "x" is read as categories, since 1 of its 5 values are not numbers (the first at line 4: "abc")`) {
			t.Errorf("%v: notes %q, want %d naming column x and line 4", c.opts.Table, notes, c.want)
		}
	}
}
