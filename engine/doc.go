// Package engine is aucopt's AUC engine as a library: backend selection today, and the
// Train, Predict, AUC, ROC and CV surface as the solver packages land.
//
// engine is the only package that imports the backend implementations (fallback, asm,
// cuda); everything below it is written against kernels.Backend.
package engine
