#!/bin/sh
# Benchmark of the inflate cap of `report`'s Perfetto reader (256 MiB, see
# src/collect/perfetto_read.h): the peak RSS (/usr/bin/time) and wall time of
# `autotrace report` on a trace whose one compressed packet inflates to
# 200, 300, 500 and 600 MiB of zeros (bench/gen_pftrace_bomb.py, each field
# padded to a worst length for a buffer that doubles from 4 x its size: the
# first three to 523,263 bytes, which such a buffer reads whole up to 512 MiB
# - 1 KiB; 600 MiB, whose stream is longer, to 1,047,551, where it stops
# at 512 MiB - 512),
# and on a small compressed trace for the baseline. With a second binary
# (e.g. one built before issue 33), the two side by side. The chunk under
# the cap is read (exit 0: zeros are empty fields), the others refused
# (exit 2). Each figure is the median of BENCH_RUNS runs (default 3).
#   bench/bench_perfetto_cap.sh [AUTOTRACE [OTHER_AUTOTRACE]] [WORKDIR via $BENCH_WORK]
set -e
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
other=${2:-}
work=${BENCH_WORK:-${TMPDIR:-/tmp}/autotrace-bench-cap}
runs=${BENCH_RUNS:-3}
mkdir -p "$work"
for mib in 200 300 500 600; do
	field=
	[ $mib = 600 ] && field=1047551
	[ -f "$work/bomb$mib.pftrace" ] || python3 "$here/gen_pftrace_bomb.py" "$work/bomb$mib.pftrace" "$mib" $field
done
small=$here/../tests/collect/traces/v1_pair_compressed.pftrace

# one BINARY TRACE: "STATUS PEAK_MB WALL_S", the median run by peak
one() {
	i=0
	: >"$work/runs"
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f '%x %M %e' -o "$work/time" "$1" report "$2" >/dev/null 2>&1 || true
		# the last line: time puts "Command exited with non-zero status" before it
		tail -n 1 "$work/time" | { read -r st kb s; echo "$kb $st $s"; } >>"$work/runs"
		i=$((i + 1))
	done
	sort -n "$work/runs" | sed -n "$(((runs + 1) / 2))p" | {
		read -r kb st s
		printf '%s %.1f %s' "$st" "$(echo "$kb / 1024" | bc -l)" "$s"
	}
}

printf '%-22s %-32s %s\n' "trace" "$at" "${other:+$other}"
for t in small bomb200 bomb300 bomb500 bomb600; do
	if [ $t = small ]; then f=$small; else f=$work/$t.pftrace; fi
	set -- $(one "$at" "$f")
	line=$(printf 'exit %s %7.1f MB %6.2f s' "$1" "$2" "$3")
	if [ -n "$other" ]; then
		set -- $(one "$other" "$f")
		line="$line    $(printf 'exit %s %7.1f MB %6.2f s' "$1" "$2" "$3")"
	fi
	printf '%-22s %s\n' "$t" "$line"
done
