package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Register tiles of the Syrk micro-kernels: tileRows rows of C (broadcast elements of
// the packed panel p) by tileVecs vectors of C's columns (loaded from the packed panel q).
// The packed panels are strips of W = tileVecs·lanes columns of A, W consecutive
// elements per row of A; tileRows divides W, so the rows of a tile start inside a strip.
const (
	avx2TileRows   = 4 // 4 rows × 3 ymm: 12 accumulators, 3 loads and 1 broadcast register
	avx2TileVecs   = 3
	avx512TileRows = 8 // 8 rows × 2 zmm: 16 accumulators, 2 loads and 1 broadcast register
	avx512TileVecs = 2
)

// syrkTileAVX2: the 4×12 tile in ymm registers.
func syrkTileAVX2() {
	syrkTile("syrkTileAVX2", avx2TileRows, avx2TileVecs, ymmLanes, YMM, false)
}

// syrkTileAVX512: the 8×16 tile in zmm registers (AVX-512F only: no FMA3 encoding).
func syrkTileAVX512() {
	syrkTile("syrkTileAVX512", avx512TileRows, avx512TileVecs, zmmLanes, ZMM, true)
}

// syrkTile emits the micro-kernel name: the rows×(vecs·lanes) tile
//
//	C[r][j] += alpha · Σ_{l<kc} p[l·W+r] · q[l·W+j]
//
// accumulated in registers over l, then added to C once. With prefetchC, the tile's
// cache lines of C are prefetched before the loop over l, whose kc steps hide their
// latency (C is read once per kc rows of A, from memory when d is large).
func syrkTile(name string, rows, vecs, lanes int, alloc func() VecVirtual, prefetchC bool) {
	w := vecs * lanes
	vb := 8 * lanes // bytes per vector
	TEXT(name, NOSPLIT, "func(p, q, c []float64, kc, ldc int, alpha float64)")
	Pragma("noescape")
	Doc(
		fmt.Sprintf("%s computes a %d×%d tile of C = alpha·AᵀA from packed strips of A:", name, rows, w),
		"",
		fmt.Sprintf("\tfor r := range %d {", rows),
		fmt.Sprintf("\t\tfor j := range %d {", w),
		"\t\t\tvar s float64",
		"\t\t\tfor l := range kc {",
		fmt.Sprintf("\t\t\t\ts += p[l*%d+r] * q[l*%d+j]", w, w),
		"\t\t\t}",
		"\t\t\tc[r*ldc+j] += alpha * s",
		"\t\t}",
		"\t}",
		"",
		fmt.Sprintf("len(p) ≥ (kc−1)·%d+%d, len(q) ≥ kc·%d, len(c) ≥ %d·ldc+%d.", w, rows, w, rows-1, w),
	)
	p, q, c := sliceBase("p"), sliceBase("q"), sliceBase("c")
	kc := Load(Param("kc"), GP64())
	acc := make([][]VecVirtual, rows)
	for r := range acc {
		acc[r] = zeroed(vecs, alloc)
	}

	if prefetchC {
		Comment("Prefetch the tile's rows of C: the first and last byte of each and the lines between.")
		ldc, row := Load(Param("ldc"), GP64()), GP64()
		SHLQ(U8(3), ldc)
		MOVQ(c.Base, row)
		for r := range rows {
			for o := 0; o < vb*vecs; o += 64 {
				PREFETCHT0(Mem{Base: row, Disp: o})
			}
			PREFETCHT0(Mem{Base: row, Disp: vb*vecs - 8})
			if r < rows-1 {
				ADDQ(ldc, row)
			}
		}
	}

	Comment("kloop: one row l of the strips: load q's vectors, broadcast p's elements, FMA.")
	TESTQ(kc, kc)
	JE(LabelRef("store"))
	Label("kloop")
	b := make([]VecVirtual, vecs)
	for v := range b {
		b[v] = alloc()
		VMOVUPD(q.Offset(vb*v), b[v])
	}
	for r := range rows {
		t := alloc()
		VBROADCASTSD(p.Offset(8*r), t)
		for v := range vecs {
			VFMADD231PD(b[v], t, acc[r][v])
		}
	}
	ADDQ(U32(8*w), p.Base)
	ADDQ(U32(8*w), q.Base)
	DECQ(kc)
	JNZ(LabelRef("kloop"))

	Comment("store: C += alpha·acc, row by row.")
	Label("store")
	a := alloc()
	VBROADCASTSD(paramAddr("alpha"), a)
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(3), ldc)
	for r := range rows {
		for v := range vecs {
			VFMADD213PD(c.Offset(vb*v), a, acc[r][v])
			VMOVUPD(acc[r][v], c.Offset(vb*v))
		}
		if r < rows-1 {
			ADDQ(ldc, c.Base)
		}
	}
	VZEROUPPER()
	RET()
}
