package data

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/aucopt/aucopt/kernels"
)

// Dataset is a labelled set of rows held in memory in compressed sparse row form: row i
// has indices Idx[Ptr[i]:Ptr[i+1]] (0-based, strictly increasing) and values Val[…].
type Dataset struct {
	Name   string    // where it came from (file path or dataset name)
	Dim    int       // number of features
	Y      []int8    // +1 or −1 (0 for raw labels)
	Labels []float64 // labels as read
	Ptr    []int64   // len Rows()+1
	Idx    []int32
	Val    []float64
}

// Rows is the number of examples.
func (d *Dataset) Rows() int { return len(d.Y) }

// Row is row i as a sparse vector sharing the Dataset's storage.
func (d *Dataset) Row(i int) kernels.Sparse {
	lo, hi := d.Ptr[i], d.Ptr[i+1]
	return kernels.Sparse{Idx: d.Idx[lo:hi:hi], Val: d.Val[lo:hi:hi]}
}

// Nnz is the number of stored feature values.
func (d *Dataset) Nnz() int { return len(d.Idx) }

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

// Append adds one example (copying its row).
func (d *Dataset) Append(y int8, label float64, x kernels.Sparse) {
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
func ReadAll(r *Reader) (*Dataset, error) {
	d := &Dataset{Name: r.path, Ptr: []int64{0}}
	for {
		ex, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		d.Append(ex.Y, ex.Label, ex.X)
	}
	if r.opts.Dim > 0 {
		d.Dim = r.opts.Dim
	}
	return d, nil
}

// ReadFile reads a whole LIBSVM file (plain or compressed) into memory, or a binary
// cache (SaveCache) recognised by its magic bytes. Options apply to text files only.
func ReadFile(path string, opts Options) (*Dataset, error) {
	if f, err := os.Open(path); err == nil {
		head := make([]byte, len(cacheMagic))
		n, _ := io.ReadFull(f, head)
		f.Close()
		if IsCache(head[:n]) {
			return ReadCache(path)
		}
	}
	r, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, err := ReadAll(r)
	if err != nil {
		return nil, err
	}
	if d.Rows() == 0 {
		return nil, fmt.Errorf("%s: no examples", path)
	}
	return d, nil
}

// Subset returns the rows listed in rows (in that order, repeats allowed) as a new
// Dataset with copied storage and the same Dim.
func (d *Dataset) Subset(rows []int) *Dataset {
	s := &Dataset{Name: d.Name, Dim: d.Dim, Ptr: make([]int64, 1, len(rows)+1)}
	for _, i := range rows {
		s.Append(d.Y[i], d.Labels[i], d.Row(i))
	}
	s.Dim = d.Dim
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

// sparseView is a dense vector as a Sparse over all its indices (idx is 0..len−1).
func sparseView(idx []int32, x []float64) kernels.Sparse {
	return kernels.Sparse{Idx: idx[:len(x)], Val: x}
}
