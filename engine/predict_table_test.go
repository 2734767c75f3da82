package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/fallback"
)

// labels are p's rows' labels (Prediction.Label), nil when it is unlabelled.
func labels(p *Prediction) []string {
	if p.Unlabelled {
		return nil
	}
	var l []string
	for i := range p.Scores {
		l = append(l, p.Label(i))
	}
	return l
}

// TestPredictTableOptions: a model trained on a table scores a file with its columns
// reordered, an identifier and other extra columns as the options say, giving each
// row's ID and label as the file writes them; the scores are those of the training
// file's rows. Bad requests are input errors naming their cause.
func TestPredictTableOptions(t *testing.T) {
	dir := t.TempDir()
	p := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	train := p("train.csv", "label,age,plan\nyes,34,pro\nno,51,free\nyes,29,pro\nno,45,free\n")
	res, err := Train(context.Background(), TrainConfig{Algo: "spam-l2", Data: train, Positive: "yes", Table: &data.TableOptions{HashBits: 4},
		Backend: fallback.New(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model()
	ref, err := Predict(context.Background(), m, train, PredictOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(labels(ref), []string{"yes", "no", "yes", "no"}) || ref.IDs != nil {
		t.Fatalf("labels %q, IDs %q: want the file's yes and no, no IDs", labels(ref), ref.IDs)
	}
	scoring := p("new.csv", "plan,user_id,age,label,signup\npro,u1,34,yes,mon\nfree,\"u,2\",51,no,tue\npro,u3,29,yes,wed\nfree,u4,45,no,thu\n")
	unlabelled := p("unlabelled.csv", "user_id,plan,age\nu1,pro,34\nu2,free,51\nu3,pro,29\nu4,free,45\n")
	holes := p("holes.csv", "user_id,plan,age,label\nu1,pro,34,yes\nu2,free,,no\nu3,pro,29,yes\nu4,free,45,no\n")
	tests := []struct {
		name       string
		file       string
		opts       PredictOptions
		msg        string // the error's, "" for none
		ids        []string
		labels     []string
		rows       []int // the training rows scored, in order
		skipped    int
		unlabelled bool
	}{
		{"reordered, extra columns ignored", scoring, PredictOptions{ID: "user_id", Ignore: []string{"signup"}}, "", []string{"u1", "u,2", "u3", "u4"}, []string{"yes", "no", "yes", "no"}, []int{0, 1, 2, 3}, 0, false},
		{"extra columns allowed", scoring, PredictOptions{AllowExtraColumns: true}, "", nil, []string{"yes", "no", "yes", "no"}, []int{0, 1, 2, 3}, 0, false},
		{"extra columns refused", scoring, PredictOptions{ID: "user_id"}, `column "signup" was not in the model's training data`, nil, nil, nil, 0, false},
		{"unlabelled", unlabelled, PredictOptions{ID: "user_id", Unlabelled: true}, "", []string{"u1", "u2", "u3", "u4"}, nil, []int{0, 1, 2, 3}, 0, true},
		{"missing skipped", holes, PredictOptions{ID: "user_id", Missing: data.MissingSkip}, "", []string{"u1", "u3", "u4"}, []string{"yes", "yes", "no"}, []int{0, 2, 3}, 1, false},
		{"missing refused", holes, PredictOptions{ID: "user_id"}, `holes.csv:3:3: column "age": missing value`, nil, nil, nil, 0, false},
		{"bad policy", holes, PredictOptions{ID: "user_id", Missing: "drop"}, `missing-value policy "drop"`, nil, nil, nil, 0, false},
		{"no such file", filepath.Join(dir, "nope.csv"), PredictOptions{}, "nope.csv: no such file", nil, nil, nil, 0, false},
		{"no such ID column", scoring, PredictOptions{ID: "uid", AllowExtraColumns: true}, `no column "uid"`, nil, nil, nil, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Predict(context.Background(), m, tt.file, tt.opts)
			if tt.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tt.msg) || !fault.IsInput(err) {
					t.Fatalf("error %v, want an input error saying %q", err, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []float64
			for _, i := range tt.rows {
				want = append(want, ref.Scores[i])
			}
			if !slices.Equal(got.Scores, want) || !slices.Equal(got.IDs, tt.ids) || !slices.Equal(labels(got), tt.labels) ||
				got.Skipped != tt.skipped || got.Unlabelled != tt.unlabelled {
				t.Errorf("scores %v, IDs %q, labels %q, %d skipped, unlabelled %t; want %v, %q, %q, %d, %t",
					got.Scores, got.IDs, labels(got), got.Skipped, got.Unlabelled, want, tt.ids, tt.labels, tt.skipped, tt.unlabelled)
			}
			if (got.Skipped > 0) != slices.ContainsFunc(got.Notes, func(n string) bool { return strings.Contains(n, "left out") }) {
				t.Errorf("notes %q: want one on the rows left out exactly when some were", got.Notes)
			}
		})
	}
}

// TestPredictLibSVMOptions: LIBSVM data's labels are the file's numbers; the table
// options are refused for a model trained on LIBSVM data.
func TestPredictLibSVMOptions(t *testing.T) {
	dir := t.TempDir()
	svm := filepath.Join(dir, "d.svm")
	os.WriteFile(svm, []byte("+1 1:1 2:0.5\n-1 1:0.2\n+1 2:1\n-1 1:0.1 2:0.1\n"), 0o644)
	res, err := Train(context.Background(), TrainConfig{Algo: "spam-l2", Data: svm, Backend: fallback.New(), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model()
	got, err := Predict(context.Background(), m, svm, PredictOptions{})
	if err != nil || !slices.Equal(labels(got), []string{"1", "-1", "1", "-1"}) {
		t.Fatalf("labels %q (%v), want the file's 1 and -1", labels(got), err)
	}
	for _, o := range []PredictOptions{{ID: "id"}, {Ignore: []string{"x"}}, {Missing: data.MissingZero}, {AllowExtraColumns: true}} {
		_, err := Predict(context.Background(), m, svm, o)
		if err == nil || !fault.IsInput(err) || !strings.Contains(err.Error(), "trained on LIBSVM data") || strings.Contains(err.Error(), "--") {
			t.Errorf("%+v: error %v, want an input error without flag names", o, err)
		}
	}
}
