package engine

import (
	"fmt"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/model"
)

// Version is aucopt's version, recorded in model and result files.
const Version = "0.1.0-dev"

// Model returns the model file of the trained result (format model.Format).
func (r *TrainResult) Model() *model.Model {
	m := &model.Model{Version: Version, Algo: r.Algo, Params: r.Params, Features: r.Features,
		Scaling: model.ScalingOf(r.Scale, r.Scaling), Backend: r.Backend, TrainData: r.Data, TrainRows: r.TrainRows,
		TrainSHA256: r.TrainSHA256, Seed: r.Seed, TestAUC: r.TestAUC, TestRows: r.TestRows, Weights: r.Weights, Table: r.Schema, ZeroBased: r.indices == data.IndexZero, Notes: r.Notes,
		Bins: r.Binned, Calibration: r.Calibration, Vocabulary: r.Vocabulary, VocabularyTruncated: r.VocabularyTruncated,
		VocabularyRows: r.VocabularyRows}
	return m
}

// pendingSum is a training-data fingerprint being computed.
type pendingSum chan sumResult

type sumResult struct {
	sum string
	err error
}

// fingerprint starts hashing the training data named by name (a file, else a registered
// dataset's training file) on its own goroutine, so that it overlaps the parse. The
// cost is one more sequential read of the file as stored (usually from the page cache;
// for a compressed file only its compressed bytes) at SHA-256 speed, hidden behind the
// parse, which is far slower: fashion-mnist's 50 MB .xz hashes in 55 ms (0.9 GB/s on
// one core of the development machine) and parses in 9.9 s. A version-3 binary cache,
// which loads at memory speed, stores its digest, which is read instead
// (data.Fingerprint). The goroutine finishes even when training fails; nothing waits
// for it then.
func fingerprint(name string) pendingSum {
	if data.IsStream(name) {
		return nil // read once, by the load, which takes its fingerprint (loadWithDigest)
	}
	ch := make(pendingSum, 1)
	go func() {
		var r sumResult
		if st, err := data.StatInput(name); err == nil && st.Mode().IsRegular() {
			r.sum, r.err = data.Fingerprint(name)
		} else {
			r.sum, r.err = data.SourceSHA256(name)
		}
		ch <- r
	}()
	return ch
}

// fingerprintFor is fingerprint(cfg.Data), or nil (no fingerprint) when
// cfg.NoFingerprint is set or the data are in memory (cfg.Dataset).
func fingerprintFor(cfg TrainConfig) pendingSum {
	if cfg.NoFingerprint || cfg.Dataset != nil {
		return nil
	}
	return fingerprint(cfg.Data)
}

// wait stores the fingerprint in res, or a note saying why there is none; nothing for
// a nil p (fingerprintFor's none).
func (p pendingSum) wait(res *TrainResult) {
	if p == nil {
		return
	}
	r := <-p
	if r.err != nil {
		res.Notes = append(res.Notes, fmt.Sprintf("no fingerprint of the training data: %v", r.err))
		return
	}
	res.TrainSHA256 = r.sum
}

// inputError marks err as caused by the caller's input (fault.ErrInput); its message
// is err's.
type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{e.err, fault.ErrInput} }

func inputErrorf(format string, args ...any) error {
	return inputError{fmt.Errorf(format, args...)}
}
