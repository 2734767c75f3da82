package data

import (
	"os"
	"path/filepath"
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
