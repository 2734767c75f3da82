// Command capi is aucopt's C ABI: the engine as a shared library for other languages
// (the Python package in python/ loads it with ctypes). Build it with
//
//	go build -buildmode=c-shared -o libaucopt.so ./capi
//
// which also writes libaucopt.h, the declarations below.
//
// # Functions
//
// Every function returns an exit-status class, the command line's rule: 0 success, 1 a
// runtime failure (divergence, I/O), 2 the caller's input (unknown algorithm, bad
// parameter, malformed array, one class, a model file that is not one), 130 interrupted
// (aucopt_cancel). Its message goes into the caller's buffer err of errlen bytes
// (NUL-terminated, truncated to fit; untouched on success): the last error is the
// caller's, not the library's, so that threads calling at once never read each other's.
//
//	int aucopt_train(const char *algo, const char *params, const char *options,
//	                 int layout, int64_t rows, int64_t cols, const double *values, int64_t nnz,
//	                 const void *indptr, int indptr_size, const void *indices, int indices_size,
//	                 const double *labels, const double *sample_weight, uint64_t seed,
//	                 const char *backend, uint64_t call, aucopt_progress progress, void *progress_ctx,
//	                 uintptr_t *model, char *err, size_t errlen);
//	int aucopt_score(uintptr_t model, int layout, int64_t rows, int64_t cols, const double *values,
//	                 int64_t nnz, const void *indptr, int indptr_size, const void *indices,
//	                 int indices_size, double *scores, char *err, size_t errlen);
//	int aucopt_model_json(uintptr_t model, int what, char **out, size_t *len, char *err, size_t errlen);
//	int aucopt_model_from_json(const char *json, size_t len, uintptr_t *model, char *err, size_t errlen);
//	int aucopt_model_read(const char *path, uintptr_t *model, char *err, size_t errlen);
//	int aucopt_model_write(uintptr_t model, const char *path, char *err, size_t errlen);
//	void aucopt_model_free(uintptr_t model);
//	void aucopt_free(void *p);
//	void aucopt_cancel(uint64_t call);
//
// Training: algo is a registered algorithm or "auto" (engine.Auto, the command line's
// --algo auto); params the hyper-parameters, a JSON object ({"eta": 0.5}) or key=value
// lines, as -p; options a JSON object of the run's other settings, each as its flag:
// {"scale": "auto", "passes": 0, "shuffle": true, "budget_seconds": 10, "folds": 0,
// "holdout": 0, "name": "memory"} (unknown keys are an error; "" or NULL: the
// defaults, the command line's). backend is "" (auto), "avx2", "generic", "cuda". The
// data: layout 0 is dense row-major (values holds rows×cols), 1 dense column-major, 2
// compressed sparse rows as SciPy holds them (values and indices hold nnz entries,
// indptr rows+1; indptr_size and indices_size are 4 or 8, the bytes of an index).
// labels has rows entries, mapped by the data files' rules (data.NewDenseRows).
// sample_weight, when not NULL, has rows weights (finite, ≥ 0) for the algorithms
// that take them (unilog, ls-auc, svm-or, mba-* with every pair: solver.TakesSampleWeights);
// all one positive value is the unweighted problem, which any algorithm takes; other
// weights for another algorithm, or for auto, are refused (status 2). call, when not
// 0, is an identifier that aucopt_cancel(call) from another thread cancels the run by
// (it then returns 130). progress, when not NULL, is called with progress_ctx as an
// online learner goes (every 10,000 examples and at the end of each pass, on a thread
// of the library's; see aucopt_progress in libaucopt.h); a non-zero return cancels the
// run. The model handle is freed by aucopt_model_free.
//
// Scoring writes rows scores, w·T(x) as aucopt predict computes them, into scores
// (the caller's rows doubles); the rows need cols equal to the model's features.
// aucopt_model_json returns the model file's JSON (what 0) or the training result's
// (what 1: the run's seconds, notes, test AUC; "null" for a model read from a file) in
// memory of the library's that aucopt_free releases.
//
// # Memory
//
// The arrays are read where they lie (unsafe.Slice over the caller's pointers: a
// row-major matrix, CSR values and int32 indices with int64 row pointers are not
// copied; data.NewDenseRows and data.NewCSR say what is) for the duration of the call
// only: the caller keeps them alive and unchanged until it returns, and the library
// keeps no pointer to them, nor hands out Go pointers (a model is a runtime/cgo.Handle,
// a JSON buffer C memory). A panic in the engine is recovered at the boundary and
// returned as an error of class 1; none crosses into the caller.
//
// # Signals and threads
//
// A c-shared Go runtime sets up its signals when the library is loaded (os/signal's
// "Non-Go programs that call Go code"): it installs handlers for the synchronous signals
// (SIGSEGV, SIGBUS, SIGFPE) and SIGPIPE, saving the host's and calling them for a signal
// that arrives in non-Go code; for every other signal the host handles (Python's SIGINT)
// it keeps the host's handler, only turning on SA_ONSTACK; and it installs none for an
// asynchronous signal unless os/signal.Notify asks, which this library never does: the
// host keeps its Ctrl-C. Checked with CPython (python/tests/test_signals.py): after
// loading the library and training, SIGINT still raises KeyboardInterrupt, and Ctrl-C
// during a fit cancels the run (the Python package waits for the call on a thread of
// its own and calls aucopt_cancel) and raises KeyboardInterrupt within a second. The
// runtime's threads are its own; calls may come from any host thread, concurrently.
package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// aucopt_progress receives an online learner's progress (solver.Progress): the 0-based
// pass, the examples seen in it and in the run, the seconds since training started,
// and whether the pass is complete. A non-zero return cancels the run (status 130).
typedef int (*aucopt_progress)(void *ctx, int pass, int64_t pass_seen, int64_t seen, double seconds, int done);

