// Package solver holds aucopt's learners, one file per algorithm family, every one
// written against kernels.Backend and nothing else (no SIMD, no GPU code, no branch on
// the backend's name).
//
// Two shapes:
//
//   - Online learners see one example at a time (Observe) and keep memory independent
//     of the number of examples; the streaming driver (Run) feeds them from any
//     data.Stream or Dataset, for one or more passes.
//   - Batch learners (Fit) see the whole training set.
//
// Hyper-parameters are plain structs with documented defaults and the papers' grids;
// their fields carry `param:"key"` tags so that the CLI and the grid search set them
// through one key=value setter (Set).
package solver
