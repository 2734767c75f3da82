package solver

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Params are the hyper-parameters of one algorithm: a reference to its parameter
// struct (OPAUCParams, MBAParams, …), made by the algorithm's Spec.Params and read by
// its constructors. The struct's fields tagged `param:"key"` are its keys, set from
// text by Set and SetAll (float64, int, bool and string fields).
//
// A Params is a reference, like a map: its copies share one struct, so a Set through
// one is seen through all of them. Clone makes an independent copy. Params of one
// algorithm must not be given to another's constructors (they panic). The zero Params
// refers to no struct (IsZero): it has no keys, and Set on it fails.
//
// Params record which keys were set (IsSet): the caller's choices, as against the
// defaults Spec.Params made. Data-scaled defaults (Spec.DataParams) change only the
// keys not set.
type Params struct {
	ptr any              // *P, P the algorithm's parameter struct; nil for the zero Params
	set *map[string]bool // the keys Set has set, shared like the struct; nil for the zero Params
}

// paramsOf returns the Params that refer to *p.
func paramsOf[P any](p *P) Params {
	if reflect.TypeFor[P]().Kind() != reflect.Struct {
		panic(fmt.Sprintf("solver: parameters must be a struct, not %T", *p))
	}
	return Params{ptr: p, set: &map[string]bool{}}
}

// IsZero reports whether p is the zero Params, which refers to no parameter struct.
func (p Params) IsZero() bool { return p.ptr == nil }

// paramField is one tagged field of a parameter struct.
type paramField struct {
	key   string
	index int
}

// fields returns the struct p refers to (an invalid Value for the zero Params) and its
// tagged fields, in declaration order.
func (p Params) fields() (reflect.Value, []paramField) {
	if p.ptr == nil {
		return reflect.Value{}, nil
	}
	v := reflect.ValueOf(p.ptr).Elem()
	var out []paramField
	for i := range v.NumField() {
		if key := v.Type().Field(i).Tag.Get("param"); key != "" {
			out = append(out, paramField{key, i})
		}
	}
	return v, out
}

// Keys lists the parameter keys, in the struct's declaration order.
func (p Params) Keys() []string {
	_, fs := p.fields()
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = f.key
	}
	return keys
}

// Set sets the parameter key from value: a number for a float64 field (forms like
// 1e-3 and the papers' 2^-4, as ParseNumber reads them), an integer for an int field,
// true or false for a bool one, any text for a string one. It returns an error wrapping
// ErrParam that lists the valid keys when key is unknown, and one naming the key and
// value when the value does not parse.
func (p Params) Set(key, value string) error {
	v, fs := p.fields()
	for _, f := range fs {
		if f.key != key {
			continue
		}
		fv := v.Field(f.index)
		switch fv.Kind() {
		case reflect.Float64:
			x, err := ParseNumber(value)
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
		(*p.set)[key] = true
		return nil
	}
	return fmt.Errorf("%w: unknown key %q (valid: %s)", ErrParam, key, p.validKeys())
}

// SetAll applies key=value assignments in order (spaces around the key and the value
// are ignored); it stops at the first error, which wraps ErrParam. Assignments before
// it have been applied.
func (p Params) SetAll(assignments []string) error {
	for _, a := range assignments {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%w: %q is not key=value (valid keys: %s)", ErrParam, a, p.validKeys())
		}
		if err := p.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return err
		}
	}
	return nil
}

// validKeys lists the keys for an error message.
func (p Params) validKeys() string {
	if p.ptr == nil {
		return "none"
	}
	return strings.Join(p.Keys(), ", ")
}

// Values returns the parameters as key → value (float64, int, bool or string), for
// results and model files. The map is the caller's: changing it changes no parameter.
func (p Params) Values() map[string]any {
	v, fs := p.fields()
	out := make(map[string]any, len(fs))
	for _, f := range fs {
		out[f.key] = v.Field(f.index).Interface()
	}
	return out
}

// Clone returns Params that refer to a new copy of the struct p refers to, with the
// same keys set (IsSet): setting either afterwards does not change the other. (A parameter struct holds only numbers,
// booleans and strings, so the copy shares nothing.) The clone of the zero Params is
// the zero Params.
func (p Params) Clone() Params {
	if p.ptr == nil {
		return p
	}
	v := reflect.ValueOf(p.ptr).Elem()
	c := reflect.New(v.Type())
	c.Elem().Set(v)
	set := maps.Clone(*p.set)
	return Params{ptr: c.Interface(), set: &set}
}

// IsSet reports whether key was set (by Set or SetAll, on p or on the Params it was
// cloned from), as against holding a default.
func (p Params) IsSet(key string) bool { return p.set != nil && (*p.set)[key] }

// SetKeys lists the keys that were set (IsSet), in the struct's declaration order.
func (p Params) SetKeys() []string {
	var out []string
	for _, k := range p.Keys() {
		if p.IsSet(k) {
			out = append(out, k)
		}
	}
	return out
}

// sameKind reports whether p and q refer to structs of one type (the Params of one
// algorithm, or of algorithms that share their parameter struct).
func (p Params) sameKind(q Params) bool {
	return p.ptr != nil && q.ptr != nil && reflect.TypeOf(p.ptr) == reflect.TypeOf(q.ptr)
}

// setFrom sets in p (made by s.Params) every key set in q (IsSet) to q's value, and
// records them as set; it fails when q is neither of s (Spec.CheckParams) nor zero.
func (p Params) setFrom(s Spec, q Params) error {
	if q.IsZero() {
		return nil
	}
	if err := s.CheckParams(q); err != nil {
		return err
	}
	v, fs := p.fields()
	qv := reflect.ValueOf(q.ptr).Elem()
	for _, f := range fs {
		if q.IsSet(f.key) {
			v.Field(f.index).Set(qv.Field(f.index))
			(*p.set)[f.key] = true
		}
	}
	return nil
}

// String writes the parameters as key=value pairs sorted by key and separated by
// spaces, each value as Values gives it in its %v form ("" for the zero Params). A
// float64 prints in its shortest exact form, so SetAll on the pairs (when no string
// value holds a space) restores the same values.
func (p Params) String() string {
	vals := p.Values()
	keys := slices.Sorted(maps.Keys(vals))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, vals[k])
	}
	return strings.Join(parts, " ")
}

// ParseNumber parses a float64 parameter value as Set does: a Go float literal or the
// papers' power notation b^e (2^-4, 10^3); NaN is not a value.
func ParseNumber(s string) (float64, error) {
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
