package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
)

// AlgoAuto is the algorithm name that asks for Auto (aucopt train --algo auto).
const AlgoAuto = "auto"

// DefaultAutoBudget is Auto's budget when AutoConfig.Budget is 0 (and the command
// line's default --budget).
const DefaultAutoBudget = 10 * time.Second

// AutoConfig is an automatic choice of algorithm and hyper-parameters under a time
// budget (Auto).
type AutoConfig struct {
	// TrainConfig names the data, test data, scaling, seed, shuffling and backend; Algo
	// must be "" or AlgoAuto and Params empty (Auto chooses them), and the settings of
	// one algorithm (Checkpoint, OutOfCore, Average, Passes > 1) are refused.
	TrainConfig
	// Budget bounds the wall-clock time of the search from the end of loading, the
	// trials, the candidates' grid searches and their refits included (see Auto); 0
	// means DefaultAutoBudget, a negative one is an input error.
	Budget time.Duration
	// Folds and Holdout choose each candidate's best point and the winner as in
	// GridConfig: Folds ≥ 2 inner stratified folds, else a stratified held-out share
	// Holdout of the training rows. When both are 0, data of at most autoSmallRows
	// rows is chosen by 5 folds (a 20% hold-out of a few hundred rows is too noisy to
	// rank 40 points by), larger data by a 20% hold-out.
	Folds   int
	Holdout float64
	// Started, when set, is called as a candidate's grid search starts, with its entry
	// (its estimate) and the time left of the budget; Done after each candidate that
	// ran, failed or was skipped, with its leaderboard entry.
	Started func(e AutoEntry, left time.Duration)
	Done    func(e AutoEntry, left time.Duration)

	// train and test, when train is set, are the data already in memory (AutoCV's
	// folds): Data and Test then only name them.
	train, test *data.Dataset
}

// AutoEntry is one candidate of Auto's portfolio: an algorithm and its grid.
type AutoEntry struct {
	Algo string `json:"algo"`
	Grid string `json:"grid"`
	// Params is the best grid point's parameters (nil when the candidate did not run).
	Params map[string]any `json:"params,omitempty"`
	// ValAUC is the best point's validation AUC; nil when the candidate did not run or
	// failed.
	ValAUC *float64 `json:"val_auc"`
	// Estimate is the candidate's estimated time (grid search and refit) in seconds on
	// the training rows, measured: its trial's time (TrialSeconds, its grid on a sample
	// of TrialRows rows) scaled by its cost's shape from the sample to all rows; what
	// the budget admits by (0 when it had no trial).
	Estimate     float64 `json:"estimated_seconds"`
	TrialRows    int     `json:"trial_rows,omitempty"`
	TrialSeconds float64 `json:"trial_seconds"`
	// Seconds is the candidate's measured time on the training rows, grid search and
	// refit (0 when it did not run).
	Seconds float64 `json:"seconds"`
	// Skipped says why the candidate did not run; Failed why it gave no AUC, and
	// Stopped that the budget's deadline cut it ("stopped at the budget").
	Skipped string `json:"skipped,omitempty"`
	Failed  string `json:"failed,omitempty"`
	Stopped bool   `json:"stopped_at_budget,omitempty"`
	// FittedRows, when not 0, says the candidate's model was chosen and fitted on a
	// sample of that many training rows, its trial's (the reference's fallback when the
	// budget holds no fit on all rows).
	FittedRows int `json:"fitted_rows,omitempty"`
	// Bins is the candidate's quantile bins per feature (TrainConfig.Bins; 0: none).
	Bins int `json:"bins,omitempty"`
}

// Name is the candidate's name on the leaderboard: its algorithm, and its bins.
func (e AutoEntry) Name() string {
	if e.Bins != 0 {
		return fmt.Sprintf("%s+bins%d", e.Algo, e.Bins)
	}
	return e.Algo
}

// AutoResult is Auto's outcome: the winner refitted on the whole training set (the
// embedded TrainResult, with the winner's algorithm and parameters) and the
// leaderboard of every candidate.
type AutoResult struct {
	*TrainResult
	// Leaderboard lists the winner, then the other candidates that ran by validation
	// AUC (best first; ties in portfolio order), then those that failed or were
	// skipped.
	Leaderboard []AutoEntry `json:"leaderboard"`
	Selection   string      `json:"selection"` // how the points and the winner were chosen
	// Tolerance is the difference of validation AUCs within which the winner is the
	// first candidate in portfolio order rather than the best (selectionTolerance).
	Tolerance   float64 `json:"tolerance"`
	Rows        int     `json:"rows"`           // the training rows (TrainRows: those the winner was fitted on)
	Budget      float64 `json:"budget_seconds"` // the budget in seconds
	LoadSeconds float64 `json:"load_seconds"`   // reading the data, before the budget's clock starts
	AutoSeconds float64 `json:"auto_seconds"`   // the whole search, from the end of loading
	// Grid is the winner's grid search (its points' validation AUCs).
	Grid *GridResult `json:"-"`
}

// autoSmallRows is the number of training rows up to which Auto selects by 5 inner
// folds unless told otherwise (AutoConfig.Folds, Holdout).
const autoSmallRows = 2000

// autoOverhead is the estimated fixed time of one grid search (reading the cached
// data, scaling it, the goroutines), in seconds: about 0.002 s per fold on sonar.
const autoOverhead = 0.002

// unilogGrid is Uni-Log's grid for the data. LIBLINEAR's C ∈ {0.01, …, 100} is Uni-Log's
// λ = 2/(C·n) (solver's defaults), below 10⁻³ from a few thousand rows on, where L-BFGS
// slows as λ shrinks (a9a: 0.95 s at 10⁻², 6.9 s at 6·10⁻⁵, the same AUC). So λ stays
// in 10^[-3..0] on data with more than 10⁶ stored values (the portfolio's grid), and
// spans 10^[-5..0] below (letter: LIBLINEAR's best C is 10, λ ≈ 2·10⁻⁵); wide sparse
// data (more than data.AutoScaleMaxDim features; sector: best C 100) gets 10^[-6..-3].
// The portfolio's grid also stops L-BFGS after 200 iterations: the ranking settles
// long before the gradient reaches the tolerance 10⁻⁶ (w8a, 34,824 × 300 dense:
// the grid's test AUC .9735 with the cap, .9732 without, 11.9 s CPU against 20.7 s;
// a9a .9024 either way, 4.2 s against 5.9 s). The small and wide grids keep the
// solver's 1,000 (sector at λ = 3·10⁻⁶: .9702 after 30 iterations, .9742 after 100).
// Their cost is a multiple of the portfolio grid's: 1.3 on small data (where L-BFGS
// needs few iterations: the 5-fold grid took 0.014 s on liver-disorders, 0.07 s on
// splice, 0.24 s on svmguide3, estimated 0.023, 0.67 and 0.23 s), 1 on sector (3.3–3.6 s
// measured with the points one after another, 1.3–1.5 s since they run on both cores;
// 1.8 s estimated).
func unilogGrid(n, d, e float64) (string, float64) {
	switch {
	case d > data.AutoScaleMaxDim:
		return "lambda=10^[-6..-3]", 1
	case e <= 1e6:
		return "lambda=10^[-5..0]", 1.3
	}
	return "", 1
}

