//go:build !unix

package solver

import "testing"

// makeFIFO returns "": no named pipes to test with.
func makeFIFO(*testing.T) string { return "" }
