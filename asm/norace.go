//go:build !race && amd64 && !noasm && !purego

package asm

import "github.com/aucopt/aucopt/fallback"

// Without the race detector the reports of race.go compile to nothing.

func raceRead([]float64)                  {}
func raceWrite([]float64)                 {}
func raceReadInt32([]int32)               {}
func raceReadMat(*fallback.Mat)           {}
func raceWriteMat(*fallback.Mat)          {}
func raceReadUpper(*fallback.Mat)         {}
func raceWriteUpper(*fallback.Mat)        {}
func raceReadRows(*fallback.Mat, []int32) {}
