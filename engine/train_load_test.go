package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// TestTrainDenseFile: a batch algorithm trained on a dense text file, which Train now
// loads dense and shuffles in place, gives the weights of the sparse load shuffled by
// a copy (the path before), for each batch algorithm and with and without shuffling.
func TestTrainDenseFile(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var text strings.Builder
	for i := range 300 {
		fmt.Fprintf(&text, "%+d", 2*(i%3%2)-1)
		for j := 1; j <= 30; j++ {
			if r.IntN(10) != 0 {
				fmt.Fprintf(&text, " %d:%.4f", j, r.NormFloat64()+float64(i%3%2)*0.3)
			}
		}
		text.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "dense.svm")
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, algo := range []string{"ls-auc", "mba-l2", "spdam"} {
		for _, shuffle := range []bool{false, true} {
			cfg := TrainConfig{Algo: algo, Data: path, Scale: data.ScaleNone, Shuffle: shuffle, Seed: 4, Backend: fallback.New()}
			res, err := Train(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			// The path before: the sparse load, shuffled by Subset.
			spec, _ := solver.Lookup(algo)
			params := spec.Params()
			b, err := backends.Open("generic")
			if err != nil {
				t.Fatal(err)
			}
			ds, err := data.ReadFile(path, data.Options{})
			if err != nil {
				t.Fatal(err)
			}
			spec.Defaults(solver.FactsOf(ds), params) // as Train scales them
			if shuffle {
				ds = ds.Subset(data.Shuffle(ds.Rows(), cfg.Seed))
			}
			want := fitBatch(t, spec, b, params, ds, cfg.Seed)
			b.Close()
			if !slices.Equal(res.Weights, want) {
				t.Errorf("%s shuffle %v: the weights differ from the sparse, copied path's", algo, shuffle)
			}
		}
	}
}

func fitBatch(t *testing.T, spec solver.Spec, b kernels.Backend, params solver.Params, ds *data.Dataset, seed uint64) []float64 {
	t.Helper()
	l, err := spec.NewBatch(b, ds.Dim, params, seed)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Fit(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	return l.Weights()
}
