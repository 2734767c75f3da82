#!/usr/bin/env bash
# One pass of aucopt's one-pass learners against the papers' C reference code, whole
# processes, side by side (issue 46).
#
#   bench/onepass-vs-c.sh C_DRIVER [AUCOPT_BINARY …]
#
# C_DRIVER is a program built from baojianzhou/sparse-auc's algo_wrapper (never committed;
# bench/README.md, "One pass against the C reference (issue 46, wave 3)", says how):
# `C_DRIVER ALGO TRAIN TEST` with ALGO solam, spam or fsauc reads both LIBSVM files into
# CSR, runs the C function for one pass in file order with the hyper-parameters below and
# prints the test AUC. Without it the script says so and exits 0. Each AUCOPT_BINARY
# (default: one built from this checkout into a temporary directory) runs `aucopt train
# --shuffle=false --scale none --passes 1` with the same hyper-parameters:
#   solam    C (ξ, R) = (28, 10)                 aucopt -p zeta=28 -p R=10 -p lambda=0
#   spam-l2  C (ξ, l1, l2) = (0.003, 0, 1e-4)    aucopt -p eta=0.003 -p theta=0.5 -p beta=1e-4 -p prepass=true
#   fsauc    C (R, G) = (10, 0.25)               aucopt -p R=10 -p eta=0.25 (n: the rows)
#   opauc, opaucr: no C peer is timed (the repository's _algo_opauc on sparse data keeps
#   d × τ sketches and took minutes for one pass over a9a); aucopt at its defaults.
# Sets: a9a (its own test part), w8a (every 4th line the test part). ROUNDS (default 15)
# rounds; in each, every command runs once, the order of the programs alternating from
# round to round. The table gives the median wall (ms), the peak RSS (MiB, /usr/bin/time
# -f %M, median of 3 runs each before the timed rounds), C ÷ aucopt and the test AUCs.
# The load average is printed before and after (the machine is shared). ALGOS (default
# "solam spam-l2 fsauc opauc opaucr") and SETS (default "a9a w8a") narrow the run;
# AUCOPT_DATA (default ../shared/data) holds the sets; DIR (default
# /tmp/aucopt-onepass-c) keeps the decompressed files.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
	echo "onepass-vs-c: no C driver given (or not executable: ${1:-none}): skipping; see bench/README.md, \"One pass against the C reference (issue 46, wave 3)\"" >&2
	exit 0
fi
cdrv=$(readlink -f "$1")
shift
command -v python3 >/dev/null || { echo "onepass-vs-c: needs python3 (for getrusage of each child): skipping" >&2; exit 0; }
data=${AUCOPT_DATA:-../shared/data}
if [ ! -f "$data/MANIFEST.tsv" ]; then
	echo "onepass-vs-c: $data has no shared datasets (set AUCOPT_DATA): skipping" >&2
	exit 0
fi
dir=${DIR:-/tmp/aucopt-onepass-c}
mkdir -p "$dir"
[ -s "$dir/a9a.tr" ] || xz -dc "$data/a9a/a9a.txt.xz" >"$dir/a9a.tr"
[ -s "$dir/a9a.te" ] || xz -dc "$data/a9a/a9a.t.xz" >"$dir/a9a.te"
if [ ! -s "$dir/w8a.tr" ]; then
	w8a=$(ls "$data"/w8a/w8a*.xz | grep -v '\.t\.xz$' | head -1)
	xz -dc "$w8a" | awk 'NR % 4 == 0 { print > "'"$dir"'/w8a.te"; next } { print }' >"$dir/w8a.tr"
fi
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	go build -o "$tmp/aucopt" ./cmd/aucopt
	bins=("$tmp/aucopt")
