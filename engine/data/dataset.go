package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/aucopt/aucopt/kernels"
)

// Dataset is a labelled set of rows held in memory, in one of two layouts:
//
//   - compressed sparse rows: row i has indices Idx[Ptr[i]:Ptr[i+1]] (0-based, strictly
//     increasing) and values Val[…];
//   - dense (ToDense): Dense holds every row in full, row-major Rows()×Dim, and Ptr, Idx
//     and Val are nil.
//
// Row(i) serves both layouts. A Dataset is safe for concurrent reads.
type Dataset struct {
	Name   string    // where it came from (file path or dataset name)
	Dim    int       // number of features
	Y      []int8    // +1 or −1 (0 for raw labels)
	Labels []float64 // labels as read
	Ptr    []int64   // len Rows()+1 (sparse layout)
	Idx    []int32
	Val    []float64
	Dense  []float64 // Rows()×Dim (dense layout)
	// W holds the rows' sample weights, one a row (nil: every row weighs 1); see
	// SetWeights and weights.go.
	W []float64

	allIdx []int32 // 0..Dim−1: the indices of a dense row as a Sparse
}

// DenseAuto is the density (stored values / (rows·features)) from which Load and
// ReadFile with LayoutAuto keep a dataset dense.
const DenseAuto = 0.5

// Rows is the number of examples.
func (d *Dataset) Rows() int { return len(d.Y) }

// IsDense reports whether the dataset has the dense layout.
func (d *Dataset) IsDense() bool { return d.Dense != nil }

// Row is row i as a sparse vector sharing the Dataset's storage (for a dense row, all
// Dim indices).
func (d *Dataset) Row(i int) kernels.Sparse {
	if d.Dense != nil {
		return kernels.Sparse{Idx: d.allIdx, Val: d.DenseRow(i)}
	}
	lo, hi := d.Ptr[i], d.Ptr[i+1]
	return kernels.Sparse{Idx: d.Idx[lo:hi:hi], Val: d.Val[lo:hi:hi]}
}

// DenseRow is row i of a dense dataset, sharing its storage; nil for a sparse one.
func (d *Dataset) DenseRow(i int) []float64 {
	if d.Dense == nil {
		return nil
	}
	return d.Dense[i*d.Dim : (i+1)*d.Dim : (i+1)*d.Dim]
}

// Nnz is the number of stored feature values (Rows()·Dim for a dense dataset).
func (d *Dataset) Nnz() int {
	if d.Dense != nil {
		return len(d.Dense)
	}
	return len(d.Idx)
}

// Density is the share of stored values among Rows()·Dim.
func (d *Dataset) Density() float64 {
	if d.Rows() == 0 || d.Dim == 0 {
		return 0
	}
	return float64(d.Nnz()) / (float64(d.Rows()) * float64(d.Dim))
}

// ToDense returns a copy of d in the dense layout (d itself when already dense).
func (d *Dataset) ToDense() *Dataset {
	if d.Dense != nil {
		return d
	}
	out := &Dataset{Name: d.Name, Dim: d.Dim, Y: d.Y, Labels: d.Labels, W: d.W, Dense: make([]float64, d.Rows()*d.Dim)}
	out.setIndices()
	for i := range d.Rows() {
		row := out.DenseRow(i)
		r := d.Row(i)
		for k, j := range r.Idx {
			row[j] = r.Val[k]
		}
	}
	return out
}

// NewDense returns a dense dataset of dim features over x (row-major, len(y)×dim,
// kept, not copied) with labels y (kept; Labels are y's values).
func NewDense(name string, dim int, y []int8, x []float64) (*Dataset, error) {
	if dim < 1 || len(x) != len(y)*dim {
		return nil, fmt.Errorf("dense dataset %s: %d values for %d rows of %d features", name, len(x), len(y), dim)
	}
	labels := make([]float64, len(y))
	for i, v := range y {
		labels[i] = float64(v)
	}
	d := &Dataset{Name: name, Dim: dim, Y: y, Labels: labels, Dense: x}
	d.setIndices()
	return d, nil
}

