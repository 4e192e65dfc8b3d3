#!/bin/sh
# `make fuzz-smoke`: runs every fuzz target for FUZZ_SECONDS on seed corpora
# taken from the tests. With a build configured --enable-fuzzing it drives
# the engine binaries (tests/fuzz/engine_*): libFuzzer, or AFL++ when
# FUZZ_ENGINE=afl (build with CC=afl-clang-fast). Otherwise it replays the
# seeds and their mutations through the check-time drivers (no engine).
# Each run is appended to fuzz-log.txt (target, engine, seconds, result), so
# the time each target has been fuzzed can be added up.
#   usage: fuzz-smoke.sh BUILDDIR     env: TOP_SRCDIR, FUZZ_SECONDS, FUZZ_ENGINE, FUZZ_TARGETS
set -u
build=$1
top=${TOP_SRCDIR:?}
seconds=${FUZZ_SECONDS:-60}
engine=${FUZZ_ENGINE:-libfuzzer}
work="$build/fuzz-work"
log="$build/fuzz-log.txt"
status=0

# target: seed directories (under the source tree, separated by ':') and file name suffixes
seeds() {
	case $1 in
	rules) echo "tests/rules .rules" ;;
	cxx) echo "tests/scan .cpp .h .hpp .cc .inl" ;;
	pt) echo "tests/collect/fixtures:tests/badinput/fixtures .pt" ;;
	npy) echo "tests/collect/fixtures .npy" ;;
	point_map) echo "tests/collect/fixtures:tests/badinput/fixtures/maps .json" ;;
	chrome) echo "tests/collect .json" ;;
	perfetto) echo "tests/collect/traces .pftrace" ;;
	py) echo "tests .py" ;;
	sh) echo "tests/hook .sh" ;;
	hook_block) echo "tests/hook/names .name" ;;
	launch) echo "tests/launch .cpp .h" ;;
	journal) echo "tests/fuzz/journal .journal .manifest" ;;
	esac
}

corpus() { # corpus TARGET DIR: copy the seeds, flattened
	set -- "$1" "$2" $(seeds "$1")
	t=$1 out=$2 dir=$3; shift 3
	mkdir -p "$out"
	for d in $(echo "$dir" | tr : ' '); do
		for suf in "$@"; do
			find "$top/$d" -type f -name "*$suf" -size -1024k 2>/dev/null
		done
	done | sort | while read -r f; do
		cp "$f" "$out/$(echo "${f#$top/}" | tr / _)"
	done
}

for t in ${FUZZ_TARGETS:-rules cxx pt npy point_map chrome perfetto py sh hook_block host launch journal}; do
	bin="$build/tests/fuzz/engine_$t"
	[ -n "$(seeds "$t")" ] || continue
	if [ -x "$bin" ]; then
		rm -rf "$work/$t"
		mkdir -p "$work/$t/crashes"
		corpus "$t" "$work/$t/seeds"
		start=$(date +%s)
		if [ "$engine" = afl ]; then
			AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
				afl-fuzz -i "$work/$t/seeds" -o "$work/$t/afl" -V "$seconds" -- "$bin" \
				>"$work/$t/run.log" 2>&1
			found=$(ls "$work/$t"/afl/default/crashes/id* "$work/$t"/afl/default/hangs/id* 2>/dev/null | wc -l)
		else
			cp -R "$work/$t/seeds" "$work/$t/corpus"
			"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
				-artifact_prefix="$work/$t/crashes/" "$work/$t/corpus" >"$work/$t/run.log" 2>&1
			found=$(ls "$work/$t"/crashes 2>/dev/null | wc -l)
		fi
		took=$(( $(date +%s) - start ))
		if [ "$found" -eq 0 ]; then result=clean; else result="$found findings in $work/$t"; status=1; fi
		echo "$t $engine ${took}s $result" | tee -a "$log"
	else
		replay="$build/tests/fuzz/fuzz_$t"
		[ "$t" = cxx ] && replay="$build/tests/fuzz/fuzz_cxx_smoke"
		if [ ! -x "$replay" ]; then
			echo "$t: no target built"
			continue
		fi
		if TOP_SRCDIR=$top "$replay" >"$build/fuzz-replay-$t.log" 2>&1; then
			echo "$t replay $(tail -n 1 "$build/fuzz-replay-$t.log" | tr -d '#') clean (configure --enable-fuzzing for an engine)"
		else
			echo "$t replay FAILED: see $build/fuzz-replay-$t.log"; status=1
		fi
	fi
done
exit $status
