#!/bin/sh
# `autotrace scan` on a tree of real operators: BENCH_COPIES (default 20)
# copies of every operator source directory of the corpus (ops-transformer,
# sgl-kernel-npu, vllm-w4a8 before and after: a mix of styles nobody here
# wrote), one kernel root. Prints MB/s of source (median wall time of
# BENCH_RUNS runs, default 5, after a warm-up) and the peak RSS.
#   bench/bench_scan_corpus.sh [AUTOTRACE] [WORKDIR]
# The corpus is found at $AUTOTRACE_CORPUS (default ../shared/corpus).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench-scan-corpus}
. "$here/corpus.sh"
corpus_need vllm-w4a8
copies=${BENCH_COPIES:-20}
runs=${BENCH_RUNS:-5}
tree="$work/tree"
if [ ! -f "$work/.done-$copies" ]; then
	rm -rf "$work"
	mkdir -p "$tree"
	i=0
	while [ $i -lt "$copies" ]; do
		for d in ops-transformer sgl-kernel-npu vllm-w4a8/before vllm-w4a8/after; do
			mkdir -p "$tree/c$i/$d"
			cp -R "$corpus/$d/." "$tree/c$i/$d/"
		done
		i=$((i + 1))
	done
	touch "$work/.done-$copies"
fi
bytes=$(find "$tree" -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' -o -name '*.c' \) -exec cat {} + | wc -c)
files=$(find "$tree" -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' -o -name '*.cc' -o -name '*.c' \) | wc -l)
"$at" scan --root "$tree" "$tree" >/dev/null 2>&1 || true
: >"$work/times"
i=0
while [ $i -lt "$runs" ]; do
	t0=$(date +%s%N)
	/usr/bin/time -v "$at" scan --root "$tree" "$tree" >/dev/null 2>"$work/err.$i" || true
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000 )) $i" >>"$work/times"
	i=$((i + 1))
done
med=$(sort -n "$work/times" | sed -n "$(((runs + 1) / 2))p")
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/err.${med#* }")
awk -v b="$bytes" -v us="${med% *}" -v r="$rss" -v f="$files" -v c="$copies" 'BEGIN {
	printf "scan (json): %d copies of the corpus operators, %d sources, %.1f MB: %.3f s, %.1f MB/s, peak RSS %.1f MB\n",
		c, f, b / 1e6, us / 1e6, b / us, r / 1024 }'
rm -f "$work/times" "$work"/err.*
