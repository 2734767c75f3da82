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

// csvPart is a part of a table's rows: bytes [off, end) of its file, whole lines.
type csvPart struct{ off, end int64 }

// csvSplit cuts the rows of the table file f (size bytes), after its first skip lines
// (the header, and blank lines before it), into parts of whole lines, four a worker of
// at least minPart bytes each. ok is false when they would make fewer than two parts,
// or a line runs on past MaxLineBytes.
func csvSplit(f io.ReaderAt, size int64, skip, workers, minPart int) (parts []csvPart, ok bool) {
	buf := make([]byte, 64<<10)
	// nextLine returns the offset just after the first newline at or after off.
	nextLine := func(off int64) (int64, bool) {
		for p := off; p < size && p-off <= MaxLineBytes; {
			n, err := f.ReadAt(buf, p)
			if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
				return p + int64(i) + 1, true
			}
			if err != nil {
				return size, err == io.EOF
			}
			p += int64(n)
		}
		return size, false
	}
	off := int64(0)
	for range skip {
		var found bool
		if off, found = nextLine(off); !found || off >= size {
			return nil, false
		}
	}
	step := max((size-off)/int64(4*workers), int64(minPart))
	for off < size {
		end := size
		if off+step < size {
			var found bool
			if end, found = nextLine(off + step - 1); !found {
				return nil, false
			}
		}
		parts = append(parts, csvPart{off, end})
		off = end
	}
	return parts, len(parts) >= 2
}

// withPart runs fn on the bytes of part p of file f: a mapping of the part alone (so
// that the file's pages do not all count in the resident set at once), else a copy
// read into buf. A fault on the mapping (the file truncated under it) is an error.
func withPart(f *os.File, path string, p csvPart, buf *[]byte, fn func(b []byte)) error {
	m, b := mapWindow(f, p.off, p.end)
	if m != nil {
		defer unmapFile(m)
		return guardFault(path, func() { fn(b) })
	}
	if int64(cap(*buf)) < p.end-p.off {
		*buf = make([]byte, p.end-p.off)
	}
	b = (*buf)[:p.end-p.off]
	if _, err := f.ReadAt(b, p.off); err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", path, err)
	}
	fn(b)
	return nil
}

