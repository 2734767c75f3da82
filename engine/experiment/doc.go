// Package experiment reproduces the source papers' experiments: their protocols (scaling,
// class grouping, repeated k-fold or given splits, inner hyper-parameter selection on
// the papers' grids, the reference algorithm of each table), a runner that trains
// every algorithm on every split with folds in parallel, and tables in the papers'
// shape — mean ± std per dataset and algorithm, •/○ marks from paired t-tests at 95%
// against the reference, win/tie/loss rows — beside the numbers the papers published
// (published.tsv, embedded), in Markdown and JSON. Why a cell falls below the paper is
// data kept beside the results (Explanations, from bench/results/explain.tsv), set on a
// report with Report.Explain.
//
// References:
//   - OPAUC: Gao, Jin, Zhu, Zhou. One-pass AUC optimization. ICML 2013, Tables 2 and 4.
//   - UBAUC: Lyu, Ying. A univariate bound of area under ROC. UAI 2018, Table 2.
//   - MBA: Gultekin, Saha, Ratnaparkhi, Paisley. MBA: mini-batch AUC optimization.
//     IEEE TNNLS 2020, Tables II and III.
//   - Thesis: Natole. Stochastic AUC optimization algorithms (regSOLAM, SPAM, SPDAM).
//     Tables 3.2, 4.2, 5.2 and 6.3.
package experiment
