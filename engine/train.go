package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/internal/bytesize"
	"github.com/aucopt/aucopt/internal/jobs"
	"github.com/aucopt/aucopt/kernels"
)

// TrainConfig is one training run of an online algorithm.
type TrainConfig struct {
	Algo string // registered algorithm name (solver.Names)
	// Params are the hyper-parameters (made by the algorithm's solver.Spec.Params, then
	// Set): the keys set (solver.Params.IsSet) override the defaults, data-scaled or
	// static; the zero Params set none.
	Params  solver.Params
	Data    string // training data: a registry name (data.KnownDatasets) or a file
	Test    string // test data: a file or a dataset name (its test part); "" uses Data's own split, if any
	Passes  int    // passes over the training data (0: the learner's default, solver.Spec.DefaultPasses)
	Shuffle bool   // visit the training rows in a seeded random order each pass
	Scale   string // data.ScaleAuto (default), ScaleNone, ScaleMinMax, ScaleNorm or ScaleUnit
	Seed    uint64 // seeds shuffling, class grouping and the algorithm's randomness; 0 means DefaultSeed
	// Backend is the compute backend, the caller's to close; nil means the default
	// selection (openBackendFor: $AUCOPT_BACKEND, else automatic selection's for the
	// algorithm and the data, autoBackend), opened and closed by the run.
	Backend    kernels.Backend
	Checkpoint string // checkpoint file for resumable runs ("" for none; see Train)
	MaxMemory  int64  // bytes the learners' state may take; 0: availableMemory (see Train)
	// Positive, when set, is the label of the positive class of a data file (LIBSVM or
	// table), every other label negative (data.Options.Positive).
	Positive string
	// Table says how CSV, TSV and Parquet files' columns become the label and features
	// (nil: the defaults); the test file is read with the training file's Schema.
	Table *data.TableOptions
	// Indices is how a LIBSVM file numbers its features (data.Options.Indices):
	// IndexAuto (from 0 when an index 0 occurs in it, with a note), IndexOne or
	// IndexZero. The model records it, and the test file is read the same way.
	Indices  data.IndexBase
	Progress func(solver.Progress)
	// Started, if set, is called once the data are ready and training starts, with the
	// number of training rows and passes (0 for a batch fit), so that a progress display
	// can size itself.
	Started func(rows, passes int)
	// OutOfCore trains a learner that needs only the class moments (ls-auc, mba-* with
	// pairs=all) from the file Data streamed once (LIBSVM text in parallel chunks, a
	// CSV, TSV or Parquet table row by row), in memory independent of its rows
	// (streamClassMoments); Scale must be none, minmax or auto.
	OutOfCore bool
	// Average, when above 1, trains that many independent one-pass learners, one per
	// contiguous shard of the training rows, in parallel, and averages their weights
	// (parameter averaging; online algorithms only).
	Average int
	// Bins, when not 0, expands every numeric feature, after scaling, by the indicators
	// of at most Bins quantile bins of its training values (data.FitBins, 2 to
	// data.MaxBins), so that the linear score becomes an additive one (a step function of
	// each feature beside its linear term). The data are then held in memory (no
	// streaming, no --out-of-core), and the model records the bins.
	Bins int
	// NoFingerprint says the caller does not need TrainSHA256 (it writes no model and
	// reports no result): a file that is loaded is then not hashed, which is a read of
	// its own at SHA-256 speed beside the parse (a one-pass run on a9a: about 1 ms of
	// 20), and TrainSHA256 is empty. A streamed file's fingerprint comes from the scan
	// that sizes it, and is kept. A checkpoint records the fingerprint: with Checkpoint
	// set it is an error.
	NoFingerprint bool
	// AllowExtraFeatures scores test data with more features than the training data,
	// the extra ones at weight 0 (LIBLINEAR's rule), with a note. Without it such test
	// data is refused with an error wrapping model.ErrFeatureSpace and ErrInput, as
	// Predict refuses it: it is most often data of another feature space.
	AllowExtraFeatures bool
	// Dataset, when set in place of Data, is the training data in memory (a caller's
	// arrays made a Dataset by data.NewDenseRows or data.NewCSR, or any Dataset): the run
	// is Data's for a file of the same rows in the same layout (defaults, scaling,
	// weights, bit for bit), the rows read where they lie and never written: the run
	// scales a copy (a learner that fits from the class moments under min-max scaling
	// maps the moments instead, and needs none) and does not reorder them in place. The layout is the Dataset's as
	// given (a file is read sparse for an online learner and dense when dense for a batch
	// one; the weights of another layout can differ in the last bits). Train, Grid and
	// Auto take it; it has no fingerprint, so Checkpoint, OutOfCore, Positive and Table
	// (which apply to files) do not go with it.
	Dataset *data.Dataset
	// TestSplit, when not 0, holds out this share (in (0, 1)) of the training rows,
	// stratified by class and seeded by Seed, as the test data: Test must be empty, and
	// a dataset's own test part is not used. The data are then held in memory.
	TestSplit float64
	// Calibrate, when set (model.CalibratePlatt or model.CalibrateIsotonic), holds out
	// CalibrateHoldout of the training rows (after TestSplit's; stratified, seeded by
	// Seed; 0 means DefaultCalibrateHoldout), trains on the others, and fits the map from
	// the model's scores to probabilities on the held-out rows' scores
	// (TrainResult.Calibration). The test data are never used. The data are then held in
	// memory.
	Calibrate        string
	CalibrateHoldout float64
	// CalibrateFolds, when at least 2, cross-fits the calibration instead of holding
	// rows out: the training rows are split in CalibrateFolds stratified folds (seeded by
	// Seed), each fold's rows are scored by a fit on the other folds made as the final
	// one is (its scaling and data-scaled defaults fitted on those rows), the map is
	// fitted on every row's out-of-fold score, and the weights are trained on every row
	// (those of the same run without Calibrate, bit for bit). CalibrateFolds+1 fits;
	// the folds' rows are named, not copied, where the fit reads rows where they lie
	// (Problem.Rows). Not with CalibrateHoldout; Train only.
	CalibrateFolds int

	// AlgoDefaulted says that Algo is the caller's default rather than the user's
	// choice: when its state cannot fit in memory for the data's features (OPAUC's d×d
	// scatters on a wide hashed table), and no parameters were given for it, Train trains
	// one whose state fits any width instead (defaultFallback) and says so in a note.
	AlgoDefaulted bool

	// Weights, when set, is a file of sample weights for the training rows, one per
	// line in row order (data.ReadWeights, LIBLINEAR's -W form), for an algorithm whose
	// objective takes them (solver.TakesSampleWeights); a Dataset's own W is used
	// without it. ClassWeight, when set, is the class weighting ("balanced" or "P:N")
	// of an algorithm that takes class weights (solver.TakesClassWeights): its
	// class-weight parameter. Either, for another algorithm, is an error naming why.
	// The run's notes (and so the model) record the weights used. See weights.go.
	Weights     string
	ClassWeight string

	vocab *data.Vocab // counts the training table's hashed strings (readOptions)
	// namedRows: the calibration hold-out names its rows instead of copying them
	// (holdOut; Train's own runs).
	namedRows bool
}

