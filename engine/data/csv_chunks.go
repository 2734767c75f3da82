package data

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// csvChunkMin is the smallest part of a CSV file readCSVChunks gives a goroutine, and a
// file of fewer than two such parts is read row by row.
const csvChunkMin = 4 << 20

// readCSVChunks reads a CSV or TSV table whose header s has read on up to workers
// goroutines at once: the file is mapped, cut into parts of whole lines, and each part
// parsed and hashed by a source and row builder of its own into its share of arrays
// sized for the whole file (readParts). The dataset is the one of the rows read one by
// one, bit for bit.
//
// ok is false, with nothing read, where the rows must be read one by one: carried
// columns (scoring), a weight column, a stream or a compressed file (no offsets), a
// small file, a file with a quote anywhere after its header (a quoted cell may hold a
// line break, so a line need not start a record), or a vocabulary whose VocabRows rows
// are not all in the first part. It is false too when a part fails: the sequential read
// then reports the first error in file order, worded as it always is.
//
// minPart is the fewest bytes of a part (csvChunkMin).
func readCSVChunks(ctx context.Context, r *Reader, s *csvSource, workers, minPart int) (_ *Dataset, ok bool, _ error) {
	if s.b.carry != nil || s.b.keep != nil || r.opts.Table != nil && r.opts.Table.Weight != "" ||
		workers < 2 || r.reopen == nil || !r.plain || s.line != s.body {
		return nil, false, nil
	}
	f, err := r.reopen()
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() < 2*int64(minPart) {
		return nil, false, nil
	}
	m, text := mapWindow(f, 0, st.Size())
	if m == nil {
		return nil, false, nil
	}
	defer unmapFile(m)
	return guardedCSVChunks(ctx, r, s, workers, minPart, text)
}

// guardedCSVChunks is readCSVChunks on the mapped text, a fault on the mapping (the
// file truncated under it) an error.
func guardedCSVChunks(ctx context.Context, r *Reader, s *csvSource, workers, minPart int, text []byte) (d *Dataset, ok bool, err error) {
	ferr := guardFault(r.path, func() { d, ok, err = csvChunks(ctx, r, s, workers, minPart, text) })
	if ferr != nil {
		return nil, true, ferr
	}
	return d, ok, err
}

// csvChunks is readCSVChunks on the file's text.
func csvChunks(ctx context.Context, r *Reader, s *csvSource, workers, minPart int, text []byte) (_ *Dataset, ok bool, _ error) {
	parts, line0, ok := csvSplit(text, s.line, workers, minPart)
	if !ok {
		return nil, false, nil
	}
	starts := make([]int64, len(parts)+1)
	for g, p := range parts {
		starts[g+1] = starts[g] + int64(csvLines(p))
	}
	if r.opts.Vocab != nil && r.opts.Vocab.Rows() < VocabRows && csvRecords(parts[0], VocabRows) < VocabRows {
		return nil, false, nil // the vocabulary's rows reach past the first part
	}
	cols := int64(len(s.sch.Numeric) + len(s.sch.Categorical))
	return readParts(ctx, r.path, starts, cols, workers, func(g int, b *csrBuilder) ([]float64, error) {
		o := r.opts
		if g > 0 {
			o.Vocab = nil
		}
		ps := &csvSource{br: bufio.NewReaderSize(bytes.NewReader(parts[g]), 1<<16), path: s.path, sep: s.sep,
			line: line0[g], header: s.header, kinds: s.kinds, sch: s.sch}
		ps.b = newRowBuilder(s.path, s.header, s.sch, o)
		for n := 0; ; n++ {
			if n%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, fmt.Errorf("%s: reading stopped: %w", s.path, err)
				}
			}
			ex, err := ps.next()
			if errors.Is(err, io.EOF) {
				return ps.b.seen, nil
			}
			if err != nil {
				return nil, err
			}
			b.add(ex.Y, ex.Label, ex.X)
		}
	})
}

