#!/usr/bin/env bash
# Parse speed side by side on the same bytes: aucopt's LIBSVM reader (one core) and
# scikit-learn's load_svmlight_file (Debian's python3-sklearn, installed with apt when
# missing; skipped with a message when that is not possible).
#
#   bench/parse.sh [FILE.xz]      (default ../shared/data/a9a/a9a.txt.xz)
set -euo pipefail
cd "$(dirname "$0")/.."
src=${1:-../shared/data/a9a/a9a.txt.xz}
if [ ! -f "$src" ]; then
	echo "parse.sh: $src not found (the shared datasets are absent): skipping" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xz -dc "$src" >"$tmp/data.txt"
echo "file: $src ($(wc -c <"$tmp/data.txt") bytes decompressed)"
echo "== aucopt (engine/data.Reader, GOMAXPROCS=1)"
AUCOPT_PARSE_FILE="$tmp/data.txt" GOMAXPROCS=1 go test ./engine/data -run '^$' -bench '^BenchmarkParse$' -benchtime 3s -count 3 | grep Benchmark
echo "== scikit-learn load_svmlight_file"
if ! /usr/bin/python3 -c 'import sklearn' 2>/dev/null; then
	(apt-get install -y -qq python3-sklearn >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq python3-sklearn >/dev/null 2>&1)) ||
		{ echo "python3-sklearn could not be installed: skipping the side-by-side" >&2; exit 0; }
fi
/usr/bin/python3 - "$tmp/data.txt" <<'PY'
import os, sys, time
import sklearn
from sklearn.datasets import load_svmlight_file
path = sys.argv[1]
size = os.path.getsize(path)
best = min((lambda t0: (load_svmlight_file(path), time.perf_counter() - t0)[1])(time.perf_counter()) for _ in range(5))
print(f"sklearn {sklearn.__version__} load_svmlight_file: {best*1e3:.1f} ms, {size/best/1e6:.1f} MB/s (best of 5)")
PY
