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
	// Start from the live heap alone: the garbage of the tests before (a 2^14-bucket
	// table trained in process) can pass firstGCHeap, and the limit would then collect
	// at once and hand the collector back before it is checked.
	runtime.GC()
	deferFirstGC()
	if p, l := gcSettings(); p != math.MaxUint64 || l != firstGCHeap {
		t.Fatalf("after deferFirstGC: GOGC %d, limit %d; want off (-1) and %d", int64(p), l, firstGCHeap)
	}
	var keep [][]byte
	for range 2 * firstGCHeap >> 20 { // garbage past the limit: the runtime collects
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
