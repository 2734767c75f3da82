package jobs

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/fallback"
	"github.com/aucopt/aucopt/kernels"
)

// TestRun: every job runs once, done counts the successes, and the first failure
// comes back as a *Error naming its job.
func TestRun(t *testing.T) {
	b := fallback.New()
	for _, tc := range []struct {
		n, workers, fail int // fail: the failing job, -1 for none
	}{
		{10, 1, -1},
		{10, 4, -1},
		{10, 1, 3},
		{0, 2, -1},
	} {
		t.Run(fmt.Sprintf("n=%d/workers=%d/fail=%d", tc.n, tc.workers, tc.fail), func(t *testing.T) {
			var ran atomic.Int64
			count := 0
			err := Run(context.Background(), b, tc.n, tc.workers, func(_ context.Context, _ kernels.Backend, i int) error {
				ran.Add(1)
				if i == tc.fail {
					return errors.New("boom")
				}
				return nil
			}, func(i, c int) { count = c })
			var je *Error
			switch {
			case tc.fail < 0 && (err != nil || count != tc.n || int(ran.Load()) != tc.n):
				t.Errorf("error %v, %d done, %d ran; want nil, %d, %d", err, count, ran.Load(), tc.n, tc.n)
			case tc.fail >= 0 && (!errors.As(err, &je) || je.Index != tc.fail):
				t.Errorf("error %v, want a *Error for job %d", err, tc.fail)
			}
		})
	}
	if w := Workers(b, 0, 3); w < 1 || w > 3 {
		t.Errorf("Workers(generic, 0, 3) = %d, want 1..3", w)
	}
}

// concurrency is a backend stating c (kernels.Concurrent).
type concurrency struct {
	kernels.Backend
	c kernels.Concurrency
}

func (b concurrency) Concurrency() kernels.Concurrency { return b.c }

// TestConcurrentSafe: jobs run on several goroutines only on a backend that says it is
// Safe; one whose device failures panic on the caller, or one that says nothing, gets one.
func TestConcurrentSafe(t *testing.T) {
	g, err := backends.Open("generic")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, c := range []struct {
		name string
		b    kernels.Backend
		want bool
	}{
		{"generic", g, true},
		{"safe", concurrency{g, kernels.Safe}, true},
		{"device panics", concurrency{g, kernels.SafeDevicePanics}, false},
		{"serial", concurrency{g, kernels.Serial}, false},
		{"silent", struct{ kernels.Backend }{g}, false},
	} {
		if got := ConcurrentSafe(c.b); got != c.want {
			t.Errorf("%s: ConcurrentSafe = %t, want %t", c.name, got, c.want)
		}
	}
}
