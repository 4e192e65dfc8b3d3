#!/bin/sh
# An old helper that is defined but never called also mentions CopyOps.
old_flow() {
    CopyOps "./legacy" "./legacy_proj"
    ./build.sh
}

CopyOps() {
    cp -r "$1" "$2"
}

main() {
    CopyOps "./ascend_kernels" "./proj"
    (cd ./proj && ./build.sh)
}

main "$@"
