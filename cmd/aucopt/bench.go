package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/bench"
)

const benchExamples = `  aucopt bench                        # every available backend, about 15-20 s on 2 cores
  aucopt bench --quick                # smaller Syrk and data, a few seconds
  aucopt bench --backends generic,avx2 --algos opauc,spam-l2,ls-auc
  aucopt bench --json > bench.json    # one object per table row
  aucopt bench --gpu                  # MBA Σ_S, an OPAUC pass, an SPDAM epoch on 400,000×2,000: avx2 vs cuda
  aucopt bench --gpu --rows 20000 --dim 500 --backends generic,avx2   # the same, small, without a GPU
`

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "bench [--quick] [--backends LIST] [--algos LIST] [--json]", benchExamples, stdout, stderr)
	quick := fs.Bool("quick", false, "smaller sizes (Syrk d=500 k=1024, 1000×100 data) and 10 ms per measurement")
	backendNames := fs.StringSlice("backends", nil, "backends to compare, comma-separated (default: every available one; ratios are against generic)")
	algos := fs.StringSlice("algos", bench.DefaultAlgos, "algorithms to time on the synthetic data: one pass (online) or one fit (batch); unknown names are skipped with a note")
	minTime := fs.Duration("min-time", 0, "repeat each measurement for this long and keep the best (default 100ms, 10ms with --quick)")
	seed := fs.Uint64("seed", 1, "seed of the synthetic inputs")
	asJSON := fs.Bool("json", false, "print the table as a JSON array, one object per row")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	gpu := fs.Bool("gpu", false, "the GPU benchmark: MBA Σ_S, one OPAUC pass and an SPDAM epoch on epsilon-sized data, --backends (default avx2,cuda) side by side")
	rows := fs.Int("rows", 0, "with --gpu: rows of the synthetic data (default 400000)")
	dim := fs.Int("dim", 0, "with --gpu: features of the synthetic data (default 2000)")
	passRows := fs.Int("pass-rows", 0, "with --gpu: rows of the OPAUC pass (default all)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *gpu {
		if *rows < 0 || *dim < 0 || *passRows < 0 {
			return inputErrorf("--rows, --dim and --pass-rows must be ≥ 0")
		}
		return runGPUBench(ctx, bench.GPUConfig{Backends: *backendNames, Rows: *rows, Dim: *dim, PassRows: *passRows, Seed: *seed}, *asJSON, *quiet, stdout, stderr)
	}
	if *minTime < 0 {
		return inputErrorf("--min-time %v: want a positive duration", *minTime)
	}
	cfg := bench.Config{Backends: *backendNames, Algos: *algos, Quick: *quick, MinTime: *minTime, Seed: *seed}
	if !*quiet {
		cfg.Progress = func(op, size, backend string) {
			fmt.Fprintf(stderr, "bench: %s %s on %s\n", op, size, backend)
		}
	}
	start := time.Now()
	rep, err := bench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		for _, n := range rep.Notes {
			fmt.Fprintf(stderr, "aucopt bench: note: %s\n", n)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep.Rows)
	}
	cpu := backends.DetectCPU()
	fmt.Fprintf(stdout, "aucopt %s bench on %s (%s, %d cores), %s; best of repeated calls\n",
		version, cpu.Brand, cpu.Arch, cpu.Cores, runtime.Version())
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	wo, ws := len("op"), len("size")
	for _, r := range rep.Rows {
		wo, ws = max(wo, len(r.Op)), max(ws, len([]rune(r.Size)))
	}
	first := func(op, size string) string { // left-aligned inside the right-aligned table
		return fmt.Sprintf("%-*s  %s%s", wo, op, size, strings.Repeat(" ", ws-len([]rune(size))))
	}
	head := []string{first("op", "size")}
	for _, b := range rep.Backends {
		head = append(head, b+" time", "GFLOP/s", "×generic")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for _, r := range rep.Rows {
		cells := []string{first(r.Op, r.Size)}
		for _, t := range r.Backends {
			gf, ratio := "—", "—"
			if t.GFLOPS > 0 {
				gf = fmt.Sprintf("%.2f", t.GFLOPS)
			}
			if t.Ratio > 0 {
				ratio = fmt.Sprintf("%.2f×", t.Ratio)
			}
			cells = append(cells, formatDuration(t.Seconds), gf, ratio)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "×generic: generic's time ÷ the backend's (above 1: faster). Algorithms: one pass (online) or one fit (batch)")
	fmt.Fprintf(stdout, "on seeded Gaussian data with a linear truth, 30%% positive (AUCs in --json). Whole run %.1fs.\n", time.Since(start).Seconds())
	for _, n := range rep.Notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	return nil
}

// formatDuration writes seconds with a unit that keeps three or four digits.
func formatDuration(s float64) string {
	switch {
	case s < 1e-6:
		return fmt.Sprintf("%.0f ns", s*1e9)
	case s < 1e-3:
		return fmt.Sprintf("%.2f µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.2f ms", s*1e3)
	}
	return fmt.Sprintf("%.3f s", s)
}

// runGPUBench runs bench.GPU and prints its table (or JSON).
func runGPUBench(ctx context.Context, cfg bench.GPUConfig, asJSON, quiet bool, stdout, stderr io.Writer) error {
	if !quiet {
		cfg.Progress = func(op, backend string) { fmt.Fprintf(stderr, "bench: %s on %s\n", op, backend) }
	}
	start := time.Now()
	rep, err := bench.GPU(ctx, cfg)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	cpu := backends.DetectCPU()
	fmt.Fprintf(stdout, "aucopt %s GPU bench on %s (%s, %d cores), %s; data %s built in %.1fs\n",
		version, cpu.Brand, cpu.Arch, cpu.Cores, runtime.Version(), rep.Data, rep.Build.Seconds())
	for i, b := range rep.Backends {
		fmt.Fprintf(stdout, "  %s: %s\n", b, rep.Detail[i])
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	head := []string{"op", "size"}
	for i, b := range rep.Backends {
		head = append(head, b+" time")
		if i > 0 {
			head = append(head, rep.Backends[0]+"÷"+b)
		}
	}
	fmt.Fprintln(tw, strings.Join(append(head, "check"), "\t"))
	for _, r := range rep.Rows {
		cells := []string{r.Op, r.Size}
		var checks []string
		for i := range r.Seconds {
			cells = append(cells, formatDuration(r.Seconds[i]))
			if i > 0 {
				cells = append(cells, fmt.Sprintf("%.2f×", r.Ratio[i]))
			}
			checks = append(checks, fmt.Sprintf("%.10g", r.Check[i]))
		}
		fmt.Fprintln(tw, strings.Join(append(cells, strings.Join(checks, " / ")), "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "check: trace of Σ_S (MBA) or training AUC; the backends should agree to rounding. Whole run %.1fs.\n", time.Since(start).Seconds())
	return nil
}
