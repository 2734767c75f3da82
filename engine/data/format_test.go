package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDetect: a format is told by its magic bytes whatever the name, else by its name
// (after compression suffixes), else it is LIBSVM text; DetectFile reads the first
// bytes in place and tells a compressed file's content by its name, a stream without
// reading it.
func TestDetect(t *testing.T) {
	for _, c := range []struct {
		name string
		head string
		want string
	}{
		{"x.csv", "label,a\n", FormatCSV},
		{"X.CSV.GZ", "", FormatCSV},
		{"x.tsv.xz.gz", "", FormatTSV},
		{"x.tab", "", FormatTSV},
		{"x.svm", "AUCOPTDS", FormatCache},
		{"x.csv", "PAR1", FormatParquet},
		{"x.pq", "", FormatParquet},
		{"x.gz", "\x1f\x8b\x08", "gzip"},
		{"x", "BZh9", "bzip2"},
		{"a9a.txt.xz", "", FormatLibSVM},
		{"x.cache", "+1 1:1\n", FormatLibSVM}, // a cache only by its magic bytes
		{"-", "", FormatLibSVM},
	} {
		if got := Detect(c.name, []byte(c.head)).Name; got != c.want {
			t.Errorf("Detect(%q, %q) = %s, want %s", c.name, c.head, got, c.want)
		}
		if f := TableFormat(c.name); c.head == "" && f != "" && f != c.want {
			t.Errorf("%q: TableFormat %s, Detect %s", c.name, f, c.want)
		}
	}
	dir := t.TempDir()
	gz := filepath.Join(dir, "t.csv.gz")
	os.WriteFile(gz, []byte("\x1f\x8b\x08\x00"), 0o644)
	ff, err := DetectFile(gz)
	if err != nil || ff.Compression != "gzip" || ff.Format.Name != FormatCSV || ff.Stream || ff.Size != 4 {
		t.Errorf("DetectFile(%s) = %+v, %v; want gzip-compressed CSV of 4 bytes", gz, ff, err)
	}
	p, done := throughPipe(t, nil) // DetectFile does not read it
	ff, err = DetectFile(p)
	done()
	if err != nil || !ff.Stream {
		t.Errorf("DetectFile(a pipe) = %+v, %v; want a stream", ff, err)
	}
	if _, err := DetectFile(filepath.Join(dir, "none")); err == nil {
		t.Error("DetectFile of a missing file: no error")
	}
}

// TestRegistry: the registered formats are told apart (no extension or magic bytes
// claimed twice, one default), the magic ones first; a format registered later is
// told by its name and its magic bytes, and compressed by any compression.
func TestRegistry(t *testing.T) {
	all := Formats()
	exts := map[string]string{}
	defaults := 0
	for i, f := range all {
		if i > 0 && f.Magic != nil && all[i-1].Magic == nil {
			t.Errorf("%s, told by magic bytes, comes after %s, told by none", f.Name, all[i-1].Name)
		}
		for _, e := range f.Extensions {
			if o, ok := exts[e]; ok {
				t.Errorf("extension %s: %s and %s", e, o, f.Name)
			}
			exts[e] = f.Name
		}
		for _, g := range all[i+1:] {
			if f.Magic != nil && g.Magic != nil && (bytes.HasPrefix(f.Magic, g.Magic) || bytes.HasPrefix(g.Magic, f.Magic)) {
				t.Errorf("magic bytes of %s and %s overlap", f.Name, g.Name)
			}
		}
		if f.Default {
			defaults++
		}
		if f.Compression != (f.decompress != nil) {
			t.Errorf("%s: a compression without a decompressor, or a decompressor without a compression", f.Name)
		}
	}
	if defaults != 1 {
		t.Errorf("%d default formats, want 1", defaults)
	}
	for _, name := range []string{FormatLibSVM, FormatCSV, FormatTSV, FormatParquet, FormatCache, "gzip", "bzip2", "xz"} {
		if _, ok := FormatNamed(name); !ok {
			t.Errorf("%s is not registered", name)
		}
	}
	RegisterFormat(Format{Name: "test", Extensions: []string{".tst"}, Magic: []byte("TST\x00")})
	defer unregisterFormat("test")
	for _, c := range []struct{ name, head, want string }{
		{"a.tst", "", "test"},
		{"A.TST.GZ", "", "test"},
		{"a.svm", "TST\x00rest", "test"},
		{"a.svm", "", FormatLibSVM},
	} {
		if got := Detect(c.name, []byte(c.head)).Name; got != c.want {
			t.Errorf("Detect(%q, %q) = %s, want %s", c.name, c.head, got, c.want)
		}
	}
}

