#!/bin/sh
# Re-runs the small tables (opauc-small, thesis-small, ubauc-small, mba-small) with
# run.sh's commands into a temporary directory, and compares every number of the new
# JSON with the committed one except wall times (bench/resultdiff). Prints the differing
# cells and exits 1 when any table differs, 0 when all reproduce.
#
#   bench/results/check-small.sh                 # build aucopt from this tree
#   AUCOPT=/path/to/aucopt bench/results/check-small.sh opauc-small
#
# About 9 minutes on the shared 2-core machine (541 s wall, 1,044 s CPU since svm-or runs its full λ grid, 2026-11-27; WORKERS, default 0:
# one job per core, the results do not depend on it). Not part of .ci/run.
set -eu
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
A=${AUCOPT:-}
if [ -z "$A" ]; then
	go build -o "$tmp/aucopt" ./cmd/aucopt
	A=$tmp/aucopt
fi
go build -o "$tmp/resultdiff" ./bench/resultdiff
R=$tmp
tables=${*:-opauc-small thesis-small ubauc-small mba-small}
status=0
for name in $tables; do
	start=$(date +%s)
	AUCOPT=$A R=$R FLAGS="--quiet --workers ${WORKERS:-0}" sh bench/results/run.sh "$name" >/dev/null
	secs=$(($(date +%s) - start))
	if "$tmp/resultdiff" "bench/results/$name.json" "$R/$name.json" >"$tmp/$name.diff"; then
		echo "$name: reproduces (${secs} s)"
	else
		rc=$?
		[ "$rc" -eq 1 ] || exit "$rc"
		echo "$name: DIFFERS (${secs} s)"
		sed 's/^/  /' "$tmp/$name.diff"
		status=1
	fi
done
exit $status
