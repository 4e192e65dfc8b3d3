#!/bin/sh
# collect and report at the scale of a large job: 64, 256 and 1,024 ranks of
# 72 cores (24 AIC + 48 AIV, 1,000 records each: up to 73.7 M records), real
# torch.save dumps written by bench/gen_dumps.py (checked against torch.load
# by tests/collect.test), collected to Chrome JSON and to Perfetto (plain and
# --compress), and
# reported from the dumps: the per-label rows, every view (--by all), the
# HTML page and the SVG flame graph (their bytes per slice: the file's size),
# then from the Perfetto trace (every view, the page) and from the Chrome
# JSON (every view). Prints per run: wall time, time per record, bytes
# per slice, peak RSS (/usr/bin/time); the peak must not grow with the ranks.
# One core (taskset -c 0), page cache warm (a warm-up run per input).
#   bench/bench_scale.sh [AUTOTRACE] [WORKDIR]     (BENCH_RANKS="64 256 1024")
# Needs about 1.6 GB for the dumps and 4 GB for the largest JSON trace
# (written and removed); WORKDIR defaults to $TMPDIR or /tmp.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench-scale}
py=/usr/bin/python3
ranks=${BENCH_RANKS:-64 256 1024}
mkdir -p "$work"
for n in $ranks; do
	if [ ! -f "$work/r$n/records" ]; then
		echo "generating $n ranks of dumps in $work/r$n ..." >&2
		t0=$(date +%s%N)
		"$py" "$here/gen_dumps.py" "$work/r$n" "$n" 1000
		t1=$(date +%s%N)
		echo "  $(( (t1 - t0) / 1000000 )) ms" >&2
	fi
done

printf '%-16s %6s %12s %9s %10s %11s %9s\n' "run" "ranks" "records" "seconds" "ns/record" "bytes/slice" "peak MB"
# run NAME N OUT CMD...: warm-up, then one timed run; prints the row
run() {
	name=$1 n=$2 out=$3
	shift 3
	"$@" >/dev/null 2>&1 || true
	rm -f "$out"
	t0=$(date +%s%N)
	/usr/bin/time -v taskset -c 0 "$@" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
	t1=$(date +%s%N)
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/err")
	recs=$((n * 72 * 1000))
	bytes=0
	[ -f "$out" ] && bytes=$(wc -c <"$out")
	awk -v nm="$name" -v n="$n" -v r="$recs" -v us="$(( (t1 - t0) / 1000 ))" -v b="$bytes" -v m="$rss" 'BEGIN {
		printf "%-16s %6d %12d %9.2f %10.1f %11s %9.1f\n", nm, n, r, us / 1e6, us * 1000 / r,
			b ? sprintf("%.1f", b / (r / 2)) : "-", m / 1024 }'
	rm -f "$out"
}
for n in $ranks; do
	d="$work/r$n"
	run "collect -> json" "$n" "$work/t.json" "$at" collect -q --rules "$d/bench.rules" -m "$d/point_map.json" -o "$work/t.json" "$d"
	run "collect -> pftrace" "$n" "$work/t.pftrace" "$at" collect -q -f perfetto --rules "$d/bench.rules" -m "$d/point_map.json" -o "$work/t.pftrace" "$d"
	run "  --compress" "$n" "$work/t.pftrace" "$at" collect -q -f perfetto --compress --rules "$d/bench.rules" -m "$d/point_map.json" -o "$work/t.pftrace" "$d"
	run "report (dumps)" "$n" "$work/none" "$at" report --rules "$d/bench.rules" -m "$d/point_map.json" "$d"
	run "  --by all" "$n" "$work/none" "$at" report --by all --rules "$d/bench.rules" -m "$d/point_map.json" "$d"
	run "  -> html" "$n" "$work/r.html" "$at" report -f html -o "$work/r.html" --rules "$d/bench.rules" -m "$d/point_map.json" "$d"
	run "  -> svg" "$n" "$work/r.svg" "$at" report -f svg -o "$work/r.svg" --rules "$d/bench.rules" -m "$d/point_map.json" "$d"
	# report from the traces (collect's, written untimed): mapped, their read
	# part given back, so the peak stays flat here too
	"$at" collect -q -f perfetto --rules "$d/bench.rules" -m "$d/point_map.json" -o "$work/keep.pftrace" "$d"
	run "report (pftrace)" "$n" "$work/none" "$at" report --by all "$work/keep.pftrace"
	run "  -> html" "$n" "$work/r.html" "$at" report -f html -o "$work/r.html" "$work/keep.pftrace"
	rm -f "$work/keep.pftrace"
	"$at" collect -q --rules "$d/bench.rules" -m "$d/point_map.json" -o "$work/keep.json" "$d" 2>/dev/null
	run "report (json)" "$n" "$work/none" "$at" report --by all "$work/keep.json"
	rm -f "$work/keep.json"
done
printf '\nmachine: %s, %s cores; %s; work dir %s (%s)\n' "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" \
	"$(nproc)" "$(date -u +%Y-%m-%d)" "$work" "$(df -T "$work" | awk 'NR == 2 { print $2 }')"