// DefaultCalibrateHoldout is the share of the training rows TrainConfig.Calibrate holds
// out to fit the calibration when CalibrateHoldout is 0.
const DefaultCalibrateHoldout = 0.2

// DefaultSeed is the seed of a run whose TrainConfig.Seed is 0: the zero value gives the
// same run as the command line's default --seed 1 (and its committed results).
const DefaultSeed = 1

// seedOrDefault is seed, or DefaultSeed for 0.
func seedOrDefault(seed uint64) uint64 {
	if seed == 0 {
		return DefaultSeed
	}
	return seed
}

// TrainResult is what a run produced.
type TrainResult struct {
	Algo      string         `json:"algo"`
	Params    map[string]any `json:"params"`
	Backend   string         `json:"backend"`
	Data      string         `json:"data"`
	TrainRows int            `json:"train_rows"`
	Features  int            `json:"features"`
	Passes    int            `json:"passes"`
	Scale     string         `json:"scale"`
	Seconds   float64        `json:"seconds"`            // training time (data loading excluded)
	TestRows  int            `json:"test_rows"`          // 0 when there is no test data
	TestAUC   float64        `json:"test_auc,omitempty"` // NaN (omitted) without test data
	Notes     []string       `json:"notes,omitempty"`    // things the user should know
	Weights   []float64      `json:"-"`
	Scaling   *data.Scaling  `json:"-"` // the fitted scaling (Scale's); nil for a streamed file
	// Bins is TrainConfig.Bins (0: none) and Binned the bins fitted on the scaled
	// training data: then Weights has Binned.OutDim() entries, Features and the
	// indicators.
	Bins   int        `json:"bins,omitempty"`
	Binned *data.Bins `json:"-"`

	// TrainSHA256 is the SHA-256 of the training data's file as stored (for a dataset
	// name, of its training file, on disk or embedded; for a version-3 binary cache, the
	// digest it stores, data.Fingerprint); "" when it could not be read.
	TrainSHA256 string `json:"train_sha256,omitempty"`
	Seed        uint64 `json:"seed"` // the run's seed

	// Schema is how the training table's columns became features; nil for LIBSVM data.
	Schema *data.Schema `json:"table,omitempty"`

	// Calibration is the map from scores to probabilities fitted on held-out training
	// rows (TrainConfig.Calibrate); nil without.
	Calibration *model.Calibration `json:"calibration,omitempty"`
	calibRows   *data.Dataset      // the held-out rows it is fitted on, as read
	// Or, named rather than copied (TrainConfig.namedRows): the held-out rows calibIdx
	// of calibFrom, as read, and the training rows trainIdx of the same data.
	calibFrom          *data.Dataset
	calibIdx, trainIdx []int

	// Vocabulary names the buckets of a table's hashed columns with the column=value
	// strings the training file had in them, the most frequent ones of the buckets of
	// largest |w| (data.Vocab.Terms); VocabularyTruncated says that strings beyond
	// data.MaxVocabKeys went uncounted, VocabularyRows over how many of the file's first
	// rows they were counted (data.VocabRows at most). Empty without hashed columns.
	Vocabulary          []data.VocabTerm `json:"-"`
	VocabularyRows      int              `json:"-"`
	VocabularyTruncated bool             `json:"-"`
	vocab               *data.Vocab      // the training file's counts

	density float64        // the training data's share of values stored (0 when not known)
	indices data.IndexBase // how the LIBSVM training file was numbered (data.ReadConfig.Indices)
}

// width is the number of features the learner sees: Features, and the bin indicators.
func (res *TrainResult) width() int {
	if res.Binned != nil {
		return res.Binned.OutDim()
	}
	return res.Features
}

// workload is the automatic backend selection's view of training spec on the data res
// describes.
func (res *TrainResult) workload(spec solver.Spec) workShape {
	return workShape{Spec: spec, Rows: res.TrainRows, Dim: res.Features, Density: res.density, Passes: res.Passes}
}

// MarshalJSON writes the result with test_auc omitted when there was no test data
// (encoding/json cannot write the NaN that stands for it).
// marshalWith writes r's JSON (MarshalJSON) with the fields of a result that embeds
// it (GridResult, AutoResult) in the same object.
func (r *TrainResult) marshalWith(fields map[string]any) ([]byte, error) {
	tb, err := r.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(tb, &m); err != nil {
		return nil, err
	}
	maps.Copy(m, fields)
	return json.Marshal(m)
}

func (r *TrainResult) MarshalJSON() ([]byte, error) {
	type plain TrainResult
	out := struct {
		*plain
		TestAUC *float64 `json:"test_auc,omitempty"`
	}{plain: (*plain)(r)}
	if !math.IsNaN(r.TestAUC) {
		out.TestAUC = &r.TestAUC
	}
	return json.Marshal(out)
}

