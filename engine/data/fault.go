package data

import (
	"fmt"
	"runtime/debug"
)

// guardFault runs fn, which reads a file through a mapping, and returns an error
// wrapping ErrChanged, naming path, if a page of the mapping faults (the file was
// truncated while mapped: the pages past its new end are gone), where the process
// would otherwise crash. Other panics go on.
func guardFault(path string, fn func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if f, ok := r.(interface{ Addr() uintptr }); ok {
			err = fmt.Errorf("%s: %w (a fault at %#x: it shrank?)", path, ErrChanged, f.Addr())
			return
		}
		panic(r)
	}()
	fn()
	return nil
}
