// Command _gen writes package asm's AVX2+FMA and AVX-512 kernels with avo.
//
//	go generate          # in this directory
//
// Each routine has one generator function below, named after it. The generated
// assembly and the Go declarations are committed in the parent directory; never edit
// them by hand.
package main

import (
	. "github.com/mmcloughlin/avo/build"
)

//go:generate go run . -out ../kernels_amd64.s -stubs ../kernels_amd64_stubs.go -pkg asm

func main() {
	ConstraintExpr("amd64,!noasm,!purego")
	tailMasks()

	// Level 1.
	dotAVX2()
	axpyAVX2()
	scalAVX2()

	// Sparse gather and scatter.
	dotSparseAVX2()
	axpySparseAVX2()

	// Register-blocked building blocks of Gemv, GemvRows and Symv.
	dot4AVX2()
	axpy4AVX2()
	symv4AVX2()

	// Micro-kernels of Syrk.
	syrkTileAVX2()
	syrkTileAVX512()

	Generate()
}
