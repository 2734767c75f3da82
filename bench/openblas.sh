#!/bin/sh
# aucopt's level-3 kernels (Syrk, Symm) against OpenBLAS (issue 46, bench/README.md
# "AVX-512 Syrk and Symm against OpenBLAS SkylakeX"): builds bench's test binary with
# -tags openblas (cgo, libopenblas-dev) and runs BenchmarkOpenBLAS ROUNDS times for each
# number of cores in CPUS, alternating aucopt and OpenBLAS within each round (one process
# per run, the aucopt run first in odd rounds and last in even ones), then prints one
# Markdown table row per kernel, shape and cores: the median GFLOP/s of each side and
# their ratio. OpenBLAS's core type is OPENBLAS_CORETYPE (default SkylakeX: the installed
# 0.3.21 mis-detects this CPU otherwise); its threads are set to GOMAXPROCS (-cpu).
#
#   bench/openblas.sh
#   ROUNDS=9 CPUS="1 2" SHAPES='kernel=Syrk/d=2000/.' bench/openblas.sh
#
# ROUNDS (default 5), CPUS (default "1 2"), SHAPES (-bench patterns for the three levels
# kernel=/d=/k= of the sub-benchmark names, default all), BENCHTIME (default 3x), DIR (scratch, default
# /tmp/aucopt-openblas).
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
CPUS=${CPUS:-1 2}
SHAPES=${SHAPES:-././.}
BENCHTIME=${BENCHTIME:-3x}
DIR=${DIR:-/tmp/aucopt-openblas}
export OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-SkylakeX}
mkdir -p "$DIR"
go test -c -tags openblas -o "$DIR/bench.test" ./bench
: >"$DIR/runs.txt"
echo "openblas.sh: $(date -u '+%Y-%m-%d %H:%M') UTC, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
r=1
while [ "$r" -le "$ROUNDS" ]; do
	order="aucopt openblas"
	[ $((r % 2)) -eq 0 ] && order="openblas aucopt"
	for cpu in $CPUS; do
		for impl in $order; do
			"$DIR/bench.test" -test.run '^$' -test.bench "BenchmarkOpenBLAS/$SHAPES/impl=$impl\$" \
				-test.benchtime "$BENCHTIME" -test.cpu "$cpu" |
				awk -v cpu="$cpu" '/GFLOP\/s/ { n = split($1, p, "/"); s = p[2] "/" p[3] "/" p[4]; sub(/-[0-9]+$/, "", p[5]); sub(/^impl=/, "", p[5]); print s, cpu, p[5], $(NF - 1) }' >>"$DIR/runs.txt"
		done
	done
	r=$((r + 1))
done
echo "openblas.sh: done $(date -u '+%H:%M'), load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo >&2
echo "| kernel | d | k | cores | aucopt GFLOP/s | OpenBLAS GFLOP/s | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
sort -k1,1 -k2,2n -k3,3 -k4,4n "$DIR/runs.txt" | awk '
	function median(s,   n, v, i, j, t) {
		n = split(s, v, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
		return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
	}
	{ key = $1 " " $2; vals[key, $3] = vals[key, $3] " " $4; if (!(key in seen)) { seen[key] = 1; keys[++nk] = key } }
	END {
		for (i = 1; i <= nk; i++) {
			split(keys[i], f, " "); split(f[1], s, "/"); sub(/kernel=/, "", s[1]); sub(/d=/, "", s[2]); sub(/k=/, "", s[3])
			a = median(vals[keys[i], "aucopt"]); o = median(vals[keys[i], "openblas"])
			printf "| %s | %s | %s | %s | %.1f | %.1f | %.2f× |\n", s[1], s[2], s[3], f[2], a, o, a / o
		}
	}'
