package engine

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/bytesize"
)

// ErrMemory is wrapped (with ErrInput) by the error of a run whose learners' state
// would not fit in the memory available: it is refused before anything is allocated.
var ErrMemory = errors.New("not enough memory")

// memLimit is the memory a run may use, in bytes, and where that number comes from.
type memLimit struct {
	Bytes  float64 // +Inf when unknown
	Source string  // "cgroup v2 memory.max", "physical memory available", "the memory limit given" (MaxMemory), …
}

// availableMemory returns the memory a run may use: the least of the cgroup's limit
// (v2 memory.max or v1 memory.limit_in_bytes), the address-space limit (ulimit -v) and
// the physical memory available (/proc/meminfo's MemAvailable), where the system has
// them; +Inf where it has none of them (outside Linux).
func availableMemory() memLimit {
	best := memLimit{Bytes: math.Inf(1), Source: "unknown"}
	for _, l := range systemMemoryLimits() {
		if l.Bytes > 0 && l.Bytes < best.Bytes {
			best = l
		}
	}
	return best
}

// memoryLimit resolves a run's limit: maxBytes when positive (MaxMemory, --max-memory),
// else availableMemory.
func memoryLimit(maxBytes int64) memLimit {
	if maxBytes > 0 {
		return memLimit{Bytes: float64(maxBytes), Source: maxMemorySource}
	}
	return availableMemory()
}

// groupDigits writes n with commas between groups of three digits: 2,000,001.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// checkMemory refuses a run of spec whose state (need bytes, what describing it, e.g.
// "for 2,000,001 features") exceeds the limit, with one line naming the algorithm, the
// size and the algorithms whose state (at their defaults) would fit. The error wraps
// ErrMemory and ErrInput.
func checkMemory(spec solver.Spec, need float64, what string, dim, rows int, limit memLimit) error {
	if need <= limit.Bytes {
		return nil
	}
	var fit []string
	for _, s := range solver.Registry() {
		if s.Name != spec.Name && s.StateBytes(dim, rows, s.Params()) <= limit.Bytes {
			fit = append(fit, s.Name)
		}
	}
	advice := "no algorithm fits: give more memory or fewer features"
	switch len(fit) {
	case 0:
	case 1:
		advice = "use " + fit[0]
	default:
		advice = "use " + strings.Join(fit[:len(fit)-1], ", ") + " or " + fit[len(fit)-1]
	}
	source := strings.ReplaceAll(limit.Source, "%", "%%")
	if limit.Source == maxMemorySource {
		source = "{MaxMemory}" // the setting, which a command names by its flag
	}
	return memoryError{fault.Settingf("%s needs %s %s, more than the %s of "+source+"; %s",
		spec.Name, bytesize.Format(need), what, bytesize.Format(limit.Bytes), advice)}
}

// maxMemorySource is the Source of the limit the caller set (MaxMemory).
const maxMemorySource = "the memory limit given"

// memoryError is checkMemory's error, the input's fault; it wraps ErrMemory without
// repeating its text.
type memoryError struct{ err error }

func (e memoryError) Error() string   { return e.err.Error() }
func (e memoryError) Unwrap() []error { return []error{e.err, ErrMemory} }

// featuresOf describes the data a state size was computed for.
func featuresOf(dim int) string { return "for " + groupDigits(dim) + " features" }

// CheckMemory refuses, before anything is allocated, a run of spec over params (one
// point, or a grid; each made by spec.Params) on dim features and rows training rows
// whose learners would not fit in maxBytes, or without it (0) in availableMemory: a grid
// holds its points as Grid does, workers bounding a batch grid's fits at once. Its
// error wraps ErrMemory and ErrInput and names the algorithms that would fit.
func CheckMemory(spec solver.Spec, params []solver.Params, dim, rows, workers int, maxBytes int64) error {
	need, what := gridStateBytes(spec, params, dim, rows, max(workers, 1))
	return checkMemory(spec, need, what, dim, rows, memoryLimit(maxBytes))
}
