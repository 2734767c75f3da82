#!/bin/sh
# MBA's click-through experiment shape (issue 16, bench/README.md "MBA's click-through
# shape"): a synthetic Avazu-shaped click log of ROWS rows (aucopt gen), every field hashed
# into 2^BITS buckets, trained by mba-l2 (in memory) and the one-pass learners ftrl, olr,
# spam-l2 and solam (streaming the Parquet file), with LIBLINEAR's logistic regression
# (-s 0 -c 1, Debian liblinear-tools) on the same rows converted to LIBSVM text as the
# reference. Prints one Markdown table row per learner: test AUC, CPU (user+sys), wall, peak
# RSS. The test set is 100,000 new rows of the same planted truth.
#
#   bench/ctr.sh                          # 10^6 rows
#   ROWS=10000000 DIR=/big/tmp bench/ctr.sh
#
# ROWS (default 1000000), BITS (default 13: 8,192 buckets, the paper's 10,000 rounded to a
# power of two), DIR (scratch directory, default /tmp/aucopt-ctr-ROWS; its files are kept
# for reruns and never committed), AUCOPT (a binary; default: built from this checkout),
# ALGOS (default "ftrl olr spam-l2 solam mba-l2 liblinear").
set -eu
cd "$(dirname "$0")/.."
ROWS=${ROWS:-1000000}
BITS=${BITS:-13}
DIR=${DIR:-/tmp/aucopt-ctr-$ROWS}
ALGOS=${ALGOS:-ftrl olr spam-l2 solam mba-l2 liblinear}
mkdir -p "$DIR"
if [ -z "${AUCOPT:-}" ]; then
	AUCOPT=$DIR/aucopt
	go build -o "$AUCOPT" ./cmd/aucopt
fi
[ -x /usr/bin/time ] || { echo "ctr.sh: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }
if echo "$ALGOS" | grep -q liblinear && ! command -v liblinear-train >/dev/null; then
	echo "ctr.sh: installing liblinear-tools" >&2
	apt-get update -qq >/dev/null && apt-get install -y -qq liblinear-tools >/dev/null ||
		{ echo "ctr.sh: liblinear-tools could not be installed" >&2; exit 1; }
fi
T="/usr/bin/time -f %U+%S\t%e\t%M"
TABLE="--label click --hash-bits $BITS"

# step NAME CMD…: runs CMD once (skipped when DIR/NAME.done exists), its times in DIR/NAME.time.
step() {
	name=$1
	shift
	[ -e "$DIR/$name.done" ] && return 0
	echo "ctr.sh: $name ($(date -u +%H:%M:%S))" >&2
	$T -o "$DIR/$name.time" "$@"
	touch "$DIR/$name.done"
}

step gen-train "$AUCOPT" gen --rows "$ROWS" --out "$DIR/train.parquet"
step gen-test "$AUCOPT" gen --rows 100000 --first-row 20000000 --out "$DIR/test.parquet"
echo "| learner | test AUC | CPU (user+sys) | wall | max RSS |"
echo "|---|---:|---:|---:|---:|"
row() { # row LABEL AUC TIMEFILE
	awk -F'\t' -v l="$1" -v a="$2" '{ split($1, c, "+"); printf "| %s | %.4f | %.1f s | %.1f s | %d MB |\n", l, a, c[1] + c[2], $2, $3 / 1024 }' "$3"
}
for a in $ALGOS; do
	case $a in
	liblinear)
		step convert-train "$AUCOPT" convert $TABLE "$DIR/train.parquet" "$DIR/train.svm"
		step convert-test "$AUCOPT" convert $TABLE "$DIR/test.parquet" "$DIR/test.svm"
		step liblinear sh -c "liblinear-train -q -s 0 -c 1 '$DIR/train.svm' '$DIR/ll.model' &&
			liblinear-predict -b 1 '$DIR/test.svm' '$DIR/ll.model' '$DIR/ll.pred' >/dev/null"
		auc=$(python3 - "$DIR/test.svm" "$DIR/ll.pred" <<'EOF'
import sys
y = [float(l.split(None, 1)[0]) > 0 for l in open(sys.argv[1])]
lines = open(sys.argv[2]).read().split("\n")
col = lines[0].split()[1:].index("1") + 1  # "labels 1 -1" or "labels -1 1"
s = [float(l.split()[col]) for l in lines[1:] if l]
order = sorted(range(len(s)), key=s.__getitem__)
rank, i = [0.0] * len(s), 0
while i < len(order):  # mid-ranks over ties
    j = i
    while j + 1 < len(order) and s[order[j + 1]] == s[order[i]]:
        j += 1
    for k in range(i, j + 1):
        rank[order[k]] = (i + j) / 2 + 1
    i = j + 1
npos = sum(y)
print((sum(r for r, p in zip(rank, y) if p) - npos * (npos + 1) / 2) / (npos * (len(y) - npos)))
EOF
		)
		row "LIBLINEAR \`-s 0 -c 1\` on train.svm (+ predict)" "$auc" "$DIR/liblinear.time"
		;;
	*)
		shuffle=--shuffle=false # the one-pass learners stream the file in its order
		[ "$a" = mba-l2 ] && shuffle=
		step "$a" sh -c "'$AUCOPT' train --algo $a --data '$DIR/train.parquet' --test '$DIR/test.parquet' $TABLE \
			--scale none $shuffle --quiet --json > '$DIR/$a.json'"
		auc=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["test_auc"])' "$DIR/$a.json")
		row "$a" "$auc" "$DIR/$a.time"
		;;
	esac
done
