#!/bin/sh
# `autotrace preprocess --in-place` against the field's preprocessor on the
# same tree: 80 copies of a real operator's kernel sources (the corpus's
# vllm-w4a8/after dispatch_ffn_combine_w4_a8/op_kernel, as instrumented by
# hand, 42 points). The field's trace_preprocessor.py is not available here:
# the reference is OUR STAND-IN, bench/field_preprocessor_standin.py (its
# design: walk, regex, write back, point_map.json; it checks nothing), run
# with Debian's /usr/bin/python3, in its per-line form and in an optimistic
# whole-file form. Each runs BENCH_RUNS times (default 5), interleaved with
# the others, each time on a fresh copy of the tree (the copy is not timed);
# the median wall time, MB/s of source and the ratios are printed.
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

# one NAME CMD...: wall microseconds of one run of CMD on a fresh copy
one() {
	name=$1
	shift
	rm -rf "$work/run" "$work/run-out"
	cp -R "$tree" "$work/run"
	sync
	t0=$(date +%s%N)
	"$@" >/dev/null 2>"$work/err" || { echo "$name failed:" >&2; cat "$work/err" >&2; exit 1; }
	t1=$(date +%s%N)
	echo "$(( (t1 - t0) / 1000 ))"
}
# the three interleaved, so that a busy moment of the machine falls on all
: >"$work/t.field"; : >"$work/t.whole"; : >"$work/t.ours"
i=0
while [ $i -lt "$runs" ]; do
	one stand-in /usr/bin/python3 "$here/field_preprocessor_standin.py" "$work/run" "$work/run-out" --modify >>"$work/t.field"
	one stand-in /usr/bin/python3 "$here/field_preprocessor_standin.py" "$work/run" "$work/run-out" --modify --whole-file >>"$work/t.whole"
	one autotrace "$at" preprocess --quiet --in-place "$work/run" >>"$work/t.ours"
	i=$((i + 1))
done
median() { sort -n "$1" | sed -n "$(((runs + 1) / 2))p"; }
field=$(median "$work/t.field") whole=$(median "$work/t.whole") ours=$(median "$work/t.ours")
rm -rf "$work/run" "$work/run-out" "$work"/t.*
awk -v b="$bytes" -v f="$field" -v w="$whole" -v o="$ours" -v r="$runs" 'BEGIN {
	printf "  stand-in, per line (the field'"'"'s design)   %7.3f s  %7.1f MB/s   (median of %d)\n", f / 1e6, b / f, r
	printf "  stand-in, --whole-file (optimistic)       %7.3f s  %7.1f MB/s\n", w / 1e6, b / w
	printf "  autotrace preprocess --in-place           %7.3f s  %7.1f MB/s   %.2fx the stand-in (%.2fx the optimistic one)\n",
		o / 1e6, b / o, f / o, w / o }'
