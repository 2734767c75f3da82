package fallback

import (
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// TestPerJob: one job keeps the backend; concurrent jobs each get a one-worker backend
// of the same kind.
func TestPerJob(t *testing.T) {
	b := New()
	defer b.Close()
	if got, release := kernels.PerJob(b, 1); got != kernels.Backend(b) {
		t.Error("PerJob(b, 1) is not b")
	} else {
		release()
	}
	got, release := kernels.PerJob(b, 2)
	defer release()
	fb, ok := got.(*Backend)
	if !ok || fb == b || fb.pool.Workers() != 1 || got.Name() != b.Name() {
		t.Errorf("PerJob(b, 2) = %T %v, want a separate one-worker %s backend", got, got.Name(), b.Name())
	}
}
