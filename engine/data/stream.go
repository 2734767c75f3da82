package data

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/aucopt/aucopt/kernels"
)

// Streamed accumulation: a reduction over every row of a data file (class moments,
// counts) that reads the file once, in memory independent of its rows. Plain LIBSVM
// text is cut into chunks of whole lines (DefaultChunkBytes each: the cut depends on
// the file alone), each parsed into its own accumulator by one of several goroutines,
// and the accumulators are merged in file order, so the result does not depend on the
// number of goroutines. A compressed file, a binary cache or a table is read in order
// by one Reader into one accumulator. Labels follow the label rules over the whole
// file (labels.go): the first label that makes no binary problem with those before it
// is an error naming its line, and a malformed line gives the *ParseError of the
// file's first bad line, as reading the file in one piece would.

// DefaultChunkBytes is the size of the chunks plain text is cut into for streamed
// accumulation (rounded to whole lines).
const DefaultChunkBytes = 8 << 20

// StreamConfig controls StreamRows.
type StreamConfig struct {
	// Workers is the number of goroutines parsing chunks; ≤ 0 means GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// ChunkBytes is the chunk size; ≤ 0 means DefaultChunkBytes. The result may depend
	// on it (by the rounding of the merges): it fixes the cut.
	ChunkBytes int
}

// Accumulator is what StreamRows reduces rows into: A is one accumulator (a chunk's,
// or the total).
type Accumulator[A any] struct {
	// Begin, when set, is called once before any row with how the file is read.
	Begin func(plan StreamPlan) error
	// New returns an empty accumulator for rows of dim features (0 when not known
	// before the rows: LIBSVM text).
	New func(dim int) A
	// Add adds the row x labelled y (±1), read at line, to a. Its error stops the
	// stream and is returned as it is. It is called from several goroutines at once,
	// on different accumulators.
	Add func(a A, y int8, x kernels.Sparse, line int) error
	// Merge adds next, the accumulator of the rows that follow total's, to total.
	Merge func(total, next A)
}

// StreamPlan says how StreamRows reads a file.
type StreamPlan struct {
	// Live is the most accumulators alive at once (the chunks being parsed or waiting
	// to be merged, and the total).
	Live int
	// Dim is the number of features known before the rows (a table's, from its
	// schema); 0 when the rows tell it.
	Dim int
}

// StreamInfo describes a streamed file.
type StreamInfo struct {
	Rows   int64  // examples read
	Chunks int    // chunks the file was cut into (1 when read in order)
	SHA256 string // of the file as stored
	Bytes  int64  // bytes of the file as stored
	// Schema is the table schema a CSV, TSV or Parquet file was read with (nil for
	// LIBSVM text or a cache).
	Schema *Schema
}

// StreamRows reads the data file path once and reduces its rows, labelled ±1 by the
// label rules (opts.Positive), into acc's accumulators: chunks of plain LIBSVM text in
// parallel, anything else in order (see the section's doc). It returns the total and
// the file's description, its fingerprint included. opts.Raw is not allowed.
func StreamRows[A any](ctx context.Context, path string, opts Options, sc StreamConfig, acc Accumulator[A]) (A, StreamInfo, error) {
	var zero A
	var info StreamInfo
	if opts.Raw {
		return zero, info, fmt.Errorf("%s: raw labels cannot be accumulated per class", path)
	}
	if isTableFile(path, opts) {
		return streamTableRows(ctx, path, opts, acc)
	}
	rule, err := NewLabelRule(opts.Positive)
	if err != nil {
		return zero, info, err
	}
	ff, err := DetectFile(path)
	if err != nil {
		return zero, info, err
	}
	if ff.Stream {
		return zero, info, fmt.Errorf("%s: %w: a stream is read once; streamed accumulation reads a file", path, ErrNotRegular)
	}
	f, err := openInput(path)
	if err != nil {
		return zero, info, err
	}
	defer f.Close()
	h := sha256.New()
	var total A
	if ff.Compression != "" || !ff.Format.Chunked { // compressed, a cache: in order
		total, err = streamOrdered(ctx, io.TeeReader(f, h), path, opts, rule, acc, &info)
		info.Bytes = ff.Size
	} else {
		total, err = streamChunks(ctx, f, ff.Size, h, path, opts, rule, sc, acc, &info)
	}
	if err != nil {
		return zero, info, err
	}
	if info.Rows == 0 {
		return zero, info, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	info.SHA256 = hex.EncodeToString(h.Sum(nil))
	return total, info, nil
}

// streamOrdered accumulates a compressed file or a cache read by one Reader.
func streamOrdered[A any](ctx context.Context, r io.Reader, path string, opts Options, rule LabelRule, acc Accumulator[A], info *StreamInfo) (A, error) {
	var zero A
	ropts := opts
	ropts.Raw = true
	rd, err := NewReader(r, path, ropts)
	if err != nil {
		return zero, err
	}
	if acc.Begin != nil {
		if err := acc.Begin(StreamPlan{Live: 1}); err != nil {
			return zero, err
		}
	}
	total := acc.New(ropts.Dim)
	var seen LabelSet
	for {
		if info.Rows%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return zero, err
			}
		}
		ex, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return zero, err
		}
		y := ex.Y // a cache's rows are labelled ±1 already
		if y == 0 {
			if err := seen.Add(rule, ex.Label, path, ex.Line); err != nil {
				return zero, err
			}
			y = rule.Y(ex.Label)
		}
		if err := acc.Add(total, y, ex.X, ex.Line); err != nil {
			return zero, err
		}
		info.Rows++
	}
	info.Chunks = 1
	return total, nil
}

