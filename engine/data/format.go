package data

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Format is one data format aucopt reads, registered by the file that reads it
// (RegisterFormat, in the shape of the standard library's image.RegisterFormat): its
// name, the extensions that name it, the magic bytes its files start with, and what it
// can do. Formats lists them; Detect and DetectFile tell a file's; Open reads any.
type Format struct {
	Name       string   // FormatLibSVM, FormatCSV, …, or a compression: "gzip", "bzip2", "xz"
	Extensions []string // lower-case, with the dot
	Magic      []byte   // the first bytes of every file of the format; nil when it has none
	// Compression: a compressed stream, whose content is told again by Detect.
	Compression bool
	// Table: a table, whose columns become the label and features through a Schema.
	Table bool
	// Chunked: plain text that parses in line-aligned chunks on every core
	// (ReadFileContext, StreamRows); otherwise a file is read in order, on one core.
	Chunked bool
	// FileOnly: read by offsets (Parquet's footer), from a file, never from a stream.
	FileOnly bool
	// Default: the format of anything that neither magic bytes nor a name tell (LIBSVM
	// text); one format is.
	Default bool

	// decompress returns the reader of a compressed stream's content (Compression).
	decompress func(io.Reader) (io.Reader, error)
}

// registry holds the registered formats. RegisterFormat writes it from the init
// functions of the formats' files, before main runs; it is only read afterwards.
var registry struct {
	sync.RWMutex
	formats []Format
}

// RegisterFormat registers the data format f. Call it from the init function of the
// file that reads the format. A format whose name is registered already replaces it.
func RegisterFormat(f Format) {
	registry.Lock()
	defer registry.Unlock()
	all := slices.DeleteFunc(slices.Clone(registry.formats), func(g Format) bool { return g.Name == f.Name })
	all = append(all, f)
	// Magic bytes first, then by name: detection does not depend on the order of
	// registration.
	slices.SortStableFunc(all, func(a, b Format) int {
		if (a.Magic == nil) != (b.Magic == nil) {
			if a.Magic != nil {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	registry.formats = all
}

// Formats returns the registered data formats and compressions, the ones told by magic
// bytes first.
func Formats() []Format {
	registry.RLock()
	defer registry.RUnlock()
	return slices.Clone(registry.formats)
}

// FormatNamed returns the registered format called name.
func FormatNamed(name string) (Format, bool) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// defaultFormat is the Default format (LIBSVM text).
func defaultFormat(all []Format) Format {
	for _, f := range all {
		if f.Default {
			return f
		}
	}
	return Format{Name: FormatLibSVM, Default: true}
}

// Detect returns the format of a file called name that starts with head: the format
// or compression whose magic bytes head starts with, else the format its name gives
// (byName), else LIBSVM text.
func Detect(name string, head []byte) Format {
	for _, f := range Formats() {
		if f.Magic != nil && bytes.HasPrefix(head, f.Magic) {
			return f
		}
	}
	return byName(name)
}

// byName is the format an extension names, after any compression suffixes (x.csv.gz
// is CSV); LIBSVM text when none does.
func byName(name string) Format {
	all := Formats()
	p := strings.ToLower(name)
	for {
		trimmed := false
		for _, f := range all {
			for _, ext := range f.Extensions {
				if f.Compression && strings.HasSuffix(p, ext) {
					p, trimmed = strings.TrimSuffix(p, ext), true
				}
			}
		}
		if !trimmed {
			break
		}
	}
	ext := filepath.Ext(p)
	for _, f := range all {
		if !f.Compression && slices.Contains(f.Extensions, ext) {
			return f
		}
	}
	return defaultFormat(all)
}

// FileFormat is what DetectFile learns of a data file without reading its content.
type FileFormat struct {
	Format      Format // the content's format (a compressed file's content's, by name)
	Compression string // "gzip", "bzip2", "xz" or ""
	Stream      bool   // IsStream: read once, whole; its format is told when it is read
	Size        int64  // bytes as stored; 0 for a stream
}

// DetectFile tells the format of the data file name (a file, or standard input as
// StdinName) by its first bytes, read in place (a stream's are not read: it is read
// once, by its reader, and is reported as Stream), and its name.
func DetectFile(name string) (FileFormat, error) {
	f, err := openInput(name)
	if err != nil {
		return FileFormat{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return FileFormat{}, err
	}
	if !st.Mode().IsRegular() {
		return FileFormat{Format: byName(name), Stream: true}, nil
	}
	head := make([]byte, 16)
	n, err := f.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return FileFormat{}, err
	}
	ff := FileFormat{Format: Detect(name, head[:n]), Size: st.Size()}
	if ff.Format.Compression {
		ff.Compression, ff.Format = ff.Format.Name, byName(name)
	}
	return ff, nil
}

// unregisterFormat removes the format called name (tests that register one).
func unregisterFormat(name string) {
	registry.Lock()
	defer registry.Unlock()
	registry.formats = slices.DeleteFunc(slices.Clone(registry.formats), func(g Format) bool { return g.Name == name })
}
