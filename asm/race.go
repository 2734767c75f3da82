//go:build race && amd64 && !noasm && !purego

package asm

import (
	"runtime"
	"unsafe"

	"github.com/aucopt/aucopt/internal/host"
)

// The race detector does not see the memory accesses of assembly routines; the
// wrappers call these before a kernel runs to report what it reads and writes.

// raceRead reports a read of s.
func raceRead(s []float64) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(unsafe.SliceData(s)), 8*len(s))
	}
}

// raceWrite reports a write of s.
func raceWrite(s []float64) {
	if len(s) > 0 {
		runtime.RaceWriteRange(unsafe.Pointer(unsafe.SliceData(s)), 8*len(s))
	}
}

// raceReadInt32 reports a read of s.
func raceReadInt32(s []int32) {
	if len(s) > 0 {
		runtime.RaceReadRange(unsafe.Pointer(unsafe.SliceData(s)), 4*len(s))
	}
}

// raceReadMat reports a read of every row of m (not the gaps between rows).
func raceReadMat(m *host.Mat) {
	for i := range m.Rows {
		raceRead(m.Data[i*m.Stride : i*m.Stride+m.Cols])
	}
}

// raceWriteMat reports a write of every row of m.
func raceWriteMat(m *host.Mat) {
	for i := range m.Rows {
		raceWrite(m.Data[i*m.Stride : i*m.Stride+m.Cols])
	}
}

// raceReadUpper reports a read of the upper triangle of the square m.
func raceReadUpper(m *host.Mat) {
	for i := range m.Rows {
		raceRead(m.Data[i*m.Stride+i : i*m.Stride+m.Cols])
	}
}

// raceWriteUpper reports a write of the upper triangle of the square m.
func raceWriteUpper(m *host.Mat) {
	for i := range m.Rows {
		raceWrite(m.Data[i*m.Stride+i : i*m.Stride+m.Cols])
	}
}

// raceReadRows reports a read of rows[k] of m for every k.
func raceReadRows(m *host.Mat, rows []int32) {
	for _, r := range rows {
		raceRead(m.Data[int(r)*m.Stride : int(r)*m.Stride+m.Cols])
	}
}
