package data

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// ReadConfig controls ReadFileContext beyond the parse Options.
type ReadConfig struct {
	// Layout is the in-memory layout. LayoutAuto is dense when the file's values fill
	// at least DenseAuto of rows·features (a binary cache keeps the layout it was saved
	// in); LayoutSparse and LayoutDense force one.
	Layout Layout
	// Workers is the number of goroutines parsing a plain text file; 0 means
	// GOMAXPROCS. The result does not depend on it.
	Workers int

	// Indices, when set, receives the index base a LIBSVM text was read with (IndexOne
	// or IndexZero: Options.Indices resolved); it is left alone for other data.
	Indices *IndexBase
	// Notes, when set, receives what the read decided from the data that the user
	// should know: a LIBSVM file found numbered from 0 (Options.Indices IndexAuto).
	Notes *[]string
	// Digest, when set, receives the hexadecimal SHA-256 of the bytes of a stream
	// (IsStream) as read: its fingerprint, which a second read cannot give. It is left
	// alone for a file, which Fingerprint reads again.
	Digest *string

	chunk        int     // bytes per parse chunk (tests make it tiny); 0 means chunkFor's
	io           chunkIO // how the chunks' bytes are had (tests force one); 0 means the fastest
	cacheAsSaved bool    // a binary cache keeps the layout it was saved in (ReadFile)
}

// chunkIO is how a text file's chunks are had: the whole file mapped (a small file), a
// mapping per chunk (a large one), or positioned reads into buffers (where mapping
// fails). The bytes, and so the dataset, are the same.
type chunkIO int

const (
	ioAuto   chunkIO = iota
	ioRead           // positioned reads
	ioWindow         // a mapping per chunk, even for a small file
)

// defaultChunk is the size of the line-aligned pieces a text file is parsed in: small
// enough to balance the workers and keep their buffers small, large enough that the
// per-chunk work (a read call, a few allocations) does not show. A file of less than
// four chunks per worker is cut finer (chunkFor), down to minChunk.
const (
	defaultChunk = 8 << 20
	minChunk     = 64 << 10
)

// chunkFor is the chunk size for a text file of size bytes parsed by workers
// goroutines: defaultChunk, or for a smaller file a quarter of each worker's share (at
// least minChunk), so that a file of a few megabytes (a9a's 2.3 MB) is scanned and
// parsed on every core instead of on one.
func chunkFor(size int64, workers int) int64 {
	return max(minChunk, min(size/int64(4*max(workers, 1)), defaultChunk))
}

// ReadFileContext reads a whole data file into memory, as ReadFile does, in the
// layout rc asks for. A plain LIBSVM text file is read in two passes over
// line-aligned chunks, both spread over rc.Workers cores: a byte scan that counts
// rows, stored values and the dimension without parsing a number, then the parse,
// which writes each chunk's rows straight into their final place in arrays allocated
// once at their final size (a dense file is never held sparse first). The result,
// errors included, is the one a single-core read gives: the same bits, and the first
// malformed line of the file reported by file:line:column. Compressed files are
// decompressed and parsed on one core (decompression is serial); a binary cache is
// read by one sequential read into its arrays. ctx (and opts.Context, when set) is
// checked between chunks.
//
// A stream (IsStream: standard input as StdinName, a pipe, a FIFO, a device) is read
// exactly once, whole, into memory, and parsed from there: its format is told by its
// magic bytes or first line, as readStreamInput says.
func ReadFileContext(ctx context.Context, path string, opts Options, rc ReadConfig) (*Dataset, error) {
	if IsStream(path) {
		d, _, err := readStreamInput(ctx, path, opts, rc)
		return d, err
	}
	if isTableFile(path, opts) { // CSV, TSV and Parquet tables: table.go
		d, _, err := readTableContext(ctx, path, opts, rc.Notes)
		if err != nil {
			return nil, err
		}
		return d.WithLayout(rc.Layout), nil
	}
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	head := make([]byte, len(cacheMagic))
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	var d *Dataset
	switch {
	case IsCache(head):
		if d, err = ReadCache(path); err != nil {
			return nil, err
		}
		if rc.Layout != LayoutAuto && !rc.cacheAsSaved {
			d = d.WithLayout(rc.Layout)
		}
		return d, nil
	case isCompressed(head) || !st.Mode().IsRegular():
		if d, err = readStream(ctx, f, path, opts, rc); err == nil {
			d = d.WithLayout(rc.Layout)
		}
	default:
		d, err = readChunks(ctx, f, f, nil, st.Size(), path, opts, rc)
	}
	if err != nil {
		return nil, err
	}
	if d.Rows() == 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	return d, nil
}

