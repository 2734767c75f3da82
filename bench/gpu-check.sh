#!/usr/bin/env bash
# gpu-check.sh [REPORT_DIR] runs, on a GPU machine, everything the CUDA backend
# claims, with the binaries bench/gpu-build.sh built (directory $AUCOPT_GPU_BIN,
# default bin/gpu), and writes a Markdown report, gpu-check.md, into REPORT_DIR
# (default $OUT), with every step's full log under REPORT_DIR/logs:
#
#   1. nvidia-smi;
#   2. the library discovery report (where the driver and cuBLAS were looked for,
#      which files loaded, why the others failed) and `aucopt backends`;
#   3. the cuda package's tests with AUCOPT_REQUIRE_CUDA=1: the conformance suite on
#      the device (and on the fake device), no skip for want of CUDA;
#   4. `aucopt bench --gpu`: epsilon-sized MBA Σ_S, an OPAUC pass and an SPDAM epoch,
#      avx2 against cuda in one run;
#   5. the kernel benchmarks (bench.test) on a subset of sizes;
#   6. mba-l2, opauc and spdam trained on a generated epsilon-shaped file
#      (bench/synth) with --backend cuda and --backend avx2: test AUCs equal to 1e-9,
#      and the timings.
#
# The whole run keeps within $AUCOPT_GPU_BUDGET seconds (default 540, for the device
# tool's 10-minute limit): each step has a time limit, and steps that no longer fit
# are reported as skipped. Sizes: $AUCOPT_GPU_ROWS×$AUCOPT_GPU_DIM training rows
# (default 20000×2000) and $AUCOPT_GPU_TEST_ROWS test rows (default 5000).
#
# Without a usable GPU it says "no GPU" and why, skips the GPU steps, still writes the
# report, and exits 1. Exit status: 0 when every step passed, 1 otherwise, 2 for bad
# usage or missing binaries.
set -u
cd "$(dirname "$0")/.."

report_dir=${1:-${OUT:-}}
if [ -z "$report_dir" ]; then
	echo "usage: bench/gpu-check.sh REPORT_DIR (or set \$OUT)" >&2
	exit 2
fi
bin=${AUCOPT_GPU_BIN:-bin/gpu}
budget=${AUCOPT_GPU_BUDGET:-540}
rows=${AUCOPT_GPU_ROWS:-20000}
dim=${AUCOPT_GPU_DIM:-2000}
test_rows=${AUCOPT_GPU_TEST_ROWS:-5000}
for v in "$budget" "$rows" "$dim" "$test_rows"; do
	case $v in '' | *[!0-9]*)
		echo "gpu-check: AUCOPT_GPU_BUDGET, _ROWS, _DIM and _TEST_ROWS must be whole numbers, not '$v'" >&2
		exit 2
		;;
	esac
done
mkdir -p "$report_dir/logs" || exit 2
report=$report_dir/gpu-check.md
logs=$report_dir/logs
start=$SECONDS
failed=()
n=0

md() { printf '%s\n' "$@" >>"$report"; }

{
	echo "## GPU check, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Host $(hostname), $(nproc) cores, $(uname -sr). Binaries: $bin ($(head -1 "$bin/BUILD" 2>/dev/null || echo 'no BUILD file'))."
	echo
} >"$report"

missing=()
for f in aucopt cuda.test bench.test synth; do
	[ -x "$bin/$f" ] || missing+=("$bin/$f")
