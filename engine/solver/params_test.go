package solver

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/fallback"
)

// testParams has a field of each settable kind and one without a key.
type testParams struct {
	Eta    float64 `param:"eta"`
	Tau    int     `param:"tau"`
	Dense  bool    `param:"dense"`
	Mode   string  `param:"mode"`
	hidden float64 // not a parameter: no key
}

func newTestParams() (*testParams, Params) {
	p := &testParams{Eta: 1, Tau: 2, Mode: "pre"}
	return p, paramsOf(p)
}

func TestParamsSet(t *testing.T) {
	for _, tt := range []struct {
		key, value string
		want       testParams // the struct afterwards (from Eta 1, Tau 2, Mode pre)
		err        string     // the error's text; "" for none
	}{
		{"eta", "2^-4", testParams{Eta: 0.0625, Tau: 2, Mode: "pre"}, ""},
		{"eta", "1e-3", testParams{Eta: 1e-3, Tau: 2, Mode: "pre"}, ""},
		{"eta", "-0.5", testParams{Eta: -0.5, Tau: 2, Mode: "pre"}, ""}, // ranges are the constructors' to check
		{"tau", "50", testParams{Eta: 1, Tau: 50, Mode: "pre"}, ""},
		{"dense", "true", testParams{Eta: 1, Tau: 2, Dense: true, Mode: "pre"}, ""},
		{"mode", "post hoc", testParams{Eta: 1, Tau: 2, Mode: "post hoc"}, ""},
		{"eta", "abc", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: eta="abc": not a number`},
		{"eta", "nan", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: eta="nan": not a number`},
		{"eta", "2^x", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: eta="2^x": not a number`},
		{"tau", "1.5", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: tau="1.5": not an integer`},
		{"dense", "maybe", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: dense="maybe": not true or false`},
		{"lambda", "1", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: unknown key "lambda" (valid: eta, tau, dense, mode)`},
		{"hidden", "1", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: unknown key "hidden" (valid: eta, tau, dense, mode)`},
		{"Eta", "1", testParams{Eta: 1, Tau: 2, Mode: "pre"}, `bad parameter: unknown key "Eta" (valid: eta, tau, dense, mode)`},
	} {
		t.Run(tt.key+"="+tt.value, func(t *testing.T) {
			s, p := newTestParams()
			err := p.Set(tt.key, tt.value)
			checkParamErr(t, err, tt.err)
			if *s != tt.want {
				t.Errorf("struct %+v, want %+v", *s, tt.want)
			}
		})
	}
}

func TestParamsSetAll(t *testing.T) {
	for _, tt := range []struct {
		name string
		kv   []string
		want testParams // from Eta 1, Tau 2, Mode pre
		err  string
	}{
		{"none", nil, testParams{Eta: 1, Tau: 2, Mode: "pre"}, ""},
		{"in order", []string{"eta=1e-3", "tau=7", "eta=2^-1"}, testParams{Eta: 0.5, Tau: 7, Mode: "pre"}, ""},
		{"spaces", []string{" tau = 7 ", "mode= a b "}, testParams{Eta: 1, Tau: 7, Mode: "a b"}, ""},
		{"value with =", []string{"mode=a=b"}, testParams{Eta: 1, Tau: 2, Mode: "a=b"}, ""},
		{"not key=value", []string{"eta"}, testParams{Eta: 1, Tau: 2, Mode: "pre"},
			`bad parameter: "eta" is not key=value (valid keys: eta, tau, dense, mode)`},
		{"stops at the first error", []string{"tau=3", "eta=x", "dense=true"}, testParams{Eta: 1, Tau: 3, Mode: "pre"},
			`bad parameter: eta="x": not a number`},
		{"unknown key", []string{"lambda=1"}, testParams{Eta: 1, Tau: 2, Mode: "pre"},
			`bad parameter: unknown key "lambda" (valid: eta, tau, dense, mode)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, p := newTestParams()
			checkParamErr(t, p.SetAll(tt.kv), tt.err)
			if *s != tt.want {
				t.Errorf("struct %+v, want %+v", *s, tt.want)
			}
		})
	}
}

// checkParamErr checks that err has the text want ("": no error) and wraps ErrParam.
func checkParamErr(t *testing.T, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("error %v, want none", err)
	case want != "" && (err == nil || err.Error() != want):
		t.Errorf("error %v, want %s", err, want)
	case want != "" && !errors.Is(err, ErrParam):
		t.Errorf("error %v does not wrap ErrParam", err)
	}
}

