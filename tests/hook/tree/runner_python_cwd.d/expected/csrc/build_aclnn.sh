#!/bin/bash
# Run by setup.py in csrc (cwd=).
set -e
cd ../csrc
# TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the sources this build compiles where they are, put back when the script ends; 'autotrace hook remove' deletes this block)
_autotrace_tree=mc2/op
if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
    if [ ! -d "${_autotrace_tree}" ]; then
        echo "error: ${_autotrace_tree}: no such directory: the trace points cannot be preprocessed" >&2
        exit 1
    fi
    _autotrace_tree=$(cd "${_autotrace_tree}" && pwd) || exit 1
    _autotrace_orig=$(mktemp -d "${TMPDIR:-/tmp}/autotrace-src.XXXXXX") && cp -a "${_autotrace_tree}/." "${_autotrace_orig}/" || exit 1
    trap 'cp -a "${_autotrace_orig}/." "${_autotrace_tree}/" && rm -rf "${_autotrace_orig}"' EXIT
    "${AUTOTRACE:-autotrace}" preprocess --in-place --map "${_autotrace_tree}"/point_map.json "${_autotrace_tree}" || exit 1
else
    echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
    exit 1
fi
# TRACE_PREPROCESSOR_HOOK_END
bash build.sh
