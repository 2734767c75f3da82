package data

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
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
