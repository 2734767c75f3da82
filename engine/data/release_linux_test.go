package data

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestPageSpan(t *testing.T) {
	const page = 4096
	for _, tc := range []struct {
		name           string
		off, end, n    int
		wantLo, wantHi int
	}{
		{"aligned", 0, 2 * page, 4 * page, 0, 2 * page},
		{"inside one page", 10, 100, 4 * page, page, 0},
		{"partial ends kept", 10, 3*page + 5, 4 * page, page, 3 * page},
		{"last partial page of the mapping", page + 1, 3*page + 7, 3*page + 7, 2 * page, 3*page + 7},
		{"whole small mapping", 0, 100, 100, 0, 100},
		{"empty", page, page, 4 * page, page, page},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := pageSpan(tc.off, tc.end, tc.n, page)
			if lo != tc.wantLo || hi != tc.wantHi {
				t.Fatalf("pageSpan(%d, %d, %d) = [%d, %d), want [%d, %d)", tc.off, tc.end, tc.n, lo, hi, tc.wantLo, tc.wantHi)
			}
			if lo < hi && (lo < tc.off || hi > tc.end) {
				t.Fatalf("[%d, %d) is not within [%d, %d)", lo, hi, tc.off, tc.end)
			}
		})
	}
}

// TestReleaseRangeReadable: released pages of a file mapping read the file's bytes again.
func TestReleaseRangeReadable(t *testing.T) {
	page := os.Getpagesize()
	want := make([]byte, 3*page+123)
	for i := range want {
		want[i] = byte(i*7 + i/page)
	}
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, want, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := mapSmall(f, int64(len(want)))
	if m == nil {
		t.Skip("the file could not be mapped")
	}
	defer unmapFile(m)
	if !bytes.Equal(m, want) {
		t.Fatal("the mapping differs from the file")
	}
	releaseRange(m, 5, len(m))
	releaseRange(m, 0, page+1)
	if !bytes.Equal(m, want) {
		t.Fatal("the mapping differs from the file after releaseRange")
	}
}
