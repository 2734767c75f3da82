package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// libsvmText is rows rows of LIBSVM text over dim features, the first line firstLen
// features long (1: a short line; dim: a long one), deterministic.
func libsvmText(rows, dim, firstLen int) []byte {
	r := rand.New(rand.NewPCG(uint64(rows), uint64(firstLen)))
	var b bytes.Buffer
	for i := range rows {
		if i%2 == 0 {
			b.WriteString("+1")
		} else {
			b.WriteString("-1")
		}
		n := 1 + r.IntN(4)
		if i == 0 {
			n = firstLen
		}
		j := 0
		for range n {
			j += 1 + r.IntN(max(1, dim/n))
			if j > dim {
				break
			}
			fmt.Fprintf(&b, " %d:%.3g", j, r.Float64())
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// throughPipe returns the name of the read end of an os.Pipe that a goroutine fills
// with b, and a function that closes the pipe and reports the writer's error.
func throughPipe(t *testing.T, b []byte) (string, func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := w.Write(b)
		w.Close()
		done <- err
	}()
	return fmt.Sprintf("/dev/fd/%d", r.Fd()), func() {
		r.Close()
		if err := <-done; err != nil {
			t.Errorf("writing the pipe: %v", err)
		}
	}
}

func sameDataset(t *testing.T, what string, got, want *Dataset) {
	t.Helper()
	if got.Rows() != want.Rows() || got.Dim != want.Dim || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.Labels, want.Labels) ||
		!slices.Equal(got.Ptr, want.Ptr) || !slices.Equal(got.Idx, want.Idx) || !slices.Equal(got.Val, want.Val) || !slices.Equal(got.Dense, want.Dense) {
		t.Fatalf("%s: %d rows × %d features, want %d × %d (or other values)", what, got.Rows(), got.Dim, want.Rows(), want.Dim)
	}
}

// TestStreamReadOnce: a pipe gives every row, as the same bytes in a file do: files of
// 1, 2, 271 and 10⁶ rows whose first line is short or long, plain, gzip-compressed and
// as a binary cache, read by ReadFile, ReadFileContext in both layouts and ReadInput;
// the digest is the file's SHA-256. (The first read of a stream used to take the bytes
// it peeked at, the first row or part of it.)
func TestStreamReadOnce(t *testing.T) {
	dir := t.TempDir()
	sizes := []int{1, 2, 271, 1_000_000}
	if testing.Short() {
		sizes = sizes[:3]
	}
	for _, rows := range sizes {
		for _, first := range []int{1, 60} {
			text := libsvmText(rows, 60, first)
			var gz bytes.Buffer
			z := gzip.NewWriter(&gz)
			z.Write(text)
			z.Close()
			file := filepath.Join(dir, "d.svm")
			if err := os.WriteFile(file, text, 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := ReadFile(file, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if want.Rows() != rows {
				t.Fatalf("%d rows: the file reads as %d", rows, want.Rows())
			}
			var cache bytes.Buffer
			if rows <= 271 {
				if err := WriteCache(&cache, want); err != nil {
					t.Fatal(err)
				}
			}
			inputs := map[string][]byte{"plain": text, "gzip": gz.Bytes()}
			if cache.Len() > 0 {
				inputs["cache"] = cache.Bytes()
			}
			for kind, b := range inputs {
				name := fmt.Sprintf("%d rows, first line %d, %s", rows, first, kind)
				p, done := throughPipe(t, b)
				got, err := ReadFile(p, Options{})
				done()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sameDataset(t, name, got, want)
				if rows > 271 {
					continue
				}
				var digest string
				p, done = throughPipe(t, b)
				got, sch, err := ReadInput(context.Background(), p, Options{}, ReadConfig{Layout: LayoutDense, Digest: &digest})
				done()
				if err != nil || sch != nil {
					t.Fatalf("%s, dense: %v (schema %v)", name, err, sch)
				}
				sameDataset(t, name+", dense", got, want.WithLayout(LayoutDense))
				if sum := sha256.Sum256(b); digest != hex.EncodeToString(sum[:]) {
					t.Errorf("%s: digest %s, want the SHA-256 of the bytes %x", name, digest, sum)
				}
			}
		}
	}
}

// TestStreamErrors: a stream's malformed line is reported by file:line:column as a
// file's is, and an empty stream is ErrEmpty.
func TestStreamErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"1 1:1\n-1 2:x\n", ":2:6: "},
		{"", "no examples"},
		{"1 1:1\n" + strings.Repeat("1 1:1 ", MaxLineBytes/6+1) + "\n", fmt.Sprintf(":2:%d: line too long", MaxLineBytes+1)},
	} {
		p, done := throughPipe(t, []byte(c.text))
		_, err := ReadFile(p, Options{})
		done()
		if err == nil || !strings.Contains(err.Error(), p+c.want) && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.20q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestStreamTable: a CSV or TSV table on a stream is told by its header (a separator
// and no colon) and read with its schema, as the same table in a .csv file.
func TestStreamTable(t *testing.T) {
	dir := t.TempDir()
	for _, sep := range []string{",", "\t"} {
		text := strings.ReplaceAll("label,a,b\n1,0.5,2\n0,1.5,3\n1,2.5,4\n", ",", sep)
		file := filepath.Join(dir, "t.csv")
		if sep == "\t" {
			file = filepath.Join(dir, "t.tsv")
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		want, wsch, err := ReadTableFile(file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p, done := throughPipe(t, []byte(text))
		got, sch, err := ReadTableFile(p, Options{})
		done()
		if err != nil {
			t.Fatalf("%q: %v", sep, err)
		}
		sameDataset(t, fmt.Sprintf("separator %q", sep), got, want)
		if sch == nil || !slices.Equal(sch.Numeric, wsch.Numeric) || sch.Label != wsch.Label {
			t.Errorf("%q: schema %+v, want %+v", sep, sch, wsch)
		}
	}
}

// TestBOMAndLongLine (issue 43's fragile reads): a byte-order mark before a LIBSVM
// file's first line is skipped as a CSV file's is (it was a bad label); a line over
// MaxLineBytes is one error naming file, line and the column where the limit is
// crossed, in plain and compressed LIBSVM and in CSV (it repeated its prefix and had
// no column).
func TestBOMAndLongLine(t *testing.T) {
	dir := t.TempDir()
	plain := "+1 1:1 2:0.5\n-1 2:1\n"
	pb, pp := filepath.Join(dir, "bom.svm"), filepath.Join(dir, "plain.svm")
	os.WriteFile(pb, []byte("\ufeff"+plain), 0o644)
	os.WriteFile(pp, []byte(plain), 0o644)
	want, err := ReadFile(pp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(pb, Options{})
	if err != nil {
		t.Fatalf("a LIBSVM file with a byte-order mark: %v", err)
	}
	sameDataset(t, "byte-order mark", got, want)

	long := strings.Repeat("x", MaxLineBytes+10)
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte("+1 1:1\n-1 1:" + long + "\n"))
	z.Close()
	files := map[string][]byte{
		"long.svm":    []byte("+1 1:1\n-1 1:" + long + "\n"),
		"long.svm.gz": gz.Bytes(),
		"long.csv":    []byte("label,x\n1," + long + "\n"),
	}
	for name, b := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		_, _, err := ReadTableFile(p, Options{})
		want := fmt.Sprintf("%s:2:%d: line too long: over %d bytes", p, MaxLineBytes+1, MaxLineBytes)
		if err == nil || err.Error() != want || !errors.Is(err, ErrLineTooLong) {
			t.Errorf("%s: error %v, want %q", name, err, want)
		}
	}
}

// FuzzDetect feeds any bytes to the format detection of a stream (readBytes: a binary
// cache, gzip/bzip2/xz, Parquet by their magic bytes, a CSV or TSV table by its
// header, LIBSVM text otherwise, numbered from 0 or 1 as the data say): the result is
// an error or rows, never a panic, and rows that are read have the shape they claim.
func FuzzDetect(f *testing.F) {
	var cache bytes.Buffer
	if d, err := readBytesSeed("+1 1:1 2:0.5\n-1 3:2\n"); err == nil {
		WriteCache(&cache, d)
	}
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte("+1 0:1\n-1 2:1\n"))
	z.Close()
	for _, s := range [][]byte{
		[]byte("+1 1:1 2:0.5\n-1 3:2\n"), []byte("label,x\n1,2\n0,abc\n"), []byte("label\tx\n1\t2\n"),
		[]byte("\ufeff1 0:1\n"), []byte("PAR1"), cache.Bytes(), gz.Bytes(), []byte("BZh9"), {0xfd, '7', 'z', 'X', 'Z', 0},
		[]byte("1 qid:3 1:1 # c\n0 2:1e400\n"), []byte("a,b\n\"x\ny\",1\n"),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, layout := range []Layout{LayoutSparse, LayoutAuto} {
			d, _, err := readBytes(context.Background(), b, "fuzz", Options{}, ReadConfig{Layout: layout, Workers: 2})
			if err != nil {
				continue
			}
			if d.Rows() == 0 || len(d.Labels) != d.Rows() {
				t.Fatalf("%d rows, %d labels", d.Rows(), len(d.Labels))
			}
			for i := range d.Rows() {
				for _, j := range d.Row(i).Idx {
					if j < 0 || int(j) >= d.Dim {
						t.Fatalf("row %d has feature %d of %d", i, j, d.Dim)
					}
				}
			}
		}
	})
}

// readBytesSeed parses LIBSVM text for FuzzDetect's seeds.
func readBytesSeed(text string) (*Dataset, error) {
	d, _, err := readBytes(context.Background(), []byte(text), "seed", Options{}, ReadConfig{Layout: LayoutSparse})
	return d, err
}
