package data

import (
	"crypto/sha256"
	"encoding/hex"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
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

// TestFileSHA256Mapped: a file large enough to be hashed through a mapping has the
// SHA-256 of its bytes, as a small one read has.
func TestFileSHA256Mapped(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{100, mapMinBytes + 5} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		p := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := FileSHA256(p)
		sum := sha256.Sum256(b)
		if want := hex.EncodeToString(sum[:]); err != nil || got != want {
			t.Errorf("%d bytes: FileSHA256 %s (%v), want %s", n, got, err, want)
		}
	}
}
