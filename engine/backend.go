package engine

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"github.com/aucopt/aucopt/asm"
	"github.com/aucopt/aucopt/cuda"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
	"github.com/klauspost/cpuid/v2"
)

// EnvBackend is the environment variable that chooses a backend when no --backend flag
// is given.
const EnvBackend = "AUCOPT_BACKEND"

// BackendNames are the names Backend accepts, "auto" first, then the concrete backends
// in the order auto tries them.
var BackendNames = []string{"auto", "cuda", "avx2", "generic"}

// ErrUnknownBackend is wrapped by the error Backend returns for a name it does not know.
var ErrUnknownBackend = errors.New("unknown backend")

// backendError names the backend in err once: "backend cuda: unavailable: …", whether
// or not err's message starts with the name already ("cuda: unavailable: …").
func backendError(name string, err error) error {
	if strings.HasPrefix(err.Error(), name+": ") {
		return fmt.Errorf("backend %w", err)
	}
	return fmt.Errorf("backend %s: %w", name, err)
}

// Backend returns the backend called name:
//
//	generic  the pure-Go reference (always available)
//	avx2     AVX2+FMA assembly (AVX-512 where faster); needs amd64 with AVX2 and FMA
//	cuda     the GPU backend; needs the CUDA driver, cuBLAS and a device
//	auto     cuda if available, else avx2 if available, else generic
//
// Backend("auto") is the most capable backend here. The engine's entry points, given
// no backend, choose one per workload instead (AutoBackend): a GPU only where it pays.
//
// An empty name means auto. Asking for an unavailable backend by name is an error that
// says why it is unavailable. The caller closes the backend.
func Backend(name string) (kernels.Backend, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "generic":
		return fallback.New(), nil
	case "avx2":
		b, err := asm.New()
		if err != nil {
			return nil, backendError("avx2", err)
		}
		return b, nil
	case "cuda":
		b, err := cuda.New()
		if err != nil {
			return nil, backendError("cuda", err)
		}
		return b, nil
	case "auto", "":
		for _, n := range []string{"cuda", "avx2"} {
			if b, err := Backend(n); err == nil {
				return b, nil
			}
		}
		return fallback.New(), nil
	}
	return nil, fmt.Errorf("%w %q (want %s)", ErrUnknownBackend, name, strings.Join(BackendNames, ", "))
}

// BackendFromEnv is Backend(name), where an empty name is replaced by $AUCOPT_BACKEND
// (and auto when that is unset too).
func BackendFromEnv(name string) (kernels.Backend, error) {
	if name == "" {
		name = os.Getenv(EnvBackend)
	}
	b, err := Backend(name)
	if err != nil {
		return nil, inputError{err} // an unknown or unavailable backend was asked for
	}
	return b, nil
}

// SelectBackend resolves a --backend flag: name, or $AUCOPT_BACKEND when name is empty.
// For auto (or nothing set) it returns nil, which the engine's configurations take as
// "choose per workload" (AutoBackend); for a concrete name, the backend, opened (the
// caller closes it). An unknown or unavailable name is an input error.
func SelectBackend(name string) (kernels.Backend, error) {
	if name == "" {
		name = os.Getenv(EnvBackend)
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "", "auto":
		return nil, nil
	}
	return BackendFromEnv(name)
}

// Workload is what the automatic choice of a backend looks at: the algorithm and the
// shape of its training data.
type Workload struct {
	Spec      solver.Spec
	Rows, Dim int
	// Density is the share of the values stored, nnz/(rows·dim): 1 for dense data.
	Density float64
	// Passes is the passes an online algorithm makes over the rows (0 or 1 for one, and
	// for a batch algorithm): the kernels run through n·d·Passes values.
	Passes int
}

// Automatic selection runs a workload on a device backend only when the algorithm's
// time goes to large dense kernels and its data is dense and large: at least
// data.DenseAuto of the values stored, at least AutoDeviceDim features, and at least
// the algorithm's solver.Spec.DeviceValues values n·d·passes (measured per algorithm;
// an online learner's passes run the same kernels again, a batch one counts once). Below
// that a GPU's fixed cost per call (a launch, or a host round trip of about 28 µs for a
// scalar result, on the H200 of bench/README.md) outweighs its speed; and a CPU backend
// runs a grid's points and the folds on all cores, which a device backend does not.
const AutoDeviceDim = 1000

// OnDevice reports whether automatic selection runs w on a device backend, when there
// is one.
func (w Workload) OnDevice() bool {
	v := w.Spec.DeviceValues
	return v > 0 && w.Dim >= AutoDeviceDim && w.Density >= data.DenseAuto &&
		float64(w.Rows)*float64(w.Dim)*float64(max(w.Passes, 1)) >= float64(v)
}