// Train trains cfg.Algo on cfg.Data and scores cfg.Test (or the dataset's own test
// split) with the result.
//
// A checkpoint (cfg.Checkpoint) records the run's algorithm, parameters, passes, seed,
// shuffling, scaling, training data (fingerprint, rows, features) and backend. An
// unfinished one is resumed when all of these are the same and refused otherwise (an
// error wrapping ErrInput and solver.ErrCheckpoint that names the difference), as is a
// corrupt one; a complete run marks it finished, and a finished one is replaced by a
// new run.
//
// Before the learner is made, its state size (solver.Spec.StateBytes) is compared with
// cfg.MaxMemory, or without one with availableMemory: a run that would not fit is
// refused with an error wrapping ErrMemory and ErrInput that names the algorithms that
// would.
func Train(ctx context.Context, cfg TrainConfig) (_ *TrainResult, err error) {
	defer jobs.Recover(&err)
	cfg.Seed = seedOrDefault(cfg.Seed)
	spec, err := solver.Lookup(cfg.Algo)
	if err != nil {
		return nil, inputError{err}
	}
	params, err := spec.ParamsWith(cfg.Params)
	if err == nil {
		params, err = cfg.classWeightParams(spec, params)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Algo, err)
	}
	if err := cfg.checkDataset(); err != nil {
		return nil, err
	}
	if err := cfg.checkWeights(spec, params); err != nil {
		return nil, err
	}
	res := &TrainResult{Algo: spec.Name, Params: params.Values(), Data: cfg.dataName(), Passes: max(cfg.Passes, 1), TestAUC: math.NaN(), Seed: cfg.Seed}
	if err := (Method{Spec: spec, Points: []solver.Params{params}}).check(cfg.settings(nil)); err != nil {
		return nil, err
	}
	if spec.IsBatch() {
		res.Passes = 0
	}
	if cfg.NoFingerprint && cfg.Checkpoint != "" {
		return nil, inputErrorf("a checkpoint records the training data's fingerprint: NoFingerprint does not go with a checkpoint")
	}
	if err := checkHoldOut(cfg); err != nil {
		return nil, err
	}
	if cfg.OutOfCore {
		if cfg.Bins != 0 {
			return nil, fault.Settingf("{OutOfCore} fits from class moments of the features as read; {Bins} does not apply")
		}
		return trainOutOfCore(ctx, spec, params, cfg, res)
	}
	inMemory := spec.IsBatch() || cfg.Average > 1 || cfg.TestSplit != 0 || cfg.Calibrate != ""
	// A small text file or a pipe that would stream is loaded instead (loadsStream),
	// with the stream's hyper-parameters: the static defaults, not the data-scaled ones.
	loadedStream := !inMemory && loadsStream(cfg)
	inMemory = inMemory || loadedStream
	var sum pendingSum // a streamed file's fingerprint comes from prepare's scan
	if inMemory || !streamable(cfg) {
		sum = fingerprintFor(cfg)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	cfg.namedRows = true
	src, test, err := prepareAsync(ctx, cancel, cfg, inMemory, res)
	if err != nil {
		return nil, err
	}
	defer func() { cancel(nil); test.wait() }() // an early return stops the test's reading
	if cfg.Progress != nil && test != nil {
		cfg.Progress = reportAfterTest(cfg.Progress, test)
	}
	if cfg.AlgoDefaulted {
		spec, params = defaultFallback(spec, params, src, cfg, res)
	}
	defaultPasses(spec, &cfg.Passes, res)
	if err := checkMemory(spec, spec.StateBytes(binnedWidth(res.Features, cfg.Bins), res.TrainRows, params), featuresOf(res.Features),
		res.Features, res.TrainRows, memoryLimit(cfg.MaxMemory)); err != nil {
		return nil, err
	}
	b, release, err := openBackendFor(cfg.Backend, res.workload(spec))
	if err != nil {
		return nil, err
	}
	defer release()
	res.Backend = b.Name()
	if cfg.Started != nil {
		cfg.Started(res.TrainRows, res.Passes)
	}
	if cfg.Checkpoint != "" && sum != nil {
		sum.wait(res) // the checkpoint records the training data's fingerprint
	}
	p := Problem{Owned: cfg.Dataset == nil, TestLater: test.wait, Info: res}
	if ds, ok := src.(solver.DatasetSource); ok {
		p.Train, p.Rows = ds.D, res.trainIdx
	} else {
		p.Stream = src // streamed as read
	}
	set := cfg.settings(b)
	m := Method{Spec: spec, Points: []solver.Params{params}, SizeStream: true,
		DataDefaults: p.Train != nil && !loadedStream} // on the scaled rows
	var cross *crossFitted
	var scored *data.Dataset // the rows as read, which cross-fitting scores after the fit
	if cfg.CalibrateFolds != 0 {
		if cross, err = crossFit(ctx, p, set, m, cfg, res); err != nil {
			return nil, err
		}
		p.Owned, scored = false, p.Train
	}
	if _, err = Run(ctx, p, set, m); err != nil {
		if terr := test.failed(); terr != nil {
			return nil, terr // the test file's error, which cancelled the training
		}
		err = fmt.Errorf("train %s on %s: %w", spec.Name, res.Data, err)
		if errors.Is(err, solver.ErrCheckpoint) || errors.Is(err, solver.ErrWeights) {
			err = inputError{err} // a checkpoint that cannot be resumed, weights the fit cannot take: the caller's input
		}
		return nil, err
	}
	if cfg.Checkpoint == "" && sum != nil {
		sum.wait(res)
	}
	if err := calibrate(res, cfg); err != nil {
		return nil, err
	}
	if cross != nil {
		cross.finish(res, scored)
	}
	res.nameBuckets()
	return res, nil
}

// settings are the Settings of cfg's run on backend b: what every method honours, as
// the configuration gives it.
func (cfg TrainConfig) settings(b kernels.Backend) Settings {
	return Settings{Backend: b, Seed: cfg.Seed, Passes: cfg.Passes, Shuffle: cfg.Shuffle, Scale: cfg.Scale, Bins: cfg.Bins,
		Progress: cfg.Progress, Checkpoint: cfg.Checkpoint, Average: cfg.Average, AllowExtraFeatures: cfg.AllowExtraFeatures}
}

// nameBuckets records the vocabulary of a table's hashed columns for the trained
// weights (res.Vocabulary), when the table has any.
func (res *TrainResult) nameBuckets() {
	if res.vocab == nil || res.Schema == nil || len(res.Schema.Categorical) == 0 {
		return
	}
	res.Vocabulary = res.vocab.Terms(res.Weights, data.VocabPerBucket, data.VocabTerms)
	res.VocabularyTruncated, res.VocabularyRows = res.vocab.Truncated(), res.vocab.Rows()
	res.vocab = nil
}

// defaultFallback returns the algorithm to train in place of the default spec when its
// state cannot fit (TrainConfig.AlgoDefaulted) and fallback's can: LS-AUC, whose
// conjugate gradients hold a few vectors (solver.LSAUCDirectMax), on rows held in
// memory; SPAM-ℓ2 (a few d-vectors) on a streamed file, with a checkpoint, several
// passes or averaged shards, which are an online learner's. Parameters given for the
// default keep it (its memory error stands). res takes the new algorithm and a note.
func defaultFallback(spec solver.Spec, params solver.Params, src solver.Source, cfg TrainConfig, res *TrainResult) (solver.Spec, solver.Params) {
	limit := memoryLimit(cfg.MaxMemory)
	dim := binnedWidth(res.Features, cfg.Bins)
	need := spec.StateBytes(dim, res.TrainRows, params)
	if len(params.SetKeys()) > 0 || need <= limit.Bytes {
		return spec, params
	}
	name := "ls-auc"
	if _, ok := src.(solver.DatasetSource); !ok || cfg.Checkpoint != "" || cfg.Passes > 0 || cfg.Average > 1 {
		name = "spam-l2"
	}
	fb, err := solver.Lookup(name)
	if err != nil {
		return spec, params
	}
	fp := fb.Params()
	fneed := fb.StateBytes(dim, res.TrainRows, fp)
	if fneed > limit.Bytes {
		return spec, params
	}
	res.Algo, res.Params, res.Passes = fb.Name, fp.Values(), max(cfg.Passes, 1)
	if fb.IsBatch() {
		res.Passes = 0
	}
	res.Notes = append(res.Notes, fmt.Sprintf("the default algorithm %s needs %s %s, more than the %s of %s: trained %s instead (%s); name an algorithm to choose another",
		spec.Name, bytesize.Format(need), featuresOf(res.Features), bytesize.Format(limit.Bytes), limit.Source, fb.Name, bytesize.Format(fneed)))
	return fb, fp
}

