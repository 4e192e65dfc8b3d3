#!/bin/sh
# `autotrace preprocess --in-place` against the field's preprocessor on the
# same tree: 80 copies of a real operator's kernel sources (the corpus's
# vllm-w4a8/after dispatch_ffn_combine_w4_a8/op_kernel, as instrumented by
# hand, 42 points). The field's trace_preprocessor.py is not available here:
# the reference is OUR STAND-IN, bench/field_preprocessor_standin.py (its
# design: walk, regex, write back, point_map.json; it checks nothing), run
# with Debian's /usr/bin/python3. Each tool runs BENCH_RUNS times (default
# 5) on a fresh copy of the tree (the copy is not timed); the median wall
# time, MB/s of source and the ratio are printed.
#   bench/bench_preprocess_field.sh [AUTOTRACE] [WORKDIR]
# The corpus is found at $AUTOTRACE_CORPUS (default ../shared/corpus from the
# top of the repository).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench-ppf}
. "$here/corpus.sh"
corpus_need vllm-w4a8/after/csrc/mc2/dispatch_ffn_combine_w4_a8/op_kernel
op="$corpus/vllm-w4a8/after/csrc/mc2/dispatch_ffn_combine_w4_a8/op_kernel"
copies=${BENCH_COPIES:-80}
runs=${BENCH_RUNS:-5}
tree="$work/tree"
if [ ! -f "$work/.done-$copies" ]; then
	rm -rf "$work"
	mkdir -p "$tree"
	i=0
	while [ $i -lt "$copies" ]; do
		cp -R "$op" "$tree/op$(printf %03d $i)"
		i=$((i + 1))
	done
	touch "$work/.done-$copies"
fi
bytes=$(find "$tree" -type f -exec cat {} + | wc -c)
files=$(find "$tree" -type f | wc -l)
points=$(grep -ro 'TRACE_POINT("' "$tree" | wc -l)
echo "tree: $copies copies of $(basename "$(dirname "$op")")/op_kernel: $files files, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB, $points points"

# time NAME CMD...: median wall seconds of BENCH_RUNS runs, each on a fresh copy
time_runs() {
	name=$1
	shift
	: >"$work/times"
	i=0
	while [ $i -lt "$runs" ]; do
		rm -rf "$work/run"
		cp -R "$tree" "$work/run"
		sync
		t0=$(date +%s%N)
		"$@" >/dev/null 2>"$work/err" || { echo "$name failed:"; cat "$work/err"; exit 1; }
		t1=$(date +%s%N)
		echo "$(( (t1 - t0) / 1000 ))" >>"$work/times"
		i=$((i + 1))
	done
	sort -n "$work/times" | sed -n "$(((runs + 1) / 2))p"
}
field=$(time_runs stand-in /usr/bin/python3 "$here/field_preprocessor_standin.py" "$work/run" "$work/run-out" --modify)
ours=$(time_runs autotrace "$at" preprocess --quiet --in-place "$work/run")
rm -rf "$work/run" "$work/run-out"
awk -v b="$bytes" -v f="$field" -v o="$ours" -v r="$runs" 'BEGIN {
	printf "  stand-in (python3, regex)   %7.3f s  %7.1f MB/s   (median of %d)\n", f / 1e6, b / f, r
	printf "  autotrace --in-place        %7.3f s  %7.1f MB/s   %.2fx the stand-in\n", o / 1e6, b / o, f / o }'