// csvSplit cuts the rows of a table's text, after its first skip lines (the header,
// and blank lines before it), into parts of whole lines, four a worker of at least
// minPart bytes each, and returns them with the number of the line before each. ok is
// false when the rows hold a quote (a quoted cell may hold a line break, so a line need
// not start a record) or make fewer than two parts.
func csvSplit(text []byte, skip, workers, minPart int) (parts [][]byte, line0 []int, ok bool) {
	body := text
	for range skip {
		i := bytes.IndexByte(body, '\n')
		if i < 0 {
			return nil, nil, false
		}
		body = body[i+1:]
	}
	if bytes.IndexByte(body, '"') >= 0 {
		return nil, nil, false
	}
	size := max(len(body)/(4*workers), minPart)
	line := skip
	for len(body) > 0 {
		end := len(body)
		if size < end {
			end = size
			if i := bytes.IndexByte(body[end-1:], '\n'); i >= 0 {
				end += i
			} else {
				end = len(body)
			}
		}
		parts, line0 = append(parts, body[:end]), append(line0, line)
		line += csvLines(body[:end])
		body = body[end:]
	}
	return parts, line0, len(parts) >= 2
}

// csvLines counts the lines of text, the last one whether or not it ends in a newline.
func csvLines(text []byte) int {
	n := bytes.Count(text, []byte{'\n'})
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// csvKindsParts is csvKinds of the plain (not compressed) file f counted in parts on up
// to workers goroutines (csvSplit), the parts' counts added in file order: the same
// kinds and notes. ok is false, with nothing decided, where the file must be counted
// as one: a small file, a quote after the header, one worker, or a part that fails
// (the sequential count reports the first error in file order).
func csvKindsParts(ctx context.Context, f *os.File, path string, sep byte, workers, minPart int) (kinds []colKind, why []string, ok bool, err error) {
	st, serr := f.Stat()
	if serr != nil || workers < 2 || st.Size() < 2*int64(minPart) {
		return nil, nil, false, nil
	}
	m, text := mapWindow(f, 0, st.Size())
	if m == nil {
		return nil, nil, false, nil
	}
	defer unmapFile(m)
	if ferr := guardFault(path, func() { kinds, why, ok, err = csvKindsText(ctx, text, path, sep, workers, minPart) }); ferr != nil {
		return nil, nil, true, ferr
	}
	return kinds, why, ok, err
}

// csvKindsText is csvKindsParts on the file's text.
func csvKindsText(ctx context.Context, text []byte, path string, sep byte, workers, minPart int) (kinds []colKind, why []string, ok bool, err error) {
	hs := &csvSource{br: bufio.NewReaderSize(bytes.NewReader(text), 1<<16), path: path, sep: sep}
	if hs.readHeader() != nil {
		return nil, nil, false, nil
	}
	parts, line0, ok := csvSplit(text, hs.line, workers, minPart)
	if !ok {
		return nil, nil, false, nil
	}
	counts, errs := make([]*kindCounts, len(parts)), make([]error, len(parts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(parts)) {
		wg.Go(func() {
			for g := int(next.Add(1) - 1); g < len(parts); g = int(next.Add(1) - 1) {
				ps := &csvSource{br: bufio.NewReaderSize(bytes.NewReader(parts[g]), 1<<16), path: path, sep: sep, line: line0[g]}
				counts[g] = newKindCounts(len(hs.header))
				errs[g] = counts[g].count(ctx, ps)
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, true, fmt.Errorf("%s: reading stopped: %w", path, err)
	}
	for _, err := range errs {
		if err != nil {
			return nil, nil, false, nil
		}
	}
	for _, c := range counts[1:] {
		counts[0].add(c)
	}
	kinds, why = counts[0].decide(path, hs.header)
	return kinds, why, true, nil
}

// csvRecords counts the records (lines not blank) at the start of text, up to limit.
func csvRecords(text []byte, limit int) int {
	n := 0
	for len(text) > 0 && n < limit {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		if len(bytes.TrimRight(line, "\r")) > 0 {
			n++
		}
	}
	return n
}