// checkHoldOut checks cfg's held-out shares: TestSplit and CalibrateHoldout in (0, 1)
// or 0, TestSplit without Test, a known calibration method, neither with OutOfCore.
func checkHoldOut(cfg TrainConfig) error {
	switch {
	case cfg.TestSplit != 0 && !(cfg.TestSplit > 0 && cfg.TestSplit < 1):
		return inputErrorf("test split %g: want a share of the training rows in (0, 1), e.g. 0.2", cfg.TestSplit)
	case cfg.TestSplit != 0 && cfg.Test != "":
		return inputErrorf("a test split holds out part of the training data as the test data: give either a test file or a test split, not both")
	case cfg.CalibrateHoldout != 0 && !(cfg.CalibrateHoldout > 0 && cfg.CalibrateHoldout < 1):
		return inputErrorf("calibration hold-out %g: want a share of the training rows in (0, 1), e.g. 0.2", cfg.CalibrateHoldout)
	case cfg.CalibrateHoldout != 0 && cfg.Calibrate == "":
		return inputErrorf("a calibration hold-out without a calibration method: give platt or isotonic")
	case cfg.CalibrateFolds != 0 && cfg.Calibrate == "":
		return inputErrorf("calibration folds without a calibration method: give platt or isotonic")
	case cfg.CalibrateFolds < 0 || cfg.CalibrateFolds == 1:
		return inputErrorf("calibration folds %d: want at least 2 (cross-fitted), or 0 for a held-out share", cfg.CalibrateFolds)
	case cfg.CalibrateFolds != 0 && cfg.CalibrateHoldout != 0:
		return inputErrorf("calibration: give a hold-out share or cross-fitting folds, not both")
	case cfg.Calibrate != "" && cfg.Calibrate != model.CalibratePlatt && cfg.Calibrate != model.CalibrateIsotonic:
		return inputErrorf("calibration %q: want %s or %s", cfg.Calibrate, model.CalibratePlatt, model.CalibrateIsotonic)
	case cfg.OutOfCore && (cfg.TestSplit != 0 || cfg.Calibrate != ""):
		return inputErrorf("a test split and calibration hold rows out of memory-resident data: they do not go with out-of-core training")
	}
	return nil
}

// holdOut splits the held-out rows off the training data read, as cfg asks: the test
// split (replacing a dataset's own test part, test) and then the calibration rows
// (res.calibRows), each stratified and seeded by cfg.Seed, saying so in res.Notes.
func holdOut(cfg TrainConfig, train, test *data.Dataset, res *TrainResult) (*data.Dataset, *data.Dataset, error) {
	split := func(d *data.Dataset, share float64, stream uint64, what string) (*data.Dataset, *data.Dataset, error) {
		f, err := data.TrainTestSplit(d.Y, 1-share, data.SubSeed(cfg.Seed, stream))
		if err != nil {
			return nil, nil, inputErrorf("%s %g of %s: %w", what, share, cfg.dataName(), err)
		}
		if len(f.Test) == 0 || len(f.Train) == 0 {
			return nil, nil, inputErrorf("%s %g of %s: %d rows are too few to hold out a share", what, share, cfg.dataName(), d.Rows())
		}
		return d.Subset(f.Train), d.Subset(f.Test), nil
	}
	if cfg.TestSplit != 0 {
		own := ""
		if test != nil {
			own = fmt.Sprintf(", in place of %s's own test part", cfg.Data)
		}
		rows := train.Rows()
		var err error
		if train, test, err = split(train, cfg.TestSplit, 0x7465, "test split"); err != nil {
			return nil, nil, err
		}
		res.Notes = append(res.Notes, fmt.Sprintf("test data: %d of the %d training rows held out (stratified %g split, seed %d)%s",
			test.Rows(), rows, cfg.TestSplit, cfg.Seed, own))
	}
	if cfg.Calibrate != "" && cfg.CalibrateFolds == 0 {
		h := cfg.CalibrateHoldout
		if h == 0 {
			h = DefaultCalibrateHoldout
		}
		if cfg.namedRows {
			// Named, not copied: Train's fit reads the training part where it lies
			// when it can (Problem.Rows), and the held-out rows are scored where they lie.
			f, err := data.TrainTestSplit(train.Y, 1-h, data.SubSeed(cfg.Seed, 0x6361))
			if err != nil {
				return nil, nil, inputErrorf("calibration hold-out %g of %s: %w", h, cfg.dataName(), err)
			}
			if len(f.Test) == 0 || len(f.Train) == 0 {
				return nil, nil, inputErrorf("calibration hold-out %g of %s: %d rows are too few to hold out a share", h, cfg.dataName(), train.Rows())
			}
			res.trainIdx, res.calibFrom, res.calibIdx = f.Train, train, f.Test
			return train, test, nil
		}
		var err error
		if train, res.calibRows, err = split(train, h, 0x6361, "calibration hold-out"); err != nil {
			return nil, nil, err
		}
	}
	return train, test, nil
}

// calibrate fits cfg.Calibrate on the held-out rows' scores (res.calibRows, prepared as
// the training data were) into res.Calibration; nothing without.
func calibrate(res *TrainResult, cfg TrainConfig) error {
	if res.calibRows == nil && res.calibFrom == nil {
		return nil
	}
	var scores []float64
	var y []int8
	if res.calibFrom != nil {
		scores, y = scoreRows(res, res.Weights, res.calibFrom, res.calibIdx), make([]int8, len(res.calibIdx))
		for k, i := range res.calibIdx {
			y[k] = res.calibFrom.Y[i]
		}
	} else {
		held := res.asTrained(res.calibRows)
		scores, y = Score(res.Weights, held), held.Y
	}
	res.calibRows, res.calibFrom, res.calibIdx, res.trainIdx = nil, nil, nil, nil
	c, err := model.Fit(cfg.Calibrate, scores, y)
	if err != nil {
		return fmt.Errorf("calibration on %d held-out training rows: %w", len(y), err)
	}
	c.Holdout = cfg.CalibrateHoldout
	if c.Holdout == 0 {
		c.Holdout = DefaultCalibrateHoldout
	}
	res.Calibration = c
	res.Notes = append(res.Notes, fmt.Sprintf("calibration: %s fitted on %d held-out training rows (a stratified %g split, seed %d); the weights trained on the other %d",
		cfg.Calibrate, len(y), c.Holdout, cfg.Seed, res.TrainRows))
	return nil
}