// lsaucCost is ls-auc's estimate: the class moments (n·d²) and the Cholesky solve (d³)
// up to solver.LSAUCDirectMax features; above, lsaucGrid's early-stopped conjugate
// gradients, two paths of 30 steps of two passes over the stored values each (sector,
// 6,412 × 55,197 with 1.05·10⁶ stored values: 0.12–0.15 s for the hold-out search
// and 0.02 s for the refit, 0.3 s for the whole process from text).
func lsaucCost(n, d, e float64) float64 {
	if d > solver.LSAUCDirectMax {
		return 2.5e-7 * e
	}
	return 1e-9*n*d*d + 2e-8*d*d*d
}

// lsaucFlops is ls-auc's flops bound: the moments and one factorisation when it solves
// directly, none by conjugate gradients (above solver.LSAUCDirectMax features).
func lsaucFlops(n, d, points float64) float64 {
	if d > solver.LSAUCDirectMax {
		return 0
	}
	return momentsFlops(n, d, points)
}

// lsaucGrid is ls-auc's grid above solver.LSAUCDirectMax features: early stopping
// (solver.LSAUCParams.Steps) along the conjugate gradients' path at a small λ, one
// path per λ for every number of steps (FitGrid). There the exact minimiser costs
// hundreds of steps (sector: 3.1 s at λ = 10⁻⁴) and ranks worse than a few steps:
// sector's hold-out chose λ = 10⁻⁵ at 7 steps (validation AUC .9898, test .9904; the
// exact minimiser's best, λ = 10⁻³, .9598 and .9775; LIBLINEAR tuned .9778).
func lsaucGrid(n, d, e float64) (string, float64) {
	if d > solver.LSAUCDirectMax {
		return "lambda=1e-5,1e-4;steps=2,3,5,7,10,15,20,30", 1
	}
	return "", 1
}

// autoCandidate is one entry of the portfolio: an algorithm, its grid and its
// estimated time on n rows of d features with e stored values.
type autoCandidate struct {
	algo, grid string
	maxDim     int // the candidate runs only up to this many features (0: any)
	cost       func(n, d, e float64) float64
	// other, when set, may replace grid for the data: it returns the grid and the
	// factor of the cost it takes ("" for grid itself).
	other func(n, d, e float64) (string, float64)
	// bins, when not 0, expands the features by that many quantile bins each
	// (TrainConfig.Bins) before the grid search. Such a candidate's trial comes right
	// after the reference's (admissionOrder) and it is preferred last (winner).
	bins int
	// flops, when set, is a lower bound on the floating-point operations of a grid
	// search of points points on n rows of d features (the d × d moments once and a
	// Cholesky factorisation per point), whatever the rows: a trial that could not
	// finish within its limit even at the machine's peak is not started
	// (autoSearch.tooSlow), since the factorisation is checked for the deadline only
	// between its blocks and the moments not at all.
	flops func(n, d, points float64) float64
}

// momentsFlops is the flops bound of a grid of a learner that accumulates the d × d
// moments of its rows once and factorises a d × d system per point (ls-auc solved
// directly, MBA).
func momentsFlops(n, d, points float64) float64 { return n*d*d + points*d*d*d/3 }

// autoPeakFlopsPerCore bounds what one core computes in a second (AVX-512: two FMA
// units of 8 doubles at about 3 GHz make 96 GFLOP/s), so that a trial's flops bound
// over the cores' peak is a time no machine of that many cores beats.
const autoPeakFlopsPerCore = 1e11

// autoPortfolio is Auto's portfolio in priority order: Uni-Log first, the reference
// (class-weighted logistic regression, LIBLINEAR's -s 0 by another name) that the AUC
// learners must beat to be chosen (see winner); then the learners that won or came
// close on the shared datasets (ls-auc, OPAUC, SVM-OR), then MBA and the one-pass
// baselines, and last Uni-Log on binned features (tried second: admissionOrder).
// Auto measures each candidate's time by a trial on a sample of the rows
// (autoSearch.trial) and extrapolates it to all rows by the ratio of cost on the two:
// cost's shape matters, its scale cancels. The scales are seconds measured on the development machine (2 shared cores) for the grid search
// and refit of each candidate on a9a (n = 32,561, d = 123, minmax-scaled so e = n·d),
// divided by the term that dominates its work: n·d² for the learners that build d×d
// second moments from the rows (ls-auc, OPAUC), 10⁵·d² for MBA's 10⁵ sampled pairs,
// e for the first-order learners; d³ terms for the solves. Uni-Log's and OPAUC's are
// the larger of a9a's and w8a's (34,824 × 300 dense after min-max scaling, 3 %
// positives), measured under a load of 2–8 on the 2 cores, as the budgets bench/vs-lr
// gives are: Uni-Log's capped grid 6.6 s wall on a9a, 13.2 s on w8a (before the cap
// 25.6 s where 7.5·10⁻⁷·e said 7.8 s, and Auto ran 35 s for a 15.9 s budget); OPAUC's
// 5.5 s on w8a where 1.2·10⁻⁹·n·d² said 3.8 s. SVM-OR's, since its solver is OCAS: 2.2 CPU-s
// on a9a (5.4·10⁻⁷·e; 8.9 s before) and 4.0 s on w8a's 49,749 rows (2.7·10⁻⁷·e), under a
// load of 2, doubled.
var autoPortfolio = []autoCandidate{
	{"unilog", "lambda=10^[-3..0];iters=200", 0, func(n, d, e float64) float64 { return 1.7e-6 * e }, unilogGrid, 0, nil},
	{"ls-auc", "lambda=10^[-5..1]", 0, lsaucCost, lsaucGrid, 0, lsaucFlops},
	{"opauc", "eta=2^[-12..-2]", 300, func(n, d, e float64) float64 { return 2.4e-9 * n * d * d }, nil, 0, nil},
	{"svm-or", "lambda=10^[-3..-1]", 0, func(n, d, e float64) float64 { return 1e-6 * e }, nil, 0, nil},
	{"mba-l2", "lambda2=10^[-6..2]", 0, func(n, d, e float64) float64 { return 1e-9*n*d*d + 2e-8*d*d*d }, nil, 0, momentsFlops},
	{"ftrl", "alpha=2^[-6..2]", 0, func(n, d, e float64) float64 { return 2e-7 * e }, nil, 0, nil},
	{"olr", "eta=2^[-6..2]", 0, func(n, d, e float64) float64 { return 5e-8 * e }, nil, 0, nil},
	{"spam-l2", solver.GridPaper, 0, func(n, d, e float64) float64 { return 6e-8 * e }, nil, 0, nil},
	// Uni-Log again on the features and their autoBins quantile-bin indicators (an
	// additive model), last: chosen only when its validation AUC beats every other
	// candidate's by more than the tolerance. Its e is the binned rows' (autoSearch.cost), and
	// its cost per value 2.5 times the reference's: L-BFGS needs more iterations on the
	// indicators (measured on the 70/30 splits of bench/vs-lr, 5 folds: 1.1 to 3.6 times
	// the reference's estimate on the binned rows' e; heart 0.065 s, fourclass 0.134 s,
	// diabetes 0.204 s, australian 0.433 s, german 0.658 s).
	{"unilog", "lambda=10^[-3..0];iters=200", data.AutoScaleMaxDim, func(n, d, e float64) float64 { return 4.25e-6 * e }, unilogGrid, autoBins, nil},
	// The AUC learners that take any feature map on the same binned features, after
	// it (preferred last, as it is): ls-auc, whose d is then the binned width (its
	// moments n·d², its solve d³), and OPAUC, whose d × d state keeps it to narrow
	// data (30 features, 330 binned).
	{"ls-auc", "lambda=10^[-5..1]", data.AutoScaleMaxDim, lsaucCost, lsaucGrid, autoBins, lsaucFlops},
	{"opauc", "eta=2^[-12..-2]", 30, func(n, d, e float64) float64 { return 2.4e-9 * n * d * d }, nil, autoBins, nil},
}

