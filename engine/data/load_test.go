package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sameBits reports whether a and b hold the same float64s bit for bit.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// identical fails unless got and want are the same dataset, bit for bit, in the same layout.
func identical(t *testing.T, what string, got, want *Dataset) {
	t.Helper()
	if got.Name != want.Name || got.Dim != want.Dim || got.IsDense() != want.IsDense() || !slices.Equal(got.Y, want.Y) ||
		!sameBits(got.Labels, want.Labels) || !slices.Equal(got.Ptr, want.Ptr) || !slices.Equal(got.Idx, want.Idx) ||
		!sameBits(got.Val, want.Val) || !sameBits(got.Dense, want.Dense) {
		t.Fatalf("%s: got %d rows × %d (dense %v, nnz %d), want %d rows × %d (dense %v, nnz %d)", what,
			got.Rows(), got.Dim, got.IsDense(), got.Nnz(), want.Rows(), want.Dim, want.IsDense(), want.Nnz())
	}
	for i := range got.Rows() {
		if g, w := got.Row(i), want.Row(i); !slices.Equal(g.Idx, w.Idx) || !sameBits(g.Val, w.Val) {
			t.Fatalf("%s: row %d differs", what, i)
		}
	}
}

// oneCore reads text with the streaming Reader on one core, as path.
func oneCore(text, path string, opts Options) (*Dataset, error) {
	r, err := NewReader(strings.NewReader(text), path, opts)
	if err != nil {
		return nil, err
	}
	return ReadAll(r)
}

// chunkings are the chunk sizes and worker counts the parallel reader is tried with:
// chunks of one byte put a boundary inside every line and token.
var chunkings = []struct{ chunk, workers int }{
	{1, 1}, {1, 3}, {2, 2}, {3, 2}, {7, 2}, {16, 4}, {64, 2}, {1 << 20, 2}, {0, 0},
}

