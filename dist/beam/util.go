package aucbeam

import (
	"math"
	"os"
)

func mkdirTemp() (string, error) { return os.MkdirTemp("", "aucopt-beam-") }

func removeAll(d string) { _ = os.RemoveAll(d) }

// nanAUC is a TrainResult's "no test data".
func nanAUC() float64 { return math.NaN() }