done
if [ ${#missing[@]} -gt 0 ]; then
	md "**Cannot run**: missing ${missing[*]} — build them with bench/gpu-build.sh first."
	echo "gpu-check: missing ${missing[*]}; run bench/gpu-build.sh first (report: $report)" >&2
	exit 2
fi

# step NAME LIMIT CMD... runs CMD with a time limit (the smaller of LIMIT and what
# is left of the budget), logs its output, and appends a section to the report with
# the command, its status and time, and the log's last lines. It returns CMD's status
# (124 for a timeout, 125 when skipped for want of time).
step() {
	local name=$1 limit=$2
	shift 2
	n=$((n + 1))
	local log
	log=$logs/$(printf '%02d' $n)-$(echo "$name" | tr -c 'A-Za-z0-9\n' '-' | tr -s '-').log
	local left=$((budget - (SECONDS - start)))
	md "### $n. $name" "" '```' "\$ $*" '```'
	if [ $left -lt 15 ]; then
		md "Skipped: the run's ${budget}s budget is spent." ""
		failed+=("$name (skipped: out of time)")
		return 125
	fi
	[ "$limit" -gt "$left" ] && limit=$left
	local t0=$SECONDS
	timeout -k 10 "$limit" "$@" >"$log" 2>&1
	local rc=$?
	local took=$((SECONDS - t0))
	local status="exit $rc"
	[ $rc -eq 124 ] && status="timed out after ${limit}s"
	if [ $rc -ne 0 ] && grep -q -- '--- FAIL' "$log"; then
		md "${status}, ${took}s; $(grep -c -- '--- FAIL' "$log") failed and $(grep -c -- '--- PASS' "$log") passed tests. The failures, from \`logs/$(basename "$log")\`:" "" '```'
		grep -E -- '--- FAIL|_test\.go:[0-9]+:|panic:' "$log" | grep -v 'cuda_test.go:[0-9]*:   ' | tail -n "${TAIL:-40}" >>"$report"
	else
		md "${status}, ${took}s. Last lines of \`logs/$(basename "$log")\`:" "" '```'
		tail -n "${TAIL:-40}" "$log" >>"$report"
	fi
	md '```' ""
	[ $rc -ne 0 ] && failed+=("$name ($status)")
	return $rc
}

# skip NAME WHY records a step that was not run.
skip() {
	n=$((n + 1))
	md "### $n. $1" "" "Skipped: $2." ""
}

gpu=yes
why=$("$bin/aucopt" backends --backend cuda 2>&1 >/dev/null) || gpu=no
why=${why#aucopt backends: }
if [ $gpu = no ]; then
	md "**no GPU**: the CUDA backend is unavailable here: $why" "" \
		"The GPU steps are skipped; the rest show why." ""
	echo "gpu-check: no GPU: $why" >&2
fi

if command -v nvidia-smi >/dev/null; then
	step "nvidia-smi" 30 nvidia-smi
else
	skip "nvidia-smi" "nvidia-smi is not installed here"
fi
TAIL=60 step "library discovery" 60 env AUCOPT_REQUIRE_CUDA=1 "$bin/cuda.test" -test.run '^TestDiscoveryReport$' -test.v
TAIL=60 step "aucopt backends" 60 "$bin/aucopt" backends

step "cuda tests with AUCOPT_REQUIRE_CUDA=1 (conformance on the device and the fake)" 180 \
	env AUCOPT_REQUIRE_CUDA=1 "$bin/cuda.test" -test.v -test.timeout 170s

if [ $gpu = yes ]; then
	step "aucopt bench --gpu (epsilon-sized, avx2 vs cuda)" 200 \
		"$bin/aucopt" bench --gpu --backends avx2,cuda --pass-rows 10000
	step "kernel benchmarks (bench.test)" 90 \
		"$bin/bench.test" -test.run '^$' -test.bench '^Benchmark(Dot|Gemv|Symv|Syr|Syrk|Symm)$' -test.benchtime 100ms

	data=$report_dir/data
	mkdir -p "$data"
	if step "generate epsilon-shaped data: ${rows}×${dim} training, ${test_rows} test rows" 120 \
		sh -c "'$bin/synth' --rows $rows --dim $dim --seed 1 --out '$data/train.cache' && '$bin/synth' --first $rows --rows $test_rows --dim $dim --seed 1 --out '$data/test.cache'"; then
		for algo in mba-l2 opauc spdam; do
			for be in avx2 cuda; do
				step "train $algo --backend $be" 150 \
					"$bin/aucopt" train --algo "$algo" --data "$data/train.cache" --test "$data/test.cache" --backend "$be" --json --quiet
			done
		done
		# The table: the JSON results are in the logs of the train steps.
		md "### Training: cuda against avx2 on ${rows}×${dim} (test ${test_rows} rows)" "" \
			"| algo | avx2 time | cuda time | avx2÷cuda | avx2 test AUC | cuda test AUC | abs diff | equal to 1e-9 |" \
			"|---|---:|---:|---:|---:|---:|---:|---|"
		for algo in mba-l2 opauc spdam; do
			a=$(ls "$logs"/*-train-"$algo"-backend-avx2.log 2>/dev/null | tail -1)
			c=$(ls "$logs"/*-train-"$algo"-backend-cuda.log 2>/dev/null | tail -1)
			get() { sed -n "s/^ *\"$2\": *\([-0-9.eE+]*\).*/\1/p" "$1" 2>/dev/null | head -1; }
			as=$(get "$a" seconds) aa=$(get "$a" test_auc) cs=$(get "$c" seconds) ca=$(get "$c" test_auc)
			if [ -z "$as" ] || [ -z "$aa" ] || [ -z "$cs" ] || [ -z "$ca" ]; then
				md "| $algo | ${as:-—} | ${cs:-—} | — | ${aa:-—} | ${ca:-—} | — | no result |"
				failed+=("train $algo: no result to compare")
				continue
			fi
			line=$(awk -v as="$as" -v aa="$aa" -v cs="$cs" -v ca="$ca" -v algo="$algo" 'BEGIN {
				d = aa - ca; if (d < 0) d = -d
				printf "| %s | %.3f s | %.3f s | %.2f× | %.12f | %.12f | %.1e | %s |", algo, as, cs, as / cs, aa, ca, d, (d <= 1e-9 ? "yes" : "**no**")
			}')
			md "$line"
			case $line in *'**no**'*) failed+=("train $algo: AUCs differ by more than 1e-9") ;; esac
		done
		md ""
	fi
	rm -rf "$data"
else
	for s in "aucopt bench --gpu" "kernel benchmarks" "training cuda vs avx2"; do
		skip "$s" "no GPU"
	done
	failed+=("no GPU")
fi

md "### Summary" ""
if [ ${#failed[@]} -eq 0 ]; then
	md "Every step passed, in $((SECONDS - start))s."
	echo "gpu-check: every step passed ($((SECONDS - start))s); report: $report"
	exit 0
fi
md "Failed or not run, in $((SECONDS - start))s:" ""
for f in "${failed[@]}"; do md "- $f"; done
echo "gpu-check: FAILED: $(printf '%s; ' "${failed[@]}")report: $report" >&2
exit 1