static int aucopt_call_progress(aucopt_progress f, void *ctx, int pass, int64_t pass_seen, int64_t seen, double seconds, int done) {
	return f(ctx, pass, pass_seen, seen, seconds, done);
}
*/
import "C"

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/cgo"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/aucopt/aucopt/backends"
	_ "github.com/aucopt/aucopt/backends/all" // the library trains on every backend
	"github.com/aucopt/aucopt/engine"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
)

func main() {}

// The exit-status classes (cmd/aucopt's rule).
const (
	statusOK          = 0
	statusFailure     = 1
	statusInput       = 2
	statusInterrupted = 130
)

// The data layouts.
const (
	layoutRowMajor = 0
	layoutColMajor = 1
	layoutCSR      = 2
)

// handle is what a model handle holds: the model and, for a trained one, the
// training result's JSON.
type handle struct {
	m      *model.Model
	result []byte
}

// inputError marks an error as the caller's input (class 2, fault.ErrInput).
type inputError struct{ err error }

func (e inputError) Error() string   { return e.err.Error() }
func (e inputError) Unwrap() []error { return []error{e.err, fault.ErrInput} }

// status classifies err by the command line's exit-status rule (fault.IsInput, as
// cmd/aucopt's exitStatus): a cancelled run 130, the caller's input 2 (and every error
// this file marks so), anything else 1 (divergence and a disk's failure whatever wraps
// them).
func status(err error) int {
	switch {
	case err == nil:
		return statusOK
	case errors.Is(err, context.Canceled):
		return statusInterrupted
	case fault.IsInput(err):
		return statusInput
	}
	return statusFailure
}

// guard runs f, turning a panic into an error, and returns f's status with its
// message written to the caller's err buffer.
func guard(errBuf *C.char, errLen C.size_t, f func() error) (st C.int) {
	defer func() {
		if p := recover(); p != nil {
			setError(errBuf, errLen, fmt.Sprintf("internal error: %v\n%s", p, debug.Stack()))
			st = statusFailure
		}
	}()
	err := f()
	if err != nil {
		setError(errBuf, errLen, err.Error())
	}
	return C.int(status(err))
}

