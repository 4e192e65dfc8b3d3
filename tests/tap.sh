# TAP helpers for the shell test runners (sourced, not run).
# tap_plan N; tap_ok NAME; tap_fail NAME [details-file]; tap_skip NAME REASON; tap_done
# (or tap_end, which prints the plan last, for runners that count as they go)
tap_n=0
tap_failed=0
tap_plan() { echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
tap_fail() {
	tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n - $1"
	if [ -n "${2:-}" ] && [ -f "$2" ]; then sed 's/^/# /' "$2" | head -n 60; fi
}
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
# tap_check NAME CMD...: ok when CMD succeeds; its output is shown on failure.
tap_check() {
	tap_name=$1; shift
	tap_out=$(mktemp)
	if "$@" >"$tap_out" 2>&1; then tap_ok "$tap_name"; else tap_fail "$tap_name" "$tap_out"; fi
	rm -f "$tap_out"
}
tap_done() { [ "$tap_failed" -eq 0 ]; }
tap_end() { echo "1..$tap_n"; tap_done; }
# lock_dir DIR / unlock_dir DIR: make DIR unwritable, even for root (who
# ignores permissions: then the immutable attribute, chattr +i). lock_dir
# fails where neither works (a root run on a file system without chattr).
lock_dir() {
	if [ "$(id -u)" -eq 0 ]; then chattr +i "$1" 2>/dev/null; else chmod a-w "$1"; fi
}
unlock_dir() {
	if [ "$(id -u)" -eq 0 ]; then chattr -i "$1" 2>/dev/null; else chmod u+w "$1"; fi
}
