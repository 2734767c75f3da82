//go:build !unix

package data

import "os"

// mapFile is not available here: caches are read (nil, nil).
func mapFile(*os.File, int) ([]byte, error) { return nil, nil }

// unmapFile is never called here.
func unmapFile([]byte) {}

// mapSmall is not available here: files are read (nil).
func mapSmall(*os.File, int64) []byte { return nil }

// mapWindow is not available here: chunks are read (nil).
func mapWindow(*os.File, int64, int64) (m, b []byte) { return nil, nil }