// autoBins is the bins per feature of the portfolio's binned candidate. On the 70/30
// splits of bench/vs-lr (Uni-Log by Auto's own selection on files binned by hand, 10
// quantile bins beside each feature): fourclass .856 → .948, letter .811 → .888,
// magic04 .852 → .906, heart .909 → .914, australian .953 → .956, but diabetes .866 →
// .856: the validation AUC decides.
const autoBins = 10

// AutoBins is the bins per feature of Auto's binned candidate, AutoBinnedName its name
// on the leaderboard.
const (
	AutoBins       = autoBins
	AutoBinnedName = "unilog+bins10"
)

// Auto chooses an algorithm and its hyper-parameters for cfg's data within a
// wall-clock budget, refits the winner on the whole training set and scores the test
// data.
//
// The portfolio (the reference Uni-Log, then AUC learners and baselines, each with a
// grid: Uni-Log, ls-auc's λ grid (above 8,192 features its early-stopped conjugate
// gradients), OPAUC's step grid when d ≤ 300, SVM-OR, MBA's λ path, one-pass grids of
// FTRL, OLR and SPAM, and Uni-Log on the features and their quantile bins) runs under
// one deadline, the budget from the end of loading (AutoResult.LoadSeconds reports the
// loading apart). Each candidate is a grid search (Grid) whose best point is chosen by
// validation AUC on the same held-out split or inner folds of the training rows (the
// same seed), refitted on all of them: the refit is part of the candidate's time.
//
// Estimates are measured: a trial of each candidate, its whole grid on a stratified
// sample of at most autoTrialRows rows under a share of the budget (autoSearch.trial),
// extrapolated to the training rows by the shape of the candidate's cost
// (autoCandidate.cost). The reference runs first, its trial under half of the budget (a
// trial that does not finish is tried again on a quarter of its rows under half of what
// is left, down to autoMinTrialRows, and the others' trials take the rows it finished
// on: at a short budget on large data, a model of a small sample; only when the
// smallest does not finish is the budget too short for the data: an input error),
// then its grid on all rows when 1.5 times its estimate fits the budget left
// (autoRefMargin); when it does not, or the deadline stops it, the reference keeps its
// trial's model, chosen and refitted on the sample (AutoEntry.FittedRows; its
// validation AUC, on other rows, is not compared: it wins only when no other candidate
// has one). Then the other candidates' trials (each under a third of what is left),
// then the candidates cheapest first, each that its estimate fits what is left, each
// stopped at autoOverrun times its estimate (plus autoOverrunSlack). A candidate the
// deadline cuts is "stopped at the budget" (AutoEntry.Stopped). The wall
// clock decides what runs; among what ran the choice is deterministic: the winner is
// the first candidate in portfolio order whose validation AUC is within a tolerance of
// the best (selectionTolerance: about one standard error of a difference of AUCs on the
// validation rows). The data are held in memory: no copy of them is written.
//
// When the smaller class has too few rows for a validation AUC on each selection part
// (autoMinValidation), nothing is chosen: the reference is trained at its defaults,
// as train --algo unilog would, and a note says why.
func Auto(ctx context.Context, cfg AutoConfig) (_ *AutoResult, err error) {
	cfg.Seed = seedOrDefault(cfg.Seed)
	if err := checkAuto(cfg); err != nil {
		return nil, err
	}
	if err := cfg.onlyTrainWeights("auto"); err != nil {
		return nil, err
	}
	if cfg.TestSplit != 0 || cfg.Calibrate != "" {
		return nil, inputErrorf("auto: a test split and calibration are not supported; train the chosen algorithm with them")
	}
	budget := cmp.Or(cfg.Budget, DefaultAutoBudget)
	t0 := time.Now()
	train, test, sch := cfg.train, cfg.test, (*data.Schema)(nil)
	if train == nil {
		if train, test, sch, err = loadDataLayout(ctx, cfg.TrainConfig, data.LayoutSparse); err != nil {
			return nil, err
		}
	}
	pos, neg := train.Counts()
	if pos == 0 || neg == 0 {
		return nil, fmt.Errorf("auto on %s: %w (%d positives, %d negatives)", cfg.dataName(), solver.ErrOneClass, pos, neg)
	}
	if test != nil {
		if test.Dim > train.Dim && !cfg.AllowExtraFeatures {
			return nil, widerTestError(test, train.Dim) // before the budget, as every candidate would refuse it
		}
		if tp, tn := test.Counts(); tp == 0 || tn == 0 {
			return nil, fmt.Errorf("auto on %s: test data %s: %w (%d positives, %d negatives)", cfg.dataName(), test.Name, metric.ErrOneClass, tp, tn)
		}
	}
	sum := fingerprintFor(cfg.TrainConfig)
	res := &AutoResult{Rows: train.Rows(), Budget: budget.Seconds(), LoadSeconds: time.Since(t0).Seconds()}
	start := time.Now()
	dctx, cancel := context.WithDeadline(ctx, start.Add(budget))
	defer cancel()
	s := newAutoSearch(ctx, dctx, cfg, train, test)

	var g *GridResult
	var notes []string
	win := 0
	if need := s.minValidation(); min(pos, neg) < need {
		if g, err = s.single(&s.entries[0], "the smaller class has too few rows to select by validation"); err != nil {
			return nil, err
		}
		notes = append(notes, fmt.Sprintf("auto: the smaller class has %d rows, too few for a validation AUC on every selection part (%s needs %d): trained the reference %s at its defaults, without selection",
			min(pos, neg), s.selectionName(), need, autoPortfolio[0].algo))
	} else {
		if err := s.run(); err != nil {
			return nil, err
		}
		for i := range s.entries {
			if e := &s.entries[i]; e.Skipped == "" && e.Failed == "" && e.Params == nil {
				e.Skipped = "not reached: the budget was spent"
			}
		}
		res.Tolerance = selectionTolerance(train, s.folds, cfg.Holdout)
		if win = winner(s.entries, res.Tolerance); win < 0 && s.entries[0].ValAUC == nil && s.grids[0] != nil {
			win = 0 // the reference alone, at one point
		}
		if win < 0 {
			return nil, s.noWinner(budget)
		}
		g = s.grids[win]
	}
	res.Grid = g
	res.Leaderboard = rank(s.entries, win)
	res.Selection = cmp.Or(g.Selection, "no selection")
	res.TrainResult = g.TrainResult
	res.Notes = append(res.Notes, notes...)
	res.Data, res.Schema, res.TrainSHA256 = cfg.dataName(), sch, ""
	sum.wait(res.TrainResult)
	w := res.Leaderboard[0]
	if w.ValAUC != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("auto: %s (%s) won with validation AUC %.4f (%s; the first in portfolio order within %.4f of the best) among %d candidates run within a %s budget; runner-up %s",
			w.Name(), formatParams(w.Params), *w.ValAUC, res.Selection, res.Tolerance, ran(s.entries), budget, runnerUp(res.Leaderboard)))
	}
	if s.trialNote != "" && win == 0 {
		res.Notes = append(res.Notes, s.trialNote)
	}
	if s.refNote != "" {
		res.Notes = append(res.Notes, s.refNote)
	}
	res.AutoSeconds = time.Since(start).Seconds()
	return res, nil
}

