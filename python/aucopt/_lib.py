"""ctypes binding of libaucopt (capi/ in the repository, built with go build -buildmode=c-shared).

The library is found at $AUCOPT_LIB when set, else beside this file (where setup.py's
build step puts it). Every call returns the command line's exit-status class (0, 1, 2,
130) and writes its message into a buffer of ours; see capi/capi.go.
"""

import ctypes
import itertools
import json
import os
import threading

import numpy as np

__all__ = ["AucoptError", "AucoptInputError", "library", "train", "score", "Handle"]

_ERRLEN = 8192
# aucopt_progress: (ctx, pass, examples in the pass, examples in the run, seconds, pass done) -> 0 to go on
PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                            ctypes.c_double, ctypes.c_int)
_calls = itertools.count(1)
_lock = threading.Lock()
_lib = None


class AucoptError(RuntimeError):
    """A failure of the engine (exit-status class 1: divergence, I/O)."""

    status = 1


class AucoptInputError(AucoptError, ValueError):
    """The caller's input cannot work (exit-status class 2): an unknown algorithm or
    parameter, a malformed array, one class, a file that is not a model."""

    status = 2


def library():
    """The loaded libaucopt (ctypes.CDLL), loaded on first use."""
    global _lib
    with _lock:
        if _lib is None:
            path = os.environ.get("AUCOPT_LIB") or os.path.join(os.path.dirname(__file__), "libaucopt.so")
            if not os.path.exists(path):
                raise OSError(
                    f"libaucopt not found at {path}: install the package with `pip install ./python` "
                    "(which builds it with the local Go toolchain) or set AUCOPT_LIB to a libaucopt.so "
                    "built by `go build -buildmode=c-shared -o libaucopt.so ./capi`"
                )
            _lib = _declare(ctypes.CDLL(path))
        return _lib


def _declare(lib):
    c = ctypes
    p, i64, i32, u64, up = c.c_void_p, c.c_int64, c.c_int, c.c_uint64, c.c_size_t
    data = [i32, i64, i64, p, i64, p, i32, p, i32]  # layout, rows, cols, values, nnz, indptr, size, indices, size
    lib.aucopt_train.argtypes = [c.c_char_p, c.c_char_p, c.c_char_p, *data, p, p, u64, c.c_char_p, u64,
                                 PROGRESS, p, c.POINTER(c.c_size_t), c.c_char_p, c.c_size_t]
    lib.aucopt_train.restype = i32
    lib.aucopt_score.argtypes = [up, *data, p, c.c_char_p, c.c_size_t]
    lib.aucopt_score.restype = i32
    lib.aucopt_model_json.argtypes = [up, i32, c.POINTER(c.c_void_p), c.POINTER(c.c_size_t), c.c_char_p, c.c_size_t]
    lib.aucopt_model_json.restype = i32
    lib.aucopt_model_from_json.argtypes = [c.c_char_p, c.c_size_t, c.POINTER(c.c_size_t), c.c_char_p, c.c_size_t]
    lib.aucopt_model_from_json.restype = i32
    lib.aucopt_model_read.argtypes = [c.c_char_p, c.POINTER(c.c_size_t), c.c_char_p, c.c_size_t]
    lib.aucopt_model_read.restype = i32
    lib.aucopt_model_write.argtypes = [up, c.c_char_p, c.c_char_p, c.c_size_t]
    lib.aucopt_model_write.restype = i32
    lib.aucopt_model_free.argtypes = [up]
    lib.aucopt_model_free.restype = None
    lib.aucopt_free.argtypes = [p]
    lib.aucopt_free.restype = None
    lib.aucopt_cancel.argtypes = [u64]
    lib.aucopt_cancel.restype = None
    return lib


def _check(status, err):
    if status == 0:
        return
    msg = err.value.decode("utf-8", "replace")
    if status == 130:
        raise KeyboardInterrupt(msg)
    if status == 2:
        raise AucoptInputError(msg)
    raise AucoptError(msg)


def _errbuf():
    return ctypes.create_string_buffer(_ERRLEN)


