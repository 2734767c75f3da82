#!/usr/bin/env bash
# Uni-Log (aucopt train --algo unilog) against LIBLINEAR's logistic regression
# (liblinear-train -s 0 -B 1) at the matching C, side by side in one run (issue 47).
#
#   bench/unilog-vs-liblinear.sh [SET …]     (default: a9a w8a fashion-mnist ctr)
#
# Uni-Log minimises (1/n₊)Σ₊ log(1 + e^{−s}) + (1/n₋)Σ₋ log(1 + e^{s}) + (λ/2)‖w‖², which
# is LIBLINEAR's ½‖w‖² + Σᵢ Cᵢ log(1 + e^{−yᵢ sᵢ}) divided by 1/λ at C = 1/(λn) with the class
# weights -w1 n/n₊ and -w-1 n/n₋; λ is aucopt's default for the data, max(2/n, 3·10⁻³). Both
# read the same LIBSVM files, unscaled (aucopt --scale none), and stop by the same rule
# (-e 0.01). One difference stays: LIBLINEAR's -B 1 bias is a weight on a constant feature
# and so regularised, Uni-Log's is not.
#
# Sets: a9a (its own split), w8a (rows 1–7 of every 10 to train, 8–10 to test; its blank line left out), fashion-mnist
# (even labels positive; the pixels in [0, 1]), ctr (a 200,000-row synthetic click log, aucopt
# gen, 22 fields hashed into 2^13 buckets by aucopt convert; 100,000 new rows to test, as
# bench/ctr.sh). PAIRS (default 5) interleaved pairs per set, the order alternating, each a
# whole aucopt train process and a whole liblinear-train then liblinear-predict -b 1; the
# table gives medians: aucopt's reported training seconds ("train"), its whole process (data
# reading and test scoring included), LIBLINEAR's train and train + predict (whole processes,
# reading included), the ratio of whole processes, and the test AUCs. The machine's load
# average is printed before and after (the development machine is shared), and the CPU
# seconds (user + sys) of the whole processes beside their wall. BIAS (default 1) is
# LIBLINEAR's -B: a large one (100) leaves its bias nearly unregularised, as Uni-Log's.
# MATCH_BIAS=1 gives Uni-Log -p bias-reg=1/BIAS² instead, LIBLINEAR's penalty on its bias
# (½·w_B² for a bias feature of value BIAS, the bias b = BIAS·w_B): the same objective. DIR (default
# /tmp/aucopt-unilog-ll) keeps the converted files for reruns; AUCOPT names a binary
# (default: built from this checkout); AUCOPT_DATA (default ../shared/data) holds the sets.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v liblinear-train >/dev/null || ! command -v liblinear-predict >/dev/null; then
	echo "unilog-vs-liblinear: installing liblinear-tools" >&2
	apt-get update -qq >/dev/null && apt-get install -y -qq liblinear-tools >/dev/null ||
		{ echo "unilog-vs-liblinear: liblinear-tools could not be installed" >&2; exit 1; }
fi
data=${AUCOPT_DATA:-../shared/data}
if [ ! -f "$data/MANIFEST.tsv" ]; then
	echo "unilog-vs-liblinear: $data has no shared datasets (set AUCOPT_DATA): skipping" >&2
	exit 0
fi
DIR=${DIR:-/tmp/aucopt-unilog-ll}
mkdir -p "$DIR"
if [ -z "${AUCOPT:-}" ]; then
	AUCOPT=$DIR/aucopt
	go build -o "$AUCOPT" ./cmd/aucopt
fi
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(a9a w8a fashion-mnist ctr)

# The files, made once.
for s in "${sets[@]}"; do
	[ -e "$DIR/$s.done" ] && continue
	echo "unilog-vs-liblinear: preparing $s" >&2
	case $s in
	a9a)
		xz -dc "$data/a9a/a9a.txt.xz" >"$DIR/a9a.train.svm"
		xz -dc "$data/a9a/a9a.t.xz" >"$DIR/a9a.test.svm"
		;;
	w8a)
		xz -dc "$data/w8a/w8a.xz" | awk 'NF { k++; if (k % 10 >= 1 && k % 10 <= 7) print }' >"$DIR/w8a.train.svm"
		xz -dc "$data/w8a/w8a.xz" | awk 'NF { k++; if (k % 10 == 0 || k % 10 >= 8) print }' >"$DIR/w8a.test.svm"
		;;
	fashion-mnist)
		[ -e "$data/fashion-mnist/fashion-mnist.scale.xz" ] || { echo "unilog-vs-liblinear: no fashion-mnist: skipped" >&2; continue; }
		for p in "train fashion-mnist.scale.xz" "test fashion-mnist.scale.t.xz"; do
			set -- $p
			xz -dc "$data/fashion-mnist/$2" | awk '{ $1 = ($1 % 2 == 0) ? "+1" : "-1"; print }' >"$DIR/fashion-mnist.$1.svm"
		done
		;;
	ctr)
		"$AUCOPT" gen --rows 200000 --out "$DIR/ctr.train.parquet" 2>/dev/null
		"$AUCOPT" gen --rows 100000 --first-row 20000000 --out "$DIR/ctr.test.parquet" 2>/dev/null
		for p in train test; do
			"$AUCOPT" convert --label click --hash-bits 13 "$DIR/ctr.$p.parquet" "$DIR/ctr.$p.svm" 2>/dev/null
		done
		;;
	*)
		echo "unilog-vs-liblinear: unknown set $s (a9a, w8a, fashion-mnist, ctr)" >&2
		exit 2
		;;
	esac
	touch "$DIR/$s.done"
