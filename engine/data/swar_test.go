package data

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestDigitsValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		n := 1 + rng.IntN(8)
		var b [8]byte
		for i := range b {
			b[i] = byte(rng.IntN(256)) // the bytes after the digits are anything
		}
		for i := range n {
			b[i] = '0' + byte(rng.IntN(10))
		}
		w := uint64(0)
		for i := 7; i >= 0; i-- {
			w = w<<8 | uint64(b[i])
		}
		x, run := digitRun(w)
		wantRun := 0
		for wantRun < 8 && b[wantRun] >= '0' && b[wantRun] <= '9' {
			wantRun++
		}
		if run != wantRun {
			t.Fatalf("digitRun(%q) = %d digits, want %d", b[:], run, wantRun)
		}
		want, _ := strconv.ParseUint(string(b[:n]), 10, 64)
		if got := digitsValue(x, n); got != want {
			t.Fatalf("digitsValue(%q, %d) = %d, want %d", b[:], n, got, want)
		}
	}
}

// randomValue returns a value token of one of the shapes LIBSVM files are written in,
// and shapes near and past the edges of the fast paths.
func randomValue(rng *rand.Rand) string {
	digits := func(n int) string {
		var sb strings.Builder
		for range n {
			sb.WriteByte('0' + byte(rng.IntN(10)))
		}
		return sb.String()
	}
	sign := []string{"", "", "-", "+"}[rng.IntN(4)]
	switch rng.IntN(6) {
	case 0:
		return sign + digits(1+rng.IntN(17)) // integers up to past 15 digits
	case 1, 2:
		return sign + digits(1+rng.IntN(9)) + "." + digits(1+rng.IntN(9)) // %f, past 7 a side
	case 3:
		return sign + digits(rng.IntN(3)) + "." + digits(rng.IntN(3)) // "1.", ".5", "."
	case 4:
		return sign + digits(1+rng.IntN(3)) + "e" + sign + digits(1+rng.IntN(2))
	default:
		return strconv.FormatFloat(rng.NormFloat64()*math.Pow(10, float64(rng.IntN(12)-6)), 'g', -1, 64)
	}
}

// TestFastDecimal: where fastDecimal takes a value, it gives strconv's bits and ends at
// the token's end; it takes every value of its shapes that the line goes on for eight
// bytes past.
func TestFastDecimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	took := 0
	for range 200000 {
		tok := randomValue(rng)
		tail := []string{" 7:1 8:1 9:1 10:1", "\t3:1", " ", ""}[rng.IntN(4)]
		line := tok + tail
		v, end, ok := fastDecimal([]byte(line), 0)
		want, err := strconv.ParseFloat(tok, 64)
		if ok {
			took++
			if end != len(tok) || err != nil || math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("fastDecimal(%q) = %v up to %d; strconv %v, %v up to %d", line, v, end, want, err, len(tok))
			}
			continue
		}
		body := strings.TrimPrefix(tok, "-")
		ip, fp, dot := strings.Cut(body, ".")
		shape := len(ip) >= 1 && len(ip) <= 7 && allDigits(ip) && (!dot || len(fp) >= 1 && len(fp) <= 7 && allDigits(fp))
		if shape && len(line) >= len(tok)+8 {
			t.Fatalf("fastDecimal(%q) declined a value of its shape", line)
		}
	}
	if took < 10000 { // about 7.5 %
		t.Fatalf("fastDecimal took %d of 200,000 values", took)
	}
}

func allDigits(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// TestFastRow: lines of random features (every value shape, a few unusual separators)
// read as strconv reads them, so that the fast path and the general scan it hands over
// to agree; and fastRow takes a plain line whole.
func TestFastRow(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var text strings.Builder
	var want [][2][]float64
	for range 3000 {
		text.WriteString([]string{"+1", "-1"}[rng.IntN(2)])
		var idx, val []float64
		j := 0
		for range rng.IntN(40) {
			j += 1 + rng.IntN(2000)
			v := randomValue(rng)
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(f, 0) {
				continue
			}
			text.WriteString([]string{" ", " ", " ", "  ", "\t"}[rng.IntN(5)])
			text.WriteString([]string{"", "0"}[rng.IntN(2)] + strconv.Itoa(j) + ":" + v)
			idx, val = append(idx, float64(j-1)), append(val, f)
		}
		text.WriteString([]string{"\n", " \n", "\r\n", " # comment 1:2\n"}[rng.IntN(4)])
		want = append(want, [2][]float64{idx, val})
	}
	d, err := readString(t, text.String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		r := d.Row(i)
		if len(r.Idx) != len(w[0]) {
			t.Fatalf("row %d: %d features, want %d", i+1, len(r.Idx), len(w[0]))
		}
		for k := range r.Idx {
			if float64(r.Idx[k]) != w[0][k] || math.Float64bits(r.Val[k]) != math.Float64bits(w[1][k]) {
				t.Fatalf("row %d feature %d: %d:%v, want %v:%v", i+1, k, r.Idx[k]+1, r.Val[k], w[0][k]+1, w[1][k])
			}
		}
	}

	line := []byte("3:1 17:0.25 18:-0.0355847 19:42 2000:1 2001:0.5 ")
	idxs, vals := make([]int32, 10), make([]float64, 10)
	pos, k, prev := fastRow(line, 0, idxs, vals, 0, 0, 0, 0)
	if at := strings.Index(string(line), "2001"); k != 5 || prev != 2000 || pos != at {
		t.Fatalf("fastRow took %d features up to %d (index %d), want 5 up to %d (a decimal in the last 16 bytes)", k, pos, prev, at)
	}
	for _, c := range []struct {
		line string
		dim  int
		want int // features taken before the one the general scan must see
	}{{"5:1 3:1", 0, 1}, {"0:1", 0, 0}, {"9:1", 8, 0}, {"1234567890:1", 0, 0}, {"3:x", 0, 0},
		{"qid:3 1:1", 0, 0}, {"2:1e3", 0, 0}, {"2:1.", 0, 0}, {"2:+1", 0, 0}, {"2:12345678.5", 0, 0}} {
		pad := []byte(c.line + strings.Repeat(" ", 16))
		if _, k, _ := fastRow(pad, 0, idxs, vals, 0, 0, c.dim, 0); k != c.want {
			t.Errorf("fastRow(%q, dim %d) took %d features, want %d", c.line, c.dim, k, c.want)
		}
	}
}
