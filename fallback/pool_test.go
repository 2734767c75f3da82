package fallback

import (
	"sync"
	"testing"

	"github.com/aucopt/aucopt/kernels"
)

// countParts is a Job.Run that counts each part's runs in j.Partial.
func countParts(j *Job, p int) { j.Partial[p]++ }

// TestPoolConcurrent: several goroutines calling Do on one pool at once each get every
// part of their own job run exactly once, and none waits forever for a helper busy
// with another caller's job (the pool's helpers are fewer than the callers).
func TestPoolConcurrent(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		p := NewPool(workers)
		var wg sync.WaitGroup
		for c := range 4 {
			wg.Go(func() {
				for round := range 300 {
					parts := 1 + (c+round)%9
					j := GetJob()
					j.Partial = append(j.Partial[:0], make([]float64, parts)...)
					j.Run = countParts
					p.Do(parts, j)
					for q, n := range j.Partial {
						if n != 1 {
							t.Errorf("%d workers, caller %d, round %d: part %d ran %g times", workers, c, round, q, n)
						}
					}
					PutJob(j)
				}
			})
		}
		wg.Wait()
		p.Close()
	}
}

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
	if !ok || fb == b || fb.Pool().Workers() != 1 || got.Name() != b.Name() {
		t.Errorf("PerJob(b, 2) = %T %v, want a separate one-worker %s backend", got, got.Name(), b.Name())
	}
}
