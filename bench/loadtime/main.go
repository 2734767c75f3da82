// Command loadtime reads a data file into memory the way `aucopt train` does
// (data.ReadFileContext) and prints the wall time, the rate in MB/s of the file as
// stored and the CPU time: the load measurements of bench/dataload.sh.
//
//	go run ./bench/loadtime [-workers N] [-layout auto|sparse|dense] [-old] [-cache OUT] [-label COL [-hash-bits B]] FILE
//
// -cache writes the loaded dataset as a binary cache to OUT (not timed). -label reads
// a table (CSV, TSV, Parquet) with that label column, its text columns hashed into
// 2^B buckets (aucopt train's --label and --hash-bits).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/aucopt/aucopt/engine/data"
)

func main() {
	workers := flag.Int("workers", 0, "parsing goroutines (0: all cores)")
	layout := flag.String("layout", "auto", "auto, sparse or dense")
	cache := flag.String("cache", "", "write the dataset as a binary cache to this file")
	label := flag.String("label", "", "a table's label column")
	bits := flag.Int("hash-bits", 0, "a table's hash bits (0: the default)")
	old := flag.Bool("old", false, "read as before issue 15: the streaming Reader on one core, rows appended (data.ReadAll), then the layout")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: loadtime [-workers N] [-layout auto|sparse|dense] [-old] [-cache OUT] [-label COL [-hash-bits B]] FILE")
		os.Exit(2)
	}
	l, ok := map[string]data.Layout{"auto": data.LayoutAuto, "sparse": data.LayoutSparse, "dense": data.LayoutDense}[*layout]
	if !ok {
		fmt.Fprintf(os.Stderr, "loadtime: unknown layout %q\n", *layout)
		os.Exit(2)
	}
	path := flag.Arg(0)
	st, err := os.Stat(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtime:", err)
		os.Exit(1)
	}
	var opts data.Options
	if *label != "" {
		opts.Table = &data.TableOptions{Label: *label, HashBits: *bits}
	}
	u0, s0 := cpuTimes()
	start := time.Now()
	var d *data.Dataset
	if *old {
		d, err = readOld(path, opts, l)
	} else {
		d, err = data.ReadFileContext(context.Background(), path, opts, data.ReadConfig{Layout: l, Workers: *workers})
	}
	wall := time.Since(start).Seconds()
	u1, s1 := cpuTimes()
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtime:", err)
		os.Exit(1)
	}
	user, sys := u1-u0, s1-s0
	fmt.Printf("%s: %d rows × %d, dense %v: %.3f s wall, %.0f MB/s, %.2f M rows/s, %.3f s CPU (user %.3f, sys %.3f)\n",
		path, d.Rows(), d.Dim, d.IsDense(), wall, float64(st.Size())/wall/1e6, float64(d.Rows())/wall/1e6, user+sys, user, sys)
	if *cache != "" {
		if err := data.SaveCache(*cache, d); err != nil {
			fmt.Fprintln(os.Stderr, "loadtime:", err)
			os.Exit(1)
		}
	}
}

// readOld is the load path before issue 15: data.ReadAll over the streaming Reader.
func readOld(path string, opts data.Options, l data.Layout) (*data.Dataset, error) {
	r, err := data.Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, err := data.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return d.WithLayout(l), nil
}
