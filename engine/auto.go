package engine

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/solver"
)

// AlgoAuto is the algorithm name that asks for Auto (aucopt train --algo auto).
const AlgoAuto = "auto"

// DefaultAutoBudget is Auto's budget when AutoConfig.Budget is 0: on the embedded a9a
// (32,561 × 123) it admits Uni-Log, ls-auc, OPAUC, MBA and OLR (estimated 9.8 s).
const DefaultAutoBudget = 10 * time.Second

// AutoConfig is an automatic choice of algorithm and hyper-parameters under a time
// budget (Auto).
type AutoConfig struct {
	// TrainConfig names the data, test data, scaling, seed, shuffling and backend; Algo
	// must be "" or AlgoAuto and Params empty (Auto chooses them), and the settings of
	// one algorithm (Checkpoint, OutOfCore, Average, Passes > 1) are refused.
	TrainConfig
	// Budget bounds the estimated time of the candidates' grid searches (see Auto;
	// the reference, Uni-Log, runs even when its estimate alone exceeds it); 0 means
	// DefaultAutoBudget.
	Budget time.Duration
	// Folds and Holdout choose each candidate's best point and the winner as in
	// GridConfig: Folds ≥ 2 inner stratified folds, else a stratified held-out share
	// Holdout of the training rows. When both are 0, data of at most AutoSmallRows
	// rows is chosen by 5 folds (a 20% hold-out of a few hundred rows is too noisy to
	// rank 40 points by), larger data by a 20% hold-out.
	Folds   int
	Holdout float64
	// Done, when set, is called after each candidate with its leaderboard entry.
	Done func(AutoEntry)
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
	// Estimate is the candidate's estimated time (grid search and refit) in seconds,
	// from the training rows and features alone: what the budget admits by.
	Estimate float64 `json:"estimated_seconds"`
	// Seconds is the candidate's measured time, data reading included (0 when it did
	// not run).
	Seconds float64 `json:"seconds"`
	// Skipped says why the candidate did not run; Failed why it gave no AUC.
	Skipped string `json:"skipped,omitempty"`
	Failed  string `json:"failed,omitempty"`
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
	Budget      float64 `json:"budget_seconds"` // the budget in seconds
	AutoSeconds float64 `json:"auto_seconds"`   // the whole search, data reading included
	// Grid is the winner's grid search (its points' validation AUCs).
	Grid *GridResult `json:"-"`
}

// AutoSmallRows is the number of training rows up to which Auto selects by 5 inner
// folds unless told otherwise (AutoConfig.Folds, Holdout).
const AutoSmallRows = 2000

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
	// (TrainConfig.Bins) before the grid search. Such a candidate is admitted right
	// after the reference (admit) and preferred last (winner).
	bins int
}

// autoPortfolio is Auto's portfolio in priority order: Uni-Log first, the reference
// (class-weighted logistic regression, LIBLINEAR's -s 0 by another name) that the AUC
// learners must beat to be chosen (see winner); then the learners that won or came
// close on the shared datasets (ls-auc, OPAUC, SVM-OR), then MBA and the one-pass
// baselines, and last Uni-Log on binned features (admitted second: admissionOrder).
// The estimates are
// seconds measured on the development machine (2 shared cores) for the grid search
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
// load of 2, doubled. The wall clock does not enter the choice: the
// same data, seed and budget run the same candidates.
var autoPortfolio = []autoCandidate{
	{"unilog", "lambda=10^[-3..0];iters=200", 0, func(n, d, e float64) float64 { return 1.7e-6 * e }, unilogGrid, 0},
	{"ls-auc", "lambda=10^[-5..1]", 0, lsaucCost, lsaucGrid, 0},
	{"opauc", "eta=2^[-12..-2]", 300, func(n, d, e float64) float64 { return 2.4e-9 * n * d * d }, nil, 0},
	{"svm-or", "lambda=10^[-3..-1]", 0, func(n, d, e float64) float64 { return 1e-6 * e }, nil, 0},
	{"mba-l2", "lambda2=10^[-6..2]", 0, func(n, d, e float64) float64 { return 7e-10*1e5*d*d + 2e-8*d*d*d }, nil, 0},
	{"ftrl", "alpha=2^[-6..2]", 0, func(n, d, e float64) float64 { return 2e-7 * e }, nil, 0},
	{"olr", "eta=2^[-6..2]", 0, func(n, d, e float64) float64 { return 5e-8 * e }, nil, 0},
	{"spam-l2", GridPaper, 0, func(n, d, e float64) float64 { return 6e-8 * e }, nil, 0},
	// Uni-Log again on the features and their autoBins quantile-bin indicators (an
	// additive model), last: chosen only when its validation AUC beats every other
	// candidate's by more than the tolerance. Its e is the binned rows' (admit), and
	// its cost per value 2.5 times the reference's: L-BFGS needs more iterations on the
	// indicators (measured on the 70/30 splits of bench/vs-lr, 5 folds: 1.1 to 3.6 times
	// the reference's estimate on the binned rows' e; heart 0.065 s, fourclass 0.134 s,
	// diabetes 0.204 s, australian 0.433 s, german 0.658 s).
	{"unilog", "lambda=10^[-3..0];iters=200", data.AutoScaleMaxDim, func(n, d, e float64) float64 { return 4.25e-6 * e }, unilogGrid, autoBins},
}

