#!/bin/bash
# build.sh of the generated MoeDistributeDispatchGmm project, host-simulation flavour: compiles the
# kernel sources of THIS build tree (op_kernel/, after any preprocessing) with g++ against the
# simulated Ascend C API into lib/libmoe_distribute_dispatch_gmm_sim.so.
# Needs AUTOTRACE_DEVICE_DIR (autotrace's device/ directory, holding sim/); compile_ascend_proj.sh
# sets it. CXX and CXXFLAGS are honoured.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
device_dir=${AUTOTRACE_DEVICE_DIR:?AUTOTRACE_DEVICE_DIR must name autotrace device/ directory}
sim_dir=${device_dir}/sim
if [ ! -f "${sim_dir}/kernel_operator.h" ]; then
    echo "build.sh: ${sim_dir}/kernel_operator.h not found" >&2
    exit 1
fi
cxx=${CXX:-g++}
flags=(-std=c++17 -O2 -g -fPIC -pthread -Wall -Wextra -Werror -I. -Iop_kernel "-I${sim_dir}")
mkdir -p lib obj
set -x
"${cxx}" "${flags[@]}" ${CXXFLAGS:-} -c op_kernel/moe_distribute_dispatch_gmm.cpp -o obj/kernel.o
"${cxx}" "${flags[@]}" ${CXXFLAGS:-} -c sim/moe_distribute_dispatch_gmm_sim.cpp -o obj/aclnn_sim.o
"${cxx}" "${flags[@]}" ${CXXFLAGS:-} -c "${sim_dir}/sim_runtime.cpp" -o obj/sim_runtime.o
"${cxx}" -shared -pthread obj/kernel.o obj/aclnn_sim.o obj/sim_runtime.o \
    -o lib/libmoe_distribute_dispatch_gmm_sim.so
