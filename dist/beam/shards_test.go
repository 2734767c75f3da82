package aucbeam

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
)

// TestBadShards: a malformed line fails with its file and line; labels that make no
// binary problem across files fail at the line the reader of the concatenation names;
// empty and one-class shards are read as the concatenation would be.
func TestBadShards(t *testing.T) {
	all, _ := a9a(t)
	rows := make([]int, 1200)
	for i := range rows {
		rows[i] = i
	}
	d := all.Subset(rows)
	var posRows, negRows []int
	for i, y := range d.Y {
		if y == 1 {
			posRows = append(posRows, i)
		} else {
			negRows = append(negRows, i)
		}
	}
	pos, neg := d.Subset(posRows), d.Subset(negRows)
	good := string(format(d, 0, 400))
	ctx := context.Background()

	t.Run("malformed line", func(t *testing.T) {
		dir := t.TempDir()
		writeText(t, dir, "s/a.svm", good)
		bad := writeText(t, dir, "s/b.svm", good+"+1 3:1 2:1\n"+good)
		_, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(dir, "s/*.svm"), Algo: "ls-auc"})
		want := bad + ":401:"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), data.ErrOrder.Error()) ||
			strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), inputMark) {
			t.Fatalf("error %v, want one naming %s", err, want)
		}
		if !fault.IsInput(err) { // the runner passed on only the message (issue 43: exit 1)
			t.Errorf("error %v: not the input's fault (fault.IsInput)", err)
		}
	})
	t.Run("malformed line, grid and eval", func(t *testing.T) {
		dir := t.TempDir()
		writeText(t, dir, "s/a.svm", good)
		bad := writeText(t, dir, "s/b.svm", good+"+1 1:1 2:x\n")
		glob := filepath.Join(dir, "s/*.svm")
		m, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(dir, "s/a.svm"), Algo: "ls-auc"})
		if err != nil {
			t.Fatal(err)
		}
		_, gridErr := Grid(ctx, GridConfig{Data: glob, Algo: "ls-auc", Grid: "lambda=1e-4,1e-1", Folds: 2, Seed: 1})
		_, evalErr := Eval(ctx, EvalConfig{Model: m.Model(), Data: glob})
		for what, err := range map[string]error{"grid": gridErr, "eval": evalErr} {
			if err == nil || !strings.Contains(err.Error(), bad+":401:") || !fault.IsInput(err) || strings.Contains(err.Error(), inputMark) {
				t.Errorf("%s: error %v, want the input's fault naming %s:401", what, err, bad)
			}
		}
	})
	t.Run("labels across files", func(t *testing.T) {
		dir := t.TempDir()
		writeText(t, dir, "s/a.svm", strings.ReplaceAll(strings.ReplaceAll(good, "-1 ", "0 "), "+1 ", "1 "))
		b := writeText(t, dir, "s/b.svm", good)
		whole := writeText(t, dir, "whole.svm", strings.ReplaceAll(strings.ReplaceAll(good, "-1 ", "0 "), "+1 ", "1 ")+good)
		_, refErr := data.ReadFile(whole, data.Options{})
		var ref *data.ParseError
		if !errors.As(refErr, &ref) {
			t.Fatalf("the concatenation reads: %v", refErr)
		}
		_, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(dir, "s/*.svm"), Algo: "ls-auc"})
		var pe *data.ParseError
		if !errors.As(err, &pe) || pe.Path != b || pe.Line != ref.Line-strings.Count(good, "\n") || !errors.Is(err, data.ErrLabel) ||
			strings.Count(err.Error(), "\n") > 0 {
			t.Fatalf("error %v; the concatenation's %v", err, refErr)
		}
	})
	t.Run("empty and one-class shards", func(t *testing.T) {
		dir := t.TempDir()
		writeText(t, dir, "s/a.svm", string(format(pos, 0, pos.Rows())))
		writeText(t, dir, "s/b.svm", "")
		writeText(t, dir, "s/c.svm", "# only a comment\n")
		writeText(t, dir, "s/d.svm", string(format(neg, 0, neg.Rows())))
		whole := writeText(t, dir, "whole.svm", string(format(pos, 0, pos.Rows()))+string(format(neg, 0, neg.Rows())))
		single, err := engine.Train(ctx, engine.TrainConfig{Algo: "ls-auc", Data: whole})
		if err != nil {
			t.Fatal(err)
		}
		res, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(dir, "s/*.svm"), Algo: "ls-auc"})
		if err != nil {
			t.Fatal(err)
		}
		if d := relDiff(single.Weights, res.Weights); d > 1e-9 || res.TrainRows != 1200 {
			t.Errorf("%d rows; weights differ by %.3g", res.TrainRows, d)
		}
	})
	t.Run("one class in all", func(t *testing.T) {
		dir := t.TempDir()
		writeText(t, dir, "s/a.svm", string(format(pos, 0, pos.Rows())))
		_, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(dir, "s/*.svm"), Algo: "ls-auc"})
		if err == nil || !strings.Contains(err.Error(), "0 negatives") {
			t.Fatalf("error %v, want one saying there are no negatives", err)
		}
	})
	t.Run("nothing matches", func(t *testing.T) {
		_, err := TrainMoments(ctx, MomentsConfig{Data: filepath.Join(t.TempDir(), "*.svm"), Algo: "ls-auc"})
		if err == nil || !strings.Contains(err.Error(), "no file matches") || !fault.IsInput(err) {
			t.Fatalf("error %v, want 'no file matches', the input's fault", err)
		}
	})
	t.Run("learner needs rows", func(t *testing.T) {
		_, err := TrainMoments(ctx, MomentsConfig{Data: "x", Algo: "mba-l2"})
		if err == nil || !strings.Contains(err.Error(), "pairs=all") {
			t.Fatalf("error %v, want one pointing to pairs=all", err)
		}
	})
}
