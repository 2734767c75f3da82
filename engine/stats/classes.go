package stats

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/aucopt/aucopt/kernels"
)

// ClassBlock is the number of rows of one class that ClassMoments densifies into a
// block before one Moments.AddBlock (one Syrk).
const ClassBlock = 256

// ClassMoments accumulates, in one pass over labelled sparse rows, what the square-loss
// AUC learners need from a training set: the Moments of the positive and of the
// negative class, and each feature's smallest and largest value (implicit zeros
// included), from which min-max scaling is fitted and applied to the moments exactly
// (Moments.Affine) with no second pass. Rows are buffered per class and added a block
// at a time. The dimension grows with the largest feature index seen (the shards of a
// file need not agree on it; Merge pads with zeros, which is exact).
//
// Two ClassMoments over disjoint sets of rows merge exactly up to rounding; merged in
// a fixed order, the result is bit-identical whatever ran them. A ClassMoments is not
// safe for concurrent use.
type ClassMoments struct {
	b     kernels.Backend
	dim   int // largest feature index seen (1-based), or the fixed dimension
	fixed bool
	cap   int          // dimension of the Moments and blocks, ≥ dim
	cls   [2]*Moments  // [0] negatives, [1] positives, of dimension cap
	host  [2][]float64 // ClassBlock×cap densified rows per class
	dev   [2]kernels.Mat
	k     [2]int
	lo    []float64 // per feature: smallest stored value (+Inf when none), len cap
	hi    []float64 // largest stored value (−Inf when none)
	nnz   []int64   // number of stored values
}

// NewClassMoments returns empty class moments on backend b. With dim > 0 the dimension
// is fixed (Add panics on a larger index); with dim = 0 it grows with the data.
func NewClassMoments(b kernels.Backend, dim int) *ClassMoments {
	c := &ClassMoments{b: b, dim: max(dim, 0), fixed: dim > 0}
	c.grow(max(dim, 1))
	return c
}

// grow makes the capacity at least d, padding the moments and ranges.
func (c *ClassMoments) grow(d int) {
	if c.cls[0] != nil && d <= c.cap {
		return
	}
	c.flush(0)
	c.flush(1)
	if c.cls[0] == nil {
		c.cls = [2]*Moments{NewMoments(c.b, d), NewMoments(c.b, d)}
	} else {
		c.cls = [2]*Moments{c.cls[0].Resize(d), c.cls[1].Resize(d)}
	}
	for len(c.lo) < d {
		c.lo, c.hi, c.nnz = append(c.lo, math.Inf(1)), append(c.hi, math.Inf(-1)), append(c.nnz, 0)
	}
	c.cap = d
	c.host = [2][]float64{}
	c.dev = [2]kernels.Mat{}
}

// Add adds one row x with label y (+1 positive, anything else negative). x's indices
// are 0-based and strictly increasing (as data.Reader returns them).
func (c *ClassMoments) Add(y int8, x kernels.Sparse) {
	if n := len(x.Idx); n > 0 {
		top := int(x.Idx[n-1]) + 1
		if top > c.dim {
			if c.fixed {
				panic(fmt.Sprintf("stats: ClassMoments.Add: feature index %d above the fixed dimension %d", top, c.dim))
			}
			c.dim = top
			if top > c.cap {
				c.grow(max(top, 2*c.cap))
			}
		}
	}
	k := 0
	if y == 1 {
		k = 1
	}
	if c.host[k] == nil {
		c.host[k] = make([]float64, ClassBlock*c.cap)
		c.dev[k] = c.b.NewMat(ClassBlock, c.cap)
	}
	row := c.host[k][c.k[k]*c.cap : (c.k[k]+1)*c.cap]
	clear(row)
	for q, j := range x.Idx {
		v := x.Val[q]
		row[j] = v
		c.lo[j] = min(c.lo[j], v)
		c.hi[j] = max(c.hi[j], v)
		c.nnz[j]++
	}
	if c.k[k]++; c.k[k] == ClassBlock {
		c.flush(k)
	}
}

// flush adds class k's buffered rows to its moments.
func (c *ClassMoments) flush(k int) {
	if c.k[k] == 0 {
		return
	}
	m := c.dev[k].Slice(0, c.k[k], 0, c.cap)
	c.b.Upload(m, c.host[k][:c.k[k]*c.cap])
	c.cls[k].AddBlock(m)
	c.k[k] = 0
}

