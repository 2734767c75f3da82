package solver

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/kernels"
)

// Online is a learner fed one example at a time. Its memory does not grow with the
// number of examples.
type Online interface {
	// Observe learns from one example (y is +1 or −1; x's indices are below the
	// dimension the learner was made for) and returns the score w·x the learner gave x
	// before learning from it: the progressive-validation prediction, and how the
	// driver notices divergence (a non-finite score).
	Observe(x kernels.Sparse, y int8) float64
	// Weights returns a copy of the scoring weights w (for averaging methods, the
	// averaged output).
	Weights() []float64
}

// Batch is a learner fitted to a whole in-memory training set (labels ±1).
type Batch interface {
	// Fit learns from ds, whose Dim is the dimension the learner was made for. It
	// returns ctx's error when cancelled, an error wrapping ErrOneClass when ds holds a
	// single class, and one wrapping ErrDiverged when the weights became non-finite.
	Fit(ctx context.Context, ds *data.Dataset) error
	// Weights returns a copy of the fitted scoring weights w.
	Weights() []float64
}

// Errors of the solver package.
var (
	// ErrParam is wrapped by every error about a hyper-parameter: an unknown key, an
	// unparseable value or one out of its range.
	ErrParam = errors.New("bad parameter")
	// ErrDiverged: the weights became NaN or infinite.
	ErrDiverged = errors.New("diverged")
)

// paramField is one tagged field of a parameter struct.
type paramField struct {
	key   string
	index int
}

// fields returns the tagged fields of the struct p points to, in declaration order.
func fields(p any) (reflect.Value, []paramField) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("solver: parameters must be a pointer to a struct, not %T", p))
	}
	v = v.Elem()
	var out []paramField
	for i := range v.NumField() {
		if key := v.Type().Field(i).Tag.Get("param"); key != "" {
			out = append(out, paramField{key, i})
		}
	}
	return v, out
}

// Keys lists the parameter keys of the struct p points to, in declaration order.
func Keys(p any) []string {
	_, fs := fields(p)
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = f.key
	}
	return keys
}

// Set sets the field tagged key of the struct p points to from value (float64, int,
// bool or string fields; floats accept forms like 1e-3 and 2^-4). It returns an error
// wrapping ErrParam that lists the valid keys when key is unknown.
func Set(p any, key, value string) error {
	v, fs := fields(p)
	for _, f := range fs {
		if f.key != key {
			continue
		}
		fv := v.Field(f.index)
		switch fv.Kind() {
		case reflect.Float64:
			x, err := parseNumber(value)
			if err != nil {
				return fmt.Errorf("%w: %s=%q: %v", ErrParam, key, value, err)
			}
			fv.SetFloat(x)
		case reflect.Int:
			x, err := strconv.Atoi(value)
			if err != nil {
				return fmt.Errorf("%w: %s=%q: not an integer", ErrParam, key, value)
			}
			fv.SetInt(int64(x))
		case reflect.Bool:
			x, err := strconv.ParseBool(value)
			if err != nil {
				return fmt.Errorf("%w: %s=%q: not true or false", ErrParam, key, value)
			}
			fv.SetBool(x)
		case reflect.String:
			fv.SetString(value)
		default:
			panic(fmt.Sprintf("solver: parameter %s has unsupported type %s", key, fv.Type()))
		}
		return nil
	}
	return fmt.Errorf("%w: unknown key %q (valid: %s)", ErrParam, key, strings.Join(Keys(p), ", "))
}

// SetAll applies key=value assignments in order.
func SetAll(p any, assignments []string) error {
	for _, a := range assignments {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%w: %q is not key=value (valid keys: %s)", ErrParam, a, strings.Join(Keys(p), ", "))
		}
		if err := Set(p, strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return err
		}
	}
	return nil
}

// Values returns the parameters of the struct p points to as key → value, for model
// and result files.
func Values(p any) map[string]any {
	v, fs := fields(p)
	out := make(map[string]any, len(fs))
	for _, f := range fs {
		out[f.key] = v.Field(f.index).Interface()
	}
	return out
}

// parseNumber parses a float, also in the papers' power notation b^e (2^-4, 10^3).
func parseNumber(s string) (float64, error) {
	if b, e, ok := strings.Cut(s, "^"); ok {
		base, err1 := strconv.ParseFloat(b, 64)
		exp, err2 := strconv.ParseFloat(e, 64)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("not a number")
		}
		return math.Pow(base, exp), nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) {
		return 0, fmt.Errorf("not a number")
	}
	return x, nil
}

// encodeState is every learner's checkpoint codec: gob of its state struct (a type
// without methods, so that gob does not call MarshalBinary again).
func encodeState(v any) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeState decodes a state written by encodeState into v.
func decodeState(data []byte, v any) error {
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v)
}

// checkLabel panics unless y is +1 or −1: a programmer error, since the data layer
// maps labels and the driver refuses unmapped ones.
func checkLabel(name string, y int8) {
	if y != 1 && y != -1 {
		panic(fmt.Sprintf("solver: %s.Observe: label %d, want +1 or −1", name, y))
	}
}

// checkDim validates a learner's dimension.
func checkDim(dim int) error { return Check(dim >= 1, "dim", dim, "≥ 1") }

// Check is a validation helper for constructors: it returns an error wrapping ErrParam
// naming key when ok is false.
func Check(ok bool, key string, value any, want string) error {
	if ok {
		return nil
	}
	return fmt.Errorf("%w: %s = %v, want %s", ErrParam, key, value, want)
}

// Grid is a set of values for each of some parameter keys; its points are the
// Cartesian product, keys varying in the order given (the last fastest).
type Grid struct {
	Keys   []string
	Values [][]float64
}

// Points returns the grid's assignments as key=value lists.
func (g Grid) Points() [][]string {
	pts := [][]string{nil}
	for k, key := range g.Keys {
		var next [][]string
		for _, p := range pts {
			for _, v := range g.Values[k] {
				next = append(next, append(slices.Clone(p), key+"="+strconv.FormatFloat(v, 'g', -1, 64)))
			}
		}
		pts = next
	}
	return pts
}

// Pow2 returns 2^lo … 2^hi.
func Pow2(lo, hi int) []float64 { return powers(2, lo, hi) }

// Pow10 returns 10^lo … 10^hi.
func Pow10(lo, hi int) []float64 { return powers(10, lo, hi) }

func powers(base float64, lo, hi int) []float64 {
	var out []float64
	for e := lo; e <= hi; e++ {
		out = append(out, math.Pow(base, float64(e)))
	}
	return out
}

// scaledCopy returns s·v as a new slice: the weights of a learner that keeps them as
// w = s·v so that an ℓ2 shrink costs O(1).
func scaledCopy(s float64, v []float64) []float64 {
	w := make([]float64, len(v))
	for j, vj := range v {
		w[j] = s * vj
	}
	return w
}
