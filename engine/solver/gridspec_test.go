package solver

import (
	"slices"
	"strings"
	"testing"
)

func TestParseGrid(t *testing.T) {
	opauc, err := Lookup("opauc")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		spec    string
		keys    []string
		values  [][]float64
		wantErr string
	}{
		{spec: "paper", keys: opauc.Grid.Keys, values: opauc.Grid.Values},
		{spec: "", keys: opauc.Grid.Keys, values: opauc.Grid.Values},
		{spec: "eta=2^[-2..1]", keys: []string{"eta"}, values: [][]float64{{0.25, 0.5, 1, 2}}},
		{spec: "eta=0.1, 10^[0..1] ; lambda=0,2^-3", keys: []string{"eta", "lambda"}, values: [][]float64{{0.1, 1, 10}, {0, 0.125}}},
		{spec: "rho=1", wantErr: "unknown key"},
		{spec: "eta", wantErr: "not key=values"},
		{spec: "eta=1;eta=2", wantErr: "given twice"},
		{spec: "eta=2^[3..1]", wantErr: "not a range"},
		{spec: "eta=abc", wantErr: "not a number"},
	} {
		g, err := opauc.ParseGrid(tc.spec)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseGrid(%q): error %v, want one containing %q", tc.spec, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseGrid(%q): %v", tc.spec, err)
			continue
		}
		if !slices.Equal(g.Keys, tc.keys) || len(g.Values) != len(tc.values) {
			t.Errorf("ParseGrid(%q) = %v, want keys %v", tc.spec, g, tc.keys)
			continue
		}
		for k := range g.Values {
			if !slices.Equal(g.Values[k], tc.values[k]) {
				t.Errorf("ParseGrid(%q) %s = %v, want %v", tc.spec, g.Keys[k], g.Values[k], tc.values[k])
			}
		}
	}
}