// autoBins is the bins per feature of the portfolio's binned candidate. On the 70/30
// splits of bench/vs-lr (Uni-Log by Auto's own selection on files binned by hand, 10
// quantile bins beside each feature): fourclass .856 → .948, letter .811 → .888,
// magic04 .852 → .906, heart .909 → .914, australian .953 → .956, but diabetes .866 →
// .856: the validation AUC decides.
const autoBins = 10

// Auto chooses an algorithm and its hyper-parameters for cfg's data within a time
// budget, refits the winner on the whole training set and scores the test data.
//
// The portfolio (the reference Uni-Log, then AUC learners and baselines, each with a
// grid: Uni-Log, ls-auc's λ grid (above 8,192 features its early-stopped conjugate
// gradients), OPAUC's step grid when d ≤ 300, SVM-OR, MBA's λ path, one-pass grids of
// FTRL, OLR and SPAM, and Uni-Log on the features and their quantile bins) is
// admitted in admissionOrder: Uni-Log always, then each candidate whose estimated time,
// from the training rows and features alone, fits what the earlier ones left of the
// budget.
// Each admitted candidate is a grid search (Grid) whose best point is chosen by
// validation AUC on the same held-out split or inner folds of the training rows (the
// same seed), and the winner is the first candidate in portfolio order whose
// validation AUC is within a tolerance of the best (selectionTolerance: about one
// standard error of a difference of AUCs on the validation rows). So the run is
// deterministic for a seed and budget: the wall clock is measured and reported, never
// used to decide. The data are read once and handed
// to the grid searches as binary caches in a temporary directory.
func Auto(ctx context.Context, cfg AutoConfig) (_ *AutoResult, err error) {
	cfg.Seed = seedOrDefault(cfg.Seed)
	if err := checkAuto(cfg); err != nil {
		return nil, err
	}
	budget := cfg.Budget
	if budget == 0 {
		budget = DefaultAutoBudget
	}
	start := time.Now()
	train, test, sch, err := loadDataLayout(ctx, cfg.TrainConfig, data.LayoutSparse)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "aucopt-auto-")
	if err != nil {
		return nil, fmt.Errorf("auto: %w", err)
	}
	defer os.RemoveAll(dir)
	base := cfg.TrainConfig
	base.Passes = 1 // the candidates run one pass: the portfolio's grids and budgets are sized for it
	base.Positive, base.Table, base.Data, base.Test, base.Dataset = "", nil, filepath.Join(dir, "train.cache"), "", nil
	if err := data.SaveCache(base.Data, train); err != nil {
		return nil, fmt.Errorf("auto: %w", err)
	}
	if test != nil {
		base.Test = filepath.Join(dir, "test.cache")
		if err := data.SaveCache(base.Test, test); err != nil {
			return nil, fmt.Errorf("auto: %w", err)
		}
	}
	sum := fingerprintFor(cfg.TrainConfig)

	folds := cfg.Folds
	if folds == 0 && cfg.Holdout == 0 && train.Rows() <= AutoSmallRows {
		folds = 5
	}
	entries := admit(train, budget, max(folds, 1))
	res := &AutoResult{Budget: budget.Seconds()}
	grids := make([]*GridResult, len(entries))
	for i := range entries {
		e := &entries[i]
		if e.Skipped != "" {
			continue
		}
		gcfg := GridConfig{TrainConfig: base, Grid: e.Grid, Folds: folds, Holdout: cfg.Holdout}
		gcfg.Algo, gcfg.Bins = e.Algo, e.Bins
		t0 := time.Now()
		g, err := Grid(ctx, gcfg)
		e.Seconds = time.Since(t0).Seconds()
		switch {
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case err != nil:
			e.Failed = err.Error()
		default:
			e.Params, e.ValAUC = g.Params, g.Points[g.Best].ValAUC
			res.Selection = g.Selection
			grids[i] = g
		}
		if cfg.Done != nil {
			cfg.Done(*e)
		}
	}
	tol := selectionTolerance(train, folds, cfg.Holdout)
	res.Tolerance = tol
	win := winner(entries, tol)
	if win < 0 {
		return nil, fmt.Errorf("auto: every candidate failed (first: %s %s)", entries[0].Algo, entries[0].Failed)
	}
	res.Grid = grids[win]
	res.Leaderboard = rank(entries, win)
	res.TrainResult = res.Grid.TrainResult
	res.Data, res.Schema, res.TrainSHA256 = cfg.dataName(), sch, ""
	sum.wait(res.TrainResult)
	w := res.Leaderboard[0]
	res.Notes = append(res.Notes, fmt.Sprintf("auto: %s (%s) won with validation AUC %.4f (%s; the first in portfolio order within %.4f of the best) among %d candidates run within a %s budget; runner-up %s",
		w.Name(), formatParams(w.Params), *w.ValAUC, res.Selection, tol, ran(entries), budget, runnerUp(res.Leaderboard)))
	res.AutoSeconds = time.Since(start).Seconds()
	return res, nil
}

