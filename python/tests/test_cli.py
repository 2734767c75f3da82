"""The package against the command line: the same weights as `aucopt train` on the same
rows and seed, bit for bit; the CLI's model files load here and the package's there."""

import json
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.datasets import dump_svmlight_file

import aucopt
from conftest import rows

# (algorithm, parameters, input layout, density: a batch learner reads a dense file
# dense, an online one reads every file sparse)
CASES = [
    ("ls-auc", {}, "dense", 1.0),
    ("ls-auc", {}, "csr", 0.3),
    ("ls-auc", {"lambda": 0.01}, "csr", 0.3),
    ("opauc", {}, "csr", 1.0),
    ("spam-l2", {"eta": 0.5}, "csr", 0.5),
    ("olr", {}, "csr", 0.5),
    ("mba-l2", {}, "dense", 1.0),
    # NumPy's dense rows where the CLI reads the file sparse: the same bits all the same
    # (min-max scaled rows, and zeros that add exact zeros).
    ("opauc", {}, "dense", 0.5),
    ("unilog", {}, "dense", 0.5),
]


@pytest.mark.parametrize("algo,params,kind,density", CASES)
def test_same_weights_as_cli(cli, tmp_path, algo, params, kind, density):
    X, y = rows(1500, 10, seed=3, density=density)
    path = tmp_path / "train.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    model = tmp_path / "m.json"
    cmd = [cli, "train", "--algo", algo, "--data", str(path), "--seed", "7", "--model", str(model), "--quiet"]
    for k, v in params.items():
        cmd += ["-p", f"{k}={v}"]
    subprocess.run(cmd, check=True, capture_output=True)
    want = aucopt.load_model(str(model))
    Xin = sp.csr_matrix(X) if kind == "csr" else X
    clf = aucopt.AUCClassifier(algo=algo, seed=7, **params).fit(Xin, y)
    got = clf.model_
    assert got.weights.tobytes() == want.weights.tobytes(), (got.weights, want.weights)
    assert got.params == want.params and got.scaling == want.scaling
    # The CLI's model scores rows here as `aucopt predict` does, and the package's model there.
    np.testing.assert_array_equal(want.decision_function(Xin), got.decision_function(Xin))
    ours = tmp_path / "ours.json"
    got.save(str(ours))
    out = subprocess.run([cli, "predict", "--model", str(ours), "--data", str(path), "--quiet"], check=True,
                         capture_output=True, text=True).stdout
    lines = out.splitlines()
    assert lines[0] == "label,score"
    cli_scores = np.array([float(line.split(",")[1]) for line in lines[1:]])
    np.testing.assert_array_equal(cli_scores, got.decision_function(Xin))
    assert json.loads(ours.read_text())["algorithm"] == algo


def test_errors_are_classified(tmp_path):
    X, y = rows(100, 3)
    with pytest.raises(aucopt.AucoptInputError, match="unknown algorithm"):
        aucopt.AUCClassifier(algo="nope").fit(X, y)
    with pytest.raises(aucopt.AucoptInputError, match="bad parameter|unknown"):
        aucopt.AUCClassifier(algo="ls-auc", nope=1).fit(X, y)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(aucopt.AucoptInputError, match="bad model file"):
        aucopt.load_model(str(bad))
    with pytest.raises(aucopt.AucoptInputError):
        aucopt.load_model(str(tmp_path / "missing.json"))
    clf = aucopt.AUCClassifier().fit(X, y)
    with pytest.raises(ValueError):
        clf.model_.decision_function(X[:, :2])  # another feature space
