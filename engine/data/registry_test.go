package data

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadEmbedded(t *testing.T) {
	t.Setenv(EnvData, t.TempDir()) // a data directory without the files: fall back to the embedded copies
	tests := []struct {
		name              string
		train, test, dim  int
		trainPos, testPos int
	}{
		{"a9a", 32561, 16281, 123, 7841, 3846},
		{"german.numer", 1000, 0, 24, 300, 0},
	}
	for _, tt := range tests {
		sp, err := Load(tt.name, LoadOptions{})
		if err != nil {
			t.Fatalf("Load(%q): %v", tt.name, err)
		}
		if sp.Where != "embedded" {
			t.Errorf("%s: loaded from %q, want embedded", tt.name, sp.Where)
		}
		if sp.Train.Rows() != tt.train || sp.Train.Dim != tt.dim {
			t.Errorf("%s: train %d×%d, want %d×%d", tt.name, sp.Train.Rows(), sp.Train.Dim, tt.train, tt.dim)
		}
		if p, _ := sp.Train.Counts(); p != tt.trainPos {
			t.Errorf("%s: %d training positives, want %d", tt.name, p, tt.trainPos)
		}
		if tt.test == 0 {
			if sp.Test != nil {
				t.Errorf("%s: has a test part, want none", tt.name)
			}
			continue
		}
		if sp.Test.Rows() != tt.test || sp.Test.Dim != tt.dim {
			t.Errorf("%s: test %d×%d, want %d×%d", tt.name, sp.Test.Rows(), sp.Test.Dim, tt.test, tt.dim)
		}
		if p, _ := sp.Test.Counts(); p != tt.testPos {
			t.Errorf("%s: %d test positives, want %d", tt.name, p, tt.testPos)
		}
	}
}

func needShared(t *testing.T) {
	t.Helper()
	t.Setenv(EnvData, "")
	if DataDir() == "" {
		t.Skip("../shared/data absent: skipping")
	}
}

func TestLoadSplits(t *testing.T) {
	needShared(t)
	for _, tt := range []struct {
		name        string
		train, test int
	}{{"splice", 1000, 2175}, {"svmguide3", 1243, 41}, {"letter", 15000, 5000}} {
		sp, err := Load(tt.name, LoadOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if sp.Where == "embedded" || sp.Train.Rows() != tt.train || sp.Test.Rows() != tt.test {
			t.Errorf("%s from %s: %d/%d rows, want %d/%d", tt.name, sp.Where, sp.Train.Rows(), sp.Test.Rows(), tt.train, tt.test)
		}
	}
}

func TestGroupClasses(t *testing.T) {
	needShared(t)
	a, err := Load("letter", LoadOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Load("letter", LoadOptions{Seed: 7})
	c, _ := Load("letter", LoadOptions{Seed: 8})
	if len(a.PositiveClasses) != 13 {
		t.Errorf("letter: %d positive classes, want 13 of 26", len(a.PositiveClasses))
	}
	if !slices.Equal(a.PositiveClasses, b.PositiveClasses) || !slices.Equal(a.Train.Y, b.Train.Y) {
		t.Error("the same seed must give the same grouping")
	}
	if slices.Equal(a.PositiveClasses, c.PositiveClasses) {
		t.Error("seeds 7 and 8 gave the same grouping")
	}
	for i, l := range a.Test.Labels {
		if want := slices.Contains(a.PositiveClasses, l); (a.Test.Y[i] == 1) != want {
			t.Fatalf("test row %d label %v: Y = %d", i, l, a.Test.Y[i])
		}
	}
	one, err := Load("letter", LoadOptions{Positive: "largest"})
	if err != nil || len(one.PositiveClasses) != 1 {
		t.Fatalf("largest class: %v, %v", one, err)
	}
	if _, err := Load("letter", LoadOptions{Positive: "99"}); err == nil || !strings.Contains(err.Error(), "not a label") {
		t.Errorf("unknown class: error %v", err)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load("imagenet", LoadOptions{}); !errors.Is(err, ErrUnknownDataset) {
		t.Errorf("unknown name: error %v, want ErrUnknownDataset", err)
	}
	dir := t.TempDir()
	t.Setenv(EnvData, dir)
	_, err := Load("w8a", LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), filepath.Join("w8a", "w8a.xz")+" not found in "+dir) {
		t.Errorf("missing file: error %v", err)
	}
	// A corrupt file names itself and the line.
	os.MkdirAll(filepath.Join(dir, "heart"), 0o755)
	os.WriteFile(filepath.Join(dir, "heart", "heart_scale.xz"), []byte("+1 1:0.5\n-1 2:x\n"), 0o644)
	_, err = Load("heart", LoadOptions{})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !strings.Contains(err.Error(), "heart_scale.xz:2:6") {
		t.Errorf("corrupt file: error %v, want heart_scale.xz:2:6", err)
	}
}
