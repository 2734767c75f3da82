// Command benchtable turns `go test -bench` output of package bench into the Markdown
// table of bench/README.md: one row per operation and size, GFLOP/s per implementation,
// and the ratios of avx2 to the reference (gonum, or the naive loop where gonum has no
// equivalent) and to generic.
//
//	go test ./bench -run '^$' -bench . | go run ./bench/benchtable
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// result is one benchmark line.
type result struct {
	op, impl, size string
	gflops, nsop   float64
	allocs         string
}

func main() {
	if err := table(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// parse reads benchmark lines "BenchmarkOp/impl=X/size=Y-N  iters  v ns/op ... v GFLOP/s ...".
func parse(r io.Reader) ([]result, error) {
	var out []result
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i] // the GOMAXPROCS suffix
		}
		parts := strings.SplitN(strings.TrimPrefix(name, "Benchmark"), "/", 3)
		if len(parts) < 3 || !strings.HasPrefix(parts[1], "impl=") || !strings.HasPrefix(parts[2], "size=") {
			continue
		}
		res := result{op: parts[0], impl: strings.TrimPrefix(parts[1], "impl="), size: strings.TrimPrefix(parts[2], "size=")}
		for i := 2; i+1 < len(f); i++ {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "GFLOP/s":
				res.gflops = v
			case "ns/op":
				res.nsop = v
			case "allocs/op":
				res.allocs = f[i]
			}
		}
		out = append(out, res)
	}
	return out, sc.Err()
}

func table(r io.Reader, w io.Writer) error {
	rs, err := parse(r)
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return fmt.Errorf("no benchmark lines of the form BenchmarkOp/impl=X/size=Y on input")
	}
	type key struct{ op, size string }
	var order []key
	by := map[key]map[string]result{}
	for _, x := range rs {
		k := key{x.op, x.size}
		if by[k] == nil {
			by[k] = map[string]result{}
			order = append(order, k)
		}
		by[k][x.impl] = x
	}
	fmt.Fprintln(w, "| op | size | reference GFLOP/s | generic GFLOP/s | avx2 GFLOP/s | avx2 ÷ reference | avx2 ÷ generic | avx2 allocs/op |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|")
	for _, k := range order {
		m := by[k]
		ref, refName := m["gonum"], "gonum"
		if _, ok := m["gonum"]; !ok {
			ref, refName = m["naive"], "naive"
		}
		gen, avx := m["generic"], m["avx2"]
		refCell := "—"
		if ref.gflops > 0 {
			refCell = fmt.Sprintf("%.2f (%s)", ref.gflops, refName)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", k.op, k.size, refCell,
			num(gen.gflops), num(avx.gflops), ratio(avx.gflops, ref.gflops), ratio(avx.gflops, gen.gflops), avx.allocs)
	}
	return nil
}

func num(v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", v)
}

func ratio(a, b float64) string {
	if a == 0 || b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}
