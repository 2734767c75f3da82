package engine

import (
	"context"
	"fmt"
	"math"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// Scaling without a second copy of the training matrix (issue 40). The scaled rows a
// learner reads are made in one of three ways:
//
//   - folded into the class moments (momentsFit): a learner that fits from the class
//     moments alone (solver.MomentsFit: ls-auc up to solver.LSAUCDirectMax features with
//     steps=0, mba-* with pairs=all) under an affine per-feature scaling (minmax, auto
//     resolved to it, none) accumulates the moments of the rows as read and maps them
//     (stats.Moments.Affine: the mean by the map, the scatter by its scales). The rows
//     are never written, so this serves a caller's arrays and a mapped cache as well.
//   - in place (data.Scaling.ApplyInPlace), when the run owns a dense matrix (Problem.Owned:
//     read from a file, not a caller's Dataset);
//   - a scaled copy otherwise (a caller's rows, a sparse matrix).
//
// The first gives the weights of the scaled copy to rounding (the moments' map is
// exact in exact arithmetic; on the sets of the tests, to 1e-13 relative), the second
// bit for bit; the model's Scaling is FitScaling's either way, and the data-scaled
// defaults see the copy's facts bit for bit (data.Scaler.AppliedStats).

// momentsFit fits Run's one point on train's rows order (nil: all, as stored; Shuffle's
// permutation, or a subset of the rows) from their class moments mapped by the
// scaling, when that is the fit the scaled rows would get: one point, no bins, a batch
// learner that fits from the moments on rows of the scaled copy's shape
// (solver.MomentsFit), a scaling that is none or min-max. It then fills res as
// prepareTask and fit would (Scale, Scaling, Best, the defaults' note, Weights) and
// reports true; false leaves res alone and nothing fitted. With scaling none and all
// the rows, there is no copy to spare, and it reports false.
func momentsFit(ctx context.Context, b kernels.Backend, t *task, train *data.Dataset, order []int, subset bool, res *GridResult) (bool, error) {
	spec := t.Spec
	if len(t.Points) != 1 || t.Bins != 0 || !spec.IsBatch() || t.Average > 1 || train.Rows() == 0 || res.width() != train.Dim {
		return false, nil
	}
	kind, err := data.ResolveScale(t.Scale, train.Dim, spec.UnitRows)
	if err != nil || (kind != data.ScaleMinMax && kind != data.ScaleNone) || (kind == data.ScaleNone && !subset) {
		return false, nil // the copy path reports a bad kind
	}
	if l, err := spec.NewBatch(b, max(train.Dim, 1), t.Points[0], t.Seed); err != nil {
		return false, nil
	} else if ml, ok := l.(solver.MomentsLearner); !ok || !ml.MomentsOnly() {
		return false, nil // cheap refusal before a pass over the rows
	}
	n := train.Rows()
	if order != nil {
		n = len(order)
	}
	pos := 0
	for r := range n {
		i := r
		if order != nil {
			i = order[r]
		}
		switch train.Y[i] {
		case 1:
			pos++
		case -1:
		default:
			return false, nil // the learner's fit says what is wrong
		}
	}
	if pos == 0 || pos == n {
		return false, nil
	}
	s := &data.Scaling{Kind: kind}
	facts := solver.DataFacts{Rows: n, Features: train.Dim, Positives: pos}
	shape := solver.Shape{Rows: n, Dim: train.Dim, Dense: train.IsDense()}
	var sq float64
	if kind == data.ScaleMinMax {
		if s.MinMax, err = data.FitMinMaxRows(train, order, -1, 1); err != nil {
			return false, nil
		}
		sq, shape.Nnz = s.MinMax.AppliedStats(train, order)
	} else {
		sq, shape.Nnz = data.SqNormStats(train, order)
	}
	facts.MeanSqNorm = sq / float64(n)
	facts.Passes = t.Passes
	point, note := t.Points[0], ""
	if t.DataDefaults && spec.Defaults != nil {
		if point, note, err = dataParams(spec, facts, t.Points[0]); err != nil {
			return false, err
		}
	}
	l, err := spec.NewBatch(b, res.width(), point, t.Seed)
	if err != nil {
		return false, nil
	}
	ml, ok := solver.MomentsFit(l, shape)
	if !ok {
		return false, nil
	}
	p, ng, err := solver.ClassMoments(ctx, b, train, order, res.width())
	if err != nil {
		return false, err
	}
	if s.MinMax != nil {
		p.Affine(s.MinMax.Scale, s.MinMax.Shift)
		ng.Affine(s.MinMax.Scale, s.MinMax.Shift)
	}
	if err := ml.FitMoments(ctx, p, ng); err != nil {
		return false, err
	}
	t.Points = []solver.Params{point}
	res.Scale, res.Scaling, res.Best = s.Kind, s, 0
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	res.Weights = ml.Weights()
	return true, nil
}

// scoreRows is Score(w, res.asTrained(ds.Subset(rows))) without the copies, bit for bit
// (rows nil: all of ds's): each row scaled by res.Scaling into scratch and scored. ds is
// the training data as read (res.Features features); with bins (res.Binned) it takes
// the copies.
func scoreRows(res *TrainResult, w []float64, ds *data.Dataset, rows []int) []float64 {
	if rows == nil {
		rows = make([]int, ds.Rows())
		for i := range rows {
			rows[i] = i
		}
	}
	if res.Binned != nil || ds.Dim != res.Features {
		return Score(w, res.asTrained(ds.Subset(rows)))
	}
	mapRow := func(x kernels.Sparse, _ int, _ []float64, _ kernels.Sparse) kernels.Sparse { return x }
	if res.Scaling != nil {
		mapRow = res.Scaling.RowMapper()
	}
	dense := make([]float64, ds.Dim)
	var buf kernels.Sparse
	scores := make([]float64, len(rows))
	for k, i := range rows {
		buf = mapRow(ds.Row(i), ds.Dim, dense, buf)
		var s float64
		for q, j := range buf.Idx {
			if int(j) < len(w) {
				s += w[j] * buf.Val[q]
			}
		}
		scores[k] = s
	}
	return scores
}

// rowsDensity is ds.Subset(rows).Density() without the copy.
func rowsDensity(ds *data.Dataset, rows []int) float64 {
	if len(rows) == 0 || ds.Dim == 0 {
		return 0
	}
	if ds.IsDense() {
		return 1
	}
	var nnz int64
	for _, i := range rows {
		nnz += ds.Ptr[i+1] - ds.Ptr[i]
	}
	return float64(nnz) / (float64(len(rows)) * float64(ds.Dim))
}

// crossFit fits the calibration cfg.CalibrateFolds-fold cross-fitted
// (TrainConfig.CalibrateFolds): p, s and m are the final fit's run on all the training
// rows (p.Train as read), each fold's fit the same run on the other folds' rows (named:
// Problem.Rows), none of them written (not owned); its rows are scored where they lie
// (scoreRows), scaled by the fold fit's own scaling.
//
// An AUC learner's score has no intercept and no fixed scale (AUC does not change
// when every score is shifted or stretched): the offset w·shift that min-max scaling
// leaves differs from fit to fit, by more than the scores' spread for SGD learners
// (spam-l2 on a9a: fold means from −0.19 to 1.82). Each fold's out-of-fold scores are
// therefore standardised by the mean and standard deviation of that fold model's
// scores over all the training rows, the map is fitted on the pooled standardised
// scores, and finish carries it to the final model's scores by its own mean and
// deviation over the same rows.
func crossFit(ctx context.Context, p Problem, s Settings, m Method, cfg TrainConfig, res *TrainResult) (*crossFitted, error) {
	train := p.Train
	if train == nil {
		return nil, inputErrorf("cross-fitted calibration needs the training rows in memory")
	}
	k := cfg.CalibrateFolds
	// The folds of data.StratifiedKFold, each made when its turn comes.
	part, err := data.StratifiedKFoldParts(train.Y, k, data.SubSeed(cfg.Seed, 0x6366))
	if err != nil {
		return nil, inputErrorf("calibration folds of %s: %w", cfg.dataName(), err)
	}
	z := make([]float64, train.Rows())
	for fi := range k {
		var f data.Fold
		for i, p := range part {
			if p == fi {
				f.Test = append(f.Test, i)
			}
		}
		f.Train = make([]int, 0, len(part)-len(f.Test))
		for i, p := range part {
			if p != fi {
				f.Train = append(f.Train, i)
			}
		}
		fp := p
		fp.Rows, fp.Owned, fp.Test, fp.TestLater = f.Train, false, nil, nil
		fp.Info = &TrainResult{Algo: res.Algo, Data: res.Data, TrainRows: len(f.Train), Features: res.Features, Passes: res.Passes,
			TestAUC: math.NaN(), Seed: res.Seed, Backend: res.Backend, density: rowsDensity(train, f.Train)}
		fs := s
		fs.Checkpoint, fs.Progress = "", nil
		if _, err = Run(ctx, fp, fs, m); err != nil {
			return nil, fmt.Errorf("calibration fold %d of %d: %w", fi+1, k, err)
		}
		all := scoreRows(fp.Info, fp.Info.Weights, train, nil)
		m, sd := meanStd(all)
		for _, i := range f.Test {
			z[i] = (all[i] - m) / sd
		}
	}
	c, err := model.Fit(cfg.Calibrate, z, train.Y)
	if err != nil {
		return nil, fmt.Errorf("calibration on the out-of-fold scores of %d training rows: %w", len(z), err)
	}
	c.Folds = k
	return &crossFitted{c: c, note: fmt.Sprintf("calibration: %s fitted on the out-of-fold scores of all %d training rows (%d stratified folds, seed %d, each scored by a fit on the others and standardised by that fit's scores of every row); the weights trained on every row",
		cfg.Calibrate, len(z), k, cfg.Seed)}, nil
}

// crossFitted is crossFit's map of standardised scores, for finish.
type crossFitted struct {
	c    *model.Calibration
	note string
}

// finish carries the map to the final model's scores (res.Weights on train, the rows
// as read): s ↦ map((s − mean)/sd) by the mean and deviation of its scores of every
// training row, which for Platt's sigmoid is A/sd and B − A·mean/sd and for the
// isotonic knots X·sd + mean; it sets res.Calibration and the note.
func (x *crossFitted) finish(res *TrainResult, train *data.Dataset) {
	m, sd := meanStd(scoreRows(res, res.Weights, train, nil))
	c := x.c
	switch c.Method {
	case model.CalibratePlatt:
		c.A, c.B = c.A/sd, c.B-c.A*m/sd
	default:
		for j := range c.X {
			c.X[j] = c.X[j]*sd + m
		}
	}
	res.Calibration = c
	res.Notes = append(res.Notes, x.note)
}

// meanStd is the mean and the (population) standard deviation of xs; a deviation of 0
// (every score the same) counts as 1.
func meanStd(xs []float64) (mean, sd float64) {
	for _, v := range xs {
		mean += v
	}
	mean /= float64(len(xs))
	for _, v := range xs {
		sd += (v - mean) * (v - mean)
	}
	sd = math.Sqrt(sd / float64(len(xs)))
	if !(sd > 0) {
		sd = 1
	}
	return mean, sd
}
