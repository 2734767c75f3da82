//go:build !unix

package data

import "os"

// mapFile is not available here: caches are read (nil, nil).
func mapFile(*os.File, int) ([]byte, error) { return nil, nil }

// unmapFile is never called here.
func unmapFile([]byte) {}
