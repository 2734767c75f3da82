package bench

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestMeasure: the best time of a call that sleeps is at least the sleep, and the
// repetitions stop near MinTime.
func TestMeasure(t *testing.T) {
	for _, tc := range []struct {
		sleep, minTime time.Duration
		minReps        int
	}{
		{sleep: 2 * time.Millisecond, minTime: 10 * time.Millisecond, minReps: 3},
		{sleep: 0, minTime: 5 * time.Millisecond, minReps: 100},
		{sleep: 30 * time.Millisecond, minTime: time.Millisecond, minReps: 1},
	} {
		var calls, syncs int
		start := time.Now()
		best, reps := measure(tc.minTime, func() { calls++; time.Sleep(tc.sleep) }, func() { syncs++ })
		el := time.Since(start)
		if best < tc.sleep || reps != calls || reps < tc.minReps || syncs < 1 || syncs > reps {
			t.Errorf("sleep %v: best %v over %d reps (%d calls, %d syncs), want ≥ %v over ≥ %d", tc.sleep, best, reps, calls, syncs, tc.sleep, tc.minReps)
		}
		if limit := 10*tc.minTime + 20*tc.sleep + 100*time.Millisecond; el > limit {
			t.Errorf("sleep %v, min time %v: measuring took %v", tc.sleep, tc.minTime, el)
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Backends: []string{"quantum"}}, `unknown backend "quantum"`},
		{Config{Backends: []string{"auto"}}, "not one of the concrete backends"},
	} {
		if _, err := Run(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Run(%+v) = %v, want an error containing %q", tc.cfg, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Config{Quick: true, Backends: []string{"generic"}}); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Errorf("cancelled Benchmark: %v", err)
	}
}
