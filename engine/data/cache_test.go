package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func equalDatasets(t *testing.T, got, want *Dataset) {
	t.Helper()
	if got.Name != want.Name || got.Dim != want.Dim || !slices.Equal(got.Y, want.Y) || !slices.Equal(got.Labels, want.Labels) ||
		!slices.Equal(got.Ptr, want.Ptr) || !slices.Equal(got.Idx, want.Idx) || !slices.Equal(got.Val, want.Val) {
		t.Fatalf("round trip differs: got %d rows dim %d, want %d rows dim %d", got.Rows(), got.Dim, want.Rows(), want.Dim)
	}
}

func TestCacheRoundTrip(t *testing.T) {
	t.Setenv(EnvData, t.TempDir())
	sp, err := Load("german", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	empty := &Dataset{Name: "empty", Dim: 3, Ptr: []int64{0}}
	dir := t.TempDir()
	for _, d := range []*Dataset{sp.Train, empty} {
		p := filepath.Join(dir, d.Name+".cache")
		if err := SaveCache(p, d); err != nil {
			t.Fatal(err)
		}
		got, err := ReadCache(p)
		if err != nil {
			t.Fatal(err)
		}
		equalDatasets(t, got, d)
	}
	// ReadFile recognises a cache by its magic.
	got, err := ReadFile(filepath.Join(dir, "german.cache"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	equalDatasets(t, got, sp.Train)
	if m, _ := filepath.Glob(filepath.Join(dir, "*.tmp*")); len(m) > 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
}

func TestCacheCorrupt(t *testing.T) {
	d, err := readString(t, small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCache(&buf, d); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	flip := slices.Clone(good)
	flip[len(flip)/2] ^= 0x10
	badVersion := slices.Clone(good)
	badVersion[8] = 9
	for name, b := range map[string][]byte{
		"flipped bit": flip,
		"truncated":   good[:len(good)-7],
		"not a cache": []byte("+1 1:1\n"),
		"empty":       nil,
		"version":     badVersion, // checksum catches it first: still a clear ErrCache
	} {
		p := filepath.Join(t.TempDir(), "x.cache")
		os.WriteFile(p, b, 0o644)
		_, err := ReadCache(p)
		if !errors.Is(err, ErrCache) || !bytes.Contains([]byte(err.Error()), []byte(p)) {
			t.Errorf("%s: error %v, want ErrCache naming the file", name, err)
		}
	}
}

func TestStreamCache(t *testing.T) {
	d, err := readString(t, small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "s.cache")
	if err := SaveCache(p, d); err != nil {
		t.Fatal(err)
	}
	r, err := Open(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	got.Name = d.Name
	equalDatasets(t, got, d)
}

func TestLongTokenQuoted(t *testing.T) {
	_, err := readString(t, strings.Repeat("x", 5000)+" 1:1\n", Options{})
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "…") {
		t.Errorf("error for a 5000-byte token is %d bytes: %.100s", len(err.Error()), err)
	}
}

// TestCacheNonFinite writes caches whose checksum is valid but whose content the LIBSVM
// reader would never produce (a NaN or ±Inf value or label), sparse and dense, and
// requires DecodeCache to refuse each with ErrCache naming the row.
func TestCacheNonFinite(t *testing.T) {
	base, err := readString(t, small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name   string
		mutate func(d *Dataset) *Dataset
		want   string
	}{
		{"sparse NaN value", func(d *Dataset) *Dataset { d.Val[1] = nan; return d }, "row 1, feature 3: value NaN"},
		{"sparse +Inf value", func(d *Dataset) *Dataset { d.Val[0] = inf; return d }, "row 1, feature 1: value +Inf"},
		{"NaN label", func(d *Dataset) *Dataset { d.Labels[2] = nan; return d }, "row 3: label NaN"},
		{"dense NaN value", func(d *Dataset) *Dataset { d = d.ToDense(); d.Dense[3] = nan; return d }, "row 1, feature 4: value NaN"},
		{"dense bad label", func(d *Dataset) *Dataset { d = d.ToDense(); d.Y[1] = 5; return d }, "row 2: label 5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.mutate(base.Subset([]int{0, 1, 2}))
			var buf bytes.Buffer
			if err := WriteCache(&buf, d); err != nil {
				t.Fatal(err)
			}
			_, err := DecodeCache(buf.Bytes())
			if !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want ErrCache with %q", err, c.want)
			}
		})
	}
}

// TestFirstNonFinite: the first NaN or ±Inf by position, in a short slice and in one
// long enough to be checked in parts on several cores (bad values in either part).
func TestFirstNonFinite(t *testing.T) {
	long := 3 << 20
	tests := []struct {
		name string
		n    int
		bad  map[int]float64
		want int
	}{
		{"short, none", 100, nil, -1},
		{"short, NaN", 100, map[int]float64{42: math.NaN()}, 42},
		{"short, -Inf and NaN", 100, map[int]float64{7: math.Inf(-1), 3: math.NaN()}, 3},
		{"long, none", long, nil, -1},
		{"long, last", long, map[int]float64{long - 1: math.Inf(1)}, long - 1},
		{"long, both halves", long, map[int]float64{long - 5: math.NaN(), 17: math.Inf(1)}, 17},
		{"long, largest finite", long, map[int]float64{0: math.MaxFloat64, 1: -math.SmallestNonzeroFloat64}, -1},
	}
	for _, tt := range tests {
		v := make([]float64, tt.n)
		for k, x := range tt.bad {
			v[k] = x
		}
		if got := firstNonFinite(v); got != tt.want {
			t.Errorf("%s: firstNonFinite = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// writeCacheV1 writes d in version 1 of the cache format (no padding), as aucopt
// wrote it before version 2.
func writeCacheV1(t *testing.T, path string, d *Dataset) {
	t.Helper()
	var b []byte
	b = append(b, cacheMagic...)
	b = binary.LittleEndian.AppendUint32(b, 1)
	flags := uint32(0)
	if d.Dense != nil {
		flags = flagDense
	}
	b = binary.LittleEndian.AppendUint32(b, flags)
	b = binary.LittleEndian.AppendUint64(b, uint64(d.Rows()))
	b = binary.LittleEndian.AppendUint64(b, uint64(d.Dim))
	b = binary.LittleEndian.AppendUint64(b, uint64(d.Nnz()))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(d.Name)))
	b = append(b, d.Name...)
	for _, y := range d.Y {
		b = append(b, byte(y))
	}
	for _, v := range d.Labels {
		b = appendLE(b, v)
	}
	if d.Dense != nil {
		for _, v := range d.Dense {
			b = appendLE(b, v)
		}
	} else {
		for _, v := range d.Ptr {
			b = appendLE(b, v)
		}
		for _, v := range d.Idx {
			b = appendLE(b, v)
		}
		for _, v := range d.Val {
			b = appendLE(b, v)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCacheMapped: a version-3 cache (names of odd lengths, so that padding is needed)
// is mapped, not read (where files can be mapped): the same dataset, sparse and dense;
// its arrays can be written without changing the file; a version-2 file is still
// mapped and a version-1 file still read.
func TestCacheMapped(t *testing.T) {
	base, err := readString(t, small, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []*Dataset{base, base.ToDense()} {
		d.Name = "odd" + strings.Repeat("x", d.Rows()%5)
		if d.Dense != nil {
			d.Name += "-dense"
		}
		p := filepath.Join(dir, d.Name+".cache")
		if err := SaveCache(p, d); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		got, ok, err := mapCache(f, st.Size())
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS == "linux" && !ok {
			t.Fatalf("%s: a version-3 cache was not mapped", d.Name)
		}
		if !ok {
			continue
		}
		equalDatasets(t, got, d)
		if !slices.Equal(got.Dense, d.Dense) {
			t.Fatalf("%s: dense values differ", d.Name)
		}
		before, _ := os.ReadFile(p)
		if got.Dense != nil {
			got.Dense[0] = 42
		} else {
			got.Val[0] = 42
		}
		if after, _ := os.ReadFile(p); !bytes.Equal(before, after) {
			t.Fatalf("%s: a write to the mapped dataset changed the file", d.Name)
		}
		v2 := filepath.Join(dir, d.Name+".v2.cache")
		if err := WriteAtomic(v2, func(w io.Writer) error { return writeCache(w, d, 2) }); err != nil {
			t.Fatal(err)
		}
		if f, err = os.Open(v2); err != nil {
			t.Fatal(err)
		}
		st, _ = f.Stat()
		got2, ok2, err := mapCache(f, st.Size())
		f.Close()
		if err != nil || !ok2 {
			t.Fatalf("version 2: mapped %t, %v", ok2, err)
		}
		equalDatasets(t, got2, d)
		v1 := filepath.Join(dir, d.Name+".v1.cache")
		writeCacheV1(t, v1, d)
		old, err := ReadCache(v1)
		if err != nil {
			t.Fatalf("version 1: %v", err)
		}
		equalDatasets(t, old, d)
	}
	// A mapped cache is checked like a read one: a NaN under a valid checksum.
	bad := base.Subset([]int{0, 1})
	bad.Val[1] = math.NaN()
	p := filepath.Join(dir, "nan.cache")
	if err := SaveCache(p, bad); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadCache(p); !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), "value NaN") {
		t.Errorf("mapped cache with a NaN: error %v, want ErrCache naming the value", err)
	}
	// Dense alike, named by row and feature.
	dense := base.Subset([]int{0, 1, 2}).ToDense()
	dense.Dense[len(dense.Dense)-2] = math.Inf(1)
	p = filepath.Join(dir, "inf-dense.cache")
	if err := SaveCache(p, dense); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("row 3, feature %d: value +Inf", dense.Dim-1)
	if _, err := ReadCache(p); !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), want) {
		t.Errorf("mapped dense cache with an Inf: error %v, want ErrCache naming %q", err, want)
	}
}

// TestCacheStructure writes caches whose checksum is valid but whose CSR structure the
// reader would never produce (indices out of order or range, pointers that decrease)
// or whose values are not finite, small and large enough to be checked in parts on
// several cores, and requires the mapped path (ReadCache: checksum and checks in one
// pass, verifyMapped) and the in-memory path (DecodeCache: validate) to refuse each
// with the same ErrCache naming the row. Index errors come before value errors, as
// the indices come before the values in the file.
func TestCacheStructure(t *testing.T) {
	small := func() *Dataset {
		return &Dataset{Name: "s", Dim: 10, Y: []int8{1, -1, 1}, Labels: []float64{1, -1, 1},
			Ptr: []int64{0, 2, 2, 5}, Idx: []int32{0, 4, 1, 2, 9}, Val: []float64{1, 2, 3, 4, 5}}
	}
	// 999 rows of 1,100 values: 13 MB, checked in parts (verifyMapped: 4 MiB, and
	// blocks of verifyBlock bytes).
	large := func() *Dataset {
		const rows, per = 999, 1100
		d := &Dataset{Name: "l", Dim: 2 * per, Ptr: []int64{0}}
		for i := range rows {
			d.Y, d.Labels = append(d.Y, int8(1-2*(i%2))), append(d.Labels, float64(1-2*(i%2)))
			for j := range per {
				d.Idx, d.Val = append(d.Idx, int32(2*j+i%2)), append(d.Val, float64(i+j))
			}
			d.Ptr = append(d.Ptr, int64(len(d.Idx)))
		}
		return d
	}
	cases := []struct {
		name string
		d    func() *Dataset
		want string // "" for a sound dataset
	}{
		{"small, sound", func() *Dataset { return small() }, ""},
		{"small, out of order", func() *Dataset { d := small(); d.Idx[3] = 1; return d }, "row 3: index 2 out of order or range"},
		{"small, repeated", func() *Dataset { d := small(); d.Idx[1] = 0; return d }, "row 1: index 1 out of order or range"},
		{"small, index at dim", func() *Dataset { d := small(); d.Idx[4] = 10; return d }, "row 3: index 11 out of order or range"},
		{"small, negative index", func() *Dataset { d := small(); d.Idx[2] = -1; return d }, "row 3: index 0 out of order or range"},
		{"small, pointers decrease", func() *Dataset { d := small(); d.Ptr[1], d.Ptr[2] = 3, 2; return d }, "row 2: pointers decrease"},
		{"small, pointers past the values", func() *Dataset { d := small(); d.Ptr[1] = 7; return d }, "row 2: pointers decrease"},
		{"large, sound", large, ""},
		{"large, last row out of order", func() *Dataset { d := large(); d.Idx[len(d.Idx)-1] = 0; return d }, "row 999: index 1 out of order or range"},
		{"large, a row cut between blocks", func() *Dataset {
			d := large()
			k := verifyBlock / 4 // the first index of verifyMapped's second block
			d.Idx[k] = d.Idx[k-1]
			return d
		}, "row 60: index 1272 out of order or range"},
		{"large, NaN late", func() *Dataset { d := large(); d.Val[len(d.Val)-3] = math.NaN(); return d }, "row 999, feature 2195: value NaN"},
		{"large, index before value", func() *Dataset {
			d := large()
			d.Val[5] = math.Inf(-1)
			d.Idx[len(d.Idx)-1] = 5000
			return d
		}, "row 999: index 5001 out of order or range"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.d()
			var buf bytes.Buffer
			if err := WriteCache(&buf, d); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, "c.cache")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			mappedD, mappedErr := ReadCache(p)
			memD, memErr := DecodeCache(buf.Bytes())
			for _, r := range []struct {
				path string
				got  *Dataset
				err  error
			}{{"mapped", mappedD, mappedErr}, {"in memory", memD, memErr}} {
				switch {
				case c.want == "" && r.err != nil:
					t.Errorf("%s: %v", r.path, r.err)
				case c.want == "":
					equalDatasets(t, r.got, d)
				case !errors.Is(r.err, ErrCache) || !strings.Contains(r.err.Error(), c.want):
					t.Errorf("%s: error %v, want ErrCache with %q", r.path, r.err, c.want)
				}
			}
			if c.want != "" && mappedErr != nil && memErr != nil && strings.TrimPrefix(mappedErr.Error(), p+": ") != memErr.Error() {
				t.Errorf("the paths disagree: mapped %q, in memory %q", mappedErr, memErr)
			}
		})
	}
}

// TestCheckIdxRange: checkIdx on a range that starts inside a row compares the range's
// first index with the one before it, which another part checks.
func TestCheckIdxRange(t *testing.T) {
	d := &Dataset{Dim: 10, Ptr: []int64{0, 4, 6}, Idx: []int32{1, 3, 3, 7, 0, 9}, Val: make([]float64, 6)}
	for _, tt := range []struct {
		lo, hi int
		bad    bool
	}{{0, 6, true}, {2, 6, true}, {3, 6, false}, {0, 2, false}, {4, 6, false}, {1, 3, true}} {
		if err := d.checkIdx(tt.lo, tt.hi); (err != nil) != tt.bad {
			t.Errorf("checkIdx(%d, %d) = %v, want an error: %v", tt.lo, tt.hi, err, tt.bad)
		} else if err != nil && err.Error() != "row 1: index 4 out of order or range" {
			t.Errorf("checkIdx(%d, %d) = %v", tt.lo, tt.hi, err)
		}
	}
}