// streamTableRows accumulates a CSV, TSV or Parquet table read row by row by a Reader
// (Open: the kinds of its columns from the whole file first, then its rows in order,
// so that no row is taken for a header), its labels mapped by the table's rules, on
// one core; then its fingerprint.
func streamTableRows[A any](ctx context.Context, path string, opts Options, acc Accumulator[A]) (A, StreamInfo, error) {
	var zero A
	var info StreamInfo
	in := opts
	in.Context = ctx
	rd, err := Open(path, in)
	if err != nil {
		return zero, info, err
	}
	defer rd.Close()
	if acc.Begin != nil {
		if err := acc.Begin(StreamPlan{Live: 1, Dim: rd.MaxIndex()}); err != nil {
			return zero, info, fmt.Errorf("%s: %w", path, err)
		}
	}
	total := acc.New(rd.MaxIndex())
	for {
		if info.Rows%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return zero, info, err
			}
		}
		ex, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return zero, info, err
		}
		if err := acc.Add(total, ex.Y, ex.X, ex.Line); err != nil {
			return zero, info, err
		}
		info.Rows++
	}
	if info.Rows == 0 {
		return zero, info, fmt.Errorf("%s: %w", path, ErrEmpty)
	}
	info.Chunks, info.Schema = 1, rd.Schema()
	if st, err := os.Stat(path); err == nil {
		info.Bytes = st.Size()
	}
	if info.SHA256, err = Fingerprint(path); err != nil {
		return zero, info, err
	}
	return total, info, nil
}

// rowChunk is a piece of whole lines of the file and, once parsed, its accumulator.
type rowChunk[A any] struct {
	idx       int
	buf       []byte
	firstLine int // the file's line number of the chunk's first line
	acc       A
	seen      LabelSet
	rows      int64
	err       error // the chunk's first parse error, with the file's line number
}

