"""The Go runtime in the process and Python's signals: after the library is loaded and
has trained, SIGINT still raises KeyboardInterrupt (Go's c-shared runtime leaves the
asynchronous signals to the host), and Ctrl-C during a fit cancels the run in the
library and raises KeyboardInterrupt at once, not when the fit would have ended."""

import os
import signal
import subprocess
import sys
import time

import pytest

CHILD = r"""
import os, signal, sys, time
import numpy as np
import aucopt
rng = np.random.default_rng(0)
X = rng.standard_normal((3000, 5)); y = (X[:, 0] > 0).astype(int)
aucopt.AUCClassifier().fit(X, y)
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
    print("no KeyboardInterrupt", flush=True)
except KeyboardInterrupt:
    print("KeyboardInterrupt after loading", flush=True)
X = rng.standard_normal((200_000, 200)); y = (X[:, 0] > 0).astype(int)
print("fitting", flush=True)
t = time.time()
try:
    aucopt.AUCClassifier(algo="opauc", passes=100, calibration="train").fit(X, y)
    print("fit ended", flush=True)
except KeyboardInterrupt:
    print("KeyboardInterrupt in fit after %.1f s" % (time.time() - t), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c():
    p = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=os.environ)
    assert p.stdout.readline().strip() == "KeyboardInterrupt after loading"
    assert p.stdout.readline().strip() == "fitting"
    time.sleep(1.5)
    sent = time.time()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert out.startswith("KeyboardInterrupt in fit"), (out, err)
    assert time.time() - sent < 10, "the fit was not cancelled"