// ctxErr is the error of ctx or of opts.Context, whichever is done.
func ctxErr(ctx context.Context, opts Options) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if opts.Context != nil {
		return opts.Context.Err()
	}
	return nil
}

// readStream reads a (compressed) stream on one core, in one pass. Under IndexAuto
// (without a fixed Dim) its indices are read as numbered from 0 for now
// (indexTentative) and shifted at the end when none was 0: the file was numbered
// from 1.
func readStream(ctx context.Context, f io.Reader, path string, opts Options, rc ReadConfig) (*Dataset, error) {
	tentative := opts.Indices == IndexAuto && opts.Dim == 0
	if tentative {
		opts.Indices = indexTentative
	}
	r, err := NewReader(f, path, opts)
	if err != nil {
		return nil, err
	}
	d, err := readAllContext(ctx, r)
	if err != nil || r.cached != nil || r.table != nil {
		return d, err
	}
	if !tentative {
		setIndices(rc, max(opts.Indices, IndexOne))
		return d, nil
	}
	if zero := slices.Index(d.Idx, 0); zero >= 0 {
		row, _ := slices.BinarySearch(d.Ptr, int64(zero)+1)
		noteZero(rc, path, "row", row)
		setIndices(rc, IndexZero)
		return d, nil
	}
	setIndices(rc, IndexOne)
	for i := range d.Idx {
		d.Idx[i]--
	}
	d.Dim = max(d.Dim-1, 0)
	return d, nil
}

// setIndices tells rc.Indices, when set, the index base b a text was read with.
func setIndices(rc ReadConfig, b IndexBase) {
	if rc.Indices != nil {
		*rc.Indices = b
	}
}

// noteZero adds the note that path was found numbered from 0 to rc.Notes; where and
// n say where: the line (a scan) or the row (a stream's parse) of the first index 0.
func noteZero(rc ReadConfig, path, where string, n int) {
	if rc.Notes != nil {
		*rc.Notes = append(*rc.Notes, fmt.Sprintf("%s numbers its features from 0, as scikit-learn writes LIBSVM files (%s %d has an index 0): read so (the index base, given as zero-based or not, says it)", path, where, n))
	}
}

// chunk is one line-aligned piece of a text file and what the scan and the parse
// learned about it.
type chunk struct {
	off, end int64     // byte range, whole lines
	st       lineStats // the scan
	line0    int       // lines before the chunk
	row0     int       // rows before the chunk
	nnz0     int64     // sparse: where the chunk's values start (before compaction)
	nnz      int64     // sparse: values the parse stored
	maxIdx   int       // largest index the parse saw
	failed   bool      // the parse (or the scan) found an error, or disagreed with the scan
}

// loader is one parallel read of a text file.
type loader struct {
	f       io.ReaderAt // the text
	file    *os.File    // the text's file, for mappings of chunks; nil for text in memory
	io      chunkIO
	mapped  []byte // the file's bytes when it is mapped (mapSmall), else nil
	path    string
	opts    Options
	chunks  []chunk
	workers int
	maxLen  int64 // longest chunk
	dim     int   // row stride of the dense layout
	d       *Dataset
	// stop is the index of the first failed chunk, len(chunks) while none: chunks after
	// it need not be parsed.
	stop atomic.Int64
}