// AutoBackend opens the backend automatic selection chooses for w: Backend("auto")
// (cuda where available) when w runs on a device (OnDevice), else the best CPU backend
// (avx2 where available, else generic). The caller closes it.
func AutoBackend(w Workload) kernels.Backend {
	if w.OnDevice() {
		if b, err := Backend("auto"); err == nil {
			return b
		}
	}
	return cpuBackend()
}

// cpuBackend opens avx2 where it is available, else generic.
func cpuBackend() kernels.Backend {
	if b, err := Backend("avx2"); err == nil {
		return b
	}
	return fallback.New()
}

// CUDALibraries reports where the CUDA backend looks for the driver and cuBLAS, which
// files it loads and why each other file it tried failed (it opens and closes the
// device to find out).
func CUDALibraries() cuda.Discovery { return cuda.Discover() }

// BackendStatus describes one concrete backend on this machine.
type BackendStatus struct {
	Name      string `json:"name"`               // selector name: cuda, avx2 or generic
	Available bool   `json:"available"`          // whether it runs here
	Reason    string `json:"reason,omitempty"`   // why it is unavailable; empty when available
	Detail    string `json:"detail,omitempty"`   // what runs, e.g. the instruction sets or the GPU; empty if unknown
	Auto      bool   `json:"auto"`               // whether automatic selection runs some workloads on it here
	AutoFor   string `json:"auto_for,omitempty"` // which workloads, when Auto
}

// Backends probes every concrete backend, in the order auto tries them, and reports
// which are available, why the others are not, and which workloads automatic
// selection (AutoBackend) runs on each. Probed backends are closed again.
func Backends() []BackendStatus {
	var out []BackendStatus
	device, host := -1, -1 // the backends automatic selection picks
	for i, n := range BackendNames[1:] {
		st := BackendStatus{Name: n}
		b, err := Backend(n)
		if err != nil {
			// The name is the row's; keep the cause.
			st.Reason = strings.TrimPrefix(strings.TrimPrefix(err.Error(), "backend "+n+": "), n+": ")
		} else {
			st.Available = true
			if n == "cuda" {
				device = i
			} else if host < 0 {
				host = i
			}
			st.Detail = kernels.DetailOf(b)
			b.Close()
		}
		out = append(out, st)
	}
	if device >= 0 {
		out[device].Auto, out[device].AutoFor = true, AutoDeviceRule()
		out[host].Auto, out[host].AutoFor = true, "every other workload"
	} else {
		out[host].Auto, out[host].AutoFor = true, "every workload"
	}
	return out
}

// AutoDeviceRule says in words which workloads automatic selection runs on a device
// backend (Workload.OnDevice).
func AutoDeviceRule() string {
	var parts []string
	for _, s := range solver.Registry() {
		if s.DeviceValues > 0 {
			parts = append(parts, fmt.Sprintf("%s from %.0e", s.Name, float64(s.DeviceValues)))
		}
	}
	return fmt.Sprintf("data at least %g%% dense with at least %d features and n·d·passes values: %s",
		100*data.DenseAuto, AutoDeviceDim, strings.Join(parts, ", "))
}

// CPU describes this machine's processor and the instruction-set extensions the
// backends look for.
type CPU struct {
	Brand    string          `json:"brand"`
	Arch     string          `json:"arch"`
	Cores    int             `json:"cores"`    // logical cores Go may use (GOMAXPROCS)
	Features map[string]bool `json:"features"` // e.g. "AVX2": true
}

// cpuFeatures are the extensions reported by DetectCPU, in report order.
var cpuFeatures = []struct {
	name string
	id   cpuid.FeatureID
}{
	{"SSE2", cpuid.SSE2}, {"AVX", cpuid.AVX}, {"AVX2", cpuid.AVX2}, {"FMA3", cpuid.FMA3},
	{"AVX512F", cpuid.AVX512F}, {"AVX512DQ", cpuid.AVX512DQ}, {"AVX512VL", cpuid.AVX512VL},
}

// DetectCPU reports the processor aucopt runs on.
func DetectCPU() CPU {
	c := CPU{Brand: cpuid.CPU.BrandName, Arch: runtime.GOARCH, Cores: runtime.GOMAXPROCS(0), Features: map[string]bool{}}
	for _, f := range cpuFeatures {
		c.Features[f.name] = cpuid.CPU.Supports(f.id)
	}
	return c
}

// FeatureList is the CPU's features as "AVX2 FMA3 -AVX512F …", a minus marking absence.
func (c CPU) FeatureList() string {
	var b strings.Builder
	for i, f := range cpuFeatures {
		if i > 0 {
			b.WriteByte(' ')
		}
		if !c.Features[f.name] {
			b.WriteByte('-')
		}
		b.WriteString(f.name)
	}
	return b.String()
}
