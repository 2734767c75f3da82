package experiment

import (
	"context"
	"fmt"
	"math"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// The MBA simulation's sizes (Sec. V-A).
const (
	simTrain = 20_000
	simTest  = 100_000
)

// simRatios are the sample ratios SR of Table II.
var simRatios = []float64{0.01, 0.10, 1.00}

// SimName names one setting of the MBA simulation: k mixture components, sample ratio sr.
func SimName(k int, sr float64) string {
	return fmt.Sprintf("k=%d SR=%g%%", k, math.Round(100*sr))
}

// SimDatasets lists the simulation's nine settings in Table II's order.
func SimDatasets() []string {
	var out []string
	for k := 1; k <= 3; k++ {
		for _, sr := range simRatios {
			out = append(out, SimName(k, sr))
		}
	}
	return out
}

// runSimulation runs the MBA simulation: for each k, Runs training sets of simTrain
// points (each subsampled at every SR) and one test set of simTest points; np scores
// the test set by the true likelihood ratio.
func runSimulation(ctx context.Context, p Protocol, cfg Config, b kernels.Backend, grids map[string]string, rep *Report) error {
	t := rep.Tables[0]
	var jobs []*job
	for k := 1; k <= 3; k++ {
		mix3, err := data.MBAMixture(k)
		if err != nil {
			return err
		}
		var settings []string
		for _, sr := range simRatios {
			if _, ok := t.Cells[SimName(k, sr)]; ok {
				settings = append(settings, SimName(k, sr))
			}
		}
		if len(settings) == 0 {
			continue
		}
		test := mix3.Sample(simTest, mix(cfg.Seed, uint64(1000+k)))
		np := make([]float64, test.Rows())
		for i := range np {
			np[i] = mix3.NPScore(test.DenseRow(i))
		}
		npAUC, err := metric.AUC(np, test.Y)
		if err != nil {
			return err
		}
		for _, sr := range simRatios {
			name := SimName(k, sr)
			if _, ok := t.Cells[name]; !ok {
				continue
			}
			for _, algo := range t.Algos {
				c := t.Cells[name][algo]
				c.Runs = make([]Run, p.Runs)
				if algo == "np" {
					for r := range c.Runs {
						c.Runs[r] = Run{Split: fmt.Sprintf("run %d", r+1), AUC: npAUC}
					}
					continue
				}
				spec, err := solver.Lookup(algo)
				if err != nil {
					return err
				}
				params, err := gridParams(spec, grids[algo])
				if err != nil {
					return err
				}
				c.Grid = describeGrid(spec, grids[algo])
				for r := range p.Runs {
					seed := mix(cfg.Seed, uint64(k*1_000_000+r))
					rows, err := data.Subsample(simTrain, sr, mix(seed, 0x5e))
					if err != nil {
						return err
					}
					gen := func() *data.Dataset { return mix3.Sample(simTrain, seed) }
					s := &split{name: fmt.Sprintf("run %d", r+1), gen: gen, test: test, trainRows: rows, seed: seed}
					c.Runs[r] = Run{Split: s.name}
					jobs = append(jobs, &job{table: t.Title, dataset: name, algo: algo, split: s, spec: spec, params: params, out: &c.Runs[r]})
				}
			}
		}
	}
	var err error
	if rep.Workers, err = runJobs(ctx, p, cfg, b, jobs); err != nil {
		return err
	}
	t.summarise()
	return nil
}
