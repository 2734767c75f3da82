#!/usr/bin/env python3
"""The Python package against scikit-learn's linear classifiers: fit time and test AUC on
a9a and w8a (../shared/data, xz-decompressed to a temporary directory and read with
sklearn.datasets.load_svmlight_file), side by side in one run, and the package's call
overhead against the library's own time. Prints bench/README's markdown tables.

    /tmp/venv/bin/python bench/python_bench.py [--data ../shared/data] [--repeat 3]

a9a has its own test file; w8a has none here and is split 70/30, stratified, seed 0. Fit
times are the best of --repeat fits (AutoAUC: one, its budget is its time).
"""

import argparse
import lzma
import os
import shutil
import tempfile
import time
import warnings

import numpy as np
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

import aucopt
from aucopt import _lib


def load(data, tmp):
    def read(path):
        out = os.path.join(tmp, os.path.basename(path)[:-3])
        with lzma.open(path) as f, open(out, "wb") as g:
            shutil.copyfileobj(f, g)
        return out

    sets = {}
    a = [read(os.path.join(data, "a9a", f)) for f in ("a9a.txt.xz", "a9a.t.xz")]
    Xtr, ytr = load_svmlight_file(a[0], n_features=123)
    Xte, yte = load_svmlight_file(a[1], n_features=123)
    sets["a9a"] = (Xtr, Xte, ytr, yte)
    X, y = load_svmlight_file(read(os.path.join(data, "w8a", "w8a.xz")), n_features=300)
    sets["w8a"] = tuple(train_test_split(X, y, test_size=0.3, stratify=y, random_state=0))
    return sets


def models():
    return [
        ("AUCClassifier ls-auc", lambda: aucopt.AUCClassifier(algo="ls-auc")),
        ("AUCClassifier opauc", lambda: aucopt.AUCClassifier(algo="opauc")),
        ("AUCClassifier spam-l2", lambda: aucopt.AUCClassifier(algo="spam-l2")),
        ("AutoAUC budget=10", lambda: aucopt.AutoAUC(budget=10)),
        ("LogisticRegression liblinear", lambda: LogisticRegression(solver="liblinear")),
        ("LogisticRegression lbfgs", lambda: LogisticRegression(solver="lbfgs", max_iter=1000)),
        ("SGDClassifier (hinge)", lambda: SGDClassifier(random_state=0)),
    ]


def best(f, repeat):
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        r = f()
        ts.append(time.perf_counter() - t)
    return min(ts), r


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        sets = load(args.data, tmp)
    print("| data | model | fit s | test AUC |")
    print("|---|---|---:|---:|")
    for name, (Xtr, Xte, ytr, yte) in sets.items():
        for label, make in models():
            t, m = best(lambda: make().fit(Xtr, ytr), 1 if "Auto" in label else args.repeat)
            auc = roc_auc_score(yte, m.decision_function(Xte))
            extra = f" (won: {m.model_.algo})" if "Auto" in label else ""
            print(f"| {name} | {label}{extra} | {t:.3f} | {auc:.4f} |")
    # The package's own cost: the ctypes call as Python makes it (the arrays passed by
    # pointer, the model's JSON read back) against the time inside the library's call
    # (aucopt_train: the in-memory dataset checked and made, engine.Train) and the
    # training alone (engine's TrainResult.Seconds).
    print()
    print("| data | algorithm | Python call s | library call s | training s | Python / library | fit with calibration s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, (Xtr, Xte, ytr, yte) in sets.items():
        y01 = (ytr == 1).astype(np.float64)
        for algo in ("ls-auc", "opauc", "spam-l2"):
            calls = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                h, res = _lib.train(algo, {}, {"scale": "auto", "passes": 0, "shuffle": True}, Xtr, y01, 1, None)
                calls.append((time.perf_counter() - t, res["call_seconds"], res["seconds"]))
                del h
            py, lib, tr = min(calls)
            fit, _ = best(lambda: aucopt.AUCClassifier(algo=algo).fit(Xtr, ytr), args.repeat)
            print(f"| {name} | {algo} | {py:.4f} | {lib:.4f} | {tr:.4f} | {py / lib:.2f}× | {fit:.3f} |")


if __name__ == "__main__":
    main()
