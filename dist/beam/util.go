package aucbeam

import (
	"math"
	"os"
	"reflect"
)

func mkdirTemp() (string, error) { return os.MkdirTemp("", "aucopt-beam-") }

func removeAll(d string) { _ = os.RemoveAll(d) }

// nanAUC is a TrainResult's "no test data".
func nanAUC() float64 { return math.NaN() }

// reflectTypeOf is T's reflect.Type, for Beam's registrations.
func reflectTypeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }
