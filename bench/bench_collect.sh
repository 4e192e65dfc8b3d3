#!/bin/sh
# Benchmark of `autotrace collect` (issue 7): 16 ranks x 72 cores x 1,000
# records in the field's moe-v1 .pt layout, to Chrome JSON and to Perfetto,
# side by side, one core. Prints records/s (the tool's own timing, and wall
# time including process start), peak RSS (/usr/bin/time -v), and bytes per
# event, where an event is one B or E (one record); also the peak RSS for 4
# ranks, to show memory does not grow with the number of ranks.
#   bench/bench_collect.sh [AUTOTRACE] [WORKDIR]
# Targets: >= 20 M records/s to JSON, <= 64 MB peak, <= 100 B/event JSON,
# <= 30 B/event Perfetto.
set -e
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench}
py=/usr/bin/python3
if [ ! -f "$work/d16/rank015.pt" ]; then
	echo "generating dumps in $work ..."
	"$py" "$here/gen_dumps.py" "$work/d16" 16 1000
	"$py" "$here/gen_dumps.py" "$work/d4" 4 1000
fi

run() { # run NAME DIR FORMAT OUT
	/usr/bin/time -v taskset -c 0 "$at" collect --rules "$2/bench.rules" -m "$2/point_map.json" -f "$3" -o "$4" "$2" \
		2>"$work/err.$1" || { cat "$work/err.$1"; exit 1; }
	best=$(sed -n 's/.* in \([0-9.]*\) s, \([0-9.]*\) M records\/s$/\2/p' "$work/err.$1")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/err.$1")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/err.$1")
	recs=$(sed -n 's/^collect: records \([0-9]*\):.*/\1/p' "$work/err.$1")
	bytes=$(wc -c <"$4")
	printf '%-16s %10s records %8s M rec/s (tool) %9s wall %7.1f MB peak RSS %11s bytes %6.1f B/event\n' \
		"$1" "$recs" "$best" "$wall" "$(echo "$rss / 1024" | bc -l)" "$bytes" "$(echo "$bytes / $recs" | bc -l)"
}
run "json 16 ranks" "$work/d16" chrome "$work/t16.json"
run "perfetto 16" "$work/d16" perfetto "$work/t16.pftrace"
run "json 4 ranks" "$work/d4" chrome "$work/t4.json"
run "perfetto 4" "$work/d4" perfetto "$work/t4.pftrace"
