package kernels_test

import (
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// bare is a Backend with no optional capability (its methods are never called).
type bare struct{ kernels.Backend }

// described states a detail and a concurrency.
type described struct {
	kernels.Backend
	c kernels.Concurrency
}

func (described) Detail() string                     { return "test ISA" }
func (d described) Concurrency() kernels.Concurrency { return d.c }

func TestCapabilities(t *testing.T) {
	for _, c := range []struct {
		name       string
		b          kernels.Backend
		detail     string
		concurrent kernels.Concurrency
	}{
		{"none", bare{}, "", kernels.Serial},
		{"safe", described{c: kernels.Safe}, "test ISA", kernels.Safe},
		{"device", described{c: kernels.SafeDevicePanics}, "test ISA", kernels.SafeDevicePanics},
	} {
		if got := kernels.DetailOf(c.b); got != c.detail {
			t.Errorf("%s: DetailOf = %q, want %q", c.name, got, c.detail)
		}
		if got := kernels.ConcurrencyOf(c.b); got != c.concurrent {
			t.Errorf("%s: ConcurrencyOf = %v, want %v", c.name, got, c.concurrent)
		}
	}
}
