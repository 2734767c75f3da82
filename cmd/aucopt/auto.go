package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/solver"
)

// budgetUsage is the --budget flag's help text (train and cv).
const budgetUsage = "with --algo auto: the time the candidates' grid searches may take, by their estimated cost from the rows and features (deterministic; Uni-Log, the reference, always runs; e.g. 30s, 2m)"

// checkAutoFlags refuses the flags --algo auto cannot honour, and --budget without it.
func checkAutoFlags(auto bool, changed func(string) bool, flags ...string) error {
	if !auto {
		if changed("budget") {
			return inputErrorf("--budget goes with --algo auto")
		}
		return nil
	}
	for _, f := range flags {
		if changed(f) {
			return inputErrorf("--algo auto chooses the algorithm and its parameters: --%s does not apply", f)
		}
	}
	return nil
}

// runAuto runs engine.Auto for aucopt train --algo auto and reports it.
func runAuto(ctx context.Context, cfg engine.AutoConfig, model string, asJSON, quiet bool, stdout, stderr io.Writer) error {
	if !quiet {
		cfg.Done = func(e engine.AutoEntry) {
			fmt.Fprintf(stderr, "auto: %-13s %s\n", e.Name(), entryOutcome(e))
		}
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
	fmt.Fprintf(stdout, "auto on %s: %d rows, %d features, budget %s, %s, backend %s; %.3fs in all\n",
		res.Data, res.TrainRows, res.Features, time.Duration(res.Budget*float64(time.Second)), res.Selection, res.Backend, res.AutoSeconds)
	fmt.Fprintf(stdout, "  winner: the first in portfolio order within %.4f of the best validation AUC\n", res.Tolerance)
	fmt.Fprintf(stdout, "  %-3s %-13s %-27s %-9s %9s %9s  %s\n", "#", "algo", "grid", "val AUC", "est. s", "seconds", "best point")
	for i, e := range res.Leaderboard {
		val, point := "-", entryOutcome(e)
		if e.ValAUC != nil {
			val, point = fmt.Sprintf("%.4f", *e.ValAUC), formatParams(e.Params)
		}
		fmt.Fprintf(stdout, "  %-3d %-13s %-27s %-9s %9.3f %9.3f  %s\n", i+1, e.Name(), e.Grid, val, e.Estimate, e.Seconds, point)
	}
	fmt.Fprintf(stdout, "winner %s refitted on all %d training rows in %.3fs: %s\n", res.Algo, res.TrainRows, res.Seconds, formatParams(res.Params))
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
	}
	return ""
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
