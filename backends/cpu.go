package backends

import (
	"runtime"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// CPU describes this machine's processor and the instruction-set extensions the
// backends look for (`aucopt backends`, the benchmark reports).
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
