#!/bin/bash
# The copy's destination unquoted in the script ($BUILD_DIR and ${OP:-op}): the block writes it
# again with each expansion inside double quotes, so that it neither splits nor globs there.
BUILD_DIR=${1:-./build_out}
cp -r ./op_host ./op_kernel $BUILD_DIR/${OP:-op}
# TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
    "${AUTOTRACE:-autotrace}" preprocess --in-place --map "$BUILD_DIR"/"${OP:-op}"/point_map.json "$BUILD_DIR"/"${OP:-op}" || exit 1
else
    echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
    exit 1
fi
# TRACE_PREPROCESSOR_HOOK_END
cmake --build $BUILD_DIR -j8
