#!/bin/bash
# The build script of an ascend_kernels project (tests/instrument.test lays the bundled example
# out as one): the selected operators' directories are copied into a generated project, which
# its build.sh compiles. The copy is a helper whose cp writes to its second parameter, called
# with a third argument (the operator list) and its output redirected.
set -e
script_dir=$(cd "$(dirname "$0")" && pwd)
MODULE_BUILD_PATH="${script_dir}/build_out"
proj_name=ascend_kernels_proj
selected_ops=${1:-moe_distribute_dispatch_gmm}

copy_ops_include() {
    local src=$1
    local dest=$2
    local op
    mkdir -p "${dest}"
    for op in $3; do
        cp -r "${src}/${op}" "${dest}/"
    done
}

rm -rf "${MODULE_BUILD_PATH}"
mkdir -p "${MODULE_BUILD_PATH}/${proj_name}"
cd "${script_dir}"
copy_ops_include "./ascend_kernels" "${MODULE_BUILD_PATH}/${proj_name}" "$selected_ops" > "${MODULE_BUILD_PATH}/copy.log" 2>&1
cd "${MODULE_BUILD_PATH}/${proj_name}"
bash build.sh
