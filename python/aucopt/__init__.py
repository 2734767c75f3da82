"""aucopt: AUC-maximising linear learners (the aucopt engine, in Go) as scikit-learn estimators.

    from aucopt import AUCClassifier
    clf = AUCClassifier(algo="ls-auc").fit(X_train, y_train)
    clf.score(X_test, y_test)  # ROC AUC

The engine is the shared library libaucopt (capi/ in the repository) loaded with ctypes;
NumPy and SciPy arrays are passed to it by pointer, not copied where their layout allows.
"""

from ._lib import AucoptError, AucoptInputError
from .estimator import AUCClassifier, AutoAUC, Model, load_model

__all__ = ["AUCClassifier", "AutoAUC", "Model", "load_model", "AucoptError", "AucoptInputError"]
__version__ = "0.1.0.dev0"
