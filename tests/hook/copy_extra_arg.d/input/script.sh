#!/bin/bash
# compile_ascend_proj.sh of an ascend_kernels project: the copy helper takes the
# source, the build tree and the list of operators to copy; the build tree is its
# second argument (what its cp writes to), not the last one.
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
    cd "${MODULE_BUILD_PATH}/${proj_name}"
    ./build.sh
}

build
