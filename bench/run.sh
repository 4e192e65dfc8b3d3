#!/bin/sh
# `make bench`: one table of throughput and peak memory for every hot path,
# on generated inputs: a >= 1 M-line kernel tree (bench/gen_kernel_tree.py)
# for scan, apply and preprocess, and 16 ranks x 72 cores x 1,000 records of
# moe-v1 .pt dumps (bench/gen_dumps.py) for collect and report. One core
# (taskset -c 0), page cache warm; each figure is the median of BENCH_RUNS
# runs (default 5) after a warm-up, wall time including process start.
# Then report on traces shaped to cost it the most (bench_report_trace.sh),
# and the same commands on real operators, when the corpus is there
# (bench_scan_corpus.sh, bench_corpus.sh; see bench/corpus.sh).
#   bench/run.sh [AUTOTRACE] [WORKDIR]
# The per-command scripts (bench_scan.sh, bench_collect.sh, ...) give more detail.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench}
py=/usr/bin/python3
lines=${BENCH_LINES:-1000000}
tree="$work/tree"
dumps="$work/d16"
mkdir -p "$work"

if [ ! -f "$tree/.done-$lines" ]; then
	echo "generating a $lines-line kernel tree in $tree ..." >&2
	rm -rf "$tree"
	mkdir -p "$tree"
	"$py" "$here/gen_kernel_tree.py" "$tree" "$lines" >/dev/null
	touch "$tree/.done-$lines"
fi
if [ ! -f "$dumps/rank015.pt" ]; then
	echo "generating 16 ranks of dumps in $dumps ..." >&2
	"$py" "$here/gen_dumps.py" "$dumps" 16 1000 >/dev/null
fi
implemented() { ! "$at" --help | grep -q "^  $1 .*(not implemented yet)"; }
. "$here/row.sh"

tree_bytes=$(size_of "$tree")
dump_bytes=$(size_of "$dumps" -name 'rank*')
records=$((16 * 72 * 1000))

row_head
row "scan (json)" "kernel tree, $lines lines" "$tree_bytes" 0 MB "$at" scan --root "$tree" "$tree"
if implemented apply; then
	# apply edits in place: a fresh copy each time, the copy not timed
	rm -rf "$work/apply" && cp -R "$tree" "$work/apply" && rm -f "$work/apply"/.done-*
	printf 'include "moe.rules";\noperator { kernel "."; base "no_base_header.h"; }\n' >"$work/apply/autotrace.rules"
	sync
	AUTOTRACE_RULES_DIR="$here/../rules" NOWARM=1 row "apply" "kernel tree, $lines lines" "$tree_bytes" 0 MB \
		"$at" apply "$work/apply"
fi
if implemented preprocess && [ -d "$work/apply" ]; then
	row "preprocess (dry run)" "the applied tree" "$(size_of "$work/apply")" 0 MB \
		"$at" preprocess --quiet --dry-run "$work/apply"
fi
row "collect -> json" "16 ranks x 72 cores" "$dump_bytes" "$records" rec "$at" collect -q --rules "$dumps/bench.rules" -m "$dumps/point_map.json" -f chrome -o "$work/t.json" "$dumps"
row "collect -> json, null" "16 ranks x 72 cores" "$dump_bytes" "$records" rec "$at" collect -q --rules "$dumps/bench.rules" -m "$dumps/point_map.json" -f chrome -o /dev/null "$dumps"
row "collect -> perfetto" "16 ranks x 72 cores" "$dump_bytes" "$records" rec "$at" collect -q --rules "$dumps/bench.rules" -m "$dumps/point_map.json" -f perfetto -o "$work/t.pftrace" "$dumps"
row "report (dumps)" "16 ranks x 72 cores" "$dump_bytes" "$records" rec "$at" report --rules "$dumps/bench.rules" -m "$dumps/point_map.json" "$dumps"
row "report (json trace)" "the collect -> json trace" "$(size_of "$work/t.json")" "$records" rec "$at" report "$work/t.json"
# the views (--by all: index, rank, core, stage), the page and the flame graph, in the same pass
row "report --by all" "16 ranks x 72 cores" "$dump_bytes" "$records" rec "$at" report --by all --rules "$dumps/bench.rules" -m "$dumps/point_map.json" "$dumps"
row "report -> html" "16 ranks x 72 cores" "$dump_bytes" "$records" rec "$at" report -f html -o "$work/r.html" --rules "$dumps/bench.rules" -m "$dumps/point_map.json" "$dumps"
row "report -> svg" "16 ranks x 72 cores" "$dump_bytes" "$records" rec "$at" report -f svg -o "$work/r.svg" --rules "$dumps/bench.rules" -m "$dumps/point_map.json" "$dumps"
row "report -> html (json)" "the collect -> json trace" "$(size_of "$work/t.json")" "$records" rec "$at" report -f html -o "$work/r.html" "$work/t.json"
row "report -> html (pftrace)" "the collect -> perfetto trace" "$(size_of "$work/t.pftrace")" "$records" rec "$at" report -f html -o "$work/r.html" "$work/t.pftrace"
# report on the traces shaped to cost it the most: deep nesting, many labels,
# labels on ranks of their own (bench/bench_report_trace.sh, issue 33)
echo
sh "$here/bench_report_trace.sh" "$at" "$work" || echo "bench_report_trace.sh: failed"
# Real operators (the shared corpus, when it is there): scan of 20 copies,
# scan, plan, apply and strip of 40 copies of its 7 operators, and G2's search
# of a project holding vllm-w4a8 and the generated tree.
echo
# What a hostile tree costs (issue 33): 100,000 small files nothing includes,
# an unreferenced source of 40 MB and one of 1 GB.
sh "$here/bench_untrusted.sh" "$at" "$work/untrusted" || echo "bench_untrusted.sh: failed"
echo
for b in bench_scan_corpus.sh bench_corpus.sh bench_g2.sh; do
	rc=0
	sh "$here/$b" "$at" "$work/$b.d" "$tree" || rc=$?
	[ "$rc" -eq 77 ] && echo "$b: skipped (no corpus)"
	[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || echo "$b: failed (exit $rc)"
done
printf '\nmachine: %s, %s cores; %s\n' "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" "$(nproc)" "$(date -u +%Y-%m-%d)"
