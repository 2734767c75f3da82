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
// What runs on the backend: every learner takes a kernels.Backend and does its dense
// linear algebra there — OPAUC's covariances (Symv, Syrk, Syr; Symm for a grid), MBA's
// Σ_S (one Syrk per round), SPDAM's resident X̄ (GemvRows), the moments and the oracle.
// The first-order learners on sparse rows touch only the nnz(x) coordinates of an
// example (about 14 on a9a). FSAUC, OLR, FTRL and Uni-Exp do so through the backend's
// sparse gather and scatter (DotSparse, AxpySparse). SPAM, SOLAM and ol-UBAUC update
// several vectors per coordinate and keep that state in plain host memory, updated in
// one fused O(nnz) loop per example: the fixed cost of separate backend calls (tens of
// ns each on a CPU, microseconds on a GPU) exceeded the work of a step, and there is no
// dense algebra to offload. They still take the Backend, for one constructor shape;
// no learner branches on which backend it got.
//
// Hyper-parameters are plain structs with documented defaults and the papers' grids;
// their fields carry `param:"key"` tags. A Spec hands them out as Params, one typed
// value through which the CLI and the grid search set them from key=value text (Set,
// SetAll), list them (Keys, Values, String) and copy them (Clone).
package solver
