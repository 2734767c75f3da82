// Package model reads, writes and applies aucopt's model files: a linear scorer's
// weights with the feature scaling fitted on its training data (and the quantile bins
// that expand the scaled rows, for a model trained with bins), the hyper-parameters,
// and a fingerprint of the training data, in JSON (format version 1; see Model).
//
// A model is applied by Score, which reproduces the training scaling and bins exactly,
// so that the scores of a test set equal those the training run measured its test AUC
// on.
package model
