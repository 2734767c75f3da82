package engine

import (
	"context"
	"fmt"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// onlineFolds trains an online algorithm's grid for a cross-validation: for each fold k
// of folds, one solver.Multi over params trained on the other folds' rows of train,
// fed fold by fold in increasing order (fold j's rows in a random order seeded by
// data.SubSeed(seed, j), or in their order when shuffle is false), which it hands to
// done(k, m, val) with the fold's rows val. The models share their prefixes (solver.LeaveOneOut):
// 14 fold passes instead of 20 for 5 folds. A point for which out(g) reports true
// (one that failed on a finished fold, so that the search can no longer choose it) is
// dropped from the folds still to train. workers is the Multi's goroutines for
// independent learners.
func onlineFolds(ctx context.Context, spec solver.Spec, b kernels.Backend, train *data.Dataset, folds []data.Fold,
	params []solver.Params, seed uint64, shuffle bool, workers int,
	done func(k int, m solver.Multi, val *data.Dataset) error, out func(g int) bool) error {
	blocks := make([]*data.Dataset, len(folds))
	pos, neg := make([]int, len(folds)), make([]int, len(folds))
	var allPos, allNeg int
	for j, f := range folds {
		rows := f.Test
		if shuffle {
			perm := data.Shuffle(len(rows), data.SubSeed(seed, uint64(j)))
			rows = make([]int, len(perm))
			for i, p := range perm {
				rows[i] = f.Test[p]
			}
		}
		blocks[j] = train.Subset(rows)
		pos[j], neg[j] = blocks[j].Counts()
		allPos, allNeg = allPos+pos[j], allNeg+neg[j]
	}
	for k := range folds { // fold k trains on the other folds' rows
		if allPos == pos[k] || allNeg == neg[k] {
			return fmt.Errorf("fold %d: %w", k+1, solver.ErrOneClass)
		}
	}
	fresh := func() (solver.Multi, error) { return solver.NewMulti(spec, b, train.Dim, params, seed, workers) }
	feed := func(m solver.Multi, j int) error { return observe(ctx, m, blocks[j], nil) }
	return solver.LeaveOneOut(len(folds), fresh, feed, func(k int, m solver.Multi) error {
		return done(k, m, blocks[k])
	}, func(m solver.Multi) {
		if d, ok := m.(solver.Dropper); ok && out != nil {
			for g := range params {
				if out(g) {
					d.Drop(g)
				}
			}
		}
	})
}
