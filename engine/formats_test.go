//go:build unix

package engine

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
)

// TestEveryFormatEveryWay: the same rows in every format (LIBSVM numbered from 1 and
// from 0, compressed or not; CSV, TSV, compressed CSV; Parquet; the binary cache) train
// to the same weights every way a run reads them: in memory (ls-auc), streamed from
// disk (olr with no scaling or shuffling), out of core (ls-auc's class moments, to the
// in-memory weights within 1e-12 relative) and from a pipe (in memory and olr; a
// Parquet file is read by offsets and refused there).
func TestEveryFormatEveryWay(t *testing.T) {
	dir := t.TempDir()
	// 240 rows of 5 features, none zero (a table stores every cell), exact in %g.
	var one, zero strings.Builder
	for i := range 240 {
		label := []string{"+1", "-1"}[i%3%2]
		one.WriteString(label)
		zero.WriteString(label)
		for j := 1; j <= 5; j++ {
			v := float64((i*7+j*13)%97+1) / 16
			if i%3%2 == 0 {
				v += float64(j) / 8
			}
			fmt.Fprintf(&one, " %d:%g", j, v)
			fmt.Fprintf(&zero, " %d:%g", j-1, v)
		}
		one.WriteByte('\n')
		zero.WriteByte('\n')
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gz := func(b []byte) []byte {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(b)
		w.Close()
		return z.Bytes()
	}
	svm := write("d.svm", []byte(one.String()))
	files := map[string]string{
		"libsvm":            svm,
		"libsvm zero-based": write("z.svm", []byte(zero.String())),
		"libsvm gzip":       write("d.svm.gz", gz([]byte(one.String()))),
	}
	for _, out := range []string{"d.csv", "d.tsv", "d.parquet", "d.cache"} {
		p := filepath.Join(dir, out)
		if _, err := data.Convert(svm, p, data.Options{}); err != nil {
			t.Fatalf("convert to %s: %v", out, err)
		}
		files[strings.TrimPrefix(filepath.Ext(out), ".")] = p
	}
	csv, err := os.ReadFile(files["csv"])
	if err != nil {
		t.Fatal(err)
	}
	files["csv gzip"] = write("c.csv.gz", gz(csv))

	train := func(cfg TrainConfig) ([]float64, error) {
		res, err := Train(context.Background(), cfg)
		if err != nil {
			return nil, err
		}
		return res.Weights, nil
	}
	ways := []struct {
		name  string
		cfg   TrainConfig
		exact bool // bit for bit the LIBSVM file's weights; else within 1e-12 of the in-memory ls-auc's
	}{
		{"in memory", TrainConfig{Algo: "ls-auc"}, true},
		{"streamed", TrainConfig{Algo: "olr", Scale: data.ScaleNone}, true},
		{"out of core", TrainConfig{Algo: "ls-auc", OutOfCore: true}, false},
	}
	want := map[string][]float64{}
	for _, w := range ways[:2] {
		cfg := w.cfg
		cfg.Data = svm
		if want[w.name], err = train(cfg); err != nil {
			t.Fatal(err)
		}
	}
	for name, path := range files {
		for _, w := range ways {
			cfg := w.cfg
			cfg.Data = path
			if name == "libsvm zero-based" && w.cfg.OutOfCore {
				cfg.Indices = data.IndexZero // a stream of chunks cannot tell; said
			}
			got, err := train(cfg)
			if err != nil {
				t.Errorf("%s %s: %v", name, w.name, err)
				continue
			}
			if w.exact {
				sameWeights(t, name+" "+w.name, got, want[w.name], 0)
			} else {
				sameWeights(t, name+" "+w.name, got, want["in memory"], 1e-12)
			}
		}
		// From a pipe, read once.
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ways[:2] {
			cfg := w.cfg
			pipe, done := pipeOf(t, b)
			cfg.Data = pipe
			got, err := train(cfg)
			done()
			if name == "parquet" {
				if err == nil || !strings.Contains(err.Error(), "not as a stream") {
					t.Errorf("parquet from a pipe %s: %v, want refused", w.name, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s from a pipe %s: %v", name, w.name, err)
				continue
			}
			sameWeights(t, name+" from a pipe "+w.name, got, want[w.name], 0)
		}
	}
}

// sameWeights fails unless got equals want, bit for bit at tol 0, else within tol
// relative.
func sameWeights(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d weights, want %d", what, len(got), len(want))
		return
	}
	for j := range got {
		if tol == 0 && math.Float64bits(got[j]) != math.Float64bits(want[j]) || tol > 0 && math.Abs(got[j]-want[j]) > tol*math.Abs(want[j]) {
			t.Errorf("%s: weight %d is %v, want %v", what, j, got[j], want[j])
			return
		}
	}
}

// pipeOf returns a name that reads b through a pipe (a stream: read once), and a
// function that closes it once read.
func pipeOf(t *testing.T, b []byte) (string, func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		w.Write(b)
		w.Close()
	}()
	return fmt.Sprintf("/dev/fd/%d", r.Fd()), func() { r.Close() }
}
