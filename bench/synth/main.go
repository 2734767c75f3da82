// Command synth writes an epsilon-shaped synthetic dataset (data.EpsilonLike: dense
// standard-normal features, labels from a seeded linear truth with noise) of any size
// as an aucopt binary cache, which `aucopt train --data FILE` reads at memory speed.
// bench/gpu-check.sh trains on it with --backend cuda and --backend avx2.
//
//	go run ./bench/synth --rows 100000 --dim 2000 --seed 1 --out train.cache
//	go run ./bench/synth --first 100000 --rows 20000 --dim 2000 --seed 1 --out test.cache
//
// The same rows, seed and size give the same file.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/aucopt/aucopt/engine/data"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// run parses args and writes the file: exit 0, 2 for bad arguments, 1 when writing fails.
func run(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rows := fs.Int("rows", 100_000, "rows")
	first := fs.Int("first", 0, "index of the first row (a test set: the same --seed, rows after the training set's)")
	dim := fs.Int("dim", 2_000, "features (dense)")
	pos := fs.Float64("pos", 0.3, "share of positive rows, in (0, 1)")
	seed := fs.Uint64("seed", 1, "seed of the truth and the rows")
	out := fs.String("out", "", "output file (an aucopt binary cache; required)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "synth: unexpected argument %q\n", fs.Arg(0))
		return 2
	case *out == "":
		fmt.Fprintln(stderr, "synth: --out is required")
		return 2
	case *first < 0:
		fmt.Fprintf(stderr, "synth: --first %d: want a row index ≥ 0\n", *first)
		return 2
	case *rows < 2 || *dim < 1:
		fmt.Fprintf(stderr, "synth: --rows %d --dim %d: want at least 2 rows and 1 feature\n", *rows, *dim)
		return 2
	case !(*pos > 0 && *pos < 1):
		fmt.Fprintf(stderr, "synth: --pos %v: want a share in (0, 1)\n", *pos)
		return 2
	}
	if err := data.SaveCache(*out, epsilonLike(*first, *rows, *dim, *pos, *seed)); err != nil {
		fmt.Fprintf(stderr, "synth: %v\n", err)
		return 1
	}
	return 0
}

// epsilonLike is rows first … first+rows−1 of data.EpsilonLike with dim features,
// dense.
func epsilonLike(first, rows, dim int, pos float64, seed uint64) *data.Dataset {
	s := data.EpsilonLike(pos, seed)
	s.Rows, s.Dim = first+rows, dim
	ds := (&data.Dataset{Name: fmt.Sprintf("epsilon-like-%dx%d-seed%d-from%d", rows, dim, seed, first), Dim: dim, Ptr: []int64{0}}).ToDense()
	ds.Dense = make([]float64, 0, rows*dim)
	var ex data.Example
	for i := first; i < first+rows; i++ {
		s.Row(i, &ex)
		ds.Append(ex.Y, float64(ex.Y), ex.X)
	}
	return ds
}
