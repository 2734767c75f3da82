package main

import (
	"fmt"

	"github.com/aucopt/aucopt/engine/data"
	flag "github.com/spf13/pflag"
)

// binsFlag is --bins of train and cv.
func binsFlag(fs *flag.FlagSet) *int {
	return fs.Int("bins", 0, fmt.Sprintf("expand each numeric feature, after scaling, by the indicators of at most this many quantile bins of its training values, 2 to %d (0: none): an additive score, a step function of each feature beside its linear term; the model records the bins, up to %d features", data.MaxBins, data.AutoScaleMaxDim))
}

// checkBins refuses a --bins value FitBins would.
func checkBins(k int) error {
	if k != 0 && (k < 2 || k > data.MaxBins) {
		return inputErrorf("--bins %d: want 0 (none) or 2 to %d", k, data.MaxBins)
	}
	return nil
}
