# help_in_man CMD START END: the long options `autotrace CMD --help` lists
# (--help aside) against autotrace(1) from the line matching START to the
# one matching END (sed addresses): each must be there as \-\-LONG (or, for
# one with a short form, as that); one TAP line. Sourced after tap.sh, with
# $tmp and $AUTOTRACE set.
help_in_man() {
	sed -n "/$2/,/$3/p" "$TOP_SRCDIR/man/autotrace.1" >"$tmp/man"
	: >"$tmp/why"
	[ -s "$tmp/man" ] || echo "autotrace(1) has no lines from /$2/ to /$3/" >"$tmp/why"
	"$AUTOTRACE" "$1" --help | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z-]*\).*/\2 \1/p' |
		while read -r long short; do
			[ "$long" = help ] && continue
			pat=$(printf '%s' "$long" | sed 's/-/\\\\-/g')
			grep -q "\\\\-\\\\-$pat" "$tmp/man" && continue
			[ -n "$short" ] && grep -q "\\\\${short%,}\\>" "$tmp/man" && continue
			echo "$1 --help has --$long, autotrace(1)'s $1 section does not"
		done >>"$tmp/why"
	if [ -s "$tmp/why" ]; then tap_fail "$1 --help and autotrace(1) name the same options" "$tmp/why"
	else tap_ok "$1 --help and autotrace(1) name the same options"; fi
}
