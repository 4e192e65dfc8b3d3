#!/bin/bash
# The block an older autotrace installed: it preprocesses "$selected_ops", the
# last word of the copy call, instead of the build tree the copy writes to.
set -e
MODULE_BUILD_PATH=${MODULE_BUILD_PATH:-$(pwd)/build_out}
proj_name=ascend_kernels_proj
selected_ops="moe_dispatch_gmm moe_combine"

copy_ops_include() {
    local src=$1
    local dst=$2
    local ops=$3
    local op
    for op in ${ops}; do
        mkdir -p "${dst}/${op}"
        cp -rf "${src}/${op}/op_host" "${src}/${op}/op_kernel" "${dst}/${op}/"
    done
}

build() {
    msopgen gen -i ./ascend_kernels/op.json -c ai_core-ascend910b -out "${MODULE_BUILD_PATH}/${proj_name}"
    copy_ops_include "./ascend_kernels" "${MODULE_BUILD_PATH}/${proj_name}" "$selected_ops"
    # TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
    if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
        "${AUTOTRACE:-autotrace}" preprocess --in-place --map "$selected_ops"/point_map.json "$selected_ops" || exit 1
    else
        echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
        exit 1
    fi
    # TRACE_PREPROCESSOR_HOOK_END
    cd "${MODULE_BUILD_PATH}/${proj_name}"
    ./build.sh
}

build
