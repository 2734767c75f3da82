package model

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// TestModelRefuses covers the models and data a model must refuse: an unknown
// algorithm, weights whose magnitudes overflow, data with fewer or more features, and
// data whose score overflows to ±Inf.
func TestModelRefuses(t *testing.T) {
	good, err := sample(data.ScaleNone, []float64{1, -2, 0.5}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	decodeCases := []struct {
		name string
		file []byte
		want string
	}{
		{"unknown algorithm", bytes.Replace(good, []byte(`"opauc"`), []byte(`"nosuch"`), 1), `unknown algorithm "nosuch"`},
		{"weights overflow", bytes.Replace(good, []byte(`[1,-2,0.5]`), []byte(`[1.7e308,-1.7e308,0.5]`), 1), "magnitudes sum to +Inf"},
		{"too many features", bytes.Replace(bytes.Replace(good, []byte(`"features":3`), []byte(`"features":4294967296`), 1),
			[]byte(`[1,-2,0.5]`), []byte(`{"index":[1],"value":[1]}`), 1), "features 4294967296"},
	}
	for _, c := range decodeCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode(c.file, "m.json")
			if !errors.Is(err, ErrModel) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "m.json") {
				t.Errorf("Decode: error %v, want ErrModel naming m.json and %q", err, c.want)
			}
		})
	}
	scoreCases := []struct {
		name    string
		m       *Model
		rows    [][]float64
		dim     int
		wantErr error
		want    string
	}{
		{"fewer features", sample(data.ScaleNone, []float64{1, -2, 0.5}), [][]float64{{1, 2}}, 2, ErrFeatureSpace, "the data has 2 features, the model 3"},
		{"more features", sample(data.ScaleNone, []float64{1, -2, 0.5}), [][]float64{{1, 2, 3, 4}}, 4, ErrFeatureSpace, "the data has 4 features, the model 3"},
		{"score overflows", sample(data.ScaleNone, []float64{1.7e308, 0, 0}), [][]float64{{1, 0, 0}, {2, 0, 0}}, 3, ErrModel, "row 2 is +Inf"},
		{"score NaN", sample(data.ScaleNone, []float64{1.7e308, 1.7e308, 0}), [][]float64{{2, -2, 0}}, 3, ErrModel, "is NaN"},
	}
	for _, c := range scoreCases {
		t.Run(c.name, func(t *testing.T) {
			ds := dataset(c.dim, c.rows)
			ds.Name = "test"
			_, err := c.m.Score(ds)
			if !errors.Is(err, c.wantErr) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Score: error %v, want %v with %q", err, c.wantErr, c.want)
			}
		})
	}
}

