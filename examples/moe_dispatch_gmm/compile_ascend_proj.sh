#!/bin/bash
# compile_ascend_proj.sh - builds the MoeDistributeDispatchGmm custom operator project.
#
#   bash compile_ascend_proj.sh [--sim | --npu]
#
# --npu: generate the custom-op project with msopgen, copy op_host/ and op_kernel/ into it and run
#        its build.sh (needs the CANN toolkit; the default when ASCEND_HOME_PATH is set).
# --sim: the same flow for the host simulation: the generated project is sim/build.sh, which
#        compiles the copied kernel with g++ against autotrace's simulated Ascend C API
#        (AUTOTRACE_DEVICE_DIR, found automatically in a source tree or an installed autotrace).
# Either way the build compiles the COPY in build_out/${proj_name}, never the sources here.
set -euo pipefail

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
proj_name=moe_distribute_dispatch_gmm_proj
build_root=${MOE_BUILD_ROOT:-${script_dir}/build_out}
soc_version=${SOC_VERSION:-ascend910b}

mode=
case "${1:-}" in
    --sim) mode=sim ;;
    --npu) mode=npu ;;
    "") if [ -n "${ASCEND_HOME_PATH:-}" ]; then mode=npu; else mode=sim; fi ;;
    *) echo "usage: $0 [--sim | --npu]" >&2; exit 2 ;;
esac

# CopyOps SRC DST: copy the operator sources (op_host/, op_kernel/) into the project at DST.
CopyOps() {
    local src=$1
    local dst=$2
    mkdir -p "${dst}"
    local d
    for d in op_host op_kernel; do
        rm -rf "${dst:?}/${d}"
        cp -rf "${src}/${d}" "${dst}/${d}"
    done
}

FindDeviceDir() {
    local d
    for d in "${AUTOTRACE_DEVICE_DIR:-}" "${script_dir}/../../device" \
             "$(dirname "$(command -v autotrace 2>/dev/null || echo /nonexistent/bin/x)")/../share/autotrace/device" \
             /usr/local/share/autotrace/device /usr/share/autotrace/device; do
        if [ -n "${d}" ] && [ -f "${d}/sim/kernel_operator.h" ]; then
            (cd "${d}" && pwd)
            return 0
        fi
    done
    echo "compile_ascend_proj.sh: autotrace device/ directory not found; set AUTOTRACE_DEVICE_DIR" >&2
    return 1
}

# GenProject DST: create the project skeleton with its build.sh (what msopgen does).
GenProject() {
    local dst=$1
    rm -rf "${dst}"
    if [ "${mode}" = sim ]; then
        mkdir -p "${dst}/sim"
        cp -f "${script_dir}/sim/build.sh" "${dst}/build.sh"
        cp -f "${script_dir}/sim/moe_distribute_dispatch_gmm_sim.cpp" "${dst}/sim/"
    else
        msopgen gen -i "${script_dir}/op_host/moe_distribute_dispatch_gmm.json" \
            -c "ai_core-${soc_version}" -lan cpp -out "${dst}"
    fi
}

BuildOps() {
    mkdir -p "${build_root}"
    cd "${build_root}"
    GenProject "./${proj_name}"
    CopyOps "${script_dir}" "./${proj_name}"
    cd "./${proj_name}"
    ./build.sh
    if [ "${mode}" = sim ]; then
        echo "${AUTOTRACE_DEVICE_DIR}" >autotrace_device_dir
    fi
}

if [ "${mode}" = sim ]; then
    AUTOTRACE_DEVICE_DIR=$(FindDeviceDir)
    export AUTOTRACE_DEVICE_DIR
fi
BuildOps
echo "compile_ascend_proj.sh: built ${mode} project in ${build_root}/${proj_name}"
