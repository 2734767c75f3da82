package data

import (
	"bytes"
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
