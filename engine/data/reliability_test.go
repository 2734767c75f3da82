package data

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/ulikunitz/xz"
)

// TestReaderContext checks that a done Options.Context stops reading within
// CheckLines lines, with an error that wraps the context's and names the file.
func TestReaderContext(t *testing.T) {
	var sb strings.Builder
	for i := range 10 * CheckLines {
		fmt.Fprintf(&sb, "%d 1:%d\n", 1-2*(i%2), i)
	}
	text := sb.String()
	tests := []struct {
		name   string
		cancel func(context.CancelFunc) io.Reader // the input; may cancel as it is read
	}{
		{"cancelled before", func(c context.CancelFunc) io.Reader { c(); return strings.NewReader(text) }},
		{"cancelled midway", func(c context.CancelFunc) io.Reader {
			return &cancelAfter{r: strings.NewReader(text), n: len(text) / 3, cancel: c}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r, err := NewReader(tt.cancel(cancel), "big.svm", Options{Context: ctx})
			if err != nil {
				t.Fatal(err)
			}
			d, err := ReadAll(r)
			if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "big.svm") {
				t.Fatalf("ReadAll = %v rows, error %v; want a context.Canceled naming big.svm", d, err)
			}
			if limit := len(text)/3/5 + 2*CheckLines; r.line > limit {
				t.Errorf("read %d lines after the cancel, want at most about %d", r.line, limit)
			}
		})
	}
}

// cancelAfter is a reader that calls cancel once n bytes have been read.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.n -= n; c.n <= 0 {
		c.cancel()
	}
	return n, err
}

// FuzzReadRoundTrip reads arbitrary bytes (plain, gzip or xz: the seeds include
// both) as a LIBSVM file. A file that reads writes back as LIBSVM text that reads to
// the same rows, bit for bit; one that does not fails with a *ParseError, or an error
// wrapping ErrCorrupt, naming the file. Nothing panics.
func FuzzReadRoundTrip(f *testing.F) {
	seeds := []string{small, "1 2:3 4:5\n0 qid:1 1:1e300\n", "-1 7:1 12:2 7:3\n", "+1 1:1\n-1 2:1\n3 1:1\n",
		"+1 1:nan\n", "+1 0:1\n", "# c\n\n+1 1:-0 2:4.9e-324 3:1.7976931348623157e308\n-1\n", "\x00\xff\x1f\x8b"}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, small)
	zw.Close()
	f.Add(gz.Bytes())
	f.Add(gz.Bytes()[:gz.Len()/2])
	var xzb bytes.Buffer
	xw, _ := xz.NewWriter(&xzb)
	io.WriteString(xw, small)
	xw.Close()
	f.Add(xzb.Bytes())
	f.Add(xzb.Bytes()[:xzb.Len()-3])
	f.Fuzz(func(t *testing.T, in []byte) {
		d, err := readAll(in)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) && !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v is neither a *ParseError nor ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), "fuzz") {
				t.Fatalf("error %v does not name the file", err)
			}
			return
		}
		var text bytes.Buffer
		for i := range d.Rows() {
			text.WriteString(strconv.Itoa(int(d.Y[i])))
			row := d.Row(i)
			for k, j := range row.Idx {
				v := row.Val[k]
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("row %d: value %v read", i, v)
				}
				if k > 0 && j <= row.Idx[k-1] || j < 0 || int(j) >= d.Dim {
					t.Fatalf("row %d: index %d after %v, dim %d", i, j, row.Idx[:k], d.Dim)
				}
				fmt.Fprintf(&text, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
			}
			text.WriteByte('\n')
		}
		again, err := readAll(text.Bytes())
		if err != nil {
			t.Fatalf("the rows written back do not read: %v\n%s", err, text.Bytes())
		}
		if again.Rows() != d.Rows() || again.Dim > d.Dim {
			t.Fatalf("read back %d rows, dim %d; want %d rows, dim ≤ %d", again.Rows(), again.Dim, d.Rows(), d.Dim)
		}
		for i := range d.Rows() {
			a, b := d.Row(i), again.Row(i)
			if d.Y[i] != again.Y[i] || len(a.Idx) != len(b.Idx) {
				t.Fatalf("row %d differs after the round trip", i)
			}
			for k := range a.Idx {
				if a.Idx[k] != b.Idx[k] || math.Float64bits(a.Val[k]) != math.Float64bits(b.Val[k]) {
					t.Fatalf("row %d, feature %d differs after the round trip: %d:%v, %d:%v", i, k, a.Idx[k], a.Val[k], b.Idx[k], b.Val[k])
				}
			}
		}
	})
}

// readAll reads in whole as the file "fuzz".
func readAll(in []byte) (*Dataset, error) {
	r, err := NewReader(bytes.NewReader(in), "fuzz", Options{})
	if err != nil {
		return nil, err
	}
	return ReadAll(r)
}
