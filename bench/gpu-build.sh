#!/usr/bin/env bash
# gpu-build.sh [DIR] builds, here, every binary bench/gpu-check.sh runs on a GPU
# machine, into DIR (default bin/gpu, which git ignores): aucopt, the cuda package's
# tests (cuda.test), the kernel benchmarks (bench.test) and the data generator (synth).
# They are static linux binaries (CGO_ENABLED=0: purego loads the CUDA libraries
# without cgo), stripped to fit the device tool's 64 MiB carry. Then, on the GPU
# machine: bench/gpu-check.sh [REPORT_DIR] (see README.md, "Backends and the GPU").
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-bin/gpu}
mkdir -p "$dir"
export CGO_ENABLED=0 GOOS=linux GOARCH="${GOARCH:-amd64}"
flags=(-trimpath -ldflags=-s\ -w)
go build "${flags[@]}" -o "$dir/aucopt" ./cmd/aucopt
go test -c "${flags[@]}" -o "$dir/cuda.test" ./cuda
go test -c "${flags[@]}" -o "$dir/bench.test" ./bench
go build "${flags[@]}" -o "$dir/synth" ./bench/synth
{
	echo "commit $(git rev-parse HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)')"
	echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $(go version) for $GOOS/$GOARCH"
} >"$dir/BUILD"
du -ch "$dir"/aucopt "$dir"/*.test "$dir"/synth | tail -1 | sed "s|total|in $dir|"
