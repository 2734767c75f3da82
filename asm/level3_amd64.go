//go:build amd64 && !noasm && !purego

package asm

import (
	"math"

	"github.com/aucopt/aucopt/internal/host"
	"github.com/aucopt/aucopt/kernels"
)

const (
	// syrkParallelWork is the number of multiply-adds (k·d²) below which Syrk runs as
	// one part.
	syrkParallelWork = 1 << 20
	// syrkMaxParts is the largest number of column stripes of C, the parts of a large
	// Syrk; more parts than cores even out the end of each depth block.
	syrkMaxParts = 16
	// syrkBlockRows is the number of rows of C whose packed strips (syrkBlockRows·kc
	// elements of A) stay in L2 while the stripe's columns sweep past them. It is a
	// multiple of every tile's rows.
	syrkBlockRows = 240
	// syrkMaxTile is the largest tile, rows·W, of the shapes below.
	syrkMaxTile = 8 * 16
)

// syrkShape is the geometry of a Syrk micro-kernel: tiles of rows×w elements of C;
// A packed, kc rows at a time, into strips of w columns (w consecutive elements of a row
// of A, the last strip padded with zeros); w a multiple of rows.
type syrkShape struct {
	rows, w, kc int
	zmm         bool // syrkTileAVX512, else syrkTileAVX2
}

// syrkShapeAVX2 is the shape of syrkTileAVX2: 4×12 tiles, strips of 384×12 (36 KiB).
func syrkShapeAVX2() syrkShape { return syrkShape{rows: 4, w: 12, kc: 384} }

// syrkShapeAVX512 is the shape of syrkTileAVX512: 8×16 tiles, strips of 384×16 (48 KiB;
// C, read once per kc rows of A, is prefetched by the tile). kc = 192 (a strip in L1)
// was as fast against OpenBLAS but rounds differently, which changed committed tables.
func syrkShapeAVX512() syrkShape { return syrkShape{rows: 8, w: 16, kc: 384, zmm: true} }

// Syrk computes the rank-k update of the upper triangle of a symmetric C (d×d) by the
// rows of A (k×d):
//
//	C = alpha·AᵀA + beta·C
//
// C's columns are cut into stripes of about equal upper-triangle area, one per part, so
// each element of C is computed by one part, with A's rows in order: the result does not
// depend on the number of cores. For each block of kc rows of A, the parts first pack A
// into strips together, then each computes the tiles of its stripe on or above the
// diagonal, writing only elements i ≤ j.
func (b *Backend) Syrk(alpha float64, a kernels.Mat, beta float64, c kernels.Mat) {
	am, cm := host.MatOf(a), host.MatOf(c)
	d, k := am.Cols, am.Rows
	host.CheckSyrk(k, d, cm.Rows, cm.Cols)
	if d == 0 {
		return
	}
	raceReadMat(am)
	raceWriteUpper(cm)
	s := syrkShapeAVX2()
	betaRun, packRun, tilesRun := syrkBetaAVX2, syrkPackAVX2, syrkTilesAVX2
	if b.avx512 {
		s = syrkShapeAVX512()
		betaRun, packRun, tilesRun = syrkBetaAVX512, syrkPackAVX512, syrkTilesAVX512
	}
	strips := (d + s.w - 1) / s.w
	parts := syrkParts(k, d, strips)
	pool := b.pool
	j := host.GetJob()
	j.A, j.C, j.Alpha, j.Beta = am, cm, alpha, beta
	j.Run = betaRun
	pool.Do(parts, j)
	if k > 0 {
		if len(j.Scratch) == 0 {
			j.Scratch = append(j.Scratch, nil)
		}
		j.Scratch[0] = grow(j.Scratch[0], strips*min(s.kc, k)*s.w)
	}
	for l0 := 0; l0 < k; l0 += s.kc {
		j.N = l0
		j.Run = packRun
		pool.Do(parts, j)
		j.Run = tilesRun
		pool.Do(parts, j)
	}
	host.PutJob(j)
}

// The Runs of Syrk's phases for each shape (a Job's Run is a top-level function).
func syrkBetaAVX2(j *host.Job, p int)    { syrkShapeAVX2().beta(j, p) }
func syrkPackAVX2(j *host.Job, p int)    { syrkShapeAVX2().pack(j, p) }
func syrkTilesAVX2(j *host.Job, p int)   { syrkShapeAVX2().tiles(j, p) }
func syrkBetaAVX512(j *host.Job, p int)  { syrkShapeAVX512().beta(j, p) }
func syrkPackAVX512(j *host.Job, p int)  { syrkShapeAVX512().pack(j, p) }
func syrkTilesAVX512(j *host.Job, p int) { syrkShapeAVX512().tiles(j, p) }

