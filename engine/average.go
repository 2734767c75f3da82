package engine

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/jobs"
	"github.com/aucopt/aucopt/kernels"
)

// Parameter averaging (TrainConfig.Average): k independent runs of a one-pass
// learner, one per contiguous shard of the training rows (in the seeded shuffled order
// when shuffling), run in parallel, and their weights averaged — what k machines that
// each see one shard can do with no communication but the final average. It trades
// AUC for wall time; README "Scaling out" gives the measured loss.

// fitAveraged trains k learners of the online spec on k shards of train and returns
// the mean of their weights. Learner s gets seed data.SubSeed(set.Seed, s) and its shard in
// its own order; the result does not depend on how many run at once.
func fitAveraged(ctx context.Context, spec solver.Spec, b kernels.Backend, params solver.Params, train *data.Dataset, set Settings, dim, k int) ([]float64, error) {
	n := train.Rows()
	if k > n {
		return nil, fault.Settingf("{Average} %d: more shards than the %d training rows", k, n)
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if set.Shuffle {
		order = data.Shuffle(n, set.Seed)
	}
	ws := make([][]float64, k)
	errs := make([]error, k)
	parallel := k
	if !jobs.ConcurrentSafe(b) {
		parallel = 1
	}
	sem := make(chan struct{}, max(1, min(parallel, runtime.GOMAXPROCS(0))))
	var wg sync.WaitGroup
	for s := range k {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			jb, release := kernels.PerJob(b, min(parallel, runtime.GOMAXPROCS(0)))
			defer release()
			shard := train.Subset(order[s*n/k : (s+1)*n/k])
			learner, err := spec.NewOnline(jb, dim, params, data.SubSeed(set.Seed, uint64(s)))
			if err != nil {
				errs[s] = err
				return
			}
			src := solver.DatasetSource{D: shard, Shuffle: set.Shuffle, Seed: data.SubSeed(set.Seed, uint64(s))}
			if _, err := solver.Run(ctx, learner, src, solver.RunOptions{Passes: set.Passes, Algo: spec.Name, Dim: dim}); err != nil {
				errs[s] = fmt.Errorf("shard %d of %d: %w", s+1, k, err)
				return
			}
			ws[s] = learner.Weights()
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	avg := make([]float64, dim)
	for _, w := range ws {
		for j, v := range w {
			avg[j] += v / float64(k)
		}
	}
	return avg, nil
}
