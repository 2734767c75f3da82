package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zeroTwin returns LIBSVM text numbered from 1 and its twin numbered from 0 (every
// index one less), rows rows over 6 features, feature 1 (index 0 in the twin) set in
// row zeroRow only (-1: nowhere, so the twin has no index 0).
func zeroTwin(rows, zeroRow int) (one, zero []byte) {
	var a, b bytes.Buffer
	for i := range rows {
		label := []string{"+1", "-1"}[i%2]
		a.WriteString(label)
		b.WriteString(label)
		for j := 1; j <= 6; j++ {
			if j == 1 && i != zeroRow || j > 1 && (i+j)%3 == 0 {
				continue
			}
			v := float64(i*j%7) + 0.5
			fmt.Fprintf(&a, " %d:%g", j, v)
			fmt.Fprintf(&b, " %d:%g", j-1, v)
		}
		a.WriteByte('\n')
		b.WriteByte('\n')
	}
	return a.Bytes(), b.Bytes()
}

// TestZeroBased: a file numbered from 0 (scikit-learn's dump_svmlight_file) reads as
// its twin numbered from 1, whether the index 0 is in the first row or the last,
// plain, compressed or on a pipe, detected (with a note naming the line) or said
// (Options.Indices); said from 1, it is refused at the index 0; a one-pass Reader
// under IndexAuto refuses it naming the flag. (Every index 0 was refused.)
func TestZeroBased(t *testing.T) {
	dir := t.TempDir()
	for _, zeroRow := range []int{0, 299} {
		one, zero := zeroTwin(300, zeroRow)
		po, pz := filepath.Join(dir, "one.svm"), filepath.Join(dir, "zero.svm")
		os.WriteFile(po, one, 0o644)
		os.WriteFile(pz, zero, 0o644)
		var gz bytes.Buffer
		z := gzip.NewWriter(&gz)
		z.Write(zero)
		z.Close()
		pgz := filepath.Join(dir, "zero.svm.gz")
		os.WriteFile(pgz, gz.Bytes(), 0o644)
		want, err := ReadFile(po, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name  string
			path  func() (string, func())
			base  IndexBase
			noted bool
		}{
			{"file, auto", func() (string, func()) { return pz, func() {} }, IndexAuto, true},
			{"file, said", func() (string, func()) { return pz, func() {} }, IndexZero, false},
			{"gzip, auto", func() (string, func()) { return pgz, func() {} }, IndexAuto, true},
			{"gzip, said", func() (string, func()) { return pgz, func() {} }, IndexZero, false},
			{"pipe, auto", func() (string, func()) { return throughPipe(t, zero) }, IndexAuto, true},
		} {
			name := fmt.Sprintf("index 0 in row %d, %s", zeroRow+1, c.name)
			for _, layout := range []Layout{LayoutSparse, LayoutDense} {
				var notes []string
				p, done := c.path()
				got, err := ReadFileContext(context.Background(), p, Options{Indices: c.base}, ReadConfig{Layout: layout, Notes: &notes})
				done()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				sameDataset(t, name, got, want.WithLayout(layout))
				if noted := len(notes) == 1 && strings.Contains(notes[0], "from 0") && strings.Contains(notes[0], fmt.Sprint(zeroRow+1)); noted != c.noted {
					t.Errorf("%s: notes %q, want a note naming row %d: %v", name, notes, zeroRow+1, c.noted)
				}
			}
		}
		// The one-based file is not changed by auto, and read as numbered from 0 when said.
		got, err := ReadFileContext(context.Background(), po, Options{}, ReadConfig{Layout: LayoutSparse})
		if err != nil {
			t.Fatal(err)
		}
		sameDataset(t, "one-based, auto", got, want)
		if got, err = ReadFileContext(context.Background(), po, Options{Indices: IndexZero}, ReadConfig{}); err != nil || got.Dim != want.Dim+1 {
			t.Fatalf("one-based file said numbered from 0: %v, %d features, want %d", err, got.Dim, want.Dim+1)
		}
		for _, base := range []IndexBase{IndexOne, IndexAuto} {
			var pe *ParseError
			if base == IndexOne {
				_, err = ReadFile(pz, Options{Indices: base})
			} else {
				r, err2 := Open(pz, Options{})
				if err2 != nil {
					t.Fatal(err2)
				}
				for err == nil {
					_, err = r.Next()
				}
				r.Close()
			}
			if !errors.As(err, &pe) || pe.Line != zeroRow+1 || !errors.Is(err, ErrIndex) || !strings.Contains(err.Error(), "Indices") {
				t.Errorf("base %d: index 0 in row %d: error %v, want a ParseError at line %d naming Indices", base, zeroRow+1, err, zeroRow+1)
			}
		}
	}
	if _, err := ParseIndexBase("maybe"); err == nil {
		t.Error(`ParseIndexBase("maybe"): no error`)
	}
}