// syrkParts is the number of parts of a Syrk of k×d A cut into strips of columns.
func syrkParts(k, d, strips int) int {
	if k*d*d < syrkParallelWork {
		return 1
	}
	return min(syrkMaxParts, strips)
}

// stripe is the first strip of part p when strips strips of columns are cut into parts
// stripes of about equal upper-triangle area: columns [0, c) hold about c²/2 elements.
func stripe(strips, parts, p int) int {
	if p >= parts {
		return strips
	}
	return int(math.Round(float64(strips) * math.Sqrt(float64(p)/float64(parts))))
}

// beta scales the upper triangle of part p's stripe of C by j.Beta.
func (s syrkShape) beta(j *host.Job, p int) {
	c := j.C
	d := c.Cols
	strips := (d + s.w - 1) / s.w
	parts := syrkParts(j.A.Rows, d, strips)
	c0, c1 := min(stripe(strips, parts, p)*s.w, d), min(stripe(strips, parts, p+1)*s.w, d)
	for i := range c1 {
		if lo := max(i, c0); lo < c1 {
			scaleBeta(j.Beta, c.Data[i*c.Stride+lo:i*c.Stride+c1])
		}
	}
}

// pack copies rows [j.N, j.N+kc) of A, the strips of part p, into j.Scratch[0]: strip t
// holds kc rows of w elements, A[j.N+l][t·w : t·w+w] at [(t·kc+l)·w:].
func (s syrkShape) pack(j *host.Job, p int) {
	a := j.A
	d, k, l0 := a.Cols, a.Rows, j.N
	kc := min(s.kc, k-l0)
	strips := (d + s.w - 1) / s.w
	parts := syrkParts(k, d, strips)
	panel := kc * s.w
	for t := p * strips / parts; t < (p+1)*strips/parts; t++ {
		dst := j.Scratch[0][t*panel : (t+1)*panel]
		c0 := t * s.w
		cw := min(s.w, d-c0)
		for l := range kc {
			o := (l0+l)*a.Stride + c0
			row := dst[l*s.w : (l+1)*s.w]
			copy(row, a.Data[o:o+cw])
			clear(row[cw:])
		}
	}
}

// tiles adds alpha·(A's packed rows)ᵀ(A's packed rows) to the tiles of part p's stripe
// of C that touch the upper triangle. Tiles wholly on or above the diagonal go straight
// to C; the others (across the diagonal or C's edge) go through a scratch tile, of which
// only the elements i ≤ j inside C are added.
func (s syrkShape) tiles(j *host.Job, p int) {
	a, c := j.A, j.C
	d, k, l0 := a.Cols, a.Rows, j.N
	kc := min(s.kc, k-l0)
	strips := (d + s.w - 1) / s.w
	parts := syrkParts(k, d, strips)
	t0, t1 := stripe(strips, parts, p), stripe(strips, parts, p+1)
	packed := j.Scratch[0]
	panel := kc * s.w
	c1 := min(t1*s.w, d)
	var scratch [syrkMaxTile]float64
	edge := scratch[:s.rows*s.w]
	for ic := 0; ic < c1; ic += syrkBlockRows {
		icEnd := min(ic+syrkBlockRows, c1)
		for t := t0; t < t1; t++ {
			j0 := t * s.w
			q := packed[t*panel : (t+1)*panel]
			// Rows i0 < j0+w have elements i ≤ j in this strip's columns.
			for i0 := ic; i0 < min(icEnd, j0+s.w); i0 += s.rows {
				o := (i0/s.w)*panel + i0%s.w
				pp := packed[o : o+(kc-1)*s.w+s.rows]
				if i0+s.rows-1 <= j0 && j0+s.w <= d {
					o := i0*c.Stride + j0
					s.tile(pp, q, c.Data[o:o+(s.rows-1)*c.Stride+s.w], kc, c.Stride, j.Alpha)
					continue
				}
				clear(edge)
				s.tile(pp, q, edge, kc, s.w, j.Alpha)
				for r := range min(s.rows, d-i0) {
					i := i0 + r
					row := c.Data[i*c.Stride : i*c.Stride+d]
					for jj := max(i-j0, 0); jj < min(s.w, d-j0); jj++ {
						row[j0+jj] += edge[r*s.w+jj]
					}
				}
			}
		}
	}
}

