//go:build openblas

package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/aucopt/aucopt/asm"
)

// peerShapes are the level-3 shapes of issue 46: Syrk at k = 4,096, Symm at the
// BenchmarkSymm shapes and d = 8,192.
var peerShapes = []struct {
	kernel string
	d, k   int
}{
	{"Syrk", 2000, 4096}, {"Syrk", 8192, 4096},
	{"Symm", 2000, 16}, {"Symm", 2000, 299}, {"Symm", 8192, 16}, {"Symm", 8192, 299},
}

// BenchmarkOpenBLAS runs each shape with aucopt's asm backend and with OpenBLAS
// (cblas_dsyrk / cblas_dsymm on the same row-major data) side by side. Syrk is
// C = AᵀA, upper triangle, flops = k·d·(d+1); Symm is C = B·A, A symmetric (upper),
// flops = 2·k·d².
func BenchmarkOpenBLAS(b *testing.B) {
	be, err := asm.New()
	if err != nil {
		b.Skipf("asm backend: %v", err)
	}
	b.Cleanup(func() { be.Close() })
	config, core, threads := openblasThreads(runtime.GOMAXPROCS(0))
	b.Logf("OpenBLAS %s, core %s, %d threads", config, core, threads)
	for _, s := range peerShapes {
		r := rand.New(rand.NewPCG(1, 46))
		d, k := s.d, s.k
		size := fmt.Sprintf("kernel=%s/d=%d/k=%d", s.kernel, d, k)
		switch s.kernel {
		case "Syrk":
			a, c := randSlice(r, k*d), randSlice(r, d*d)
			flops := float64(k) * float64(d) * float64(d+1)
			am, cm := mat(be, k, d, a), mat(be, d, d, c)
			b.Run(size+"/impl=aucopt", func(b *testing.B) {
				cpu0 := cpuTime(b)
				for b.Loop() {
					be.Syrk(1, am, 0, cm)
				}
				report(b, flops)
				reportCPU(b, flops, cpu0)
			})
			b.Run(size+"/impl=openblas", func(b *testing.B) {
				cpu0 := cpuTime(b)
				for b.Loop() {
					openblasSyrk(d, k, 1, a, 0, c)
				}
				report(b, flops)
				reportCPU(b, flops, cpu0)
			})
		case "Symm":
			a, bd, c := randSlice(r, d*d), randSlice(r, k*d), randSlice(r, k*d)
			flops := 2 * float64(k) * float64(d) * float64(d)
			am, bm, cm := mat(be, d, d, a), mat(be, k, d, bd), mat(be, k, d, c)
			b.Run(size+"/impl=aucopt", func(b *testing.B) {
				cpu0 := cpuTime(b)
				for b.Loop() {
					be.Symm(1, am, bm, 0, cm)
				}
				report(b, flops)
				reportCPU(b, flops, cpu0)
			})
			b.Run(size+"/impl=openblas", func(b *testing.B) {
				cpu0 := cpuTime(b)
				for b.Loop() {
					openblasSymm(d, k, 1, a, bd, 0, c)
				}
				report(b, flops)
				reportCPU(b, flops, cpu0)
			})
		}
	}
}

// cpuTime is the process's CPU time (user and system) so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatalf("getrusage: %v", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU sets the cpu-GFLOP/s metric, the flops per second of the process's CPU time
// since cpu0: the rate per core busy, less sensitive to other jobs on a shared machine
// than GFLOP/s (which is per second of wall time).
func reportCPU(b *testing.B, flops float64, cpu0 time.Duration) {
	b.ReportMetric(flops*float64(b.N)/(cpuTime(b)-cpu0).Seconds()/1e9, "cpu-GFLOP/s")
}

// TestOpenBLASPeer checks that the peer computes what aucopt's kernels compute on the
// benchmark's layout (same triangle, same side), on shapes past every blocking edge.
func TestOpenBLASPeer(t *testing.T) {
	be, err := asm.New()
	if err != nil {
		t.Skipf("asm backend: %v", err)
	}
	defer be.Close()
	r := rand.New(rand.NewPCG(2, 46))
	near := func(what string, got, want []float64, d int, upper bool) {
		t.Helper()
		for i := range want {
			if upper && i%d < i/d {
				continue
			}
			if math.Abs(got[i]-want[i]) > 1e-10*(1+math.Abs(want[i])) {
				t.Fatalf("%s: element (%d, %d) = %v from OpenBLAS, %v from aucopt", what, i/d, i%d, got[i], want[i])
			}
		}
	}
	for _, s := range []struct{ d, k int }{{131, 517}, {300, 17}, {1030, 41}} {
		a, c := randSlice(r, s.k*s.d), randSlice(r, s.d*s.d)
		want := make([]float64, len(c))
		cm := mat(be, s.d, s.d, c)
		be.Syrk(1.5, mat(be, s.k, s.d, a), 0.5, cm)
		be.Download(want, cm)
		openblasSyrk(s.d, s.k, 1.5, a, 0.5, c)
		near(fmt.Sprintf("Syrk d=%d k=%d", s.d, s.k), c, want, s.d, true)

		sa, b, c2 := randSlice(r, s.d*s.d), randSlice(r, s.k*s.d), randSlice(r, s.k*s.d)
		want = make([]float64, len(c2))
		cm = mat(be, s.k, s.d, c2)
		be.Symm(-0.75, mat(be, s.d, s.d, sa), mat(be, s.k, s.d, b), 2, cm)
		be.Download(want, cm)
		openblasSymm(s.d, s.k, -0.75, sa, b, 2, c2)
		near(fmt.Sprintf("Symm d=%d k=%d", s.d, s.k), c2, want, s.d, false)
	}
}
