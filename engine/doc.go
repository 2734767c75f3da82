// Package engine is aucopt's AUC engine as a library. Its surface is small:
//
//   - Train fits a registered algorithm (solver.Names) on a file or a dataset name and
//     measures its test AUC; Grid does so over a hyper-parameter grid, CV over the
//     folds of a cross-validation;
//   - TrainResult.Model is the model file (engine/model) of a run, which model.Read
//     reads back;
//   - Predict scores data with a model, applying its training scaling exactly;
//   - Run is the one driver every entry point builds: Run(ctx, Problem, Settings,
//     Method), the data, what every method honours and the algorithm with its points;
//   - metric (Evaluate, AUC, ROC) measures scores against labels;
//   - package backends picks the compute backend (auto, cuda, avx2, generic), which a
//     configuration carries; autoBackend is automatic selection's choice per workload.
//
// # One path from data to score
//
// Every run, from the command line or the library, takes the same path:
//
//	CLI (cmd/aucopt)            flags → a config; --backend → kernels.Backend (backends.Select)
//	  → builders                Train: one point; Grid: the grid's points; CV: one run per
//	                            fold (jobs.Run); experiment: one run per split and algorithm
//	  → Run(Problem, Settings,  Method.check (what the method cannot take, once) →
//	        Method)             scale (data.Scaling) → select (Selection: hold-out or k folds;
//	                            shared-prefix folds and one Multi per fold online, GridFitter
//	                            for batch grids) → refit (solver.Run, or Fit) → score (ScoreAUC)
//	  → solver                  the algorithm: solver.Online, Batch, Multi
//	  → kernels                 the backend every solver is written against (fallback, asm, cuda)
//
// A Method's points are solver.Params (made by solver.Spec.Params); with one point there
// is no selection. One rule holds for failed points in every search: a point that diverges
// or whose validation AUC is NaN is marked failed with its reason and the search goes
// on; only when all fail is it an error (wrapping solver.ErrDiverged). Parallel jobs (CV
// folds, experiment cells) run on jobs.Run with one worker policy (jobs.Workers), each job on
// its own view of the backend (kernels.PerJob). Selection folds are seeded by the
// method's selection seed — the run's seed in train, cv and experiments alike — so the
// three choose the same point on the same data.
//
// Configurations carry a kernels.Backend value, the caller's to close; nil means the
// default selection ($AUCOPT_BACKEND, else auto), opened and closed by the run.
//
// # Backends are linked by the program
//
// The engine imports no backend implementation (fallback, asm, cuda), directly or not:
// it selects through package backends, where the implementations register themselves.
// A program that trains links them, usually all at once:
//
//	import _ "github.com/aucopt/aucopt/backends/all"
//
// Without it the default selection fails with backends.ErrNone, whose message names
// that import. Everything below the engine is written against kernels.Backend.
//
// # Errors
//
// Errors of the caller's input match fault.ErrInput and failures of the run
// fault.ErrRuntime (package engine/fault, whose IsInput is the commands' exit-status
// rule). Errors name settings by their Go names (TrainConfig's fields: "OutOfCore
// reads a data file"); a command renders them as its flags (fault.Render).
package engine