// setError copies msg into the caller's buffer, truncated and NUL-terminated.
func setError(buf *C.char, n C.size_t, msg string) {
	if buf == nil || n == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(buf)), int(n))
	k := copy(b[:len(b)-1], msg)
	b[k] = 0
}

// goString is s as a Go string ("" for NULL).
func goString(s *C.char) string {
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// runs are the cancel functions of the calls running with an identifier (aucopt_cancel).
var runs sync.Map // uint64 → context.CancelFunc

// options are the run settings of aucopt_train's options JSON, as the command line's flags.
type options struct {
	Scale   *string `json:"scale"`
	Passes  int     `json:"passes"`
	Shuffle *bool   `json:"shuffle"`
	Budget  float64 `json:"budget_seconds"`
	Folds   int     `json:"folds"`
	Holdout float64 `json:"holdout"`
	Name    string  `json:"name"`
	MaxMem  int64   `json:"max_memory"`
	Average int     `json:"average"`
	Bins    int     `json:"bins"`
	// Calibrate, CalibrateHoldout and CalibrateFolds are train's --calibrate,
	// --calibrate-holdout and --calibrate-folds (engine.TrainConfig): the map is the
	// result's "calibration".
	Calibrate        string  `json:"calibrate"`
	CalibrateHoldout float64 `json:"calibrate_holdout"`
	CalibrateFolds   int     `json:"calibrate_folds"`
}

// parseOptions reads the options JSON ("" for the defaults).
func parseOptions(s string) (options, error) {
	var o options
	if strings.TrimSpace(s) == "" {
		return o, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		return o, inputError{fmt.Errorf("options: %w", err)}
	}
	return o, nil
}

// parseParams reads hyper-parameters: a JSON object, or key=value lines (-p's form).
func parseParams(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	if !strings.HasPrefix(s, "{") {
		var kvs []string
		for _, l := range strings.Split(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				kvs = append(kvs, l)
			}
		}
		return kvs, nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, inputError{fmt.Errorf("params: %w", err)}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kvs := make([]string, 0, len(m))
	for _, k := range keys {
		var v string
		switch x := m[k].(type) {
		case float64:
			v = strconv.FormatFloat(x, 'g', -1, 64)
		case string:
			v = x
		case bool:
			v = strconv.FormatBool(x)
		default:
			return nil, inputError{fmt.Errorf("params: %s: want a number, a string or a boolean, got %v", k, x)}
		}
		kvs = append(kvs, k+"="+v)
	}
	return kvs, nil
}

// arrays are a call's data arguments.
type arrays struct {
	layout           int
	rows, cols, nnz  int64
	values           *C.double
	indptr, indices  unsafe.Pointer
	ptrSize, idxSize int
}

// dataset makes the caller's arrays a Dataset without copying where the layout
// allows (data.NewDenseRows, data.NewCSR); labels nil for rows to score.
func (a arrays) dataset(name string, labels []float64) (*data.Dataset, error) {
	if a.rows < 1 || a.cols < 1 {
		return nil, inputError{fmt.Errorf("%s: %d rows of %d features: want at least one of each", name, a.rows, a.cols)}
	}
	var d *data.Dataset
	var err error
	switch a.layout {
	case layoutRowMajor, layoutColMajor:
		n := a.rows * a.cols
		if a.values == nil || n/a.cols != a.rows {
			return nil, inputError{fmt.Errorf("%s: no values, or %d × %d too many", name, a.rows, a.cols)}
		}
		x := unsafe.Slice((*float64)(unsafe.Pointer(a.values)), n)
		d, err = data.NewDenseRows(name, int(a.rows), int(a.cols), x, a.layout == layoutColMajor, labels, "")
	case layoutCSR:
		if a.nnz < 0 || a.indptr == nil || (a.nnz > 0 && (a.values == nil || a.indices == nil)) {
			return nil, inputError{fmt.Errorf("%s: CSR arrays missing (nnz %d)", name, a.nnz)}
		}
		var vals []float64
		if a.nnz > 0 {
			vals = unsafe.Slice((*float64)(unsafe.Pointer(a.values)), a.nnz)
		}
		d, err = csr(name, a, vals, labels)
	default:
		return nil, inputError{fmt.Errorf("%s: layout %d: want 0 (row-major), 1 (column-major) or 2 (CSR)", name, a.layout)}
	}
	if err != nil {
		return nil, inputError{err}
	}
	return d, nil
}

// csr is data.NewCSR over the caller's index arrays of their sizes.
func csr(name string, a arrays, vals, labels []float64) (*data.Dataset, error) {
	np, ni, dim := int(a.rows)+1, int(a.nnz), int(a.cols)
	switch {
	case a.ptrSize == 8 && a.idxSize == 4:
		return data.NewCSR(name, dim, unsafe.Slice((*int64)(a.indptr), np), slice[int32](a.indices, ni), vals, labels, "")
	case a.ptrSize == 8 && a.idxSize == 8:
		return data.NewCSR(name, dim, unsafe.Slice((*int64)(a.indptr), np), slice[int64](a.indices, ni), vals, labels, "")
	case a.ptrSize == 4 && a.idxSize == 4:
		return data.NewCSR(name, dim, unsafe.Slice((*int32)(a.indptr), np), slice[int32](a.indices, ni), vals, labels, "")
	case a.ptrSize == 4 && a.idxSize == 8:
		return data.NewCSR(name, dim, unsafe.Slice((*int32)(a.indptr), np), slice[int64](a.indices, ni), vals, labels, "")
	}
	return nil, fmt.Errorf("%s: index sizes %d and %d bytes: want 4 or 8", name, a.ptrSize, a.idxSize)
}

// slice is n Ts at p (nil for none).
func slice[T int32 | int64](p unsafe.Pointer, n int) []T {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*T)(p), n)
}

