#!/bin/bash
# compile_ascend_proj.sh: the build runs inside build_proj(), called at the end.
set -euo pipefail

copy_ops_include() {
    local src_dir=$1
    local dst_dir=$2
    for f in "${src_dir}"/*.h; do
        cp -f "$f" "${dst_dir}/op_kernel/"
    done
    # copy_ops_include is also used for the pregen headers
}

log() { echo "[build] $*"; }

build_proj() {
    local proj_name=$1
    log "building ${proj_name}"
    if [ ! -d "${MODULE_BUILD_PATH}/${proj_name}" ]; then
        mkdir -p "${MODULE_BUILD_PATH}/${proj_name}/op_kernel"
    fi
    copy_ops_include "${MODULE_SRC_PATH}/${proj_name}/op_kernel" "${MODULE_BUILD_PATH}/${proj_name}"
    cp -rf "${MODULE_SRC_PATH}/pregen" "${MODULE_BUILD_PATH}/${proj_name}/"
    cmake -S "${MODULE_BUILD_PATH}/${proj_name}" -B build_out \
        -DCMAKE_BUILD_TYPE=Release
    cmake --build build_out --target install -j"$(nproc)"
    log "done"
}

MODULE_SRC_PATH=${MODULE_SRC_PATH:-$(pwd)/src}
MODULE_BUILD_PATH=${MODULE_BUILD_PATH:-$(pwd)/build}
build_proj moe_combine