func TestParamsRead(t *testing.T) {
	_, p := newTestParams()
	if err := p.Set("dense", "true"); err != nil {
		t.Fatal(err)
	}
	if got, want := p.Keys(), []string{"eta", "tau", "dense", "mode"}; !slices.Equal(got, want) {
		t.Errorf("Keys = %v, want %v (declaration order)", got, want)
	}
	want := map[string]any{"eta": 1.0, "tau": 2, "dense": true, "mode": "pre"}
	if got := p.Values(); !reflect.DeepEqual(got, want) {
		t.Errorf("Values = %#v, want %#v", got, want)
	}
	p.Values()["eta"] = 5.0 // the map is the caller's
	if got := p.Values()["eta"]; got != 1.0 {
		t.Errorf("changing Values' map changed eta to %v", got)
	}
	if got, want := p.String(), "dense=true eta=1 mode=pre tau=2"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := fmt.Sprint(p), p.String(); got != want {
		t.Errorf("fmt.Sprint = %q, want String's %q", got, want)
	}
}

func TestParamsZero(t *testing.T) {
	var z Params
	if !z.IsZero() || !z.Clone().IsZero() {
		t.Errorf("zero Params: IsZero %v, its clone's %v", z.IsZero(), z.Clone().IsZero())
	}
	if len(z.Keys()) != 0 || len(z.Values()) != 0 || z.String() != "" {
		t.Errorf("zero Params: Keys %v, Values %v, String %q; want none", z.Keys(), z.Values(), z.String())
	}
	checkParamErr(t, z.Set("eta", "1"), `bad parameter: unknown key "eta" (valid: none)`)
	checkParamErr(t, z.SetAll([]string{"eta"}), `bad parameter: "eta" is not key=value (valid keys: none)`)
	if _, p := newTestParams(); p.IsZero() {
		t.Error("Params of a struct: IsZero")
	}
}

func TestParamsClone(t *testing.T) {
	s, p := newTestParams()
	c := p.Clone()
	if c.String() != p.String() {
		t.Fatalf("clone %s, want %s", c, p)
	}
	if err := c.SetAll([]string{"eta=3", "tau=4", "dense=true", "mode=post"}); err != nil {
		t.Fatal(err)
	}
	if want := (testParams{Eta: 1, Tau: 2, Mode: "pre"}); *s != want {
		t.Errorf("setting the clone changed the original to %+v", *s)
	}
	if got, want := c.String(), "dense=true eta=3 mode=post tau=4"; got != want {
		t.Errorf("clone %q, want %q", got, want)
	}
	if err := p.Set("eta", "9"); err != nil {
		t.Fatal(err)
	}
	if got := c.Values()["eta"]; got != 3.0 {
		t.Errorf("setting the original changed the clone's eta to %v", got)
	}
	q := p // a copy of the Params shares the struct
	if err := q.Set("tau", "8"); err != nil || s.Tau != 8 {
		t.Errorf("a Set through a copy: tau %d, err %v; want 8 in the shared struct", s.Tau, err)
	}
}

// TestParamsEveryAlgorithm checks Params on every registered algorithm: its struct
// holds only numbers, booleans and strings (so that Clone shares nothing), a clone set
// to other values leaves the defaults alone, and String's pairs set by SetAll give the
// same values.
func TestParamsEveryAlgorithm(t *testing.T) {
	for _, spec := range Registry() {
		t.Run(spec.Name, func(t *testing.T) {
			p := spec.Params()
			typ := reflect.TypeOf(p.ptr).Elem()
			for i := range typ.NumField() {
				switch f := typ.Field(i); f.Type.Kind() {
				case reflect.Float64, reflect.Int, reflect.Bool, reflect.String:
				default:
					t.Errorf("field %s is a %s: Clone would share it", f.Name, f.Type)
				}
			}
			defaults := p.Values()
			c := p.Clone()
			for k, v := range defaults {
				if err := c.Set(k, otherValue(v)); err != nil {
					t.Fatalf("clone: Set %s=%s: %v", k, otherValue(v), err)
				}
			}
			if got := p.Values(); !maps.Equal(got, defaults) {
				t.Errorf("setting the clone changed the original: %v, want %v", got, defaults)
			}
			for k, v := range c.Values() {
				if v == defaults[k] {
					t.Errorf("clone's %s still %v", k, v)
				}
			}
			back := spec.Params()
			if err := back.SetAll(strings.Fields(c.String())); err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(back.Values(), c.Values()) {
				t.Errorf("SetAll(String()) gives %v, want %v", back, c)
			}
		})
	}
}

