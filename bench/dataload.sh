#!/usr/bin/env bash
# The data-path benchmarks of issue 15, side by side in one run: the physical reference
# (cat and wc -l from a warm page cache), aucopt's load rate (text on one core and on
# all cores, the pre-issue-15 reader, the binary cache) with peak memory, and end-to-end
# training against LIBLINEAR -s 0 (installed with apt when missing; its runs are
# skipped with a message when that is not possible).
#
#   bench/dataload.sh [DIR]        (default $AUCOPT_BENCH_DIR, else /tmp/aucopt-bench)
#
# The data files are generated in DIR by bench/gendata when missing (about 1.8 GB:
# never inside the repository); the binary caches are made by `aucopt convert` and timed.
# REPS (default 2) sets the repetitions; every line is one
# process, timed by /usr/bin/time: wall seconds, CPU seconds (user+system) and peak RSS.
# Runs of different programs are interleaved, so a change of machine load hits them
# alike. STAGES (default "ref load dense sparse") picks the parts to run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-${AUCOPT_BENCH_DIR:-/tmp/aucopt-bench}}
reps=${REPS:-2}
stages=${STAGES:-ref load dense sparse}
mkdir -p "$dir"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/aucopt" ./cmd/aucopt
go build -o "$bin/loadtime" ./bench/loadtime
go build -o "$bin/gendata" ./bench/gendata
for kind in dense sparse; do
	[ -f "$dir/$kind.train.svm" ] && [ -f "$dir/$kind.test.svm" ] || "$bin/gendata" -kind $kind -out "$dir" >/dev/null
done
dense=$dir/dense.train.svm
sparse=$dir/sparse.train.svm
# The binary caches, made by `aucopt convert` (the cache a user makes: dense rows for
# the dense file, sparse for the sparse one), timed below; made again each run so that
# the figures are this build's.

echo "machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(free -g | awk '/Mem:/{print $2}') GiB; $(go version | cut -d' ' -f3)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# run LABEL CMD…: one timed process; prints LABEL, then wall, CPU, peak RSS and the
# command's last output line.
run() {
	local label=$1
	shift
	/usr/bin/time -f '%e %U %S %M' "$@" 2>"$bin/time" >"$bin/out" || {
		echo "$label: failed: $(tail -3 "$bin/time")"
		return
	}
	tail -1 "$bin/time" | awk -v l="$label" -v o="$(tail -1 "$bin/out" | cut -c1-90)" \
		'{printf "%-40s wall %7.2f s  cpu %7.2f s  peak %6d MB  %s\n", l, $1, $2 + $3, $4 / 1024, o}'
}

