package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// indexLimit broadcasts to every dword of the returned ymm the largest valid index,
// min(m, 2³¹) − 1 for m = len(y) ≥ 1. Read as unsigned, a valid int32 index is at most
// this limit; a negative one reads as at least 2³¹, above it.
func indexLimit(m Register) VecVirtual {
	lim, top := GP64(), GP64()
	MOVQ(m, lim)
	MOVQ(U32(1<<31), top)
	CMPQ(lim, top)
	CMOVQGT(top, lim)
	DECQ(lim)
	l := YMM()
	MOVQ(lim, l.AsX())
	VPBROADCASTD(l.AsX(), l)
	return l
}

// indicesInRange sets the flags so that JNE jumps unless all eight indices in the ymm
// register ix are at most the limits in lim (unsigned).
func indicesInRange(ix, lim VecVirtual) {
	m := YMM()
	VPMINUD(lim, ix, m)
	VPCMPEQD(ix, m, m)
	bits := GP32()
	VMOVMSKPS(m, bits)
	CMPL(bits, U32(0xff))
}

// dotSparseAVX2: the gather Σ val[k]·y[idx[k]], eight indices at a time: check them
// against len(y) with one unsigned min and compare, then two VGATHERDPD of four.
func dotSparseAVX2() {
	TEXT("dotSparseAVX2", NOSPLIT, "func(val []float64, idx []int32, y []float64) (sum float64, bad int)")
	Pragma("noescape")
	Doc(
		"dotSparseAVX2 returns the gather",
		"",
		"\tfor k := range val {",
		"\t\tif uint(idx[k]) >= uint(len(y)) {",
		"\t\t\treturn 0, k",
		"\t\t}",
		"\t\tsum += val[k] * y[idx[k]]",
		"\t}",
		"\treturn sum, -1",
		"",
		"It reads y only at checked indices. len(idx) ≥ len(val).",
	)
	val, ix, y := sliceBase("val"), sliceBase("idx"), sliceBase("y")
	n := Load(Param("val").Len(), GP64())
	m := Load(Param("y").Len(), GP64())
	k := GP64()
	XORQ(k, k)
	acc := zeroed(2, YMM)
	s := XMM()
	VXORPD(s, s, s)

	Comment("With len(y) = 0 every index is out of range: the scalar loop reports the first.")
	TESTQ(m, m)
	JE(LabelRef("tail"))
	lim := indexLimit(m)
	nb := GP64()
	MOVQ(n, nb)
	ANDQ(I32(-8), nb)

	Comment("blockloop: eight indices, checked, then two gathers of four and two FMAs.")
	Comment("A block with a bad index goes to the scalar loop, which finds it.")
	Label("blockloop")
	CMPQ(k, nb)
	JGE(LabelRef("tail"))
	ixs := YMM()
	VMOVDQU(Mem{Base: ix.Base, Index: k, Scale: 4}, ixs)
	indicesInRange(ixs, lim)
	JNE(LabelRef("tail"))
	mask0, mask1 := YMM(), YMM()
	VPCMPEQD(mask0, mask0, mask0)
	VPCMPEQD(mask1, mask1, mask1)
	g0, g1 := YMM(), YMM()
	VXORPD(g0, g0, g0)
	VXORPD(g1, g1, g1)
	VGATHERDPD(mask0, Mem{Base: y.Base, Index: ixs.AsX(), Scale: 8}, g0)
	hi := XMM()
	VEXTRACTI128(U8(1), ixs, hi)
	VGATHERDPD(mask1, Mem{Base: y.Base, Index: hi, Scale: 8}, g1)
	VFMADD231PD(Mem{Base: val.Base, Index: k, Scale: 8}, g0, acc[0])
	VFMADD231PD(Mem{Base: val.Base, Index: k, Scale: 8, Disp: 32}, g1, acc[1])
	ADDQ(U32(8), k)
	JMP(LabelRef("blockloop"))

	Comment("tail: one index at a time, sign-extended and compared unsigned with len(y).")
	Label("tail")
	CMPQ(k, n)
	JE(LabelRef("reduce"))
	t := GP64()
	MOVLQSX(Mem{Base: ix.Base, Index: k, Scale: 4}, t)
	CMPQ(t, m)
	JAE(LabelRef("bad"))
	ts := XMM()
	VMOVSD(Mem{Base: y.Base, Index: t, Scale: 8}, ts)
	VFMADD231SD(Mem{Base: val.Base, Index: k, Scale: 8}, ts, s)
	INCQ(k)
	JMP(LabelRef("tail"))

	Comment("reduce: both accumulators, their lanes, then the scalar tail.")
	Label("reduce")
	VADDPD(acc[1], acc[0], acc[0])
	r := hsumYMM(acc[0])
	VADDSD(s, r, r)
	Store(r, ReturnIndex(0))
	MOVQ(I64(-1), k)
	Store(k, ReturnIndex(1))
	VZEROUPPER()
	RET()

	Label("bad")
	VXORPD(s, s, s)
	Store(s, ReturnIndex(0))
	Store(k, ReturnIndex(1))
	VZEROUPPER()
	RET()
}