// tile runs the shape's micro-kernel.
func (s syrkShape) tile(p, q, c []float64, kc, ldc int, alpha float64) {
	if s.zmm {
		syrkTileAVX512(p, q, c, kc, ldc, alpha)
		return
	}
	syrkTileAVX2(p, q, c, kc, ldc, alpha)
}

const (
	// symmParallelWork is the number of multiply-adds (k·d²) below which Symm runs as
	// one part.
	symmParallelWork = 1 << 20
	// symmMaxParts is the largest number of column stripes of C, the parts of a large
	// Symm.
	symmMaxParts = 16
	// symmKC is the number of features (rows of A, columns of B) in one depth block.
	symmKC = 256
	// symmBlockRows is the number of rows of C whose packed strips of Bᵀ
	// (symmBlockRows·symmKC elements, 768 KiB) stay in L2 while a stripe's strips of A
	// sweep past them; a multiple of every tile's rows and strips' widths.
	symmBlockRows = 384
	// symmPackStrips is the number of strips of A packed at a time, then multiplied
	// while they are in L2 (4·symmKC·16 elements, 128 KiB); packing a part's whole
	// stripe first sends it to L3 and back at d = 8,192.
	symmPackStrips = 4
	// symmMinRows is the number of rows of B below which Symm is k Symvs: packing A
	// costs more than reading it once per row.
	symmMinRows = 8
)

// symmPlan is the geometry of one Symm: the Syrk micro-kernel's shape, the depth of
// the current block and how C's columns are cut into parts.
type symmPlan struct {
	syrkShape
	k, d        int // B and C are k×d
	strips      int // strips of w columns of C (and of the packed A)
	bstrips     int // strips of w rows of B (of the packed Bᵀ)
	parts       int
	depth, kcur int // the current block: features [depth, depth+kcur)
}

// newSymmPlan cuts C's columns into the parts of a Symm of k×d B with shape s.
func newSymmPlan(s syrkShape, k, d int) symmPlan {
	s.kc = symmKC
	p := symmPlan{syrkShape: s, k: k, d: d, strips: (d + s.w - 1) / s.w, bstrips: (k + s.w - 1) / s.w, parts: 1}
	if k*d*d >= symmParallelWork {
		p.parts = min(symmMaxParts, p.strips)
	}
	return p
}

// stripes returns the strips [t0, t1) of C's columns that part q computes.
func (p *symmPlan) stripes(q int) (t0, t1 int) {
	return q * p.strips / p.parts, (q + 1) * p.strips / p.parts
}

// Symm computes, for a symmetric A (d×d) stored in its upper triangle and B, C k×d,
//
//	C = alpha·B·A + beta·C        (row i of C is alpha·A·B[i,:] + beta·C[i,:])
//
// with the Syrk micro-kernels: for C = B·A the sum runs over the feature l, with
// P[l][i] = B[i][l] (Bᵀ packed into strips of w rows of B) and Q[l][j] =
// A[min(l,j)][max(l,j)] (A packed into strips of w columns, mirroring the upper
// triangle while packing, so the lower triangle is never read). Features go in blocks
// of symmKC. C's columns are cut into stripes of whole strips, one per part: each
// element of C is computed by one part, with the features in order, so the result does
// not depend on the number of cores. For each block, the parts first pack Bᵀ together
// (and, for the first, scale C by beta), then each packs its stripe of A a few strips
// at a time and runs the micro-kernel down C's rows over them strip by strip. Fewer rows than symmMinRows are k Symvs.
// C must not overlap A or B.
func (b *Backend) Symm(alpha float64, a kernels.Mat, bm kernels.Mat, beta float64, c kernels.Mat) {
	am, bh, ch := host.MatOf(a), host.MatOf(bm), host.MatOf(c)
	host.CheckSymm(am, bh, ch)
	d, k := am.Cols, bh.Rows
	if k == 0 || d == 0 {
		return
	}
	raceReadUpper(am)
	raceReadMat(bh)
	raceWriteMat(ch)
	s := syrkShapeAVX2()
	packRun, tilesRun := symmPackAVX2, symmTilesAVX2
	if b.avx512 {
		s = syrkShapeAVX512()
		packRun, tilesRun = symmPackAVX512, symmTilesAVX512
	}
	if k < symmMinRows {
		for i := range k {
			b.symv(alpha, am, bh.Data[i*bh.Stride:i*bh.Stride+d], beta, ch.Data[i*ch.Stride:i*ch.Stride+d])
		}
		return
	}
	plan := newSymmPlan(s, k, d)
	j := host.GetJob()
	j.A, j.B, j.C, j.Alpha, j.Beta = am, bh, ch, alpha, beta
	kc := min(plan.kc, d)
	if n := 1 + plan.parts; len(j.Scratch) < n {
		j.Scratch = append(j.Scratch, make([][]float64, n-len(j.Scratch))...)
	}
	j.Scratch[0] = grow(j.Scratch[0], plan.bstrips*kc*s.w)
	for q := range plan.parts {
		j.Scratch[1+q] = grow(j.Scratch[1+q], symmPackStrips*kc*s.w)
	}
	pool := b.pool
	for l0 := 0; l0 < d; l0 += plan.kc {
		j.N = l0
		j.Run = packRun
		pool.Do(plan.parts, j)
		j.Run = tilesRun
		pool.Do(plan.parts, j)
	}
	host.PutJob(j)
}

