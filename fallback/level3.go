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

// Symm computes C = alpha·B·A + beta·C for a symmetric A (d×d) stored in its upper
// triangle and B, C k×d: row i of C is alpha·A·B[i,:] + beta·C[i,:]. C must not overlap
// A or B.
//
// Each part owns a block of rows of C, scales them by beta, then sweeps A's upper
// triangle in symmTile-square tiles, row block by row block; for each tile, each of its
// rows of B adds the tile's contribution to the same row of C: element A[l][j] (l ≤ j)
// adds alpha·B[i][l]·A[l][j] to C[i][j] and, off the diagonal, alpha·B[i][j]·A[l][j] to
// C[i][l]. The tile stays in cache while the part's rows pass over it. Every row of C is
// computed in the same order whichever part owns it, so the result does not depend on
// the number of cores.
func (b *Backend) Symm(alpha float64, a kernels.Mat, bm kernels.Mat, beta float64, c kernels.Mat) {
	am, bh, ch := HostMat(a), HostMat(bm), HostMat(c)
	d, k := am.Cols, bh.Rows
	CheckSymm(am, bh, ch)
	if k == 0 || d == 0 {
		return
	}
	j := GetJob()
	j.Run, j.A, j.B, j.C, j.Alpha, j.Beta = symmPart, am, bh, ch, alpha, beta
	parts := 1
	if k*d*d >= 2*parallelWork {
		parts = min(k, symmMaxParts)
	}
	j.N = (k + parts - 1) / parts // rows per part
	b.pool.Do((k+j.N-1)/j.N, j)
	PutJob(j)
}

const (
	// symmTile is the side of the tiles of A that Symm sweeps: 128 KiB, held in L2
	// while the rows of B and C pass over it.
	symmTile = 128
	// symmMaxParts is the largest number of row blocks of a large Symm.
	symmMaxParts = 16
)

// symmPart computes the rows [p·j.N, (p+1)·j.N) of C.
func symmPart(j *Job, p int) {
	a, bm, c := j.A, j.B, j.C
	d := a.Cols
	i0, i1 := p*j.N, min((p+1)*j.N, bm.Rows)
	for i := i0; i < i1; i++ {
		scaleBeta(j.Beta, c.Data[i*c.Stride:i*c.Stride+d])
	}
	for l0 := 0; l0 < d; l0 += symmTile {
		l1 := min(l0+symmTile, d)
		for c0 := l0; c0 < d; c0 += symmTile {
			c1 := min(c0+symmTile, d)
			for i := i0; i < i1; i++ {
				bi := bm.Data[i*bm.Stride : i*bm.Stride+d]
				ci := c.Data[i*c.Stride : i*c.Stride+d]
				for l := l0; l < min(l1, c1); l++ {
					lo := max(l, c0)
					r := a.Data[l*a.Stride+lo : l*a.Stride+c1]
					Axpy(j.Alpha*bi[l], r, ci[lo:c1])
					if lo == l {
						r, lo = r[1:], lo+1 // the diagonal is added once, above
					}
					if len(r) > 0 {
						ci[l] += j.Alpha * Dot(r, bi[lo:c1])
					}
				}
			}
		}
	}
}

// CheckSymm panics unless the operands of Symm fit: A d×d, B and C k×d.
func CheckSymm(a, b, c *Mat) {
	d := a.Cols
	if a.Rows != d || b.Cols != d || c.Rows != b.Rows || c.Cols != d {
		panic(fmt.Sprintf("kernels: Symm: A is %d×%d, B %d×%d and C %d×%d; want A d×d, B and C k×d",
			a.Rows, a.Cols, b.Rows, b.Cols, c.Rows, c.Cols))
	}
}