// axpySparseAVX2: the scatter y[idx[k]] += alpha·val[k]. AVX2 has no scatter, so after a
// vector pass that checks every index (nothing is written if one is bad) the updates are
// scalar FMAs, four per iteration.
func axpySparseAVX2() {
	TEXT("axpySparseAVX2", NOSPLIT, "func(alpha float64, val []float64, idx []int32, y []float64) (bad int)")
	Pragma("noescape")
	Doc(
		"axpySparseAVX2 computes the scatter",
		"",
		"\tfor k := range val {",
		"\t\tif uint(idx[k]) >= uint(len(y)) {",
		"\t\t\treturn k",
		"\t\t}",
		"\t}",
		"\tfor k := range val {",
		"\t\ty[idx[k]] += alpha * val[k]",
		"\t}",
		"\treturn -1",
		"",
		"so y is left untouched when an index is out of range. len(idx) ≥ len(val).",
	)
	val, ix, y := sliceBase("val"), sliceBase("idx"), sliceBase("y")
	n := Load(Param("val").Len(), GP64())
	m := Load(Param("y").Len(), GP64())
	k := GP64()
	XORQ(k, k)

	Comment("With len(y) = 0 every index is out of range: the scalar check reports the first.")
	TESTQ(m, m)
	JE(LabelRef("checktail"))
	lim := indexLimit(m)
	nb := GP64()
	MOVQ(n, nb)
	ANDQ(I32(-8), nb)

	Comment("checkloop: eight indices at a time; a block with a bad one goes to checktail.")
	Label("checkloop")
	CMPQ(k, nb)
	JGE(LabelRef("checktail"))
	ixs := YMM()
	VMOVDQU(Mem{Base: ix.Base, Index: k, Scale: 4}, ixs)
	indicesInRange(ixs, lim)
	JNE(LabelRef("checktail"))
	ADDQ(U32(8), k)
	JMP(LabelRef("checkloop"))

	Comment("checktail: one index at a time, sign-extended and compared unsigned with len(y).")
	Label("checktail")
	CMPQ(k, n)
	JE(LabelRef("scatter"))
	t := GP64()
	MOVLQSX(Mem{Base: ix.Base, Index: k, Scale: 4}, t)
	CMPQ(t, m)
	JAE(LabelRef("bad"))
	INCQ(k)
	JMP(LabelRef("checktail"))

	Comment("scatter: every index is valid; four scalar FMAs per iteration, in order.")
	Label("scatter")
	a := XMM()
	VMOVSD(paramAddr("alpha"), a)
	XORQ(k, k)
	n4 := GP64()
	MOVQ(n, n4)
	ANDQ(I32(-4), n4)
	Label("blockloop")
	CMPQ(k, n4)
	JGE(LabelRef("tail"))
	for u := range 4 {
		t, v := GP64(), XMM()
		MOVLQSX(Mem{Base: ix.Base, Index: k, Scale: 4, Disp: 4 * u}, t)
		VMOVSD(Mem{Base: val.Base, Index: k, Scale: 8, Disp: 8 * u}, v)
		VFMADD213SD(Mem{Base: y.Base, Index: t, Scale: 8}, a, v)
		VMOVSD(v, Mem{Base: y.Base, Index: t, Scale: 8})
	}
	ADDQ(U32(4), k)
	JMP(LabelRef("blockloop"))

	Label("tail")
	CMPQ(k, n)
	JE(LabelRef("done"))
	t1, v := GP64(), XMM()
	MOVLQSX(Mem{Base: ix.Base, Index: k, Scale: 4}, t1)
	VMOVSD(Mem{Base: val.Base, Index: k, Scale: 8}, v)
	VFMADD213SD(Mem{Base: y.Base, Index: t1, Scale: 8}, a, v)
	VMOVSD(v, Mem{Base: y.Base, Index: t1, Scale: 8})
	INCQ(k)
	JMP(LabelRef("tail"))

	Label("done")
	MOVQ(I64(-1), k)
	Store(k, ReturnIndex(0))
	VZEROUPPER()
	RET()

	Label("bad")
	Store(k, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
