package host

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Job is one parallel operation split into numbered parts. Run must be a top-level
// function, not a closure, and the arguments travel in the Job's fields, so that a call
// through a Pool allocates nothing: Jobs come from GetJob and go back with PutJob.
//
// Determinism: callers choose the number of parts from the problem size alone (never
// from the number of workers) and, where parts produce partial results, reduce them in
// part order. Results are then bit-identical whatever GOMAXPROCS is.
type Job struct {
	// Run processes part p of j.
	Run func(j *Job, p int)

	// Operands, used as each operation documents.
	A, B, C     *Mat
	X, Y        []float64
	Rows        []int32
	Alpha, Beta float64
	Trans       bool
	// N is an operation-defined size (for instance the width of one part).
	N int
	// Partial holds per-part partial results for an ordered reduction; it keeps its
	// capacity across uses.
	Partial []float64
	// Scratch is per-part scratch space (for instance packed panels).
	Scratch [][]float64

	next    atomic.Int64
	parts   int
	pending atomic.Int64  // helpers that have not yet finished with this run
	done    chan struct{} // receives once when pending reaches 0
}

// Row returns row i of j.A, or row j.Rows[i] when the job lists rows.
func (j *Job) Row(i int) []float64 {
	if j.Rows != nil {
		i = int(j.Rows[i])
	}
	s := i * j.A.Stride
	return j.A.Data[s : s+j.A.Cols]
}

// drain runs parts of j until none is left.
func (j *Job) drain() {
	for {
		p := int(j.next.Add(1)) - 1
		if p >= j.parts {
			return
		}
		j.Run(j, p)
	}
}

// release is called by each helper once it has drained j.
func (j *Job) release() {
	if j.pending.Add(-1) == 0 {
		j.done <- struct{}{}
	}
}

var jobs = sync.Pool{New: func() any { return new(Job) }}

// GetJob returns a cleared Job, reusing a pooled one.
func GetJob() *Job {
	j := jobs.Get().(*Job)
	return j
}

// PutJob returns j to the pool. Its slices keep their capacity but lose their contents'
// meaning; operand references are dropped so the pool holds no user memory.
func PutJob(j *Job) {
	j.Run = nil
	j.A, j.B, j.C = nil, nil, nil
	j.X, j.Y, j.Rows = nil, nil, nil
	j.Partial = j.Partial[:0]
	jobs.Put(j)
}

// Pool is a fixed set of worker goroutines for splitting an operation across cores.
// A Pool is safe for concurrent use; a nil *Pool runs everything on the caller.
type Pool struct {
	tasks   chan *Job
	workers int
	once    sync.Once
	stop    sync.Once
}

// NewPool returns a pool of up to workers goroutines (GOMAXPROCS when workers ≤ 0),
// started on first use.
func NewPool(workers int) *Pool {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &Pool{workers: workers}
}

// Workers is the number of goroutines that run parts, the caller included.
func (p *Pool) Workers() int {
	if p == nil {
		return 1
	}
	return p.workers
}

func (p *Pool) start() {
	p.tasks = make(chan *Job, 4*p.workers)
	for range p.workers - 1 { // the caller is the last worker
		go func() {
			for j := range p.tasks {
				j.drain()
				j.release()
			}
		}()
	}
}

// Do runs j.Run(j, p) for every p in [0, parts) and returns when all are done.
// The caller's goroutine takes part in the work; parts are handed out in order to
// whichever goroutine is free. A Run must not itself call Do on the same Pool.
func (p *Pool) Do(parts int, j *Job) {
	if p == nil || p.workers <= 1 || parts <= 1 {
		for i := range parts {
			j.Run(j, i)
		}
		return
	}
	p.once.Do(p.start)
	j.parts = parts
	j.next.Store(0)
	helpers := min(p.workers-1, parts-1)
	if j.done == nil {
		j.done = make(chan struct{}, 1)
	}
	j.pending.Store(int64(helpers))
	for range helpers {
		p.tasks <- j
	}
	j.drain()
	// Wait for the helpers, running queued tasks meanwhile: when other callers keep
	// the pool's goroutines busy, a task of j still in the queue is taken back here
	// (finding nothing left to do) instead of waiting for a goroutine to be free.
	for {
		select {
		case <-j.done:
			return
		case t, ok := <-p.tasks:
			if !ok { // closed while in use: the helpers took every task
				<-j.done
				return
			}
			t.drain()
			t.release()
		}
	}
}

// Close stops the pool's goroutines. The pool must not be used afterwards.
func (p *Pool) Close() {
	if p == nil {
		return
	}
	p.stop.Do(func() {
		p.once.Do(func() {}) // never start after Close
		if p.tasks != nil {
			close(p.tasks)
		}
	})
}
