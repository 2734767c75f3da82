package cuda

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// buffer is one device allocation.
type buffer struct {
	b     *Backend
	ptr   dptr // 0 for an empty buffer
	bytes int64
}

// Vec is a device vector: n float64s from element off of its buffer.
type Vec struct {
	buf    *buffer
	off, n int
}

// Len is the number of elements.
func (v *Vec) Len() int { return v.n }

// Slice is the view of elements [i, j).
func (v *Vec) Slice(i, j int) kernels.Vec {
	if i < 0 || i > j || j > v.n {
		panic(fmt.Sprintf("kernels: Vec.Slice(%d, %d) out of range for %d elements", i, j, v.n))
	}
	return &Vec{buf: v.buf, off: v.off + i, n: j - i}
}

// ptr is the device address of element 0.
func (v *Vec) ptr() dptr { return v.buf.ptr + dptr(8*v.off) }

// Mat is a device row-major matrix: element (i, j) is element off + i·ld + j of its
// buffer; ld ≥ cols.
type Mat struct {
	buf                 *buffer
	off, rows, cols, ld int
}

// Len is the number of elements, rows·cols.
func (m *Mat) Len() int { return m.rows * m.cols }

// Dims is the number of rows and columns.
func (m *Mat) Dims() (rows, cols int) { return m.rows, m.cols }

// Slice is the view of rows [i0, i1) and columns [j0, j1).
func (m *Mat) Slice(i0, i1, j0, j1 int) kernels.Mat {
	if i0 < 0 || i0 > i1 || i1 > m.rows || j0 < 0 || j0 > j1 || j1 > m.cols {
		panic(fmt.Sprintf("kernels: Mat.Slice(%d, %d, %d, %d) out of range for %d×%d", i0, i1, j0, j1, m.rows, m.cols))
	}
	return &Mat{buf: m.buf, off: m.off + i0*m.ld + j0, rows: i1 - i0, cols: j1 - j0, ld: m.ld}
}

// Row is row i as a Vec view.
func (m *Mat) Row(i int) kernels.Vec {
	if i < 0 || i >= m.rows {
		panic(fmt.Sprintf("kernels: Mat.Row(%d) out of range for %d rows", i, m.rows))
	}
	return &Vec{buf: m.buf, off: m.off + i*m.ld, n: m.cols}
}

// ptr is the device address of element (0, 0).
func (m *Mat) ptr() dptr { return m.buf.ptr + dptr(8*m.off) }

// lda is the leading dimension passed to cuBLAS for the column-major cols×rows view:
// the row stride, at least 1 (cuBLAS rejects 0 even for empty matrices).
func (m *Mat) lda() int { return max(m.ld, 1) }

// vec returns v as a tensor of b, panicking when it belongs to another backend.
func (b *Backend) vec(v kernels.Vec) *Vec {
	dv, ok := v.(*Vec)
	if !ok || dv.buf.b != b {
		panic(fmt.Sprintf("cuda: %T is not a vector of this CUDA backend (tensors of one backend passed to another?)", v))
	}
	return dv
}

// mat returns m as a tensor of b, panicking when it belongs to another backend.
func (b *Backend) mat(m kernels.Mat) *Mat {
	dm, ok := m.(*Mat)
	if !ok || dm.buf.b != b {
		panic(fmt.Sprintf("cuda: %T is not a matrix of this CUDA backend (tensors of one backend passed to another?)", m))
	}
	return dm
}

var _ kernels.Flattener = (*Backend)(nil)

// Flat returns m's elements as one Vec sharing its storage when m's rows are adjacent
// (ld = cols, or a single row), for kernels.Flattener.
func (b *Backend) Flat(m kernels.Mat) (kernels.Vec, bool) {
	mm := b.mat(m)
	if mm.rows > 1 && mm.ld != mm.cols {
		return nil, false
	}
	return &Vec{buf: mm.buf, off: mm.off, n: mm.rows * mm.cols}, true
}
