#!/bin/sh
# Times `autotrace apply` (and `strip`) over a generated kernel tree of >= 1 M
# lines (bench/gen_kernel_tree.py) and prints the throughput in MB/s of source,
# end to end on one core: scan, plan, edit, atomic writes.
# usage: bench/bench_apply.sh [AUTOTRACE] [LINES]
# The tree is generated once under ${BENCH_DIR:-/tmp/autotrace-bench-tree}; each
# run works on a fresh copy under ${BENCH_WORK:-/tmp/autotrace-bench-apply}.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../autotrace}
lines=${2:-1000000}
tree=${BENCH_DIR:-/tmp/autotrace-bench-tree}
work=${BENCH_WORK:-/tmp/autotrace-bench-apply}
if [ ! -f "$tree/.done-$lines" ]; then
	rm -rf "$tree"
	mkdir -p "$tree"
	python3 "$here/gen_kernel_tree.py" "$tree" "$lines"
	touch "$tree/.done-$lines"
fi
rm -rf "$work"
mkdir -p "$work"
cp -r "$tree/." "$work/"
rm -f "$work"/.done-*
sync # the copy is not the work being measured
# The generated operators sit side by side: one operator directory whose
# kernel root is the whole tree, with the shipped policy.
cat >"$work/autotrace.rules" <<'EOF'
include "moe.rules";
operator { kernel "."; base "no_base_header.h"; }
EOF
export AUTOTRACE_RULES_DIR="${AUTOTRACE_RULES_DIR:-$here/../rules}"
bytes=$(find "$work" -type f -name '*.[ch]*' -exec cat {} + | wc -c)
files=$(find "$work" -type f -name '*.[ch]*' | wc -l)
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT

measure() { # measure WHAT CMD...: one timed run
	what=$1
	shift
	/usr/bin/time -v "$@" >/dev/null 2>"$timing" || { cat "$timing"; exit 1; }
	secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$timing" |
		awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
	user=$(sed -n 's/.*User time (seconds): //p' "$timing")
	sys=$(sed -n 's/.*System time (seconds): //p' "$timing")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$timing")
	awk -v b="$bytes" -v s="$secs" -v u="$user" -v y="$sys" -v r="$rss" -v f="$files" -v w="$what" 'BEGIN {
		printf "%s: %d files, %.1f MB: wall %.2f s (user %.2f, sys %.2f): %.1f MB/s end to end; peak RSS %.0f MB\n",
			w, f, b / 1e6, s, u, y, b / 1e6 / (s > 0 ? s : 0.001), r / 1024 }'
}

measure "plan  " "$bin" plan "$work"
measure "apply " "$bin" apply "$work"
"$bin" apply --check "$work" >/dev/null 2>&1 && echo "apply again: nothing to change" ||
	{ echo "apply again would change files"; exit 1; }
sync
measure "strip " "$bin" strip "$work"
if diff -r -x autotrace.rules -x '.done-*' "$tree" "$work" >/dev/null; then
	echo "strip restored the tree byte for byte"
else
	echo "strip did NOT restore the tree"
	exit 1
fi
