#!/bin/bash
# Build script of a custom operator project (top-level flow).
set -e
proj_name="moe_distribute_dispatch_gmm"
SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)

modify_func_cmake () {
    local file="$1"
    # keep the vendor's CMake function list in sync
    sed -i 's/add_ops_compile_options(ALL/add_ops_compile_options(ALL --cce-auto-sync/' "${file}" || {
        echo "cannot patch ${file}"; return 1; }
}

CopyOps() {
    local src="$1" dst="$2"
    mkdir -p "${dst}/op_host" "${dst}/op_kernel"
    cp -rf "${src}/op_host/"* "${dst}/op_host/"
    cp -rf "${src}/op_kernel/"* "${dst}/op_kernel/"
}

cat > ./build_info.txt <<INFO
project: ${proj_name}
copied by CopyOps "./ascend_kernels" "./${proj_name}"
./build.sh runs later
INFO

msopgen gen -i ./ascend_kernels/op.json -c ai_core-ascend910b -out "./${proj_name}"
modify_func_cmake "./${proj_name}/cmake/func.cmake"
CopyOps "./ascend_kernels" "./${proj_name}"
# TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
    "${AUTOTRACE:-autotrace}" preprocess --in-place --map "./ascend_kernels"/point_map.json "./ascend_kernels" || exit 1
else
    echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
    exit 1
fi
# TRACE_PREPROCESSOR_HOOK_END
cd "./${proj_name}"
./build.sh
