package data

import (
	"hash/crc32"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestChecksumParallel: the checksum taken in pieces on several cores and combined is
// the one-piece checksum, at lengths that split unevenly; crc32Combine alone too.
func TestChecksumParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 50<<20+13)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	for _, n := range []int{0, 1, 1000, 16 << 20, 32<<20 + 1, len(b)} {
		if got, want := checksum(b[:n]), crc32.Checksum(b[:n], castagnoli); got != want {
			t.Errorf("%d bytes: checksum %08x, want %08x", n, got, want)
		}
	}
	for _, cut := range []int{0, 1, 7, 4096, 99999} {
		a, c := b[:cut], b[cut:200000]
		got := crc32Combine(crc32.Castagnoli, crc32.Checksum(a, castagnoli), crc32.Checksum(c, castagnoli), int64(len(c)))
		if want := crc32.Checksum(b[:200000], castagnoli); got != want {
			t.Errorf("cut at %d: combined %08x, want %08x", cut, got, want)
		}
	}
}
