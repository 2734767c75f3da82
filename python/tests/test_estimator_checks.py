"""scikit-learn's own estimator checks (1.2.1), every one run: those expected to fail say
why in _more_tags()["_xfail_checks"] (non-uniform sample weights are refused by the
algorithms that take none, opauc and auto here, where the default ls-auc takes them;
AutoAUC: also a 10-row fit), and pytest reports them as xfail with that reason."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from aucopt import AUCClassifier, AutoAUC


@parametrize_with_checks([AUCClassifier(), AUCClassifier(algo="opauc", calibration="train"), AutoAUC(budget=0.2)])
def test_sklearn_check(estimator, check):
    check(estimator)