// ToSparse returns a copy of d in the sparse layout, keeping only non-zero values (d
// itself when already sparse).
func (d *Dataset) ToSparse() *Dataset {
	if d.Dense == nil {
		return d
	}
	out := &Dataset{Name: d.Name, Dim: d.Dim, Ptr: make([]int64, 1, d.Rows()+1)}
	var buf kernels.Sparse
	for i := range d.Rows() {
		buf.Idx, buf.Val = buf.Idx[:0], buf.Val[:0]
		for j, v := range d.DenseRow(i) {
			if v != 0 {
				buf.Idx = append(buf.Idx, int32(j))
				buf.Val = append(buf.Val, v)
			}
		}
		out.Append(d.Y[i], d.Labels[i], buf)
	}
	out.Dim, out.W = d.Dim, d.W
	return out
}

// Layout chooses how ReadFile and Load hold data in memory.
type Layout int

// The layouts.
const (
	LayoutAuto   Layout = iota // dense when Density() ≥ DenseAuto, else sparse
	LayoutSparse               // compressed sparse rows
	LayoutDense                // every row in full
)

// WithLayout returns d in layout l.
func (d *Dataset) WithLayout(l Layout) *Dataset {
	switch {
	case l == LayoutDense, l == LayoutAuto && d.Density() >= DenseAuto:
		return d.ToDense()
	}
	return d.ToSparse()
}

func (d *Dataset) setIndices() {
	d.allIdx = make([]int32, d.Dim)
	for j := range d.allIdx {
		d.allIdx[j] = int32(j)
	}
}

// Mean returns the mean of the rows, feature by feature (a sparse row's implicit zeros
// count): the sums in row order, then divided by the rows.
func (d *Dataset) Mean() []float64 {
	m := make([]float64, d.Dim)
	for i := range d.Rows() {
		r := d.Row(i)
		for k, j := range r.Idx {
			m[j] += r.Val[k]
		}
	}
	for j := range m {
		m[j] /= float64(d.Rows())
	}
	return m
}

// Counts returns the number of positive and negative examples.
func (d *Dataset) Counts() (pos, neg int) {
	for _, y := range d.Y {
		switch y {
		case 1:
			pos++
		case -1:
			neg++
		}
	}
	return pos, neg
}

// Append adds one example (copying its row). On a dense dataset the row's indices
// must be below Dim.
func (d *Dataset) Append(y int8, label float64, x kernels.Sparse) {
	if d.Dense != nil {
		d.Y = append(d.Y, y)
		d.Labels = append(d.Labels, label)
		n := len(d.Dense)
		d.Dense = append(d.Dense, make([]float64, d.Dim)...)
		for k, j := range x.Idx {
			d.Dense[n+int(j)] = x.Val[k]
		}
		return
	}
	if len(d.Ptr) == 0 {
		d.Ptr = append(d.Ptr, 0)
	}
	d.Y = append(d.Y, y)
	d.Labels = append(d.Labels, label)
	d.Idx = append(d.Idx, x.Idx...)
	d.Val = append(d.Val, x.Val...)
	d.Ptr = append(d.Ptr, int64(len(d.Idx)))
	if n := len(x.Idx); n > 0 && int(x.Idx[n-1]) >= d.Dim {
		d.Dim = int(x.Idx[n-1]) + 1
	}
}

// ReadAll reads every remaining example of r into a Dataset. Its Dim is the largest
// index seen, or opts.Dim of the Reader when that is set.
func ReadAll(r *Reader) (*Dataset, error) { return readAllContext(context.Background(), r) }

// readAllContext is ReadAll checking ctx every few thousand rows. The rows are
// collected by a csrBuilder: the dataset is held once, at its final size, instead of
// growing by repeated copies (a 10⁷-row hashed click table: 2.6 GB of values).
func readAllContext(ctx context.Context, r *Reader) (*Dataset, error) {
	var d *Dataset
	var ok bool
	var err error
	switch s := r.table.(type) {
	case *parquetSource:
		d, ok, err = readParquetGroups(ctx, r, s, runtime.GOMAXPROCS(0))
	case *csvSource:
		d, ok, err = readCSVChunks(ctx, r, s, runtime.GOMAXPROCS(0), csvChunkMin)
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return readRows(ctx, r)
	}
	if r.opts.Dim > 0 {
		d.Dim = r.opts.Dim
	}
	return d, nil
}

// readRows is readAllContext reading r's rows one by one.
func readRows(ctx context.Context, r *Reader) (*Dataset, error) {
	var b csrBuilder
	if rows, values, ok := r.SizeHint(); ok {
		b.reserve(rows, values)
	}
	var w []float64 // a table's weight column (TableOptions.Weight)
	weighted := r.table != nil && r.opts.Table != nil && r.opts.Table.Weight != ""
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%s: reading stopped: %w", r.path, err)
			}
		}
		ex, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		b.add(ex.Y, ex.Label, ex.X)
		if weighted {
			w = append(w, ex.Weight)
		}
	}
	d := b.dataset(r.path)
	d.W = w
	if r.opts.Dim > 0 {
		d.Dim = r.opts.Dim
	}
	return d, nil
}

