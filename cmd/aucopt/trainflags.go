package main

import (
	"fmt"
	"strings"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/kernels"
	flag "github.com/spf13/pflag"
)

// trainFlags are the flags that say how a learner trains, shared by the commands that
// train (train, cv, plot convergence, experiment) in the shape of cmd/go's
// work.AddBuildFlags: declared once, with one help text each (addTrainFlags), checked
// once (check) and turned into the library's configuration in one place (config). A
// training flag that reaches the solver is added here and in the engine.
type trainFlags struct {
	fs        *flag.FlagSet
	what      trainFlagSet
	params    *[]string // -p key=value; nil without withLearner
	passes    *int
	shuffle   *bool   // nil without withLearner
	scale     *string // nil without withLearner
	seed      *uint64
	backend   *string
	maxMemory *string
	bins      *int       // nil without withBins
	read      *readFlags // nil without withLearner

	// Set by check.
	maxBytes int64
	// perAlgo, set by splitParams, holds -p's parameters of each of several
	// algorithms (plot convergence's "algo:key=value").
	perAlgo  map[string]solver.Params
	positive string
	table    *data.TableOptions
	indices  data.IndexBase
}

// trainFlagSet says which training flags a command takes besides --passes, --seed,
// --backend and --max-memory, which all of them take.
type trainFlagSet uint8

const (
	// withLearner: the command chooses the data and the learner's settings (train, cv,
	// plot convergence): -p, --shuffle, --scale and the read flags (addReadFlags).
	// Without it (experiment) a protocol fixes them, --passes 0 is the protocol's
	// one pass and --seed 0 is a seed like any other.
	withLearner trainFlagSet = 1 << iota
	// withBins: --bins (train, cv).
	withBins
)

// addTrainFlags declares the training flags what names on fs.
func addTrainFlags(fs *flag.FlagSet, what trainFlagSet) *trainFlags {
	f := &trainFlags{fs: fs, what: what}
	f.passes = fs.Int("passes", 0, passesUsage())
	f.seed = fs.Uint64("seed", 1, "random seed of everything drawn: shuffling, folds and splits, the grouping of a multi-class dataset's classes, the algorithms' own randomness (cv's repeat r uses seed+r-1 for its folds); the same seed gives the same bits")
	f.backend = fs.String("backend", "", "compute backend: auto, cuda, avx2 or generic (default $"+backends.Env+", else auto)")
	f.maxMemory = fs.String("max-memory", "", "the memory the learners may take, e.g. 8GiB or 500MB (default: the memory available: the cgroup's limit, ulimit -v or the physical memory); a run that needs more is refused before it starts")
	if what&withLearner != 0 {
		f.params = fs.StringArrayP("param", "p", nil, "hyper-parameter key=value, repeatable (keys per algorithm: aucopt train --algo NAME --help-params); with several algorithms (plot convergence), algo:key=value sets it for one of them")
		f.shuffle = fs.Bool("shuffle", true, "visit the training rows in a seeded random order each pass")
		f.scale = fs.String("scale", data.ScaleAuto, scaleUsage())
		f.read = addReadFlags(fs)
	}
	if what&withBins != 0 {
		f.bins = fs.Int("bins", 0, fmt.Sprintf("expand each numeric feature, after scaling, by the indicators of at most this many quantile bins of its training values, 2 to %d (0: none): an additive score, a step function of each feature beside its linear term; the model records the bins, up to %d features", data.MaxBins, data.AutoScaleMaxDim))
	}
	return f
}