//export aucopt_train
func aucopt_train(algo, params, opts *C.char, layout C.int, rows, cols C.int64_t, values *C.double, nnz C.int64_t,
	indptr unsafe.Pointer, indptrSize C.int, indices unsafe.Pointer, indicesSize C.int,
	labels, sampleWeight *C.double, seed C.uint64_t, backend *C.char, call C.uint64_t,
	progress C.aucopt_progress, progressCtx unsafe.Pointer,
	out *C.uintptr_t, errBuf *C.char, errLen C.size_t) C.int {
	defer runtime.GC() // see collect
	return guard(errBuf, errLen, func() error {
		start := time.Now()
		if out == nil {
			return inputError{errors.New("no place for the model handle")}
		}
		o, err := parseOptions(goString(opts))
		if err != nil {
			return err
		}
		kvs, err := parseParams(goString(params))
		if err != nil {
			return err
		}
		a := arrays{layout: int(layout), rows: int64(rows), cols: int64(cols), nnz: int64(nnz), values: values,
			indptr: indptr, indices: indices, ptrSize: int(indptrSize), idxSize: int(indicesSize)}
		if labels == nil || a.rows < 1 {
			return inputError{errors.New("no labels, or no rows")}
		}
		y := unsafe.Slice((*float64)(unsafe.Pointer(labels)), a.rows)
		ds, err := a.dataset(o.Name, y)
		if err != nil {
			return err
		}
		if sampleWeight != nil {
			if err := setWeights(ds, unsafe.Slice((*float64)(unsafe.Pointer(sampleWeight)), a.rows)); err != nil {
				return err
			}
		}
		b, err := backends.Select(goString(backend))
		if err != nil {
			return inputError{err}
		}
		if b != nil {
			defer b.Close()
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if call != 0 {
			runs.Store(uint64(call), cancel)
			defer runs.Delete(uint64(call))
		}
		hyper, err := solver.ParamsOf(goString(algo), kvs)
		if err != nil {
			return err
		}
		cfg := engine.TrainConfig{Algo: goString(algo), Params: hyper, Dataset: ds, Passes: o.Passes, Shuffle: true,
			Scale: data.ScaleAuto, Seed: uint64(seed), Backend: b, MaxMemory: o.MaxMem, Average: o.Average, Bins: o.Bins,
			Calibrate: o.Calibrate, CalibrateHoldout: o.CalibrateHoldout, CalibrateFolds: o.CalibrateFolds}
		if o.Shuffle != nil {
			cfg.Shuffle = *o.Shuffle
		}
		if progress != nil {
			cfg.Progress = func(p solver.Progress) {
				done := C.int(0)
				if p.Done {
					done = 1
				}
				if C.aucopt_call_progress(progress, progressCtx, C.int(p.Pass), C.int64_t(p.PassSeen), C.int64_t(p.Seen),
					C.double(p.Elapsed.Seconds()), done) != 0 {
					cancel()
				}
			}
		}
		if o.Scale != nil {
			cfg.Scale = *o.Scale
		}
		var res *engine.TrainResult
		var result any
		if cfg.Algo == engine.AlgoAuto {
			ar, err := engine.Auto(ctx, engine.AutoConfig{TrainConfig: cfg, Budget: time.Duration(o.Budget * float64(time.Second)),
				Folds: o.Folds, Holdout: o.Holdout})
			if err != nil {
				return err
			}
			res, result = ar.TrainResult, ar
		} else {
			if o.Budget != 0 || o.Folds != 0 || o.Holdout != 0 {
				return inputError{errors.New("options budget_seconds, folds and holdout are for algo auto")}
			}
			if res, err = engine.Train(ctx, cfg); err != nil {
				return err
			}
			result = res
		}
		rb, err := json.Marshal(result)
		if err != nil {
			return err
		}
		// The call's own time beside the training's (Seconds): what the caller's
		// overhead is measured against.
		var m map[string]any
		if err := json.Unmarshal(rb, &m); err != nil {
			return err
		}
		m["call_seconds"] = time.Since(start).Seconds()
		if rb, err = json.Marshal(m); err != nil {
			return err
		}
		*out = C.uintptr_t(cgo.NewHandle(&handle{m: res.Model(), result: rb}))
		return nil
	})
}

// collect: aucopt_train and aucopt_score end with a garbage collection. A run's scaled
// copy of the rows (engine's min-max scaling, the model's on the rows it scores) is
// garbage once the call returns, but the collector would reclaim it only when the heap
// next doubles: the next call's copy would be made beside it. A fit followed by a score
// of the same 10⁶ × 100 rows (the Python package's fit with calibration="train") added
// 1.59 GiB to the peak RSS over the 0.75 GiB array without it, 0.86 GiB (one scaled
// copy) with it. A collection of a heap that holds little else takes milliseconds.

// setWeights gives ds the sample weights w (the caller's array, read during the call),
// unless they are all one positive value: uniform weights are the unweighted problem
// of every learner (each objective divides by the classes' weight sums, or takes no
// weights), and are dropped, so that any algorithm takes them and the bits are the
// unweighted fit's. Other weights go to the engine, which refuses them, naming why,
// for an algorithm that does not take them (solver.TakesSampleWeights).
func setWeights(ds *data.Dataset, w []float64) error {
	uniform := true
	for _, v := range w {
		if !(v > 0) || math.IsInf(v, 0) || v != w[0] {
			uniform = false
			break
		}
	}
	if uniform {
		return nil
	}
	if err := ds.SetWeights(w); err != nil {
		return inputError{fmt.Errorf("sample_weight: %w", err)}
	}
	return nil
}

// lookup returns the model of handle h.
func lookup(h C.uintptr_t) (*handle, error) {
	if h == 0 {
		return nil, inputError{errors.New("no model (a null handle)")}
	}
	var hd *handle
	var ok bool
	func() {
		defer func() { recover() }() // cgo.Handle.Value panics on a handle it does not know
		hd, ok = cgo.Handle(h).Value().(*handle)
	}()
	if !ok {
		return nil, inputError{fmt.Errorf("%#x is not a model handle (freed already?)", uintptr(h))}
	}
	return hd, nil
}

//export aucopt_score
func aucopt_score(h C.uintptr_t, layout C.int, rows, cols C.int64_t, values *C.double, nnz C.int64_t,
	indptr unsafe.Pointer, indptrSize C.int, indices unsafe.Pointer, indicesSize C.int,
	scores *C.double, errBuf *C.char, errLen C.size_t) C.int {
	defer runtime.GC() // see collect
	return guard(errBuf, errLen, func() error {
		hd, err := lookup(h)
		if err != nil {
			return err
		}
		a := arrays{layout: int(layout), rows: int64(rows), cols: int64(cols), nnz: int64(nnz), values: values,
			indptr: indptr, indices: indices, ptrSize: int(indptrSize), idxSize: int(indicesSize)}
		ds, err := a.dataset("", nil)
		if err != nil {
			return err
		}
		if scores == nil {
			return inputError{errors.New("no place for the scores")}
		}
		s, err := hd.m.Score(ds)
		if err != nil {
			return err
		}
		copy(unsafe.Slice((*float64)(unsafe.Pointer(scores)), len(s)), s)
		return nil
	})
}

//export aucopt_model_json
func aucopt_model_json(h C.uintptr_t, what C.int, out **C.char, n *C.size_t, errBuf *C.char, errLen C.size_t) C.int {
	return guard(errBuf, errLen, func() error {
		hd, err := lookup(h)
		if err != nil {
			return err
		}
		if out == nil || n == nil {
			return inputError{errors.New("no place for the JSON")}
		}
		var b []byte
		switch what {
		case 0:
			if b, err = hd.m.MarshalJSON(); err != nil {
				return err
			}
		case 1:
			b = hd.result
			if b == nil {
				b = []byte("null")
			}
		default:
			return inputError{fmt.Errorf("what %d: want 0 (the model) or 1 (the training result)", what)}
		}
		*out, *n = (*C.char)(C.CBytes(b)), C.size_t(len(b))
		return nil
	})
}

//export aucopt_model_from_json
func aucopt_model_from_json(js *C.char, n C.size_t, out *C.uintptr_t, errBuf *C.char, errLen C.size_t) C.int {
	return guard(errBuf, errLen, func() error {
		if js == nil || out == nil {
			return inputError{errors.New("no JSON, or no place for the model handle")}
		}
		m, err := model.Decode(C.GoBytes(unsafe.Pointer(js), C.int(n)), "model JSON")
		if err != nil {
			return err
		}
		*out = C.uintptr_t(cgo.NewHandle(&handle{m: m}))
		return nil
	})
}

//export aucopt_model_read
func aucopt_model_read(path *C.char, out *C.uintptr_t, errBuf *C.char, errLen C.size_t) C.int {
	return guard(errBuf, errLen, func() error {
		if out == nil {
			return inputError{errors.New("no place for the model handle")}
		}
		m, err := model.Read(goString(path))
		if err != nil {
			return err
		}
		*out = C.uintptr_t(cgo.NewHandle(&handle{m: m}))
		return nil
	})
}

//export aucopt_model_write
func aucopt_model_write(h C.uintptr_t, path *C.char, errBuf *C.char, errLen C.size_t) C.int {
	return guard(errBuf, errLen, func() error {
		hd, err := lookup(h)
		if err != nil {
			return err
		}
		return hd.m.Write(goString(path))
	})
}

//export aucopt_model_free
func aucopt_model_free(h C.uintptr_t) {
	if _, err := lookup(h); err == nil {
		cgo.Handle(h).Delete()
	}
}

//export aucopt_free
func aucopt_free(p unsafe.Pointer) { C.free(p) }

//export aucopt_cancel
func aucopt_cancel(call C.uint64_t) {
	if c, ok := runs.Load(uint64(call)); ok {
		c.(context.CancelFunc)()
	}
}