// checkAuto refuses the settings Auto cannot honour.
func checkAuto(cfg AutoConfig) error {
	switch {
	case cfg.Algo != "" && cfg.Algo != AlgoAuto:
		return inputErrorf("auto chooses the algorithm: got %q", cfg.Algo)
	case len(cfg.Params) > 0:
		return inputErrorf("auto chooses the hyper-parameters: -p %s does not apply", strings.Join(cfg.Params, " -p "))
	case cfg.Checkpoint != "":
		return inputErrorf("auto runs grid searches: --checkpoint does not apply")
	case cfg.OutOfCore:
		return inputErrorf("auto holds the data in memory: --out-of-core does not apply")
	case cfg.Average > 1:
		return inputErrorf("auto: --average does not apply")
	case cfg.Passes > 1:
		return inputErrorf("auto: the one-pass candidates run one pass; --passes %d does not apply", cfg.Passes)
	case cfg.Bins != 0:
		return inputErrorf("auto chooses whether to bin the features: --bins does not apply")
	case cfg.Budget < 0:
		return inputErrorf("auto: budget %s, want a positive duration", cfg.Budget)
	}
	return checkSelection(cfg.Folds, cfg.Holdout)
}

// admit returns the portfolio's entries for the training set with the candidates that
// fit the budget: the first (the reference, Uni-Log) always, so that Auto never
// chooses without it (a budget below its estimate runs it alone), then in portfolio
// (priority) order each whose estimate fits what the earlier ones left of the budget.
// A selection by k folds multiplies each estimate by k (k searches on (k−1)/k of the
// rows, and the refit).
func admit(train *data.Dataset, budget time.Duration, folds int) []AutoEntry {
	n, d := float64(train.Rows()), float64(train.Dim)
	e := float64(train.Nnz())
	if train.Dim <= data.AutoScaleMaxDim {
		e = n * d // min-max scaling makes the rows dense
	}
	entries := make([]AutoEntry, len(autoPortfolio))
	binnable := 0
	if train.Dim <= data.AutoScaleMaxDim {
		binnable = data.Binnable(train)
	}
	left := budget.Seconds()
	for _, i := range admissionOrder() {
		c := autoPortfolio[i]
		en := &entries[i]
		ce := e
		if c.bins != 0 {
			ce += n * float64(binnable) // an indicator per binned feature and row
		}
		*en = AutoEntry{Algo: c.algo, Grid: c.grid, Bins: c.bins, Estimate: float64(folds) * (autoOverhead + c.cost(n, d, ce))}
		if c.other != nil {
			if g, f := c.other(n, d, e); g != "" {
				en.Grid, en.Estimate = g, float64(folds)*(autoOverhead+f*c.cost(n, d, ce))
			}
		}
		if c.maxDim > 0 && train.Dim > c.maxDim {
			en.Skipped = fmt.Sprintf("%d features, more than the %d it runs for", train.Dim, c.maxDim)
			continue
		}
		if c.bins != 0 && binnable == 0 {
			en.Skipped = "no feature has more than two values: bins would change nothing"
			continue
		}
		if i > 0 && en.Estimate > left {
			en.Skipped = fmt.Sprintf("estimated %.3g s; %.3g s of the budget left", en.Estimate, left)
			continue
		}
		left -= en.Estimate
	}
	return entries
}

// admissionOrder is the order in which admit spends the budget: the reference first,
// then the binned candidates, then the others in portfolio order. The portfolio's own
// order is the preference among near-equal validation AUCs (winner), where the binned
// candidates, the most flexible models, come last; in the budget they come first
// because on small numeric data they are the candidates likeliest to change the choice
// (bench/vs-lr: the AUC learners after Uni-Log won one set of 19, fourclass, where Uni-Log
// on bins does better still), and a budget as short as LIBLINEAR's tuning (0.1 s on
// the small sets) is spent before the last candidates' turn.
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
		"tolerance": r.Tolerance, "budget_seconds": r.Budget, "auto_seconds": r.AutoSeconds})
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
	dir, err := os.MkdirTemp("", "aucopt-autocv-")
	if err != nil {
		return nil, fmt.Errorf("auto cv: %w", err)
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	total := k * repeats
	for r, fs := range folds {
		for f, fold := range fs {
			t0 := time.Now()
			trainPath, testPath := filepath.Join(dir, "train.cache"), filepath.Join(dir, "test.cache")
			if err := data.SaveCache(trainPath, ds.Subset(fold.Train)); err != nil {
				return nil, fmt.Errorf("auto cv: %w", err)
			}
			if err := data.SaveCache(testPath, ds.Subset(fold.Test)); err != nil {
				return nil, fmt.Errorf("auto cv: %w", err)
			}
			acfg := cfg.AutoConfig
			acfg.Data, acfg.Test, acfg.Positive, acfg.Table, acfg.Done = trainPath, testPath, "", nil, nil
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
