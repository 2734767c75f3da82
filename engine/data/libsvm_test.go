package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

const small = "+1 1:0.5 3:-2 # first\n-1 qid:7 2:1e-3\n\n# only a comment\n+1 5:4\n"

func readString(t *testing.T, s string, opts Options) (*Dataset, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(s), "in.svm", opts)
	if err != nil {
		return nil, err
	}
	return ReadAll(r)
}

func checkSmall(t *testing.T, d *Dataset) {
	t.Helper()
	if d.Rows() != 3 || d.Dim != 5 || d.Nnz() != 4 {
		t.Fatalf("rows, dim, nnz = %d, %d, %d; want 3, 5, 4", d.Rows(), d.Dim, d.Nnz())
	}
	wantY := []int8{1, -1, 1}
	for i, y := range wantY {
		if d.Y[i] != y {
			t.Errorf("Y[%d] = %d, want %d", i, d.Y[i], y)
		}
	}
	r0 := d.Row(0)
	if r0.Idx[0] != 0 || r0.Idx[1] != 2 || r0.Val[0] != 0.5 || r0.Val[1] != -2 {
		t.Errorf("row 0 = %v, want indices [0 2] values [0.5 -2]", r0)
	}
	if r1 := d.Row(1); len(r1.Idx) != 1 || r1.Idx[0] != 1 || r1.Val[0] != 1e-3 {
		t.Errorf("row 1 = %v, want index 1 value 0.001 (qid skipped)", r1)
	}
}