// Merge adds o's rows to c (o is flushed, otherwise unchanged). Both must be on
// backends whose tensors mix (the same backend, or CPU backends of one kind).
func (c *ClassMoments) Merge(o *ClassMoments) {
	o.flush(0)
	o.flush(1)
	if o.dim > c.dim {
		if c.fixed {
			panic(fmt.Sprintf("stats: ClassMoments.Merge: dimension %d above the fixed dimension %d", o.dim, c.dim))
		}
		c.dim = o.dim
	}
	c.grow(max(c.dim, o.cap))
	c.flush(0)
	c.flush(1)
	for k := range c.cls {
		om := o.cls[k]
		if om.d != c.cap {
			om = om.Resize(c.cap)
		}
		c.cls[k].Merge(om)
	}
	for j := range o.cap {
		c.lo[j] = min(c.lo[j], o.lo[j])
		c.hi[j] = max(c.hi[j], o.hi[j])
		c.nnz[j] += o.nnz[j]
	}
}

// Dim is the dimension: the largest feature index seen, or the fixed one.
func (c *ClassMoments) Dim() int { return c.dim }

// Counts returns the number of positive and negative rows added.
func (c *ClassMoments) Counts() (pos, neg int64) {
	return c.cls[1].n + int64(c.k[1]), c.cls[0].n + int64(c.k[0])
}

// Classes returns the moments of the positive and the negative class, of dimension
// Dim, as new Moments (c is flushed, otherwise unchanged).
func (c *ClassMoments) Classes() (pos, neg *Moments) {
	c.flush(0)
	c.flush(1)
	return c.cls[1].Resize(c.dim), c.cls[0].Resize(c.dim)
}

// Ranges returns, per feature of Dim, the smallest and largest value over all rows,
// implicit zeros included (a feature stored in fewer rows than were added has a 0
// somewhere), as data.FitMinMax counts them; a feature never stored has range [0, 0].
func (c *ClassMoments) Ranges() (lo, hi []float64) {
	p, n := c.Counts()
	rows := p + n
	lo, hi = make([]float64, c.dim), make([]float64, c.dim)
	for j := range c.dim {
		lo[j], hi[j] = c.lo[j], c.hi[j]
		if c.nnz[j] < rows {
			lo[j], hi[j] = min(lo[j], 0), max(hi[j], 0)
		}
	}
	return lo, hi
}

// classMagic starts an encoded ClassMoments.
const classMagic = "AUCC1"

// MarshalBinary encodes c (after flushing it): its dimension, whether it is fixed, the
// per-feature ranges and the two classes' Moments. The encoding does not depend on the
// backend.
func (c *ClassMoments) MarshalBinary() ([]byte, error) {
	c.flush(0)
	c.flush(1)
	out := []byte(classMagic)
	out = binary.LittleEndian.AppendUint64(out, uint64(c.dim))
	fixed := uint64(0)
	if c.fixed {
		fixed = 1
	}
	out = binary.LittleEndian.AppendUint64(out, fixed)
	for j := range c.dim {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(c.lo[j]))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(c.hi[j]))
		out = binary.LittleEndian.AppendUint64(out, uint64(c.nnz[j]))
	}
	for _, m := range []*Moments{c.cls[0].Resize(c.dim), c.cls[1].Resize(c.dim)} {
		enc, err := m.MarshalBinary()
		if err != nil {
			return nil, err
		}
		out = append(out, enc...)
	}
	return out, nil
}

// UnmarshalClassMoments decodes class moments written by MarshalBinary onto backend b.
func UnmarshalClassMoments(b kernels.Backend, buf []byte) (*ClassMoments, error) {
	p := len(classMagic)
	if len(buf) < p+16 || string(buf[:p]) != classMagic {
		return nil, fmt.Errorf("%w: no class-moments header", ErrEncoding)
	}
	d64, fixed := binary.LittleEndian.Uint64(buf[p:]), binary.LittleEndian.Uint64(buf[p+8:])
	p += 16
	if d64 > 1<<24 || uint64(len(buf)-p) < 24*d64 {
		return nil, fmt.Errorf("%w: dimension %d in %d bytes", ErrEncoding, d64, len(buf))
	}
	d := int(d64)
	c := &ClassMoments{b: b, dim: d, fixed: fixed == 1, cap: d,
		lo: make([]float64, d), hi: make([]float64, d), nnz: make([]int64, d)}
	for j := range d {
		c.lo[j] = math.Float64frombits(binary.LittleEndian.Uint64(buf[p:]))
		c.hi[j] = math.Float64frombits(binary.LittleEndian.Uint64(buf[p+8:]))
		c.nnz[j] = int64(binary.LittleEndian.Uint64(buf[p+16:]))
		p += 24
	}
	for k := range c.cls {
		m, n, err := UnmarshalMoments(b, buf[p:])
		if err != nil {
			return nil, err
		}
		if m.d != d {
			return nil, fmt.Errorf("%w: class moments of dimension %d, want %d", ErrEncoding, m.d, d)
		}
		c.cls[k] = m
		p += n
	}
	if p != len(buf) {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrEncoding, len(buf)-p)
	}
	return c, nil
}
