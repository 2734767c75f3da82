package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// rowBases loads the bases of the four row slices a0…a3.
func rowBases() [4]Register {
	var rows [4]Register
	for r := range rows {
		rows[r] = Load(Param(fmt.Sprintf("a%d", r)).Base(), GP64())
	}
	return rows
}

// at is element i (an index register) of the float64 array at base, plus off bytes.
func at(base, i Register, off int) Mem {
	return Mem{Base: base, Index: i, Scale: 8, Disp: off}
}

// broadcast4 broadcasts c[0…3] into four ymm registers.
func broadcast4(name string) [4]VecVirtual {
	c := Load(Param(name), GP64())
	var v [4]VecVirtual
	for r := range v {
		v[r] = YMM()
		VBROADCASTSD(Mem{Base: c, Disp: 8 * r}, v[r])
	}
	return v
}

// dot4AVX2: four row dot products sharing the loads of x, two accumulators per row.
func dot4AVX2() {
	TEXT("dot4AVX2", NOSPLIT, "func(a0, a1, a2, a3, x []float64, out *[4]float64)")
	Pragma("noescape")
	Doc(
		"dot4AVX2 computes four dot products with x at once:",
		"",
		"\tfor r, a := range [4][]float64{a0, a1, a2, a3} {",
		"\t\tout[r] = 0",
		"\t\tfor i := range x {",
		"\t\t\tout[r] += a[i] * x[i]",
		"\t\t}",
		"\t}",
		"",
		"Each row must hold at least len(x) elements.",
	)
	rows := rowBases()
	x := Load(Param("x").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	const unroll = 2 // ymm per row and iteration
	acc := make([][]VecVirtual, 4)
	for r := range acc {
		acc[r] = zeroed(unroll, YMM)
	}
	i, nb, n4 := GP64(), GP64(), GP64()
	XORQ(i, i)
	MOVQ(n, nb)
	ANDQ(I32(-4*unroll), nb)
	MOVQ(n, n4)
	ANDQ(I32(-4), n4)

	Comment("blockloop: 4·unroll elements of each row; x is loaded once for the four rows.")
	Label("blockloop")
	CMPQ(i, nb)
	JGE(LabelRef("vecloop"))
	for u := range unroll {
		xv := YMM()
		VMOVUPD(at(x, i, 32*u), xv)
		for r := range 4 {
			VFMADD231PD(at(rows[r], i, 32*u), xv, acc[r][u])
		}
	}
	ADDQ(U32(4*unroll), i)
	JMP(LabelRef("blockloop"))

	Comment("vecloop: one ymm of each row.")
	Label("vecloop")
	CMPQ(i, n4)
	JGE(LabelRef("tail"))
	xv := YMM()
	VMOVUPD(at(x, i, 0), xv)
	for r := range 4 {
		VFMADD231PD(at(rows[r], i, 0), xv, acc[r][0])
	}
	ADDQ(U32(4), i)
	JMP(LabelRef("vecloop"))

	Comment("tail: the last len(x) mod 4 elements under a mask (lanes beyond read as 0).")
	Label("tail")
	CMPQ(i, n)
	JE(LabelRef("reduce"))
	rem := GP64()
	MOVQ(n, rem)
	SUBQ(i, rem)
	mask := ymmTailMask(rem)
	xt := YMM()
	VMASKMOVPD(at(x, i, 0), mask, xt)
	for r := range 4 {
		t := YMM()
		VMASKMOVPD(at(rows[r], i, 0), mask, t)
		VFMADD231PD(t, xt, acc[r][1])
	}

	Comment("reduce: each row's accumulators, then the lanes of the four rows together.")
	Label("reduce")
	sums := make([]VecVirtual, 4)
	for r := range 4 {
		VADDPD(acc[r][1], acc[r][0], acc[r][0])
		sums[r] = acc[r][0]
	}
	hsum4YMM(sums, Mem{Base: Load(Param("out"), GP64())})
	VZEROUPPER()
	RET()
}

// axpy4AVX2: y += Σ_r c[r]·a_r over four rows, loading and storing y once.
func axpy4AVX2() {
	TEXT("axpy4AVX2", NOSPLIT, "func(a0, a1, a2, a3 []float64, c *[4]float64, y []float64)")
	Pragma("noescape")
	Doc(
		"axpy4AVX2 adds four scaled rows to y at once:",
		"",
		"\tfor i := range y {",
		"\t\ty[i] += c[0]*a0[i] + c[1]*a1[i] + c[2]*a2[i] + c[3]*a3[i]",
		"\t}",
		"",
		"as four fused multiply-adds in row order. Each row must hold at least len(y)",
		"elements.",
	)
	rows := rowBases()
	cr := broadcast4("c")
	y := Load(Param("y").Base(), GP64())
	n := Load(Param("y").Len(), GP64())
	const unroll = 4 // ymm of y per iteration
	i, nb, n4 := GP64(), GP64(), GP64()
	XORQ(i, i)
	MOVQ(n, nb)
	ANDQ(I32(-4*unroll), nb)
	MOVQ(n, n4)
	ANDQ(I32(-4), n4)

	Comment("blockloop: 4·unroll elements of y, each updated by the four rows in turn.")
	Label("blockloop")
	CMPQ(i, nb)
	JGE(LabelRef("vecloop"))
	for u := range unroll {
		yv := YMM()
		VMOVUPD(at(y, i, 32*u), yv)
		for r := range 4 {
			VFMADD231PD(at(rows[r], i, 32*u), cr[r], yv)
		}
		VMOVUPD(yv, at(y, i, 32*u))
	}
	ADDQ(U32(4*unroll), i)
	JMP(LabelRef("blockloop"))

	Comment("vecloop: one ymm of y.")
	Label("vecloop")
	CMPQ(i, n4)
	JGE(LabelRef("tail"))
	yv := YMM()
	VMOVUPD(at(y, i, 0), yv)
	for r := range 4 {
		VFMADD231PD(at(rows[r], i, 0), cr[r], yv)
	}
	VMOVUPD(yv, at(y, i, 0))
	ADDQ(U32(4), i)
	JMP(LabelRef("vecloop"))

	Comment("tail: the last len(y) mod 4 elements under a mask.")
	Label("tail")
	CMPQ(i, n)
	JE(LabelRef("done"))
	rem := GP64()
	MOVQ(n, rem)
	SUBQ(i, rem)
	mask := ymmTailMask(rem)
	yt := YMM()
	VMASKMOVPD(at(y, i, 0), mask, yt)
	for r := range 4 {
		t := YMM()
		VMASKMOVPD(at(rows[r], i, 0), mask, t)
		VFMADD231PD(t, cr[r], yt)
	}
	VMASKMOVPD(yt, mask, at(y, i, 0))

	Label("done")
	VZEROUPPER()
	RET()
}

// symv4AVX2: four rows of the upper triangle used twice from one load, as the dot
// products of the rows with x and as the update of y by the rows (their mirror columns).
func symv4AVX2() {
	TEXT("symv4AVX2", NOSPLIT, "func(a0, a1, a2, a3, x, y []float64, c *[4]float64, out *[4]float64)")
	Pragma("noescape")
	Doc(
		"symv4AVX2 is the fused row and column step of a symmetric mat-vec over four rows:",
		"",
		"\tfor r, a := range [4][]float64{a0, a1, a2, a3} {",
		"\t\tout[r] = 0",
		"\t\tfor i := range x {",
		"\t\t\tout[r] += a[i] * x[i]",
		"\t\t}",
		"\t}",
		"\tfor i := range x {",
		"\t\ty[i] += c[0]*a0[i] + c[1]*a1[i] + c[2]*a2[i] + c[3]*a3[i]",
		"\t}",
		"",
		"Each row and y must hold at least len(x) elements.",
	)
	rows := rowBases()
	cr := broadcast4("c")
	x := Load(Param("x").Base(), GP64())
	y := Load(Param("y").Base(), GP64())
	n := Load(Param("x").Len(), GP64())
	acc := zeroed(4, YMM)
	const unroll = 2 // ymm per iteration
	i, nb, n4 := GP64(), GP64(), GP64()
	XORQ(i, i)
	MOVQ(n, nb)
	ANDQ(I32(-4*unroll), nb)
	MOVQ(n, n4)
	ANDQ(I32(-4), n4)

	// step does one ymm of the four rows: each row's load feeds its dot product and y.
	step := func(xv, yv VecVirtual, row func(r int) VecVirtual) {
		for r := range 4 {
			t := row(r)
			VFMADD231PD(xv, t, acc[r])
			VFMADD231PD(t, cr[r], yv)
		}
	}

	Comment("blockloop: 4·unroll elements; every element of A is loaded once and used twice.")
	Label("blockloop")
	CMPQ(i, nb)
	JGE(LabelRef("vecloop"))
	for u := range unroll {
		xv, yv := YMM(), YMM()
		VMOVUPD(at(x, i, 32*u), xv)
		VMOVUPD(at(y, i, 32*u), yv)
		step(xv, yv, func(r int) VecVirtual {
			t := YMM()
			VMOVUPD(at(rows[r], i, 32*u), t)
			return t
		})
		VMOVUPD(yv, at(y, i, 32*u))
	}
	ADDQ(U32(4*unroll), i)
	JMP(LabelRef("blockloop"))

	Comment("vecloop: one ymm.")
	Label("vecloop")
	CMPQ(i, n4)
	JGE(LabelRef("tail"))
	xv, yv := YMM(), YMM()
	VMOVUPD(at(x, i, 0), xv)
	VMOVUPD(at(y, i, 0), yv)
	step(xv, yv, func(r int) VecVirtual {
		t := YMM()
		VMOVUPD(at(rows[r], i, 0), t)
		return t
	})
	VMOVUPD(yv, at(y, i, 0))
	ADDQ(U32(4), i)
	JMP(LabelRef("vecloop"))

	Comment("tail: the last len(x) mod 4 elements under a mask.")
	Label("tail")
	CMPQ(i, n)
	JE(LabelRef("reduce"))
	rem := GP64()
	MOVQ(n, rem)
	SUBQ(i, rem)
	mask := ymmTailMask(rem)
	xt, yt := YMM(), YMM()
	VMASKMOVPD(at(x, i, 0), mask, xt)
	VMASKMOVPD(at(y, i, 0), mask, yt)
	step(xt, yt, func(r int) VecVirtual {
		t := YMM()
		VMASKMOVPD(at(rows[r], i, 0), mask, t)
		return t
	})
	VMASKMOVPD(yt, mask, at(y, i, 0))

	Comment("reduce: the lanes of the four dot products together.")
	Label("reduce")
	hsum4YMM(acc, Mem{Base: Load(Param("out"), GP64())})
	VZEROUPPER()
	RET()
}
