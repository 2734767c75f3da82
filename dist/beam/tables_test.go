package aucbeam

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/metric"
)

// ctrTable writes the CTR table of rows rows (first row first) as one CSV file and
// returns its path.
func ctrTable(t *testing.T, dir, name string, rows, first int) string {
	t.Helper()
	var b bytes.Buffer
	c := &data.CTR{Rows: rows, First: first, Seed: 3}
	if err := c.WriteContext(context.Background(), &b, data.FormatCSV, 0); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTableShards: CSV, TSV and Parquet shards (aucopt convert --shards of one table)
// read with the table flags give ls-auc `aucopt train`'s model on the whole table (its
// weights to 1e-9, its schema), and the eval pipeline scores table shards with the
// model's schema to engine.Evaluate's AUC on the whole test table, exactly.
func TestTableShards(t *testing.T) {
	dir := t.TempDir()
	train := ctrTable(t, dir, "train.csv", 3000, 0)
	test := ctrTable(t, dir, "test.csv", 1500, 3000)
	// Hashed categories into 2^6 buckets (small enough for the moments), one column
	// left out and one numeric column hashed as categories.
	table := &data.TableOptions{Label: "click", Ignore: []string{"device_id", "device_ip"}, HashBits: 6}
	ctx := context.Background()
	single, err := engine.Train(ctx, engine.TrainConfig{Algo: "ls-auc", Data: train, Table: table, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if single.Schema == nil {
		t.Fatal("the single-machine fit has no table schema")
	}
	pred, err := engine.Predict(context.Background(), single.Model(), test, engine.PredictOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := metric.Evaluate(pred.Scores, pred.Y)
	if err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{"csv", "tsv", "parquet"} {
		t.Run(ext, func(t *testing.T) {
			sub := t.TempDir()
			for _, f := range []struct {
				in, name string
				n        int
			}{{train, "train", 3}, {test, "test", 2}} {
				if err := os.Mkdir(filepath.Join(sub, f.name), 0o755); err != nil {
					t.Fatal(err)
				}
				if _, err := data.ConvertShards(f.in, filepath.Join(sub, f.name, "part."+ext), f.n, data.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			res, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(sub, "train", "part-*."+ext), Algo: "ls-auc", Table: table, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.TrainRows != single.TrainRows || res.Features != single.Features || !reflect.DeepEqual(res.Schema, single.Schema) {
				t.Fatalf("beam: %d rows × %d, schema %+v; single machine %d × %d, %+v", res.TrainRows, res.Features, res.Schema,
					single.TrainRows, single.Features, single.Schema)
			}
			if d := relDiff(single.Weights, res.Weights); d > 1e-9 {
				t.Errorf("weights differ by %.3g relative, want ≤ 1e-9", d)
			}
			ev, err := Eval(ctx, EvalConfig{Model: single.Model(), Data: filepath.Join(sub, "test", "part-*."+ext)})
			if err != nil {
				t.Fatal(err)
			}
			if ev.AUC != want.AUC || ev.Rows != 1500 || ev.Shards != 2 {
				t.Errorf("eval of table shards: AUC %v on %d rows in %d shards; aucopt eval %v on 1500", ev.AUC, ev.Rows, ev.Shards, want.AUC)
			}
		})
	}
	t.Run("grid", func(t *testing.T) {
		sub := t.TempDir()
		if _, err := data.ConvertShards(train, filepath.Join(sub, "part.csv"), 2, data.Options{}); err != nil {
			t.Fatal(err)
		}
		res, err := Grid(ctx, GridConfig{Data: filepath.Join(sub, "part-*.csv"), Algo: "ls-auc", Grid: "lambda=1e-3,1e-1", Folds: 2, Seed: 1, Table: table})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res.Refit.Schema, single.Schema) || res.Refit.Features != single.Features {
			t.Errorf("grid refit: %d features, schema %+v; want %d, %+v", res.Refit.Features, res.Refit.Schema, single.Features, single.Schema)
		}
	})
}

// TestTableShardsDisagree: shards whose columns make other features, or whose labels
// make no binary problem together, fail naming the shard; a table too wide for the
// moments fails before any allocation.
func TestTableShardsDisagree(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeText(t, dir, "kind/a.csv", "label,x,c\n1,0.5,u\n0,1.5,v\n")
	b := writeText(t, dir, "kind/b.csv", "label,x,c\n1,high,u\n0,low,v\n") // x is text here: a category
	writeText(t, dir, "cols/a.csv", "label,x,c\n1,0.5,u\n0,1.5,v\n")
	c := writeText(t, dir, "cols/b.csv", "label,x,d\n1,0.5,u\n0,1.5,v\n")
	writeText(t, dir, "labels/a.csv", "label,x\n1,0.5\n0,1.5\n")
	l := writeText(t, dir, "labels/b.csv", "label,x\n1,0.5\n2,1.5\n")
	table := &data.TableOptions{HashBits: 4}
	for _, tt := range []struct {
		glob string
		want []string
	}{
		{"kind/*.csv", []string{b, "other features"}},
		{"cols/*.csv", []string{c, "other features"}},
		{"labels/*.csv", []string{l + ":3"}},
	} {
		_, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(dir, tt.glob), Algo: "ls-auc", Table: table})
		if err == nil || !fault.IsInput(err) {
			t.Errorf("%s: error %v, want the input's fault", tt.glob, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tt.glob, err, w)
			}
		}
	}
	_, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(dir, "kind/a.csv"), Algo: "ls-auc", Table: &data.TableOptions{HashBits: 20}})
	if err == nil || !strings.Contains(err.Error(), "--hash-bits") || !fault.IsInput(err) {
		t.Errorf("a table of 2^20 buckets: error %v, want one pointing to --hash-bits", err)
	}
}
