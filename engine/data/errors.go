package data

import (
	"errors"
	"fmt"

	"github.com/aucopt/aucopt/engine/fault"
)

// ParseError is a malformed line of a data file.
type ParseError struct {
	Path   string // file name as given
	Line   int    // 1-based line number (a Parquet table's row; 0 when the error is at no line)
	Column int    // 1-based byte column of the token, 0 when the whole line is at fault
	Token  string // the offending token, quoted in the message; may be empty
	Err    error  // what is wrong: one of the Err* sentinels, wrapped with detail
}

// Error formats the error as "path:line:column: what (token "…")".
func (e *ParseError) Error() string {
	pos := e.Path
	switch {
	case e.Line == 0 && e.Column > 0: // not at a line: a Parquet file's schema
		pos += fmt.Sprintf(": column %d", e.Column)
	case e.Line > 0:
		pos += fmt.Sprintf(":%d", e.Line)
	}
	if e.Line > 0 && e.Column > 0 {
		pos += fmt.Sprintf(":%d", e.Column)
	}
	if e.Token != "" {
		return fmt.Sprintf("%s: %v (token %q)", pos, e.Err, e.Token)
	}
	return fmt.Sprintf("%s: %v", pos, e.Err)
}

// Unwrap returns the underlying error.
func (e *ParseError) Unwrap() error { return e.Err }

// The kinds of ParseError, for errors.Is.
var (
	// ErrLabel: the label is not a number, or does not fit the labels seen so far.
	ErrLabel = errors.New("bad label")
	// ErrFeature: a feature is not of the form index:value.
	ErrFeature = errors.New("bad feature")
	// ErrIndex: a feature index is not an integer in [1, 2³¹−1], or above the fixed dimension.
	ErrIndex = errors.New("bad feature index")
	// ErrOrder: feature indices are not strictly increasing.
	ErrOrder = errors.New("feature indices not strictly increasing")
	// ErrValue: a feature value is not a finite number.
	ErrValue = errors.New("bad feature value")
	// ErrLineTooLong: a line exceeds MaxLineBytes.
	ErrLineTooLong = errors.New("line too long")
)

// The errors of a whole file, for errors.Is.
var (
	// ErrCorrupt: a compressed file is truncated or corrupt (its decompressor failed or
	// the stream ended early); an I/O error of the system is not wrapped with it.
	ErrCorrupt = fault.NewInput("corrupt or truncated file")
	// ErrEmpty: a data file holds no examples.
	ErrEmpty = fault.NewInput("no examples")
	// ErrChanged: a file shrank while it was read through a mapping (its pages past the
	// new end fault).
	ErrChanged = errors.New("file changed while it was read")
)

// Is reports that every ParseError is the input's fault (fault.ErrInput).
func (e *ParseError) Is(target error) bool { return target == fault.ErrInput }
