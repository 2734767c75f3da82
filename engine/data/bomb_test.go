package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// TestCompressedStreamBomb: a small compressed stream on a pipe that decompresses to
// far more (32 MiB) is parsed as it is decompressed, as a compressed file is, never
// held whole: its memory is bounded by the rows it holds (here none, or one too-long
// line), and it ends in the file's error (no examples; a line too long, at its line).
func TestCompressedStreamBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 32 MiB per case")
	}
	const size = 32 << 20
	tests := []struct {
		name  string
		xz    bool
		head  string
		fill  byte
		check func(error) bool
	}{
		{"xz, one long line", true, "", '0', func(err error) bool { return errors.Is(err, ErrLineTooLong) }},
		{"blank lines", false, "", '\n', func(err error) bool { return errors.Is(err, ErrEmpty) }},
		{"one long line", false, "", '0', func(err error) bool { return errors.Is(err, ErrLineTooLong) && strings.Contains(err.Error(), ":1:") }},
		{"table of blank lines", false, "label,x\n", '\n', func(err error) bool { return errors.Is(err, ErrEmpty) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var z bytes.Buffer
			var w io.WriteCloser
			if tt.xz {
				var err error
				if w, err = xz.NewWriter(&z); err != nil {
					t.Fatal(err)
				}
			} else {
				w, _ = gzip.NewWriterLevel(&z, gzip.BestCompression)
			}
			w.Write([]byte(tt.head))
			block := bytes.Repeat([]byte{tt.fill}, 1<<20)
			for range size >> 20 {
				w.Write(block)
			}
			w.Close()
			if z.Len() > size/500 {
				t.Fatalf("the bomb is %d bytes compressed", z.Len())
			}
			p, done := throughPipe(t, z.Bytes())
			defer done()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, _, err := ReadInput(context.Background(), p, Options{}, ReadConfig{})
			runtime.ReadMemStats(&after)
			if err == nil || !tt.check(err) {
				t.Fatalf("error %v", err)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > size/2 { // the decompressors' windows (xz: 8 MiB), not the stream
				t.Errorf("allocated %d MiB reading a stream that decompresses to %d MiB: held whole", alloc>>20, size>>20)
			}
		})
	}
}
