package main

import "github.com/aucopt/aucopt/internal/bytesize"

// parseMaxMemory parses --max-memory's value; "" is 0, the memory available.
func parseMaxMemory(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := bytesize.Parse(s)
	if err != nil {
		return 0, inputErrorf("--max-memory: %v", err)
	}
	return n, nil
}
