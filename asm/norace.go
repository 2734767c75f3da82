//go:build !race && amd64 && !noasm && !purego

package asm

import "github.com/aucopt/aucopt/internal/host"

// Without the race detector the reports of race.go compile to nothing.

func raceRead([]float64)              {}
func raceWrite([]float64)             {}
func raceReadInt32([]int32)           {}
func raceReadMat(*host.Mat)           {}
func raceWriteMat(*host.Mat)          {}
func raceReadUpper(*host.Mat)         {}
func raceWriteUpper(*host.Mat)        {}
func raceReadRows(*host.Mat, []int32) {}