done

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
python3 - "$AUCOPT" "$DIR" "${PAIRS:-5}" "${BIAS:-1}" "${MATCH_BIAS:-0}" "${sets[@]}" <<'EOF'
import json, os, resource, statistics, subprocess, sys, time

aucopt, d, pairs, bias, match, sets = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1", sys.argv[6:]


def auc(y, s):
    order = sorted(range(len(s)), key=lambda i: s[i])
    ranks, i = [0.0] * len(s), 0
    while i < len(order):  # mid-ranks over ties
        j = i
        while j + 1 < len(order) and s[order[j + 1]] == s[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    p = sum(y)
    return (sum(r for r, v in zip(ranks, y) if v) - p * (p + 1) / 2) / (p * (len(y) - p))


def run(args):
    """Runs args; returns its wall and CPU (user + sys) seconds and its stdout."""
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True)
    wall, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        sys.exit("unilog-vs-liblinear: %s: exit %d: %s" % (args[0], out.returncode, out.stderr.strip()))
    return wall, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, out.stdout


print("| set | rows × features | λ (C) | Uni-Log train | Uni-Log process (CPU) | LIBLINEAR train | LIBLINEAR train + predict (CPU) | process ratio | Uni-Log AUC | LIBLINEAR AUC | Δ AUC |")
print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for s in sets:
    tr, te = os.path.join(d, s + ".train.svm"), os.path.join(d, s + ".test.svm")
    if not os.path.exists(tr):
        continue
    ltr = [int(float(l.split(None, 1)[0])) for l in open(tr) if l.strip()]
    ytr = [v > 0 for v in ltr]
    # LIBLINEAR's labels as they are in the file: ±1, or 1 and 0 (the click-through table)
    lpos, lneg = max(ltr), min(ltr)
    yte = [float(l.split(None, 1)[0]) > 0 for l in open(te) if l.strip()]
    n, pos = len(ytr), sum(ytr)
    lam = max(2 / n, 3e-3)
    c = 1 / (lam * n)
    model, pred = os.path.join(d, s + ".ll.model"), os.path.join(d, s + ".ll.pred")
    ua = [aucopt, "train", "--algo", "unilog", "--data", tr, "--test", te, "--scale", "none",
          "-p", "lambda=%r" % lam, "--quiet", "--json"]
    if match:
        ua += ["-p", "bias-reg=%r" % (1 / float(bias) ** 2)]
    lt = ["liblinear-train", "-q", "-s", "0", "-B", bias, "-e", "0.01", "-c", repr(c),
          "-w%d" % lpos, repr(n / pos), "-w%d" % lneg, repr(n / (n - pos)), tr, model]
    lp = ["liblinear-predict", "-b", "1", te, model, pred]
    u_train, u_proc, u_cpu, l_train, l_proc, l_cpu = [], [], [], [], [], []
    for k in range(pairs):
        for who in (("u", "l") if k % 2 == 0 else ("l", "u")):
            if who == "u":
                wall, cpu, out = run(ua)
                res = json.loads(out)
                u_train.append(res["seconds"])
                u_proc.append(wall)
                u_cpu.append(cpu)
                u_auc, dim = res["test_auc"], res["features"]
            else:
                w1, c1, _ = run(lt)
                w2, c2, _ = run(lp)
                l_train.append(w1)
                l_proc.append(w1 + w2)
                l_cpu.append(c1 + c2)
    lines = open(pred).read().split("\n")
    col = lines[0].split()[1:].index("1") + 1  # "labels 1 -1" or "labels -1 1"
    l_auc = auc(yte, [float(l.split()[col]) for l in lines[1:] if l])
    m = statistics.median
    print("| %s | %d × %d | %.3g (%.4g) | %.3f s | %.3f s (%.2f s) | %.3f s | %.3f s (%.2f s) | %.2f | %.6f | %.6f | %+.1e |" % (
        s, n, dim, lam, c, m(u_train), m(u_proc), m(u_cpu), m(l_train), m(l_proc), m(l_cpu), m(u_proc) / m(l_proc), u_auc, l_auc, u_auc - l_auc))
    sys.stdout.flush()
EOF
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
