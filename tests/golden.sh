# The one runner of the golden cases (sourced by tests/scan.test, check.test,
# gate.test, apply.test, rules.test, wire.test, launch.test, hook.test,
# hook_tree.test, instrument.test, corpus.test and preprocess.test;
# tests/README describes the layout). A case is a directory NAME.d:
#   input/     the files the command reads: copied to a work directory, where
#              the command runs
#   args       the command line after `autotrace`, in shell words
#   stdout     the expected stdout, byte for byte   } absent: not compared
#   stderr     the expected stderr, byte for byte   }
#   status     the expected exit status (absent: 0)
#   expected/  the work directory after the run: the files written (absent:
#              not compared)
#   filter     a sed script applied to stdout and stderr before comparing (for
#              output of other tools that varies)
# One TAP line per case, then what the suite checks more of each case
# (golden_more). GOLDEN_REGEN=1 rewrites the expected files a case has (and
# status when the run does not exit 0) from the current output: read the diff
# before committing it.
#
# A suite may redefine, before golden_run:
#   golden_skip CASE           succeed, printing why, when the case cannot run
#                              here (its input is absent: the corpus); one TAP
#                              line `# SKIP` with the reason (default: never)
#   golden_prepare CASE WORK   fill WORK (default: a copy of CASE/input)
#   golden_exec ARGS...        run autotrace (default: "$AUTOTRACE" ARGS...)
#   golden_normalise WORK out|err   a filter of the raw output (default: none)
#   golden_expected CASE WORK  set golden_tree, the tree WORK must equal
#                              (default: CASE/expected)
#   golden_regen_tree CASE WORK     write WORK back as the case's expected tree
#   golden_more CASE WORK STATUS ARGS...   more checks, one TAP line each
# and set golden_ignore (the names, blank-separated, diff -r leaves out of the
# tree comparison).
# A directory given to golden_run that holds no case is a failure: a suite
# never passes by finding nothing.
. "$TOP_SRCDIR/tests/tap.sh"
AUTOTRACE=${AUTOTRACE:-autotrace}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
golden_ignore=

golden_skip() { return 1; }
golden_prepare() { cp -r "$1/input/." "$2/"; }
golden_exec() { "$AUTOTRACE" "$@"; }
golden_expected() { golden_tree=$1/expected; }
golden_regen_tree() { rm -rf "$1/expected" && cp -r "$2" "$1/expected"; }
golden_more() { :; }

# golden_compare EXPECTED ACTUAL: diff -u into $tmp/why; under GOLDEN_REGEN
# the expected file is rewritten first. For golden_more's own files too.
golden_compare() {
	[ -n "${GOLDEN_REGEN:-}" ] && cp "$2" "$1"
	diff -u "$1" "$2" >>"$tmp/why" 2>&1
}

# golden_case CASE NAME: run one case, one TAP line, then golden_more.
golden_case() {
	c=$1; name=$2
	w=$tmp/cases/$name
	rm -rf "$w"; mkdir -p "$w"
	if [ ! -f "$c/args" ]; then
		echo "$c has no args file (the command line after autotrace)" >"$tmp/why"
		tap_fail "$name: the case has a command line" "$tmp/why"
		return
	fi
	if golden_skip "$c" >"$tmp/why" 2>&1; then
		tap_skip "$name" "$(tr '\n' ' ' <"$tmp/why" | sed 's/ *$//')"
		rm -rf "$w"
		return
	fi
	if ! golden_prepare "$c" "$w" >"$tmp/why" 2>&1; then
		tap_fail "$name: the case's input is set up" "$tmp/why"
		rm -rf "$w"
		return
	fi
	eval "set -- $(cat "$c/args")"
	(cd "$w" && golden_exec "$@" >"$tmp/out" 2>"$tmp/err"); rc=$?
	# (command -v is a builtin: a suite without a filter costs no process per case)
	if command -v golden_normalise >/dev/null; then
		golden_normalise "$w" out <"$tmp/out" >"$tmp/f" && mv "$tmp/f" "$tmp/out"
		golden_normalise "$w" err <"$tmp/err" >"$tmp/f" && mv "$tmp/f" "$tmp/err"
	fi
	if [ -f "$c/filter" ]; then
		sed -f "$c/filter" "$tmp/out" >"$tmp/f" && mv "$tmp/f" "$tmp/out"
		sed -f "$c/filter" "$tmp/err" >"$tmp/f" && mv "$tmp/f" "$tmp/err"
	fi
	if [ -n "${GOLDEN_REGEN:-}" ]; then
		if [ "$rc" -ne 0 ] || [ -f "$c/status" ]; then echo "$rc" >"$c/status"; fi
		[ -d "$c/expected" ] && golden_regen_tree "$c" "$w"
	fi
	: >"$tmp/why"
	want=0
	[ -f "$c/status" ] && want=$(cat "$c/status")
	if [ "$rc" != "$want" ]; then
		echo "exit status $rc, expected $want" >>"$tmp/why"
		[ -f "$c/stderr" ] || cat "$tmp/err" >>"$tmp/why"
	fi
	[ -f "$c/stdout" ] && golden_compare "$c/stdout" "$tmp/out"
	[ -f "$c/stderr" ] && golden_compare "$c/stderr" "$tmp/err"
	if [ -d "$c/expected" ]; then
		golden_expected "$c" "$w"
		# shellcheck disable=SC2046
		diff -ru $(for x in $golden_ignore; do printf ' -x %s' "$x"; done) "$golden_tree" "$w" >>"$tmp/why" 2>&1
	fi
	if [ -s "$tmp/why" ]; then tap_fail "$name" "$tmp/why"; else tap_ok "$name"; fi
	golden_more "$c" "$w" "$rc" "$@"
	rm -rf "$w"
}

# golden_run DIR...: every case DIR/*.d, named by its path under tests/.
golden_run() {
	for golden_dir in "$@"; do
		golden_found=
		for golden_c in "$golden_dir"/*.d; do
			[ -d "$golden_c" ] || continue
			golden_found=yes
			golden_name=${golden_c#"$TOP_SRCDIR/tests/"}
			golden_case "$golden_c" "${golden_name%.d}"
		done
		[ -n "$golden_found" ] || tap_fail "${golden_dir#"$TOP_SRCDIR/tests/"}: no case (no NAME.d directory)"
	done
}