func TestReadSmall(t *testing.T) {
	d, err := readString(t, small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSmall(t, d)
}

func TestCompressed(t *testing.T) {
	var gz, xzb bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(small))
	zw.Close()
	xw, err := xz.NewWriter(&xzb)
	if err != nil {
		t.Fatal(err)
	}
	xw.Write([]byte(small))
	xw.Close()
	dir := t.TempDir()
	for name, content := range map[string][]byte{"plain.txt": []byte(small), "g.gz": gz.Bytes(), "x.anything": xzb.Bytes()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := ReadFile(p, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkSmall(t, d)
	}
	// bzip2: the standard library only decompresses, so the fixture is committed.
	d, err := ReadFile(filepath.Join("testdata", "small.svm.bz2"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSmall(t, d)
}

func TestTruncatedCompressed(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat(small, 200)))
	zw.Close()
	b := gz.Bytes()[:gz.Len()/2]
	_, err := readString(t, string(b), Options{})
	if err == nil || !strings.Contains(err.Error(), "in.svm") {
		t.Errorf("truncated gzip: error %v, want one naming the file", err)
	}
}

func TestLabels(t *testing.T) {
	tests := []struct {
		name   string
		labels string
		opts   Options
		want   []int8
		err    bool
	}{
		{"plus minus", "+1 -1 1 -1.0", Options{}, []int8{1, -1, 1, -1}, false},
		{"one zero", "1 0 0 1", Options{}, []int8{1, -1, -1, 1}, false},
		{"one two", "2 1 2", Options{}, []int8{-1, 1, -1}, false},
		{"three classes", "1 2 3", Options{}, nil, true},
		{"mixed conventions", "-1 0", Options{}, nil, true},
		{"one vs rest", "1 2 3 2", Options{Positive: "2"}, []int8{-1, 1, -1, 1}, false},
		{"positive as number", "+1 -1", Options{Positive: "1.0"}, []int8{1, -1}, false},
		{"raw", "1 7 3", Options{Raw: true}, []int8{0, 0, 0}, false},
	}
	for _, tt := range tests {
		var sb strings.Builder
		for _, l := range strings.Fields(tt.labels) {
			sb.WriteString(l + " 1:1\n")
		}
		d, err := readString(t, sb.String(), tt.opts)
		if tt.err {
			if !errors.Is(err, ErrLabel) {
				t.Errorf("%s: error %v, want ErrLabel", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		for i, y := range tt.want {
			if d.Y[i] != y {
				t.Errorf("%s: Y[%d] = %d, want %d", tt.name, i, d.Y[i], y)
			}
		}
	}
	if _, err := NewReader(strings.NewReader(""), "x", Options{Positive: "cat"}); err == nil {
		t.Error("a non-numeric positive label must be an error")
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		opts Options
		want error
		msg  string // the full message
	}{
		{"label", "+1 1:1\nabc 1:1\n", Options{}, ErrLabel, `in.svm:2:1: bad label: not a finite number (token "abc")`},
		{"nan label", "nan 1:1\n", Options{}, ErrLabel, ""},
		{"no colon", "+1 1:1 5\n", Options{}, ErrFeature, `in.svm:1:8: bad feature: want index:value (token "5")`},
		{"zero index", "+1 0:1\n", Options{}, ErrIndex, ""},
		{"negative index", "+1 -3:1\n", Options{}, ErrIndex, ""},
		{"huge index", "+1 99999999999:1\n", Options{}, ErrIndex, ""},
		{"index above dim", "+1 4:1\n", Options{Dim: 3}, ErrIndex, `in.svm:1:4: bad feature index: 4 is above the dimension 3 (token "4:1")`},
		{"decreasing", "-1 7:1 12:2 7:3\n", Options{}, ErrOrder, `in.svm:1:13: feature indices not strictly increasing (7 after 12) (token "7:3")`},
		{"repeated", "-1 7:1 7:3\n", Options{}, ErrOrder, ""},
		{"bad value", "+1 2:x\n", Options{}, ErrValue, `in.svm:1:6: bad feature value: not a finite number (token "2:x")`},
		{"inf value", "+1 2:inf\n", Options{}, ErrValue, ""},
		{"empty value", "+1 2:\n", Options{}, ErrValue, ""},
		{"qid later", "+1 1:2 qid:3\n", Options{}, ErrIndex, ""},
	}
	for _, tt := range tests {
		_, err := readString(t, tt.in, tt.opts)
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, tt.want) {
			t.Errorf("%s: error %v, want a *ParseError wrapping %v", tt.name, err, tt.want)
			continue
		}
		if tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("%s: error\n%s\nwant\n%s", tt.name, err, tt.msg)
		}
	}
}

func TestLongLine(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("+1")
	for i := 1; i <= 20000; i++ {
		sb.WriteString(" " + strconv.Itoa(i) + ":0.25")
	}
	sb.WriteString("\n-1 3:1\n")
	d, err := readString(t, sb.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Rows() != 2 || d.Dim != 20000 || len(d.Row(0).Idx) != 20000 {
		t.Errorf("rows %d dim %d, want 2 rows of dim 20000", d.Rows(), d.Dim)
	}
}

func TestStreamingConstantMemory(t *testing.T) {
	// The Reader reuses one Example: 10,000 rows allocate about as much as 100.
	line := "+1 1:0.5 2:0.25 3:0.125 4:1 5:2 6:3 7:4 8:5\n-1 2:1 9:3\n"
	allocs := func(rows int) float64 {
		in := strings.Repeat(line, rows/2)
		return testing.AllocsPerRun(3, func() {
			r, _ := NewReader(bufio.NewReader(strings.NewReader(in)), "x", Options{})
			for {
				if _, err := r.Next(); err == io.EOF {
					break
				}
			}
		})
	}
	if a, b := allocs(100), allocs(10000); b > a+5 {
		t.Errorf("streaming 10,000 rows made %.0f allocations, 100 rows %.0f: memory grows with n", b, a)
	}
}

func FuzzReader(f *testing.F) {
	f.Add([]byte(small))
	f.Add([]byte("1 2:3 4:5\n0 qid:1 1:1e300\n"))
	f.Add([]byte("-1 7:1 12:2 7:3\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r, err := NewReader(bytes.NewReader(in), "fuzz", Options{})
		if err != nil {
			return
		}
		for {
			ex, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) && !strings.Contains(err.Error(), "fuzz") {
					t.Fatalf("error %v is neither a *ParseError nor names the file", err)
				}
				return
			}
			for k := 1; k < len(ex.X.Idx); k++ {
				if ex.X.Idx[k] <= ex.X.Idx[k-1] {
					t.Fatalf("line %d: indices %v not increasing", ex.Line, ex.X.Idx)
				}
			}
			if ex.Y != 1 && ex.Y != -1 {
				t.Fatalf("line %d: label %d", ex.Line, ex.Y)
			}
		}
	})
}

func TestBadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	long := "+1 " + strings.Repeat("1:1", 1) + " " + strings.Repeat("x", MaxLineBytes) + "\n"
	var xzb bytes.Buffer
	xw, _ := xz.NewWriter(&xzb)
	xw.Write([]byte(strings.Repeat(small, 300)))
	xw.Close()
	bz, err := os.ReadFile(filepath.Join("testdata", "small.svm.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file string
		want       string
	}{
		{"empty file", write("empty.svm", nil), "empty.svm: no examples"},
		{"comments only", write("comments.svm", []byte("# nothing\n\n")), "comments.svm: no examples"},
		{"line over 1 MiB", write("long.svm", []byte(long)), "long.svm:1:1048577: line too long"},
		{"truncated xz", write("t.xz", xzb.Bytes()[:xzb.Len()-20]), "t.xz"},
		{"truncated bz2", write("t.bz2", bz[:len(bz)-10]), "t.bz2"},
	}
	for _, tt := range tests {
		_, err := ReadFile(tt.file, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
}

// TestParseFloat checks the fast path against strconv.ParseFloat bit for bit.
func TestParseFloat(t *testing.T) {
	cases := []string{"0", "-0", "+0", "1", "-1", "+1", "1.", ".5", "-.5", "0.1", "0.3", "1.5e3", "1e-5",
		"123456789012345", "1234567890123456", "0.000000000000000000001", "0.0000000000000000000001",
		"0.00000000000000000000001", "9007199254740993", "0.1234567890123456789", "3.14159", "-2.5",
		"00012.5000", ".", "+", "-", "", "1.2.3", "1e", "inf", "nan", "0x1p3", "1_0", " 1", "１"}
	for i := range 20000 {
		// random plain decimals of every length
		s := strconv.FormatFloat(float64(i)*0.7310585786300049-7000, 'f', i%19, 64)
		cases = append(cases, s)
	}
	for _, s := range cases {
		want, werr := strconv.ParseFloat(s, 64)
		got, gerr := parseFloat([]byte(s))
		if (werr != nil) != (gerr != nil) {
			t.Errorf("parseFloat(%q) error %v, strconv error %v", s, gerr, werr)
			continue
		}
		if werr == nil && math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseFloat(%q) = %v (%#x), strconv %v (%#x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
		}
		checkScanDecimal(t, s)
		checkScanDecimal(t, s+" 7:1")
	}
}

// checkScanDecimal checks the line parser's fused fast path on s against strconv: when
// it accepts a prefix, that prefix must end s or a token, and parse bit for bit as
// strconv parses it.
func checkScanDecimal(t *testing.T, s string) {
	t.Helper()
	v, end, ok := scanDecimal([]byte(s), 0)
	if !ok {
		return
	}
	if end < len(s) && !isSpace(s[end]) {
		t.Fatalf("scanDecimal(%q) stopped at %d, inside a token", s, end)
	}
	want, err := strconv.ParseFloat(s[:end], 64)
	if err != nil || math.Float64bits(v) != math.Float64bits(want) {
		t.Fatalf("scanDecimal(%q) = %v up to %d; strconv %v, %v", s, v, end, want, err)
	}
}

func FuzzParseFloat(f *testing.F) {
	for _, s := range []string{"0.5", "-12.25", "1e3", "123456789012345.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, werr := strconv.ParseFloat(s, 64)
		got, gerr := parseFloat([]byte(s))
		if werr != nil && errors.Is(werr, strconv.ErrRange) {
			return // strconv returns ±Inf with an error: the reader rejects both ways
		}
		if (werr != nil) != (gerr != nil) || werr == nil && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseFloat(%q) = %v, %v; strconv %v, %v", s, got, gerr, want, werr)
		}
		checkScanDecimal(t, s)
	})
}
