package data

import (
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Format is one data format aucopt reads, in the shape of the standard library's
// image.RegisterFormat: its name, the extensions that name it, and the magic bytes its
// files start with. Formats lists them; Detect tells a file's.
type Format struct {
	Name       string   // FormatLibSVM, FormatCSV, …, or a compression: "gzip", "bzip2", "xz"
	Extensions []string // lower-case, with the dot
	Magic      []byte   // the first bytes of every file of the format; nil when it has none
	// Compression: a compressed stream, whose content is told again by Detect.
	Compression bool
}

// Formats are the data formats and compressions aucopt reads, the ones told by magic
// bytes first. LIBSVM text, which has neither magic bytes nor a reserved extension,
// is what Detect returns for anything else.
var Formats = []Format{
	{Name: "gzip", Extensions: []string{".gz"}, Magic: magicGzip, Compression: true},
	{Name: "bzip2", Extensions: []string{".bz2"}, Magic: magicBzip2, Compression: true},
	{Name: "xz", Extensions: []string{".xz"}, Magic: magicXz, Compression: true},
	{Name: FormatCache, Magic: []byte(cacheMagic)}, // by its magic bytes only
	{Name: FormatParquet, Extensions: []string{".parquet", ".pq"}, Magic: parquetMagic},
	{Name: FormatCSV, Extensions: []string{".csv"}},
	{Name: FormatTSV, Extensions: []string{".tsv", ".tab"}},
	{Name: FormatLibSVM, Extensions: []string{".svm", ".libsvm", ".svmlight", ".txt"}},
}

// Detect returns the format of a file called name that starts with head: the format
// or compression whose magic bytes head starts with, else the format its name gives
// (byName), else LIBSVM text.
func Detect(name string, head []byte) Format {
	for _, f := range Formats {
		if f.Magic != nil && bytes.HasPrefix(head, f.Magic) {
			return f
		}
	}
	return byName(name)
}

// byName is the format an extension names, after any compression suffixes (x.csv.gz
// is CSV); LIBSVM text when none does.
func byName(name string) Format {
	p := strings.ToLower(name)
	for {
		trimmed := false
		for _, f := range Formats {
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
	for _, f := range Formats {
		if !f.Compression && slices.Contains(f.Extensions, ext) {
			return f
		}
	}
	return Formats[len(Formats)-1]
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
