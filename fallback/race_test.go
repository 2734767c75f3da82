//go:build race

package fallback_test

// raceEnabled reports a build with the race detector, under which sync.Pool drops a
// random quarter of what is put in it, so pooled jobs are sometimes allocated anew.
const raceEnabled = true
