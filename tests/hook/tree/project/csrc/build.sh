#!/bin/bash
# The project's build, as far as the hook is concerned: run in csrc, it compiles mc2/op in place,
# and fails unless the trace points there are ids and point_map.json is beside them.
[ -f mc2/op/op_kernel/op.cpp ] || { echo "build.sh: runs in $(pwd), not in csrc" >&2; exit 1; }
if grep -q 'TRACE_POINT("' mc2/op/op_kernel/op.cpp; then echo "build.sh: mc2/op is not preprocessed" >&2; exit 1; fi
grep -q '"points"' mc2/op/point_map.json || { echo "build.sh: no point_map.json" >&2; exit 1; }
