package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
)

func TestTrainA9a(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir()) // the embedded a9a, on any machine
	cfg := TrainConfig{Algo: "ubauc-online", Data: "a9a", Shuffle: true, Seed: 1, Backend: fallback.New()}
	res, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.TrainRows != 32561 || res.TestRows != 16281 || res.Features != 123 || res.Scale != data.ScaleMinMax || res.Backend != "generic" {
		t.Errorf("result %+v", res)
	}
	if res.TestAUC < 0.89 {
		t.Errorf("ubauc-online on a9a: test AUC %.4f, want ≥ 0.89 (paper .9005)", res.TestAUC)
	}
	again, _ := Train(context.Background(), cfg)
	if !slices.Equal(again.Weights, res.Weights) {
		t.Error("the same seed must give the same weights")
	}
}

func TestTrainErrors(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(data.EnvData, dir)
	oneClass := filepath.Join(dir, "one.svm")
	os.WriteFile(oneClass, []byte("+1 1:1\n+1 2:1\n"), 0o644)
	wide := filepath.Join(dir, "wide.svm")
	os.WriteFile(wide, []byte("+1 1:1 9:1\n-1 2:1\n"), 0o644)
	narrow := filepath.Join(dir, "narrow.svm")
	os.WriteFile(narrow, []byte("+1 1:1\n-1 2:1\n+1 1:0.5\n-1 2:0.7\n"), 0o644)
	tests := []struct {
		name string
		cfg  TrainConfig
		want string
		is   error
	}{
		{"unknown algorithm", TrainConfig{Algo: "svm", Data: "a9a"}, `unknown algorithm "svm" (known: opauc,`, nil},
		{"another algorithm's parameters", TrainConfig{Algo: "spam-l2", Data: "a9a", Params: testParams(t, "opauc", "eta=1")}, "spam-l2: bad parameter: another algorithm's (*solver.OPAUCParams; spam-l2 takes *solver.SPAMParams)", solver.ErrParam},
		{"out of range", TrainConfig{Algo: "spam-l2", Data: "a9a", Params: testParams(t, "spam-l2", "eta=-1")}, "eta", solver.ErrParam},
		{"no data", TrainConfig{Algo: "olr", Data: "nowhere.svm"}, "nowhere.svm is neither a file nor a known dataset", nil},
		{"one class", TrainConfig{Algo: "olr", Data: oneClass}, "only one class", solver.ErrOneClass},
		{"bad scaling", TrainConfig{Algo: "olr", Data: narrow, Scale: "zscore"}, `unknown scaling "zscore"`, nil},
	}
	for _, tt := range tests {
		_, err := Train(context.Background(), tt.cfg)
		if err == nil || !strings.Contains(err.Error(), tt.want) || tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	// A test file wider than the training data: refused (another feature space, most
	// likely); allowed, handled, weights 0, said once.
	_, err := Train(context.Background(), TrainConfig{Algo: "olr", Data: narrow, Test: wide, Scale: data.ScaleNone})
	if !errors.Is(err, model.ErrFeatureSpace) {
		t.Errorf("a wider test file: error %v, want model.ErrFeatureSpace", err)
	}
	res, err := Train(context.Background(), TrainConfig{Algo: "olr", Data: narrow, Test: wide, Scale: data.ScaleNone, AllowExtraFeatures: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "test data has 9 features, the training data 2") {
		t.Errorf("notes %q", res.Notes)
	}
}

// ExampleTrain trains ol-UBAUC on the embedded a9a and scores its own test split.
func ExampleTrain() {
	res, err := Train(context.Background(), TrainConfig{Algo: "ubauc-online", Data: "a9a", Shuffle: true, Seed: 1, Backend: fallback.New()})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: %d training rows, test AUC %.2f\n", res.Algo, res.TrainRows, res.TestAUC)
	// Output: ubauc-online: 32561 training rows, test AUC 0.89
}

// TestTrainStreamed: with no shuffling and no scaling a training file is streamed (one
// row in memory at a time) and gives exactly the weights of the in-memory run in file
// order.
func TestTrainStreamed(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	sp, err := data.Load("german", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "german.cache")
	if err := data.SaveCache(file, sp.Train); err != nil {
		t.Fatal(err)
	}
	// A streamed file's facts are not known, so the static defaults hold there; in
	// memory spam-l2's multi-pass defaults would be scaled to the data, so every one
	// they set is given.
	cfg := TrainConfig{Algo: "spam-l2", Data: file, Test: file, Scale: data.ScaleNone, Passes: 2, Backend: fallback.New(),
		Params: testParams(t, "spam-l2", "eta=0.003", "theta=0.25", "beta=1e-4", "avgfrom=0")}
	if !streamable(cfg) {
		t.Fatal("a file with --shuffle=false --scale none must stream")
	}
	streamed, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Scale = "" // auto: german has 24 features, so min-max, in memory
	if streamable(cfg) {
		t.Fatal("scaling needs the data in memory")
	}
	cfg.Scale = data.ScaleNone
	cfg.Data = "german" // a registry name: in memory, same rows, same order
	inMemory, err := Train(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(streamed.Weights, inMemory.Weights) || streamed.TrainRows != 1000 || streamed.Features != 24 {
		t.Errorf("streamed run differs from the in-memory one (rows %d, features %d)", streamed.TrainRows, streamed.Features)
	}
}

// TestDefaultPassesResolved: with no passes set, Train, Grid and CV make the learner's
// default passes (solver.Spec.DefaultPasses: SOLAM ⌈20,000/rows⌉, FSAUC one, a batch
// learner none), streamed or in memory, the same run as those passes given; a caller's
// passes win.
func TestDefaultPassesResolved(t *testing.T) {
	ctx := context.Background()
	sp, err := data.Load("german", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "german.cache")
	if err := data.SaveCache(file, sp.Train); err != nil {
		t.Fatal(err)
	}
	train := func(algo string, passes int, scale string) *TrainResult {
		t.Helper()
		res, err := Train(ctx, TrainConfig{Algo: algo, Data: file, Passes: passes, Scale: scale, Seed: 1, Backend: fallback.New()})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for _, scale := range []string{data.ScaleNone, ""} { // streamed, in memory
		def, twenty, one := train("solam", 0, scale), train("solam", 20, scale), train("solam", 1, scale)
		if def.Passes != 20 || twenty.Passes != 20 || one.Passes != 1 {
			t.Errorf("scale %q: solam on 1,000 rows made %d passes by default, %d and %d when given 20 and 1", scale, def.Passes, twenty.Passes, one.Passes)
		}
		if !slices.Equal(def.Weights, twenty.Weights) || slices.Equal(def.Weights, one.Weights) {
			t.Errorf("scale %q: solam's default run differs from 20 given passes, or equals one pass", scale)
		}
		if p := train("opauc", 0, scale).Passes; p != 50 {
			t.Errorf("scale %q: opauc made %d passes by default, want 50 (MinSteps 50,000 over 1,000 rows)", scale, p)
		}
		if p := train("fsauc", 0, scale).Passes; p != 1 {
			t.Errorf("scale %q: fsauc made %d passes by default, want 1", scale, p)
		}
	}
	if p := train("ls-auc", 0, "").Passes; p != 0 {
		t.Errorf("ls-auc (batch) reports %d passes, want 0", p)
	}
	g, err := Grid(ctx, GridConfig{TrainConfig: TrainConfig{Algo: "solam", Data: file, Seed: 1, Backend: fallback.New()}, Grid: "zeta=1,5"})
	if err != nil {
		t.Fatal(err)
	}
	if g.Passes != 20 {
		t.Errorf("grid: solam made %d passes by default, want 20", g.Passes)
	}
	cv, err := CV(ctx, CVConfig{TrainConfig: TrainConfig{Algo: "solam", Data: file, Seed: 1, Backend: fallback.New()}})
	if err != nil {
		t.Fatal(err)
	}
	if cv.Passes != 25 { // folds of 800 rows
		t.Errorf("cv: solam made %d passes over 800-row folds by default, want 25", cv.Passes)
	}
}

// TestSmallTextLoaded: a small text file that would stream is loaded instead
// (loadsStream), and trains exactly as the stream does: the same weights as the same rows
// streamed from a binary cache, with the stream's static defaults (OPAUC's step is
// data-scaled in memory otherwise) and the stream length FSAUC sizes its stages by.
func TestSmallTextLoaded(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	sp, err := data.Load("german", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	text, cache := filepath.Join(dir, "german.svm"), filepath.Join(dir, "german.cache")
	if err := data.WriteAtomic(text, func(w io.Writer) error { return data.WriteLibSVM(w, sp.Train) }); err != nil {
		t.Fatal(err)
	}
	if err := data.SaveCache(cache, sp.Train); err != nil {
		t.Fatal(err)
	}
	if loads := func(f string) bool { return loadsStream(TrainConfig{Data: f, Scale: data.ScaleNone}) }; !loads(text) || loads(cache) {
		t.Fatalf("loadsStream: text %v, cache %v; want true, false", loads(text), loads(cache))
	}
	for _, algo := range []string{"opauc", "fsauc", "spam-l2", "oam-seq"} {
		run := func(file string) *TrainResult {
			res, err := Train(context.Background(), TrainConfig{Algo: algo, Data: file, Scale: data.ScaleNone, Passes: 2, Backend: fallback.New()})
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		loaded, streamed := run(text), run(cache)
		if !slices.Equal(loaded.Weights, streamed.Weights) || !maps.Equal(loaded.Params, streamed.Params) || loaded.TrainRows != streamed.TrainRows {
			t.Errorf("%s: loaded text and streamed cache differ: params %v and %v, rows %d and %d", algo,
				loaded.Params, streamed.Params, loaded.TrainRows, streamed.TrainRows)
		}
	}
}

// TestStreamLengthSized: FSAUC's n (its stream length) is the examples the fit sees,
// passes × training rows, in train, trace and a grid's refit, unless the user sets it
// (by -p or in the grid).
func TestStreamLengthSized(t *testing.T) {
	t.Setenv(data.EnvData, t.TempDir())
	base := TrainConfig{Algo: "fsauc", Data: "german", Seed: 1, Backend: fallback.New()}
	rows := 0
	for _, tc := range []struct {
		name   string
		passes int
		params []string
		grid   string
		want   func(rows int) int
	}{
		{"default passes", 0, nil, "", func(r int) int { return r }},
		{"three passes", 3, nil, "", func(r int) int { return 3 * r }},
		{"set by the user", 2, []string{"n=123"}, "", func(int) int { return 123 }},
		{"a grid's refit", 2, nil, "eta=0.5,1", func(r int) int { return 2 * r }},
		{"in the grid", 1, nil, "n=50,60", nil},
	} {
		cfg := base
		cfg.Passes, cfg.Params = tc.passes, testParams(t, "fsauc", tc.params...)
		var res *TrainResult
		var err error
		if tc.grid != "" {
			var g *GridResult
			g, err = Grid(context.Background(), GridConfig{TrainConfig: cfg, Grid: tc.grid})
			if err == nil {
				res = g.TrainResult
			}
		} else {
			res, err = Train(context.Background(), cfg)
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		rows = res.TrainRows
		got := res.Params["n"]
		if tc.want == nil {
			if got != 50 && got != 60 {
				t.Errorf("%s: n = %v, want a grid value", tc.name, got)
			}
			continue
		}
		if want := tc.want(rows); got != want {
			t.Errorf("%s: n = %v, want %d (%d rows)", tc.name, got, want, rows)
		}
	}
}

// TestTrainTestReadBeside: Train reads the test file beside the training. The test
// data are scored as if read first (cut to the training features, scaled as the
// training data were), and a test file that cannot be read stops the run with the
// test file's own error and no progress reported.
func TestTrainTestReadBeside(t *testing.T) {
	good := germanText(t)
	goodFile := writeFile(t, "test.svm", good)
	badFile := writeFile(t, "bad.svm", append(slices.Clone(good), "+1 3:x\n"...))
	for _, algo := range []string{"spam-l2", "ls-auc"} {
		progress := 0
		cfg := TrainConfig{Algo: algo, Data: "german", Test: goodFile, Scale: data.ScaleMinMax, Shuffle: true, Seed: 1,
			Backend: fallback.New(), Progress: func(solver.Progress) { progress++ }}
		if algo == "spam-l2" {
			cfg.Passes = 5
		}
		res, err := Train(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		test, err := data.ReadFile(goodFile, data.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := ScoreAUC(res.Weights, res.Scaling.Apply(test.Truncate(res.Features)))
		if err != nil {
			t.Fatal(err)
		}
		if res.TestAUC != want || res.TestRows != test.Rows() {
			t.Errorf("%s: test AUC %v on %d rows, want %v on %d (the test file scaled as the training data)", algo, res.TestAUC, res.TestRows, want, test.Rows())
		}
		if algo == "spam-l2" && progress == 0 {
			t.Errorf("%s: no progress reported", algo)
		}

		progress = 0
		cfg.Test = badFile
		_, err = Train(context.Background(), cfg)
		if !errors.Is(err, data.ErrValue) || !strings.Contains(err.Error(), badFile) || strings.HasPrefix(err.Error(), "train ") {
			t.Errorf("%s with a bad test file: error %v, want the test file's own (data.ErrValue, naming %s)", algo, err, badFile)
		}
		if progress != 0 {
			t.Errorf("%s with a bad test file: %d progress reports, want none", algo, progress)
		}
	}
}

// TestTrainBins: with Bins the learner sees the scaled features and their bin
// indicators, the model records the bins and scores new data as the run scored its test
// data, and the settings that cannot bin are refused.
func TestTrainBins(t *testing.T) {
	testFile := writeFile(t, "test.svm", germanText(t))
	for _, algo := range []string{"unilog", "spam-l2"} {
		res, err := Train(context.Background(), TrainConfig{Algo: algo, Data: "german", Test: testFile, Bins: 8, Seed: 1, Shuffle: true,
			Backend: fallback.New()})
		if err != nil {
			t.Fatal(err)
		}
		if res.Bins != 8 || res.Binned == nil || len(res.Weights) != res.Binned.OutDim() || res.Binned.OutDim() <= res.Features {
			t.Fatalf("%s: bins %d, %d weights for %d features", algo, res.Bins, len(res.Weights), res.Features)
		}
		m := res.Model()
		test, err := data.ReadFile(testFile, data.Options{})
		if err != nil {
			t.Fatal(err)
		}
		scores, err := m.Score(test.Truncate(m.Features))
		if err != nil {
			t.Fatal(err)
		}
		auc, err := metric.AUC(scores, test.Y)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(auc-res.TestAUC) > 1e-12 {
			t.Errorf("%s: the model scores the test file at AUC %v, the run at %v", algo, auc, res.TestAUC)
		}
	}
	for _, tt := range []struct {
		name string
		run  func() error
		want string
	}{
		{"one bin", func() error {
			_, err := Train(context.Background(), TrainConfig{Algo: "unilog", Data: "german", Bins: 1})
			return err
		}, "want 2 to"},
		{"out of core", func() error {
			_, err := Train(context.Background(), TrainConfig{Algo: "ls-auc", Data: testFile, Bins: 4, OutOfCore: true})
			return err
		}, "Bins does not apply"},
		{"auto", func() error {
			_, err := Auto(context.Background(), AutoConfig{TrainConfig: TrainConfig{Data: "german", Bins: 4}})
			return err
		}, "Bins does not apply"},
		{"trace", func() error {
			_, err := Trace(context.Background(), TraceConfig{TrainConfig: TrainConfig{Algo: "olr", Data: "german", Test: testFile, Bins: 4}})
			return err
		}, "Bins is for train"},
	} {
		if err := tt.run(); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want an input error with %q", tt.name, err, tt.want)
		}
	}
}

// germanText points the data directory at an empty one (so that "german" is the
// embedded set) and returns german's first 300 rows as LIBSVM text: test data for a run
// on german (any rows will do).
func germanText(t *testing.T) []byte {
	t.Helper()
	t.Setenv(data.EnvData, t.TempDir())
	sp, err := data.Load("german", data.LoadOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := data.WriteLibSVM(&text, sp.Train.Subset(seqRows(300))); err != nil {
		t.Fatal(err)
	}
	return text.Bytes()
}

// TestNoFingerprint: a caller that does not need the training data's fingerprint gets
// the same model without it (TrainSHA256 empty), for a loaded file and for a grid; a
// checkpoint, which records the fingerprint, refuses the setting.
func TestNoFingerprint(t *testing.T) {
	dir := t.TempDir()
	train := filepath.Join(dir, "train.svm")
	if err := os.WriteFile(train, []byte("+1 1:0.5 3:2\n-1 2:1 4:-1\n+1 1:1 2:0.25\n-1 3:-1 4:3\n+1 1:2 4:1\n-1 2:-2 3:0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, algo := range []string{"ls-auc", "spam-l2"} {
		cfg := TrainConfig{Algo: algo, Data: train, Backend: fallback.New()}
		with, err := Train(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.NoFingerprint = true
		without, err := Train(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(with.TrainSHA256) != 64 || without.TrainSHA256 != "" || !slices.Equal(with.Weights, without.Weights) {
			t.Errorf("%s: fingerprint %q, without it %q (the same weights: %v)", algo, with.TrainSHA256, without.TrainSHA256,
				slices.Equal(with.Weights, without.Weights))
		}
	}
	g, err := Grid(context.Background(), GridConfig{TrainConfig: TrainConfig{Algo: "ls-auc", Data: train, Backend: fallback.New(), NoFingerprint: true},
		Grid: "lambda=0.1,1"})
	if err != nil || g.TrainSHA256 != "" {
		t.Errorf("grid without a fingerprint: %v, TrainSHA256 %q", err, g.TrainSHA256)
	}
	_, err = Train(context.Background(), TrainConfig{Algo: "spam-l2", Data: train, NoFingerprint: true, Checkpoint: filepath.Join(dir, "c.ckpt")})
	if !errors.Is(err, fault.ErrInput) {
		t.Errorf("NoFingerprint with a checkpoint: %v, want fault.ErrInput", err)
	}
}

// TestReportAfterTest: progress within a pass is skipped while the test data are being
// read, never waited for; the end of a pass waits for them, and nothing is reported
// after a failed read.
func TestReportAfterTest(t *testing.T) {
	for _, fail := range []bool{false, true} {
		test := &pendingTest{done: make(chan struct{})}
		var got []solver.Progress
		report := reportAfterTest(func(p solver.Progress) { got = append(got, p) }, test)
		returned := make(chan struct{})
		go func() {
			report(solver.Progress{Seen: 10000})
			close(returned)
		}()
		select {
		case <-returned:
		case <-time.After(10 * time.Second):
			t.Fatal("a report within a pass waited for the test data")
		}
		ended := make(chan struct{})
		go func() {
			report(solver.Progress{Seen: 20000, Done: true})
			close(ended)
		}()
		select {
		case <-ended:
			t.Fatal("the end of a pass was reported before the test data were read")
		case <-time.After(10 * time.Millisecond):
		}
		if fail {
			test.err = errors.New("unreadable")
		}
		close(test.done)
		<-ended
		report(solver.Progress{Seen: 30000})
		want := []int64{20000, 30000}
		if fail {
			want = nil
		}
		var seen []int64
		for _, p := range got {
			seen = append(seen, p.Seen)
		}
		if !slices.Equal(seen, want) {
			t.Errorf("fail=%v: reported %v, want %v", fail, seen, want)
		}
	}
}
