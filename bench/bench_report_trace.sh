#!/bin/sh
# Benchmark of `autotrace report` on the traces that cost it the most per
# byte (issue 33, rows 5 and 6; bench/gen_trace.py writes them): 30,000
# and 50,000 B events nested in one another, their core named last (every
# slice held to the end) and first, read with the views (--by
# rank,core,stage) and as the page (-f html); 120,000 distinct labels
# (plain, --by rank,core,stage, -f html); 40,000 labels each on a rank and
# core of its own (--by rank,core, -f html). Prints the trace's size, the
# wall time (median of BENCH_RUNS runs, default 3, after a warm-up; one
# core), events per second and the peak RSS of the median run. Each run is
# bounded (BENCH_TIMEOUT seconds, default 120; BENCH_VMEM_KB of address
# space, default 8 GB) so that an old build that is quadratic says so
# instead of taking the machine: "over the bound".
#   bench/bench_report_trace.sh [AUTOTRACE] [WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench}/report-trace
py=/usr/bin/python3
runs=${BENCH_RUNS:-3}
mkdir -p "$work"
work=$(cd "$work" && pwd)
case $at in /*) ;; */*) at=$(pwd)/$at ;; esac

gen() { # gen NAME ARGS...: $work/NAME.json, once
	f="$work/$1.json"
	shift
	[ -s "$f" ] || "$py" "$here/gen_trace.py" "$@" >"$f"
}
gen nested30k nested 30000
gen nested50k nested 50000
gen nested50k-named nested 50000 named
gen labels120k labels 120000
gen sparse40k sparse 40000

printf '%-28s %-22s %8s %9s %12s %9s\n' "trace" "report" "size MB" "seconds" "events/s" "peak MB"
# row TRACE EVENTS ARGS...: `autotrace report ARGS TRACE` timed
row() {
	trace=$1 events=$2
	shift 2
	f="$work/$trace.json"
	t=$(mktemp)
	: >"$t.times"
	i=0
	(ulimit -v "${BENCH_VMEM_KB:-8000000}"; timeout "${BENCH_TIMEOUT:-120}" "$at" report "$@" "$f") >/dev/null 2>&1 || true
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		if ! (ulimit -v "${BENCH_VMEM_KB:-8000000}"
			exec /usr/bin/time -v timeout "${BENCH_TIMEOUT:-120}" taskset -c 0 "$at" report "$@" "$f") \
			>/dev/null 2>"$t.$i"; then
			awk -v n="$trace" -v a="$*" -v b="$(wc -c <"$f")" -v s="${BENCH_TIMEOUT:-120}" -v k="${BENCH_VMEM_KB:-8000000}" \
				'BEGIN { printf "%-28s %-22s %8.1f  over the bound (%s s, %s KB of address space)\n", n, a, b / 1e6, s, k }'
			rm -f "$t" "$t".*
			return
		fi
		t1=$(date +%s%N)
		echo "$(((t1 - t0) / 1000)) $i" >>"$t.times"
		i=$((i + 1))
	done
	med=$(sort -n "$t.times" | sed -n "$(((runs + 1) / 2))p")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$t.${med#* }")
	awk -v n="$trace" -v a="$*" -v b="$(wc -c <"$f")" -v us="${med% *}" -v e="$events" -v r="$rss" 'BEGIN {
		s = us / 1e6
		printf "%-28s %-22s %8.1f %9.3f %12.0f %9.1f\n", n, a, b / 1e6, s, e / s, r / 1024 }'
	rm -f "$t" "$t".*
}
cd "$work" # (the page is written here: -o page.html)
html="-f html -o page.html"
for n in nested30k nested50k nested50k-named; do
	ev=$(($(echo "$n" | sed 's/nested\([0-9]*\)k.*/\1/') * 2000)) # a B and an E per level
	row "$n" "$ev" --by rank,core,stage
	row "$n" "$ev" $html
done
row labels120k 120000
row labels120k 120000 --by rank,core,stage
row labels120k 120000 $html
row sparse40k 40000 --by rank,core
row sparse40k 40000 $html
printf '\nmachine: %s, %s cores; %s\n' "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" "$(nproc)" "$(date -u +%Y-%m-%d)"
