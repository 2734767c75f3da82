package f64

import "github.com/aucopt/aucopt/internal/host"

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
func Syrk(p *host.Pool, alpha float64, am *host.Mat, beta float64, cm *host.Mat) {
	d := am.Cols
	nb := (d + syrkTile - 1) / syrkTile
	j := host.GetJob()
	j.Run, j.A, j.C, j.Alpha, j.Beta, j.N = syrkPart, am, cm, alpha, beta, nb
	parts := nb * (nb + 1) / 2
	if am.Rows*d*d < 2*parallelWork {
		j.Run = syrkAll
		parts = 1
	}
	p.Do(parts, j)
	host.PutJob(j)
}

// syrkAll computes every tile in one part.
func syrkAll(j *host.Job, _ int) {
	for p := range j.N * (j.N + 1) / 2 {
		syrkPart(j, p)
	}
}

// syrkPart computes the p-th upper tile of C, tiles numbered row by row.
func syrkPart(j *host.Job, p int) {
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
			ScaleBeta(j.Beta, c.Data[i*c.Stride+lo:i*c.Stride+j1])
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
func Symm(p *host.Pool, alpha float64, am, bh *host.Mat, beta float64, ch *host.Mat) {
	d, k := am.Cols, bh.Rows
	if k == 0 || d == 0 {
		return
	}
	j := host.GetJob()
	j.Run, j.A, j.B, j.C, j.Alpha, j.Beta = symmPart, am, bh, ch, alpha, beta
	parts := 1
	if k*d*d >= 2*parallelWork {
		parts = min(k, symmMaxParts)
	}
	j.N = (k + parts - 1) / parts // rows per part
	p.Do((k+j.N-1)/j.N, j)
	host.PutJob(j)
}

const (
	// symmTile is the side of the tiles of A that Symm sweeps: 128 KiB, held in L2
	// while the rows of B and C pass over it.
	symmTile = 128
	// symmMaxParts is the largest number of row blocks of a large Symm.
	symmMaxParts = 16
)

// symmPart computes the rows [p·j.N, (p+1)·j.N) of C.
func symmPart(j *host.Job, p int) {
	a, bm, c := j.A, j.B, j.C
	d := a.Cols
	i0, i1 := p*j.N, min((p+1)*j.N, bm.Rows)
	for i := i0; i < i1; i++ {
		ScaleBeta(j.Beta, c.Data[i*c.Stride:i*c.Stride+d])
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

// RowDiff sets out[k,:] = A[pos[k],:] − A[neg[k],:].
func RowDiff(a *host.Mat, pos, neg []int32, out *host.Mat) {
	d := a.Cols
	for k := range pos {
		p, q := int(pos[k])*a.Stride, int(neg[k])*a.Stride
		xp, xq := a.Data[p:p+d], a.Data[q:q+d]
		row := out.Data[k*out.Stride : k*out.Stride+d]
		for j := range row {
			row[j] = xp[j] - xq[j]
		}
	}
}
