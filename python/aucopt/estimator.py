"""scikit-learn estimators over the aucopt engine."""

import json
import sys

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import roc_auc_score
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from . import _lib

__all__ = ["AUCClassifier", "AutoAUC", "Model", "load_model"]


class Model:
    """A trained aucopt model: the model file of `aucopt train --model` (JSON, format 1).

    score(x) = w·T(x), T the scaling fitted on the training data, as `aucopt predict`
    computes it. Pickled as its JSON.
    """

    def __init__(self, handle):
        self._handle = handle
        self.json = handle.json(0).decode()
        f = json.loads(self.json)
        self.algo = f["algorithm"]
        self.params = f.get("params", {})
        self.features = f["features"]
        self.scaling = f["scaling"]["kind"]
        self.notes = f.get("notes", [])
        self.weights = _weights(f["weights"], self.features if "bins" not in f else None)

    @classmethod
    def from_json(cls, text):
        """The model of a model file's JSON text (str or bytes)."""
        return cls(_lib.Handle.from_json(text))

    def save(self, path):
        """Write the model file to path (atomically), as `aucopt train --model` does."""
        self._handle.write(path)

    def decision_function(self, X):
        """The scores w·T(x) of the rows of X (NumPy, SciPy sparse, pandas)."""
        return self._handle.score(_numeric(X))

    def __getstate__(self):
        return {"json": self.json}

    def __setstate__(self, state):
        self.__init__(_lib.Handle.from_json(state["json"]))

    def __repr__(self):
        return f"Model(algo={self.algo!r}, features={self.features}, scaling={self.scaling!r})"


def load_model(path):
    """Read a model file written by `aucopt train --model` (or Model.save)."""
    return Model(_lib.Handle.read(path))


def _weights(w, width):
    if isinstance(w, dict):  # sparse form: 1-based indices
        out = np.zeros(width if width is not None else max(w["index"], default=0), dtype=np.float64)
        out[np.asarray(w["index"], dtype=np.int64) - 1] = w["value"]
        return out
    return np.asarray(w, dtype=np.float64)


def _numeric(X):
    """X with pandas frames refused when a column is not numeric (the command line
    hashes such columns of a CSV; here, encode them first)."""
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover
        return X
    if isinstance(X, pd.DataFrame):
        bad = [str(c) for c, t in X.dtypes.items() if not pd.api.types.is_numeric_dtype(t)]
        if bad:
            raise ValueError(
                f"columns {', '.join(bad)} are not numeric (categorical or text): aucopt's estimators take numeric "
                "features; encode them first (e.g. sklearn.preprocessing.OneHotEncoder, or "
                "sklearn.feature_extraction.FeatureHasher as `aucopt train --categorical` hashes them)"
            )
    return X


# The share of the training rows the held-out calibration holds out.
_HOLDOUT = 0.2


def _platt(scores, y, iters=100):
    """Platt's sigmoid P(y=1|s) = 1/(1+exp(-(a·s+b))) fitted by Newton's method with
    Platt's target smoothing (Lin, Lin and Weng 2007). Returns (a, b)."""
    s = np.asarray(scores, dtype=np.float64)
    pos = y == 1
    npos, nneg = int(pos.sum()), int((~pos).sum())
    t = np.where(pos, (npos + 1.0) / (npos + 2.0), 1.0 / (nneg + 2.0))
    a, b = 0.0, np.log((nneg + 1.0) / (npos + 1.0)) * -1.0
    for _ in range(iters):
        z = a * s + b
        p = 1.0 / (1.0 + np.exp(-z))
        w = np.maximum(p * (1 - p), 1e-12)
        g = np.array([np.dot(s, p - t), np.sum(p - t)])
        h = np.array([[np.dot(w * s, s) + 1e-12, np.sum(w * s)], [np.sum(w * s), np.sum(w) + 1e-12]])
        step = np.linalg.solve(h, g)
        a, b = a - step[0], b - step[1]
        if np.max(np.abs(step)) < 1e-10:
            break
    return float(a), float(b)


