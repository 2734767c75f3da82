"""A fit reads NumPy's array where it lies: a 10⁶ × 100 float64 C-ordered fit with the
estimator's defaults adds less than 10 % of the array's size to the process's peak RSS
(VmHWM), measured in a fresh subprocess so that nothing else of the test run counts."""

import json
import os
import subprocess
import sys

import pytest

CHILD = r"""
import json, sys, numpy as np
def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
import aucopt
rows, dim = int(sys.argv[1]), int(sys.argv[2])
kw = json.loads(sys.argv[3])
rng = np.random.default_rng(0)
X = np.empty((rows, dim))
for i in range(0, rows, 100_000):  # filled in slices: no temporary of the array's size
    X[i:i + 100_000] = rng.standard_normal((min(100_000, rows - i), dim))
y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)
aucopt.AUCClassifier(algo="ls-auc").fit(X[:1000], y[:1000])  # the library loaded, its runtime started
before = hwm()
clf = aucopt.AUCClassifier(algo="ls-auc", **kw).fit(X, y)
print(json.dumps({"array": X.nbytes, "before": before, "after": hwm(), "auc": clf.score(X[:10000], y[:10000])}))
"""


def peak(rows, dim, **kw):
    out = subprocess.run([sys.executable, "-c", CHILD, str(rows), str(dim), json.dumps(kw)], check=True,
                         capture_output=True, text=True, env=os.environ).stdout
    return json.loads(out)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="VmHWM needs Linux's /proc")
def test_fit_does_not_copy_the_array():
    if os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") < 4 << 30:
        pytest.skip("the 800 MB array needs a machine with 4 GB of memory or more")
    # The estimator's defaults: min-max scaling (folded into ls-auc's class moments, not
    # a scaled copy: issue 40) and the held-out calibration (the engine's, whose fit on
    # 80 % of the rows names them instead of copying them).
    r = peak(1_000_000, 100)
    added = r["after"] - r["before"]
    assert r["auc"] > 0.9
    assert added < 0.1 * r["array"], f"the fit added {added / 2**20:.0f} MiB to the peak, the array is {r['array'] / 2**20:.0f} MiB"
