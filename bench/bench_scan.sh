#!/bin/sh
# Times `autotrace scan` over a generated kernel tree of >= 1 M lines and
# prints the throughput (MB/s of source) and the peak RSS.
# usage: bench/bench_scan.sh [AUTOTRACE] [LINES]
# The tree is generated once under ${BENCH_DIR:-/tmp/autotrace-bench-tree}.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../autotrace}
lines=${2:-1000000}
tree=${BENCH_DIR:-/tmp/autotrace-bench-tree}
if [ ! -f "$tree/.done-$lines" ]; then
	rm -rf "$tree"
	mkdir -p "$tree"
	python3 "$here/gen_kernel_tree.py" "$tree" "$lines"
	touch "$tree/.done-$lines"
fi
bytes=$(find "$tree" -type f ! -name '.done-*' -exec cat {} + | wc -c)
nlines=$(find "$tree" -type f ! -name '.done-*' -exec cat {} + | wc -l)
files=$(find "$tree" -type f ! -name '.done-*' | wc -l)
largest=$(find "$tree" -type f ! -name '.done-*' -printf '%s\n' | sort -n | tail -1)
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT
# warm the page cache, then measure
"$bin" scan --root "$tree" "$tree" >/dev/null 2>&1 || true
for fmt in json text; do
	/usr/bin/time -v "$bin" scan --format "$fmt" --root "$tree" "$tree" >/dev/null 2>"$timing"
	secs=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$timing" |
		awk -F: '{ if (NF == 3) print $1 * 3600 + $2 * 60 + $3; else print $1 * 60 + $2 }')
	user=$(sed -n 's/.*User time (seconds): //p' "$timing")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$timing")
	awk -v b="$bytes" -v s="$secs" -v u="$user" -v r="$rss" -v l="$nlines" -v f="$files" -v big="$largest" -v fmt="$fmt" 'BEGIN {
		printf "scan --format %s: %d files, %d lines, %.1f MB (largest file %.0f KB)\n", fmt, f, l, b / 1e6, big / 1e3;
		printf "  wall %.2f s, user %.2f s: %.1f MB/s wall, %.1f MB/s user; peak RSS %.1f MB\n",
			s, u, b / 1e6 / (s > 0 ? s : 0.001), b / 1e6 / (u > 0 ? u : 0.001), r / 1024 }'
done
