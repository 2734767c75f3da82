package fallback

import (
	"fmt"

	"github.com/aucopt/aucopt/kernels"
)

const (
	// syrkTile is the side of the square tiles of C that Syrk's parts own.
	syrkTile = 64
	// syrkDepth is the number of rows of A streamed through one tile at a time.
	syrkDepth = 256
)

// Syrk computes the upper triangle of C = alpha·AᵀA + beta·C, where A is k×d and C d×d.
//
// C is cut into syrkTile-square tiles on or above the diagonal; each tile is one part,
// computed by one goroutine with A's rows in order, so the result does not depend on
// the number of cores.
func (b *Backend) Syrk(alpha float64, a kernels.Mat, beta float64, c kernels.Mat) {
	am, cm := HostMat(a), HostMat(c)
	d := am.Cols
	if cm.Rows != d || cm.Cols != d {
		panic(fmt.Sprintf("kernels: Syrk: A is %d×%d, so C must be %d×%d, not %d×%d", am.Rows, d, d, d, cm.Rows, cm.Cols))
	}
	nb := (d + syrkTile - 1) / syrkTile
	j := GetJob()
	j.Run, j.A, j.C, j.Alpha, j.Beta, j.N = syrkPart, am, cm, alpha, beta, nb
	parts := nb * (nb + 1) / 2
	if am.Rows*d*d < 2*parallelWork {
		j.Run = syrkAll
		parts = 1
	}
	b.pool.Do(parts, j)
	PutJob(j)
}

// syrkAll computes every tile in one part.
func syrkAll(j *Job, _ int) {
	for p := range j.N * (j.N + 1) / 2 {
		syrkPart(j, p)
	}
}

// syrkPart computes the p-th upper tile of C, tiles numbered row by row.
func syrkPart(j *Job, p int) {
	bi := 0
	for p >= j.N-bi {
		p -= j.N - bi
		bi++
	}
	bj := bi + p
	d := j.A.Cols
	i0, i1 := bi*syrkTile, min((bi+1)*syrkTile, d)
	j0, j1 := bj*syrkTile, min((bj+1)*syrkTile, d)
	c := j.C
	for i := i0; i < i1; i++ {
		lo := max(i, j0)
		if lo < j1 {
			scaleBeta(j.Beta, c.Data[i*c.Stride+lo:i*c.Stride+j1])
		}
	}
	a := j.A
	for k0 := 0; k0 < a.Rows; k0 += syrkDepth {
		for k := k0; k < min(k0+syrkDepth, a.Rows); k++ {
			row := a.Data[k*a.Stride : k*a.Stride+d]
			for i := i0; i < i1; i++ {
				lo := max(i, j0)
				if lo < j1 {
					Axpy(j.Alpha*row[i], row[lo:j1], c.Data[i*c.Stride+lo:i*c.Stride+j1])
				}
			}
		}
	}
}

// Symm computes C = alpha·B·A + beta·C for a symmetric A (d×d, upper triangle) and B,
// C k×d: each row of C is a Symv of the same row of B.
func (b *Backend) Symm(alpha float64, a kernels.Mat, bm kernels.Mat, beta float64, c kernels.Mat) {
	am, bh, ch := HostMat(a), HostMat(bm), HostMat(c)
	d := am.Cols
	CheckSquare("Symm", am, d)
	if bh.Cols != d || ch.Rows != bh.Rows || ch.Cols != d {
		panic(fmt.Sprintf("kernels: Symm: A is %d×%d, so B and C must be k×%d, not %d×%d and %d×%d",
			d, d, d, bh.Rows, bh.Cols, ch.Rows, ch.Cols))
	}
	for i := range bh.Rows {
		b.Symv(alpha, a, bh.Row(i), beta, ch.Row(i))
	}
}
