package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// firstGCHeap is the heap (bytes) at which the process first collects garbage.
const firstGCHeap = 64 << 20

// gcSentinel is unreachable from the start; its finalizer runs after the first
// collection. It holds a pointer so that the tiny allocator does not batch it with
// other objects (a finalizer on a batched object may never run).
type gcSentinel struct{ _ *byte }

// deferFirstGC lets the heap grow to firstGCHeap before the first collection, then
// hands the collector back to the runtime's defaults (GOGC = 100, no memory limit). A
// command on a small file (the embedded a9a: a heap of about 7 MB) then runs without a
// collection, which its one or two would cost in write barriers and assists about
// 2.5 ms of a 34 ms run; a large one collects as usual from 64 MiB on. $GOGC or
// $GOMEMLIMIT, when set, win: the function then leaves the collector alone.
func deferFirstGC() { deferFirstGCAt(firstGCHeap) }

// deferFirstGCAt is deferFirstGC with the first collection at limit bytes.
func deferFirstGCAt(limit int64) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(limit)
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}
