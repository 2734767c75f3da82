package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcSettings reads the collector's GOGC percent and memory limit.
func gcSettings() (percent, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// TestDeferFirstGC: the collector starts off with a firstGCHeap limit and is handed
// back to the defaults (GOGC 100, no limit) once a collection has run; with $GOGC set it
// is left alone.
func TestDeferFirstGC(t *testing.T) {
	defer func() {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}()
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	// The limit sits firstGCHeap above what the process holds now: the tests before,
	// in the same process, may keep more than firstGCHeap alive (cached datasets, a
	// 2^14-bucket table), and a limit below the live heap would collect at once and
	// hand the collector back before it is checked.
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := int64(ms.Sys) + firstGCHeap
	deferFirstGCAt(limit)
	if p, l := gcSettings(); p != math.MaxUint64 || l != uint64(limit) {
		t.Fatalf("after deferFirstGC: GOGC %d, limit %d; want off (-1) and %d", int64(p), l, limit)
	}
	var keep [][]byte
	for range 2 * limit >> 20 { // garbage past the limit: the runtime collects
		keep = append(keep[:0], make([]byte, 1<<20))
	}
	_ = keep
	runtime.GC()
	for deadline := time.Now().Add(5 * time.Second); ; {
		if p, l := gcSettings(); p == 100 && l == math.MaxInt64 {
			break
		}
		if time.Now().After(deadline) {
			p, l := gcSettings()
			t.Fatalf("after a collection: GOGC %d, limit %d; want 100 and no limit", p, l)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}

	t.Setenv("GOGC", "50")
	debug.SetGCPercent(77)
	deferFirstGC()
	if p, l := gcSettings(); p != 77 || l != math.MaxInt64 {
		t.Errorf("with $GOGC set: GOGC %d, limit %d; want them untouched (77, no limit)", p, l)
	}
}
