#!/bin/sh
# Benchmark of `autotrace collect`: 16 ranks x 72 cores x 1,000
# records in the field's moe-v1 .pt layout, to Chrome JSON and to Perfetto,
# side by side, one core. Prints records/s (the tool's own timing, and wall
# time including process start), peak RSS (/usr/bin/time -v), and bytes per
# event, where an event is one B or E (one record), and per slice (two
# events); also the peak RSS for 4 ranks, to show memory does not grow with
# the number of ranks; and Perfetto --compress at zlib levels 1 (the
# default), 6 and 9, the figures collect --help quotes. Each figure is the
# median of BENCH_RUNS runs (default 7) after a warm-up run.
#   bench/bench_collect.sh [AUTOTRACE] [WORKDIR]
# Targets: >= 20 M records/s to JSON, <= 64 MB peak, <= 100 B/event JSON,
# <= 30 B/event Perfetto.
set -e
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench}
py=/usr/bin/python3
for n in 16 4; do
	if [ ! -f "$work/d$n/rank000.pt" ] || [ ! -f "$work/d$n/bench.rules" ]; then
		echo "generating $n ranks of dumps in $work/d$n ..."
		"$py" "$here/gen_dumps.py" "$work/d$n" "$n" 1000 >/dev/null
	fi
done

runs=${BENCH_RUNS:-7}
# run NAME DIR FORMAT OUT [OPTION]: one warm-up, then BENCH_RUNS timed runs;
# the rate is collect's own timer (median, min, max), the wall time and peak
# RSS come from the median run's /usr/bin/time
run() {
	cmd() { taskset -c 0 "$at" collect --rules "$2/bench.rules" -m "$2/point_map.json" -f "$3" ${5:+"$5"} -o "$4" "$2"; }
	cmd "$@" 2>/dev/null || { cmd "$@"; exit 1; }
	i=0
	: >"$work/rates.$1"
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -v taskset -c 0 "$at" collect --rules "$2/bench.rules" -m "$2/point_map.json" -f "$3" \
			${5:+"$5"} -o "$4" "$2" 2>"$work/err.$1.$i" || { cat "$work/err.$1.$i"; exit 1; }
		echo "$(sed -n 's/.* in \([0-9.]*\) s, \([0-9.]*\) M records\/s$/\2/p' "$work/err.$1.$i") $i" >>"$work/rates.$1"
		i=$((i + 1))
	done
	sort -n "$work/rates.$1" >"$work/sorted.$1"
	med=$(sed -n "$(((runs + 1) / 2))p" "$work/sorted.$1")
	min=$(head -n 1 "$work/sorted.$1" | cut -d' ' -f1)
	max=$(tail -n 1 "$work/sorted.$1" | cut -d' ' -f1)
	e="$work/err.$1.${med#* }"
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$e")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$e")
	recs=$(sed -n 's/^collect: records \([0-9]*\):.*/\1/p' "$e")
	bytes=$(sed -n 's/^collect: wrote .* (\(chrome\|perfetto\|perfetto, compressed\), \([0-9]*\) bytes.*/\2/p' "$e")
	printf '%-14s %8s records %5s M rec/s median (%s-%s, %s runs) %8s wall %6.1f MB peak %10s bytes %5.1f B/event %5.1f B/slice\n' \
		"$1" "$recs" "${med% *}" "$min" "$max" "$runs" "$wall" "$(echo "$rss / 1024" | bc -l)" "$bytes" \
		"$(echo "$bytes / $recs" | bc -l)" "$(echo "2 * $bytes / $recs" | bc -l)"
	rm -f "$work/err.$1".* "$work/rates.$1" "$work/sorted.$1"
}
run "json 16 ranks" "$work/d16" chrome "$work/t16.json"
# the same with the output thrown away: the tool's own rate, without the
# kernel's page-cache write of the 54 MB file (on the reference machine that
# write alone takes 22-48 ms, as dd shows)
run "json -> null" "$work/d16" chrome /dev/null
run "perfetto 16" "$work/d16" perfetto "$work/t16.pftrace"
run "json 4 ranks" "$work/d4" chrome "$work/t4.json"
run "perfetto 4" "$work/d4" perfetto "$work/t4.pftrace"
# --compress: zlib level 1 (the default), 6 and 9 (collect --help's figures)
for level in 1 6 9; do
	run "perfetto -z$level" "$work/d16" perfetto "$work/t16z.pftrace" --compress=$level
done