// sizeHinter is a table source that knows bounds of its size before reading it (a
// Parquet file's metadata): at most rows rows of at most nnz stored values in all.
type sizeHinter interface {
	sizeHint() (rows int, nnz int64)
}

// csrFirst and csrChunk are the numbers of values of csrBuilder's first chunk and of
// its largest (12 MB), the chunks doubling in between.
const (
	csrFirst = 1 << 12
	csrChunk = 1 << 20
)

// csrBuilder collects sparse rows as Dataset.Append would, without its growth by
// repeated copying (up to 2.25× the values live while a slice grows, and the garbage of
// every earlier size). With reserve's bounds the rows go straight into arrays of the
// bounded size (pages past the end stay untouched, so not resident); otherwise the
// values go into chunks (doubling up to 12 MB), copied once into arrays of the exact size at the end.
type csrBuilder struct {
	y      []int8
	labels []float64
	ptr    []int64
	idx    []int32   // the current chunk, or the reserved arrays
	val    []float64 // the same
	full   []csrPart // the filled chunks before idx and val
	nnz    int64
	dim    int
	fixed  bool // reserved: idx and val are the final arrays while they have room
}

// csrPart is one filled chunk.
type csrPart struct {
	idx []int32
	val []float64
}

// reserve sizes the builder for at most rows rows and nnz values.
func (b *csrBuilder) reserve(rows int, nnz int64) {
	if rows <= 0 || nnz <= 0 {
		return
	}
	b.y, b.labels, b.ptr = make([]int8, 0, rows), make([]float64, 0, rows), make([]int64, 1, rows+1)
	b.idx, b.val, b.fixed = make([]int32, 0, nnz), make([]float64, 0, nnz), true
}

// add appends one row (copying it).
func (b *csrBuilder) add(y int8, label float64, x kernels.Sparse) {
	if len(b.ptr) == 0 {
		b.ptr = append(b.ptr, 0)
	}
	if len(b.idx)+len(x.Idx) > cap(b.idx) {
		if len(b.idx) > 0 {
			b.full = append(b.full, csrPart{b.idx, b.val})
		}
		c := max(min(2*cap(b.idx), csrChunk), csrFirst, len(x.Idx)) // small files stay small
		b.idx, b.val, b.fixed = make([]int32, 0, c), make([]float64, 0, c), false
	}
	b.y = append(b.y, y)
	b.labels = append(b.labels, label)
	b.idx = append(b.idx, x.Idx...)
	b.val = append(b.val, x.Val...)
	b.nnz += int64(len(x.Idx))
	b.ptr = append(b.ptr, b.nnz)
	if n := len(x.Idx); n > 0 && int(x.Idx[n-1]) >= b.dim {
		b.dim = int(x.Idx[n-1]) + 1
	}
}

// dataset assembles the rows added as a sparse Dataset named name.
func (b *csrBuilder) dataset(name string) *Dataset {
	d := &Dataset{Name: name, Dim: b.dim, Y: b.y, Labels: b.labels, Ptr: b.ptr}
	if len(d.Ptr) == 0 {
		d.Ptr = []int64{0}
	}
	if len(b.full) == 0 && (b.fixed || len(b.idx) == cap(b.idx)) {
		d.Idx, d.Val = b.idx, b.val
		return d
	}
	d.Idx, d.Val = make([]int32, 0, b.nnz), make([]float64, 0, b.nnz)
	for i, p := range append(b.full, csrPart{b.idx, b.val}) {
		d.Idx, d.Val = append(d.Idx, p.idx...), append(d.Val, p.val...)
		if i < len(b.full) {
			b.full[i] = csrPart{} // collectable while the rest is copied
		}
	}
	b.full, b.idx, b.val = nil, nil, nil
	return d
}

// ReadFile reads a whole LIBSVM file (plain or compressed) into memory in the sparse
// layout, or a binary cache (SaveCache) recognised by its magic bytes, in the layout it
// was saved in. Options apply to text files only. WithLayout changes the layout. A plain
// text file is parsed on all cores (ReadFileContext).
func ReadFile(path string, opts Options) (*Dataset, error) {
	return ReadFileContext(context.Background(), path, opts, ReadConfig{Layout: LayoutSparse, cacheAsSaved: true})
}

