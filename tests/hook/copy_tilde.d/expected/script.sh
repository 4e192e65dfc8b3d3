#!/bin/bash
# The copy writes below a home directory: the tilde prefix is written again unquoted (it expands to
# a directory, runs nothing), the rest of the word as the script means it, $OP quoted.
cp -r ./op_host ./op_kernel ~/build/$OP
# TRACE_PREPROCESSOR_HOOK_START (autotrace: TRACE_POINT labels -> ids in the build tree; 'autotrace hook remove' deletes this block)
if command -v "${AUTOTRACE:-autotrace}" >/dev/null 2>&1; then
    "${AUTOTRACE:-autotrace}" preprocess --in-place --map ~/build/"$OP"/point_map.json ~/build/"$OP" || exit 1
else
    echo "error: autotrace not found (install it or set AUTOTRACE): the trace points cannot be preprocessed" >&2
    exit 1
fi
# TRACE_PREPROCESSOR_HOOK_END
cmake --build ~/build -j8
