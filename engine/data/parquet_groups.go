package data

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"
)

// readParquetGroups reads the row groups of a Parquet table on up to workers goroutines
// at once, each group into its share of arrays sized by the file's metadata (at most
// one stored value per feature column and row), then closes the gaps that skipped rows
// and merged buckets leave: the dataset readAllContext makes from the rows one by one,
// bit for bit, in about 1/workers of the time. A Parquet file is decoded and hashed
// row by row, so this is most of a table's load (10⁶ rows of 22 hashed columns: 4.1 s
// of a 7.7 s ls-auc run, on one core).
//
// ok is false, with nothing read, where the rows must be read one by one: a table read
// with carried columns (scoring), a weight column, one row group, one worker, a
// vocabulary whose first VocabRows rows are not all in the first group (the counts
// follow the file's order), or rows already read. It is false too, after a read, when a
// group fails or the groups' labels together are not two classes: the sequential read
// then reports the first error in file order, worded as it always has been.
func readParquetGroups(ctx context.Context, r *Reader, s *parquetSource, workers int) (_ *Dataset, ok bool, _ error) {
	groups := s.groups
	switch {
	case s.b.carry != nil || s.b.keep != nil, r.opts.Table != nil && r.opts.Table.Weight != "",
		len(groups) < 2, workers < 2, s.row != 0, s.rows != nil, s.group != 0,
		s.b.vocab != nil && groups[0].NumRows() < VocabRows:
		return nil, false, nil
	}
	cols := int64(len(s.sch.Numeric) + len(s.sch.Categorical))
	starts := make([]int64, len(groups)+1)
	for g := range groups {
		starts[g+1] = starts[g] + groups[g].NumRows()
	}
	return readParts(ctx, r.path, starts, cols, workers, func(g int, b *csrBuilder) ([]float64, error) {
		return readParquetGroup(ctx, r, s, g, starts, b)
	})
}

// readParts reads a table in parts on up to workers goroutines at once: part g holds at
// most starts[g+1] − starts[g] rows of at most cols stored values each, and read(g, b)
// adds its rows to b, whose arrays are the part's share of arrays sized for the whole
// table, and returns the labels it saw. The gaps that rows skipped and buckets merged
// leave are closed after, part by part in order: the dataset of the rows added one by
// one, in the parts' order. ok is false, with nothing read, when a part fails, holds
// more rows than its bound, or the parts' labels together are not two classes: a
// sequential read then reports the first error in file order.
func readParts(ctx context.Context, path string, starts []int64, cols int64, workers int,
	read func(g int, b *csrBuilder) ([]float64, error)) (_ *Dataset, ok bool, _ error) {
	n := len(starts) - 1
	total := starts[n]
	y, labels := make([]int8, total), make([]float64, total)
	idx, val := make([]int32, total*cols), make([]float64, total*cols)
	type part struct {
		b    csrBuilder
		seen []float64
		err  error
	}
	parts := make([]part, n)
	var next atomic.Int64
	var bad atomic.Bool // a part failed: the parts not started are not read
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for !bad.Load() {
				g := int(next.Add(1) - 1)
				if g >= n {
					return
				}
				p := &parts[g]
				r0, r1, v0, v1 := starts[g], starts[g+1], starts[g]*cols, starts[g+1]*cols
				p.b = csrBuilder{y: y[r0:r0:r1], labels: labels[r0:r0:r1], ptr: make([]int64, 1, r1-r0+1),
					idx: idx[v0:v0:v1], val: val[v0:v0:v1], fixed: true}
				p.seen, p.err = read(g, &p.b)
				if p.err == nil && (!p.b.fixed || len(p.b.y) > int(r1-r0)) {
					p.err = fmt.Errorf("%s: part %d holds more than its %d rows", path, g+1, r1-r0)
				}
				if p.err != nil {
					bad.Store(true)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, true, fmt.Errorf("%s: reading stopped: %w", path, err)
	}
	if bad.Load() {
		// Read again row by row: the first error in file order, worded as ever. (The
		// first part's vocabulary counts, if any, are then counted twice: the read
		// fails all the same.)
		return nil, false, nil
	}
	var seen []float64
	for g := range parts {
		for _, v := range parts[g].seen {
			if !slices.Contains(seen, v) {
				seen = append(seen, v)
			}
		}
	}
	if len(seen) > 0 && !BinaryLabels(seen) {
		return nil, false, nil
	}
	// Close the gaps, part by part in file order: each part's rows and values move
	// down to where the previous part's end, never past where they lie.
	var rows, nnz int64
	ptr := make([]int64, 1, total+1)
	dim := 0
	for g := range parts {
		b := &parts[g].b
		n, m := int64(len(b.y)), b.nnz
		copy(y[rows:rows+n], y[starts[g]:starts[g]+n])
		copy(labels[rows:rows+n], labels[starts[g]:starts[g]+n])
		lo := starts[g] * cols
		copy(idx[nnz:nnz+m], idx[lo:lo+m])
		copy(val[nnz:nnz+m], val[lo:lo+m])
		for _, q := range b.ptr[1:] {
			ptr = append(ptr, nnz+q)
		}
		rows, nnz, dim = rows+n, nnz+m, max(dim, b.dim)
		parts[g] = part{}
	}
	return &Dataset{Name: path, Dim: dim, Y: y[:rows:rows], Labels: labels[:rows:rows], Ptr: ptr,
		Idx: idx[:nnz:nnz], Val: val[:nnz:nnz]}, true, nil
}

// readParquetGroup reads row group g of s's file (its rows from starts[g] on) into b,
// with a row builder of its own (the vocabulary counted in the first group only),
// returning the labels it saw.
func readParquetGroup(ctx context.Context, r *Reader, s *parquetSource, g int, starts []int64, b *csrBuilder) ([]float64, error) {
	o := r.opts
	if g > 0 {
		o.Vocab = nil
	}
	gs := &parquetSource{f: s.f, path: s.path, header: s.header, kinds: s.kinds, types: s.types, sch: s.sch,
		groups: s.groups[g : g+1], buf: make([]parquet.Row, parquetBatch), row: int(starts[g])}
	gs.b = newRowBuilder(s.path, s.header, s.sch, o)
	defer gs.close()
	if err := addRows(ctx, s.path, gs.next, b); err != nil {
		return nil, err
	}
	return gs.b.seen, nil
}
