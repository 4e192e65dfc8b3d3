#!/bin/sh
# layers.sh TOP: lists every #include "X" in TOP/src and TOP/grammar that goes
# up the order of TOP/src/LAYERS (a header of a folder listed later), as
# FILE:LINE: FOLDER includes X of FOLDER2; exits 1 when there is one, 2 when
# a folder is not in LAYERS. The check of make check (tests/layers.test).
top=$1
[ -f "$top/src/LAYERS" ] || { echo "layers.sh: no $top/src/LAYERS" >&2; exit 2; }
cd "$top" || exit 2
# header -> folder, then each include against the two ranks
{
	grep -v '^#' src/LAYERS | awk 'NF { for (i = 1; i <= NF; i++) print "L", $i, NR }'
	for d in src/*/ grammar/; do
		d=${d%/}
		for h in "$d"/*.h; do [ -f "$h" ] && echo "H ${h##*/} ${d##*/}"; done
	done
	for d in src/*/ grammar/; do
		d=${d%/}
		echo "D ${d##*/}"
		for f in "$d"/*.c "$d"/*.h "$d"/*.y "$d"/*.l; do
			[ -f "$f" ] || continue
			grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
				sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
				while read -r line h; do echo "I $f:$line ${d##*/} ${h##*/}"; done
		done
	done
} | awk '
	$1 == "L" { rank[$2] = $3; next }
	$1 == "H" { home[$2] = $3; next }
	$1 == "D" { if (!($2 in rank)) missing[$2] = 1; next }
	$1 == "I" {
		if (!($3 in rank)) { missing[$3] = 1; next }
		if (!($4 in home)) next                 # a system or generated header
		t = home[$4]
		if (!(t in rank)) { missing[t] = 1; next }
		if (rank[t] > rank[$3]) { print $2 ": " $3 " includes " $4 " of " t; bad++ }
	}
	END {
		for (m in missing) { print "layers.sh: folder " m " is not in src/LAYERS"; status = 2 }
		if (status) exit status
		exit bad ? 1 : 0
	}'
