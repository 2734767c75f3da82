package solver

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
)

// Sample and class weights (docs/ALGORITHMS.md, "Weights").
//
// A training set's sample weights are data.Dataset.W (one a row, finite and ≥ 0). A
// learner whose objective takes them fits the weighted objective: a pointwise loss
// term of row i is multiplied by w_i, a pair (i, j) of a pairwise loss by w_i·w_j, so
// that an integer weight k is the row repeated k times. Rows that all weigh 1 give the
// unweighted fit bit for bit. Class weights are unilog's own hyper-parameter
// class-weight (its objective normalises each class; see UniLogParams): on a pairwise
// objective every pair has one positive and one negative row, so class weights P and N
// would multiply every pair by the same P·N, which only rescales the loss against the
// regulariser (λ does that): the pairwise learners refuse them.

// ErrWeights is wrapped by the error of a learner given weights its objective does not
// take.
var ErrWeights = errors.New("weights not taken")

// ClassWeightKey is the hyper-parameter that sets the class weights of the learners
// that take them (TakesClassWeights).
const ClassWeightKey = "class-weight"

// ClassWeightBalanced is the class weighting n/(2·n_c) of each class c (n_c its rows'
// summed sample weights, n both classes').
const ClassWeightBalanced = "balanced"

// TakesSampleWeights reports whether the learner of algorithm name at params fits
// sample weights exactly (the weighted objective, not an approximation), and when not,
// why, in one line without option names. params may be the zero Params for the
// algorithm's defaults.
func TakesSampleWeights(name string, params Params) (bool, string) {
	switch name {
	case "unilog", "ls-auc", "svm-or":
		return true, ""
	case "mba-l2", "mba-l1", "mba-el":
		// pairs auto is every pair on at most B·T rows: the fit refuses weights on more.
		if p, ok := params.ptr.(*MBAParams); !ok || p.Pairs == MBAPairsSampled {
			return false, fmt.Sprintf("%s takes sample weights only with every pair (pairs %s): sampled pairs are drawn unweighted", name, MBAPairsAll)
		}
		return true, ""
	}
	return false, name + " takes no sample weights: only unilog, ls-auc, svm-or and mba-* with every pair fit the weighted objective exactly"
}

// TakesClassWeights reports whether algorithm name has class weights (its
// ClassWeightKey parameter), and when not, why, in one line.
func TakesClassWeights(name string) (bool, string) {
	if name == "unilog" {
		return true, ""
	}
	if pairwise(name) {
		return false, name + " has a pairwise objective: class weights P and N would multiply every pair by P·N, only rescaling the loss against the regulariser (set lambda instead)"
	}
	return false, name + " takes no class weights: only unilog does"
}

// pairwise reports whether name's objective is over positive-negative pairs (every
// algorithm but the univariate baselines).
func pairwise(name string) bool {
	switch name {
	case "unilog", "olr", "ftrl", "uniexp":
		return false
	}
	return true
}

// WeightsDoc is the line the help of algorithm name gives about weights.
func WeightsDoc(name string) string {
	cw, _ := TakesClassWeights(name)
	switch name {
	case "unilog":
		return "weights: sample weights; class weights (class-weight, default balanced)"
	case "ls-auc", "svm-or":
		return "weights: sample weights; no class weights (pairwise)"
	case "mba-l2", "mba-l1", "mba-el":
		return "weights: sample weights with every pair (pairs all, or auto on at most B·T rows); no class weights (pairwise)"
	}
	if !cw && pairwise(name) {
		return "weights: none (sample weights not implemented; class weights only rescale a pairwise loss)"
	}
	return "weights: none"
}

// checkSampleWeights returns an error wrapping ErrWeights when ds has weights other
// than all ones and learner name at params does not take them.
func checkSampleWeights(name string, params Params, ds *data.Dataset) error {
	if ds.UnitWeights() {
		return nil
	}
	if ok, why := TakesSampleWeights(name, params); !ok {
		return fmt.Errorf("%w: %s", ErrWeights, why)
	}
	return nil
}

// sampleWeights is ds's sample weights, nil when every row weighs 1 (the unweighted
// code path, bit for bit).
func sampleWeights(ds *data.Dataset) []float64 {
	if ds.UnitWeights() {
		return nil
	}
	return ds.W
}

// ParseClassWeight parses a class weighting: "balanced" (ClassWeightBalanced; "" is
// taken as balanced too), or "P:N", the positive and the negative class's weights,
// finite and > 0. It returns ok false for balanced.
func ParseClassWeight(s string) (pos, neg float64, ok bool, err error) {
	if s == ClassWeightBalanced || s == "" {
		return 0, 0, false, nil
	}
	ps, ns, found := strings.Cut(s, ":")
	if !found {
		return 0, 0, false, fmt.Errorf("%w: %s=%q: want balanced or P:N (the positive and the negative class's weights, e.g. 1:5)", ErrParam, ClassWeightKey, s)
	}
	parse := func(t string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%w: %s=%q: class weight %q is not a finite number > 0", ErrParam, ClassWeightKey, s, t)
		}
		return v, nil
	}
	if pos, err = parse(ps); err != nil {
		return 0, 0, false, err
	}
	if neg, err = parse(ns); err != nil {
		return 0, 0, false, err
	}
	return pos, neg, true, nil
}