// Subset returns the rows listed in rows (in that order, repeats allowed) as a new
// Dataset with copied storage and the same Dim.
func (d *Dataset) Subset(rows []int) *Dataset {
	s := &Dataset{Name: d.Name, Dim: d.Dim, Ptr: make([]int64, 1, len(rows)+1)}
	if d.Dense != nil {
		s = &Dataset{Name: d.Name, Dim: d.Dim, Dense: make([]float64, 0, len(rows)*d.Dim)}
		s.allIdx = d.allIdx
	} else {
		// The copy at its final size: appending would hold up to twice the values while
		// the arrays grow (a shuffled 10⁶-row click table: 420 MB for 264).
		var nnz int64
		for _, i := range rows {
			nnz += d.Ptr[i+1] - d.Ptr[i]
		}
		s.Idx, s.Val = make([]int32, 0, nnz), make([]float64, 0, nnz)
	}
	s.Y, s.Labels = make([]int8, 0, len(rows)), make([]float64, 0, len(rows))
	for _, i := range rows {
		s.Append(d.Y[i], d.Labels[i], d.Row(i))
	}
	s.Dim, s.W = d.Dim, d.subsetWeights(rows)
	return s
}

// Binarize sets Y to +1 for the rows whose label is in positive and −1 for the others.
func (d *Dataset) Binarize(positive []float64) {
	for i, l := range d.Labels {
		d.Y[i] = -1
		for _, p := range positive {
			if l == p {
				d.Y[i] = 1
				break
			}
		}
	}
}

// empty returns an empty dataset with d's name, dimension and layout.
func (d *Dataset) empty() *Dataset {
	if d.Dense != nil {
		return &Dataset{Name: d.Name, Dim: d.Dim, Dense: make([]float64, 0, len(d.Dense)), allIdx: d.allIdx}
	}
	return &Dataset{Name: d.Name, Dim: d.Dim, Ptr: make([]int64, 1, d.Rows()+1)}
}

// Truncate returns a copy of d with dim features: values of features at or beyond dim
// are dropped (a model trained on dim features gives them weight 0).
func (d *Dataset) Truncate(dim int) *Dataset {
	out := &Dataset{Name: d.Name, Dim: dim, Ptr: make([]int64, 1, d.Rows()+1)}
	var buf kernels.Sparse
	for i := range d.Rows() {
		r := d.Row(i)
		n := len(r.Idx)
		for n > 0 && int(r.Idx[n-1]) >= dim {
			n--
		}
		buf.Idx, buf.Val = r.Idx[:n], r.Val[:n]
		out.Append(d.Y[i], d.Labels[i], buf)
	}
	out.Dim, out.W = dim, d.W
	if d.Dense != nil {
		return out.ToDense()
	}
	return out
}

// Permuted returns d's rows in the order perm (a permutation of 0..Rows()−1): the same
// dataset as d.Subset(perm). A dense dataset is reordered in place, with one row of
// scratch, and returned (d's own rows then follow perm), so that a large matrix is
// never held twice; a sparse one is copied. Sample weights are copied in either case
// (they may be a caller's array).
func (d *Dataset) Permuted(perm []int) *Dataset {
	if d.Dense == nil {
		return d.Subset(perm)
	}
	n := d.Rows()
	if len(perm) != n {
		panic(fmt.Sprintf("data: Permuted: %d indices for %d rows", len(perm), n))
	}
	d.W = d.subsetWeights(perm)
	done := make([]bool, n)
	tmp := make([]float64, d.Dim)
	for start := range n {
		if done[start] {
			continue
		}
		// The cycle start → perm[start] → …: new row i is old row perm[i].
		y, label := d.Y[start], d.Labels[start]
		copy(tmp, d.DenseRow(start))
		i := start
		for {
			done[i] = true
			j := perm[i]
			if j == start {
				d.Y[i], d.Labels[i] = y, label
				copy(d.DenseRow(i), tmp)
				break
			}
			if done[j] {
				panic("data: Permuted: not a permutation")
			}
			d.Y[i], d.Labels[i] = d.Y[j], d.Labels[j]
			copy(d.DenseRow(i), d.DenseRow(j))
			i = j
		}
	}
	return d
}