// autoSingle is the reference's grid of one point, its defaults (the iterations capped
// as in the portfolio's grid): what Auto trains when the data are too small to select
// on.
const autoSingle = "iters=200"

// autoRefMargin is how many times its estimate the reference's grid needs left of the
// budget to run on all rows: the deadline stopping it would leave the budget spent and
// only its trial's model (a9a under a load of 20 on 2 cores: estimated 12.4 s, stopped
// after 12.8 s), where the others, run instead, give models of all rows.
const autoRefMargin = 1.5

// autoOverrun and autoOverrunSlack bound a candidate's run on all rows (but the
// reference's, which autoRefMargin admits) to autoOverrun times its estimate plus
// autoOverrunSlack seconds. On a 10⁶-row click-through table (8,192 hashed features),
// ls-auc's trial on 1,000 rows took the small-sample path and estimated 0.76 s; on all
// rows it took the whole 10 s budget, and no other candidate ran.
const (
	autoOverrun      = 3
	autoOverrunSlack = 0.25
)

// autoTrialRows bounds the rows of a candidate's trial (autoSearch.trial); a trial
// takes at most half of the training rows, and at least autoMinValidation-worth of
// each class.
const autoTrialRows = 1000

// autoMinTrialRows is the fewest rows (before the classes' minValidation) the
// reference's trial is tried on when its trial on autoTrialRows does not finish within
// half the budget: 1,000, then 250, then 62 rows.
const autoMinTrialRows = 50

// autoMinValidation is the number of rows of the smaller class that each validation
// part of the selection must expect for Auto to choose by validation AUC: fewer, and
// an AUC on it is undefined or noise.
const autoMinValidation = 5

// autoSearch is one run of Auto's portfolio under its deadline.
type autoSearch struct {
	ctx, dctx   context.Context // the caller's, and the budget's deadline
	cfg         AutoConfig
	base        GridConfig // every candidate's data and selection
	train, test *data.Dataset
	n, d, e     float64 // rows, features and stored values (dense after min-max scaling)
	binnable    int     // the features bins would expand
	folds       int
	entries     []AutoEntry // in portfolio order
	grids       []*GridResult
	trialNote   string // why the reference's model is its trial's ("" when not)
	trialM      int    // the rows of the reference's trial that finished (trialRows, or a quarter or sixteenth of it)
	refNote     string // why the reference ran at one point ("" when not)
}

// newAutoSearch prepares the portfolio's entries for the training data.
func newAutoSearch(ctx, dctx context.Context, cfg AutoConfig, train, test *data.Dataset) *autoSearch {
	s := &autoSearch{ctx: ctx, dctx: dctx, cfg: cfg, train: train, test: test,
		n: float64(train.Rows()), d: float64(train.Dim), e: float64(train.Nnz())}
	if train.Dim <= data.AutoScaleMaxDim {
		s.e = s.n * s.d // min-max scaling makes the rows dense
		s.binnable = data.Binnable(train)
	}
	s.folds = cfg.Folds
	if s.folds == 0 && cfg.Holdout == 0 && train.Rows() <= autoSmallRows {
		s.folds = 5
	}
	base := cfg.TrainConfig
	base.Passes = 1 // the candidates run one pass: the portfolio's grids are sized for it
	base.Positive, base.Table, base.NoFingerprint, base.Data, base.Dataset = "", nil, true, cfg.dataName(), nil
	s.base = GridConfig{TrainConfig: base, Folds: s.folds, Holdout: cfg.Holdout}
	s.entries = make([]AutoEntry, len(autoPortfolio))
	s.grids = make([]*GridResult, len(autoPortfolio))
	for i, c := range autoPortfolio {
		en := &s.entries[i]
		*en = AutoEntry{Algo: c.algo, Grid: c.grid, Bins: c.bins}
		if c.other != nil {
			if g, _ := c.other(s.shapeAll(c)); g != "" {
				en.Grid = g
			}
		}
		switch {
		case c.maxDim > 0 && train.Dim > c.maxDim:
			en.Skipped = fmt.Sprintf("%d features, more than the %d it runs for", train.Dim, c.maxDim)
		case c.bins != 0 && s.binnable == 0:
			en.Skipped = "no feature has more than two values: bins would change nothing"
		}
	}
	return s
}

// share is the part of the training rows each selection part validates on.
func (s *autoSearch) share() float64 {
	if s.folds >= 2 {
		return 1 / float64(s.folds)
	}
	return cmp.Or(s.cfg.Holdout, 0.2)
}

