//go:build race

package solver

// raceEnabled reports a build with the race detector, under which sync.Pool drops a
// random quarter of what is put in it, so pooled scratch is sometimes allocated anew.
const raceEnabled = true