// The Runs of Symm's phases for each shape (a Job's Run is a top-level function); the
// plan is rebuilt from the Job's operands, and j.N is the first feature of the block.
func symmPackAVX2(j *host.Job, q int)    { symmPlanOf(syrkShapeAVX2(), j).packB(j, q) }
func symmTilesAVX2(j *host.Job, q int)   { symmPlanOf(syrkShapeAVX2(), j).tiles(j, q) }
func symmPackAVX512(j *host.Job, q int)  { symmPlanOf(syrkShapeAVX512(), j).packB(j, q) }
func symmTilesAVX512(j *host.Job, q int) { symmPlanOf(syrkShapeAVX512(), j).tiles(j, q) }

// symmPlanOf is the plan of j's Symm at the block starting at feature j.N.
func symmPlanOf(s syrkShape, j *host.Job) symmPlan {
	p := newSymmPlan(s, j.B.Rows, j.A.Cols)
	p.depth, p.kcur = j.N, min(p.kc, p.d-j.N)
	return p
}

// packB copies features [depth, depth+kcur) of part q's share of the strips of B's
// rows, transposed, into j.Scratch[0]: strip t holds kcur rows of w elements,
// B[t·w+r][depth+l] at [(t·kcur+l)·w+r], rows past k zero. With the first block, it
// first scales the same rows of C by beta.
func (p symmPlan) packB(j *host.Job, q int) {
	bm, c := j.B, j.C
	kc, w := p.kcur, p.w
	panel := kc * w
	for t := q * p.bstrips / p.parts; t < (q+1)*p.bstrips/p.parts; t++ {
		dst := j.Scratch[0][t*panel : (t+1)*panel]
		if p.depth == 0 {
			for i := t * w; i < min(t*w+w, p.k); i++ {
				scaleBeta(j.Beta, c.Data[i*c.Stride:i*c.Stride+p.d])
			}
		}
		// 8 features at a time, so that the strip's lines written stay in L1 (as in
		// packA).
		for l0 := 0; l0 < kc; l0 += 8 {
			l1 := min(l0+8, kc)
			for r := range w {
				i := t*w + r
				if i >= p.k {
					for l := l0; l < l1; l++ {
						dst[l*w+r] = 0
					}
					continue
				}
				src := bm.Data[i*bm.Stride+p.depth+l0 : i*bm.Stride+p.depth+l1]
				for m, v := range src {
					dst[(l0+m)*w+r] = v
				}
			}
		}
	}
}

