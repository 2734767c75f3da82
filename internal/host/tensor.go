package host

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// Vec is a host vector: the kernels.Vec of the CPU backends (fallback and asm).
type Vec struct {
	// Data holds the elements; len(Data) is the vector's length.
	Data []float64
}

// Len is the number of elements.
func (v *Vec) Len() int { return len(v.Data) }

// Slice is the view of elements [i, j).
func (v *Vec) Slice(i, j int) kernels.Vec { return &Vec{Data: v.Data[i:j:j]} }

// Mat is a host row-major matrix: the kernels.Mat of the CPU backends.
// Element (i, j) is Data[i*Stride+j]; Stride ≥ Cols (0 for a matrix of no columns).
type Mat struct {
	Rows, Cols, Stride int
	Data               []float64
}

// Len is the number of elements, Rows·Cols.
func (m *Mat) Len() int { return m.Rows * m.Cols }

// Dims is the number of rows and columns.
func (m *Mat) Dims() (rows, cols int) { return m.Rows, m.Cols }

// Slice is the view of rows [i0, i1) and columns [j0, j1).
func (m *Mat) Slice(i0, i1, j0, j1 int) kernels.Mat {
	if i0 < 0 || i0 > i1 || i1 > m.Rows || j0 < 0 || j0 > j1 || j1 > m.Cols {
		panic(fmt.Sprintf("kernels: Mat.Slice(%d, %d, %d, %d) out of range for %d×%d", i0, i1, j0, j1, m.Rows, m.Cols))
	}
	r, c := i1-i0, j1-j0
	if c == 0 {
		return &Mat{Rows: r} // zero width: stride 0 keeps every row slice in range
	}
	if r == 0 {
		return &Mat{Cols: c, Stride: m.Stride}
	}
	start := i0*m.Stride + j0
	end := (i1-1)*m.Stride + j1
	return &Mat{Rows: r, Cols: c, Stride: m.Stride, Data: m.Data[start:end:end]}
}

// Row is row i as a Vec view.
func (m *Mat) Row(i int) kernels.Vec {
	if i < 0 || i >= m.Rows {
		panic(fmt.Sprintf("kernels: Mat.Row(%d) out of range for %d rows", i, m.Rows))
	}
	s := i * m.Stride
	return &Vec{Data: m.Data[s : s+m.Cols : s+m.Cols]}
}

// VecData returns the elements of the host vector behind v. It panics, naming the tensor's type, when v
// was made by a backend whose tensors do not live in host memory.
func VecData(v kernels.Vec) []float64 {
	hv, ok := v.(*Vec)
	if !ok {
		panic(fmt.Sprintf("kernels: %T is not a host vector (tensors of one backend passed to another?)", v))
	}
	return hv.Data
}

// MatOf returns the host matrix behind m, panicking like VecData.
func MatOf(m kernels.Mat) *Mat {
	hm, ok := m.(*Mat)
	if !ok {
		panic(fmt.Sprintf("kernels: %T is not a host matrix (tensors of one backend passed to another?)", m))
	}
	return hm
}
