#!/bin/sh
# `make demo`: the whole autotrace chain on the bundled example operator,
# without an NPU. Copies examples/moe_dispatch_gmm to a scratch directory and
# instruments it with one command (autotrace instrument: wire, apply with the
# operator's rules, hook install, check, and the closing report), builds it for
# the host simulation (the hook preprocesses the build-tree copy), runs the
# sample on 2 ranks (spawn, synchronize, save_profiling_data) and turns the
# dumps into a trace with a per-phase summary, the views of the expert groups
# and waits, and the report page (demo/report.html); then the gates.
#
#   sh examples/demo.sh [SCRATCH_DIR]      (default: ./demo)
#
# AUTOTRACE (default: the autotrace next to this tree's build) and PYTHON
# (default: /usr/bin/python3, Debian's, which has python3-torch) may be set.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
AUTOTRACE=${AUTOTRACE:-$top/autotrace}
PYTHON=${PYTHON:-/usr/bin/python3}
scratch=${1:-demo}
export AUTOTRACE
AUTOTRACE_DEVICE_DIR=${AUTOTRACE_DEVICE_DIR:-$top/device}
export AUTOTRACE_DEVICE_DIR

step() { printf '\n== %s\n' "$*"; }

[ -x "$AUTOTRACE" ] || { echo "demo: $AUTOTRACE is not built: run ./setup first" >&2; exit 2; }
"$PYTHON" -c 'import torch' 2>/dev/null || {
	echo "demo: $PYTHON cannot import torch (apt-get install python3-torch)" >&2; exit 2; }

step "copy the example operator to $scratch"
rm -rf "$scratch"
mkdir -p "$scratch"
cp -R "$top/examples/moe_dispatch_gmm/." "$scratch/"
rm -rf "$scratch/build_out"
op=$(cd "$scratch" && pwd)
# the operator as its own repository, as a user has it: its project root is
# the copy, not the autotrace checkout around it (whose tests hold bindings
# of the same operator)
git init -q "$op"

step "autotrace instrument --dry-run: every diff first (the first 40 lines)"
"$AUTOTRACE" instrument --dry-run "$op" | head -n 40

step "autotrace instrument: wire, apply, hook install, check, and the report"
"$AUTOTRACE" instrument "$op"

step "build for the host simulation (the hook preprocesses the build tree)"
bash "$op/compile_ascend_proj.sh" --sim
map="$op/build_out/moe_distribute_dispatch_gmm_proj/point_map.json"

step "run the sample on 2 ranks"
(cd "$op" && "$PYTHON" examples/moe_distribute_dispatch_gmm_sample.py --sim --world_size 2 \
	--profiling_dir prof)
ls -l "$op/prof"

step "autotrace collect -> Chrome trace"
"$AUTOTRACE" collect --map "$map" -o "$op/chrome_trace.json" "$op/prof"
step "per-phase summary (autotrace report)"
"$AUTOTRACE" report "$op/prof" --map "$map"
# (the sample's points record their group index with the two-argument
# MoeTracing(id, groupIdx): --whole-index reads it whole)
step "the slowest expert groups, the wait share per stage (autotrace report --by index,stage)"
"$AUTOTRACE" report --whole-index --by index,stage "$op/prof" --map "$map"
step "the page: flame graph, rank x stage heatmap, every table (autotrace report --format html)"
"$AUTOTRACE" report --whole-index --format html -o "$op/report.html" "$op/prof" --map "$map"
step "autotrace gate: G1-G5 (G3 rebuilds with the project's own script)"
"$AUTOTRACE" gate --build-cmd "bash compile_ascend_proj.sh --sim" "$op"
printf '\nThe trace: %s\nOpen it in https://ui.perfetto.dev or chrome://tracing.\n' "$op/chrome_trace.json"
printf 'The report page: %s (open it in any browser: it needs no network)\n' "$op/report.html"
printf 'Take the instrumentation back with: %s instrument --undo %s\n' "$AUTOTRACE" "$op"