// defaultPasses sets *passes, when the caller left it 0, to the online learner's
// default for the training rows res counts (solver.Spec.DefaultPasses), and records
// the passes made in res.
func defaultPasses(spec solver.Spec, passes *int, res *TrainResult) {
	if spec.IsBatch() {
		return
	}
	if *passes == 0 {
		*passes = spec.DefaultPasses(res.TrainRows)
	}
	res.Passes = max(*passes, 1)
}

// readsInPlace reports whether spec's learner at params fits a training set of rows
// rows in any order where the rows lie (solver.OrderedBatch), so that a shuffle need not
// move them.
func readsInPlace(spec solver.Spec, b kernels.Backend, dim int, params solver.Params, rows int) bool {
	if !spec.IsBatch() {
		return false
	}
	learner, err := spec.NewBatch(b, dim, params, 0)
	if err != nil {
		return false
	}
	ob, ok := learner.(solver.OrderedBatch)
	return ok && ob.ReadsInPlace(rows)
}

// fit trains one learner of spec on src: the streaming driver for an online algorithm,
// Fit on the in-memory dataset for a batch one. It returns the weights.
func fit(ctx context.Context, spec solver.Spec, b kernels.Backend, params solver.Params, src solver.Source, set Settings, res *TrainResult) ([]float64, error) {
	if set.Average > 1 {
		return fitAveraged(ctx, spec, b, params, src.(solver.DatasetSource).D, set, res.width(), set.Average)
	}
	if spec.IsBatch() {
		learner, err := spec.NewBatch(b, res.width(), params, set.Seed)
		if err != nil {
			return nil, err
		}
		ds := src.(solver.DatasetSource).D
		var order []int
		if set.Shuffle {
			order = data.Shuffle(ds.Rows(), set.Seed)
		}
		if ob, ok := learner.(solver.OrderedBatch); ok {
			err = ob.FitOrdered(ctx, ds, order) // the rows read where they lie when it can
		} else {
			if order != nil {
				ds = ds.Subset(order)
			}
			err = learner.Fit(ctx, ds)
		}
		if err != nil {
			return nil, err
		}
		return learner.Weights(), nil
	}
	learner, err := spec.NewOnline(b, res.width(), params, set.Seed)
	if err != nil {
		return nil, err
	}
	_, err = solver.Run(ctx, learner, src, solver.RunOptions{
		Passes: set.Passes, Progress: set.Progress, Checkpoint: set.Checkpoint, Resume: set.Checkpoint != "",
		Algo: spec.Name, Settings: runSettings(params, set, res), Dim: res.width(),
	})
	if err != nil {
		return nil, err
	}
	return learner.Weights(), nil
}

// runSettings lists what determines an online run besides its algorithm and passes,
// for its checkpoint: the training data (its SHA-256, else its name) with its rows and
// features, the scaling in effect, the seed, shuffling, every parameter and the backend
// (whose rounding the weights carry). The data come first: a resume compares in this
// order and names the first difference, and other data or another scaling also change
// the parameters scaled to the data.
func runSettings(params solver.Params, set Settings, res *TrainResult) []solver.Setting {
	trainData := "sha256:" + res.TrainSHA256
	if res.TrainSHA256 == "" {
		trainData = res.Data + " (no fingerprint)"
	}
	out := []solver.Setting{
		{Key: "training data", Value: trainData},
		{Key: "training rows", Value: strconv.Itoa(res.TrainRows)},
		{Key: "features", Value: strconv.Itoa(res.Features)},
		{Key: "scaling", Value: res.Scale},
		{Key: "seed", Value: strconv.FormatUint(set.Seed, 10)},
		{Key: "shuffle", Value: strconv.FormatBool(set.Shuffle)},
	}
	if set.Bins != 0 { // only then, so that the checkpoints of earlier versions resume
		out = append(out, solver.Setting{Key: "bins", Value: strconv.Itoa(set.Bins)})
	}
	vals := params.Values()
	for _, k := range params.Keys() {
		v := fmt.Sprint(vals[k])
		if f, ok := vals[k].(float64); ok {
			v = strconv.FormatFloat(f, 'g', -1, 64)
		}
		out = append(out, solver.Setting{Key: "parameter " + k, Value: v})
	}
	return append(out, solver.Setting{Key: "backend", Value: res.Backend})
}

// prepare is prepareAsync with the test data read before it returns (Grid, Trace).
func prepare(ctx context.Context, cfg TrainConfig, inMemory bool, res *TrainResult) (solver.Source, *data.Dataset, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	src, pending, err := prepareAsync(ctx, cancel, cfg, inMemory, res)
	if err != nil {
		return nil, nil, err
	}
	test, err := pending.wait()
	if err != nil {
		return nil, nil, err
	}
	if err := checkWiderTest(res, test, cfg.AllowExtraFeatures); err != nil {
		return nil, nil, err
	}
	return src, test, nil
}