// readChunks reads the text of size bytes that f gives (held whole in mapped when not
// nil, else in the file file) in two passes over line-aligned chunks.
func readChunks(ctx context.Context, f io.ReaderAt, file *os.File, mapped []byte, size int64, path string, opts Options, rc ReadConfig) (*Dataset, error) {
	base, err := NewReader(eofReader{}, path, opts) // checks opts; maps labels in file order
	if err != nil {
		return nil, err
	}
	ld := &loader{f: f, file: file, mapped: mapped, path: path, opts: opts, workers: rc.Workers, io: rc.io}
	if file == nil && rc.io == ioWindow {
		ld.io = ioAuto // text in memory has no file to map
	}
	// A small file is mapped for the two passes instead of read twice: no copies out of
	// the page cache, no buffers (a one-pass run on a9a, 3.8 MB: about 1.5 ms of 22). A
	// larger one is mapped a chunk at a time (each).
	if rc.io == ioAuto && ld.mapped == nil && file != nil {
		if ld.mapped = mapSmall(file, size); ld.mapped != nil {
			defer unmapFile(ld.mapped)
		}
	}
	if ld.workers <= 0 {
		ld.workers = runtime.GOMAXPROCS(0)
	}
	csize := int64(rc.chunk)
	if csize <= 0 {
		csize = chunkFor(size, ld.workers)
	}
	if err := ld.split(size, csize); err != nil {
		return nil, err
	}
	// Pass 1: the scan.
	if err := ld.each(ctx, func(_ int, c *chunk, buf []byte) { c.st.scan(buf) }); err != nil {
		return nil, err
	}
	var tot lineStats
	for i := range ld.chunks {
		c := &ld.chunks[i]
		c.line0, c.row0, c.nnz0 = tot.lines, tot.rows, tot.colons
		tot.add(c.st)
		if c.st.long != 0 {
			c.failed = true
		}
	}
	// The index base, the layout, and the arrays at their final size.
	if opts.Indices == IndexAuto || opts.Indices == indexTentative {
		opts.Indices = IndexOne
		if tot.zero != 0 {
			opts.Indices = IndexZero
			noteZero(rc, path, "line", tot.zero)
		}
		ld.opts = opts
	}
	setIndices(rc, opts.Indices)
	dim := tot.maxIdx
	if opts.Indices == IndexZero && tot.rows > 0 {
		dim++ // indices 0..maxIdx
	}
	if opts.Dim > 0 {
		dim = opts.Dim
	}
	rows := tot.rows
	dense := rc.Layout == LayoutDense ||
		rc.Layout == LayoutAuto && rows > 0 && dim > 0 && float64(tot.colons) >= DenseAuto*float64(rows)*float64(dim)
	if dense && (dim > math.MaxInt32 || float64(rows)*float64(dim) > math.MaxInt/16) {
		dense = false // a malformed file: the sparse parse reports it
	}
	d := &Dataset{Name: path, Y: make([]int8, rows), Labels: make([]float64, rows)}
	if dense {
		d.Dense = makeFloats(rows * dim)
		ld.dim = dim
	} else {
		d.Ptr, d.Idx, d.Val = make([]int64, rows+1), make([]int32, tot.colons), makeFloats(int(tot.colons))
	}
	ld.d = d
	ld.stop.Store(int64(len(ld.chunks)))
	for i, c := range ld.chunks {
		if c.failed {
			ld.stop.Store(int64(i))
			break
		}
	}
	// Pass 2: the parse.
	if err := ld.each(ctx, ld.parse); err != nil {
		return nil, err
	}
	return ld.finish(base)
}

