#!/bin/sh
# Calibrated probabilities on a9a (issue 42, bench/README.md "Calibrated probabilities"):
# aucopt's learners trained on the embedded a9a with --calibrate platt and isotonic (the map
# fitted on a stratified 20% of the training rows, the weights on the other 80%; or, with
# --calibrate-folds 5, cross-fitted: the map on every row's out-of-fold score, the weights
# on every row) and without (probabilities a sigmoid of the raw score), evaluated on a9a.t
# by aucopt eval;
# beside them scikit-learn's LogisticRegression (C=1) alone and wrapped in
# CalibratedClassifierCV (5-fold, sigmoid and isotonic) on the same files. Prints one
# Markdown table row per model: test AUC, log-loss, Brier score.
#
#   bench/calibration.sh
#   CTR=1 bench/calibration.sh     # also a hashed click-through table (aucopt gen)
#
# With CTR=1: a synthetic click log (aucopt gen) of 200,000 training rows and 50,000 test
# rows of the same truth, 22 fields hashed into 2^13 buckets, ls-auc (with and without
# calibration) beside scikit-learn on the same rows converted to LIBSVM (aucopt convert).
#
# ALGOS (default "spam-l2 opauc mba-l2"), AUCOPT (a binary; default: built from this
# checkout), PYTHON (default /usr/bin/python3, which needs scikit-learn), DIR (scratch,
# default /tmp/aucopt-calibration).
set -eu
cd "$(dirname "$0")/.."
ALGOS=${ALGOS:-spam-l2 opauc mba-l2}
PYTHON=${PYTHON:-/usr/bin/python3}
DIR=${DIR:-/tmp/aucopt-calibration}
mkdir -p "$DIR"
if [ -z "${AUCOPT:-}" ]; then
	AUCOPT=$DIR/aucopt
	go build -o "$AUCOPT" ./cmd/aucopt
fi
xz -dc engine/data/embedded/a9a.txt.xz >"$DIR/a9a.txt"
xz -dc engine/data/embedded/a9a.t.xz >"$DIR/a9a.t"
export AUCOPT_DATA="$DIR/empty" # the embedded a9a
mkdir -p "$AUCOPT_DATA"

# calflags CAL: train's flags for none, platt, isotonic, or METHOD-K (cross-fitted, K folds).
calflags() {
	case $1 in
	none) ;;
	*-*) echo "--calibrate ${1%-*} --calibrate-folds ${1#*-}" ;;
	*) echo "--calibrate $1" ;;
	esac
}
# row EVAL.json MODEL CAL: the table row of aucopt eval's report.
row() {
	"$PYTHON" - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p = r["probabilities"]
src = p["source"] if p["source"] in ("platt", "isotonic") else "none (sigmoid of the raw score)"
if "-" in sys.argv[3]:
    src += f", {sys.argv[3].split('-')[1]}-fold cross-fitted"
print(f"| {sys.argv[2]} | {src} | {r['auc']:.4f} | {p['log_loss']:.4f} | {p['brier']:.4f} |")
PY
}

echo "| model | calibration | test AUC | log-loss | Brier |"
echo "|---|---|---:|---:|---:|"
for algo in $ALGOS; do
	for cal in none platt isotonic platt-5 isotonic-5; do
		# shellcheck disable=SC2046
		"$AUCOPT" train --algo "$algo" --data a9a $(calflags "$cal") --model "$DIR/$algo-$cal.json" --quiet >/dev/null
		"$AUCOPT" eval --model "$DIR/$algo-$cal.json" --data "$DIR/a9a.t" --allow-fewer-features --json >"$DIR/$algo-$cal.eval.json"
		row "$DIR/$algo-$cal.eval.json" "aucopt $algo" "$cal"
	done
done
sklearn() { # sklearn TRAIN TEST FEATURES: LogisticRegression alone and calibrated
	"$PYTHON" - "$@" <<'PY'
import sys
from sklearn.calibration import CalibratedClassifierCV
from sklearn.datasets import load_svmlight_file
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score
d = int(sys.argv[3])
X, y = load_svmlight_file(sys.argv[1], n_features=d)
Xt, yt = load_svmlight_file(sys.argv[2], n_features=d)
yt = (yt > 0).astype(int)
for name, model in [
    ("none", LogisticRegression(C=1.0, max_iter=1000)),
    ("sigmoid, 5-fold", CalibratedClassifierCV(LogisticRegression(C=1.0, max_iter=1000), method="sigmoid", cv=5)),
    ("isotonic, 5-fold", CalibratedClassifierCV(LogisticRegression(C=1.0, max_iter=1000), method="isotonic", cv=5)),
]:
    p = model.fit(X, y).predict_proba(Xt)[:, 1]
    print(f"| scikit-learn LogisticRegression | {name} | {roc_auc_score(yt, p):.4f} | {log_loss(yt, p):.4f} | {brier_score_loss(yt, p):.4f} |")
PY
}
sklearn "$DIR/a9a.txt" "$DIR/a9a.t" 123

[ "${CTR:-0}" = 1 ] || exit 0
echo
echo "| hashed click-through, 200,000 rows, 2^13 buckets | calibration | test AUC | log-loss | Brier |"
echo "|---|---|---:|---:|---:|"
T="--label click --hash-bits 13"
"$AUCOPT" gen --rows 200000 --out "$DIR/ctr-train.csv" >/dev/null
"$AUCOPT" gen --rows 50000 --first-row 200000 --out "$DIR/ctr-test.csv" >/dev/null
for cal in none platt isotonic platt-5 isotonic-5; do
	# shellcheck disable=SC2086,SC2046
	"$AUCOPT" train --algo ls-auc --data "$DIR/ctr-train.csv" $T $(calflags "$cal") --model "$DIR/ctr-$cal.json" --quiet >/dev/null
	"$AUCOPT" eval --model "$DIR/ctr-$cal.json" --data "$DIR/ctr-test.csv" --json >"$DIR/ctr-$cal.eval.json"
	row "$DIR/ctr-$cal.eval.json" "aucopt ls-auc" "$cal"
done
# shellcheck disable=SC2086
"$AUCOPT" convert $T "$DIR/ctr-train.csv" "$DIR/ctr-train.svm" >/dev/null
# shellcheck disable=SC2086
"$AUCOPT" convert $T "$DIR/ctr-test.csv" "$DIR/ctr-test.svm" >/dev/null
sklearn "$DIR/ctr-train.svm" "$DIR/ctr-test.svm" 8192