// eachPart runs fn(g, bytes of part g) for every part on up to workers goroutines and
// returns the first error in the parts' order (fn's own, or withPart's).
func eachPart(f *os.File, path string, parts []csvPart, workers int, fn func(g int, b []byte) error) error {
	errs := make([]error, len(parts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(parts)) {
		wg.Go(func() {
			var buf []byte
			for g := int(next.Add(1) - 1); g < len(parts); g = int(next.Add(1) - 1) {
				if err := withPart(f, path, parts[g], &buf, func(b []byte) { errs[g] = fn(g, b) }); err != nil {
					errs[g] = err
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// errQuoted says that a part of a table holds a quote: a quoted cell may hold a line
// break, so a line need not start a record, and the file is read in one piece.
var errQuoted = errors.New("a quote in the rows")

// partLines counts the lines of a part's text b, the last one whether or not it ends
// in a newline; errQuoted when b holds a quote.
func partLines(b []byte) (int, error) {
	if bytes.IndexByte(b, '"') >= 0 {
		return 0, errQuoted
	}
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n, nil
}

// readCSVChunks reads a CSV or TSV table whose header s has read on up to workers
// goroutines at once: the file is cut into parts of whole lines (csvSplit), and each
// part, mapped alone, is parsed and hashed by a source and row builder of its own into
// its share of arrays sized for the whole file (readParts). The dataset is the one of
// the rows read one by one, bit for bit.
//
// ok is false, with nothing read, where the rows must be read one by one: carried
// columns (scoring), a weight column, a stream or a compressed file (no offsets), a
// file of fewer than two parts of minPart bytes, a quote anywhere after the header, or
// a vocabulary whose VocabRows rows are not all in the first part. It is false too when
// a part fails: the sequential read then reports the first error in file order, worded
// as it always is.
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
	if err != nil {
		return nil, false, nil
	}
	parts, ok := csvSplit(f, st.Size(), s.line, workers, minPart)
	if !ok {
		return nil, false, nil
	}
	// The parts' lines (bounds on their rows) and first lines' numbers, and whether the
	// vocabulary's rows are all in the first part.
	lines := make([]int, len(parts))
	vocabOK := r.opts.Vocab == nil || r.opts.Vocab.Rows() >= VocabRows
	if err := eachPart(f, r.path, parts, workers, func(g int, b []byte) (err error) {
		lines[g], err = partLines(b)
		if g == 0 && !vocabOK {
			vocabOK = csvRecords(b, VocabRows) >= VocabRows
		}
		return err
	}); err != nil || !vocabOK {
		return nil, false, nil
	}
	starts, line0 := make([]int64, len(parts)+1), make([]int, len(parts))
	line0[0] = s.line
	for g, n := range lines {
		starts[g+1] = starts[g] + int64(n)
		if g > 0 {
			line0[g] = line0[g-1] + lines[g-1]
		}
	}
	cols := int64(len(s.sch.Numeric) + len(s.sch.Categorical))
	return readParts(ctx, r.path, starts, cols, workers, func(g int, b *csrBuilder) (seen []float64, err error) {
		var buf []byte
		o := r.opts
		if g > 0 {
			o.Vocab = nil
		}
		werr := withPart(f, r.path, parts[g], &buf, func(text []byte) {
			ps := &csvSource{br: bufio.NewReaderSize(bytes.NewReader(text), 1<<16), path: s.path, sep: s.sep,
				line: line0[g], header: s.header, kinds: s.kinds, sch: s.sch}
			ps.b = newRowBuilder(s.path, s.header, s.sch, o)
			if err = addRows(ctx, s.path, ps.next, b); err == nil {
				seen = ps.b.seen
			}
		})
		if werr != nil {
			return nil, werr
		}
		return seen, err
	})
}

// addRows adds the rows next gives to b until io.EOF, checking ctx every few thousand
// rows: a part of a table read by readParts (path names the file in errors).
func addRows(ctx context.Context, path string, next func() (*Example, error), b *csrBuilder) error {
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("%s: reading stopped: %w", path, err)
			}
		}
		ex, err := next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		b.add(ex.Y, ex.Label, ex.X)
	}
}

// csvKindsParts is csvKinds of the plain (not compressed) file f, whose header hs has
// read, counted in parts on up to workers goroutines (csvSplit; each part mapped
// alone), the parts' counts added in file order: the same kinds and notes. ok is
// false, with nothing decided, where the file must be counted as one: fewer than two
// parts of minPart bytes, a quote after the header, one worker, or a part that fails
// (the sequential count reports the first error in file order).
func csvKindsParts(ctx context.Context, f *os.File, hs *csvSource, workers, minPart int) (kinds []colKind, why []string, ok bool, err error) {
	st, serr := f.Stat()
	if serr != nil || workers < 2 {
		return nil, nil, false, nil
	}
	parts, ok := csvSplit(f, st.Size(), hs.line, workers, minPart)
	if !ok {
		return nil, nil, false, nil
	}
	counts, lines := make([]*kindCounts, len(parts)), make([]int, len(parts))
	if err := eachPart(f, hs.path, parts, workers, func(g int, b []byte) (err error) {
		if lines[g], err = partLines(b); err != nil {
			return err
		}
		ps := &csvSource{br: bufio.NewReaderSize(bytes.NewReader(b), 1<<16), path: hs.path, sep: hs.sep}
		counts[g] = newKindCounts(len(hs.header))
		return counts[g].count(ctx, ps)
	}); err != nil {
		if err := ctx.Err(); err != nil {
			return nil, nil, true, fmt.Errorf("%s: reading stopped: %w", hs.path, err)
		}
		return nil, nil, false, nil
	}
	// Each part's lines were counted from 0: its first text cells' lines move past the
	// header's and the earlier parts'.
	before := hs.line
	for g, c := range counts {
		for i := range c.firstLine {
			c.firstLine[i] += before
		}
		before += lines[g]
		if g > 0 {
			counts[0].add(c)
		}
	}
	kinds, why = counts[0].decide(hs.path, hs.header)
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
