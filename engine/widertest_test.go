package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/model"
)

// TestWiderTestRefused checks that test data with more features than the training data
// is refused, as Predict refuses it, on every path that scores a test file (in memory,
// streamed, a grid, out of core, a trace), and scored with a note when allowed (train
// --data heart --test a9a scored a test set of another feature space, issue 43).
func TestWiderTestRefused(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, dim int) string {
		var sb strings.Builder
		for i := range 200 {
			fmt.Fprintf(&sb, "%d 1:%g %d:%g\n", 1-2*(i%2), float64(i%7)/7, dim, float64(i%3+i%2)/4)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	train, wide, same := write("train.svm", 5), write("wide.svm", 9), write("same.svm", 5)
	ctx := context.Background()
	runs := []struct {
		name string
		run  func(cfg TrainConfig) ([]string, error)
	}{
		{"in memory", func(cfg TrainConfig) ([]string, error) {
			res, err := Train(ctx, cfg)
			if err != nil {
				return nil, err
			}
			return res.Notes, nil
		}},
		{"batch", func(cfg TrainConfig) ([]string, error) {
			cfg.Algo = "ls-auc"
			res, err := Train(ctx, cfg)
			if err != nil {
				return nil, err
			}
			return res.Notes, nil
		}},
		{"grid", func(cfg TrainConfig) ([]string, error) {
			res, err := Grid(ctx, GridConfig{TrainConfig: cfg, Grid: "eta=0.1,1"})
			if err != nil {
				return nil, err
			}
			return res.Notes, nil
		}},
		{"out of core", func(cfg TrainConfig) ([]string, error) {
			cfg.Algo, cfg.OutOfCore, cfg.Scale = "ls-auc", true, data.ScaleNone
			res, err := Train(ctx, cfg)
			if err != nil {
				return nil, err
			}
			return res.Notes, nil
		}},
		{"trace", func(cfg TrainConfig) ([]string, error) {
			_, err := Trace(ctx, TraceConfig{TrainConfig: cfg}) // a trace reports no notes
			return nil, err
		}},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			cfg := TrainConfig{Algo: "opauc", Data: train, Test: wide, Passes: 1}
			_, err := r.run(cfg)
			if !errors.Is(err, model.ErrFeatureSpace) || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "AllowExtraFeatures gives") {
				t.Fatalf("a wider test file: error %v, want one of another feature space naming AllowExtraFeatures", err)
			}
			cfg.AllowExtraFeatures = true
			notes, err := r.run(cfg)
			if err != nil {
				t.Fatalf("allowed: %v", err)
			}
			if r.name != "trace" && !strings.Contains(strings.Join(notes, "\n"), "the extra features get weight 0") {
				t.Errorf("allowed: notes %q, want one saying the extra features get weight 0", notes)
			}
			cfg.Test, cfg.AllowExtraFeatures = same, false
			if _, err := r.run(cfg); err != nil {
				t.Errorf("a test file of the training's features: %v", err)
			}
		})
	}
}