def _report(pass_, pass_seen, seen, seconds, done):
    """verbose's progress line on stderr: one at the end of each pass of an online learner."""
    if done:
        print(f"aucopt: pass {pass_ + 1} done, {seen} examples, {seconds:.2f} s", file=sys.stderr, flush=True)


class AUCClassifier(ClassifierMixin, BaseEstimator):
    """A linear classifier that maximises the AUC, trained by the aucopt engine.

    Parameters
    ----------
    algo : str, default "ls-auc"
        The algorithm (`aucopt train --help` lists them).
    scale : str, default "auto"
        Feature scaling, as --scale: auto, none, minmax, norm, unit, minmax-unit.
    passes, shuffle, seed, backend :
        As --passes (0: the learner's default), --shuffle, --seed and --backend.
    verbose : int, default 0
        When not 0, a line on stderr at the end of each pass of an online learner.
    calibration : {"holdout", "train"}, default "holdout"
        How predict_proba's Platt sigmoid is fitted. "holdout": the engine's held-out
        calibration (`aucopt train --calibrate platt`): a second model, trained with the
        same settings on a stratified seeded 80 % of the training rows, scores the other
        20 %, and the sigmoid is fitted to those held-out scores (one more fit; the rows
        are named, not copied, and a learner that fits from the class moments, ls-auc
        and mba-* with every pair, reads them where they lie). "train": fitted to the
        model's own training scores (no second fit; the sigmoid is then somewhat
        over-confident). Both leave the model's weights alone: they are `aucopt train`'s,
        bit for bit.
    **params :
        The algorithm's hyper-parameters, as -p key=value (`aucopt train --algo NAME
        --help-params`); a key that is a Python keyword is given as **{"lambda": 1e-3}.

    Attributes
    ----------
    model_ : Model
        The trained model (its weights, scaling, notes; `model_.save(path)` writes the
        command line's model file).
    classes_ : the two classes; classes_[1] is the positive one.
    threshold_ : float
        The model score at which the calibrated probability is 1/2: decision_function is
        the model's score minus threshold_ (scikit-learn's contract: predict is
        decision_function > 0), so its ranking, and its AUC, are the model's.
    calibration_ : dict
        The sigmoid (a, b) and how it was fitted.
    result_ : dict
        The training run's result (its seconds, notes, parameters as the data set them).
    n_features_in_, feature_names_in_ : as scikit-learn's.
    """

    _fixed_algo = None  # AutoAUC's "auto"

    def __init__(self, algo="ls-auc", *, scale="auto", passes=0, shuffle=True, seed=1, backend=None,
                 calibration="holdout", verbose=0, **params):
        self.algo = algo
        self.verbose = verbose
        self.scale = scale
        self.passes = passes
        self.shuffle = shuffle
        self.seed = seed
        self.backend = backend
        self.calibration = calibration
        for k, v in params.items():
            setattr(self, k, v)

    # The algorithm's hyper-parameters are the attributes set beside the named ones.
    def _algo_params(self):
        named = set(self._get_param_names())
        return {k: v for k, v in vars(self).items() if k not in named and not k.startswith("_") and not k.endswith("_")}

    def get_params(self, deep=True):
        p = super().get_params(deep=deep)
        p.update(self._algo_params())
        return p

    def set_params(self, **params):
        for k, v in params.items():
            if k.startswith("_") or k.endswith("_") or "__" in k:
                raise ValueError(f"invalid parameter {k!r} for {type(self).__name__}")
            setattr(self, k, v)  # a named one, or an algorithm's: the engine checks it at fit
        return self

    def _more_tags(self):
        return {
            "binary_only": True,
            "allow_nan": False,
            "requires_y": True,
            "_xfail_checks": dict({
                "check_sample_weights_invariance": "weights 0 leave their rows out, but the rows kept then come in "
                "another order, and predict_proba's held-out calibration split is drawn by row position: another "
                "sigmoid and threshold (the weights agree to rounding)",
            }, **({} if self._takes_weights() else {
                "check_sample_weights_not_overwritten": f"{self._fixed_algo or self.algo} takes no sample weights: "
                "weights other than 0 (row left out) and one positive value are refused with a ValueError, by design",
            })),
        }

    def _takes_weights(self):
        """Whether the algorithm's objective takes sample weights (the engine's
        solver.TakesSampleWeights; mba-* only with pairs='all')."""
        algo = self._fixed_algo or self.algo
        if algo in ("unilog", "ls-auc", "svm-or"):
            return True
        return algo in ("mba-l2", "mba-l1", "mba-el") and getattr(self, "pairs", None) == "all"

    def _options(self):
        o = {"scale": self.scale, "passes": int(self.passes), "shuffle": bool(self.shuffle)}
        return o

    def _run(self, X, y01, sw=None):
        algo = self._fixed_algo or self.algo
        return _lib.train(algo, self._algo_params(), self._options(), X, y01, int(self.seed), self.backend,
                          _report if self.verbose else None, sample_weight=sw)

    def _calibrated_options(self):
        """The options of fit's run, with the engine's held-out Platt calibration."""
        return dict(self._options(), calibrate="platt", calibrate_holdout=_HOLDOUT)

    def _run_held_out(self, X, y01, sw=None):
        """The sigmoid (a, b) of a fit like fit's on a stratified 80 % of X's rows, fitted
        to its scores of the other 20 % (the engine's --calibrate platt; the fit weighted
        by sw, the sigmoid not)."""
        _, result = _lib.train(self.algo, self._algo_params(), self._calibrated_options(), X, y01, int(self.seed),
                               self.backend, sample_weight=sw)
        c = result["calibration"]
        return float(c.get("a", 0.0)), float(c.get("b", 0.0))

    def fit(self, X, y, sample_weight=None):
        """Train on X (NumPy in any order and dtype, SciPy CSR/CSC, pandas) and binary y.

        sample_weight: None, or one weight per row (finite, >= 0). Rows of weight 0 are
        left out (a copy of the rows kept). The other weights train the weighted objective
        of the algorithms that take them (unilog, ls-auc, svm-or, mba-* with pairs='all': an
        integer weight k is the row repeated k times; docs/ALGORITHMS.md, "Weights");
        all one value is the unweighted problem, which every algorithm takes, and other
        weights for another algorithm raise ValueError. The calibration's sigmoid is
        fitted unweighted on its held-out rows (the model on the others is weighted).
        """
        X = _numeric(X)
        X, y = self._validate_data(X, y, accept_sparse=["csr", "csc"], dtype=np.float64, order=None,
                                   accept_large_sparse=True, force_all_finite=True, y_numeric=False, reset=True)
        check_classification_targets(y)
        if self.calibration not in ("holdout", "train"):
            raise ValueError(f"calibration={self.calibration!r}: want 'holdout' or 'train'")
        sw = None
        if sample_weight is not None:
            sw = _check_sample_weight(sample_weight, X, dtype=np.float64)
            if not np.all(np.isfinite(sw)) or np.any(sw < 0):
                raise ValueError("sample_weight: want finite weights >= 0")
            keep = sw > 0
            if not keep.all():
                X, y, sw = X[keep], y[keep], sw[keep]  # a copy of the rows kept
        self.classes_ = np.unique(y)
        if len(self.classes_) != 2:
            raise ValueError(f"AUC maximisation needs two classes; y has {len(self.classes_)} class(es): {self.classes_[:5]}")
        y01 = (y == self.classes_[1]).astype(np.float64)
        handle, self.result_ = self._run(X, y01, sw)
        self.model_ = Model(handle)
        self._calibrate(X, y01, sw)
        return self

    def _calibrate(self, X, y01, sw=None):
        how = self.calibration
        a = b = None
        if how == "holdout":
            held = True
            for c in (0.0, 1.0):  # each class keeps rows on both sides of the split
                k = int(round(_HOLDOUT * np.count_nonzero(y01 == c)))
                held = held and 1 <= k < np.count_nonzero(y01 == c)
            if held:
                try:
                    a, b = self._run_held_out(X, y01, sw)
                except _lib.AucoptError as e:  # e.g. one class left in the 80 %
                    how = f"train (the held-out fit failed: {e})"
                else:
                    if not a > 0:  # the held-out scores do not rank: fall back on the model's own
                        how += "; the held-out scores did not rank, fitted on the model's training scores"
                        a = None
            else:
                how = "train (too few rows of a class to hold out 20 %)"
        if a is None:
            ref = self.model_.decision_function(X)
            a, b = _platt(ref, y01)
            if not a > 0:
                a, b = 1.0, -float(np.median(ref))
                how += "; no increasing sigmoid fits: a=1 at the median score"
        self.calibration_ = {"a": a, "b": b, "method": how}
        self.threshold_ = -b / a

    def decision_function(self, X):
        """The model's scores w·T(x) minus threshold_: the ranking `aucopt predict` gives."""
        check_is_fitted(self)
        X = self._validate_data(_numeric(X), accept_sparse=["csr", "csc"], dtype=np.float64, order=None,
                                accept_large_sparse=True, reset=False)
        return self.model_.decision_function(X) - self.threshold_

    def predict(self, X):
        """classes_[1] where decision_function > 0, else classes_[0]."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def predict_proba(self, X):
        """Platt-calibrated probabilities of classes_ (see calibration)."""
        d = self.decision_function(X)
        z = self.calibration_["a"] * d
        p = 1.0 / (1.0 + np.exp(-z))
        return np.column_stack([1 - p, p])

    def predict_log_proba(self, X):
        """The log of predict_proba."""
        return np.log(self.predict_proba(X))

    def score(self, X, y, sample_weight=None):
        """ROC AUC of decision_function against y (positive: classes_[1])."""
        return roc_auc_score(np.asarray(y) == self.classes_[1], self.decision_function(X), sample_weight=sample_weight)


class AutoAUC(AUCClassifier):
    """`aucopt train --algo auto`: the portfolio raced within budget seconds, the best by
    validation AUC kept (engine.Auto). Its model_.algo and result_["leaderboard"] say
    which won and why. Parameters as AUCClassifier's, with budget (seconds; 0 the
    command line's default, 10 s), folds and holdout (as --grid-folds, --grid-holdout)."""

    _fixed_algo = "auto"

    def __init__(self, budget=0, *, folds=0, holdout=0.0, scale="auto", seed=1, backend=None, calibration="holdout"):
        self.budget = budget
        self.folds = folds
        self.holdout = holdout
        self.scale = scale
        self.seed = seed
        self.backend = backend
        self.calibration = calibration

    passes, shuffle, verbose = 0, True, 0  # auto's candidates run one pass, shuffled

    def _options(self):
        return {"scale": self.scale, "budget_seconds": float(self.budget), "folds": int(self.folds),
                "holdout": float(self.holdout)}

    def _more_tags(self):
        tags = AUCClassifier._more_tags(self)
        tags["_xfail_checks"] = dict(tags["_xfail_checks"], check_fit2d_1feature="10 rows, 3 of a class: "
                                     "auto's 5-fold selection of small data cannot fill its folds, and every candidate "
                                     "fails (an AucoptError that says so, not the ValueError the check looks for)")
        return tags

    def _run_held_out(self, X, y01, sw=None):
        # The winner (algorithm, parameters as chosen, bins) held out, not another race.
        o = {"scale": self.scale, "passes": 1, "shuffle": True, "bins": int(self.result_.get("bins", 0) or 0),
             "calibrate": "platt", "calibrate_holdout": _HOLDOUT}
        params = {k: v for k, v in self.model_.params.items()}
        c = _lib.train(self.model_.algo, params, o, X, y01, int(self.seed), self.backend,
                       sample_weight=sw)[1]["calibration"]
        return float(c.get("a", 0.0)), float(c.get("b", 0.0))
