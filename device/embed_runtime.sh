#!/bin/sh
# embed_runtime.sh BASE_H... - refresh the copy of moe_tracing.h embedded in operator base headers.
#
# The runtime lives in an operator's <op>_base.h between the two marker lines
#   // AUTOTRACE-RUNTIME-BEGIN (moe_tracing.h; generated, edit device/moe_tracing.h instead)
#   // AUTOTRACE-RUNTIME-END
# This replaces what lies between them with the current device/moe_tracing.h (the same text
# `autotrace wire` embeds). A header without both markers is an error and is left unchanged.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runtime=${AUTOTRACE_RUNTIME_H:-$here/moe_tracing.h}
status=0
for f in "$@"; do
	if ! grep -q '^// AUTOTRACE-RUNTIME-BEGIN' "$f" || ! grep -q '^// AUTOTRACE-RUNTIME-END' "$f"; then
		echo "embed_runtime.sh: $f: no AUTOTRACE-RUNTIME-BEGIN/END markers" >&2
		status=2
		continue
	fi
	tmp="$f.tmp.$$"
	awk -v rt="$runtime" '
		/^\/\/ AUTOTRACE-RUNTIME-BEGIN/ { print; while ((getline l < rt) > 0) print l; skip = 1; next }
		/^\/\/ AUTOTRACE-RUNTIME-END/ { skip = 0 }
		!skip { print }
	' "$f" >"$tmp" && mv "$tmp" "$f"
done
exit $status
