package data

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertPositive checks that a conversion with a positive label writes the binary
// labels it counted, in every output format: the 26 labels of a letter-like file were
// written as read while the summary said "66 positive" (issue 43), and a reader of the
// output without --positive then refused the labels.
func TestConvertPositive(t *testing.T) {
	dir := t.TempDir()
	var sb strings.Builder
	wantPos := 0
	for i := range 60 {
		label := i%5 + 1 // 1 … 5, five classes
		if label == 3 {
			wantPos++
		}
		fmt.Fprintf(&sb, "%d 1:%d 2:0.5\n", label, i)
	}
	in := filepath.Join(dir, "multi.svm")
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"l3.svm", "l3.cache", "l3.csv", "l3.parquet"} {
		t.Run(out, func(t *testing.T) {
			p := filepath.Join(dir, out)
			st, err := Convert(in, p, Options{Positive: "3"})
			if err != nil {
				t.Fatal(err)
			}
			if st.Pos != wantPos || st.Neg != 60-wantPos {
				t.Fatalf("counts %d positive, %d negative; want %d, %d", st.Pos, st.Neg, wantPos, 60-wantPos)
			}
			d, _, err := ReadTableFile(p, Options{}) // no --positive: the labels must be binary as written
			if err != nil {
				t.Fatalf("reading the output without a positive label: %v", err)
			}
			pos, neg := d.Counts()
			if pos != st.Pos || neg != st.Neg {
				t.Errorf("read back %d positive, %d negative; the conversion said %d, %d", pos, neg, st.Pos, st.Neg)
			}
			for i, l := range d.Labels {
				want := -1.0
				if i%5+1 == 3 {
					want = 1
				}
				if l != want {
					t.Fatalf("row %d of class %d: label %v written, want %v", i+1, i%5+1, l, want)
				}
			}
		})
	}
}

// TestConvertCancel checks that a conversion cancelled while it writes leaves nothing:
// no output, no temporary file (a Ctrl-C during the write of a cache exited 0 with the
// cache written, issue 43).
func TestConvertCancel(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.svm")
	if err := os.WriteFile(in, []byte(strings.Repeat("+1 1:1 2:3\n-1 2:1\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{"o.cache", "o.svm", "o.csv"} {
		_, err := Convert(in, filepath.Join(dir, out), Options{Context: cancelWhileWriting{context.Background(), dir}})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("convert to %s, cancelled while writing: error %v, want context.Canceled", out, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files after cancelled conversions, want only the input", len(ents))
	}
}

// cancelWhileWriting is a context that is cancelled once a temporary file of
// WriteAtomic exists in dir: the read before it runs, the write is stopped.
type cancelWhileWriting struct {
	context.Context
	dir string
}

func (c cancelWhileWriting) Err() error {
	ents, _ := os.ReadDir(c.dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), tempMarker) {
			return context.Canceled
		}
	}
	return nil
}

// TestConvertCacheLayout checks that convert writes a cache in the layout that trains
// fastest: dense rows for data with at least DenseAuto of its values stored (a dense
// text file, a numeric table), compressed sparse rows otherwise (issue 46: a dense
// 50,000 × 2,000 file became a 1.2 GB sparse cache, slower to train from than the
// text), with the same rows either way.
func TestConvertCacheLayout(t *testing.T) {
	dir := t.TempDir()
	var dense, sparse, table strings.Builder
	table.WriteString("y,a,b,c\n")
	for i := range 40 {
		y := 2*(i%2) - 1
		fmt.Fprintf(&dense, "%d 1:%d 2:0.25 3:%g\n", y, i+1, float64(i)/8)
		fmt.Fprintf(&sparse, "%d %d:1\n", y, i%10+1)
		fmt.Fprintf(&table, "%d,%d,0.25,%g\n", y, i+1, float64(i)/8)
	}
	for _, c := range []struct {
		name, text, opts string
		wantDense        bool
	}{
		{"dense.svm", dense.String(), "", true},
		{"sparse.svm", sparse.String(), "", false},
		{"table.csv", table.String(), "y", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := filepath.Join(dir, c.name)
			if err := os.WriteFile(in, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			opts := Options{}
			if c.opts != "" {
				opts.Table = &TableOptions{Label: c.opts}
			}
			out := in + ".cache"
			st, err := Convert(in, out, opts)
			if err != nil {
				t.Fatal(err)
			}
			if st.Dense != c.wantDense {
				t.Errorf("ConvertStats.Dense %v, want %v", st.Dense, c.wantDense)
			}
			got, err := ReadCache(out)
			if err != nil {
				t.Fatal(err)
			}
			if got.IsDense() != c.wantDense {
				t.Errorf("cache dense %v, want %v (density %.2f)", got.IsDense(), c.wantDense, got.Density())
			}
			want, _, err := ReadTableFile(in, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.Rows() != want.Rows() || got.Dim != want.Dim {
				t.Fatalf("cache %d × %d, text %d × %d", got.Rows(), got.Dim, want.Rows(), want.Dim)
			}
			full := func(d *Dataset, i int) []float64 {
				x := make([]float64, d.Dim)
				r := d.Row(i)
				for k, j := range r.Idx {
					x[j] = r.Val[k]
				}
				return x
			}
			for i := range want.Rows() {
				g, w := full(got, i), full(want, i)
				if fmt.Sprint(g) != fmt.Sprint(w) || got.Y[i] != want.Y[i] {
					t.Fatalf("row %d: cache %v (%d), text %v (%d)", i+1, g, got.Y[i], w, want.Y[i])
				}
			}
		})
	}
}
