package data

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// chunksTable writes a CSV table of rows rows: a 0/1 label, a numeric column with
// empty cells and zeros, two hashed text columns whose buckets collide (6 bits), CRLF
// line ends and blank lines here and there; row bad (0-based; -1: none) gets the cell
// badCell in column x. gz writes it gzip-compressed.
func chunksTable(t *testing.T, rows, bad int, badCell string, gz bool) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("y,x,a,b\n")
	rng := rand.New(rand.NewPCG(9, uint64(rows)))
	for i := range rows {
		x := fmt.Sprint(rng.NormFloat64())
		switch {
		case i == bad:
			x = badCell
		case rng.IntN(9) == 0:
			x = ""
		case rng.IntN(13) == 0:
			x = "0"
		}
		end := "\n"
		if rng.IntN(5) == 0 {
			end = "\r\n"
		}
		fmt.Fprintf(&b, "%d,%s,a%d,b%d%s", rng.IntN(2), x, rng.IntN(40), rng.IntN(300), end)
		if rng.IntN(97) == 0 {
			b.WriteString("\n")
		}
	}
	p := filepath.Join(t.TempDir(), "t.csv")
	var err error
	if gz {
		var f *os.File
		if f, err = os.Create(p); err == nil {
			w := gzip.NewWriter(f)
			if _, err = w.Write([]byte(b.String())); err == nil {
				err = w.Close()
			}
			f.Close()
		}
	} else {
		err = os.WriteFile(p, []byte(b.String()), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadCSVChunks: a CSV table's parts read at once make the dataset (and the
// vocabulary) the rows read one by one make, bit for bit, whatever the workers, the
// parts' size and the missing-value policy; a read that must be sequential says so, and
// a bad cell or label in a later part gives the sequential read's error.
func TestReadCSVChunks(t *testing.T) {
	open := func(path string, o Options) (*Reader, *csvSource) { return openTableSource[*csvSource](t, path, o) }
	for _, tc := range []struct {
		name         string
		rows         int
		missing      string
		vocab, gz    bool
		read1        bool // a row read before
		workers      int
		minPart      int
		wantParallel bool
	}{
		{"parts of 16 KB, zero", 5000, MissingZero, false, false, false, 3, 16 << 10, true},
		{"parts of 16 KB, skip", 5000, MissingSkip, false, false, false, 2, 16 << 10, true},
		{"8 workers", 5000, MissingZero, false, false, false, 8, 4 << 10, true},
		{"vocabulary in the first part", 3 * VocabRows, MissingZero, true, false, false, 2, 1 << 20, true},
		{"vocabulary past the first part", 5000, MissingZero, true, false, false, 2, 16 << 10, false},
		{"a small file", 5000, MissingZero, false, false, false, 2, 1 << 20, false},
		{"one worker", 5000, MissingZero, false, false, false, 1, 16 << 10, false},
		{"compressed", 5000, MissingZero, false, true, false, 2, 16 << 10, false},
		{"a row read before", 5000, MissingZero, false, false, true, 2, 16 << 10, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := chunksTable(t, tc.rows, -1, "", tc.gz)
			o := Options{Table: &TableOptions{Label: "y", HashBits: 6, Missing: tc.missing}}
			var v1, v2 *Vocab
			if tc.vocab {
				v1, v2 = NewVocab(), NewVocab()
			}
			o.Vocab = v1
			r1, _ := open(path, o)
			if tc.read1 {
				if _, err := r1.Next(); err != nil {
					t.Fatal(err)
				}
			}
			want, err := readRows(context.Background(), r1)
			if err != nil {
				t.Fatal(err)
			}
			o.Vocab = v2
			r2, s2 := open(path, o)
			if tc.read1 {
				if _, err := r2.Next(); err != nil {
					t.Fatal(err)
				}
			}
			got, ok, err := readCSVChunks(context.Background(), r2, s2, tc.workers, tc.minPart)
			if err != nil || ok != tc.wantParallel {
				t.Fatalf("readCSVChunks: ok %v, %v; want ok %v", ok, err, tc.wantParallel)
			}
			if !ok {
				return
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("parts read at once: %d rows, %d values; one by one: %d rows, %d values, or other bits",
					got.Rows(), len(got.Idx), want.Rows(), len(want.Idx))
			}
			if tc.vocab && !reflect.DeepEqual(v1, v2) {
				t.Errorf("the vocabularies differ")
			}
			if tc.missing == MissingSkip && got.Rows() == tc.rows {
				t.Errorf("no row skipped: the test's empty cells are lost")
			}
		})
	}
	// A bad cell, a third label in a later part: the parts read at once defer to the
	// sequential read, whose error names the line.
	for _, bad := range []struct{ cell, kind string }{{"x12", "number"}, {"", "label"}} {
		path := chunksTable(t, 5000, 4500, bad.cell, false)
		if bad.kind == "label" {
			text, _ := os.ReadFile(path)
			lines := strings.Split(string(text), "\n")
			for i := len(lines) - 300; ; i++ {
				if lines[i] != "" {
					lines[i] = "2" + lines[i][1:]
					break
				}
			}
			os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
		}
		o := Options{Table: &TableOptions{Label: "y", HashBits: 6, Missing: MissingZero}}
		r1, _ := open(path, o)
		_, want := readRows(context.Background(), r1)
		r2, s2 := open(path, o)
		if _, ok, err := readCSVChunks(context.Background(), r2, s2, 3, 16<<10); ok || err != nil {
			t.Errorf("a bad %s: ok %v, %v; want the sequential read", bad.kind, ok, err)
		}
		r3, _ := open(path, o)
		_, err := readAllContext(context.Background(), r3)
		if want == nil || err == nil || err.Error() != want.Error() {
			t.Errorf("a bad %s: error %v, want the sequential read's %v", bad.kind, err, want)
		}
	}
	// A quote anywhere after the header: the lines need not start records.
	path := chunksTable(t, 5000, 4000, `"1.5"`, false)
	o := Options{Table: &TableOptions{Label: "y", HashBits: 6, Missing: MissingZero}}
	r1, s1 := open(path, o)
	if _, ok, err := readCSVChunks(context.Background(), r1, s1, 3, 16<<10); ok || err != nil {
		t.Errorf("a quote: ok %v, %v; want the sequential read", ok, err)
	}
	// A cancelled read stops with the context's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path = chunksTable(t, 5000, -1, "", false)
	r4, s4 := open(path, o)
	if _, _, err := readCSVChunks(ctx, r4, s4, 3, 16<<10); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
}

// TestCSVKindsParts: the columns' kinds counted in parts on several goroutines are
// those of one count over the file, notes included (the first text cell of a mostly
// numeric column named at its line, whichever part it is in); a file that must be
// counted as one (a quote, a small file) says so.
func TestCSVKindsParts(t *testing.T) {
	var b strings.Builder
	b.WriteString("y,n,ids,typo,late\n")
	for i := range 20000 {
		id := fmt.Sprint(i)
		if i%3 == 0 {
			id = fmt.Sprint("u", i) // a third text: categorical, no note
		}
		typo := fmt.Sprint(i % 7)
		if i%40 == 39 {
			typo = "x" // 2.5 % text: categorical, with a note
		}
		late := "1.5"
		if i >= 15000 && i%15 == 0 {
			late = "n/a" // first text cell in a late part
		}
		fmt.Fprintf(&b, "%d,%g,%s,%s,%s\n", i%2, float64(i)/3, id, typo, late)
	}
	path := filepath.Join(t.TempDir(), "k.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wantKinds, wantWhy, err := csvKinds(context.Background(), bufio.NewReader(strings.NewReader(b.String())), path, ',')
	if err != nil {
		t.Fatal(err)
	}
	if wantWhy[3] == "" || wantWhy[4] == "" || wantKinds[2] != kindString {
		t.Fatalf("the test's columns: kinds %v, notes %q", wantKinds, wantWhy)
	}
	header := func(f *os.File, path string) *csvSource {
		hs := &csvSource{br: bufio.NewReader(f), path: path, sep: ','}
		if err := hs.readHeader(); err != nil {
			t.Fatal(err)
		}
		return hs
	}
	hs := header(f, path)
	for _, workers := range []int{2, 3, 8} {
		kinds, why, ok, err := csvKindsParts(context.Background(), f, hs, workers, 16<<10)
		if !ok || err != nil {
			t.Fatalf("%d workers: ok %v, %v", workers, ok, err)
		}
		if !reflect.DeepEqual(kinds, wantKinds) || !reflect.DeepEqual(why, wantWhy) {
			t.Errorf("%d workers: kinds %v, notes %q; want %v, %q", workers, kinds, why, wantKinds, wantWhy)
		}
	}
	if _, _, ok, _ := csvKindsParts(context.Background(), f, hs, 2, 1<<20); ok {
		t.Errorf("a small file counted in parts")
	}
	q := filepath.Join(t.TempDir(), "q.csv")
	os.WriteFile(q, []byte(b.String()+"1,2,\"a\",3,4\n"), 0o644)
	fq, err := os.Open(q)
	if err != nil {
		t.Fatal(err)
	}
	defer fq.Close()
	if _, _, ok, _ := csvKindsParts(context.Background(), fq, header(fq, q), 2, 16<<10); ok {
		t.Errorf("a file with a quote counted in parts")
	}
}