// minValidation is the rows the smaller class needs for autoMinValidation of them in
// each validation part.
func (s *autoSearch) minValidation() int {
	return int(math.Ceil(autoMinValidation / s.share()))
}

// selectionName names the selection in words.
func (s *autoSearch) selectionName() string {
	if s.folds >= 2 {
		return fmt.Sprintf("%d-fold cross-validation", s.folds)
	}
	return fmt.Sprintf("a %g%% hold-out", 100*s.share())
}

// left is the time left of the budget.
func (s *autoSearch) left() float64 {
	d, _ := s.dctx.Deadline()
	return time.Until(d).Seconds()
}

// leftDuration is left as a duration, 0 once the budget is spent.
func (s *autoSearch) leftDuration() time.Duration {
	return max(time.Duration(s.left()*float64(time.Second)), 0)
}

// grid runs candidate i's grid search with the given grid on train (scoring test) under
// ctx.
func (s *autoSearch) grid(ctx context.Context, i int, grid string, train, test *data.Dataset) (*GridResult, error) {
	gcfg := s.base
	gcfg.Algo, gcfg.Bins, gcfg.Grid = autoPortfolio[i].algo, autoPortfolio[i].bins, grid
	// A grid of one point is validated on the same split as the others, to compare
	// (but the reference at its defaults on data too small to select on).
	gcfg.validate = grid != autoSingle
	gcfg.train, gcfg.test = train, test
	return Grid(ctx, gcfg)
}

// stopped reports whether ctx, a budget's or a trial's, ran out; a cancellation of the
// caller's context is returned as an error instead.
func (s *autoSearch) stopped(ctx context.Context) (bool, error) {
	if err := s.ctx.Err(); err != nil {
		return false, err
	}
	return ctx.Err() != nil, nil
}

// full runs candidate i's grid (or the grid given) on the training data under the
// budget and records its outcome.
func (s *autoSearch) full(i int, grid string) error {
	e := &s.entries[i]
	if s.cfg.Started != nil {
		s.cfg.Started(*e, s.leftDuration())
	}
	ctx := s.dctx
	if i != 0 && e.Estimate > 0 {
		// A candidate other than the reference gets autoOverrun times its estimate: an
		// estimate that a trial on a sample got wrong (a path that changes with the
		// rows) then costs a bounded share of the budget, not all of it.
		limit := autoOverrun*e.Estimate + autoOverrunSlack
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(s.dctx, time.Duration(limit*float64(time.Second)))
		defer cancel()
	}
	t0 := time.Now()
	g, err := s.grid(ctx, i, grid, s.train, s.test)
	e.Seconds = time.Since(t0).Seconds()
	stop, cerr := s.stopped(ctx)
	switch {
	case cerr != nil:
		return cerr
	case err != nil && stop && s.dctx.Err() == nil:
		e.Failed = fmt.Sprintf("stopped after %.3g s: %d times its estimate and %g s", e.Seconds, autoOverrun, autoOverrunSlack)
	case err != nil && stop:
		e.Stopped, e.Failed = true, fmt.Sprintf("stopped at the budget after %.3g s", e.Seconds)
	case err != nil:
		e.Failed = err.Error()
	default:
		e.Params = g.Params
		if len(g.Points) > 0 {
			e.ValAUC = g.Points[g.Best].ValAUC
		}
		s.grids[i] = g
	}
	if s.cfg.Done != nil {
		s.cfg.Done(*e, s.leftDuration())
	}
	return nil
}

// single trains the reference at one point (autoSingle) under the budget, all other
// candidates skipped for why; the budget running out is an input error.
func (s *autoSearch) single(ref *AutoEntry, why string) (*GridResult, error) {
	for i := range s.entries[1:] {
		if s.entries[i+1].Skipped == "" {
			s.entries[i+1].Skipped = why
		}
	}
	ref.Grid = autoSingle
	if err := s.full(0, autoSingle); err != nil {
		return nil, err
	}
	if ref.Stopped {
		return nil, fault.Settingf("auto: a budget of %s is too short for %s: the reference %s at one point did not finish within it; give a longer {Budget}",
			time.Duration(s.cfg.budgetSeconds()*float64(time.Second)), s.cfg.dataName(), ref.Algo)
	}
	if s.grids[0] == nil {
		return nil, fmt.Errorf("auto: the reference %s at its defaults failed: %s", ref.Algo, ref.Failed)
	}
	return s.grids[0], nil
}

// budgetSeconds is the budget in seconds.
func (cfg AutoConfig) budgetSeconds() float64 {
	return cmp.Or(cfg.Budget, DefaultAutoBudget).Seconds()
}

// run runs the portfolio: the reference's trial and grid (or one point), then the
// others' trials, then the others cheapest first while their estimates fit.
func (s *autoSearch) run() error {
	budget := s.cfg.budgetSeconds()
	ref := &s.entries[0]
	// The reference's trial keeps its model (chosen and refitted on the sample, scored
	// on the test data): the fallback when nothing on all rows fits.
	m := s.trialRows()
	g0, err := s.trialOf(ref, 0, ref.Grid, budget/2, s.test, m)
	if err != nil {
		return err
	}
	// A trial that did not finish (or could not within its limit) is tried again on a
	// quarter of its rows, under half of what is left (B/4, then B/8): at a short budget
	// on large data a model of a small sample is what the budget allows; "too short"
	// only when even the smallest sample (autoMinTrialRows) does not finish.
	for ref.Skipped != "" && m/4 >= autoMinTrialRows {
		m /= 4
		ref.Skipped = ""
		if g0, err = s.trialOf(ref, 0, ref.Grid, s.left()/2, s.test, m); err != nil {
			return err
		}
	}
	s.trialM = m // the others' trials take the rows the reference's took
	if ref.Skipped != "" {
		return fault.Settingf("auto: a budget of %s is too short for %s: the reference %s's trial on %d rows did not finish within its share of it (its grid estimated over %.3g s); give a longer {Budget}",
			time.Duration(budget*float64(time.Second)), s.cfg.dataName(), ref.Algo, ref.TrialRows, ref.Estimate)
	}
	switch left := s.left(); {
	case ref.Failed != "":
		// its trial failed: the others may do better
	case autoRefMargin*ref.Estimate <= left:
		if err := s.full(0, ref.Grid); err != nil {
			return err
		}
		if ref.Stopped {
			s.keepTrial(g0, "its grid on all rows was stopped at the budget")
			return nil // the budget is spent
		}
	case autoRefMargin*s.pointEstimate(ref) <= left && g0 != nil:
		// The grid does not fit, one point does: the trial's choice, fitted and
		// validated on all rows, competes as the others do (fashion-mnist at 10 s:
		// the grid estimated at 8.0 s, one point at 3.2 s; the trial's 1,000-row model
		// scored .9885 against .9919).
		grid, est := s.pointGrid(ref.Grid, g0), ref.Estimate
		ref.Grid, ref.Estimate = grid, s.pointEstimate(ref)
		if err := s.full(0, grid); err != nil {
			return err
		}
		if ref.Stopped {
			s.keepTrial(g0, "its trial's point on all rows was stopped at the budget")
			return nil
		}
		s.refNote = fmt.Sprintf("auto: %s ran at its trial's choice (%s) on all rows: its grid was estimated at %.3g s, more than %.3g of the %.3g s left",
			ref.Name(), grid, est, 1/autoRefMargin, left)
	default:
		s.keepTrial(g0, fmt.Sprintf("on all rows its grid is estimated at %.3g s, more than %.3g of the %.3g s left", ref.Estimate, 1/autoRefMargin, left))
	}
	var others []int
	for _, i := range admissionOrder()[1:] {
		if s.entries[i].Skipped == "" {
			others = append(others, i)
		}
	}
	for _, i := range others {
		if s.left() <= 0 {
			s.entries[i].Skipped = "not reached: the budget was spent"
			continue
		}
		// A trial past a third of what is left leaves no room for its run on all
		// rows, which takes longer (at least twice as long from half the rows).
		if err := s.trial(i, s.left()/3); err != nil {
			return err
		}
	}
	slices.SortStableFunc(others, func(a, b int) int { return cmp.Compare(s.entries[a].Estimate, s.entries[b].Estimate) })
	for _, i := range others {
		e := &s.entries[i]
		if e.Skipped != "" || e.Failed != "" {
			continue
		}
		if left := s.left(); e.Estimate > left {
			e.Skipped = fmt.Sprintf("estimated %.3g s; %.3g s of the budget left", e.Estimate, max(left, 0))
			if s.cfg.Done != nil {
				s.cfg.Done(*e, s.leftDuration())
			}
			continue
		}
		if err := s.full(i, e.Grid); err != nil {
			return err
		}
	}
	return nil
}

