package solver

import (
	"fmt"
	"strings"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/internal/suggest"

	"github.com/aucopt/aucopt/kernels"
)

// Spec describes one algorithm for the CLI and the grid search.
type Spec struct {
	Name string // CLI name, kebab case: opauc, spam-net, …
	Doc  string // one line for help texts
	Ref  string // the paper and algorithm or equation
	// Params returns fresh Params holding the algorithm's defaults (its own copy: the
	// caller may Set them).
	Params func() Params
	// Grid is the paper's hyper-parameter grid.
	Grid Grid
	// UnitRows says the algorithm assumes rows of norm at most 1 (SOLAM's and FSAUC's
	// κ = 1): automatic scaling then normalises rows instead of min-max scaling.
	UnitRows bool
	// Rotational says the learner is rotation-equivariant and starts at w = 0 with
	// updates in the span of differences of training rows (OPAUC: square loss, full
	// covariances, ℓ2 regularisation). Trained on the rows' coordinates Qᵀ(x − x̄) in an
	// orthonormal basis Q of that span, it gives w = Q·v up to rounding, so the same
	// scores up to a constant: a grid search may train it on fewer coordinates when
	// the rows are linearly dependent (one-hot groups).
	Rotational bool
	// DeviceValues > 0 says the algorithm's time goes to large dense kernels that a
	// device backend runs fast (OPAUC's and LS-AUC's covariances, MBA's Σ_S, SPDAM's
	// dense batches), not to a host round trip per example, and from how many training
	// values n·d·passes on (of dense data) a GPU trains it faster than the CPU: automatic
	// backend selection runs it on a GPU from there (Spec.OnDevice). 0: never.
	DeviceValues int64
	// SetStreamLength, when set, says the algorithm sizes its schedule from the number
	// of examples n ≥ 1 it will see, known in advance (FSAUC: the number and length of
	// its stages), and sets n in params (made by Params). A caller that knows the
	// stream (one pass over a training set: its rows) calls it before making the
	// learner; nil for an algorithm that needs no such number.
	SetStreamLength func(params Params, n int)
	// StreamLengthKey is the parameter SetStreamLength sets (FSAUC's "n"): a caller
	// leaves it alone where the user set it.
	StreamLengthKey string
	// MinSteps > 0 says the learner needs about that many steps before its output (an
	// averaged iterate, a saddle point) settles, whatever the data: when the caller
	// sets no passes, it makes DefaultPasses(n) passes over n training rows. Zero for
	// a learner whose default is one pass (the one-pass learners the papers run so).
	MinSteps int
	// NewOnline makes an online learner from params (made by Params); nil for a batch
	// algorithm.
	NewOnline func(b kernels.Backend, dim int, params Params, seed uint64) (Online, error)
	// NewBatch makes a batch learner from params (made by Params); nil for an online
	// algorithm. Exactly one of NewOnline and NewBatch is set.
	NewBatch func(b kernels.Backend, dim int, params Params, seed uint64) (Batch, error)
	// NewMulti, when set, trains a whole grid of an online algorithm in one pass with
	// statistics shared between the grid points (OPAUC's class covariances), one grid
	// point per element of params (each made by Params). NewMulti (the function) falls
	// back to independent learners without it.
	NewMulti func(b kernels.Backend, dim int, params []Params, seed uint64) (Multi, error)
	// StateBytes is the memory, in bytes, a learner made with params (made by Params)
	// holds for dim features and rows training rows: its state and the working copies
	// it always builds, not the training data. A caller compares it with the memory
	// available before making the learner.
	StateBytes func(dim, rows int, params Params) float64
	// Defaults, when set, scales the defaults in params (made by Params, before the
	// caller's key=values) to the training data (each algorithm's file has its rule,
	// defaults.go the shared ones).
	Defaults func(f DataFacts, params Params)
}

// IsBatch reports whether the algorithm is a batch one (NewBatch).
func (s Spec) IsBatch() bool { return s.NewBatch != nil }

// MaxDefaultPasses bounds the passes DefaultPasses gives.
const MaxDefaultPasses = 100

// OnePassRows is the training set size from which every online learner's default is
// one pass, the regime of the papers' experiments (a9a, w8a and larger), whatever its
// MinSteps.
const OnePassRows = 20_000