// passesUsage is --passes' help text, with each algorithm's default passes from its
// Spec (solver.Spec.MinSteps), grouped by MinSteps in registry order.
func passesUsage() string {
	var order []int
	names := map[int][]string{}
	for _, s := range solver.Registry() {
		if s.IsBatch() || s.MinSteps <= 0 {
			continue
		}
		if names[s.MinSteps] == nil {
			order = append(order, s.MinSteps)
		}
		names[s.MinSteps] = append(names[s.MinSteps], s.Name)
	}
	var groups []string
	for i, steps := range order {
		g := fmt.Sprintf("⌈%s/rows⌉", groupDigits(steps))
		if i == 0 {
			g += fmt.Sprintf(" up to %d", solver.MaxDefaultPasses)
		}
		groups = append(groups, g+" for "+andList(names[steps]))
	}
	return fmt.Sprintf("passes of an online algorithm over its training rows (a batch one fits once); 0: the learner's default: one from %s rows; below, %s, one for the others (experiment: the papers' one; more is a departure from the protocol, recorded in the report)",
		groupDigits(solver.OnePassRows), strings.Join(groups, ", "))
}

// scaleUsage is --scale's help text, naming the algorithms that assume rows of norm at
// most 1 (solver.Spec.UnitRows).
func scaleUsage() string {
	var unit []string
	for _, s := range solver.Registry() {
		if s.UnitRows {
			unit = append(unit, s.Name)
		}
	}
	return fmt.Sprintf("feature scaling, fitted on the training rows (in cv on each training fold alone): auto (minmax up to %d features, else none; for %s, which assume ||x|| <= 1: minmax-unit, else unit), none, minmax ([-1,1]), norm ((x-mean)/||x||), unit (x/||x||), minmax-unit (minmax, then (x-mean)/||x-mean||)",
		data.AutoScaleMaxDim, andList(unit))
}

// algoUsage is the help text of a command's --algo: the registered algorithms, and
// what auto means there ("" where the command has no auto).
func algoUsage(auto string) string {
	s := "algorithm: " + strings.Join(solver.Names(), ", ")
	if auto != "" {
		s += ", or auto (" + auto + ")"
	}
	return s
}

// andList writes names as "a", "a and b" or "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// groupDigits writes n with commas between groups of three digits (20,000).
func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// check checks the training flags' values before any work and keeps what they parse
// to: the read options, --passes at least 0, --bins, --seed not 0 (which the library
// would take for its default seed), --max-memory.
func (f *trainFlags) check() error {
	if f.read != nil {
		var err error
		if f.positive, f.table, err = f.read.options(); err != nil {
			return err
		}
		if f.indices, err = f.read.indices(); err != nil {
			return err
		}
	}
	if f.what&withLearner != 0 && *f.passes < 0 {
		return inputErrorf("--passes %d: want 0 (the learner's default) or more", *f.passes)
	}
	if f.bins != nil {
		if err := checkBins(*f.bins); err != nil {
			return err
		}
	}
	if f.what&withLearner != 0 {
		if err := checkSeed(*f.seed); err != nil {
			return err
		}
	}
	var err error
	f.maxBytes, err = parseMaxMemory(*f.maxMemory)
	return err
}

// selectBackend opens --backend's backend; nil for auto (chosen per workload). The
// caller closes a backend it gets.
func (f *trainFlags) selectBackend() (kernels.Backend, error) {
	return backends.Select(*f.backend)
}

// config is the library's configuration of a run of algo on backend b (nil: chosen per
// workload) from the training flags (after check): -p's key=values are set on algo's
// parameters here, once (parseParams). The command adds what is its own (the data, the
// outputs, progress).
func (f *trainFlags) config(algo string, b kernels.Backend) (engine.TrainConfig, error) {
	cfg := engine.TrainConfig{Algo: algo, Passes: *f.passes, Seed: *f.seed, Backend: b, MaxMemory: f.maxBytes}
	if f.what&withLearner != 0 {
		params, ok := f.perAlgo[algo]
		if !ok {
			var err error
			if params, err = solver.ParamsOf(algo, *f.params); err != nil {
				return cfg, err
			}
		}
		cfg.Params, cfg.Shuffle, cfg.Scale = params, *f.shuffle, *f.scale
		cfg.Positive, cfg.Table, cfg.Indices = f.positive, f.table, f.indices
	}
	if f.bins != nil {
		cfg.Bins = *f.bins
	}
	return cfg, nil
}
