// Command gensvm writes a synthetic dense binary LIBSVM file of any size to stdout, for
// the out-of-core measurements (README, "Scaling out"): rows of two Gaussian classes
// (identity covariance, means ±0.1 per feature, 10% positives, as MBA's simulation),
// values with 4 significant digits, row i drawn from its own seeded stream. With -news20
// it writes rows [skip, skip+rows) of data.News20Like (news20's size: 1,355,191
// features, 450 non-zeros a row, a known linear truth), so that two disjoint row
// ranges are a training and a test set of one problem.
//
//	go run ./bench/gensvm -rows 2000000 -dim 100 > big.svm
//	go run ./bench/gensvm -news20 -rows 19996 > news-train.svm
//	go run ./bench/gensvm -news20 -skip 19996 -rows 10000 > news-test.svm
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/aucopt/aucopt/engine/data"
)

func main() {
	rows := flag.Int("rows", 1000, "rows")
	dim := flag.Int("dim", 100, "features")
	seed := flag.Uint64("seed", 1, "seed")
	news := flag.Bool("news20", false, "rows of data.News20Like (-dim is ignored)")
	skip := flag.Int("skip", 0, "with -news20: the first row written")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	if *news {
		s := data.News20Like(0.5, *seed)
		var ex data.Example
		var buf []byte
		for i := *skip; i < *skip+*rows; i++ {
			s.Row(i, &ex)
			buf = strconv.AppendInt(buf[:0], int64(ex.Y), 10)
			for k, j := range ex.X.Idx {
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(j)+1, 10)
				buf = append(buf, ':')
				buf = strconv.AppendFloat(buf, ex.X.Val[k], 'g', 6, 64)
			}
			buf = append(buf, '\n')
			if _, err := w.Write(buf); err != nil {
				fmt.Fprintln(os.Stderr, "gensvm:", err)
				os.Exit(1)
			}
		}
		if err := w.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, "gensvm:", err)
			os.Exit(1)
		}
		return
	}
	buf := make([]byte, 0, 16*(*dim)+8)
	pcg := rand.NewPCG(0, 0)
	r := rand.New(pcg)
	for i := range *rows {
		pcg.Seed(*seed, uint64(i))
		buf = buf[:0]
		mean := -0.1
		if r.Float64() < 0.1 {
			buf = append(buf, "+1"...)
			mean = 0.1
		} else {
			buf = append(buf, "-1"...)
		}
		for j := 1; j <= *dim; j++ {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j), 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, mean+r.NormFloat64(), 'g', 4, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			fmt.Fprintln(os.Stderr, "gensvm:", err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gensvm:", err)
		os.Exit(1)
	}
}
