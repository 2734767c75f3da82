package data

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/ulikunitz/xz"
)

// The compressions: any format may be compressed with gzip, bzip2 or xz, told by the
// magic bytes (a compressed file's content by its name without the compression's
// extension, or on a stream by its decompressed bytes).
func init() {
	RegisterFormat(Format{Name: "gzip", Extensions: []string{".gz"}, Magic: magicGzip, Compression: true, decompress: func(r io.Reader) (io.Reader, error) {
		return gzip.NewReader(r)
	}})
	RegisterFormat(Format{Name: "bzip2", Extensions: []string{".bz2"}, Magic: magicBzip2, Compression: true, decompress: func(r io.Reader) (io.Reader, error) {
		return bzip2.NewReader(r), nil
	}})
	RegisterFormat(Format{Name: "xz", Extensions: []string{".xz"}, Magic: magicXz, Compression: true, decompress: func(r io.Reader) (io.Reader, error) {
		return xz.NewReader(r)
	}})
}

// magic numbers of the compressed formats.
var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicBzip2 = []byte("BZh")
	magicXz    = []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}
)

// compressionOf returns the compression whose magic bytes head starts with.
func compressionOf(head []byte) (Format, bool) {
	for _, f := range Formats() {
		if f.Compression && f.Magic != nil && bytes.HasPrefix(head, f.Magic) {
			return f, true
		}
	}
	return Format{}, false
}

// decompressor returns the decompressing reader of br's compressed stream, told by its
// magic bytes (compressionOf), or nil for an uncompressed one.
func decompressor(br *bufio.Reader, path string) (io.Reader, error) {
	n := 0
	for _, f := range Formats() {
		if f.Compression {
			n = max(n, len(f.Magic))
		}
	}
	head, _ := br.Peek(n)
	f, ok := compressionOf(head)
	if !ok {
		return nil, nil
	}
	z, err := f.decompress(br)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w: %w", path, f.Name, ErrCorrupt, err)
	}
	return z, nil
}

// isCompressed reports whether head starts a compressed stream.
func isCompressed(head []byte) bool {
	_, ok := compressionOf(head)
	return ok
}
