package data

import (
	"encoding/binary"
	"math/bits"
)

// The line parser's fast path (fastRow) is its loop cut to the common features, and
// its decimals (fastDecimal) are read eight bytes at a time (SWAR: SIMD within a
// register): the run of digits at the start of a word is found with one add and one
// trailing-zero count, and up to eight digits become their integer with three
// multiplications, with no branch per byte. That takes the shape most real-valued
// LIBSVM files are written in, [-]digits.digits (printf's %f); anything else goes to
// the byte-at-a-time scan, whose values the fast path matches bit for bit
// (TestFastDecimal, TestFastRow). Indices and short integers are scanned a byte at a
// time: branch prediction makes that the faster for them (a9a's "19:1" read as words
// took 9.0 ms for the file on one core, against 7.7 ms).

// asciiZeros is '0' in every byte of a word.
const asciiZeros = 0x3030303030303030

// digitRun returns the eight bytes of w (the first in the low byte) as digit values
// (correct in the bytes that are digits) and the number of leading bytes that are
// ASCII digits, 0 to 8.
func digitRun(w uint64) (x uint64, n int) {
	x = w ^ asciiZeros // the bytes '0'…'9', and only those, become 0…9
	// A byte's top bit is set here when it is above 9: by the add when it is 10…127, by
	// the OR when it is 128 or more. A carry out of a byte above 9 can only reach the
	// bytes after it, which do not count.
	nonDigit := (x + 0x7676767676767676 | x) & 0x8080808080808080
	return x, bits.TrailingZeros64(nonDigit) >> 3
}

// digitsValue returns the integer of the first n (1 to 8) digit values of x, the first
// the most significant.
func digitsValue(x uint64, n int) uint64 {
	x <<= 64 - 8*uint(n)                                    // leading zero digits in front, the rest out
	x = (x & 0x0F0F0F0F0F0F0F0F) * (10<<8 + 1) >> 8         // pairs of digits in 16-bit lanes
	x = (x & 0x00FF00FF00FF00FF) * (100<<16 + 1) >> 16      // fours in 32-bit lanes
	return (x & 0x0000FFFF0000FFFF) * (10000<<32 + 1) >> 32 // all eight
}

// pow10u holds the powers of ten a fraction of up to seven digits scales by.
var pow10u = [...]uint64{1, 10, 100, 1000, 10000, 100000, 1000000, 10000000}

// fastDecimal parses the value that starts at line[p] when it is [-]digits or
// [-]digits.digits with one to seven digits on each side, followed by a separator, and
// returns it with the position just past it. It reads the line eight bytes at a time,
// so it may decline a value within sixteen bytes of the line's end; it takes every one
// the line goes on for eight bytes past. ok is false for anything else, which the
// caller then scans byte by byte.
// The value is the one scanDecimal gives: the digits' integer m, divided by 10^k for k
// fraction digits (at most 14 digits in all, so m and 10^k are exact in float64).
func fastDecimal(line []byte, p int) (v float64, end int, ok bool) {
	n := len(line)
	if n-p < 16 {
		return 0, p, false
	}
	neg := line[p] == '-'
	if neg {
		p++
	}
	y, il := digitRun(binary.LittleEndian.Uint64(line[p:]))
	if il == 0 || il == 8 {
		return 0, p, false
	}
	m := digitsValue(y, il)
	q := p + il // < n: il < 8 <= n-p
	frac := 0
	if line[q] == '.' {
		q++
		if n-q < 8 {
			return 0, p, false
		}
		z, fl := digitRun(binary.LittleEndian.Uint64(line[q:]))
		if fl == 0 || fl == 8 {
			return 0, p, false
		}
		m = m*pow10u[fl] + digitsValue(z, fl)
		frac = fl
		q += fl // < n: fl < 8 <= n-q
	}
	if !isSpace(line[q]) {
		return 0, p, false
	}
	v = float64(m)
	if frac > 0 {
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return v, q, true
}

// fastRow parses the features of line from line[pos] on into idxs[k:] and vals[k:]
// while they take the common shapes: an index of one to nine digits above prev (and,
// when dim > 0, at most dim), a colon, and a value that is an integer of at most 15
// digits or one fastDecimal takes, each followed by a separator. It returns the
// position, count and last index reached: the end of the line, or the first feature it
// does not take, which the caller's general scan then parses (or reports). It is the
// general scan's loop cut to the common case, in a function small enough for the
// compiler to keep its state in registers: the general one spills its flags to the
// stack in every feature. With fastDecimal, a one-core load (BenchmarkReadFile, three
// interleaved pairs) of a9a's training file took 10.8–11.3 → 7.8–9.9 ms, of the first
// 150 MB of the dense 50,000 × 2,000 file 523–613 → 372–433 ms.
//
// zb is 1 for a file whose indices start at 0 (Reader.zb): its index i is read as i+1.
func fastRow(line []byte, pos int, idxs []int32, vals []float64, k, prev, dim, zb int) (int, int, int) {
	n := len(line)
	for k < len(idxs) {
		for pos < n && isSpace(line[pos]) {
			pos++
		}
		p := pos
		idx := 0
		for p < n && line[p]-'0' <= 9 {
			idx = idx*10 + int(line[p]-'0')
			p++
		}
		idx += zb
		if p == pos || p-pos > 9 || p == n || line[p] != ':' || idx <= prev || dim > 0 && idx > dim {
			return pos, k, prev
		}
		p++ // the colon
		vs := p
		var m uint64
		for p < n && line[p]-'0' <= 9 {
			m = m*10 + uint64(line[p]-'0')
			p++
		}
		var v float64
		if p > vs && p-vs <= 15 && (p == n || isSpace(line[p])) {
			v = float64(m)
		} else {
			var ok bool
			if v, p, ok = fastDecimal(line, vs); !ok {
				return pos, k, prev
			}
		}
		idxs[k], vals[k] = int32(idx-1), v
		k++
		prev, pos = idx, p
	}
	return pos, k, prev
}
