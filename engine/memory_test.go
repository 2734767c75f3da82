package engine

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/fallback"
)

func TestAvailableMemory(t *testing.T) {
	if l := availableMemory(); !(l.Bytes > 0) || l.Source == "" {
		t.Errorf("availableMemory() = %+v", l)
	}
}

// TestMemoryGuard trains the d×d learners on the two-row file with 2,000,001
// features (ls-auc solves by conjugate gradients there, in O(d)): each must be refused
// before it allocates (the test would die of OOM
// otherwise), with one line naming the algorithm, the size and algorithms that fit;
// grids, traces and cross-validation likewise; a learner that fits trains.
func TestMemoryGuard(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, dir)
	wide := filepath.Join(dir, "wide.svm")
	if err := os.WriteFile(wide, []byte("+1 1:1 2000001:1\n-1 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const limit = 8 << 30 // 8 GiB: opaucr (1.6 GB) fits, opauc-rp (16 GB) does not
	for _, c := range []struct {
		algo string
		want string
	}{
		{"opauc", "opauc needs 64 TB for 2,000,001 features, more than the 8.6 GB of MaxMemory; use opaucr, opauc-f, "},
		{"adaoam", "adaoam needs 64 TB for 2,000,001 features"},
		{"mba-l2", "mba-l2 needs 128 TB"},
		{"mba-el", "mba-el needs 128 TB"},
		{"opauc-rp", "opauc-rp needs 16 GB"},
		{"ubauc-batch", "ubauc-batch needs 192 TB"},
	} {
		t.Run(c.algo, func(t *testing.T) {
			_, err := Train(context.Background(), TrainConfig{Algo: c.algo, Data: wide, Scale: data.ScaleNone, MaxMemory: limit, Backend: fallback.New()})
			if !errors.Is(err, ErrMemory) || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) ||
				strings.Contains(err.Error(), "use "+c.algo+",") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want ErrMemory and fault.ErrInput saying %q", err, c.want)
			}
		})
	}
	t.Run("ls-auc", func(t *testing.T) {
		// Above solver.LSAUCDirectMax features: conjugate gradients on the rows, O(d).
		if _, err := Train(context.Background(), TrainConfig{Algo: "ls-auc", Data: wide, Scale: data.ScaleNone, MaxMemory: limit, Backend: fallback.New()}); err != nil {
			t.Errorf("ls-auc on 2,000,001 features: %v, want it trained by conjugate gradients", err)
		}
	})
	t.Run("grid", func(t *testing.T) {
		// 48 MB a point, 480 MB for ten: refused in 256 MB, where one point fits.
		_, err := Grid(context.Background(), GridConfig{TrainConfig: TrainConfig{Algo: "solam", Data: wide, Scale: data.ScaleNone, MaxMemory: 256e6},
			Grid: "zeta=1,2,3,4,5,6,7,8,9,10"})
		if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "solam needs 480 MB for 10 grid points on 2,000,001 features") {
			t.Errorf("grid of 10 solam points in 256 MB: %v", err)
		}
	})
	t.Run("trace", func(t *testing.T) {
		_, err := Trace(context.Background(), TraceConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: wide, Test: wide, Scale: data.ScaleNone, MaxMemory: limit}})
		if !errors.Is(err, ErrMemory) {
			t.Errorf("trace: %v", err)
		}
	})
	t.Run("cv", func(t *testing.T) {
		four := filepath.Join(dir, "four.svm")
		if err := os.WriteFile(four, []byte("+1 1:1 2000001:1\n-1 2:1\n+1 3:1\n-1 4:1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := CV(context.Background(), CVConfig{TrainConfig: TrainConfig{Algo: "opauc", Data: four, Scale: data.ScaleNone, MaxMemory: limit}, Folds: 2})
		if !errors.Is(err, ErrMemory) {
			t.Errorf("cv: %v", err)
		}
	})
	t.Run("fits", func(t *testing.T) {
		res, err := Train(context.Background(), TrainConfig{Algo: "olr", Data: wide, Scale: data.ScaleNone, MaxMemory: limit, Backend: fallback.New()})
		if err != nil || res.Features != 2000001 {
			t.Errorf("olr: %v", err)
		}
	})
	t.Run("available memory", func(t *testing.T) {
		// Without MaxMemory the limit is the machine's, which no machine has 64 TB of.
		if math.IsInf(availableMemory().Bytes, 1) {
			t.Skip("no memory limit known on this system: the guard needs MaxMemory")
		}
		_, err := Train(context.Background(), TrainConfig{Algo: "opauc", Data: wide, Scale: data.ScaleNone})
		if !errors.Is(err, ErrMemory) {
			t.Errorf("opauc without MaxMemory: %v", err)
		}
	})
}
