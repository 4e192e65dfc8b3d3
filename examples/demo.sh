#!/bin/sh
# `make demo`: the whole autotrace chain on the bundled example operator,
# without an NPU. Copies examples/moe_dispatch_gmm to a scratch directory,
# instruments it with the shipped rules (apply), installs the G1 hook, builds
# it for the host simulation (the hook preprocesses the build-tree copy),
# runs the sample on 2 ranks (spawn, synchronize, save_profiling_data) and
# turns the dumps into a trace with a per-phase summary; then the gates.
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
implemented() { ! "$AUTOTRACE" --help | grep -q "^  $1 .*(not implemented yet)"; }

[ -x "$AUTOTRACE" ] || { echo "demo: $AUTOTRACE is not built: run ./setup first" >&2; exit 2; }
"$PYTHON" -c 'import torch' 2>/dev/null || {
	echo "demo: $PYTHON cannot import torch (apt-get install python3-torch)" >&2; exit 2; }

step "copy the example operator to $scratch"
rm -rf "$scratch"
mkdir -p "$scratch"
cp -R "$top/examples/moe_dispatch_gmm/." "$scratch/"
rm -rf "$scratch/build_out"
op=$(cd "$scratch" && pwd)

if implemented apply; then
	step "autotrace plan + apply (the operator's autotrace.rules: the shipped moe.rules + stage loop names)"
	"$AUTOTRACE" plan "$op"
	"$AUTOTRACE" apply "$op"
	step "autotrace check: the points pair up on every path, before any build"
	"$AUTOTRACE" check "$op"
else
	step "autotrace apply is not implemented yet: the kernel stays uninstrumented"
fi

step "autotrace hook install (gate G1)"
"$AUTOTRACE" hook install --script "$op/compile_ascend_proj.sh" "$op"
"$AUTOTRACE" hook verify --script "$op/compile_ascend_proj.sh" "$op"

if ! implemented preprocess; then
	step "autotrace preprocess is not implemented yet: stopping before the build"
	exit 0
fi

step "build for the host simulation (the hook preprocesses the build tree)"
bash "$op/compile_ascend_proj.sh" --sim
map="$op/build_out/moe_distribute_dispatch_gmm_proj/point_map.json"

step "run the sample on 2 ranks"
(cd "$op" && "$PYTHON" examples/moe_distribute_dispatch_gmm_sample.py --sim --world_size 2 \
	--profiling_dir prof)
ls -l "$op/prof"

if implemented collect; then
	step "autotrace collect -> Chrome trace"
	"$AUTOTRACE" collect --map "$map" -o "$op/chrome_trace.json" "$op/prof"
	step "per-phase summary (autotrace report)"
	"$AUTOTRACE" report "$op/prof" --map "$map"
	if implemented gate; then
		step "autotrace gate: G1-G5 (G3 rebuilds with the project's own script)"
		"$AUTOTRACE" gate --build-cmd "bash compile_ascend_proj.sh --sim" "$op"
	fi
	printf '\nThe trace: %s\nOpen it in https://ui.perfetto.dev or chrome://tracing.\n' "$op/chrome_trace.json"
else
	step "autotrace collect is not implemented yet: the dumps are in $op/prof"
fi
