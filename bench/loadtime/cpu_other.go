//go:build !unix

package main

// cpuTimes is not measured where getrusage is missing: it reports 0.
func cpuTimes() (user, sys float64) { return 0, 0 }