// prepareAsync resolves the training source, filling res's TrainRows, Features, Schema
// and Notes, and starts reading the test data beside what follows (startTest; cancel
// cancels ctx with the test's error should it fail). A file read in its own order
// without scaling is streamed from disk (streamable), one row in memory at a time,
// after a constant-memory byte scan (data.ScanFile) that gives its dimension, rows and
// fingerprint (res.TrainSHA256) in one read without parsing a number; anything else is
// loaded in memory, unscaled (Run scales it), a batch algorithm's data in the dense
// layout when the file is dense (it would make a dense copy of it otherwise).
func prepareAsync(ctx context.Context, cancel context.CancelCauseFunc, cfg TrainConfig, inMemory bool, res *TrainResult) (solver.Source, *pendingTest, error) {
	if err := checkStreams(cfg.Data, cfg.Test); err != nil {
		return nil, nil, err
	}
	in := cfg.readOptions()
	if data.IsTableFile(cfg.Data, in) {
		res.vocab = data.NewVocab() // counted by the one read or scan of the file
	}
	if !inMemory && streamable(cfg) {
		var dim, rows int
		var sch *data.Schema
		if data.IsTableFile(cfg.Data, in) { // a table: its metadata, or one streamed pass, for rows and schema
			var err error
			var counted bool // the vocabulary counted by the sizing pass, else by the first training pass
			if dim, rows, sch, counted, err = sizeTable(cfg.Data, in, res.vocab, cfg.Checkpoint == "", &res.Notes); err != nil {
				return nil, nil, err
			}
			if !counted {
				in.Vocab = res.vocab
			}
			res.Schema = sch
		} else {
			info, err := data.ScanFile(ctx, cfg.Data)
			if err != nil {
				return nil, nil, err
			}
			if info.Rows == 0 {
				return nil, nil, fmt.Errorf("%s: %w", cfg.Data, data.ErrEmpty)
			}
			rows = info.Rows
			auto := in.Indices == data.IndexAuto
			if in.Indices, dim = info.IndicesOf(in.Indices); auto && in.Indices == data.IndexZero {
				res.Notes = append(res.Notes, fmt.Sprintf("%s numbers its features from 0, as scikit-learn writes LIBSVM files (line %d has an index 0): read so (the index base, given as zero-based or not, says it)", cfg.Data, info.ZeroLine))
			}
			if !info.Cache {
				res.indices = in.Indices
			}
			res.TrainSHA256 = info.SHA256
			if dim > 0 {
				res.density = float64(info.Nnz) / (float64(rows) * float64(dim))
			}
		}
		res.TrainRows, res.Features, res.Scale = rows, dim, data.ScaleNone
		return solver.FileSource{Path: cfg.Data, Opts: in}, startTest(ctx, cancel, cfg, data.LayoutSparse, testOptions(in, sch), dim), nil
	}
	layout := data.LayoutSparse
	if spec, err := solver.Lookup(cfg.Algo); err == nil && spec.IsBatch() {
		layout = data.LayoutAuto
	}
	cfg.vocab = res.vocab
	var digest string // a stream's fingerprint, taken as it is read (fingerprint has none)
	train, splitTest, sch, err := loadTrainLayoutRC(ctx, cfg, layout, data.ReadConfig{Digest: &digest, Notes: &res.Notes, Indices: &res.indices})
	if err != nil {
		return nil, nil, err
	}
	if res.indices != data.IndexAuto {
		in.Indices = res.indices // the test file is read as the training file was
	}
	if digest != "" && !cfg.NoFingerprint {
		res.TrainSHA256 = digest
	}
	res.Schema = sch
	if train, err = cfg.attachWeights(train, res); err != nil {
		return nil, nil, err
	}
	if train, splitTest, err = holdOut(cfg, train, splitTest, res); err != nil {
		return nil, nil, err
	}
	res.TrainRows, res.Features, res.density = train.Rows(), train.Dim, train.Density()
	if res.trainIdx != nil {
		res.TrainRows, res.density = len(res.trainIdx), rowsDensity(train, res.trainIdx)
	}
	test := readyTest(splitTest)
	if cfg.Test != "" {
		test = startTest(ctx, cancel, cfg, layout, testOptions(in, sch), train.Dim)
	}
	return solver.DatasetSource{D: train, Shuffle: cfg.Shuffle, Seed: cfg.Seed}, test, nil
}

// pendingTest is test data being read beside the training (startTest): Train starts
// reading the test file once the training data are known and waits for it only to
// score, so the read takes the cores an online learner (one core) or the rest of the
// run leaves idle instead of time before the training: a pass of SPAM over w8a
// (37,312 rows) reads its 0.9 MB test file in 2.7–3.5 ms and trains in 4.5–6 ms. A
// nil *pendingTest is no test data.
type pendingTest struct {
	done chan struct{}
	ds   *data.Dataset
	err  error
}

// startTest starts reading cfg.Test (nil when there is none) in the given layout with
// options in. Should the read fail, it cancels ctx with the read's error (cancel), so
// that a training run stops rather than finish for a test file it cannot score.
//
// Test data with more features than the training data's (features) fails the read
// the same way unless cfg.AllowExtraFeatures (checkWiderTest): the run stops before it
// trains for a score it would refuse.
func startTest(ctx context.Context, cancel context.CancelCauseFunc, cfg TrainConfig, layout data.Layout, in data.Options, features int) *pendingTest {
	if cfg.Test == "" {
		return nil
	}
	p := &pendingTest{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.ds, p.err = loadTestLayout(ctx, cfg.Test, cfg.Seed, layout, in)
		if p.err == nil && p.ds.Dim > features && !cfg.AllowExtraFeatures {
			p.ds, p.err = nil, widerTestError(p.ds, features)
		}
		if p.err != nil {
			cancel(p.err)
		}
	}()
	return p
}

// readyTest is test data already read (nil for none) as a pendingTest.
func readyTest(ds *data.Dataset) *pendingTest {
	if ds == nil {
		return nil
	}
	p := &pendingTest{done: make(chan struct{}), ds: ds}
	close(p.done)
	return p
}

// wait returns the test data (nil for none) once read, or the read's error.
func (p *pendingTest) wait() (*data.Dataset, error) {
	if p == nil {
		return nil, nil
	}
	<-p.done
	return p.ds, p.err
}

// reportAfterTest wraps a progress callback so that it reports only once the test data
// are read: a test file that cannot be read then stops the run before any progress is
// printed (no partial output). A report within a pass while they are still being read
// is skipped, not waited for; the end of a pass waits. (Waiting at every report held a
// one-pass learner up behind the test file's read at its first report: SPAM on a9a,
// about 1.3 ms of a 23 ms run.)
func reportAfterTest(report func(solver.Progress), test *pendingTest) func(solver.Progress) {
	return func(p solver.Progress) {
		if !p.Done && !test.read() {
			return
		}
		if _, err := test.wait(); err == nil {
			report(p)
		}
	}
}

