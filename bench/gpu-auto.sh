#!/usr/bin/env bash
# gpu-auto.sh [REPORT_DIR] checks, on a GPU machine, automatic backend selection's rule
# (engine.Workload.OnDevice): which workloads are faster on cuda than on avx2. With the
# binaries bench/gpu-build.sh built ($AUCOPT_GPU_BIN, default bin/gpu) it times whole
# `aucopt train` processes, side by side:
#
#   1. the README's default job (OPAUC on the embedded a9a: sparse, 123 features), the
#      mba-l2 and ls-auc grids on a9a, and a cv of spam-l2: cuda against auto;
#   2. opauc, ls-auc, mba-l2 and spdam on generated dense data (bench/synth) of n×d =
#      20,000×500, 10,000×1,000 and 20,000×1,000 (around the rule's limits: 1,000
#      features and 10⁷ values), and 20,000×2,000: avx2, cuda and auto.
#
# It writes gpu-auto.md (a table of seconds and test AUCs, and the backend auto chose)
# into REPORT_DIR (default $OUT). Exit status 0 when every run succeeded, 1 otherwise,
# 2 for bad usage or missing binaries.
set -u
cd "$(dirname "$0")/.."
out=${1:-${OUT:-}}
if [ -z "$out" ]; then
	echo "usage: bench/gpu-auto.sh REPORT_DIR (or set \$OUT)" >&2
	exit 2
fi
bin=${AUCOPT_GPU_BIN:-bin/gpu}
for f in aucopt synth; do
	if [ ! -x "$bin/$f" ]; then
		echo "gpu-auto: missing $bin/$f; run bench/gpu-build.sh first" >&2
		exit 2
	fi
done
mkdir -p "$out" || exit 2
report=$out/gpu-auto.md
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
failed=0

# run LABEL BACKEND ARGS... times `aucopt ARGS --backend BACKEND --json --quiet` and prints
# "seconds test_auc backend" (the test AUC and backend from the JSON, "-" when absent).
run() {
	local be=$1
	shift
	local t0 t1 js
	t0=$(date +%s.%N)
	if ! js=$("$bin/aucopt" "$@" --backend "$be" --json --quiet 2>"$data/err"); then
		echo "gpu-auto: aucopt $* --backend $be failed: $(head -1 "$data/err")" >&2
		failed=1
		echo "failed - -"
		return
	fi
	t1=$(date +%s.%N)
	local auc b
	auc=$(printf '%s\n' "$js" | sed -n 's/^ *"test_auc": *\([-0-9.eE+]*\).*/\1/p' | head -1)
	b=$(printf '%s\n' "$js" | sed -n 's/^ *"backend": *"\([a-z0-9]*\)".*/\1/p' | head -1)
	awk -v a="$t0" -v b="$t1" -v auc="${auc:--}" -v be="${b:--}" 'BEGIN { printf "%.2f %s %s\n", b - a, auc, be }'
}

{
	echo "## Automatic backend selection on $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || echo 'no GPU'), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Binaries: $(head -1 "$bin/BUILD" 2>/dev/null). Whole \`aucopt\` processes, seconds (test AUC)."
	echo
	echo "| job | cuda | auto | auto ran on |"
	echo "|---|---:|---:|---|"
} >"$report"
for job in "train" "train --algo mba-l2 --data a9a --grid" "train --algo ls-auc --data a9a --grid" "cv --algo spam-l2 --data a9a"; do
	# shellcheck disable=SC2086
	read -r cs ca _ <<<"$(run cuda $job)"
	# shellcheck disable=SC2086
	read -r as aa ab <<<"$(run auto $job)"
	echo "| \`aucopt $job\` | $cs s ($ca) | $as s ($aa) | $ab |" >>"$report"
done
{
	echo
	echo "| n × d | algo | avx2 | cuda | auto | auto ran on | faster |"
	echo "|---|---|---:|---:|---:|---|---|"
} >>"$report"
for size in ${AUCOPT_AUTO_SIZES:-20000x500 10000x1000 20000x1000 20000x2000}; do
	n=${size%x*} d=${size#*x}
	"$bin/synth" --rows "$n" --dim "$d" --seed 1 --out "$data/train.cache" &&
		"$bin/synth" --first "$n" --rows 5000 --dim "$d" --seed 1 --out "$data/test.cache" || {
		failed=1
		continue
	}
	for algo in opauc ls-auc mba-l2 spdam; do
		args=(train --algo "$algo" --data "$data/train.cache" --test "$data/test.cache")
		read -r xs xa _ <<<"$(run avx2 "${args[@]}")"
		read -r cs ca _ <<<"$(run cuda "${args[@]}")"
		read -r as aa ab <<<"$(run auto "${args[@]}")"
		fast=$(awk -v x="$xs" -v c="$cs" 'BEGIN { if (x == "failed" || c == "failed") print "-"; else print (c < x ? "cuda" : "avx2") }')
		echo "| $n × $d | $algo | $xs s ($xa) | $cs s ($ca) | $as s | $ab | $fast |" >>"$report"
	done
done
cat "$report"
exit $failed