// trial runs candidate i's grid on a stratified sample of the training rows (at most
// autoTrialRows, at most half, at least minValidation of each class) under a
// limit of limit seconds, and sets its Estimate: the trial's time scaled by the
// candidate's cost on all rows over its cost on the sample. A trial past its limit
// gives a lower bound; one that fails for another reason fails the candidate.
func (s *autoSearch) trial(i int, limit float64) error {
	e := &s.entries[i]
	if _, err := s.trialOf(e, i, e.Grid, limit, nil, cmp.Or(s.trialM, s.trialRows())); err != nil {
		return err
	}
	if (e.Skipped != "" || e.Failed != "") && i > 0 && s.cfg.Done != nil {
		s.cfg.Done(*e, s.leftDuration())
	}
	return nil
}

// trialOf is trial of candidate i with the given grid on a stratified sample of about
// rows training rows, its outcome recorded in e; it returns the trial's grid search,
// its refit scored on test (nil for none).
func (s *autoSearch) trialOf(e *AutoEntry, i int, grid string, limit float64, test *data.Dataset, rowsWanted int) (*GridResult, error) {
	c := autoPortfolio[i]
	rows := s.sample(rowsWanted)
	m := float64(len(rows))
	e.TrialRows = len(rows)
	if floor := s.tooSlow(c, grid, m, limit); floor > 0 {
		e.Estimate = floor * s.cost(c, s.n) / s.cost(c, m)
		e.Skipped = fmt.Sprintf("its trial on %d rows needs at least %.3g s at this machine's peak, more than its %.3g s: estimated over %.3g s", e.TrialRows, floor, limit, e.Estimate)
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(s.dctx, time.Duration(max(limit, 0)*float64(time.Second)))
	defer cancel()
	t0 := time.Now()
	g, err := s.grid(ctx, i, grid, s.train.Subset(rows), test)
	e.TrialSeconds = time.Since(t0).Seconds()
	e.Estimate = e.TrialSeconds * s.cost(c, s.n) / s.cost(c, m)
	stop, cerr := s.stopped(ctx)
	switch {
	case cerr != nil:
		return nil, cerr
	case err != nil && stop:
		e.Skipped = fmt.Sprintf("its trial on %d rows ran past its %.3g s: estimated over %.3g s", e.TrialRows, limit, e.Estimate)
	case err != nil:
		e.Failed = "trial: " + err.Error()
	}
	return g, nil
}

// tooSlow returns the least time candidate c's trial of grid on m rows can take on a
// host backend (its flops bound over autoPeakFlopsPerCore per core) when that is more
// than limit, else 0. A device backend's peak is not bounded here: 0.
func (s *autoSearch) tooSlow(c autoCandidate, grid string, m, limit float64) float64 {
	if c.flops == nil {
		return 0
	}
	if _, host := s.cfg.Backend.(kernels.Viewer); s.cfg.Backend != nil && !host {
		return 0
	}
	d, _ := s.shape(c, m)
	floor := c.flops(m, d, float64(gridSize(c.algo, grid))) / (autoPeakFlopsPerCore * float64(runtime.GOMAXPROCS(0)))
	if floor <= limit {
		return 0
	}
	return floor
}

// pointEstimate is the estimate of one point of e's grid on all rows: its grid's
// estimate times 2/(P+1) for P points (a grid search fits each point on a selection
// part and refits the best on all rows: about P + 1 fits; one point, about 2).
func (s *autoSearch) pointEstimate(e *AutoEntry) float64 {
	return e.Estimate * 2 / float64(gridSize(e.Algo, e.Grid)+1)
}

// gridSize is the number of points of algo's grid (1 when it does not parse).
func gridSize(algo, grid string) int {
	if spec, err := solver.Lookup(algo); err == nil {
		if ps, err := spec.PaperPoints(grid); err == nil {
			return max(len(ps), 1)
		}
	}
	return 1
}

// pointGrid is the grid of one point, the values g chose for the keys of grid.
func (s *autoSearch) pointGrid(grid string, g *GridResult) string {
	var parts []string
	for _, kv := range strings.Split(grid, ";") {
		k, _, _ := strings.Cut(kv, "=")
		if v, ok := g.Params[k]; ok {
			parts = append(parts, k+"="+formatValue(v))
		}
	}
	return strings.Join(parts, ";")
}

// keepTrial makes the reference's trial g (its grid chosen and refitted on the
// trial's sample) its outcome, for why it did not run on all rows: its validation AUC,
// on the sample's selection parts, is not compared with the others' (winner takes it
// only when no other candidate has one).
func (s *autoSearch) keepTrial(g *GridResult, why string) {
	ref := &s.entries[0]
	ref.Failed, ref.Stopped = "", false
	ref.Params, ref.ValAUC, ref.FittedRows = g.Params, nil, ref.TrialRows
	s.grids[0] = g
	s.trialNote = fmt.Sprintf("auto: %s's model is its trial's, chosen and refitted on a stratified sample of %d rows: %s", ref.Name(), ref.TrialRows, why)
	if s.cfg.Done != nil {
		s.cfg.Done(*ref, s.leftDuration())
	}
}

// cost is candidate c's modelled cost on rows of the training rows (autoCandidate.cost
// with its grid's factor, and the fixed overhead); its ratio extrapolates a trial.
func (s *autoSearch) cost(c autoCandidate, rows float64) float64 {
	f := 1.0
	if c.other != nil {
		if g, ff := c.other(s.shapeAll(c)); g != "" {
			f = ff
		}
	}
	d, e := s.shape(c, rows)
	return autoOverhead + f*c.cost(rows, d, e)
}

// shape is the features and stored values of rows of the training rows as candidate c
// sees them: with its bins, an indicator per binned feature and row beside the
// features, and at most bins indicators per binned feature (ls-auc's grid on
// fashion-mnist's binned 8,624 columns is the wide data's).
func (s *autoSearch) shape(c autoCandidate, rows float64) (d, e float64) {
	d, e = s.d, s.e*rows/s.n
	if c.bins != 0 {
		e += rows * float64(s.binnable)
		d += float64(s.binnable * c.bins)
	}
	return d, e
}

// shapeAll is c's rows, features and stored values on all the training rows.
func (s *autoSearch) shapeAll(c autoCandidate) (n, d, e float64) {
	d, e = s.shape(c, s.n)
	return s.n, d, e
}

// trialRows is the rows of a trial's sample: min(autoTrialRows, rows/2).
func (s *autoSearch) trialRows() int {
	return min(autoTrialRows, s.train.Rows()/2)
}

// sample is a trial's stratified sample of m of the training rows (sorted): of each
// class its share of m, at least minValidation rows (or all it has).
func (s *autoSearch) sample(m int) []int {
	y := s.train.Y
	need := s.minValidation()
	var out []int
	for _, label := range []int8{1, -1} {
		var idx []int
		for r, v := range y {
			if (v == 1) == (label == 1) {
				idx = append(idx, r)
			}
		}
		k := max(int(math.Round(float64(len(idx))*float64(m)/float64(len(y)))), min(len(idx), need))
		perm := data.Shuffle(len(idx), s.cfg.Seed+uint64(label+1))
		for _, p := range perm[:k] {
			out = append(out, idx[p])
		}
	}
	slices.Sort(out)
	return out
}

// noWinner is Auto's error when no candidate has a validation AUC: the budget, when a
// candidate was stopped by it (an input error: the budget is too short), else the
// first failure.
func (s *autoSearch) noWinner(budget time.Duration) error {
	for _, e := range s.entries {
		if e.Stopped {
			return fault.Settingf("auto: a budget of %s is too short for %s: no candidate finished within it (%s %s); give a longer {Budget}", budget, s.cfg.dataName(), e.Name(), e.Failed)
		}
	}
	return fmt.Errorf("auto: every candidate failed (first: %s %s)", s.entries[0].Algo, s.entries[0].Failed)
}

// checkAuto refuses the settings Auto cannot honour.
func checkAuto(cfg AutoConfig) error {
	switch {
	case cfg.Algo != "" && cfg.Algo != AlgoAuto:
		return inputErrorf("auto chooses the algorithm: got %q", cfg.Algo)
	case len(cfg.Params.SetKeys()) > 0:
		return inputErrorf("auto chooses the hyper-parameters: the parameters set (%s) do not apply", setParams(cfg.Params))
	case cfg.Checkpoint != "":
		return fault.Settingf("auto runs grid searches: {Checkpoint} does not apply")
	case cfg.OutOfCore:
		return fault.Settingf("auto holds the data in memory: {OutOfCore} does not apply")
	case cfg.Average > 1:
		return fault.Settingf("auto: {Average} does not apply")
	case cfg.Passes > 1:
		return fault.Settingf("auto: the one-pass candidates run one pass; {Passes} %d does not apply", cfg.Passes)
	case cfg.Bins != 0:
		return fault.Settingf("auto chooses whether to bin the features: {Bins} does not apply")
	case cfg.Budget < 0:
		return inputErrorf("auto: budget %s, want a positive duration", cfg.Budget)
	}
	return checkSelection(cfg.Folds, cfg.Holdout)
}

// admissionOrder is the order of the candidates' trials: the reference first, then
// the binned candidates, then the others in portfolio order (the runs then go
// cheapest first by the trials' estimates, ties in this order). The portfolio's own
// order is the preference among near-equal validation AUCs (winner), where the binned
// candidates, the most flexible models, come last; in the budget they come first
// because on small numeric data they are the candidates likeliest to change the choice
// (bench/vs-lr: the AUC learners after Uni-Log won one set of 19, fourclass, where Uni-Log
// on bins does better still), and a budget as short as LIBLINEAR's tuning (0.1 s on
// the small sets) is spent before the last candidates' turn.
//
// Every batch candidate that takes a feature map has a binned entry (Uni-Log, ls-auc,
// OPAUC on narrow data); the one-pass baselines and SVM-OR's OCAS do not.
func admissionOrder() []int {
	order := []int{0}
	for pass := range 2 {
		for i, c := range autoPortfolio[1:] {
			if (c.bins != 0) == (pass == 0) {
				order = append(order, i+1)
			}
		}
	}
	return order
}

// autoTolerance is c of the tolerance c/√m within which Auto treats validation AUCs as
// equal (selectionTolerance).
const autoTolerance = 0.1

// selectionTolerance is the difference of validation AUCs below which Auto does not
// prefer one candidate to another: c/√m (c = autoTolerance), m the number of
// validation rows of the smaller class: all training rows' under k inner folds, the
// held-out share's under a hold-out (default 20%). An AUC measured on m rows of the
// smaller class has a standard error of about √(A(1−A)/m) ≈ 0.3/√m at A ≈ 0.9, and
// two learners' scores of the same rows are strongly correlated, so the standard error
// of their difference is a fraction of that: c = 0.1 is about one such standard
// error. On the small shared sets (m of 68 to 470) it is 0.0046 to 0.012; there the
// candidates' best validation AUCs lie within 0.001 of each other and their test
// AUCs differ by up to 0.02 in either direction (liver-disorders: ls-auc .6971 and
// Uni-Log .6961 validation, .6144 and .6327 test), so the ranking inside it is noise.
func selectionTolerance(train *data.Dataset, folds int, holdout float64) float64 {
	pos, neg := train.Counts()
	m := float64(min(pos, neg))
	if folds < 2 {
		m *= cmp.Or(holdout, 0.2)
	}
	return autoTolerance / math.Sqrt(max(m, 1))
}

// winner returns the index of the chosen entry: the first in portfolio order whose
// validation AUC is within tol of the best (-1 when none has one). The portfolio
// starts with the reference, Uni-Log, so an AUC learner is chosen only when it beats
// the reference's validation AUC by more than tol (the one-standard-error rule, with
// the reference as the simpler model).
func winner(entries []AutoEntry, tol float64) int {
	best := math.Inf(-1)
	for _, e := range entries {
		if e.ValAUC != nil {
			best = max(best, *e.ValAUC)
		}
	}
	for i, e := range entries {
		if e.ValAUC != nil && *e.ValAUC >= best-tol {
			return i
		}
	}
	return -1
}

// rank orders the entries: the winner (index win) first, then the others with a
// validation AUC by it, best first, then the failed, then the skipped, each group in
// portfolio order.
func rank(entries []AutoEntry, win int) []AutoEntry {
	out := slices.Clone(entries)
	group := func(e AutoEntry) int {
		switch {
		case e.ValAUC != nil:
			return 0
		case e.Failed != "":
			return 1
		}
		return 2
	}
	rest := out
	if win >= 0 {
		w := out[win]
		out = append([]AutoEntry{w}, slices.Delete(out, win, win+1)...)
		rest = out[1:]
	}
	slices.SortStableFunc(rest, func(a, b AutoEntry) int {
		if c := cmp.Compare(group(a), group(b)); c != 0 || group(a) != 0 {
			return c
		}
		return cmp.Compare(*b.ValAUC, *a.ValAUC)
	})
	return out
}

// ran counts the entries that ran.
func ran(entries []AutoEntry) int {
	n := 0
	for _, e := range entries {
		if e.Skipped == "" {
			n++
		}
	}
	return n
}

// runnerUp describes the second entry of a ranked leaderboard.
func runnerUp(board []AutoEntry) string {
	if len(board) < 2 || board[1].ValAUC == nil {
		return "none"
	}
	return fmt.Sprintf("%s at %.4f", board[1].Name(), *board[1].ValAUC)
}

// formatParams writes parameters as sorted key=value pairs.
func formatParams(p map[string]any) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + formatValue(p[k])
	}
	return strings.Join(parts, " ")
}

