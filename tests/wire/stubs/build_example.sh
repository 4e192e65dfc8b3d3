#!/bin/sh
# build_example.sh OPDIR CASE [CXX]: builds and runs the wired binding of the example operator in
# OPDIR against the stubs here (torch/extension.h, pytorch_npu_helper.hpp, aclnn/acl_meta.h): the
# binding with main_example.cpp and the aclnn header (EXEC_NPU_CMD calls its API), the hand-written aclnn source with the declaration of the
# generated aclnnInner API included (CASE/generated.h, else inner_example.h: a declaration that
# conflicts with the source's own fails), and that declaration's stand-in definition. -DAUTOGRAD
# when the binding applies a torch::autograd::Function. Exit 0 when it builds and main passes.
op=$(cd "$1" && pwd) case=$2 cxx=${3:-${CXX:-g++}}
stubs=$(cd "$(dirname "$0")" && pwd)
inner=$stubs/inner_example.h
[ -f "$case/generated.h" ] && inner=$case/generated.h
out=$(mktemp -d "${TMPDIR:-/tmp}/build_example.XXXXXX") || exit 99
trap 'rm -rf "$out"' EXIT
flags="-std=c++17 -Wall -Werror -I$stubs -I$op/op_host/op_api"
grep -q '::apply(' "$op/pybind/moe_distribute_dispatch_gmm.cpp" && flags="$flags -DAUTOGRAD"
printf '#define AUTOTRACE_STUB_DEFINE\n#include "%s"\n' "$inner" >"$out/inner.cpp"
$cxx $flags -include "$op/op_host/op_api/aclnn_moe_distribute_dispatch_gmm.h" \
	-DBINDING="\"$op/pybind/moe_distribute_dispatch_gmm.cpp\"" -c "$stubs/main_example.cpp" -o "$out/main.o" &&
	$cxx $flags -include "$inner" -c "$op/op_host/op_api/aclnn_moe_distribute_dispatch_gmm.cpp" -o "$out/aclnn.o" &&
	$cxx $flags -c "$out/inner.cpp" -o "$out/inner.o" &&
	$cxx "$out/main.o" "$out/aclnn.o" "$out/inner.o" -o "$out/run" &&
	"$out/run"
