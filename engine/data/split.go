package data

import (
	"fmt"
	"math/rand/v2"
)

// Fold is one train/test partition of a dataset's rows, as row indices.
type Fold struct {
	Train, Test []int
}

// newRand returns the generator all splits draw from: PCG seeded by seed and a
// per-purpose stream, so that different kinds of split with one seed are independent.
func newRand(seed, stream uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, stream)) }

// StratifiedKFold splits the rows of y into k folds, each with (to within one row) the
// same share of positives as the whole, after a seeded shuffle. Fold i's Test is the
// i-th part and its Train the other k−1 parts; index lists are in increasing order.
// It returns an error when k < 2 or a class has fewer than k rows.
func StratifiedKFold(y []int8, k int, seed uint64) ([]Fold, error) {
	part, err := StratifiedKFoldParts(y, k, seed)
	if err != nil {
		return nil, err
	}
	folds := make([]Fold, k)
	for i, p := range part {
		for f := range folds {
			if f == p {
				folds[f].Test = append(folds[f].Test, i)
			} else {
				folds[f].Train = append(folds[f].Train, i)
			}
		}
	}
	return folds, nil
}

// StratifiedKFoldParts is StratifiedKFold's assignment of the rows to folds: part[i] is
// the fold whose Test holds row i. One int a row, where StratifiedKFold's index lists
// hold k.
func StratifiedKFoldParts(y []int8, k int, seed uint64) ([]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("k-fold: k = %d, want at least 2", k)
	}
	var pos, neg []int
	for i, v := range y {
		if v == 1 {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	if len(pos) < k || len(neg) < k {
		return nil, fmt.Errorf("k-fold: %d positives and %d negatives cannot fill %d stratified folds", len(pos), len(neg), k)
	}
	r := newRand(seed, 0x6b666f6c64) // "kfold"
	part := make([]int, len(y))      // part[i] is the fold row i is tested in
	deal := func(rows []int, offset int) {
		r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		for n, i := range rows {
			part[i] = (n + offset) % k
		}
	}
	deal(pos, 0)
	deal(neg, len(pos)) // continue round-robin so fold sizes differ by at most one
	return part, nil
}

// RepeatedKFold returns trials × k stratified folds (the papers' 5 × 5 protocol): trial
// t uses seed+t, so each trial is itself reproducible.
func RepeatedKFold(y []int8, k, trials int, seed uint64) ([][]Fold, error) {
	out := make([][]Fold, trials)
	for t := range out {
		f, err := StratifiedKFold(y, k, seed+uint64(t))
		if err != nil {
			return nil, err
		}
		out[t] = f
	}
	return out, nil
}

// TrainTestSplit splits the rows of y into a stratified training part of the given
// fraction (0 < frac < 1) and a test part of the rest, both in increasing order.
func TrainTestSplit(y []int8, frac float64, seed uint64) (Fold, error) {
	if !(frac > 0 && frac < 1) {
		return Fold{}, fmt.Errorf("train/test split: fraction %v, want 0 < f < 1", frac)
	}
	r := newRand(seed, 0x7473706c6974) // "tsplit"
	inTrain := make([]bool, len(y))
	for _, cls := range []int8{1, -1} {
		var rows []int
		for i, v := range y {
			if v == cls {
				rows = append(rows, i)
			}
		}
		r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		n := int(frac*float64(len(rows)) + 0.5)
		for _, i := range rows[:n] {
			inTrain[i] = true
		}
	}
	var f Fold
	for i, in := range inTrain {
		if in {
			f.Train = append(f.Train, i)
		} else {
			f.Test = append(f.Test, i)
		}
	}
	if len(f.Train) == 0 || len(f.Test) == 0 {
		return Fold{}, fmt.Errorf("train/test split of %d rows at %v leaves a part empty", len(y), frac)
	}
	return f, nil
}

// Subsample returns a random subset of p·n of the rows 0..n−1 (0 < p ≤ 1), drawn
// without replacement and returned in increasing order: the papers' "random 80%" and
// MBA's sampling rates.
func Subsample(n int, p float64, seed uint64) ([]int, error) {
	if !(p > 0 && p <= 1) {
		return nil, fmt.Errorf("subsample: fraction %v, want 0 < p ≤ 1", p)
	}
	r := newRand(seed, 0x737562) // "sub"
	m := int(p*float64(n) + 0.5)
	perm := r.Perm(n)[:m]
	keep := make([]bool, n)
	for _, i := range perm {
		keep[i] = true
	}
	out := make([]int, 0, m)
	for i, k := range keep {
		if k {
			out = append(out, i)
		}
	}
	return out, nil
}

// Shuffle returns a seeded permutation of 0..n−1: the order in which a shuffled pass
// visits the rows.
func Shuffle(n int, seed uint64) []int {
	return newRand(seed, 0x73687566). /* "shuf" */ Perm(n)
}

// SubSeed derives the i-th independent seed from seed (SplitMix64's finaliser), so that
// the parts of one seeded run (folds, trials, blocks) get unrelated random streams.
func SubSeed(seed, i uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(i+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
