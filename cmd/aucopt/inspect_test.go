package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	aucmodel "github.com/aucopt/aucopt/engine/model"
)

// inspectJSON runs aucopt inspect --json with args and decodes its report.
func inspectJSON(t *testing.T, args ...string) inspectReport {
	t.Helper()
	var rep inspectReport
	if err := json.Unmarshal([]byte(runOK(t, append([]string{"inspect", "--json"}, args...)...)), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestInspectHashed: on a model of a hashed click-through table the top buckets are
// named by column=value strings that do hash to them (each read back alone with the
// model's schema lands in that bucket with that sign), the most frequent first.
func TestInspectHashed(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_BACKEND", "")
	ctr, m := filepath.Join(dir, "ctr.csv"), filepath.Join(dir, "ctr.json")
	runOK(t, "gen", "--rows", "6000", "--out", ctr)
	runOK(t, "train", "--algo", "ls-auc", "--data", ctr, "--label", "click", "--hash-bits", "10", "--model", m, "--quiet")
	model, err := aucmodel.Read(m)
	if err != nil {
		t.Fatal(err)
	}
	rep := inspectJSON(t, "--model", m, "--top", "10")
	if len(rep.Weights) != 10 || rep.VocabularyRows != 6000 || rep.Intercept != nil {
		t.Fatalf("%d weights, vocabulary over %d rows, intercept %v; want 10, 6000, none", len(rep.Weights), rep.VocabularyRows, rep.Intercept)
	}
	header, err := os.ReadFile(ctr)
	if err != nil {
		t.Fatal(err)
	}
	cols := strings.Split(strings.SplitN(string(header), "\n", 2)[0], ",")
	for k, w := range rep.Weights {
		if k > 0 && math.Abs(w.Weight) > math.Abs(rep.Weights[k-1].Weight) {
			t.Errorf("weight %d |%v| above weight %d's", k+1, w.Weight, k)
		}
		if !strings.HasPrefix(w.Name, "bucket ") || len(w.Terms) == 0 || len(w.Terms) > data.VocabPerBucket {
			t.Fatalf("weight %d: %q with %d terms, want a named bucket", k+1, w.Name, len(w.Terms))
		}
		for i, term := range w.Terms {
			if i > 0 && term.Count > w.Terms[i-1].Count {
				t.Errorf("%s: terms not most frequent first: %+v", w.Name, w.Terms)
			}
			col, val, _ := strings.Cut(term.Term, "=")
			// One row with the value in its column, the others empty (missing: zero).
			row := make([]string, len(cols))
			row[0] = "1"
			row[slices.Index(cols, col)] = val
			one := filepath.Join(dir, "one.csv")
			if err := os.WriteFile(one, []byte(strings.Join(cols, ",")+"\n"+strings.Join(row, ",")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			sch := *model.Table
			sch.Missing = data.MissingZero
			d, _, err := data.ReadTableFile(one, data.Options{Table: &data.TableOptions{Schema: &sch}})
			if err != nil {
				t.Fatal(err)
			}
			r := d.Row(0)
			if len(r.Idx) != 1 || int(r.Idx[0])+1 != w.Feature || r.Val[0] != float64(term.Sign) {
				t.Errorf("%s: %q reads as features %v values %v, want feature %d with sign %d", w.Name, term.Term, r.Idx, r.Val, w.Feature, term.Sign)
			}
		}
	}
	out := runOK(t, "inspect", "--model", m, "--top", "3")
	first := rep.Weights[0].Terms[0]
	for _, want := range []string{"22 hashed columns into 1024 buckets", "intercept: none", "weights, largest |w| first (3 of", rep.Weights[0].Name, first.Term} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect text lacks %q:\n%s", want, out)
		}
	}
}

// TestInspectNames: LIBSVM features are f<index>, a table's numeric columns their names;
// bad flags are usage errors.
func TestInspectNames(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, dir)
	m := filepath.Join(dir, "m.json")
	runOK(t, "train", "--algo", "ls-auc", "--data", "german", "--model", m, "--quiet")
	rep := inspectJSON(t, "--model", m, "--top", "0")
	if len(rep.Weights) != rep.Model.NonZero || rep.Model.NonZero == 0 {
		t.Fatalf("--top 0: %d weights of %d non-zero", len(rep.Weights), rep.Model.NonZero)
	}
	for _, w := range rep.Weights {
		if w.Name != "f"+itoa(w.Feature) {
			t.Errorf("feature %d named %q", w.Feature, w.Name)
		}
	}
	csv := filepath.Join(dir, "t.csv")
	var b strings.Builder
	b.WriteString("zeta,label,alpha\n")
	for i := range 200 {
		b.WriteString(itoa(i%7) + "," + itoa(i%2) + "," + itoa((i%2)*3+i%5) + "\n")
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tm := filepath.Join(dir, "t.json")
	runOK(t, "train", "--algo", "ls-auc", "--data", csv, "--model", tm, "--quiet")
	rep = inspectJSON(t, "--model", tm)
	names := map[int]string{}
	for _, w := range rep.Weights {
		names[w.Feature] = w.Name
	}
	if names[1] != "alpha" || names[2] != "zeta" {
		t.Errorf("table weights named %v, want 1: alpha, 2: zeta (numeric columns sorted by name)", names)
	}
	runFailing(t, "inspect", nil, 2, "--model is required")
	runFailing(t, "inspect", []string{"--model", tm, "--top", "-1"}, 2, "--top -1")
	runFailing(t, "inspect", []string{"--model", filepath.Join(dir, "none.json")}, 2, "no such file")
}

func itoa(i int) string { return strconv.Itoa(i) }
