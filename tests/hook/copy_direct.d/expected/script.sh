#!/bin/sh
# The sources copied by cp itself, options first (the anchor: --after ^cp); the build by cmake.
cp -r -f ./op_host ./op_kernel "${BUILD_DIR:-build}/src/"
# TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
    "${AUTOTRACE:-autotrace}" preprocess --in-place --map "${BUILD_DIR:-build}/src/"/point_map.json "${BUILD_DIR:-build}/src/" || exit 1
else
    echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
    exit 1
fi
# TRACE_PREPROCESSOR_HOOK_END
cmake --build "${BUILD_DIR:-build}" -j8