func writeTemp(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadFileContextMatchesOneCore(t *testing.T) {
	long := "+1" + strings.Repeat(" 3:0.25", 1) + " 70000:1 " + strings.Repeat(" ", 70000) + "\n-1 1:2\n"
	var denseText strings.Builder
	for i := range 40 {
		denseText.WriteString([]string{"+1", "-1"}[i%2])
		for j := 1; j <= 6; j++ {
			if (i+j)%5 != 0 {
				denseText.WriteString(" " + strconv.Itoa(j) + ":" + []string{"0.5", "-1.25e-3", "7", "-0", "0.1", "3.14159265358979"}[j-1])
			}
		}
		denseText.WriteString("\n")
	}
	cases := []struct {
		name, text string
		opts       Options
	}{
		{"small", small, Options{}},
		{"crlf", "+1 1:0.5 3:-2\r\n-1 2:1e-3\r\n\r\n+1 5:4\r\n", Options{}},
		{"comments and blanks", "# header: 1:2\n\n+1 1:1 # note 9:9\n   \n\t# x\n-1 2:2 4:4\n#\n", Options{}},
		{"no final newline", "+1 1:1\n-1 3:0.5", Options{}},
		{"qid", "1 qid:3 1:1 2:2\n0 qid:3 2:5\n", Options{}},
		{"labels 1/2", "2 1:1\n1 2:1\n2 3:1\n", Options{}},
		{"positive", "3 1:1\n7 2:1\n3 4:1\n", Options{Positive: "3"}},
		{"raw", "3 1:1\n7 2:1\n5 4:1\n", Options{Raw: true}},
		{"dim", "+1 1:1\n-1 2:1\n", Options{Dim: 9}},
		{"label only rows", "+1\n-1 2:3\n+1\n", Options{}},
		{"slow floats", "+1 1:1e300 2:0x1p-3 3:12345678901234567890\n-1 1:-1.5e-7 2:.5\n", Options{}},
		{"long line", long, Options{}},
		{"dense", denseText.String(), Options{}},
		{"spaces", "  +1\t1:1   2:2  \n\v-1 2:0.5\f\n", Options{}},
	}
	for _, tc := range cases {
		p := writeTemp(t, "data.svm", tc.text)
		want, err := oneCore(tc.text, p, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, ch := range chunkings {
			for k, layout := range []Layout{LayoutSparse, LayoutDense, LayoutAuto} {
				how := chunkIO(k) // the whole file mapped, reads, a mapping per chunk
				got, err := ReadFileContext(context.Background(), p, tc.opts, ReadConfig{Layout: layout, Workers: ch.workers, chunk: ch.chunk, io: how})
				if err != nil {
					t.Fatalf("%s chunk %d workers %d layout %d io %d: %v", tc.name, ch.chunk, ch.workers, layout, how, err)
				}
				w := want
				if layout == LayoutDense || layout == LayoutAuto && want.Density() >= DenseAuto && !strings.Contains(tc.name, "qid") {
					w = want.ToDense()
				}
				if layout == LayoutAuto && strings.Contains(tc.name, "qid") && got.IsDense() {
					w = want.ToDense() // qid: colons overstate the values; either layout is right
				}
				identical(t, tc.name, got, w)
			}
		}
		// ReadFile keeps its sparse layout.
		got, err := ReadFile(p, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		identical(t, tc.name+" ReadFile", got, want)
	}
}

func TestReadFileContextErrors(t *testing.T) {
	ok := strings.Repeat("+1 1:1 2:0.5\n-1 2:1 3:2\n", 5)
	cases := []struct {
		name, text string
		opts       Options
	}{
		{"bad value at the end", ok + "+1 1:x", Options{}},
		{"bad value early, label error late", "+1 1:1\n-1 1:?\n" + ok + "5 1:1\n", Options{}},
		{"label error late", ok + "+1 1:1\n3 2:1\n" + ok, Options{}},
		{"label error and bad value on one line", ok + "3 1:x\n", Options{}},
		{"order", ok + "+1 3:1 2:1\n" + ok, Options{}},
		{"index above dim", ok + "+1 4:1\n", Options{Dim: 3}},
		{"bad index", ok + "+1 0:1\n", Options{Indices: IndexOne}},
		{"numbered from 0, index above dim", ok + "+1 0:1\n", Options{Indices: IndexZero, Dim: 2}},
		{"bad label", ok + "nan 1:1\n", Options{}},
		{"not a feature", ok + "+1 abc\n", Options{}},
		{"line too long", ok + "+1 " + strings.Repeat("1", MaxLineBytes) + "\n" + ok, Options{}},
		{"line too long, earlier error", "+1 1:?\n" + ok + "+1 " + strings.Repeat("1", MaxLineBytes) + "\n", Options{}},
		{"no examples", "# nothing\n\n", Options{}},
	}
	for _, tc := range cases {
		p := writeTemp(t, "bad.svm", tc.text)
		want, err := oneCore(tc.text, p, tc.opts)
		if err == nil && want.Rows() > 0 {
			t.Fatalf("%s: the one-core read accepts the text", tc.name)
		}
		msg := p + ": no examples"
		if err != nil {
			msg = err.Error()
		}
		for _, ch := range chunkings {
			if ch.chunk < 7 && len(tc.text) > 1<<16 {
				continue // a megabyte of one-byte chunks: slow, and nothing the others miss
			}
			for _, layout := range []Layout{LayoutSparse, LayoutDense} {
				for _, how := range []chunkIO{ioAuto, ioRead, ioWindow} {
					_, err := ReadFileContext(context.Background(), p, tc.opts, ReadConfig{Layout: layout, Workers: ch.workers, chunk: ch.chunk, io: how})
					if err == nil || err.Error() != msg {
						t.Errorf("%s chunk %d workers %d io %d: error %v, want %s", tc.name, ch.chunk, ch.workers, how, err, msg)
					}
					var pe *ParseError
					if errors.As(err, &pe) != (msg != p+": no examples") {
						t.Errorf("%s: error %v is not a ParseError", tc.name, err)
					}
				}
			}
		}
	}
}

func TestReadFileContextCancelled(t *testing.T) {
	p := writeTemp(t, "data.svm", strings.Repeat("+1 1:1\n-1 2:1\n", 100))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadFileContext(ctx, p, Options{}, ReadConfig{chunk: 64}); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestReadFileContextCompressedAndCache(t *testing.T) {
	var text strings.Builder
	for i := range 300 {
		text.WriteString([]string{"+1 1:0.5 3:2\n", "-1 2:0.25 4:1e-2\n", "+1 1:3 2:1 3:1 4:1\n"}[i%3])
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "d.svm")
	os.WriteFile(plain, []byte(text.String()), 0o644)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text.String()))
	zw.Close()
	gzPath := filepath.Join(dir, "d.svm.gz")
	os.WriteFile(gzPath, gz.Bytes(), 0o644)
	want, err := oneCore(text.String(), gzPath, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, layout := range []Layout{LayoutSparse, LayoutDense} {
		got, err := ReadFileContext(context.Background(), gzPath, Options{}, ReadConfig{Layout: layout})
		if err != nil {
			t.Fatal(err)
		}
		w := want
		if layout == LayoutDense {
			w = want.ToDense()
		}
		identical(t, "gzip", got, w)
		// The cache keeps the layout under LayoutAuto and reads back the same bits.
		cp := filepath.Join(dir, "d.cache")
		if err := SaveCache(cp, got); err != nil {
			t.Fatal(err)
		}
		back, err := ReadFileContext(context.Background(), cp, Options{}, ReadConfig{})
		if err != nil {
			t.Fatal(err)
		}
		identical(t, "cache", back, got)
		if b, err := ReadFile(cp, Options{}); err != nil {
			t.Fatal(err)
		} else {
			identical(t, "cache ReadFile", b, got)
		}
		r, err := Open(cp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		streamed, err := ReadAll(r)
		r.Close()
		if err != nil || streamed.Rows() != got.Rows() {
			t.Fatalf("streamed cache: %v, %d rows", err, streamed.Rows())
		}
	}
}

func TestScanFile(t *testing.T) {
	text := "# c: 1\n+1 1:1 7:2\n\n-1 qid:2 3:1\n+1 2:1 # 99:1\n-1\n+1 5:1"
	dir := t.TempDir()
	plain := filepath.Join(dir, "d.svm")
	os.WriteFile(plain, []byte(text), 0o644)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text))
	zw.Close()
	gzPath := filepath.Join(dir, "d.svm.gz")
	os.WriteFile(gzPath, gz.Bytes(), 0o644)
	d, err := ReadFile(plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cachePath := filepath.Join(dir, "d.cache")
	if err := SaveCache(cachePath, d); err != nil {
		t.Fatal(err)
	}
	v2Path := filepath.Join(dir, "d.v2.cache")
	if err := WriteAtomic(v2Path, func(w io.Writer) error { return writeCache(w, d, 2) }); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{plain, gzPath, cachePath, v2Path} {
		info, err := ScanFile(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := Fingerprint(p)
		st, _ := os.Stat(p)
		if info.Rows != d.Rows() || info.Dim != d.Dim || info.SHA256 != sum || info.Bytes != st.Size() || info.Nnz < int64(d.Nnz()) {
			t.Errorf("%s: %+v, want %d rows, %d features, %d bytes, sha %s", p, info, d.Rows(), d.Dim, st.Size(), sum)
		}
	}
	// The fingerprint of a file is its SHA-256, but for a version-3 cache, whose stored
	// digest is the SHA-256 of its bytes before the digest (and the checksum).
	for _, p := range []string{plain, gzPath, v2Path, cachePath} {
		b, _ := os.ReadFile(p)
		if p == cachePath {
			b = b[:len(b)-digestSize-4]
		}
		want := sha256.Sum256(b)
		if got, err := Fingerprint(p); err != nil || got != hex.EncodeToString(want[:]) {
			t.Errorf("%s: fingerprint %s (%v), want %x", p, got, err, want)
		}
	}
	// Hashed a window at a time (as a file over 64 MiB is), windows not page-aligned.
	for _, window := range []int64{1, 5000, 1 << 20} {
		f, err := os.Open(plain)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(plain)
		want := sha256.Sum256(b)
		if got, ok := windowSHA256(f, int64(len(b)), window); runtime.GOOS == "linux" && (!ok || got != hex.EncodeToString(want[:])) {
			t.Errorf("windows of %d bytes: %s (mapped %t), want %x", window, got, ok, want)
		}
		f.Close()
	}
	// The digest is under the checksum: a changed digest makes a corrupt cache.
	b, _ := os.ReadFile(cachePath)
	b[len(b)-5] ^= 1
	bad := filepath.Join(dir, "bad.cache")
	os.WriteFile(bad, b, 0o644)
	if _, err := ReadCache(bad); !errors.Is(err, ErrCache) {
		t.Errorf("a cache with a changed digest: error %v, want ErrCache", err)
	}
}

func TestPermuted(t *testing.T) {
	for _, n := range []int{1, 2, 7, 50} {
		var text strings.Builder
		for i := range n {
			text.WriteString(strconv.Itoa(i%2*2-1) + " 1:" + strconv.Itoa(i) + " 3:0.5\n")
		}
		sparse, err := oneCore(text.String(), "p", Options{Raw: true})
		if err != nil {
			t.Fatal(err)
		}
		perm := Shuffle(n, 3)
		want := sparse.Subset(perm)
		identical(t, "sparse", sparse.Permuted(perm), want)
		dense := sparse.ToDense()
		got := dense.Permuted(perm)
		if got != dense {
			t.Error("a dense dataset was not permuted in place")
		}
		identical(t, "dense", got, want.ToDense())
	}
}

func TestScanFileHugeIndex(t *testing.T) {
	p := writeTemp(t, "huge.svm", "+1 1:1\n-1 2:1 99999999999:1\n")
	_, err := ScanFile(context.Background(), p)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, ErrIndex) {
		t.Fatalf("error %v, want the parse's ErrIndex on line 2", err)
	}
}

// TestChunkFor: a large file is cut into defaultChunk pieces, a small one into four per
// worker (at least minChunk), so that a file of a few megabytes uses every core.
func TestChunkFor(t *testing.T) {
	for _, tc := range []struct {
		size    int64
		workers int
		want    int64
	}{
		{1 << 40, 2, defaultChunk},
		{2_329_875, 2, 291_234}, // a9a: 8 chunks over 2 cores
		{2_329_875, 1, 582_468},
		{100 << 10, 16, minChunk},
		{0, 0, minChunk},
	} {
		if got := chunkFor(tc.size, tc.workers); got != tc.want {
			t.Errorf("chunkFor(%d, %d) = %d, want %d", tc.size, tc.workers, got, tc.want)
		}
	}
}