// read reports whether the read is over (or there is none), without waiting.
func (p *pendingTest) read() bool {
	if p == nil {
		return true
	}
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// failed returns the read's error when it has failed, without waiting for a read
// still under way.
func (p *pendingTest) failed() error {
	if p == nil {
		return nil
	}
	select {
	case <-p.done:
		return p.err
	default:
		return nil
	}
}

// checkWiderTest refuses test data with more features than the training data (res's)
// unless allow: an error wrapping model.ErrFeatureSpace and ErrInput, with the flag
// that allows it. Allowed, it tells the user, once, that the extra features get
// weight 0.
func checkWiderTest(res *TrainResult, test *data.Dataset, allow bool) error {
	if test == nil || test.Dim <= res.Features {
		return nil
	}
	if !allow {
		return widerTestError(test, res.Features)
	}
	for _, n := range res.Notes {
		if strings.HasPrefix(n, "the test data has ") {
			return nil // noted already
		}
	}
	res.Notes = append(res.Notes, fmt.Sprintf("the test data has %d features, the training data %d: the extra features get weight 0",
		test.Dim, res.Features))
	return nil
}

// widerTestError is the error of test data with more features than the training's.
func widerTestError(test *data.Dataset, features int) error {
	return fault.Settingf("test data %s: %w: it has %d features, the training data %d (if it is the same feature space, {AllowExtraFeatures} gives the extra ones weight 0)",
		test.Name, model.ErrFeatureSpace, test.Dim, features)
}

// Score returns w·x for every row of d; features beyond len(w) count 0.
func Score(w []float64, d *data.Dataset) []float64 {
	scores := make([]float64, d.Rows())
	if d.IsDense() {
		n := min(len(w), d.Dim)
		w := w[:n]
		for i := range scores {
			row := d.DenseRow(i)[:n]
			var s float64
			for j, v := range row {
				s += w[j] * v
			}
			scores[i] = s
		}
		return scores
	}
	for i := range scores {
		r := d.Row(i)
		var s float64
		for k, j := range r.Idx {
			if int(j) < len(w) {
				s += w[j] * r.Val[k]
			}
		}
		scores[i] = s
	}
	return scores
}

// loadData resolves the training and test data: registry names or files.
func loadData(ctx context.Context, cfg TrainConfig) (train, test *data.Dataset, sch *data.Schema, err error) {
	return loadDataLayout(ctx, cfg, data.LayoutSparse)
}

// loadDataLayout is loadData reading files in the given layout (registered datasets
// are loaded sparse), returning the training table's schema (nil for LIBSVM data).
func loadDataLayout(ctx context.Context, cfg TrainConfig, layout data.Layout) (train, test *data.Dataset, sch *data.Schema, err error) {
	train, test, sch, err = loadTrainLayout(ctx, cfg, layout)
	if err != nil {
		return nil, nil, nil, err
	}
	if cfg.Test != "" {
		if test, err = loadTestLayout(ctx, cfg.Test, cfg.Seed, layout, testOptions(cfg.readOptions(), sch)); err != nil {
			return nil, nil, nil, err
		}
	}
	return train, test, sch, nil
}

// loadTrainLayout reads cfg.Data in the given layout: the training data, a registered
// dataset's own test part (nil for none or a file) and a table's schema.
func loadTrainLayout(ctx context.Context, cfg TrainConfig, layout data.Layout) (train, splitTest *data.Dataset, sch *data.Schema, err error) {
	return loadTrainLayoutRC(ctx, cfg, layout, data.ReadConfig{})
}

// loadTrainLayoutRC is loadTrainLayout reading a file with rc's reports
// (loadWithDigest).
func loadTrainLayoutRC(ctx context.Context, cfg TrainConfig, layout data.Layout, rc data.ReadConfig) (train, splitTest *data.Dataset, sch *data.Schema, err error) {
	if cfg.Dataset != nil {
		return cfg.Dataset, nil, nil, cfg.checkDataset() // as given: see TrainConfig.Dataset
	}
	if cfg.Data == "" {
		return nil, nil, nil, inputErrorf("no training data given")
	}
	return loadWithDigest(ctx, cfg.Data, cfg.Seed, layout, cfg.readOptions(), rc)
}

// checkDataset refuses the settings that do not go with an in-memory cfg.Dataset.
func (cfg TrainConfig) checkDataset() error {
	switch {
	case cfg.Dataset == nil:
		return nil
	case cfg.Data != "":
		return inputErrorf("training data given twice: a file or dataset name (%s) and a dataset in memory (%s)", cfg.Data, cfg.Dataset.Name)
	case cfg.Checkpoint != "":
		return inputErrorf("%s: a checkpoint records the training file's fingerprint; a dataset in memory has none", cfg.Dataset.Name)
	case cfg.OutOfCore:
		return fault.Settingf("%s: {OutOfCore} streams a file; the dataset is in memory already", cfg.Dataset.Name)
	case cfg.Positive != "" || !cfg.Table.IsZero() || cfg.Indices != data.IndexAuto:
		return inputErrorf("%s: the positive label, the index base and the table options apply to files; a dataset in memory has its labels mapped already (data.NewDenseRows)", cfg.Dataset.Name)
	}
	return nil
}

// dataName is the training data's name: cfg.Data, or the in-memory dataset's name.
func (cfg TrainConfig) dataName() string {
	if cfg.Dataset != nil {
		return cfg.Dataset.Name
	}
	return cfg.Data
}

// readOptions are how cfg's data files are read.
func (cfg TrainConfig) readOptions() data.Options {
	return data.Options{Positive: cfg.Positive, Table: cfg.Table, Indices: cfg.Indices, Vocab: cfg.vocab}
}

// testOptions are how the test file of a run whose training file was read with in is
// read: a table with the training table's schema.
func testOptions(in data.Options, sch *data.Schema) data.Options {
	if sch != nil {
		return data.Options{Table: &data.TableOptions{Schema: sch}}
	}
	return in
}

// loadTest reads test data named by name: a file, or a registered dataset's test part
// when it has a train/test split (all its rows otherwise), as Predict reads it.
func loadTest(ctx context.Context, name string, seed uint64) (*data.Dataset, error) {
	return loadTestLayout(ctx, name, seed, data.LayoutSparse, data.Options{})
}

// loadTestLayout is loadTest reading a file in the given layout with options in.
func loadTestLayout(ctx context.Context, name string, seed uint64, layout data.Layout, in data.Options) (*data.Dataset, error) {
	if _, err := data.StatInput(name); err != nil {
		in.Indices = data.IndexAuto // a dataset name: the training file's numbering is no concern of it
	}
	all, test, _, err := loadWith(ctx, name, seed, layout, in)
	if err != nil {
		return nil, err
	}
	if test != nil {
		return test, nil
	}
	return all, nil
}

// load reads a file when path names one, else a registered dataset (its training part,
// and its test part when it has a split). Reading stops once ctx is done.
func load(ctx context.Context, name string, seed uint64) (*data.Dataset, *data.Dataset, error) {
	return loadLayout(ctx, name, seed, data.LayoutSparse)
}

// loadLayout is load reading a file in the given layout (data.ReadFileContext: on all
// cores, into arrays allocated once; LayoutSparse keeps a cache's own layout); a
// registered dataset is loaded sparse.
func loadLayout(ctx context.Context, name string, seed uint64, layout data.Layout) (*data.Dataset, *data.Dataset, error) {
	train, test, _, err := loadWith(ctx, name, seed, layout, data.Options{})
	return train, test, err
}

// loadWith is loadLayout reading a file with options in (the positive label, how a
// table's columns become features), returning the table schema it was read with (nil
// for LIBSVM data). in cannot apply to a dataset name.
func loadWith(ctx context.Context, name string, seed uint64, layout data.Layout, in data.Options) (*data.Dataset, *data.Dataset, *data.Schema, error) {
	return loadWithDigest(ctx, name, seed, layout, in, data.ReadConfig{})
}

// loadWithDigest is loadWith reading a file with rc's reports (rc.Layout is layout's):
// a stream's fingerprint (data.ReadConfig.Digest; a stream, standard input or a pipe,
// is read once, so its fingerprint is taken then or never), the notes and the index
// base of LIBSVM text.
func loadWithDigest(ctx context.Context, name string, seed uint64, layout data.Layout, in data.Options, rc data.ReadConfig) (*data.Dataset, *data.Dataset, *data.Schema, error) {
	if st, err := data.StatInput(name); err == nil {
		if st.IsDir() {
			return nil, nil, nil, inputErrorf("%s is a directory, not a data file", name)
		}
		in.Context = ctx
		rc.Layout = layout
		d, sch, err := data.ReadInput(ctx, name, in, rc)
		if err != nil {
			if sch != nil || data.IsTableFile(name, in) {
				err = inputError{err}
			}
			return nil, nil, nil, err
		}
		return d, nil, sch, nil
	}
	if _, err := data.Lookup(name); err != nil {
		return nil, nil, nil, fmt.Errorf("%s is neither a file nor a known dataset: %w", name, err)
	}
	if in.Positive != "" || !in.Table.IsZero() || in.Indices != data.IndexAuto {
		return nil, nil, nil, fault.Settingf("%s is a dataset name: {Positive}, {Indices} and the table options apply to data files", name)
	}
	sp, err := data.Load(name, data.LoadOptions{Seed: seed, Layout: data.LayoutSparse, Context: ctx})
	if err != nil {
		return nil, nil, nil, inputError{err} // its files are missing or malformed
	}
	return sp.Train, sp.Test, nil, nil
}

// sizeTable returns a table's number of features and rows and its schema for a run
// that streams it: from the file's metadata without reading a row when it has them
// exactly (a Parquet file, its columns typed by their schema, no row skipped for a
// missing value) and metadata may serve (fromMeta: no checkpoint, which may resume
// past the first pass), else by one streamed pass (scanTable) that counts vocab's
// strings as it goes (counted). Otherwise the run's first pass counts them.
func sizeTable(path string, in data.Options, vocab *data.Vocab, fromMeta bool, notes *[]string) (dim, rows int, sch *data.Schema, counted bool, err error) {
	if fromMeta && (in.Table == nil || in.Table.Missing != data.MissingSkip) {
		r, err := data.Open(path, in)
		if err != nil {
			return 0, 0, nil, false, inputError{err}
		}
		n, _, ok := r.SizeHint()
		if ok {
			*notes = append(*notes, r.Notes()...)
			dim, sch = r.MaxIndex(), r.Schema()
		}
		if err := r.Close(); err != nil {
			return 0, 0, nil, false, err
		}
		if ok {
			if n == 0 {
				return 0, 0, nil, false, inputError{fmt.Errorf("%s: %w", path, data.ErrEmpty)}
			}
			return dim, n, sch, false, nil
		}
	}
	scan := in
	scan.Vocab = vocab
	dim, rows, sch, err = scanTable(path, scan, notes)
	return dim, rows, sch, true, err
}

// scanTable streams a table once for its number of features and rows and its schema,
// adding the reader's notes to notes.
func scanTable(path string, in data.Options, notes *[]string) (dim, rows int, sch *data.Schema, err error) {
	r, err := data.Open(path, in)
	if err != nil {
		return 0, 0, nil, inputError{err}
	}
	defer r.Close()
	*notes = append(*notes, r.Notes()...)
	for {
		_, err := r.Next()
		if err == io.EOF {
			if rows == 0 {
				return 0, 0, nil, inputError{fmt.Errorf("%s: %w", path, data.ErrEmpty)}
			}
			return r.MaxIndex(), rows, r.Schema(), nil
		}
		if err != nil {
			return 0, 0, nil, inputError{err}
		}
		rows++
	}
}

// scale fits the scaling kind (data.FitScaling; unitRows: the algorithm assumes
// ‖x‖ ≤ 1) on the training data and applies it, in place when the run owns the rows
// (data.Scaling.ApplyInPlace: a dense matrix is not held twice), else to a copy; res
// gets the scaling (asTrained applies it to test data).
func scale(kind string, unitRows bool, train *data.Dataset, owned bool, res *TrainResult) (*data.Dataset, error) {
	s, err := data.FitScaling(kind, train, unitRows)
	if err != nil {
		return nil, inputError{err}
	}
	res.Scale, res.Scaling = s.Kind, s
	if owned {
		return s.ApplyInPlace(train), nil
	}
	return s.Apply(train), nil
}

// binnedWidth bounds the features a learner sees when each of dim features gains at
// most bins indicators (the bins are fitted later, on the scaled data).
func binnedWidth(dim, bins int) int {
	if bins == 0 {
		return dim
	}
	return dim * (bins + 1)
}

// binData fits k bins per feature to the scaled training data (data.FitBins), records
// them in res and expands the training data by them (asTrained expands test data),
// checking ctx as it goes.
func binData(ctx context.Context, k int, train *data.Dataset, res *TrainResult) (*data.Dataset, error) {
	b, err := data.FitBinsContext(ctx, train, k)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil {
		return nil, inputError{err}
	}
	res.Bins, res.Binned = k, b
	return b.ApplyContext(ctx, train)
}

// asTrained returns test data (nil for none) as the learner saw the training data: cut
// to the training features, scaled by res.Scaling and expanded by res.Binned, each
// when set.
func (res *TrainResult) asTrained(test *data.Dataset) *data.Dataset {
	if test == nil {
		return nil
	}
	if test.Dim != res.Features {
		test = test.Truncate(res.Features)
	}
	if res.Scaling != nil {
		test = res.Scaling.Apply(test)
	}
	if res.Binned != nil {
		test = res.Binned.Apply(test)
	}
	return test
}

// checkStreams refuses training and test data that name the same stream (standard
// input twice, say): a stream is read once.
func checkStreams(train, test string) error {
	if test == "" || !data.IsStream(train) || !data.IsStream(test) {
		return nil
	}
	a, err1 := data.StatInput(train)
	b, err2 := data.StatInput(test)
	if err1 == nil && err2 == nil && os.SameFile(a, b) {
		return fault.Settingf("{Data} %s and {Test} %s are the same stream, which can be read only once", train, test)
	}
	return nil
}

// streamInput returns the format of the run's training input when the run reads it as
// rows in order, as a stream: a file or standard input (not a dataset name, not a
// Dataset), read in its own order (no shuffling), with no scaling or bins to fit.
func streamInput(cfg TrainConfig) (data.FileFormat, bool) {
	if cfg.Dataset != nil || cfg.Shuffle || cfg.Scale != data.ScaleNone || cfg.Bins != 0 {
		return data.FileFormat{}, false
	}
	ff, err := data.DetectFile(cfg.Data)
	return ff, err == nil
}

// streamable reports whether the run can stream its training file from disk instead of
// loading it (streamInput, of a file that can be read by passes). One pass then holds
// one row in memory at a time.
func streamable(cfg TrainConfig) bool {
	ff, ok := streamInput(cfg)
	return ok && ff.Passes()
}

// loadsStream reports whether a run that reads its input as a stream (streamInput)
// loads it instead, with the stream's hyper-parameters (the static defaults, not the
// data-scaled ones), so that it trains as the stream would: text small enough to parse
// on all cores (data.FileFormat.LoadWhole), or standard input or a pipe, which is read
// once. Training on the rows in memory, in file order and unscaled, sees the same
// examples as the stream.
func loadsStream(cfg TrainConfig) bool {
	ff, ok := streamInput(cfg)
	return ok && (ff.LoadWhole() || !ff.Passes())
}
