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
    # TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
    if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
        "${AUTOTRACE:-autotrace}" preprocess --in-place --map "./proj"/point_map.json "./proj" || exit 1
    else
        echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
        exit 1
    fi
    # TRACE_PREPROCESSOR_HOOK_END
    (cd ./proj && ./build.sh)
}

main "$@"
