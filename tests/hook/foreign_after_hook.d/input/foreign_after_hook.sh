#!/bin/bash
# autotrace's hook is there, but the field's trace_preprocessor.py still runs after it
# and would rewrite point_map.json from the preprocessed copy.
set -e
proj_name=moe_proj
CopyOps() {
    local src="$1" dst="$2"
    cp -rf "${src}/op_kernel" "${dst}/"
}
CopyOps "./ascend_kernels" "./${proj_name}"
# TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
    "${AUTOTRACE:-autotrace}" preprocess --in-place --map "./${proj_name}"/point_map.json "./${proj_name}" || exit 1
else
    echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
    exit 1
fi
# TRACE_PREPROCESSOR_HOOK_END
python3 ./scripts/trace/trace_preprocessor.py "./${proj_name}/op_kernel" "./${proj_name}" --modify
cd "./${proj_name}"
./build.sh
