//go:build unix

package main

import "syscall"

// cpuTimes returns the process's user and system CPU seconds so far.
func cpuTimes() (user, sys float64) {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(r.Utime), tv(r.Stime)
}
