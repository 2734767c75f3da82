// Package stats holds the per-class moments every square-loss AUC method shares (count,
// mean and scatter, accumulated on a kernels.Backend and mergeable exactly across
// shards) and the exact square-loss oracle of docs/ALGORITHMS.md, "ORACLE": the minimiser of
//
//	L(w) = 1/(2 n₊ n₋) Σ_{i∈+} Σ_{j∈−} (1 − w·(x_i − x_j))² + (λ/2)‖w‖²
//	     = ½ [1 − 2 w·δ + wᵀ(S₊ + S₋ + δδᵀ)w] + (λ/2)‖w‖²
//
// with δ = m₊ − m₋ and S± the biased class covariances, which solves
//
//	(S₊ + S₋ + δδᵀ + λI) w* = δ
//
// from one pass over the data and never the n₊·n₋ pairs.
package stats
