package main

import "github.com/aucopt/aucopt/engine/data"

// checkBins refuses a --bins value FitBins would.
func checkBins(k int) error {
	if k != 0 && (k < 2 || k > data.MaxBins) {
		return inputErrorf("--bins %d: want 0 (none) or 2 to %d", k, data.MaxBins)
	}
	return nil
}