// DefaultPasses is the passes an online learner makes over rows training rows when
// the caller sets none: ⌈MinSteps/rows⌉, between 1 and MaxDefaultPasses, so that a
// learner with MinSteps sees at least that many examples on a small set (as far as
// the cap allows) and makes one pass on a large one (from OnePassRows rows); 1
// without MinSteps or when rows is not known (< 1), 0 for a batch algorithm (it fits
// once).
func (s Spec) DefaultPasses(rows int) int {
	switch {
	case s.IsBatch():
		return 0
	case s.MinSteps <= 0 || rows < 1 || rows >= s.MinSteps || rows >= OnePassRows:
		return 1 // rows < 1: not known
	}
	return min((s.MinSteps+rows-1)/rows, MaxDefaultPasses)
}

// online adapts a typed constructor NewXxx(b, dim, XxxParams, seed) to a Spec.
func online[P any, S Online](name, doc, ref string, defaults func() P, grid Grid,
	newFn func(kernels.Backend, int, P, uint64) (S, error)) Spec {
	s := Spec{Name: name, Doc: doc, Ref: ref, Grid: grid, Params: func() Params { p := defaults(); return paramsOf(&p) }}
	typed := adapt(name, newFn)
	s.NewOnline = func(b kernels.Backend, dim int, params Params, seed uint64) (Online, error) {
		return typed(b, dim, params, seed)
	}
	return s
}

// adapt turns a typed constructor into one over the Params that Spec.Params makes,
// naming the algorithm in its errors.
func adapt[P, S any](name string, newFn func(kernels.Backend, int, P, uint64) (S, error)) func(kernels.Backend, int, Params, uint64) (S, error) {
	return func(b kernels.Backend, dim int, params Params, seed uint64) (S, error) {
		p := typedParams[P](name, params)
		s, err := newFn(b, dim, *p, seed)
		if err != nil {
			var zero S
			return zero, fmt.Errorf("%s: %w", name, err)
		}
		return s, nil
	}
}

// ErrUnknownAlgorithm is wrapped by Lookup's error for a name no algorithm has.
var ErrUnknownAlgorithm = fault.NewInput("unknown algorithm")

// Lookup returns the Spec called name, or an error wrapping ErrUnknownAlgorithm that
// lists the known names.
func Lookup(name string) (Spec, error) {
	for _, s := range Registry() {
		if s.Name == name {
			return s, nil
		}
	}
	return Spec{}, fmt.Errorf("%w %q%s (known: %s)", ErrUnknownAlgorithm, name, suggest.Hint(name, Names()), strings.Join(Names(), ", "))
}

// Names lists the registered algorithms in help order.
func Names() []string {
	var out []string
	for _, s := range Registry() {
		out = append(out, s.Name)
	}
	return out
}

// batch adapts a typed constructor NewXxx(b, dim, XxxParams, seed) of a batch learner
// to a Spec.
func batch[P any, S Batch](name, doc, ref string, defaults func() P, grid Grid,
	newFn func(kernels.Backend, int, P, uint64) (S, error)) Spec {
	s := Spec{Name: name, Doc: doc, Ref: ref, Grid: grid, Params: func() Params { p := defaults(); return paramsOf(&p) }}
	typed := adapt(name, newFn)
	s.NewBatch = func(b kernels.Backend, dim int, params Params, seed uint64) (Batch, error) {
		return typed(b, dim, params, seed)
	}
	return s
}

// typedParams returns the struct params refers to; it panics when that is not a P: a
// programmer error (params made by another algorithm's Spec, or the zero Params).
func typedParams[P any](name string, params Params) *P {
	p, ok := params.ptr.(*P)
	if !ok {
		panic(fmt.Sprintf("solver: %s takes %T parameters, not %T", name, new(P), params.ptr))
	}
	return p
}

// withStreamLength sets s's SetStreamLength from a setter of its typed parameters P,
// and StreamLengthKey to the parameter it sets.
func withStreamLength[P any](s *Spec, key string, set func(p *P, n int)) {
	name := s.Name
	s.SetStreamLength = func(params Params, n int) { set(typedParams[P](name, params), n) }
	s.StreamLengthKey = key
}

// check reports what a Spec lacks that every algorithm must declare: a name, a help
// line, a parameter set, exactly one constructor and its state size.
func (s Spec) check() error {
	switch {
	case s.Name == "" || s.Doc == "" || s.Params == nil:
		return fmt.Errorf("solver: Spec %q: name, help line and Params are required", s.Name)
	case (s.NewOnline == nil) == (s.NewBatch == nil):
		return fmt.Errorf("solver: Spec %s: exactly one of NewOnline and NewBatch", s.Name)
	case s.StateBytes == nil:
		return fmt.Errorf("solver: Spec %s: no state size (withState in its file)", s.Name)
	}
	return nil
}
