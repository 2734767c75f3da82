package host

import (
	"sync"
	"testing"
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
