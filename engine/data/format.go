package data

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
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
	// rows opens a table's rows from its text, rd.br (decompressed), for the Reader rd
	// (Table formats read as text: CSV, TSV). LIBSVM text and the cache are the
	// Reader's own.
	rows func(rd *Reader, path string, opts Options) (tableSource, error)
	// fileRows opens the rows of a FileOnly format from its file, by offsets.
	fileRows func(f *os.File, path string, opts Options) (tableSource, error)
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

// FileFormat is what DetectFile learns of a data file without reading its rows: the
// decisions a caller makes about an input (stream it by passes, load it, accumulate it
// out of core, read it as a table) are asked of it, never made from a name or bytes.
type FileFormat struct {
	Format      Format // the content's format (a compressed file's content's, by name)
	Compression string // "gzip", "bzip2", "xz" or ""
	// Stream: not a regular file (standard input, a pipe, a FIFO, a device): read once,
	// whole, in order; its format is told when it is read.
	Stream bool
	Size   int64 // bytes as stored; 0 for a stream
}

// DetectFile tells the format of the data file name (a file, or standard input as
// StdinName) by its first bytes, read in place, and its name. Anything but a regular
// file is reported as Stream without being opened (a FIFO's open would block; a
// stream is read once, by its reader); a directory is an error (EISDIR).
func DetectFile(name string) (FileFormat, error) {
	st, err := StatInput(name)
	if err != nil {
		return FileFormat{}, err
	}
	if st.IsDir() {
		return FileFormat{}, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	}
	if !st.Mode().IsRegular() {
		return FileFormat{Format: byName(name), Stream: true}, nil
	}
	f, err := openInput(name)
	if err != nil {
		return FileFormat{}, err
	}
	defer f.Close()
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

// Text files that a run able to stream them loads instead, parsed on all cores (Chunked
// text up to smallTextBytes, or up to smallCompressedBytes compressed): streamed, a
// pass would parse the file again, on one core, after a scan for its dimension; held,
// it costs memory of the order of the text's size.
const (
	smallTextBytes       = 64 << 20
	smallCompressedBytes = 8 << 20
)

// LoadWhole reports whether the file is text small enough that a run able to stream
// it by passes loads it instead (smallTextBytes): plain LIBSVM text (not a table, not
// a binary cache), not a stream.
func (ff FileFormat) LoadWhole() bool {
	if ff.Stream || !ff.Format.Chunked || ff.Size > smallTextBytes {
		return false
	}
	return ff.Compression == "" || ff.Size <= smallCompressedBytes
}

// Passes reports whether the input can be read again and again from the start (a
// regular file): a run may stream it by passes, scan it first, accumulate it out of
// core.
func (ff FileFormat) Passes() bool { return !ff.Stream }

// Table reports whether the input is read as a table with opts: a table format, or
// table options given (which make any text a table); a stream may be one still, told
// by its first line when it is read.
func (ff FileFormat) Table(opts Options) bool { return ff.Format.Table || !opts.Table.IsZero() }

// OutputOf tells what a file name asks a writer for: the format its extension names
// after any compression's (byName: LIBSVM text when none does), and the compression its
// last extension names ("gzip", …; "" for none).
func OutputOf(name string) (format Format, compression string) {
	p := strings.ToLower(name)
	for _, f := range Formats() {
		for _, ext := range f.Extensions {
			if f.Compression && strings.HasSuffix(p, ext) {
				compression = f.Name
			}
		}
	}
	return byName(name), compression
}

// unregisterFormat removes the format called name (tests that register one).
func unregisterFormat(name string) {
	registry.Lock()
	defer registry.Unlock()
	registry.formats = slices.DeleteFunc(slices.Clone(registry.formats), func(g Format) bool { return g.Name == name })
}
