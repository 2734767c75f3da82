package data

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/aucopt/aucopt/engine/fault"
)

// StdinName is the data name that stands for standard input.
const StdinName = "-"

// stdinPath is the file standard input is opened as: a new descriptor of the same
// pipe, terminal or file, so that closing it leaves descriptor 0 alone.
const stdinPath = "/dev/stdin"

// openInput opens the data file name, standard input for StdinName.
func openInput(name string) (*os.File, error) {
	if name == StdinName {
		f, err := os.Open(stdinPath)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		return f, nil
	}
	return os.Open(name)
}

// StatInput is os.Stat of the data file name, of standard input for StdinName.
func StatInput(name string) (os.FileInfo, error) {
	if name == StdinName {
		return os.Stat(stdinPath)
	}
	return os.Stat(name)
}

// IsStream reports whether path names a stream: standard input (StdinName), a
// device, a pipe, a FIFO or a socket. As an input it can be read only once, in order:
// it is read exactly once, whole, into memory (ReadFileContext, ReadInput); it cannot
// be streamed by passes, scanned first or fingerprinted afterwards. As an output it is
// written through, never replaced (WriteAtomic).
func IsStream(path string) bool {
	st, err := StatInput(path)
	return err == nil && st.Mode()&(fs.ModeCharDevice|fs.ModeDevice|fs.ModeNamedPipe|fs.ModeSocket) != 0
}

// readStreamInput reads the stream path (IsStream) exactly once, whole, into memory,
// and parses the bytes as ReadFileContext parses a file: a binary cache, a compressed
// file or a table recognised by their magic bytes or first line (sniffStream), LIBSVM
// text on all cores. rc.Digest, when set, receives the SHA-256 of the bytes as read:
// the stream's fingerprint, which cannot be had by a second read.
func readStreamInput(ctx context.Context, path string, opts Options, rc ReadConfig) (*Dataset, *Schema, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	h := sha256.New()
	b, err := io.ReadAll(io.TeeReader(&ctxReader{ctx, f}, h))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: reading stopped: %w", path, err)
	}
	if rc.Digest != nil {
		*rc.Digest = hex.EncodeToString(h.Sum(nil))
	}
	return readBytes(ctx, b, path, opts, rc)
}

