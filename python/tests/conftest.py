"""Shared fixtures: the aucopt command line (built once with the local Go toolchain, or
$AUCOPT_CLI) and small data sets."""

import os
import shutil
import subprocess

import numpy as np
import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session")
def cli(tmp_path_factory):
    """The path of an aucopt binary: $AUCOPT_CLI, else built from the repository."""
    path = os.environ.get("AUCOPT_CLI")
    if path:
        return path
    go = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go") else None)
    if go is None or not os.path.exists(os.path.join(REPO, "go.mod")):
        pytest.skip("no aucopt command line: set AUCOPT_CLI, or run from a clone with the Go toolchain")
    out = str(tmp_path_factory.mktemp("cli") / "aucopt")
    subprocess.check_call([go, "build", "-o", out, "./cmd/aucopt"], cwd=REPO)
    return out


def rows(n=2000, d=12, seed=0, density=1.0):
    """n×d values with six decimals (exact through a LIBSVM file's text), a share
    density of them non-zero, and binary labels that depend on them."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)) * np.arange(1, d + 1), 6)
    if density < 1:
        X[rng.random(size=X.shape) >= density] = 0
    w = rng.normal(size=d)
    y = np.where((X / np.arange(1, d + 1)) @ w + rng.normal(size=n) > 0, 1, -1)
    return X, y
