package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	aucmodel "github.com/aucopt/aucopt/engine/model"
)

// churnRows writes n rows of a churn-like table: columns in the order cols (of
// user_id, label, age, plan, city, signup), the label yes or no, deterministic.
func churnRows(n int, cols []string) string {
	var b strings.Builder
	b.WriteString(strings.Join(cols, ",") + "\n")
	plans, cities := []string{"free", "pro", "team"}, []string{"paris", "lyon", "nice", "lille"}
	for i := range n {
		age := 20 + (i*37)%50
		plan, city := plans[(i*7)%3], cities[(i*5)%4]
		yes := (age > 40) != (plan == "free") != (i%9 == 0) // a noisy rule the learners can find
		cell := map[string]string{"user_id": fmt.Sprintf("user-%04d", i), "label": map[bool]string{true: "yes", false: "no"}[yes],
			"age": strconv.Itoa(age), "plan": plan, "city": city, "signup": fmt.Sprintf("2024-%02d-01", 1+i%12)}
		for j, c := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(cell[c])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestPredictTableScoring is the production path: a calibrated model trained on a table
// scores a CSV whose columns come in another order with an identifier and an extra
// column; `predict --id user_id --proba` writes the header user_id,label,score,probability
// and one row per input row, the file's own labels and IDs, the scores of the same rows
// without those columns and the calibration's probabilities; eval takes the same flags.
func TestPredictTableScoring(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_BACKEND", "generic")
	p := func(name string) string { return filepath.Join(dir, name) }
	write := func(name, text string) string {
		if err := os.WriteFile(p(name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p(name)
	}
	cmd := func(want int, args ...string) (string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		if got := run(args, &out, &errOut); got != want {
			t.Fatalf("aucopt %s: exit %d, want %d: %s%s", strings.Join(args, " "), got, want, out.String(), errOut.String())
		}
		return out.String(), errOut.String()
	}
	train := write("train.csv", churnRows(400, []string{"label", "age", "plan", "city"}))
	plain := write("plain.csv", churnRows(60, []string{"label", "age", "plan", "city"}))
	scoring := write("new.csv", churnRows(60, []string{"city", "user_id", "signup", "plan", "label", "age"}))
	model := p("m.json")
	cmd(0, "train", "--algo", "spam-l2", "--data", train, "--positive", "yes", "--hash-bits", "6", "--calibrate", "platt", "--model", model, "--quiet")
	m, err := aucmodel.Read(model)
	if err != nil || m.Calibration == nil {
		t.Fatalf("model %v, calibration %v", err, m.Calibration)
	}

	out, _ := cmd(0, "predict", "--model", model, "--data", plain)
	head, ref := readPredictions(t, []byte(out))
	if strings.Join(head, ",") != "label,score" || len(ref) != 60 {
		t.Fatalf("predict of the plain file: header %q, %d rows; want label,score and 60", head, len(ref))
	}
	out, stderr := cmd(0, "predict", "--model", model, "--data", scoring, "--id", "user_id", "--proba", "--ignore", "signup")
	head, got := readPredictions(t, []byte(out))
	if strings.Join(head, ",") != "user_id,label,score,probability" || len(got) != 60 || stderr != "" {
		t.Fatalf("header %q, %d rows, stderr %q; want user_id,label,score,probability, 60 rows and nothing", head, len(got), stderr)
	}
	lines := strings.Split(strings.TrimSpace(churnRows(60, []string{"user_id", "label"})), "\n")[1:]
	for i, r := range got {
		if r[0]+","+r[1] != lines[i] || r[2] != ref[i][1] || r[1] != ref[i][0] {
			t.Fatalf("row %d %q: want %s and the plain file's score %s", i+1, r, lines[i], ref[i][1])
		}
		s, _ := strconv.ParseFloat(r[2], 64)
		if r[3] != strconv.FormatFloat(m.Calibration.Prob(s), 'g', -1, 64) {
			t.Fatalf("row %d %q: the probability is not the calibration's of the score", i+1, r)
		}
	}
	// --allow-extra-columns: the same, the extra columns left out unnamed.
	out, _ = cmd(0, "predict", "--model", model, "--data", scoring, "--allow-extra-columns")
	if _, r := readPredictions(t, []byte(out)); len(r) != 60 || r[59][1] != ref[59][1] {
		t.Errorf("--allow-extra-columns: %d rows, last %q; want 60, the last scored %s", len(r), r[len(r)-1], ref[59][1])
	}
	// eval takes the same flags: the AUC of the plain file.
	evalPlain, _ := cmd(0, "eval", "--model", model, "--data", plain, "--json")
	evalNew, _ := cmd(0, "eval", "--model", model, "--data", scoring, "--json", "--id", "user_id", "--ignore", "signup")
	auc := func(s string) string { _, a, _ := strings.Cut(s, `"auc": `); a, _, _ = strings.Cut(a, ","); return a }
	if auc(evalPlain) == "" || auc(evalPlain) != auc(evalNew) {
		t.Errorf("eval of the scoring file: AUC %q, want the plain file's %q", auc(evalNew), auc(evalPlain))
	}
	// --missing: the model's policy (error) is replaced for the file scored.
	holes := write("holes.csv", strings.Replace(churnRows(5, []string{"user_id", "label", "age", "plan", "city"}), ",free,", ",,", 1)) // line 2's plan
	out, stderr = cmd(0, "predict", "--model", model, "--data", holes, "--id", "user_id", "--missing", "skip")
	if _, r := readPredictions(t, []byte(out)); len(r) != 4 || !strings.Contains(stderr, "note: 1 row with a missing value was left out") {
		t.Errorf("--missing skip: %d rows, stderr %q; want 4 and a note", len(r), stderr)
	}
	out, _ = cmd(0, "predict", "--model", model, "--data", holes, "--id", "user_id", "--missing", "zero")
	if _, r := readPredictions(t, []byte(out)); len(r) != 5 {
		t.Errorf("--missing zero: %d rows, want 5", len(r))
	}

	svmModel := p("svm.json")
	svm := write("d.svm", "+1 1:1 2:0.5\n-1 1:0.2\n+1 2:1\n-1 1:0.1 2:0.1\n")
	cmd(0, "train", "--algo", "spam-l2", "--data", svm, "--model", svmModel, "--quiet")
	missingCol := write("nocity.csv", churnRows(5, []string{"label", "age", "plan"}))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"extra columns", []string{"--model", model, "--data", scoring}, scoring + `:1: bad columns: columns "user_id", "signup" were not in the model's training data` +
			` (its columns: label "label", features "age", "city", "plan"); --ignore user_id,signup leaves them out, --allow-extra-columns every column the model does not know`},
		{"an extra column", []string{"--model", model, "--data", scoring, "--id", "user_id"}, `column "signup" was not in the model's training data (its columns: label "label", features "age", "city", "plan"); --ignore signup leaves it out`},
		{"a missing column", []string{"--model", model, "--data", missingCol}, missingCol + `:1: bad columns: no column "city", which the model was trained on`},
		{"no such file", []string{"--model", model, "--data", p("nope.csv")}, p("nope.csv") + ": no such file"},
		{"a feature ignored", []string{"--model", model, "--data", scoring, "--id", "user_id", "--ignore", "signup,age"}, `column "age" is a feature of the model, it cannot be left out`},
		{"a missing value", []string{"--model", model, "--data", holes, "--id", "user_id"}, holes + `:2:4: column "plan": missing value`},
		{"a bad policy", []string{"--model", model, "--data", holes, "--missing", "drop"}, `--missing "drop": want error, zero or skip`},
		{"no such ID column", []string{"--model", model, "--data", plain, "--id", "uid"}, plain + `:1: bad columns: no column "uid"`},
		{"an ID on LIBSVM data", []string{"--model", svmModel, "--data", svm, "--id", "x"}, "--id: model " + svmModel + " was trained on LIBSVM data"},
		{"--ignore on LIBSVM data", []string{"--model", svmModel, "--data", svm, "--ignore", "x"}, "--ignore: model " + svmModel + " was trained on LIBSVM data"},
		{"--missing on LIBSVM data", []string{"--model", svmModel, "--data", svm, "--missing", "zero"}, "--missing: model " + svmModel + " was trained on LIBSVM data"},
		{"--allow-extra-features on a table", []string{"--model", model, "--data", scoring, "--allow-extra-features"}, "--allow-extra-features: model " + model + " was trained on a table, whose features are its columns: --allow-extra-columns"},
		{"--allow-fewer-features on a table", []string{"--model", model, "--data", missingCol, "--allow-fewer-features"}, "--allow-fewer-features: model " + model + " was trained on a table"},
		{"extra columns allowed on LIBSVM data", []string{"--model", svmModel, "--data", svm, "--allow-extra-columns"}, "--allow-extra-columns: model " + svmModel},
	}
	for _, c := range []string{"predict", "eval"} {
		for _, tt := range tests {
			t.Run(c+" "+tt.name, func(t *testing.T) {
				args := append([]string{c}, tt.args...)
				if c == "predict" {
					args = append(args, "--out", p("scores.csv"))
				}
				var stdout, stderr bytes.Buffer
				status := run(args, &stdout, &stderr)
				if status != 2 || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), "aucopt "+c+": ") ||
					strings.Count(stderr.String(), "\n") != 1 || !strings.Contains(stderr.String(), tt.want) {
					t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, one line with %q", status, stdout.String(), stderr.String(), tt.want)
				}
				if _, err := os.Stat(p("scores.csv")); err == nil {
					t.Error("an output file was written")
				}
			})
		}
	}
	// The --id column cannot take the name of another output column.
	if _, stderr := cmd(2, "predict", "--model", model, "--data", scoring, "--id", "score", "--allow-extra-columns"); !strings.Contains(stderr, `--id "score": predict's output has a column of that name`) {
		t.Errorf("--id score: %q", stderr)
	}
}

