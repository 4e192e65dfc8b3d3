#!/bin/bash
# The compile oracle over a whole sweep (issue 32's "0 new diagnostics on
# every completed operator"): for every row of a sweep's results.tsv whose
# outcome is completed, instrument the operator again in a scratch git copy
# of its project (with the row's arguments); the oracle of
# ../shared/tools/compile/ (compile_op.sh, diffdiag.py: what check.sh runs)
# compiles the operator directory in place before and after, so that its
# includes outside the directory (../common) resolve and name alike; the -D flags the operator's own CMakeLists.txt files
# pass are given to the oracle as ORACLE_CXXFLAGS. Prints one line per
# operator and a closing tally; exits 1 when any operator has a new
# diagnostic or instrument no longer completes. Minutes: about 20 s an
# operator on one core.
#
# usage: bench/oracle_sweep.sh RESULTS_TSV [PROJECTS] [ORACLE]
#   (from the repository root, after a build; AUTOTRACE overrides the binary)
set -u
tsv=${1:?usage: bench/oracle_sweep.sh RESULTS_TSV [PROJECTS] [ORACLE]}
projects=${2:-../shared/projects}
oracle=${3:-../shared/tools/compile}
at=${AUTOTRACE:-$PWD/autotrace}
export AUTOTRACE_RULES_DIR=${AUTOTRACE_RULES_DIR:-$PWD/rules} AUTOTRACE_DEVICE_DIR=${AUTOTRACE_DEVICE_DIR:-$PWD/device} NO_COLOR=1
export GIT_AUTHOR_NAME=o GIT_AUTHOR_EMAIL=o@o GIT_COMMITTER_NAME=o GIT_COMMITTER_EMAIL=o@o
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oracle_sweep.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok=0 bad=0 stopped=0 total=0
# columns: n project opdir args variant outcome ...
while IFS=$'\t' read -r n proj op args variant outcome _; do
	[ "$outcome" = completed ] || continue
	total=$((total + 1))
	w=$tmp/$proj
	if [ ! -d "$w" ]; then
		cp -r "$projects/$proj" "$w" && chmod -R u+w "$w" &&
			(cd "$w" && git init -q && git add -A && git commit -qm base) || exit 2
	fi
	(cd "$w" && git reset -q --hard && git clean -fdxq)
	flags=$(find "$w/$op" -name CMakeLists.txt -exec grep -ohE -- '-D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_]+)?' {} + |
		sort -u | tr '\n' ' ')
	extra=()
	[ "$args" = - ] || read -r -a extra <<<"$args"
	# the pristine side compiled in place, where the instrumented one will be:
	# includes outside the operator (../common) resolve, and name, alike
	start=$(date +%s)
	ORACLE_CXXFLAGS=$flags bash "$oracle/compile_op.sh" "$w/$op" "$tmp/p.txt" >/dev/null 2>&1
	if ! (cd "$w" && "$at" instrument "${extra[@]}" "$op") >"$tmp/out" 2>&1; then
		stopped=$((stopped + 1))
		echo "$proj $op: instrument no longer completes: $(grep -m1 ': error: ' "$tmp/out")"
		continue
	fi
	ORACLE_CXXFLAGS=$flags bash "$oracle/compile_op.sh" "$w/$op" "$tmp/i.txt" >/dev/null 2>&1
	res=$(python3 "$oracle/diffdiag.py" "$tmp/p.txt" "$tmp/i.txt" "$w/$op" 2>&1; echo "seconds: $(($(date +%s) - start)) (both trees)")
	line=$(grep -m1 '^new diagnostics: ' <<<"$res")
	if [ "$line" = "new diagnostics: 0" ]; then
		ok=$((ok + 1))
	else
		bad=$((bad + 1))
		printf '%s\n' "$res" >"$tmp/$n.why"
	fi
	echo "$proj $op${flags:+ ($flags)}: ${line:-no verdict}, $(grep -m1 '^seconds: ' <<<"$res")"
	[ "$line" = "new diagnostics: 0" ] || sed 's/^/    /' "$tmp/$n.why" | head -20
done <"$tsv"
echo "compiled $total completed operators: $ok with 0 new diagnostics, $bad with new ones, $stopped no longer completing"
[ "$bad" = 0 ] && [ "$stopped" = 0 ]
