#!/bin/bash
# The copy call's output goes to a log: the redirections are not its arguments.
set -e
B=./build_out/proj
CopyOps() {
    mkdir -p "$2"
    cp -rf "$1/op_host" "$1/op_kernel" "$2/"
}
CopyOps ./ascend_kernels "$B" > copy.log 2>&1
# TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
    "${AUTOTRACE:-autotrace}" preprocess --in-place --map "$B"/point_map.json "$B" || exit 1
else
    echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
    exit 1
fi
# TRACE_PREPROCESSOR_HOOK_END
cd "$B" && ./build.sh