// TestWriteScores: predict's CSV, column by column: the ID (quoted where CSV needs it),
// the label as written, the score and the probability, each only where it applies.
func TestWriteScores(t *testing.T) {
	labels := func(l ...string) func(int) string { return func(i int) string { return l[i] } }
	tests := []struct {
		name string
		r    scoreRows
		want string
	}{
		{"LIBSVM", scoreRows{label: labels("1", "-1"), scores: []float64{0.5, -2}}, "label,score\n1,0.5\n-1,-2\n"},
		{"with probabilities", scoreRows{label: labels("yes", "no"), scores: []float64{0.5, -2}, probs: []float64{0.75, 0.125}}, "label,score,probability\nyes,0.5,0.75\nno,-2,0.125\n"},
		{"IDs quoted", scoreRows{idName: "user id", ids: []string{"a,b", `say "hi"`, " pad", "", "plain"}, label: labels("1", "0", "1", "0", "a\nb"), scores: []float64{1, 2, 3, 4, 5}},
			"user id,label,score\n\"a,b\",1,1\n\"say \"\"hi\"\"\",0,2\n\" pad\",1,3\n,0,4\nplain,\"a\nb\",5\n"},
		{"unlabelled", scoreRows{idName: "u,id", ids: []string{"u1"}, scores: []float64{0.1}, probs: []float64{0.5}}, "\"u,id\",score,probability\nu1,0.1,0.5\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := writeScores(&b, tt.r); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
			head, recs := readPredictions(t, b.Bytes())
			if tt.r.ids != nil && (head[0] != tt.r.idName || !slices.EqualFunc(recs, tt.r.ids, func(r []string, id string) bool { return r[0] == id })) {
				t.Errorf("the IDs do not read back as CSV: %q", recs)
			}
		})
	}
}