// eofReader is an empty stream.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// split cuts the file into chunks of about size bytes that end just after a newline
// (or at the end of the file).
func (ld *loader) split(total, size int64) error {
	var buf [4096]byte
	off := int64(0)
	for off < total {
		end := off + size
		if end >= total {
			end = total
		} else {
			// The chunk ends after the first newline at or after end−1.
			p := end - 1
			for {
				n, err := ld.f.ReadAt(buf[:], p)
				if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
					end = p + int64(i) + 1
					break
				}
				p += int64(n)
				if err == io.EOF || p >= total {
					end = total
					break
				}
				if err != nil {
					return fmt.Errorf("%s: %w", ld.path, err)
				}
			}
		}
		// A chunk that runs more than a line's limit past its nominal end holds a line
		// over the limit: it is not read, and the single-core parse reports it.
		over := end-off > size+MaxLineBytes
		ld.chunks = append(ld.chunks, chunk{off: off, end: end, failed: over})
		if !over {
			ld.maxLen = max(ld.maxLen, end-off)
		}
		off = end
	}
	return nil
}

// each runs fn on every chunk (up to the first failed one) with its bytes, on the
// loader's workers: a slice of the mapped file, else a mapping of the chunk alone (no
// copy out of the page cache: 17 % of a one-core parse of the dense 1.5 GB file was
// that copy), else one positioned read. It stops early, with
// ctx's error, when ctx is done.
func (ld *loader) each(ctx context.Context, fn func(i int, c *chunk, buf []byte)) error {
	var next atomic.Int64
	workers := min(ld.workers, len(ld.chunks))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				i := next.Add(1) - 1
				if i >= int64(len(ld.chunks)) || ld.stopped(i) {
					return
				}
				if err := ctxErr(ctx, ld.opts); err != nil {
					errs[w] = fmt.Errorf("%s: reading stopped: %w", ld.path, err)
					return
				}
				c := &ld.chunks[i]
				if c.failed {
					fn(int(i), c, nil)
					continue
				}
				var m, b []byte // a mapping of the chunk alone, and the chunk's bytes
				if ld.mapped != nil {
					b = ld.mapped[c.off:c.end]
				} else if ld.io != ioRead && ld.file != nil {
					m, b = mapWindow(ld.file, c.off, c.end)
				}
				if b != nil {
					err := guardFault(ld.path, func() { fn(int(i), c, b) })
					if m != nil {
						unmapFile(m)
					}
					if err != nil {
						errs[w] = err
						return
					}
					continue
				}
				if buf == nil {
					buf = make([]byte, ld.maxLen)
				}
				b = buf[:c.end-c.off]
				if _, err := ld.f.ReadAt(b, c.off); err != nil {
					errs[w] = fmt.Errorf("%s: %w", ld.path, err)
					return
				}
				fn(int(i), c, b)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// stopped reports whether chunk i comes after a failed one.
func (ld *loader) stopped(i int64) bool { return ld.d != nil && i > ld.stop.Load() }

// fail records that chunk i failed.
func (ld *loader) fail(i int) {
	ld.chunks[i].failed = true
	for {
		s := ld.stop.Load()
		if int64(i) >= s || ld.stop.CompareAndSwap(s, int64(i)) {
			return
		}
	}
}

// parse parses one chunk's rows into their place: the same line parser as the Reader
// (Reader.parse, labels kept raw; they are mapped in file order by finish).
func (ld *loader) parse(i int, c *chunk, buf []byte) {
	if c.failed {
		ld.fail(i)
		return
	}
	opts := ld.opts
	opts.Raw = true
	r := &Reader{path: ld.path, opts: opts, line: c.line0}
	if opts.Indices == IndexZero {
		r.zb = 1
	}
	d := ld.d
	row, nnz := c.row0, c.nnz0
	limit := c.nnz0 + c.st.colons
	for len(buf) > 0 {
		var line []byte
		n := bytes.IndexByte(buf, '\n')
		if n < 0 {
			line, buf = buf, nil
		} else {
			line, buf = buf[:n], buf[n+1:]
		}
		for len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		r.line++
		ok, err := r.parse(line)
		if err != nil || ok && row >= c.row0+c.st.rows {
			ld.fail(i)
			return
		}
		if !ok {
			continue
		}
		x := r.ex.X
		d.Labels[row] = r.ex.Label
		if d.Dense != nil {
			dst := d.Dense[row*ld.dim : (row+1)*ld.dim]
			if k := len(x.Idx); k > 0 && int(x.Idx[k-1]) >= ld.dim {
				ld.fail(i) // the scan's dimension was wrong: cannot happen for a parsed row
				return
			}
			for k, j := range x.Idx {
				dst[j] = x.Val[k]
			}
		} else {
			if nnz+int64(len(x.Idx)) > limit {
				ld.fail(i)
				return
			}
			copy(d.Idx[nnz:], x.Idx)
			copy(d.Val[nnz:], x.Val)
			nnz += int64(len(x.Idx))
			d.Ptr[row+1] = nnz
		}
		row++
	}
	if row != c.row0+c.st.rows {
		ld.fail(i)
		return
	}
	c.nnz, c.maxIdx = nnz-c.nnz0, r.maxIdx
}

// finish maps the labels in file order, closes the gaps the stored-value bounds left
// in a sparse layout, and turns a failed chunk into the error a single-core read
// reports.
func (ld *loader) finish(base *Reader) (*Dataset, error) {
	d := ld.d
	stop := int(ld.stop.Load())
	// Labels, in file order, up to the first failed chunk.
	rows := len(d.Y)
	if stop < len(ld.chunks) {
		rows = ld.chunks[stop].row0
	}
	for i := range rows {
		if ld.opts.Raw {
			break
		}
		y, err := base.mapLabel(d.Labels[i])
		if err != nil {
			// The first chunk holding row i gives the error, parsed again on one core.
			for c := len(ld.chunks) - 1; c >= 0; c-- {
				if ld.chunks[c].row0 <= i && ld.chunks[c].st.rows > 0 {
					return nil, ld.exactError(c)
				}
			}
		}
		d.Y[i] = y
	}
	if stop < len(ld.chunks) {
		return nil, ld.exactError(stop)
	}
	dim := 0
	for _, c := range ld.chunks {
		dim = max(dim, c.maxIdx)
	}
	if ld.opts.Dim > 0 {
		dim = ld.opts.Dim
	}
	if d.Dense != nil {
		if dim != ld.dim {
			return nil, fmt.Errorf("%s: internal error: the scan found %d features, the parse %d", ld.path, ld.dim, dim)
		}
		d.Dim = dim
		d.setIndices()
		return d, nil
	}
	d.Dim = dim
	var at int64
	for _, c := range ld.chunks {
		if shift := c.nnz0 - at; shift > 0 {
			copy(d.Idx[at:], d.Idx[c.nnz0:c.nnz0+c.nnz])
			copy(d.Val[at:], d.Val[c.nnz0:c.nnz0+c.nnz])
			for r := c.row0 + 1; r <= c.row0+c.st.rows; r++ {
				d.Ptr[r] -= shift
			}
		}
		at += c.nnz
	}
	d.Idx, d.Val = d.Idx[:at], d.Val[:at]
	return d, nil
}

// exactError parses the file from chunk c on, on one core, with the labels seen
// before it, and returns the first error: the one a single-core read of the whole
// file reports.
func (ld *loader) exactError(c int) error {
	r, err := NewReader(eofReader{}, ld.path, ld.opts)
	if err != nil {
		return err
	}
	ch := ld.chunks[c]
	if !ld.opts.Raw {
		for _, l := range ld.d.Labels[:ch.row0] {
			if _, err := r.mapLabel(l); err != nil {
				return fmt.Errorf("%s: internal error: labels before line %d: %w", ld.path, ch.line0+1, err)
			}
		}
	}
	r.br = bufio.NewReaderSize(io.NewSectionReader(ld.f, ch.off, math.MaxInt64-ch.off), 1<<16)
	r.line = ch.line0
	for {
		if _, err := r.Next(); err != nil {
			if err == io.EOF {
				return fmt.Errorf("%s: internal error: the parallel parse failed after line %d, a single-core one did not", ld.path, ch.line0)
			}
			return err
		}
	}
}