// MarshalJSON writes the winner's fields (TrainResult's JSON) and the search's in one
// object.
func (r *AutoResult) MarshalJSON() ([]byte, error) {
	return r.TrainResult.marshalWith(map[string]any{"leaderboard": r.Leaderboard, "selection": r.Selection,
		"tolerance": r.Tolerance, "rows": r.Rows, "budget_seconds": r.Budget, "load_seconds": r.LoadSeconds, "auto_seconds": r.AutoSeconds})
}

// AutoCVConfig is a cross-validation of Auto: on each fold's training part Auto
// chooses and refits a model, which is scored on the fold left out.
type AutoCVConfig struct {
	// AutoConfig is each fold's Auto; its Test must be empty.
	AutoConfig
	// Folds is k of the stratified k-fold split (default 5); Repeats > 1 repeats it with
	// seeds Seed, Seed+1, … (as CVConfig).
	Folds   int
	Repeats int
	// FoldDone, when set, is called after each fold with its run.
	FoldDone func(run CVRun, done, total int)
}

// AutoCV cross-validates Auto on cfg.Data: each fold's training part gets its own
// Auto (its own budget, selection split and scaling), so the AUCs estimate what Auto
// achieves on new data, its choices included. Folds run one after another (each
// Auto's grid searches use the cores). Each run records the chosen algorithm, its
// parameters and its validation AUC.
func AutoCV(ctx context.Context, cfg AutoCVConfig) (*CVResult, error) {
	cfg.Seed = seedOrDefault(cfg.Seed)
	k, repeats := cmp.Or(cfg.Folds, 5), cmp.Or(cfg.Repeats, 1)
	switch {
	case cfg.Test != "":
		return nil, inputErrorf("cross-validation scores held-out folds of the training data: it takes no test data (%s)", cfg.Test)
	case k < 2 || repeats < 1:
		return nil, inputErrorf("cross-validation: %d folds and %d repeats, want at least 2 and 1", k, repeats)
	}
	if err := cfg.onlyTrainWeights("auto"); err != nil {
		return nil, err
	}
	if err := checkAuto(cfg.AutoConfig); err != nil {
		return nil, err
	}
	ds, splitTest, _, err := loadWith(ctx, cfg.Data, cfg.Seed, data.LayoutSparse, cfg.readOptions())
	if err != nil {
		return nil, err
	}
	res := &CVResult{Algo: AlgoAuto, Params: map[string]any{}, Data: cfg.Data, Rows: ds.Rows(), Features: ds.Dim,
		Folds: k, Repeats: repeats, Workers: 1}
	if splitTest != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("%s has a fixed train/test split: cross-validation runs on its %d training rows; its %d test rows are not used",
			cfg.Data, ds.Rows(), splitTest.Rows()))
	}
	folds, err := data.RepeatedKFold(ds.Y, k, repeats, cfg.Seed)
	if err != nil {
		return nil, inputErrorf("cross-validation on %s: %w", cfg.Data, err)
	}
	start := time.Now()
	total := k * repeats
	for r, fs := range folds {
		for f, fold := range fs {
			t0 := time.Now()
			acfg := cfg.AutoConfig
			acfg.Test, acfg.Positive, acfg.Table, acfg.Done, acfg.Started, acfg.NoFingerprint = "", "", nil, nil, nil, true
			acfg.train, acfg.test = ds.Subset(fold.Train), ds.Subset(fold.Test)
			a, err := Auto(ctx, acfg)
			if err != nil {
				return nil, fmt.Errorf("auto cross-validation on %s, repeat %d fold %d: %w", cfg.Data, r+1, f+1, err)
			}
			run := CVRun{Repeat: r + 1, Fold: f + 1, TrainRows: len(fold.Train), TestRows: len(fold.Test), AUC: a.TestAUC,
				Seconds: time.Since(t0).Seconds(), Algo: a.Algo, Params: a.Params, ValAUC: a.Leaderboard[0].ValAUC}
			res.Runs = append(res.Runs, run)
			res.Scale, res.Backend, res.Selection = a.Scale, a.Backend, a.Selection
			if cfg.FoldDone != nil {
				cfg.FoldDone(run, len(res.Runs), total)
			}
		}
	}
	res.Seconds = time.Since(start).Seconds()
	res.AUCs = make([]float64, len(res.Runs))
	for i, r := range res.Runs {
		res.AUCs[i] = r.AUC
	}
	res.Mean, res.Std = metric.MeanStd(res.AUCs)
	return res, nil
}
