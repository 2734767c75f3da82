package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Lane counts of the vector registers.
const (
	ymmLanes = 4 // float64 lanes of a ymm register
	zmmLanes = 8 // float64 lanes of a zmm register
)

// ymmMasks holds four all-ones quadwords followed by four zero quadwords: the four
// quadwords starting at quadword 4−r form a VMASKMOVPD mask selecting lanes [0, r).
var ymmMasks Mem

// tailMasks emits the read-only table of masks for the last, partial vector of a loop.
func tailMasks() {
	ymmMasks = GLOBL("ymmmasks", RODATA|NOPTR)
	for i := range 2 * ymmLanes {
		v := U64(0)
		if i < ymmLanes {
			v = U64(^uint64(0))
		}
		DATA(8*i, v)
	}
}

// ymmTailMask returns a ymm mask selecting lanes [0, rem), 0 < rem < 4.
func ymmTailMask(rem Register) VecVirtual {
	base, off := GP64(), GP64()
	LEAQ(ymmMasks, base)
	MOVQ(U32(ymmLanes), off)
	SUBQ(rem, off)
	m := YMM()
	VMOVDQU(Mem{Base: base, Index: off, Scale: 8}, m)
	return m
}

// zeroed returns n vector registers made by alloc, each set to zero (with VPXORQ for
// zmm registers, as VXORPD on zmm needs AVX512DQ).
func zeroed(n int, alloc func() VecVirtual) []VecVirtual {
	v := make([]VecVirtual, n)
	for i := range v {
		v[i] = alloc()
		if v[i].Size() == 64 {
			VPXORQ(v[i], v[i], v[i])
		} else {
			VXORPD(v[i], v[i], v[i])
		}
	}
	return v
}

// sumTree adds v[1:] into v[0] pairwise: ((v0+v1)+(v2+v3))+….
func sumTree(v []VecVirtual) {
	for step := 1; step < len(v); step *= 2 {
		for i := 0; i+step < len(v); i += 2 * step {
			VADDPD(v[i+step], v[i], v[i])
		}
	}
}

// hsumYMM adds the four lanes of v, (v0+v2)+(v1+v3), into lane 0 of the returned xmm
// register, which is v's low half; v is clobbered.
func hsumYMM(v VecVirtual) Register {
	hi := XMM()
	VEXTRACTF128(U8(1), v, hi)
	lo := v.AsX()
	VADDPD(hi, lo, lo)
	h := XMM()
	VUNPCKHPD(lo, lo, h)
	VADDSD(h, lo, lo)
	return lo
}

// hsum4YMM stores to out the lane sums of four ymm registers,
//
//	out[r] = (v[r]₀+v[r]₁) + (v[r]₂+v[r]₃)
//
// clobbering them.
func hsum4YMM(v []VecVirtual, out Mem) {
	t0, t1 := YMM(), YMM()
	VHADDPD(v[1], v[0], t0) // v0₀₁ v1₀₁ v0₂₃ v1₂₃
	VHADDPD(v[3], v[2], t1) // v2₀₁ v3₀₁ v2₂₃ v3₂₃
	lo, hi := YMM(), YMM()
	VPERM2F128(U8(0x20), t1, t0, lo) // low halves
	VPERM2F128(U8(0x31), t1, t0, hi) // high halves
	VADDPD(hi, lo, lo)
	VMOVUPD(lo, out)
}

// sliceBase returns the base of slice parameter name as a memory operand.
func sliceBase(name string) Mem {
	return Mem{Base: Load(Param(name).Base(), GP64())}
}

// paramAddr is the memory operand of the scalar parameter name.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
