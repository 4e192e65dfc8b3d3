# The table of the benchmarks (sourced by bench/run.sh and
# bench/bench_untrusted.sh): row_head prints its head, row one line.
# size_of PATH...: the bytes of the files under PATH (the marks of a
# generated input left out).
size_of() { find "$@" -type f ! -name '.done-*' -printf '%s\n' | awk '{ s += $1 } END { print s }'; }
row_head() { printf '%-22s %-24s %10s %9s %14s %10s\n' "command" "input" "size MB" "seconds" "throughput" "peak MB"; }
# row NAME INPUT BYTES UNIT-COUNT UNIT-NAME CMD...: after a warm-up run, time
# CMD BENCH_RUNS times (default 5; once with NOWARM, for commands that change
# their input) and print the median wall time (date +%s%N around the run) and
# the peak RSS of the median run (/usr/bin/time)
row() {
	name=$1 input=$2 bytes=$3 count=$4 unit=$5
	shift 5
	runs=${BENCH_RUNS:-5}
	[ -n "${NOWARM:-}" ] && runs=1
	[ -n "${NOWARM:-}" ] || "$@" >/dev/null 2>&1 || true
	t=$(mktemp)
	: >"$t.times"
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		if ! /usr/bin/time -v taskset -c 0 "$@" >/dev/null 2>"$t.$i"; then
			printf '%-22s failed:\n' "$name"; tail -n 5 "$t.$i"; rm -f "$t" "$t".*; return
		fi
		t1=$(date +%s%N)
		echo "$(( (t1 - t0) / 1000 )) $i" >>"$t.times"
		i=$((i + 1))
	done
	med=$(sort -n "$t.times" | sed -n "$(((runs + 1) / 2))p")
	us=${med% *}
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$t.${med#* }")
	rm -f "$t" "$t".*
	awk -v n="$name" -v i="$input" -v b="$bytes" -v us="$us" -v c="$count" -v u="$unit" -v r="$rss" 'BEGIN {
		s = us / 1e6
		if (u == "MB") tp = sprintf("%.1f MB/s", b / 1e6 / s); else tp = sprintf("%.1f M rec/s", c / 1e6 / s)
		printf "%-22s %-24s %10.1f %9.3f %14s %10.1f\n", n, i, b / 1e6, s, tp, r / 1024 }'
}

