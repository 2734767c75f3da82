package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// streamedRow is one row as StreamRows hands it over.
type streamedRow struct {
	y    int8
	line int
	idx  []int32
	val  []float64
}

// rowList is an Accumulator that keeps the rows, so that a streamed read can be
// compared with a whole read row by row.
func rowList() Accumulator[*[]streamedRow] {
	return Accumulator[*[]streamedRow]{
		New: func(int) *[]streamedRow { return new([]streamedRow) },
		Add: func(a *[]streamedRow, y int8, x kernels.Sparse, line int) error {
			*a = append(*a, streamedRow{y, line, slices.Clone(x.Idx), slices.Clone(x.Val)})
			return nil
		},
		Merge: func(total, next *[]streamedRow) { *total = append(*total, *next...) },
	}
}

// TestStreamRowsEqualsRead checks that StreamRows hands over the rows ReadFile reads,
// in order and with the same labels, for every way it reads a file (chunks of text
// on several workers, a compressed file, a cache, a table), and reports the same first
// error.
func TestStreamRowsEqualsRead(t *testing.T) {
	dir := t.TempDir()
	var text strings.Builder
	for i := range 300 {
		fmt.Fprintf(&text, "%d %d:%g %d:1\n", []int{1, -1}[i%3%2], i%7+1, float64(i)/8, i%11+8)
		if i%50 == 0 {
			text.WriteString("# a comment\n\n")
		}
	}
	plain := filepath.Join(dir, "a.svm")
	mustWrite(t, plain, text.String())
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(text.String()))
	zw.Close()
	compressed := filepath.Join(dir, "a.svm.gz")
	mustWrite(t, compressed, gz.String())
	d, err := ReadFile(plain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(dir, "a.cache")
	if err := SaveCache(cache, d); err != nil {
		t.Fatal(err)
	}
	table := filepath.Join(dir, "a.csv")
	mustWrite(t, table, "label,x,y\n1,0.5,2\n0,1.5,3\n1,2,4\n")
	bad := filepath.Join(dir, "bad.svm")
	mustWrite(t, bad, text.String()+"1 1:1\n0 2:1\n")
	broken := filepath.Join(dir, "broken.svm")
	mustWrite(t, broken, strings.Repeat("1 1:1\n-1 2:1\n", 40)+"1 3:x\n")

	tests := []struct {
		name, path string
		chunked    bool // cut into chunks (at 512 bytes, more than one)
	}{
		{"text", plain, true},
		{"gzip", compressed, false},
		{"cache", cache, false},
		{"table", table, false},
		{"bad label", bad, true},
		{"bad value", broken, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, werr := ReadFile(tt.path, Options{})
			for _, workers := range []int{1, 3} {
				for _, chunk := range []int{512, 0} {
					got, info, err := StreamRows(context.Background(), tt.path, Options{}, StreamConfig{Workers: workers, ChunkBytes: chunk}, rowList())
					if werr != nil {
						// The same place; a label's message names the flag, the Reader's
						// the option too.
						var pe, wpe *ParseError
						if !errors.As(err, &pe) || !errors.As(werr, &wpe) || pe.Line != wpe.Line || errors.Is(err, ErrLabel) != errors.Is(werr, ErrLabel) {
							t.Fatalf("workers %d chunk %d: error %v, want %v", workers, chunk, err, werr)
						}
						continue
					}
					if err != nil {
						t.Fatal(err)
					}
					if len(*got) != want.Rows() || info.Rows != int64(want.Rows()) {
						t.Fatalf("%d rows (info %d), want %d", len(*got), info.Rows, want.Rows())
					}
					for i, r := range *got {
						x := want.Row(i)
						if r.y != want.Y[i] || !slices.Equal(r.idx, x.Idx) || !slices.Equal(r.val, x.Val) {
							t.Fatalf("row %d: %+v, want y %d %v", i, r, want.Y[i], x)
						}
					}
					b, _ := os.ReadFile(tt.path)
					if sum := sha256.Sum256(b); info.SHA256 != hex.EncodeToString(sum[:]) {
						t.Errorf("fingerprint %s, want %s", info.SHA256, sum)
					}
					if st, _ := os.Stat(tt.path); info.Bytes != st.Size() {
						t.Errorf("bytes %d, want %d", info.Bytes, st.Size())
					}
					if many := chunk == 512 && tt.chunked; many != (info.Chunks > 1) {
						t.Errorf("chunks %d at chunk size %d; want more than 1: %v", info.Chunks, chunk, many)
					}
				}
			}
		})
	}
}

// TestStreamRowsRefuses checks what StreamRows does not read: raw labels, a positive
// label that is not a number, and a stream.
func TestStreamRowsRefuses(t *testing.T) {
	plain := filepath.Join(t.TempDir(), "a.svm")
	mustWrite(t, plain, "1 1:1\n-1 2:1\n")
	for _, tt := range []struct {
		name string
		path string
		opts Options
		want string
	}{
		{"raw", plain, Options{Raw: true}, "raw labels"},
		{"positive", plain, Options{Positive: "x"}, `positive label "x" is not a number`},
		{"empty", filepath.Join(t.TempDir(), "missing.svm"), Options{}, "no such file"},
	} {
		_, _, err := StreamRows(context.Background(), tt.path, tt.opts, StreamConfig{}, rowList())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	empty := filepath.Join(t.TempDir(), "e.svm")
	mustWrite(t, empty, "# nothing\n")
	if _, _, err := StreamRows(context.Background(), empty, Options{}, StreamConfig{}, rowList()); !errors.Is(err, ErrEmpty) {
		t.Errorf("empty file: %v, want ErrEmpty", err)
	}
}
