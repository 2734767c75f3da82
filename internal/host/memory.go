package host

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

// Memory is the tensors-and-memory group (kernels.Memory) of a host backend: host
// tensors made, filled and read with plain copies. It holds no state; the CPU backends
// embed it.
type Memory struct{}

// NewVec allocates a zeroed vector of n elements.
func (Memory) NewVec(n int) kernels.Vec {
	if n < 0 {
		panic(fmt.Sprintf("kernels: NewVec(%d): negative length", n))
	}
	return &Vec{Data: make([]float64, n)}
}

// NewMat allocates a zeroed rows×cols matrix.
func (Memory) NewMat(rows, cols int) kernels.Mat {
	if rows < 0 || cols < 0 {
		panic(fmt.Sprintf("kernels: NewMat(%d, %d): negative dimension", rows, cols))
	}
	return &Mat{Rows: rows, Cols: cols, Stride: cols, Data: make([]float64, rows*cols)}
}

// ViewMat returns the rows×cols row-major matrix stored in data, without a copy
// (kernels.Viewer). It panics unless len(data) is rows·cols.
func (Memory) ViewMat(rows, cols int, data []float64) kernels.Mat {
	if rows < 0 || cols < 0 || len(data) != rows*cols {
		panic(fmt.Sprintf("kernels: ViewMat(%d, %d): %d elements", rows, cols, len(data)))
	}
	return &Mat{Rows: rows, Cols: cols, Stride: cols, Data: data[: rows*cols : rows*cols]}
}

// Upload copies src into dst (row-major for a Mat).
func (Memory) Upload(dst kernels.Tensor, src []float64) {
	if dst.Len() != len(src) {
		panic(fmt.Sprintf("kernels: Upload: %d elements into a tensor of %d", len(src), dst.Len()))
	}
	switch d := dst.(type) {
	case *Vec:
		copy(d.Data, src)
	case *Mat:
		for i := range d.Rows {
			copy(d.Data[i*d.Stride:i*d.Stride+d.Cols], src[i*d.Cols:(i+1)*d.Cols])
		}
	default:
		panic(fmt.Sprintf("kernels: Upload: %T is not a host tensor", dst))
	}
}

// Download copies src into dst (row-major for a Mat).
func (Memory) Download(dst []float64, src kernels.Tensor) {
	if src.Len() != len(dst) {
		panic(fmt.Sprintf("kernels: Download: a tensor of %d elements into %d", src.Len(), len(dst)))
	}
	switch s := src.(type) {
	case *Vec:
		copy(dst, s.Data)
	case *Mat:
		for i := range s.Rows {
			copy(dst[i*s.Cols:(i+1)*s.Cols], s.Data[i*s.Stride:i*s.Stride+s.Cols])
		}
	default:
		panic(fmt.Sprintf("kernels: Download: %T is not a host tensor", src))
	}
}

// Copy sets dst = src.
func (Memory) Copy(dst, src kernels.Vec) {
	d, s := VecData(dst), VecData(src)
	CheckLen("Copy", len(d), len(s))
	copy(d, s)
}