// packA copies the symmetric A's rows [depth, depth+kcur), columns [t0·w, t1·w) (zero
// past d), into dst, strip by strip: A_sym[depth+l][t·w+jj] at [((t−t0)·kcur+l)·w+jj].
// Both halves are read along rows of A, so that the hardware prefetches them: the
// elements j ≥ L from row L, and the mirrored ones j < L as A[j][L] from row j.
func (p symmPlan) packA(a *host.Mat, t0, t1 int, dst []float64) {
	kc, w := p.kcur, p.w
	panel := kc * w
	c0, c1 := t0*w, min(t1*w, p.d)
	for l := range kc {
		L := p.depth + l
		lo := max(L, c0)
		if lo >= c1 {
			continue
		}
		src := a.Data[L*a.Stride+lo : L*a.Stride+c1]
		for j := lo - c0; len(src) > 0; {
			jj := j % w
			n := min(w-jj, len(src))
			o := (j/w)*panel + l*w + jj
			copyStrip(dst[o:o+n], src[:n])
			src, j = src[n:], j+n
		}
	}
	// The mirrored elements, strip by strip and 8 rows of the block at a time, so that
	// the lines written (8 rows of the strip) and read (one line of each of A's rows
	// j) stay in L1: written one column at a time over the whole block, a strip's kc
	// rows (32 KiB) fall out of L1 between columns.
	for t := t0; t < t1; t++ {
		out := dst[(t-t0)*panel : (t-t0+1)*panel]
		j0, j1 := t*w, min(t*w+w, c1)
		if j0+1 >= p.depth+kc { // no j < L in the block: nothing mirrored
			continue
		}
		for l0 := 0; l0 < kc; l0 += 8 {
			L0, L1 := p.depth+l0, p.depth+min(l0+8, kc)
			for j := j0; j < min(j1, L1-1); j++ {
				from := max(j+1, L0)
				src := a.Data[j*a.Stride+from : j*a.Stride+L1]
				o := (from-p.depth)*w + j - j0
				if len(src) == 8 {
					_ = out[o+7*w]
					out[o], out[o+w], out[o+2*w], out[o+3*w] = src[0], src[1], src[2], src[3]
					out[o+4*w], out[o+5*w], out[o+6*w], out[o+7*w] = src[4], src[5], src[6], src[7]
					continue
				}
				for m, v := range src {
					out[o+m*w] = v
				}
			}
		}
	}
	if jw := c1 - (t1-1)*w; jw < w { // the last strip's columns past d
		last := dst[(t1-1-t0)*panel : (t1-t0)*panel]
		for l := range kc {
			clear(last[l*w+jw : (l+1)*w])
		}
	}
}

// copyStrip copies src into dst (of the same length), one row of a strip: whole rows of
// the shapes' widths as fixed-size copies, inline, not as calls of memmove.
func copyStrip(dst, src []float64) {
	switch len(src) {
	case 16:
		*(*[16]float64)(dst) = *(*[16]float64)(src)
	case 12:
		*(*[12]float64)(dst) = *(*[12]float64)(src)
	default:
		copy(dst, src)
	}
}

// tiles adds alpha·(packed Bᵀ)ᵀ·(packed A) to part q's stripe of C, symmPackStrips
// strips of A at a time: it packs them into j.Scratch[1+q] (while they stay in L2),
// then runs the micro-kernel over them block of symmBlockRows rows by block (their
// packed Bᵀ stays in L2) and strip by strip (the strip of A stays in L1 while the
// micro-kernel runs down the block's rows). Tiles inside C go straight to C; those
// across C's last row or column go through a scratch tile, of which only the elements
// inside C are added.
func (p symmPlan) tiles(j *host.Job, q int) {
	c := j.C
	t0, t1 := p.stripes(q)
	kc, w, rows := p.kcur, p.w, p.rows
	panel := kc * w
	packedB := j.Scratch[0]
	var scratch [syrkMaxTile]float64
	edge := scratch[:rows*w]
	for s0 := t0; s0 < t1; s0 += symmPackStrips {
		s1 := min(s0+symmPackStrips, t1)
		packedA := j.Scratch[1+q][:(s1-s0)*panel]
		p.packA(j.A, s0, s1, packedA)
		for ib := 0; ib < p.k; ib += symmBlockRows {
			ie := min(ib+symmBlockRows, p.k)
			for t := s0; t < s1; t++ {
				j0 := t * w
				qa := packedA[(t-s0)*panel : (t-s0+1)*panel]
				for i0 := ib; i0 < ie; i0 += rows {
					o := (i0/w)*panel + i0%w
					pb := packedB[o : o+(kc-1)*w+rows]
					if i0+rows <= p.k && j0+w <= p.d {
						o := i0*c.Stride + j0
						p.tile(pb, qa, c.Data[o:o+(rows-1)*c.Stride+w], kc, c.Stride, j.Alpha)
						continue
					}
					clear(edge)
					p.tile(pb, qa, edge, kc, w, j.Alpha)
					for r := range min(rows, p.k-i0) {
						o := (i0+r)*c.Stride + j0
						dst := c.Data[o : o+min(w, p.d-j0)]
						for jj := range dst {
							dst[jj] += edge[r*w+jj]
						}
					}
				}
			}
		}
	}
}