// streamChunks cuts the file f (of size bytes) into chunks of whole lines, parses
// them on workers and merges their accumulators in file order.
func streamChunks[A any](ctx context.Context, f io.Reader, size int64, h hash.Hash, path string, opts Options, rule LabelRule,
	sc StreamConfig, acc Accumulator[A], info *StreamInfo) (A, error) {
	var zero A
	workers := sc.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	csize := sc.ChunkBytes
	if csize <= 0 {
		csize = DefaultChunkBytes
	}
	if acc.Begin != nil {
		// The chunks being parsed or waiting to be merged (at most workers + 2, the
		// buffers in flight, and at most the file's chunks), and the total.
		live := int(min(int64(workers+2), size/int64(csize)+1)) + 1
		if err := acc.Begin(StreamPlan{Live: live}); err != nil {
			return zero, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// tokens bound the chunks alive at once (read, parsed or waiting to be merged).
	tokens := make(chan []byte, workers+2)
	for range workers + 2 {
		tokens <- make([]byte, 0, csize)
	}
	todo := make(chan *rowChunk[A], workers)
	done := make(chan *rowChunk[A], workers+2)
	readErr := make(chan error, 1)
	var wg sync.WaitGroup
	// The reader: whole lines, the partial last one carried to the next chunk.
	wg.Go(func() {
		defer close(todo)
		var carry []byte
		line := 1
		for idx := 0; ; idx++ {
			var buf []byte
			select {
			case buf = <-tokens:
			case <-ctx.Done():
				return
			}
			buf = append(buf[:0], carry...)
			eof := false
			limit := csize
			for !eof {
				if len(buf) >= limit {
					// A chunk ends at a newline: read on while the chunk holds none (one
					// line longer than a chunk), up to what the parser rejects anyway.
					if bytes.IndexByte(buf, '\n') >= 0 || len(buf) > csize+MaxLineBytes {
						break
					}
					limit = len(buf) + csize
				}
				if cap(buf) < limit {
					buf = append(make([]byte, 0, limit), buf...)
				}
				n, err := f.Read(buf[len(buf):limit])
				if n > 0 {
					h.Write(buf[len(buf) : len(buf)+n])
					info.Bytes += int64(n)
				}
				buf = buf[:len(buf)+n]
				if err == io.EOF {
					eof = true
				} else if err != nil {
					readErr <- fmt.Errorf("%s: after line %d: %w", path, line, err)
					return
				}
			}
			carry = carry[:0]
			if !eof {
				if cut := bytes.LastIndexByte(buf, '\n'); cut >= 0 {
					carry = append(carry, buf[cut+1:]...)
					buf = buf[:cut+1]
				}
			}
			if len(buf) == 0 && eof {
				tokens <- buf
				return
			}
			c := &rowChunk[A]{idx: idx, buf: buf, firstLine: line}
			line += bytes.Count(buf, []byte{'\n'})
			select {
			case todo <- c:
			case <-ctx.Done():
				return
			}
			if eof {
				return
			}
		}
	})
	for range workers {
		wg.Go(func() {
			for c := range todo {
				parseRowChunk(ctx, c, path, opts, rule, acc)
				select {
				case done <- c:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	total := acc.New(opts.Dim)
	var seen LabelSet
	pending := map[int]*rowChunk[A]{}
	next := 0
	var err error
	for c := range done {
		if err != nil {
			continue // drain
		}
		pending[c.idx] = c
		for p := pending[next]; p != nil && err == nil; p = pending[next] {
			delete(pending, next)
			next++
			// The file's labels in order: the chunk's first occurrences, then its error.
			for _, l := range p.seen.Labels {
				if err = seen.Add(rule, l.Label, l.File, l.Line); err != nil {
					break
				}
			}
			if err == nil {
				err = p.err
			}
			if err == nil {
				acc.Merge(total, p.acc)
				info.Rows += p.rows
			}
			p.acc = zero
			tokens <- p.buf
		}
		if err != nil {
			cancel()
		}
	}
	if err == nil {
		select {
		case err = <-readErr:
		default:
			err = ctx.Err()
		}
	}
	if err != nil {
		return zero, err
	}
	info.Chunks = next
	return total, nil
}

// parseRowChunk parses c's lines into c.acc, c.seen and c.rows, or sets c.err: the
// Reader's line parser, its lines numbered as the file's.
func parseRowChunk[A any](ctx context.Context, c *rowChunk[A], path string, opts Options, rule LabelRule, acc Accumulator[A]) {
	opts.Raw = true
	c.acc = acc.New(opts.Dim)
	rd := &Reader{path: path, opts: opts, br: bufio.NewReaderSize(bytes.NewReader(c.buf), 1<<16), line: c.firstLine - 1}
	if opts.Indices == IndexZero {
		rd.zb = 1
	}
	for {
		if c.rows%4096 == 0 && ctx.Err() != nil {
			c.err = ctx.Err()
			return
		}
		ex, err := rd.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			c.err = err
			return
		}
		if c.seen.Note(ex.Label, path, ex.Line) {
			// A third distinct label: the file cannot be binary; the merge reports
			// the exact line from the labels noted so far.
			return
		}
		if err := acc.Add(c.acc, rule.Y(ex.Label), ex.X, ex.Line); err != nil {
			c.err = err
			return
		}
		c.rows++
	}
}
