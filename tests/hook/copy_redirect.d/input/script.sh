#!/bin/bash
# The copy call's output goes to a log: the redirections are not its arguments.
set -e
B=./build_out/proj
CopyOps() {
    mkdir -p "$2"
    cp -rf "$1/op_host" "$1/op_kernel" "$2/"
}
CopyOps ./ascend_kernels "$B" > copy.log 2>&1
cd "$B" && ./build.sh
