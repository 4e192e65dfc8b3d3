#!/bin/sh
# Times G2's own search of a project: vllm-w4a8 of the corpus, wired, inside a
# project that also holds the >= 1 M-line generated kernel tree of `make
# bench` (bench/gen_kernel_tree.py) as unrelated sources, so that the walk
# reads every file under the root and keeps the few that name the operator.
# Prints the sources read (MB), the median wall time of BENCH_RUNS runs
# (default 5, after a warm-up) of `gate --only G2`, MB/s and the peak RSS.
#   bench/bench_g2.sh [AUTOTRACE] [WORKDIR] [KERNEL-TREE]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../autotrace}
base=${2:-${TMPDIR:-/tmp}/autotrace-bench-g2}
tree=${3:-}
. "$here/corpus.sh"
corpus_need vllm-w4a8/before
export AUTOTRACE_RULES_DIR="${AUTOTRACE_RULES_DIR:-$here/../rules}"
export AUTOTRACE_DEVICE_DIR="${AUTOTRACE_DEVICE_DIR:-$here/../device}"
op=csrc/mc2/dispatch_ffn_combine_w4_a8
proj=$base/proj
if [ ! -f "$base/.done" ]; then
	rm -rf "$base"
	mkdir -p "$base"
	cp -r "$corpus/vllm-w4a8/before" "$proj"
	chmod -R u+w "$proj"
	if [ -z "$tree" ]; then
		tree=$base/tree
		mkdir -p "$tree"
		/usr/bin/python3 "$here/gen_kernel_tree.py" "$tree" "${BENCH_LINES:-1000000}" >/dev/null
	fi
	mkdir -p "$proj/third_party"
	cp -R "$tree" "$proj/third_party/generated"
	(cd "$proj" && git init -q && "$bin" wire "$op" >/dev/null)
	touch "$base/.done"
fi
bytes=$(find "$proj" -path "$proj/.git" -prune -o -type f \( -name '*.c*' -o -name '*.h*' -o -name '*.py' \) -printf '%s\n' | awk '{ s += $1 } END { print s }')
runs=${BENCH_RUNS:-5}
(cd "$proj" && "$bin" gate --only G2 "$op" >/dev/null 2>&1) || { echo "bench_g2: G2 fails on the wired project" >&2; exit 1; }
: >"$base/times"
i=0
while [ $i -lt "$runs" ]; do
	t0=$(date +%s%N)
	(cd "$proj" && /usr/bin/time -v taskset -c 0 "$bin" gate --only G2 "$op" >/dev/null 2>"$base/err.$i") || true
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000 )) $i" >>"$base/times"
	i=$((i + 1))
done
med=$(sort -n "$base/times" | sed -n "$(((runs + 1) / 2))p")
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$base/err.${med#* }")
awk -v b="$bytes" -v us="${med% *}" -v r="$rss" -v n="$(find "$proj" -path "$proj/.git" -prune -o -type f -print | wc -l)" 'BEGIN {
	s = us / 1e6
	printf "%-22s %-24s %10.1f %9.3f %14s %10.1f\n", "gate --only G2", n " files, vllm-w4a8", b / 1e6, s,
		sprintf("%.1f MB/s", b / 1e6 / s), r / 1024 }'