// TestFileFormatDecisions: what callers ask of an input instead of testing its name or
// bytes: whether to load it rather than stream it, whether it can be read again,
// whether it is a table; a directory is an error.
func TestFileFormatDecisions(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gzHead := []byte("\x1f\x8b\x08\x00")
	for _, c := range []struct {
		path                string
		load, passes, table bool
	}{
		{write("a.svm", []byte("1 1:1\n")), true, true, false},
		{write("a.svm.gz", gzHead), true, true, false},
		{write("a.csv", []byte("label,x\n1,2\n")), false, true, true},
		{write("a.cache", []byte(cacheMagic)), false, true, false},
		{write("a.bin", []byte("PAR1....")), false, true, true},
	} {
		ff, err := DetectFile(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if ff.LoadWhole() != c.load || ff.Passes() != c.passes || ff.Table(Options{}) != c.table {
			t.Errorf("%s: load %v passes %v table %v; want %v %v %v", filepath.Base(c.path), ff.LoadWhole(), ff.Passes(), ff.Table(Options{}), c.load, c.passes, c.table)
		}
	}
	big := FileFormat{Format: Format{Name: FormatLibSVM, Chunked: true}, Size: smallTextBytes + 1}
	bigZ := FileFormat{Format: big.Format, Compression: "gzip", Size: smallCompressedBytes + 1}
	if big.LoadWhole() || bigZ.LoadWhole() {
		t.Error("a large text file is loaded rather than streamed")
	}
	if ff := (FileFormat{Format: big.Format}); !ff.Table(Options{Table: &TableOptions{Label: "y"}}) {
		t.Error("table options do not make a table")
	}
	p, done := throughPipe(t, nil)
	ff, err := DetectFile(p)
	done()
	if err != nil || ff.Passes() || ff.LoadWhole() {
		t.Errorf("a pipe: %+v, %v; want a stream read once", ff, err)
	}
	if _, err := DetectFile(dir); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("a directory: %v, want EISDIR", err)
	}
	for _, c := range []struct{ name, format, compression string }{
		{"x.csv", FormatCSV, ""},
		{"X.TSV.GZ", FormatTSV, "gzip"},
		{"x.parquet", FormatParquet, ""},
		{"x.csv.bz2", FormatCSV, "bzip2"},
		{"x.bin", FormatLibSVM, ""},
	} {
		f, comp := OutputOf(c.name)
		if f.Name != c.format || comp != c.compression {
			t.Errorf("OutputOf(%q) = %s, %q; want %s, %q", c.name, f.Name, comp, c.format, c.compression)
		}
	}
}

// TestRegisteredFormatIsRead: a format registered with a rows function is read by
// Open and ReadFileContext by its name, plain or compressed, with nothing else
// changed: a semicolon-separated table.
func TestRegisteredFormatIsRead(t *testing.T) {
	RegisterFormat(Format{Name: "ssv", Extensions: []string{".ssv"}, Table: true, rows: csvRows(';')})
	defer unregisterFormat("ssv")
	dir := t.TempDir()
	text := "label;a;b\n1;0.5;2\n0;1.5;3\n"
	p := filepath.Join(dir, "x.ssv")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write([]byte(text))
	w.Close()
	pz := filepath.Join(dir, "x.ssv.gz")
	if err := os.WriteFile(pz, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{p, pz} {
		d, err := ReadFileContext(context.Background(), path, Options{}, ReadConfig{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if d.Rows() != 2 || d.Dim != 2 || d.Y[0] != 1 || d.Y[1] != -1 || d.Row(1).Val[0] != 1.5 {
			t.Errorf("%s: %d rows of %d features, labels %v, row 2 %v", path, d.Rows(), d.Dim, d.Y, d.Row(1))
		}
		if !IsTableFile(path, Options{}) {
			t.Errorf("%s is not a table", path)
		}
	}
}
