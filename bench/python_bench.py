#!/usr/bin/env python3
"""The Python package against scikit-learn's linear classifiers: fit time and test AUC on
a9a and w8a (../shared/data, xz-decompressed to a temporary directory and read with
sklearn.datasets.load_svmlight_file) and, with --ctr ROWS, a hashed click-through matrix,
side by side in one run, and the package's call overhead against the library's own time.
Prints bench/README's markdown tables.

    /tmp/venv/bin/python bench/python_bench.py [--data ../shared/data] [--repeat 3]
    /tmp/venv/bin/python bench/python_bench.py --sets ctr --ctr 1000000 --repeat 1

a9a has its own test file; w8a has none here and is split 70/30, stratified, seed 0. The
click-through set (--ctr ROWS) is `aucopt gen`'s click log of ROWS training rows and
100,000 test rows of the same truth (--first-row), its 22 fields hashed into 2^13 buckets
by `aucopt convert --label click --hash-bits 13` (the MBA paper's setting, as
bench/ctr.sh), read as CSR; the aucopt binary is --aucopt (default: `go build` of this
checkout into the temporary directory). OPAUC is left out there: its d x d covariance
update per row is 8,192^2 multiply-adds, hours for 10^6 rows (the low-rank opaucr is the
paper's answer for such d). Fit times are the best of --repeat fits (AutoAUC: one, its
budget is its time).
"""

import argparse
import lzma
import os
import shutil
import subprocess
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


def load_ctr(rows, aucopt_bin, tmp):
    """The hashed click-through set: aucopt gen, then aucopt convert to LIBSVM text."""
    here = os.path.dirname(os.path.abspath(__file__))
    if not aucopt_bin:
        aucopt_bin = os.path.join(tmp, "aucopt")
        subprocess.run(["go", "build", "-o", aucopt_bin, "./cmd/aucopt"], cwd=os.path.join(here, ".."), check=True)
    out = []
    for name, n, first in (("train", rows, 0), ("test", 100000, rows)):
        csv = os.path.join(tmp, f"ctr-{name}.csv")
        svm = os.path.join(tmp, f"ctr-{name}.svm")
        subprocess.run([aucopt_bin, "gen", "--rows", str(n), "--first-row", str(first), "--out", csv],
                       check=True, stdout=subprocess.DEVNULL)
        subprocess.run([aucopt_bin, "convert", "--label", "click", "--hash-bits", "13", csv, svm],
                       check=True, stdout=subprocess.DEVNULL)
        os.remove(csv)
        X, y = load_svmlight_file(svm, n_features=1 << 13)
        os.remove(svm)
        out += [X, y]
    Xtr, ytr, Xte, yte = out
    return Xtr, Xte, ytr, yte


def load(data, tmp, names):
    def read(path):
        out = os.path.join(tmp, os.path.basename(path)[:-3])
        with lzma.open(path) as f, open(out, "wb") as g:
            shutil.copyfileobj(f, g)
        return out

    sets = {}
    if "a9a" in names:
        a = [read(os.path.join(data, "a9a", f)) for f in ("a9a.txt.xz", "a9a.t.xz")]
        Xtr, ytr = load_svmlight_file(a[0], n_features=123)
        Xte, yte = load_svmlight_file(a[1], n_features=123)
        sets["a9a"] = (Xtr, Xte, ytr, yte)
    if "w8a" in names:
        X, y = load_svmlight_file(read(os.path.join(data, "w8a", "w8a.xz")), n_features=300)
        sets["w8a"] = tuple(train_test_split(X, y, test_size=0.3, stratify=y, random_state=0))
    return sets


def algos(name):
    """The AUCClassifier algorithms run on a set (OPAUC not on the 8,192 hashed features)."""
    return ("ls-auc", "spam-l2") if name == "ctr" else ("ls-auc", "opauc", "spam-l2")


def models(name):
    return [(f"AUCClassifier {a}", lambda a=a: aucopt.AUCClassifier(algo=a)) for a in algos(name)] + [
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
    ap.add_argument("--sets", default="a9a,w8a", help="comma-separated: a9a, w8a, ctr")
    ap.add_argument("--ctr", type=int, default=0, help="rows of the click-through set (with ctr in --sets)")
    ap.add_argument("--aucopt", default="", help="the aucopt binary for gen and convert (default: go build)")
    args = ap.parse_args()
    names = set(args.sets.split(","))
    if "ctr" in names and args.ctr <= 0:
        ap.error("--sets ctr needs --ctr ROWS (e.g. 1000000)")
    if names - {"a9a", "w8a", "ctr"}:
        ap.error(f"--sets: unknown {sorted(names - {'a9a', 'w8a', 'ctr'})}")
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        sets = load(args.data, tmp, names)
        if "ctr" in names:
            sets["ctr"] = load_ctr(args.ctr, args.aucopt, tmp)
    print("| data | model | fit s | test AUC |")
    print("|---|---|---:|---:|")
    for name, (Xtr, Xte, ytr, yte) in sets.items():
        for label, make in models(name):
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
        for algo in algos(name):
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
