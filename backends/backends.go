// Package backends names the kernels.Backend implementations, opens them by name and
// chooses among them: the registry every front end selects a backend through.
//
// An implementation registers itself from its package's init function, as an image
// format does with image.RegisterFormat or a database driver with sql.Register:
//
//	func init() {
//		backends.Register(backends.Driver{Name: "generic", Priority: 10, Open: …})
//	}
//
// so that this package, and the engine above it, import no implementation. A program
// links the implementations it wants by importing their packages for their side effect,
// all of them at once through package backends/all:
//
//	import _ "github.com/aucopt/aucopt/backends/all" // generic, avx2 and cuda
//
// The commands (cmd/aucopt, aucopt-beam, …), the C API and the examples do; a library
// that only trains through the engine leaves the choice to its program. With nothing
// registered, Open and Auto return ErrNone, whose message names that import.
//
// Each backend is probed once per process, on first use (sync.OnceValue): whether it
// opens here, why not, and what it runs on. Asking again for an unavailable backend
// returns the probe's error without trying again; an available one is opened anew for
// each caller, who closes it.
package backends

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/kernels"
)

// Env is the environment variable that chooses a backend when no name is given
// (Select).
const Env = "AUCOPT_BACKEND"

// Auto is the name of automatic selection: the most capable available backend (Open),
// or one per workload (the engine's entry points, through Auto).
const Auto = "auto"

// ErrUnknown is wrapped by the error for a name no driver registered; it is the
// input's fault (fault.ErrInput).
var ErrUnknown = fault.NewInput("unknown backend")

// ErrNone is returned when no backend is registered: the program links none.
var ErrNone = errors.New(`no compute backend is registered: import _ "github.com/aucopt/aucopt/backends/all" in the program (or one backend package: fallback, asm, cuda)`)

// Driver is what an implementation registers: its name and how to open it.
type Driver struct {
	// Name is the selector's name, as the backend's Name method returns it: "generic".
	Name string
	// Priority orders automatic selection: the available driver of highest priority
	// is chosen (cuda 30, avx2 20, generic 10).
	Priority int
	// Device marks a backend that computes on a device: automatic selection runs only
	// the workloads that pay for its fixed costs on it (the engine's Workload.OnDevice).
	Device bool
	// Open opens a new backend, or returns an error saying why it cannot run here
	// (missing instructions, no driver or device). The caller closes the backend.
	Open func() (kernels.Backend, error)
}

// Registry is a set of drivers and their probes. The package's functions use one
// process-wide Registry, the only mutable state of the package, filled by the
// implementations' init functions; a zero Registry is empty and ready to use.
type Registry struct {
	mu      sync.Mutex
	drivers []Driver
	probed  func() []probe // set on first use; Register refuses drivers after it
}

// probe is what the registry learnt by opening a driver once.
type probe struct {
	Driver
	err    error  // why it does not open here, or nil
	detail string // kernels.DetailOf of the opened backend
}

var registry Registry

// Register adds d to the process-wide registry. It panics when d has no name or no
// Open, when its name is taken or is "auto", or when the registry was already used:
// drivers register from init functions.
func Register(d Driver) { registry.Register(d) }

// Register adds d to r; see the package's Register.
func (r *Registry) Register(d Driver) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case d.Name == "" || d.Open == nil:
		panic("backends: Register of a driver without a name or an Open function")
	case d.Name == Auto || strings.ToLower(d.Name) != d.Name:
		panic(fmt.Sprintf("backends: Register: %q is not a backend name (lower case, not %q)", d.Name, Auto))
	case r.probed != nil:
		panic(fmt.Sprintf("backends: Register(%q) after the registry was used", d.Name))
	case slices.ContainsFunc(r.drivers, func(o Driver) bool { return o.Name == d.Name }):
		panic(fmt.Sprintf("backends: Register called twice for %q", d.Name))
	}
	r.drivers = append(r.drivers, d)
}

// probes returns the drivers, highest priority first, each opened once (the first
// call probes; later ones return what it found).
func (r *Registry) probes() []probe {
	r.mu.Lock()
	if r.probed == nil {
		drivers := slices.Clone(r.drivers)
		slices.SortStableFunc(drivers, func(a, b Driver) int {
			return cmp.Or(cmp.Compare(b.Priority, a.Priority), strings.Compare(a.Name, b.Name))
		})
		r.probed = sync.OnceValue(func() []probe {
			out := make([]probe, len(drivers))
			for i, d := range drivers {
				out[i].Driver = d
				b, err := d.Open()
				if err != nil {
					out[i].err = err
					continue
				}
				out[i].detail = kernels.DetailOf(b)
				_ = b.Close()
			}
			return out
		})
	}
	f := r.probed
	r.mu.Unlock()
	return f()
}

// Names returns "auto", then the registered backends' names in automatic selection's
// order (highest priority first).
func Names() []string { return registry.Names() }

// Names returns r's names; see the package's Names.
func (r *Registry) Names() []string {
	names := []string{Auto}
	for _, p := range r.probes() {
		names = append(names, p.Name)
	}
	return names
}

// Open returns a new backend called name (case and surrounding space ignored), which
// the caller closes. An empty name or "auto" is the most capable available backend.
// An unknown name is an error wrapping ErrUnknown; an unavailable backend's error says
// why it is unavailable ("backend cuda: unavailable: no device"); both are the input's
// fault (fault.ErrInput).
func Open(name string) (kernels.Backend, error) { return registry.Open(name) }