fi
# Every program runs from a copy written past the page cache (dd oflag=direct), so that
# its pages come in by the first run's read-ahead, as an installed program's do: a binary
# just written by the linker sits in the page cache as large folios, each mapped whole
# when touched, which adds 7 MiB to aucopt's resident set (20 MiB for `aucopt version`
# against 13 MiB) and would measure the writer, not the program.
progs=()
for b in "$cdrv" "${bins[@]}"; do
	c="$dir/prog$((${#progs[@]}))-$(basename "$b")"
	rm -f "$c"
	dd if="$b" of="$c" bs=1M oflag=direct status=none 2>/dev/null || cp "$b" "$c"
	chmod +x "$c"
	progs+=("$c")
done
cdrv=${progs[0]}
bins=("${progs[@]:1}")
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
ROUNDS=${ROUNDS:-15} ALGOS=${ALGOS:-solam spam-l2 fsauc opauc opaucr} SETS=${SETS:-a9a w8a} \
	python3 - "$cdrv" "$dir" "${bins[@]}" <<'PY'
import os, re, statistics, subprocess, sys, time
cdrv, d, bins = sys.argv[1], sys.argv[2], sys.argv[3:]
params = {
    "solam": ("solam", ["-p", "zeta=28", "-p", "R=10", "-p", "lambda=0"]),
    "spam-l2": ("spam", ["-p", "eta=0.003", "-p", "theta=0.5", "-p", "beta=1e-4", "-p", "prepass=true"]),
    "fsauc": ("fsauc", ["-p", "R=10", "-p", "eta=0.25"]),
    "opauc": (None, []),
    "opaucr": (None, []),
}
env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
def peak(argv):
    # /usr/bin/time -f %M: the peak RSS in KiB. Not getrusage of this process's own child:
    # the child's ru_maxrss keeps the high-water mark of the mapping it had before exec,
    # this Python's (14 MiB), which hides a smaller program's peak.
    r = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    return int(r.stderr.decode().split()[-1]) / 1024
def run(argv):
    t = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("onepass-vs-c: %s exited %d:\n%s" % (" ".join(argv), p.returncode, out.decode()))
    m = re.search(rb"test AUC ([0-9.]+)", out)
    return wall * 1e3, m.group(1).decode() if m else "?"
rows = []
for s in os.environ["SETS"].split():
    tr, te = "%s/%s.tr" % (d, s), "%s/%s.te" % (d, s)
    for a in os.environ["ALGOS"].split():
        calgo, ps = params[a]
        cmds = [[cdrv, calgo, tr, te] if calgo else None] + [[b, "train", "--quiet", "--shuffle=false", "--scale", "none",
                  "--passes", "1", "--algo", a, "--data", tr, "--test", te] + ps for b in bins]
        rows.append(("%s %s" % (a, s), cmds))
res = {r[0]: [[] for _ in r[1]] for r in rows}
mem = {r[0]: [statistics.median(peak(c) for _ in range(3)) if c else None for c in r[1]] for r in rows}
R = int(os.environ["ROUNDS"])
for k in range(R):
    for name, cmds in rows:
        order = list(range(len(cmds)))
        if k % 2:
            order.reverse()
        for i in order:
            if cmds[i]:
                res[name][i].append(run(cmds[i]))
hdr = "| | C ms | C MiB |" + "".join(" aucopt%s ms | MiB | C ÷ aucopt%s |" % ((" " + str(j + 1),) * 2 if len(bins) > 1 else ("", "")) for j in range(len(bins))) + " test AUC C / aucopt |"
print("%d rounds, medians" % R)
print(hdr)
print("|---" * (hdr.count("|") - 1) + "|")
for name, cmds in rows:
    rr = res[name]
    med = [statistics.median(x[0] for x in r) if r else None for r in rr]
    mb = mem[name]
    line = "| %s | %s | %s |" % (name, "%.1f" % med[0] if rr[0] else "–", "%.1f" % mb[0] if rr[0] else "–")
    for j in range(1, len(rr)):
        line += " %.1f | %.1f | %s |" % (med[j], mb[j], "%.2f" % (med[0] / med[j]) if rr[0] else "–")
    line += " %s / %s |" % (rr[0][0][1] if rr[0] else "–", " / ".join(r[0][1] for r in rr[1:]))
    print(line)
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
