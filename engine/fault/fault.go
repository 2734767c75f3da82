// Package fault classifies aucopt's errors in one place: an error is the caller's input's
// fault (ErrInput) or a failure of the run (ErrRuntime), whatever wraps it.
//
// Errors are marked where they are made: a package's sentinel that is always the input's
// (solver.ErrParam, data.ErrEmpty, model.ErrModel, …) is made by NewInput, and an error
// built at run time is marked by Input or Runtime. IsInput is the one rule every front end
// (aucopt's exit statuses, aucopt-beam's, the C API's status codes) maps from: 2 for the
// input, 1 for anything else.
//
// The package has no dependencies beyond the standard library, so that every package of
// the module may mark its errors.
package fault

import (
	"errors"
	"io/fs"
	"syscall"
)

// ErrInput is matched (errors.Is) by every error that is the caller's input's fault:
// unknown names, bad or contradictory settings, missing, unreadable or malformed files
// and models, data that cannot be trained on.
var ErrInput = errors.New("bad input")

// ErrRuntime is matched by an error that is a failure of the run, not of its input,
// even where an input error wraps it: divergence, a failed device.
var ErrRuntime = errors.New("runtime failure")

// marked is err marked as kind; its message is err's.
type marked struct {
	err  error
	kind error
}

func (e marked) Error() string   { return e.err.Error() }
func (e marked) Unwrap() []error { return []error{e.err, e.kind} }

// Input marks err as the caller's input's fault: the result matches ErrInput and
// everything err matches, and its message is err's. Input(nil) is nil.
func Input(err error) error {
	if err == nil {
		return nil
	}
	return marked{err, ErrInput}
}

// Runtime marks err as a failure of the run (ErrRuntime), as Input does. Runtime(nil)
// is nil.
func Runtime(err error) error {
	if err == nil {
		return nil
	}
	return marked{err, ErrRuntime}
}

// sentinel is an error value of its own that matches its kind.
type sentinel struct {
	msg  string
	kind error
}

func (e *sentinel) Error() string { return e.msg }
func (e *sentinel) Unwrap() error { return e.kind }

// NewInput returns a new sentinel error with message msg that matches ErrInput: for a
// package's errors that are always the input's fault (errors.New's shape).
func NewInput(msg string) error { return &sentinel{msg, ErrInput} }

// NewRuntime returns a new sentinel error with message msg that matches ErrRuntime.
func NewRuntime(msg string) error { return &sentinel{msg, ErrRuntime} }

// inputFiles are the standard library's errors of a file that the input names and
// that cannot be used: it is missing, unreadable, a directory, or under a file.
var inputFiles = []error{fs.ErrNotExist, fs.ErrPermission, syscall.EISDIR, syscall.ENOTDIR}

// disk are the errors of a disk that failed, not of the input: the file system is
// full (ENOSPC, EDQUOT), a file outgrew its limit (EFBIG), the device failed (EIO).
var disk = []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG, syscall.EIO}

// IsInput reports whether err is the caller's input's fault: it matches ErrInput or
// names a file that is missing, unreadable, a directory or under a file (fs.ErrNotExist,
// fs.ErrPermission, EISDIR, ENOTDIR), and it is not a failure of the run — it matches
// neither ErrRuntime nor a disk's failure (ENOSPC, EDQUOT, EFBIG, EIO), which win
// whatever wraps them. Everything else, nil included, is not the input's.
func IsInput(err error) bool {
	if err == nil || errors.Is(err, ErrRuntime) || IsDisk(err) {
		return false
	}
	if errors.Is(err, ErrInput) {
		return true
	}
	for _, e := range inputFiles {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// IsDisk reports whether err is a disk's failure, whatever wraps it: ENOSPC, EDQUOT,
// EFBIG or EIO.
func IsDisk(err error) bool {
	for _, e := range disk {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
