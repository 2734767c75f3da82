// Package engine is aucopt's AUC engine as a library. Its surface is small:
//
//   - Train fits a registered algorithm (solver.Names) on a file or a dataset name and
//     measures its test AUC; Grid does so over a hyper-parameter grid;
//   - TrainResult.Model is the model file (engine/model) of a run, which model.Read
//     reads back;
//   - Predict scores data with a model, applying its training scaling exactly;
//   - AUC, ROC and Evaluate measure scores against labels;
//   - Backend picks the compute backend (auto, cuda, avx2, generic).
//
// engine is the only package that imports the backend implementations (fallback, asm,
// cuda); everything below it is written against kernels.Backend.
package engine
