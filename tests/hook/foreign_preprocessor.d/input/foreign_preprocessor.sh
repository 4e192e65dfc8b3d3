#!/bin/bash
# The field's trace_preprocessor.py, unmarked, right after the copy: it would run
# after autotrace's hook and rewrite point_map.json from already preprocessed sources.
set -e
proj_name=moe_proj
CopyOps() {
    local src="$1" dst="$2"
    cp -rf "${src}/op_kernel" "${dst}/"
}
CopyOps "./ascend_kernels" "./${proj_name}"
python3 ./scripts/trace/trace_preprocessor.py "./${proj_name}/op_kernel" "./${proj_name}" --modify
cd "./${proj_name}"
./build.sh
