// Command resultmerge replaces some algorithms' cells of a committed `aucopt experiment`
// report (its --json file) with those of a run of the same command limited to them
// (--algos), so that one algorithm's column can be re-run without re-running the
// table's others:
//
//	aucopt experiment --protocol opauc --datasets a9a,letter,magic04 --algos svm-or --out /tmp/part.md
//	go run ./bench/resultmerge bench/results/opauc-large.json /tmp/part.json bench/results/opauc-large.json
//	aucopt experiment --render bench/results/opauc-large.json --out bench/results/opauc-large.md
//
// The result is what the whole command gives at the part's build when the other
// algorithms are unchanged: every algorithm's runs depend only on the seed, the dataset
// and the split, not on the algorithms beside it (the command of opauc-small with
// --algos svm-or reproduced the table's svm-or runs bit for bit). resultmerge checks
// that both reports ran the same protocol, seed and description, and that every replaced
// cell has the same splits in the same order; it takes the part's notes (the current
// build's protocol notes), keeps the base's reductions but for the replaced algorithms'
// own, adds the part's, and prints where either changed. The base's wall
// time "seconds" stays (the part's is printed): it is the whole table's last run.
// Means, marks and win/tie/loss counts are recomputed by --render. It exits 2 on bad
// input or a mismatch.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: resultmerge BASE.json PART.json OUT.json")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "resultmerge:", err)
		os.Exit(2)
	}
}

type object = map[string]any

func run(basePath, partPath, outPath string) error {
	base, err := load(basePath)
	if err != nil {
		return err
	}
	part, err := load(partPath)
	if err != nil {
		return err
	}
	for _, k := range []string{"protocol", "seed", "describe", "paper", "source"} {
		if !equal(base[k], part[k]) {
			return fmt.Errorf("%s: %q differs: %v in %s, %v in %s", partPath, k, base[k], basePath, part[k], partPath)
		}
	}
	bt, pt := list(base["tables"]), list(part["tables"])
	replaced := 0
	var algos []string // the algorithms replaced
	for _, p := range pt {
		po := p.(object)
		var b object
		for _, t := range bt {
			if t.(object)["title"] == po["title"] {
				b = t.(object)
			}
		}
		if b == nil {
			return fmt.Errorf("%s: table %q is not in %s", partPath, po["title"], basePath)
		}
		balgos, bcells, pcells := strs(b["algos"]), b["cells"].(object), po["cells"].(object)
		for _, d := range strs(po["datasets"]) {
			if !slices.Contains(strs(b["datasets"]), d) {
				return fmt.Errorf("table %q: dataset %s is not in %s", po["title"], d, basePath)
			}
			for _, a := range strs(po["algos"]) {
				if !slices.Contains(balgos, a) {
					return fmt.Errorf("table %q: algorithm %s is not in %s", po["title"], a, basePath)
				}
				bc, _ := bcells[d].(object)[a].(object)
				pc, _ := pcells[d].(object)[a].(object)
				if bc == nil || pc == nil {
					return fmt.Errorf("table %q: no cell for %s on %s", po["title"], a, d)
				}
				if bs, ps := splits(bc), splits(pc); !slices.Equal(bs, ps) {
					return fmt.Errorf("table %q, %s on %s: the runs' splits differ (%d in %s, %d in %s)", po["title"], a, d, len(bs), basePath, len(ps), partPath)
				}
				bcells[d].(object)[a] = pc
				replaced++
				if !slices.Contains(algos, a) {
					algos = append(algos, a)
				}
			}
		}
	}
	// The notes are the protocol's, from the build: the part's. The reductions come
	// from the command's flags, and a part run with --algos lists only its
	// algorithms' grids: keep the base's, but for the replaced algorithms' own, and add
	// the part's.
	if !equal(base["notes"], part["notes"]) {
		fmt.Fprintf(os.Stderr, "resultmerge: notes from %s:\n  was %q\n  now %q\n", partPath, strs(base["notes"]), strs(part["notes"]))
	}
	if v, ok := part["notes"]; ok {
		base["notes"] = v
	} else {
		delete(base, "notes")
	}
	var reduced []any
	for _, e := range strs(base["reduced"]) {
		if !slices.ContainsFunc(algos, func(a string) bool { return strings.HasPrefix(e, a+" ") }) {
			reduced = append(reduced, e)
		}
	}
	for _, e := range strs(part["reduced"]) {
		if !slices.Contains(reduced, any(e)) {
			reduced = append(reduced, e)
		}
	}
	if !equal(base["reduced"], reduced) && !(base["reduced"] == nil && len(reduced) == 0) {
		fmt.Fprintf(os.Stderr, "resultmerge: reduced:\n  was %q\n  now %q\n", strs(base["reduced"]), strs(reduced))
	}
	if len(reduced) > 0 {
		base["reduced"] = reduced
	} else {
		delete(base, "reduced")
	}
	fmt.Fprintf(os.Stderr, "resultmerge: %d cells replaced (the part ran %.0f s; the table's seconds stay %.0f)\n", replaced, part["seconds"], base["seconds"])
	out, err := json.MarshalIndent(base, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(outPath, append(out, '\n'), 0o644)
}

// load decodes a report.
func load(path string) (object, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var v object
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if _, ok := v["tables"].([]any); !ok {
		return nil, fmt.Errorf("%s: not an experiment report (no tables)", path)
	}
	return v, nil
}

func list(v any) []any { l, _ := v.([]any); return l }

func strs(v any) []string {
	var out []string
	for _, x := range list(v) {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}

// splits lists a cell's runs' split names, in order.
func splits(c object) []string {
	var out []string
	for _, r := range list(c["runs"]) {
		s, _ := r.(object)["split"].(string)
		out = append(out, s)
	}
	return out
}

func equal(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
