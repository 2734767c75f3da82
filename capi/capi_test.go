//go:build cgo

package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
)

// TestParseParams: JSON objects and key=value lines give -p's key=values.
func TestParseParams(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		bad  bool
	}{
		{"", nil, false},
		{`{"lambda": 0.001, "pairs": "all", "prepass": true, "eta": 0.1}`, []string{"eta=0.1", "lambda=0.001", "pairs=all", "prepass=true"}, false},
		{"eta=0.5\n lambda=2 \n\n", []string{"eta=0.5", "lambda=2"}, false},
		{`{"eta": [1]}`, nil, true},
		{`{"eta": `, nil, true},
	}
	for _, c := range cases {
		got, err := parseParams(c.in)
		if (err != nil) != c.bad || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v (error %v)", c.in, got, err, c.want, c.bad)
		}
		if err != nil && status(err) != statusInput {
			t.Errorf("%q: status %d, want 2", c.in, status(err))
		}
	}
	if _, err := parseOptions(`{"scale": "none", "shufle": false}`); err == nil || status(err) != statusInput {
		t.Errorf("an unknown option: %v", err)
	}
	o, err := parseOptions(`{"scale": "none", "shuffle": false, "budget_seconds": 2.5}`)
	if err != nil || *o.Scale != "none" || *o.Shuffle || o.Budget != 2.5 {
		t.Errorf("options: %+v, %v", o, err)
	}
}

// TestSetWeights: uniform positive weights are dropped (the unweighted problem), others
// kept on the dataset, and a negative or NaN weight refused as input naming its row.
func TestSetWeights(t *testing.T) {
	for _, c := range []struct {
		w    []float64
		kept bool
		err  string
	}{
		{[]float64{2, 2, 2}, false, ""},
		{[]float64{1, 1, 2}, true, ""},
		{[]float64{0, 1, 1}, true, ""},
		{[]float64{1, -1, 1}, false, "row 2"},
		{[]float64{1, 1, math.NaN()}, false, "row 3"},
	} {
		ds, err := data.NewDenseRows("m", 3, 1, []float64{1, 2, 3}, false, []float64{1, -1, 1}, "")
		if err != nil {
			t.Fatal(err)
		}
		err = setWeights(ds, c.w)
		switch {
		case c.err != "" && (err == nil || status(err) != statusInput || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%v: %v, want an input error naming %s", c.w, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%v: %v", c.w, err)
		case c.err == "" && (ds.W != nil) != c.kept:
			t.Errorf("%v: weights kept %v, want %v", c.w, ds.W != nil, c.kept)
		}
	}
}

// TestStatus: errors are classed by the command line's exit-status rule.
func TestStatus(t *testing.T) {
	_, trainErr := engine.Train(context.Background(), engine.TrainConfig{Algo: "nope", Data: "a9a"})
	_, readErr := model.Read(os.DevNull)
	cases := []struct {
		err  error
		want int
	}{
		{nil, statusOK},
		{trainErr, statusInput},
		{readErr, statusInput},
		{fmt.Errorf("x: %w", context.Canceled), statusInterrupted},
		{fmt.Errorf("x: %w", solver.ErrDiverged), statusFailure},
		{fmt.Errorf("x: %w", data.ErrEmpty), statusInput},
		{inputError{errors.New("shape")}, statusInput},
		{errors.New("disk full"), statusFailure},
		{fmt.Errorf("writing m.json: %w", syscall.ENOSPC), statusFailure},
		{fmt.Errorf("%w: %w", fault.ErrInput, syscall.EIO), statusFailure}, // the disk's, whatever wraps it
	}
	for _, c := range cases {
		if got := status(c.err); got != c.want {
			t.Errorf("%v: status %d, want %d", c.err, got, c.want)
		}
	}
}
