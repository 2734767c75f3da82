package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
)

// writeSVM writes rows random LIBSVM rows over dim features, the label a noisy linear
// rule, to path; flip changes one value of the last row (same rows and features, other
// bytes).
func writeSVM(t *testing.T, path string, rows, dim int, flip bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	var b strings.Builder
	for i := range rows {
		var s float64
		var feats strings.Builder
		for j := 1; j <= dim; j++ {
			if r.Float64() < 0.5 && j != dim {
				continue
			}
			v := float64(r.IntN(9)-4) / 4
			if flip && i == rows-1 && j == dim {
				v += 0.125
			}
			s += v * float64(j%3-1)
			fmt.Fprintf(&feats, " %d:%g", j, v)
		}
		label := "-1"
		if s+r.NormFloat64() > 0 {
			label = "+1"
		}
		b.WriteString(label + feats.String() + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointCommand interrupts a 3-pass spam-net run after its first pass (through
// the library, with the CLI's defaults), then resumes it from the command line with one
// setting changed, or the checkpoint damaged: every such resume exits 2 with one line
// naming the difference, leaving no model. The unchanged resume gives the weights of an
// uninterrupted run; after it, the checkpoint is finished and a rerun with another
// parameter trains again, writing that parameter's weights (the model never lies).
func TestCheckpointCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AUCOPT_DATA", dir)
	t.Setenv("AUCOPT_BACKEND", "generic")
	train := filepath.Join(dir, "train.svm")
	writeSVM(t, train, 3000, 12, false)
	changed := filepath.Join(dir, "changed.svm")
	writeSVM(t, changed, 3000, 12, true)
	trainCmd := func(ckpt, model string, extra ...string) []string {
		return append([]string{"train", "--algo", "spam-net", "--data", train, "--passes", "3", "--quiet",
			"--checkpoint", ckpt, "--model", model}, extra...)
	}
	// The checkpoint of a run interrupted after its first pass, as Ctrl-C leaves it.
	ckpt := filepath.Join(dir, "run.ckpt")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := engine.Train(ctx, engine.TrainConfig{Algo: "spam-net", Data: train, Passes: 3, Shuffle: true, Scale: data.ScaleAuto,
		Seed: 1, Checkpoint: ckpt, Progress: func(p solver.Progress) {
			if p.Done {
				cancel()
			}
		}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted run: %v", err)
	}
	good, err := os.ReadFile(ckpt)
	if err != nil {
		t.Fatal(err)
	}
	flip := slices.Clone(good)
	flip[len(flip)/2] ^= 0x40
	tamper := []struct {
		name  string
		file  []byte
		extra []string
		algo  string
		want  string
	}{
		{"flipped byte", flip, nil, "", "checksum mismatch"},
		{"truncated", good[:len(good)/2], nil, "", "corrupt or truncated"},
		{"other algorithm", good, nil, "spam-l2", "holds a spam-net run, not spam-l2"},
		{"other parameter", good, []string{"-p", "beta1=0.5"}, "", "parameter beta1 0.0001 there, 0.5 here"},
		{"other seed", good, []string{"--seed", "2"}, "", "seed 1 there, 2 here"},
		{"other passes", good, []string{"--passes", "4"}, "", "passes 3 there, 4 here"},
		{"no shuffle", good, []string{"--shuffle=false"}, "", "shuffle true there, false here"},
		{"other scaling", good, []string{"--scale", "none"}, "", "scaling minmax there, none here"},
		{"other data", good, []string{"--data", changed}, "", "training data sha256:"},
	}
	for _, c := range tamper {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.ckpt")
			if err := os.WriteFile(p, c.file, 0o644); err != nil {
				t.Fatal(err)
			}
			model := filepath.Join(t.TempDir(), "m.json")
			args := trainCmd(p, model, c.extra...)
			if c.algo != "" {
				args[2] = c.algo
			}
			var out, errOut bytes.Buffer
			status := run(args, &out, &errOut)
			msg := errOut.String()
			if status != exitInput || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) || !strings.Contains(msg, p) {
				t.Errorf("exit %d, stderr %q; want exit 2 and one line naming %s and %q", status, msg, p, c.want)
			}
			if _, err := os.Stat(model); err == nil || out.Len() > 0 {
				t.Errorf("a refused resume wrote a model or a result: %q", out.String())
			}
		})
	}

	// The unchanged resume equals an uninterrupted run.
	resumed, fresh := filepath.Join(dir, "resumed.json"), filepath.Join(dir, "fresh.json")
	for _, args := range [][]string{trainCmd(ckpt, resumed), trainCmd(filepath.Join(dir, "other.ckpt"), fresh)} {
		var out, errOut bytes.Buffer
		if status := run(args, &out, &errOut); status != 0 {
			t.Fatalf("%s: exit %d: %s", args, status, errOut.String())
		}
	}
	if a, b := readWeights(t, resumed), readWeights(t, fresh); !slices.Equal(a, b) {
		t.Error("the resumed run's weights differ from an uninterrupted run's")
	}
	// The checkpoint is finished now: a rerun with another eta trains again.
	eta, etaFresh := filepath.Join(dir, "eta.json"), filepath.Join(dir, "eta-fresh.json")
	for _, args := range [][]string{
		trainCmd(ckpt, eta, "-p", "eta=0.05"),
		{"train", "--algo", "spam-net", "--data", train, "--passes", "3", "--quiet", "-p", "eta=0.05", "--model", etaFresh},
	} {
		var out, errOut bytes.Buffer
		if status := run(args, &out, &errOut); status != 0 {
			t.Fatalf("%s: exit %d: %s", args, status, errOut.String())
		}
	}
	m, err := model.Read(eta)
	if err != nil {
		t.Fatal(err)
	}
	if m.Params["eta"] != 0.05 || !slices.Equal(m.Weights, readWeights(t, etaFresh)) || slices.Equal(m.Weights, readWeights(t, fresh)) {
		t.Errorf("rerun with eta=0.05 after a finished checkpoint: model says eta %v; weights equal a fresh eta=0.05 run's %t",
			m.Params["eta"], slices.Equal(m.Weights, readWeights(t, etaFresh)))
	}
}

// readWeights reads a model file's weights.
func readWeights(t *testing.T, path string) []float64 {
	t.Helper()
	m, err := model.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return m.Weights
}
