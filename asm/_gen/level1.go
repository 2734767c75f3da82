package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// dotAVX2: Σ x[i]·y[i] with eight ymm accumulators, so that eight independent FMA chains
// cover the FMA latency while the loads (two per FMA) set the pace.
func dotAVX2() {
	TEXT("dotAVX2", NOSPLIT, "func(x, y []float64) float64")
	Pragma("noescape")
	Doc(
		"dotAVX2 returns",
		"",
		"\tvar s float64",
		"\tfor i := range x {",
		"\t\ts += x[i] * y[i]",
		"\t}",
		"",
		"summing in eight ymm accumulators. len(y) ≥ len(x).",
	)
	x, y := sliceBase("x"), sliceBase("y")
	n := Load(Param("x").Len(), GP64())

	const unroll = 8 // ymm accumulators
	acc := zeroed(unroll, YMM)

	Comment("blockloop: 4·unroll elements, one FMA per accumulator.")
	Label("blockloop")
	CMPQ(n, U32(ymmLanes*unroll))
	JL(LabelRef("vecloop"))
	for i := range unroll {
		t := YMM()
		VMOVUPD(x.Offset(32*i), t)
		VFMADD231PD(y.Offset(32*i), t, acc[i])
	}
	ADDQ(U32(32*unroll), x.Base)
	ADDQ(U32(32*unroll), y.Base)
	SUBQ(U32(ymmLanes*unroll), n)
	JMP(LabelRef("blockloop"))

	Comment("vecloop: one ymm at a time.")
	Label("vecloop")
	CMPQ(n, U32(ymmLanes))
	JL(LabelRef("tail"))
	t := YMM()
	VMOVUPD(x, t)
	VFMADD231PD(y, t, acc[0])
	ADDQ(U32(32), x.Base)
	ADDQ(U32(32), y.Base)
	SUBQ(U32(ymmLanes), n)
	JMP(LabelRef("vecloop"))

	Comment("tail: the last len(x) mod 4 elements, one at a time.")
	Label("tail")
	s := XMM()
	VXORPD(s, s, s)
	Label("tailloop")
	TESTQ(n, n)
	JE(LabelRef("reduce"))
	ts := XMM()
	VMOVSD(x, ts)
	VFMADD231SD(y, ts, s)
	ADDQ(U32(8), x.Base)
	ADDQ(U32(8), y.Base)
	DECQ(n)
	JMP(LabelRef("tailloop"))

	Comment("reduce: accumulators pairwise, then lanes, then the scalar tail.")
	Label("reduce")
	sumTree(acc)
	r := hsumYMM(acc[0])
	VADDSD(s, r, r)
	Store(r, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// axpyAVX2: y += alpha·x, sixteen elements (four ymm) per iteration.
func axpyAVX2() {
	TEXT("axpyAVX2", NOSPLIT, "func(alpha float64, x, y []float64)")
	Pragma("noescape")
	Doc(
		"axpyAVX2 computes",
		"",
		"\tfor i := range x {",
		"\t\ty[i] += alpha * x[i]",
		"\t}",
		"",
		"with fused multiply-adds. len(y) ≥ len(x); x and y may be the same slice.",
	)
	a := YMM()
	VBROADCASTSD(paramAddr("alpha"), a)
	x, y := sliceBase("x"), sliceBase("y")
	n := Load(Param("x").Len(), GP64())

	const unroll = 4 // ymm per iteration
	Comment("blockloop: 4·unroll elements.")
	Label("blockloop")
	CMPQ(n, U32(ymmLanes*unroll))
	JL(LabelRef("vecloop"))
	for i := range unroll {
		t := YMM()
		VMOVUPD(x.Offset(32*i), t)
		VFMADD213PD(y.Offset(32*i), a, t)
		VMOVUPD(t, y.Offset(32*i))
	}
	ADDQ(U32(32*unroll), x.Base)
	ADDQ(U32(32*unroll), y.Base)
	SUBQ(U32(ymmLanes*unroll), n)
	JMP(LabelRef("blockloop"))

	Comment("vecloop: one ymm at a time.")
	Label("vecloop")
	CMPQ(n, U32(ymmLanes))
	JL(LabelRef("tail"))
	t := YMM()
	VMOVUPD(x, t)
	VFMADD213PD(y, a, t)
	VMOVUPD(t, y)
	ADDQ(U32(32), x.Base)
	ADDQ(U32(32), y.Base)
	SUBQ(U32(ymmLanes), n)
	JMP(LabelRef("vecloop"))

	Comment("tail: the last len(x) mod 4 elements, one at a time.")
	Label("tail")
	TESTQ(n, n)
	JE(LabelRef("done"))
	ts := XMM()
	VMOVSD(x, ts)
	VFMADD213SD(y, a.AsX(), ts)
	VMOVSD(ts, y)
	ADDQ(U32(8), x.Base)
	ADDQ(U32(8), y.Base)
	DECQ(n)
	JMP(LabelRef("tail"))

	Label("done")
	VZEROUPPER()
	RET()
}

// scalAVX2: x *= alpha, sixteen elements (four ymm) per iteration.
func scalAVX2() {
	TEXT("scalAVX2", NOSPLIT, "func(alpha float64, x []float64)")
	Pragma("noescape")
	Doc(
		"scalAVX2 computes",
		"",
		"\tfor i := range x {",
		"\t\tx[i] *= alpha",
		"\t}",
	)
	a := YMM()
	VBROADCASTSD(paramAddr("alpha"), a)
	x := sliceBase("x")
	n := Load(Param("x").Len(), GP64())

	const unroll = 4 // ymm per iteration
	Comment("blockloop: 4·unroll elements.")
	Label("blockloop")
	CMPQ(n, U32(ymmLanes*unroll))
	JL(LabelRef("tail"))
	for i := range unroll {
		t := YMM()
		VMULPD(x.Offset(32*i), a, t)
		VMOVUPD(t, x.Offset(32*i))
	}
	ADDQ(U32(32*unroll), x.Base)
	SUBQ(U32(ymmLanes*unroll), n)
	JMP(LabelRef("blockloop"))

	Comment("tail: the last len(x) mod 16 elements, one at a time.")
	Label("tail")
	TESTQ(n, n)
	JE(LabelRef("done"))
	ts := XMM()
	VMULSD(x, a.AsX(), ts)
	VMOVSD(ts, x)
	ADDQ(U32(8), x.Base)
	DECQ(n)
	JMP(LabelRef("tail"))

	Label("done")
	VZEROUPPER()
	RET()
}