echo "== aucopt convert (the caches)"
for pair in dense.cache:dense.train.svm dense.test.cache:dense.test.svm sparse.cache:sparse.train.svm; do
	run "convert $(basename "${pair#*:}")" "$bin/aucopt" convert "$dir/${pair#*:}" "$dir/${pair%%:*}"
done
for f in "$dense" "$sparse" "$dir/dense.cache" "$dir/sparse.cache"; do
	echo "file: $f $(stat -c %s "$f") bytes"
done

if [[ $stages == *ref* ]]; then
	echo "== physical reference (warm page cache)"
	for f in "$dense" "$dir/dense.cache" "$sparse"; do
		cat "$f" >/dev/null
		for r in $(seq "$reps"); do
			run "cat $(basename "$f") >/dev/null" sh -c 'exec cat "$0" >/dev/null' "$f"
			run "wc -l $(basename "$f")" wc -l "$f"
		done
	done
fi

if [[ $stages == *load* ]]; then
	echo "== load into memory (bench/loadtime: data.ReadFileContext, layout auto)"
	for f in "$dense" "$sparse"; do
		for r in $(seq "$reps"); do
			run "text 1 core $(basename "$f")" "$bin/loadtime" -workers 1 "$f"
			run "text all cores $(basename "$f")" "$bin/loadtime" "$f"
			run "before issue 15 $(basename "$f")" "$bin/loadtime" -old "$f"
		done
	done
	for f in "$dir/dense.cache" "$dir/sparse.cache"; do
		for r in $(seq "$reps"); do
			run "cache $(basename "$f")" "$bin/loadtime" "$f"
		done
	done
fi

# auc LABELS_FROM SCORES: the AUC of the scores (one a line) against the test file's labels.
auc() {
	python3 - "$1" "$2" <<'PY'
import sys
labels = [1 if l.split()[0] in ("+1", "1") else 0 for l in open(sys.argv[1]) if l.strip()]
scores = [float(s) for s in open(sys.argv[2])]
pairs = sorted(zip(scores, labels))
rank, i, pos_ranks = 1, 0, 0.0
while i < len(pairs):
    j = i
    while j < len(pairs) and pairs[j][0] == pairs[i][0]:
        j += 1
    avg = (rank + rank + (j - i) - 1) / 2
    pos_ranks += avg * sum(l for _, l in pairs[i:j])
    rank += j - i
    i = j
npos = sum(labels); nneg = len(labels) - npos
print(f"{(pos_ranks - npos * (npos + 1) / 2) / (npos * nneg):.5f}")
PY
}

liblinear=yes
if ! command -v liblinear-train >/dev/null; then
	(apt-get install -y -qq liblinear-tools >/dev/null 2>&1 ||
		(apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq liblinear-tools >/dev/null 2>&1)) ||
		{ echo "liblinear-tools could not be installed: skipping LIBLINEAR's runs" >&2; liblinear=no; }
fi

# linear KIND: LIBLINEAR -s 0 trains on KIND's training file and predicts its test file
# (the timed process is the training, as aucopt's line is training and scoring).
linear() {
	local kind=$1
	[ $liblinear = yes ] || return 0
	run "liblinear -s 0 $kind" liblinear-train -s 0 -q "$dir/$kind.train.svm" "$bin/ll.model"
	liblinear-predict -b 1 "$dir/$kind.test.svm" "$bin/ll.model" "$bin/ll.out" >/dev/null
	# probability of the label +1 (its column is named in the header)
	awk 'NR==1{for(i=2;i<=NF;i++) if($i=="1") c=i; next} {print $c}' "$bin/ll.out" >"$bin/ll.scores"
	echo "   liblinear test AUC $(auc "$dir/$kind.test.svm" "$bin/ll.scores")"
}

# train ALGO DATA KIND [flags]: aucopt train, its test AUC. From a cache, the test
# data is read from its cache too.
train() {
	local algo=$1 data=$2 kind=$3
	local test=$dir/$kind.test.svm
	shift 3
	case $data in *.cache) test=$dir/$kind.test.cache ;; esac
	run "aucopt $algo $(basename "$data") $*" "$bin/aucopt" train --algo "$algo" --data "$data" --test "$test" --quiet --json "$@"
	echo "   aucopt test AUC $(grep -o '"test_auc": [0-9.]*' "$bin/out" | cut -d' ' -f2), training $(grep -o '"seconds": [0-9.]*' "$bin/out" | cut -d' ' -f2) s"
}

if [[ $stages == *dense* ]]; then
	echo "== end to end, dense 50,000 × 2,000 (train, then test AUC on 5,000 rows)"
	for r in $(seq "$reps"); do
		linear dense
		for algo in ls-auc mba-l2 spdam opauc; do
			train $algo "$dense" dense
		done
		for algo in ls-auc mba-l2 spdam opauc; do
			train $algo "$dir/dense.cache" dense
		done
	done
fi

if [[ $stages == *sparse* ]]; then
	echo "== end to end, sparse 20,000 × 1,355,191 (test AUC on 4,000 rows)"
	for r in $(seq "$reps"); do
		linear sparse
		for algo in spam-l2 solam ftrl; do
			train $algo "$sparse" sparse
			train $algo "$sparse" sparse --shuffle=false --scale none # streamed from disk
		done
	done
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