// otherValue is a value of v's type other than v, as text for Set.
func otherValue(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(!v)
	case string:
		return v + "x"
	}
	if fmt.Sprint(v) == "3" {
		return "4"
	}
	return "3"
}

// TestParamsOfAnotherAlgorithm: a constructor given another algorithm's parameters, or
// the zero Params, panics naming both types.
func TestParamsOfAnotherAlgorithm(t *testing.T) {
	opauc, _ := Lookup("opauc")
	mba, _ := Lookup("mba-l2")
	for _, tt := range []struct {
		name   string
		params Params
		want   string
	}{
		{"mba-l2's", mba.Params(), "solver: opauc takes *solver.OPAUCParams parameters, not *solver.MBAParams"},
		{"zero", Params{}, "solver: opauc takes *solver.OPAUCParams parameters, not <nil>"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if r := recover(); fmt.Sprint(r) != tt.want {
					t.Errorf("panic %v, want %s", r, tt.want)
				}
			}()
			_, _ = opauc.NewOnline(fallback.New(), 3, tt.params, 1)
		})
	}
}

// TestParamsIsSet: Set and SetAll record the keys they set, a failed Set records
// nothing, a clone keeps the record and its own Sets stay its own.
func TestParamsIsSet(t *testing.T) {
	_, p := newTestParams()
	if got := p.SetKeys(); len(got) != 0 {
		t.Fatalf("fresh Params: set keys %v, want none", got)
	}
	if err := p.SetAll([]string{"tau=3", "eta=2"}); err != nil {
		t.Fatal(err)
	}
	if err := p.Set("mode", ""); err != nil {
		t.Fatal(err)
	}
	if err := p.Set("dense", "maybe"); err == nil {
		t.Fatal("dense=maybe: no error")
	}
	if got, want := p.SetKeys(), []string{"eta", "tau", "mode"}; !slices.Equal(got, want) {
		t.Errorf("set keys %v, want %v (declaration order; a failed Set sets none)", got, want)
	}
	c := p.Clone()
	if err := c.Set("dense", "true"); err != nil {
		t.Fatal(err)
	}
	if !c.IsSet("eta") || !c.IsSet("dense") || p.IsSet("dense") {
		t.Errorf("clone: eta set %v, dense set %v; original dense set %v; want true, true, false", c.IsSet("eta"), c.IsSet("dense"), p.IsSet("dense"))
	}
	var z Params
	if z.IsSet("eta") || z.SetKeys() != nil {
		t.Error("zero Params: a key set")
	}
}

// TestDataParams: the data-scaled defaults fill the keys the caller did not set; a
// key set to its static default value keeps it (the data do not override it); Params
// of another algorithm are refused.
func TestDataParams(t *testing.T) {
	spec, err := Lookup("ls-auc")
	if err != nil {
		t.Fatal(err)
	}
	facts := DataFacts{Rows: 200, Features: 10, MeanSqNorm: 4, Positives: 90}
	scaled := ridgeSquare * facts.RidgeScale()
	static := spec.Params().Values()["lambda"].(float64)
	tests := []struct {
		name string
		set  []string
		want float64
	}{
		{"none set", nil, scaled},
		{"set", []string{"lambda=0.5"}, 0.5},
		{"set to the static default", []string{fmt.Sprintf("lambda=%v", static)}, static},
		{"another key set", []string{"steps=3"}, scaled},
	}
	for _, tt := range tests {
		p := spec.Params()
		if err := p.SetAll(tt.set); err != nil {
			t.Fatal(err)
		}
		got, err := spec.DataParams(facts, p)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if l := got.Values()["lambda"].(float64); l != tt.want {
			t.Errorf("%s: lambda %v, want %v", tt.name, l, tt.want)
		}
		if !slices.Equal(got.SetKeys(), p.SetKeys()) {
			t.Errorf("%s: set keys %v, want the caller's %v", tt.name, got.SetKeys(), p.SetKeys())
		}
	}
	if got, err := spec.DataParams(facts, Params{}); err != nil || got.Values()["lambda"] != scaled {
		t.Errorf("zero Params: lambda %v, err %v; want %v", got.Values()["lambda"], err, scaled)
	}
	other, _ := Lookup("opauc")
	if _, err := spec.DataParams(facts, other.Params()); !errors.Is(err, ErrParam) {
		t.Errorf("opauc's Params for ls-auc: err %v, want ErrParam", err)
	}
}