// readBytes parses the bytes b of the input path, read whole (readStreamInput), and
// returns the table schema it read a table with (nil for other data).
func readBytes(ctx context.Context, b []byte, path string, opts Options, rc ReadConfig) (*Dataset, *Schema, error) {
	var d *Dataset
	var sch *Schema
	var err error
	switch {
	case IsCache(b):
		if d, err = DecodeCache(b); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if rc.Layout != LayoutAuto && !rc.cacheAsSaved {
			d = d.WithLayout(rc.Layout)
		}
		return d, nil, nil
	case isCompressed(b):
		return readCompressedBytes(ctx, b, path, opts, rc)
	case bytes.HasPrefix(b, parquetMagic):
		return nil, nil, parquetStreamError(path)
	}
	if format := streamTable(b, path, opts); format != "" {
		open := func() (*bufio.Reader, error) { return bufio.NewReaderSize(bytes.NewReader(b), 1<<16), nil }
		if d, sch, err = readStreamTable(ctx, open, format, path, opts, rc); err != nil {
			return nil, nil, err
		}
	} else if d, err = readChunks(ctx, bytes.NewReader(b), nil, b, int64(len(b)), path, opts, rc); err != nil {
		return nil, nil, err
	}
	if d.Rows() == 0 {
		return nil, nil, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	return d, sch, nil
}

// parquetStreamError is the error for a Parquet file given as a stream.
func parquetStreamError(path string) error {
	return fmt.Errorf("%s: a Parquet file is read by offsets: give it as a file, not as a stream", path)
}

// readStreamTable reads a CSV or TSV table (format) whose text open gives, anew for
// each pass: the kinds of its columns from the whole text first, unless a schema says
// them, then its rows.
func readStreamTable(ctx context.Context, open func() (*bufio.Reader, error), format, path string, opts Options, rc ReadConfig) (*Dataset, *Schema, error) {
	sep := byte(',')
	if format == FormatTSV {
		sep = '\t'
	}
	if opts.Dim > 0 {
		return nil, nil, fault.Settingf("%s: a table's dimension follows from its columns and {HashBits}: {Dim} does not apply", path)
	}
	var kinds []colKind
	var why []string
	if opts.Table == nil || opts.Table.Schema == nil {
		br, err := open()
		if err != nil {
			return nil, nil, err
		}
		if kinds, why, err = csvKinds(ctx, br, path, sep); err != nil {
			return nil, nil, err
		}
	}
	br, err := open()
	if err != nil {
		return nil, nil, err
	}
	t, err := newCSVSource(br, path, sep, opts, kinds, why)
	if err != nil {
		return nil, nil, err
	}
	if rc.Notes != nil {
		*rc.Notes = append(*rc.Notes, t.notes...)
	}
	r := &Reader{path: path, opts: opts, table: t, maxIdx: t.schema().Dim()}
	r.opts.Dim = r.maxIdx
	d, err := readAllContext(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	if d.Rows() == 0 {
		return nil, nil, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	return d.WithLayout(rc.Layout), t.schema(), nil
}

// readCompressedBytes parses a compressed stream's bytes b (read whole: a stream is read
// once) as a compressed file is parsed: its content decompressed as it is parsed, never
// held whole, so that a small stream that decompresses to far more (a compression bomb)
// takes no more memory than the rows it holds, as from a file. A table is decompressed
// twice (its column kinds, then its rows); a cache (the data itself) and a stream
// compressed twice are decompressed once into memory and read so.
func readCompressedBytes(ctx context.Context, b []byte, path string, opts Options, rc ReadConfig) (*Dataset, *Schema, error) {
	open := func() (*bufio.Reader, error) {
		dec, err := decompressor(bufio.NewReader(bytes.NewReader(b)), path)
		if err != nil {
			return nil, err
		}
		return bufio.NewReaderSize(&ctxReader{ctx, dec}, 1<<16), nil
	}
	br, err := open()
	if err != nil {
		return nil, nil, err
	}
	// The content's first bytes (decompressed from memory: this does not wait), for
	// its magic bytes and its first line (streamTable).
	head, err := br.Peek(br.Size())
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, nil, (&Reader{path: path}).ioError(err)
	}
	switch {
	case isCompressed(head) || IsCache(head) || bytes.HasPrefix(head, parquetMagic):
		// Compressed twice, or a cache (which is the data itself): read whole.
		inner, err := io.ReadAll(br)
		if err != nil {
			return nil, nil, (&Reader{path: path}).ioError(err)
		}
		return readBytes(ctx, inner, path, opts, rc)
	}
	if format := streamTable(head, path, opts); format != "" {
		return readStreamTable(ctx, open, format, path, opts, rc)
	}
	d, err := readStream(ctx, br, path, opts, rc)
	if err != nil {
		return nil, nil, err
	}
	if d.Rows() == 0 {
		return nil, nil, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	return d.WithLayout(rc.Layout), nil, nil
}

// ReadInput reads the data file name (a file, or standard input as StdinName) whole,
// in the layout rc asks for, and returns the table schema it was read with (nil for
// LIBSVM text or a cache): a stream (IsStream) read once (readStreamInput), a table
// streamed into memory, any other file by ReadFileContext. With rc.Layout
// LayoutSparse a binary cache keeps the layout it was saved in, as ReadFile does.
func ReadInput(ctx context.Context, name string, opts Options, rc ReadConfig) (*Dataset, *Schema, error) {
	if rc.Layout == LayoutSparse {
		rc.cacheAsSaved = true
	}
	if IsStream(name) {
		return readStreamInput(ctx, name, opts, rc)
	}
	if isTableFile(name, opts) {
		d, sch, err := readTableContext(ctx, name, opts, rc.Notes)
		if err != nil {
			return nil, nil, err
		}
		return d.WithLayout(rc.Layout), sch, nil
	}
	d, err := ReadFileContext(ctx, name, opts, rc)
	return d, nil, err
}

// streamTable returns the table format of a stream's bytes b ("" for LIBSVM text): the
// format its name gives (TableFormat), else, when table options are given or the first
// line looks like a table's header, CSV, or TSV when that line has tabs and no commas.
// A header "looks like" one when it has a separator and no colon: every LIBSVM row with
// a feature has a colon, and a header has no number for a label.
func streamTable(b []byte, path string, opts Options) string {
	if f := TableFormat(path); f != "" {
		return f
	}
	line := b
	for len(line) > 0 {
		i := bytes.IndexByte(line, '\n')
		first := line
		if i >= 0 {
			first, line = line[:i], line[i+1:]
		} else {
			line = nil
		}
		if len(bytes.TrimSpace(first)) == 0 {
			continue
		}
		comma, tab := bytes.IndexByte(first, ',') >= 0, bytes.IndexByte(first, '\t') >= 0
		table := !opts.Table.IsZero() || (comma || tab) && bytes.IndexByte(first, ':') < 0
		switch {
		case !table:
			return ""
		case tab && !comma:
			return FormatTSV
		}
		return FormatCSV
	}
	if !opts.Table.IsZero() {
		return FormatCSV
	}
	return ""
}
