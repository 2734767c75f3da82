// Command gendata writes the synthetic LIBSVM files of the data-path benchmarks
// (bench/dataload.sh): an epsilon-shaped dense set and a news20-shaped sparse one, each
// a training and a test file, from a fixed seed (the same bytes on every machine).
//
//	go run ./bench/gendata -kind dense  -out DIR   # 50,000 × 2,000 (about 1.5 GB) + 5,000 test rows
//	go run ./bench/gendata -kind sparse -out DIR   # 20,000 × 1,355,191, ~455 values a row + 4,000 test rows
//
// Labels come from a hidden linear model with noise, so that AUC is informative; dense
// rows have unit length and values written with 7 decimals, as epsilon's (about 1.5 GB).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
)

func main() {
	kind := flag.String("kind", "dense", "dense or sparse")
	out := flag.String("out", "/tmp/aucopt-bench", "output directory")
	rows := flag.Int("rows", 0, "training rows (default 50,000 dense, 20,000 sparse)")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "gendata:", err)
		os.Exit(1)
	}
	var g gen
	switch *kind {
	case "dense":
		g = gen{dim: 2000, rows: 50000, test: 5000, nnz: 2000}
	case "sparse":
		g = gen{dim: 1355191, rows: 20000, test: 4000, nnz: 455}
	default:
		fmt.Fprintf(os.Stderr, "gendata: unknown kind %q (want dense or sparse)\n", *kind)
		os.Exit(2)
	}
	if *rows > 0 {
		g.rows = *rows
	}
	g.w = make([]float64, g.dim)
	r := rand.New(rand.NewPCG(1, 2))
	for j := range g.w {
		g.w[j] = r.NormFloat64()
		if g.nnz < g.dim && j >= topics {
			g.w[j] = 0 // news: the label depends on a few thousand topical words
		}
	}
	for _, part := range []struct {
		name string
		rows int
		seed uint64
	}{{"train", g.rows, 10}, {"test", g.test, 20}} {
		p := filepath.Join(*out, fmt.Sprintf("%s.%s.svm", *kind, part.name))
		if err := g.write(p, part.rows, part.seed); err != nil {
			fmt.Fprintln(os.Stderr, "gendata:", err)
			os.Exit(1)
		}
		fmt.Println(p)
	}
}

// topics is the number of sparse features the labels depend on.
const topics = 2000

type gen struct {
	dim, rows, test, nnz int
	w                    []float64
}

// row appends row i of the stream seeded by seed as LIBSVM text.
func (g *gen) row(buf []byte, seed uint64, i int) []byte {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	var idx []int
	if g.nnz >= g.dim {
		idx = make([]int, g.dim)
		for j := range idx {
			idx[j] = j
		}
	} else {
		// news20's rows vary in length: 1/4 to 7/4 of the mean.
		n := g.nnz/4 + r.IntN(3*g.nnz/2+1)
		seen := make(map[int]bool, n)
		for len(idx) < n {
			j := r.IntN(g.dim)
			switch r.IntN(8) {
			case 0, 1:
				j = r.IntN(topics) // topical words
			case 2, 3, 4, 5:
				j = r.IntN(g.dim / 8) // frequent words are frequent
			}
			if !seen[j] {
				seen[j] = true
				idx = append(idx, j)
			}
		}
		slices.Sort(idx)
	}
	val := make([]float64, len(idx))
	var norm, score float64
	for k := range val {
		v := r.NormFloat64()
		if g.nnz < g.dim {
			v = math.Abs(v) // TF-IDF weights are positive
		}
		val[k] = v
		norm += v * v
	}
	norm = math.Sqrt(norm)
	for k, j := range idx {
		val[k] /= norm
		score += g.w[j] * val[k]
	}
	if g.nnz < g.dim {
		score *= math.Sqrt(float64(len(idx))) // comparable margins for any row length
	}
	label := "-1"
	if score+0.5*r.NormFloat64() > 0 {
		label = "+1"
	}
	buf = append(buf, label...)
	for k, j := range idx {
		buf = append(buf, ' ')
		buf = strconv.AppendInt(buf, int64(j+1), 10)
		buf = append(buf, ':')
		buf = strconv.AppendFloat(buf, val[k], 'f', 7, 64)
	}
	return append(buf, '\n')
}

// write writes rows rows to path, formatting blocks of rows on all cores.
func (g *gen) write(path string, rows int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	const block = 256
	workers := runtime.GOMAXPROCS(0)
	for b0 := 0; b0 < rows; b0 += block * workers {
		parts := make([][]byte, workers)
		var wg sync.WaitGroup
		for k := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := b0 + k*block; i < min(b0+(k+1)*block, rows); i++ {
					parts[k] = g.row(parts[k], seed, i)
				}
			}()
		}
		wg.Wait()
		for _, p := range parts {
			if _, err := w.Write(p); err != nil {
				f.Close()
				return err
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
