#!/bin/sh
# Times `autotrace preprocess` over a generated kernel tree of >= 1 M lines
# with trace points added: every call statement indented 8+ spaces that names
# an upper-case function gets a B/E pair around it, in a block of its own.
# Prints the throughput (MB of source per second) of:
#   --dry-run   scan every source, pairing check of every file with points,
#               ids, stamp and map in memory; nothing written (the CPU part)
#   --in-place  the same, then every file with points rewritten (a copy of
#               the tree, made before timing) and point_map.json written
#   --out DIR   the same, the whole tree written as a rewritten copy
# The field's regex-based Python preprocessor does about 57 MB/s.
# usage: bench/bench_preprocess.sh [AUTOTRACE] [LINES]
# The tree is generated once under ${BENCH_DIR:-/tmp/autotrace-bench-pp}.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../autotrace}
lines=${2:-1000000}
base=${BENCH_DIR:-/tmp/autotrace-bench-pp}
tree=$base/tree
if [ ! -f "$base/.done-$lines" ]; then
	rm -rf "$base"
	mkdir -p "$tree"
	python3 "$here/gen_kernel_tree.py" "$tree" "$lines" >/dev/null
	find "$tree" -type f \( -name '*.h' -o -name '*.cpp' \) -exec perl -pi -e \
		's#^(\s{8,})((?:[A-Za-z_][\w:]*\.)?[A-Z]\w*(?:<[^;]*>)?\([^;]*\);)\s*$#$1\{ MoeTracing(TRACE_POINT("bench call", "B")); $2 MoeTracing(TRACE_POINT("bench call", "E")); \}\n#' {} +
	touch "$base/.done-$lines"
fi
bytes=$(find "$tree" -type f -exec cat {} + | wc -c)
nlines=$(find "$tree" -type f -exec cat {} + | wc -l)
files=$(find "$tree" -type f | wc -l)
timing=$(mktemp)
trap 'rm -f "$timing"; rm -rf "$base/work" "$base/out"' EXIT

report() { # report WHAT: from $timing
	secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$timing" |
		awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
	user=$(sed -n 's/.*User time (seconds): //p' "$timing")
	sys=$(sed -n 's/.*System time (seconds): //p' "$timing")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$timing")
	awk -v b="$bytes" -v s="$secs" -v u="$user" -v y="$sys" -v r="$rss" -v what="$1" 'BEGIN {
		printf "  %-10s wall %5.2f s (user %.2f, sys %.2f): %6.1f MB/s wall, %6.1f MB/s user+sys; peak RSS %.1f MB\n",
			what, s, u, y, b / 1e6 / (s > 0 ? s : 0.001), b / 1e6 / (u + y > 0 ? u + y : 0.001), r / 1024 }'
}

"$bin" preprocess --quiet --dry-run "$tree" >"$timing.out" 2>/dev/null # warm the page cache
echo "preprocess: $files files, $nlines lines, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB"
sed 's/^/  /' "$timing.out"
rm -f "$timing.out"
for i in 1 2 3; do
	/usr/bin/time -v "$bin" preprocess --quiet --dry-run "$tree" >/dev/null 2>"$timing"
	report "--dry-run"
done
rm -rf "$base/work"
cp -r "$tree" "$base/work"
sync
/usr/bin/time -v "$bin" preprocess --quiet --in-place "$base/work" >/dev/null 2>"$timing"
report "--in-place"
rm -rf "$base/out"
sync
/usr/bin/time -v "$bin" preprocess --quiet --out "$base/out" "$tree" >/dev/null 2>"$timing"
report "--out"