// FuzzModelDecode feeds arbitrary bytes to the model decoder. It must never panic, and
// a model it accepts must be valid and encode to a file that decodes to the same model.
// Whatever number of features an input declares, nothing proportional to it is
// allocated (decodeWeights): no input is skipped.
func FuzzModelDecode(f *testing.F) {
	for _, m := range []*Model{
		sample(data.ScaleNone, []float64{1, -2, 0.5}),
		sample(data.ScaleMinMax, []float64{0, 0, 0, 3, 0}),
		sample(data.ScaleNorm, []float64{0.25, 1e-300}),
		func() *Model {
			m := sample(data.ScaleNorm, []float64{0, 0, 7})
			m.Scaling.Mean, m.TestAUC = nil, 0.5
			return m
		}(),
	} {
		b, err := m.MarshalJSON()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":1}`))
	f.Add([]byte(`{"format":1,"algorithm":"olr","features":2,"scaling":{"kind":"none"},"weights":{"index":[2],"value":[1]}}`))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Decode(b, "fuzz.json")
		if err != nil {
			if !errors.Is(err, ErrModel) {
				t.Fatalf("error %v does not wrap ErrModel", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Decode accepted a model Validate refuses: %v", err)
		}
		again, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Decode(again, "again.json")
		if err != nil {
			t.Fatalf("the re-encoded model does not decode: %v", err)
		}
		third, err := m2.MarshalJSON()
		if err != nil || !bytes.Equal(third, again) {
			t.Fatalf("the re-encoded model decodes differently: %v\n%s\n%s", err, again, third)
		}
	})
}

// TestDeclaredWidth: a 300-byte model declaring 2³¹ − 1 features allocates nothing
// proportional to them (it held 16 GiB of weights before), scores data of fewer
// features through Narrow and of its own declared width by the rows' features, and
// encodes to the bytes a dense model of the same weights would.
func TestDeclaredWidth(t *testing.T) {
	file := []byte(`{"format":1,"algorithm":"olr","features":2147483647,"scaling":{"kind":"none"},` +
		`"weights":{"index":[1,3,5,2147483647],"value":[0.5,-1,0,3]}}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m, err := Decode(file, "wide.json")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("Decode of %d bytes allocated %d bytes", len(file), grew)
	}
	if m.Weights != nil || m.NonZero() != 3 || m.Width() != math.MaxInt32 {
		t.Errorf("weights %d dense, %d non-zero, width %d; want none dense, 3, %d", len(m.Weights), m.NonZero(), m.Width(), math.MaxInt32)
	}
	ds := dataset(4, [][]float64{{2, 0, 1, 7}, {0, 0, -1, 0}})
	narrow, ok := m.Narrow(ds.Dim)
	if !ok {
		t.Fatal("Narrow refused a model of scaling none")
	}
	scores, err := narrow.Score(ds)
	if err != nil || !slices.Equal(scores, []float64{0, 1}) {
		t.Errorf("narrowed scores %v, %v; want [0 1]", scores, err)
	}
	// Data of the declared width (as a LIBSVM file with feature 2³¹ − 1 has): the
	// weights up to its rows' largest feature.
	wide := &data.Dataset{Name: "wide", Dim: math.MaxInt32, Ptr: []int64{0}}
	wide.Append(1, 1, kernels.Sparse{Idx: []int32{0, math.MaxInt32 - 1}, Val: []float64{2, 1}})
	wide.Append(-1, -1, kernels.Sparse{Idx: []int32{2}, Val: []float64{1}})
	if scores, err := m.Score(wide); err != nil || !slices.Equal(scores, []float64{4, -1}) {
		t.Errorf("scores of data of the declared width %v, %v; want [4 -1]", scores, err)
	}
	got, err := m.canonical()
	if err != nil {
		t.Fatal(err)
	}
	dense := &Model{Algo: "olr", Features: 20, Scaling: Scaling{Kind: data.ScaleNone}, TestAUC: math.NaN(), Weights: make([]float64, 20)}
	dense.Weights[0], dense.Weights[2], dense.Weights[19] = 0.5, -1, 3
	want, err := dense.canonical()
	if err != nil {
		t.Fatal(err)
	}
	want = bytes.Replace(bytes.Replace(want, []byte(`"features":20`), []byte(`"features":2147483647`), 1), []byte(`[1,3,20]`), []byte(`[1,3,2147483647]`), 1)
	if !bytes.Equal(got, want) {
		t.Errorf("encoded\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct {
		name string
		m    *Model
	}{
		{"minmax", sample(data.ScaleMinMax, []float64{1, 2, 3})},
		{"centred norm", sample(data.ScaleNorm, []float64{1, 2, 3})},
	} {
		if _, ok := c.m.Narrow(2); ok {
			t.Errorf("Narrow of a %s model: the missing features change its scores, want refused", c.name)
		}
	}
}

// FuzzModelChecksum changes bytes of valid model files (as Write lays them out) and
// decodes them. Decoding must never panic; a changed file it accepts must hold the
// same content as the original (a change of layout: white space), as the checksum
// covers the content; with IgnoreChecksum, a changed file it accepts must re-encode to
// a file Decode accepts with its checksum checked.
func FuzzModelChecksum(f *testing.F) {
	var files [][]byte
	var canon [][]byte
	for _, m := range []*Model{
		sample(data.ScaleNone, []float64{1, -2, 0.5}),
		sample(data.ScaleMinMax, []float64{0, 0, 0, 3, 0}),
		sample(data.ScaleNorm, []float64{0.25, 1e-300}),
	} {
		b, err := m.encode("\n", "  ")
		if err != nil {
			f.Fatal(err)
		}
		c, err := m.canonical()
		if err != nil {
			f.Fatal(err)
		}
		files, canon = append(files, b), append(canon, c)
	}
	f.Add(uint8(0), uint16(20), []byte("9"))   // a digit of the content
	f.Add(uint8(1), uint16(1), []byte("\t\t")) // layout
	f.Add(uint8(2), uint16(300), []byte(""))   // a deletion
	f.Add(uint8(0), uint16(0), []byte(`{"format":1}`))
	f.Fuzz(func(t *testing.T, which uint8, at uint16, repl []byte) {
		k := int(which) % len(files)
		orig := files[k]
		i := int(at) % (len(orig) + 1)
		end := min(i+len(repl), len(orig))
		b := append(append(append([]byte{}, orig[:i]...), repl...), orig[end:]...)
		m, err := Decode(b, "fuzz.json")
		if err != nil {
			if !errors.Is(err, ErrModel) {
				t.Fatalf("error %v does not wrap ErrModel", err)
			}
		} else {
			c, err := m.canonical()
			if err != nil || !bytes.Equal(c, canon[k]) {
				t.Fatalf("a changed file was accepted with other content (%v):\n%s\nwas\n%s", err, c, canon[k])
			}
		}
		m, err = DecodeOptions(b, "fuzz.json", ReadOptions{IgnoreChecksum: true})
		if err != nil {
			return
		}
		again, err := m.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(again, "again.json"); err != nil {
			t.Fatalf("a re-encoded model fails its own checksum: %v\n%s", err, again)
		}
	})
}

// TestReadBounded: ReadContext refuses a device of endless zeros at its first byte and a
// file larger than MaxFileBytes by its size (both wrapping ErrModel, naming the file),
// and stops with the context's error once it is done.
func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(MaxFileBytes + 1) // holes: refused by its size, never read
	f.Close()
	good := filepath.Join(dir, "m.json")
	if err := sample(data.ScaleNone, []float64{1, 2}).Write(good); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		path string
		is   error
		want string
	}{
		{"zeros", context.Background(), "/dev/zero", ErrModel, "/dev/zero:1:1: bad model file: not JSON"},
		{"too large", context.Background(), huge, ErrModel, "1073741825 bytes or more"},
		{"too large", context.Background(), huge, data.ErrTooLarge, huge},
		{"cancelled", cancelled, good, context.Canceled, good},
	} {
		if _, err := os.Stat(c.path); err != nil {
			t.Skip(err)
		}
		_, err := ReadContext(c.ctx, c.path, ReadOptions{})
		if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one wrapping %v saying %q", c.name, err, c.is, c.want)
		}
	}
}
