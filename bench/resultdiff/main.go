// Command resultdiff compares two reports of `aucopt experiment` (its --json files) and
// prints every number that differs, grouped by table cell, ignoring the machine's share
// (wall times "seconds", the jobs run at once "workers"), the texts (captions,
// explanations, grid descriptions) and a boolean parameter absent from one side and
// false on the other (a switch added later, off by default). It exits 1
// when something differs, 2 on bad input, 0 when the runs agree.
//
//	go run ./bench/resultdiff bench/results/opauc-small.json /tmp/opauc-small.json
//
// bench/results/check-small.sh uses it to check that HEAD reproduces the committed
// small tables.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// compared lists the string fields that are results, not texts: a t-test's outcome and
// mark, the run's split name and the backend.
var compared = map[string]bool{"outcome": true, "mark": true, "split": true, "backend": true}

// ignored lists the keys that describe the machine's share of a run, not its results.
var ignored = map[string]bool{"seconds": true, "workers": true}

// maxPerCell bounds the differences printed for one cell.
const maxPerCell = 4

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: resultdiff COMMITTED.json NEW.json")
		os.Exit(2)
	}
	a, err := load(os.Args[1])
	if err == nil {
		var b any
		if b, err = load(os.Args[2]); err == nil {
			n := report(os.Stdout, diff(a, b))
			if n > 0 {
				os.Exit(1)
			}
			return
		}
	}
	fmt.Fprintln(os.Stderr, "resultdiff:", err)
	os.Exit(2)
}

// load decodes a JSON file.
func load(path string) (any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// difference is one differing value: its path (object keys and array indices) and the
// two values ("absent" where one side lacks it).
type difference struct {
	path     []string
	old, new string
}

// diff walks a and b together and returns their differences.
func diff(a, b any) []difference {
	var out []difference
	var walk func(path []string, a, b any)
	walk = func(path []string, a, b any) {
		key := ""
		if len(path) > 0 {
			key = path[len(path)-1]
		}
		if ignored[key] {
			return
		}
		switch av := a.(type) {
		case map[string]any:
			bv, ok := b.(map[string]any)
			if !ok {
				out = append(out, difference{slices.Clone(path), "object", show(b)})
				return
			}
			keys := make([]string, 0, len(av)+len(bv))
			for k := range av {
				keys = append(keys, k)
			}
			for k := range bv {
				if _, ok := av[k]; !ok {
					keys = append(keys, k)
				}
			}
			slices.Sort(keys)
			for _, k := range keys {
				if key == "params" && offParam(av, bv, k) {
					continue
				}
				walk(append(path, k), av[k], bv[k])
			}
		case []any:
			bv, ok := b.([]any)
			if !ok {
				out = append(out, difference{slices.Clone(path), "array", show(b)})
				return
			}
			for i := range max(len(av), len(bv)) {
				var x, y any
				if i < len(av) {
					x = av[i]
				}
				if i < len(bv) {
					y = bv[i]
				}
				walk(append(path, fmt.Sprint(i)), x, y)
			}
		case string:
			if compared[key] && a != b {
				out = append(out, difference{slices.Clone(path), show(a), show(b)})
			}
		default: // numbers, booleans, null and absent values
			switch b.(type) {
			case string:
				if !compared[key] {
					return
				}
			case map[string]any, []any: // not comparable with ==
				out = append(out, difference{slices.Clone(path), show(a), show(b)})
				return
			}
			if a != b {
				out = append(out, difference{slices.Clone(path), show(a), show(b)})
			}
		}
	}
	walk(nil, a, b)
	return out
}

// offParam reports whether parameter k is absent from one of two params objects and
// false in the other: a switch added to a learner after a table was made, off by
// default (UBAUC's center), runs as the table's run did.
func offParam(a, b map[string]any, k string) bool {
	x, inA := a[k]
	y, inB := b[k]
	return !inA && y == false || !inB && x == false
}

// show formats a JSON value for the report.
func show(v any) string {
	if v == nil {
		return "absent"
	}
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// cell names the table cell a path lies in (tables.T.cells.DATASET.ALGO), the table
// row (tables.T.win_tie_loss), else the path's first key.
func cell(path []string) string {
	switch {
	case len(path) >= 5 && path[0] == "tables" && path[2] == "cells":
		return "table " + path[1] + ": " + path[3] + " / " + path[4]
	case len(path) >= 3 && path[0] == "tables":
		return "table " + path[1] + ": " + path[2]
	}
	return path[0]
}

// report prints the differences grouped by cell and returns how many there were.
func report(w io.Writer, ds []difference) int {
	var order []string
	byCell := map[string][]difference{}
	for _, d := range ds {
		c := cell(d.path)
		if _, ok := byCell[c]; !ok {
			order = append(order, c)
		}
		byCell[c] = append(byCell[c], d)
	}
	for _, c := range order {
		cd := byCell[c]
		fmt.Fprintf(w, "%s: %d values differ\n", c, len(cd))
		for _, d := range cd[:min(len(cd), maxPerCell)] {
			fmt.Fprintf(w, "    %s: %s -> %s\n", strings.Join(d.path, "."), d.old, d.new)
		}
		if len(cd) > maxPerCell {
			fmt.Fprintf(w, "    ... and %d more\n", len(cd)-maxPerCell)
		}
	}
	return len(ds)
}