class Arrays:
    """A matrix as the C ABI takes it: the pointers of arrays kept alive by this object
    (X itself when its layout allows, else the one conversion made)."""

    def __init__(self, X):
        import scipy.sparse as sp

        if sp.issparse(X):
            if X.format != "csr":
                X = X.tocsr()  # CSC and others: one conversion, a copy
            if not X.has_canonical_format:
                X = X.copy()
                X.sum_duplicates()  # sorted, unique indices (a copy of ours, not the caller's)
            values = X.data if X.data.dtype == np.float64 else X.data.astype(np.float64)
            indptr, indices = X.indptr, X.indices
            if indptr.dtype not in (np.int32, np.int64):
                indptr = indptr.astype(np.int64)
            if indices.dtype not in (np.int32, np.int64):
                indices = indices.astype(np.int64)
            self.keep = (values, indptr, indices)
            self.layout, (self.rows, self.cols) = 2, X.shape
            self.values, self.nnz = values.ctypes.data, values.shape[0]
            self.indptr, self.indptr_size = indptr.ctypes.data, indptr.dtype.itemsize
            self.indices, self.indices_size = indices.ctypes.data, indices.dtype.itemsize
            return
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"expected a 2-d array, got {X.ndim} dimensions")
        if X.dtype != np.float64:
            X = X.astype(np.float64, order="K")  # converted only when needed
        if X.flags.c_contiguous:
            self.layout = 0
        elif X.flags.f_contiguous:
            self.layout = 1  # the library makes the row-major copy it needs
        else:
            X = np.ascontiguousarray(X)
            self.layout = 0
        self.keep = (X,)
        self.rows, self.cols = X.shape
        self.values, self.nnz = X.ctypes.data, 0
        self.indptr = self.indices = None
        self.indptr_size = self.indices_size = 0

    def args(self):
        return [self.layout, self.rows, self.cols, self.values, self.nnz, self.indptr, self.indptr_size,
                self.indices, self.indices_size]


class Handle:
    """A model of the library's (a runtime/cgo.Handle), freed with this object."""

    def __init__(self, h):
        self.h = h
        self._free = library().aucopt_model_free

    def __del__(self):
        if getattr(self, "h", 0):
            self._free(self.h)
            self.h = 0

    def json(self, what=0):
        out, n, err = ctypes.c_void_p(), ctypes.c_size_t(), _errbuf()
        lib = library()
        _check(lib.aucopt_model_json(self.h, what, ctypes.byref(out), ctypes.byref(n), err, _ERRLEN), err)
        try:
            return ctypes.string_at(out, n.value)
        finally:
            lib.aucopt_free(out)

    def write(self, path):
        err = _errbuf()
        _check(library().aucopt_model_write(self.h, os.fsencode(path), err, _ERRLEN), err)

    @classmethod
    def from_json(cls, b):
        if isinstance(b, str):
            b = b.encode()
        h, err = ctypes.c_size_t(), _errbuf()
        _check(library().aucopt_model_from_json(b, len(b), ctypes.byref(h), err, _ERRLEN), err)
        return cls(h.value)

    @classmethod
    def read(cls, path):
        h, err = ctypes.c_size_t(), _errbuf()
        _check(library().aucopt_model_read(os.fsencode(path), ctypes.byref(h), err, _ERRLEN), err)
        return cls(h.value)

    def score(self, X):
        a = Arrays(X)
        out = np.empty(a.rows, dtype=np.float64)
        err = _errbuf()
        _check(library().aucopt_score(self.h, *a.args(), out.ctypes.data, err, _ERRLEN), err)
        return out


def train(algo, params, options, X, labels, seed, backend, progress=None, sample_weight=None):
    """Train algo on the rows of X with labels (float64, the files' label rules) and return
    (Handle, the training result as a dict). params: {key: value}; options: the run's
    settings (capi's options JSON); sample_weight: None or one weight per row (capi's
    sample_weight: taken by the algorithms whose objective takes them, all one value
    by any); progress, when set, is called as
    progress(pass, examples in the pass, examples in the run, seconds, pass done) while
    an online learner trains. Ctrl-C during the call cancels the run and raises
    KeyboardInterrupt: the call runs on a thread of its own while this one waits."""
    lib = library()
    a = Arrays(X)
    labels = np.ascontiguousarray(labels, dtype=np.float64)
    if labels.shape != (a.rows,):
        raise ValueError(f"{labels.shape[0]} labels for {a.rows} rows")
    sw = None
    if sample_weight is not None:
        sw = np.ascontiguousarray(sample_weight, dtype=np.float64)
        if sw.shape != (a.rows,):
            raise ValueError(f"{sw.shape[0]} sample weights for {a.rows} rows")
    call = next(_calls)
    h, err = ctypes.c_size_t(), _errbuf()
    out = {}
    cb = PROGRESS()  # NULL
    if progress is not None:
        def report(_ctx, pass_, pass_seen, seen, seconds, done):
            progress(pass_, pass_seen, seen, seconds, bool(done))
            return 0

        cb = PROGRESS(report)  # kept alive by this frame for the call

    def run():
        out["status"] = lib.aucopt_train(
            algo.encode(), json.dumps(params).encode(), json.dumps(options).encode(), *a.args(),
            labels.ctypes.data, None if sw is None else sw.ctypes.data, seed, (backend or "").encode(), call, cb, None, ctypes.byref(h), err, _ERRLEN)

    t = threading.Thread(target=run, name="aucopt-train", daemon=True)
    t.start()
    try:
        while t.is_alive():
            t.join(0.05)
    except KeyboardInterrupt:
        lib.aucopt_cancel(call)
        t.join()  # the arrays must outlive the call
        if out.get("status") == 0:
            Handle(h.value)  # freed at once
        raise
    _check(out["status"], err)
    handle = Handle(h.value)
    return handle, json.loads(handle.json(1))
