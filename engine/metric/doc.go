// Package metric computes the area under the ROC curve exactly, the ROC curve itself, and
// the summary statistics of the papers' tables: mean ± standard deviation and the paired
// t-test behind their win/tie/loss marks.
//
// AUC counts tied scores as half a correctly ordered pair (the Wilcoxon–Mann–Whitney
// statistic) and runs in O(n log n). The trapezoidal area under ROC's points equals it
// exactly, ties included, because both are computed from the same integer pair counts.
package metric