// Open opens a backend of r; see the package's Open.
func (r *Registry) Open(name string) (kernels.Backend, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" || n == Auto {
		return r.Auto(true)
	}
	ps := r.probes()
	for _, p := range ps {
		if p.Name == n {
			if p.err != nil {
				return nil, fault.Input(backendError(n, p.err))
			}
			b, err := p.Open()
			if err != nil {
				return nil, fault.Input(backendError(n, err))
			}
			return b, nil
		}
	}
	if len(ps) == 0 {
		return nil, ErrNone
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrUnknown, name, strings.Join(r.Names(), ", "))
}

// backendError names the backend in err once: "backend cuda: unavailable: …", whether
// or not err's message starts with the name already ("cuda: unavailable: …").
func backendError(name string, err error) error {
	if strings.HasPrefix(err.Error(), name+": ") {
		return fmt.Errorf("backend %w", err)
	}
	return fmt.Errorf("backend %s: %w", name, err)
}

// Auto opens the available backend of highest priority, a device backend only when
// device is true (the workload pays for it), and returns ErrNone when there is none.
// The caller closes it.
func (r *Registry) Auto(device bool) (kernels.Backend, error) {
	ps := r.probes()
	for _, p := range ps {
		if p.err != nil || p.Device && !device {
			continue
		}
		if b, err := p.Open(); err == nil {
			return b, nil
		}
	}
	if len(ps) == 0 {
		return nil, ErrNone
	}
	return nil, fmt.Errorf("no registered backend runs here (%s)", strings.Join(r.Names()[1:], ", "))
}

// OpenAuto is the process-wide registry's Auto: the available backend of highest
// priority, a device backend only when device is true.
func OpenAuto(device bool) (kernels.Backend, error) { return registry.Auto(device) }

// Host opens the best available backend that computes in host memory (automatic
// selection's choice for a workload that does not run on a device), limited to workers
// goroutines when workers > 0 and the backend can be (kernels.Splitter). The caller
// closes it.
func Host(workers int) (kernels.Backend, error) {
	b, err := registry.Auto(false)
	if err != nil || workers <= 0 {
		return b, err
	}
	if s, ok := b.(kernels.Splitter); ok {
		w := s.WithWorkers(workers)
		_ = b.Close()
		return w, nil
	}
	return b, nil
}

// Select resolves a backend setting (a --backend flag): name, or $AUCOPT_BACKEND when
// name is empty. For auto, or nothing set, it returns nil, which the engine takes as
// "choose per workload"; for a concrete name, the backend, opened (the caller closes
// it). An unknown or unavailable name is the input's fault, as Open says.
func Select(name string) (kernels.Backend, error) {
	if name == "" {
		name = os.Getenv(Env)
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", Auto:
		return nil, nil
	}
	return Open(name)
}

// Default returns b with a no-op release when b is not nil (its caller owns it), else
// the default selection with the function that closes it: the backend $AUCOPT_BACKEND
// names (Select), else automatic selection's (OpenAuto: a device backend, where one is
// available, when device). It is how a configuration lets a nil backend mean the
// default.
func Default(b kernels.Backend, device bool) (kernels.Backend, func(), error) {
	if b != nil {
		return b, func() {}, nil
	}
	d, err := Select("")
	if err == nil && d == nil {
		d, err = OpenAuto(device)
	}
	if err != nil {
		return nil, nil, err
	}
	return d, func() { _ = d.Close() }, nil
}

// Status describes one registered backend on this machine.
type Status struct {
	Name      string `json:"name"`               // selector name: cuda, avx2 or generic
	Available bool   `json:"available"`          // whether it runs here
	Reason    string `json:"reason,omitempty"`   // why it is unavailable; empty when available
	Detail    string `json:"detail,omitempty"`   // what runs, e.g. the instruction sets or the GPU; empty if unknown
	Auto      bool   `json:"auto"`               // whether automatic selection runs some workloads on it here
	AutoFor   string `json:"auto_for,omitempty"` // which workloads, when Auto
}

// Report lists every registered backend, in automatic selection's order, with whether
// it is available, why not, and which workloads automatic selection runs on it:
// deviceRule (the engine's words for the workloads that pay for a device) on the
// device backend it picks, every other one on the host backend.
func Report(deviceRule string) []Status { return registry.Report(deviceRule) }

// Report lists r's backends; see the package's Report.
func (r *Registry) Report(deviceRule string) []Status {
	var out []Status
	device, host := -1, -1 // the backends automatic selection picks
	for i, p := range r.probes() {
		st := Status{Name: p.Name, Available: p.err == nil, Detail: p.detail}
		if p.err != nil {
			// The name is the row's; keep the cause.
			st.Reason = strings.TrimPrefix(p.err.Error(), p.Name+": ")
		} else if p.Device && device < 0 {
			device = i
		} else if !p.Device && host < 0 {
			host = i
		}
		out = append(out, st)
	}
	switch {
	case host < 0:
	case device >= 0:
		out[device].Auto, out[device].AutoFor = true, deviceRule
		out[host].Auto, out[host].AutoFor = true, "every other workload"
	default:
		out[host].Auto, out[host].AutoFor = true, "every workload"
	}
	return out
}
