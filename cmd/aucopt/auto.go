package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/solver"
)

// budgetUsage is the --budget flag's help text (train and cv).
const budgetUsage = "with --algo auto: the wall-clock time of the search after loading, trials, grid searches and the winner's refit included; the candidates run cheapest first by estimates measured on a sample of the rows, Uni-Log (the reference) first; the winner is the first in portfolio order within about one standard error (0.1/sqrt(rows of the smaller class validated on)) of the best validation AUC (e.g. 3s, 2m)"

// checkAutoFlags refuses the flags --algo auto cannot honour, a budget that is not
// positive, and --budget without it. --bins is refused with auto: its portfolio
// chooses whether to bin (its binned candidate's bins are fixed), so a number of bins
// could not take effect.
func checkAutoFlags(auto bool, budget time.Duration, changed func(string) bool, flags ...string) error {
	if !auto {
		if changed("budget") {
			return inputErrorf("--budget goes with --algo auto")
		}
		return nil
	}
	if budget <= 0 {
		return inputErrorf("--budget %s: want a positive duration, e.g. 3s", budget)
	}
	for _, f := range flags {
		switch {
		case !changed(f):
		case f == "bins":
			return inputErrorf("--algo auto chooses whether to bin the features (its candidate %s tries %d bins beside the plain features): --bins does not apply",
				engine.AutoBinnedName, engine.AutoBins)
		default:
			return inputErrorf("--algo auto chooses the algorithm and its parameters: --%s does not apply", f)
		}
	}
	return nil
}

// runAuto runs engine.Auto for aucopt train --algo auto and reports it.
func runAuto(ctx context.Context, cfg engine.AutoConfig, model string, asJSON, quiet bool, stdout, stderr io.Writer) error {
	if !quiet {
		p := &autoProgress{w: stderr, tty: isTerminal(stderr)}
		cfg.Started, cfg.Done = p.started, p.done
		defer p.clear()
	}
	res, err := engine.Auto(ctx, cfg)
	if err != nil {
		return err
	}
	if model != "" {
		if err := res.Model().Write(model); err != nil {
			return err
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	fmt.Fprintf(stdout, "auto on %s: %d rows, %d features, budget %s, %s, backend %s; %.3fs of search after %.3fs of loading\n",
		res.Data, res.Rows, res.Features, time.Duration(res.Budget*float64(time.Second)), res.Selection, res.Backend, res.AutoSeconds, res.LoadSeconds)
	if res.Tolerance > 0 {
		fmt.Fprintf(stdout, "  winner: the first in portfolio order within %.4f of the best validation AUC\n", res.Tolerance)
	}
	fmt.Fprintf(stdout, "  %-3s %-13s %-27s %-9s %6s %8s %9s %9s  %s\n", "#", "algo", "grid", "val AUC", "trial", "trial s", "est. s", "seconds", "best point")
	for i, e := range res.Leaderboard {
		val, point := "-", entryOutcome(e)
		if e.ValAUC != nil {
			val, point = fmt.Sprintf("%.4f", *e.ValAUC), formatParams(e.Params)
		}
		fmt.Fprintf(stdout, "  %-3d %-13s %-27s %-9s %6d %8.3f %9.3f %9.3f  %s\n", i+1, e.Name(), e.Grid, val, e.TrialRows, e.TrialSeconds, e.Estimate, e.Seconds, point)
	}
	if w := res.Leaderboard[0]; w.FittedRows != 0 {
		fmt.Fprintf(stdout, "winner %s: its trial's model, chosen and fitted on %d of the %d training rows: %s\n", w.Name(), w.FittedRows, res.Rows, formatParams(res.Params))
	} else {
		fmt.Fprintf(stdout, "winner %s refitted on all %d training rows in %.3fs: %s\n", w.Name(), res.TrainRows, res.Seconds, formatParams(res.Params))
	}
	printOutcome(stdout, res.TrainResult, model)
	return nil
}

// entryOutcome is a leaderboard entry's result in words.
func entryOutcome(e engine.AutoEntry) string {
	switch {
	case e.Skipped != "":
		return "skipped: " + e.Skipped
	case e.Failed != "":
		return "failed: " + e.Failed
	case e.ValAUC != nil:
		return fmt.Sprintf("validation AUC %.4f in %.3fs (%s)", *e.ValAUC, e.Seconds, formatParams(e.Params))
	case e.FittedRows != 0:
		return fmt.Sprintf("its trial's model, chosen and fitted on %d rows in %.3fs (%s)", e.FittedRows, e.TrialSeconds, formatParams(e.Params))
	case e.Params != nil:
		return fmt.Sprintf("trained at one point without selection in %.3fs (%s)", e.Seconds, formatParams(e.Params))
	}
	return ""
}

// autoProgress shows Auto's candidates on w (stderr): a line as each starts (its
// estimate and the budget left) and as it ends (its outcome, the candidates done and
// the best validation AUC so far), and on a terminal, while one runs, train's spinner
// with its name.
type autoProgress struct {
	w        io.Writer
	tty      bool
	mu       sync.Mutex
	bar      *bar
	finished int
	best     *engine.AutoEntry
}

// started is engine.AutoConfig.Started.
func (p *autoProgress) started(e engine.AutoEntry, left time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	fmt.Fprintf(p.w, "auto: %-13s started: estimated %.3fs, %s of the budget left\n", e.Name(), e.Estimate, span(left))
	if p.tty {
		p.bar = newBar(p.w, "auto: "+e.Name(), 0, now)
		p.bar.render(now)
		go spin(&p.mu, &p.bar, p.bar)
	}
}

// done is engine.AutoConfig.Done.
func (p *autoProgress) done(e engine.AutoEntry, left time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
	p.finished++
	if e.ValAUC != nil && (p.best == nil || *e.ValAUC > *p.best.ValAUC) {
		p.best = &e
	}
	best := "none yet"
	if p.best != nil {
		best = fmt.Sprintf("%.4f (%s)", *p.best.ValAUC, p.best.Name())
	}
	fmt.Fprintf(p.w, "auto: %-13s %s; %d done, best validation AUC %s, %s left\n", e.Name(), entryOutcome(e), p.finished, best, span(left))
}

// clear erases a spinner still shown.
func (p *autoProgress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}

func (p *autoProgress) clearLocked() {
	if p.bar != nil {
		p.bar.clear()
		p.bar = nil
	}
}

// scaledKeys returns the parameters whose defaults spec scales to the training data
// (solver.Spec.Defaults): those that differ from the static default on either of two
// unlike datasets, a small one trained over many passes and a large one in one.
func scaledKeys(spec solver.Spec) map[string]bool {
	out := map[string]bool{}
	if spec.Defaults == nil {
		return out
	}
	static, a, b := spec.Params().Values(), spec.Params(), spec.Params()
	spec.Defaults(solver.DataFacts{Rows: 100, Features: 10, MeanSqNorm: 5, Positives: 50, Passes: 20}, a)
	spec.Defaults(solver.DataFacts{Rows: 100_000, Features: 1000, MeanSqNorm: 300, Positives: 1000, Passes: 1}, b)
	va, vb := a.Values(), b.Values()
	for k, v := range static {
		if fmt.Sprint(v) != fmt.Sprint(va[k]) || fmt.Sprint(v) != fmt.Sprint(vb[k]) {
			out[k] = true
		}
	}
	return out
}
