package engine

import (
	"fmt"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
)

// classWeightParams returns params (spec's, made by spec.ParamsWith) with
// cfg.ClassWeight set as the algorithm's class-weight parameter, or an input error when
// spec takes no class weights or the parameter is also set.
func (cfg TrainConfig) classWeightParams(spec solver.Spec, params solver.Params) (solver.Params, error) {
	if cfg.ClassWeight == "" {
		return params, nil
	}
	if ok, why := solver.TakesClassWeights(spec.Name); !ok {
		return solver.Params{}, inputErrorf("class weights %s: %s", cfg.ClassWeight, why)
	}
	if params.IsSet(solver.ClassWeightKey) {
		return solver.Params{}, inputErrorf("class weights given twice: %s and the parameter %s=%v", cfg.ClassWeight, solver.ClassWeightKey, params.Values()[solver.ClassWeightKey])
	}
	params = params.Clone()
	if err := params.Set(solver.ClassWeightKey, cfg.ClassWeight); err != nil {
		return solver.Params{}, inputError{err}
	}
	return params, nil
}

// checkWeights refuses sample weights (a weight file, or an in-memory Dataset's W other
// than all ones) for an algorithm at params that does not take them, and with the
// settings that stream the rows or do not train one learner on them.
func (cfg TrainConfig) checkWeights(spec solver.Spec, params solver.Params) error {
	column := cfg.Table != nil && cfg.Table.Weight != ""
	weighted := cfg.Weights != "" || column || cfg.Dataset != nil && !cfg.Dataset.UnitWeights()
	if !weighted {
		return nil
	}
	if cfg.Weights != "" && column {
		return inputErrorf("sample weights given twice: a weight file (%s) and a weight column (%s)", cfg.Weights, cfg.Table.Weight)
	}
	if cfg.Weights != "" && cfg.Dataset != nil {
		return inputErrorf("%s: sample weights given twice: a weight file (%s) and a dataset in memory (set its weights: Dataset.SetWeights)", cfg.Dataset.Name, cfg.Weights)
	}
	if ok, why := solver.TakesSampleWeights(spec.Name, params); !ok {
		return inputErrorf("sample weights: %s", why)
	}
	if cfg.OutOfCore {
		return inputErrorf("sample weights need the training rows in memory: out-of-core training does not take them")
	}
	return nil
}

// attachWeights returns train with cfg.Weights' sample weights (a copy of the Dataset's
// header: the rows are shared, and a caller's Dataset is not written), and notes the
// weights in res; train itself without a weight file.
func (cfg TrainConfig) attachWeights(train *data.Dataset, res *TrainResult) (*data.Dataset, error) {
	if cfg.Weights == "" {
		switch {
		case cfg.Table != nil && cfg.Table.Weight != "":
			res.Notes = append(res.Notes, weightsNote(fmt.Sprintf("column %q", cfg.Table.Weight), train))
		case !train.UnitWeights():
			res.Notes = append(res.Notes, weightsNote("the dataset's own", train))
		}
		return train, nil
	}
	w, err := data.ReadWeights(cfg.Weights, train.Rows())
	if err != nil {
		return nil, inputError{err}
	}
	out := *train
	if err := out.SetWeights(w); err != nil {
		return nil, inputError{err}
	}
	res.Notes = append(res.Notes, weightsNote(cfg.Weights, &out))
	return &out, nil
}

// weightsNote says which sample weights a run trained with.
func weightsNote(source string, d *data.Dataset) string {
	pos, neg := d.WeightSums()
	zero := 0
	for _, v := range d.W {
		if v == 0 {
			zero++
		}
	}
	return fmt.Sprintf("sample weights: %s, %d rows (positives' sum %.6g, negatives' %.6g, %d of weight 0)", source, d.Rows(), pos, neg, zero)
}

// onlyTrainWeights refuses sample and class weights for a run other than Train's (a
// grid search, cross-validation, auto, a trace), which do not take them yet: what
// names the run in the error.
func (cfg TrainConfig) onlyTrainWeights(what string) error {
	if cfg.Weights != "" || cfg.ClassWeight != "" || cfg.Table != nil && cfg.Table.Weight != "" || cfg.Dataset != nil && !cfg.Dataset.UnitWeights() {
		return inputErrorf("%s takes no sample or class weights yet: train one algorithm and parameter setting with them", what)
	}
	return nil
}
