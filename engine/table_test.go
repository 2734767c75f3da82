package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/fallback"
)

// TestTableTrainsLikeLibSVM: german as LIBSVM text, CSV and Parquet, and a click-log
// table as CSV, Parquet and its hashed LIBSVM conversion, train to identical weights,
// streamed or in memory; the model records the schema and scores a Parquet file like the
// CSV it was trained on.
func TestTableTrainsLikeLibSVM(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, t.TempDir())
	sp, err := data.Load("german", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	svm := filepath.Join(dir, "german.svm")
	f, _ := os.Create(svm)
	data.WriteLibSVM(f, sp.Train)
	f.Close()
	ctr := filepath.Join(dir, "ctr.csv")
	f, _ = os.Create(ctr)
	if err := (&data.CTR{Rows: 4000, Seed: 2}).Write(f, "csv", 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	convert := func(in, out string, opts data.Options) string {
		p := filepath.Join(dir, out)
		if _, err := data.Convert(in, p, opts); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctrTable := &data.TableOptions{Label: "click", HashBits: 10}
	tests := []struct {
		name  string
		files []string
		table *data.TableOptions
	}{
		{"german", []string{svm, convert(svm, "german.csv", data.Options{}), convert(svm, "german.parquet", data.Options{})}, nil},
		{"click log", []string{convert(ctr, "ctr.svm", data.Options{Table: ctrTable}), ctr, convert(ctr, "ctr.parquet", data.Options{})}, ctrTable},
	}
	for _, tt := range tests {
		for _, scale := range []string{data.ScaleNone, data.ScaleMinMax} { // streamed, in memory
			var first []float64
			for i, file := range tt.files {
				cfg := TrainConfig{Algo: "spam-l2", Data: file, Scale: scale, Shuffle: scale != data.ScaleNone, Backend: fallback.New(), Seed: 1}
				if i > 0 {
					cfg.Table = tt.table
				}
				res, err := Train(context.Background(), cfg)
				if err != nil {
					t.Fatalf("%s %s: %v", tt.name, file, err)
				}
				if (res.Schema != nil) != (i > 0) {
					t.Errorf("%s: schema %v", file, res.Schema)
				}
				if i == 0 {
					first = res.Weights
				} else if !slices.Equal(first, res.Weights) {
					t.Errorf("%s, scale %s: %s trains to other weights than %s", tt.name, scale, file, tt.files[0])
				}
			}
		}
	}
	// A model trained on the CSV scores the Parquet copy (its columns in another order)
	// as the CSV.
	res, err := Train(context.Background(), TrainConfig{Algo: "ftrl", Data: ctr, Table: ctrTable, Scale: data.ScaleNone, Backend: fallback.New()})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model()
	mp := filepath.Join(dir, "m.json")
	if err := m.Write(mp); err != nil {
		t.Fatal(err)
	}
	if m, err = model.Read(mp); err != nil || m.Table == nil || m.Table.HashBits != 10 {
		t.Fatalf("model read back: %v, table %+v", err, m.Table)
	}
	a, err := Predict(context.Background(), m, ctr, PredictOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Predict(context.Background(), m, filepath.Join(dir, "ctr.parquet"), PredictOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Scores, b.Scores) {
		t.Error("the model scores the Parquet copy differently from the CSV")
	}
	if _, err := Predict(context.Background(), m, filepath.Join(dir, "ctr.svm"), PredictOptions{}); err == nil {
		t.Error("a table model scored a LIBSVM file")
	}
}

// TestParquetStreamSizedFromMetadata: a Parquet table streamed (one-pass learners,
// unscaled, in file order) is sized from its metadata, not by a pass of its own, and
// its vocabulary counted by the first training pass alone: the same rows, schema,
// weights and vocabulary as the CSV it came from (which a sizing pass reads), over one
// pass or three.
func TestParquetStreamSizedFromMetadata(t *testing.T) {
	dir := t.TempDir()
	ctr := filepath.Join(dir, "ctr.csv")
	f, err := os.Create(ctr)
	if err != nil {
		t.Fatal(err)
	}
	if err := (&data.CTR{Rows: 3000, Seed: 5}).Write(f, "csv", 0); err != nil {
		t.Fatal(err)
	}
	f.Close()
	pq := filepath.Join(dir, "ctr.parquet")
	if _, err := data.Convert(ctr, pq, data.Options{}); err != nil {
		t.Fatal(err)
	}
	table := &data.TableOptions{Label: "click", HashBits: 9}
	for _, passes := range []int{1, 3} {
		var want *TrainResult
		for _, file := range []string{ctr, pq} {
			res, err := Train(context.Background(), TrainConfig{Algo: "ftrl", Data: file, Table: table, Scale: data.ScaleNone,
				Passes: passes, Backend: fallback.New()})
			if err != nil {
				t.Fatal(err)
			}
			if want == nil {
				want = res
				continue
			}
			if res.TrainRows != want.TrainRows || res.Features != want.Features || !slices.Equal(res.Weights, want.Weights) {
				t.Errorf("%d passes: Parquet %d rows × %d features, weights equal %v; CSV %d × %d",
					passes, res.TrainRows, res.Features, slices.Equal(res.Weights, want.Weights), want.TrainRows, want.Features)
			}
			if len(res.Vocabulary) == 0 || !slices.EqualFunc(res.Vocabulary, want.Vocabulary, func(a, b data.VocabTerm) bool {
				return a == b
			}) || res.VocabularyRows != want.VocabularyRows {
				t.Errorf("%d passes: Parquet's vocabulary (%d terms over %d rows) is not the CSV's (%d over %d)",
					passes, len(res.Vocabulary), res.VocabularyRows, len(want.Vocabulary), want.VocabularyRows)
			}
		}
	}
}
