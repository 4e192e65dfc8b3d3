#!/bin/sh
# What a hostile tree costs (issue 33), in the table of bench/run.sh: the
# bundled example operator with 100,000 files of 30 bytes under op_kernel/
# that nothing includes (plan, check, gate), and with one unreferenced file
# of zeros of 40 MB (also read, with the bound raised) and one of 1 GB
# (sparse) (plan); and the lock of a project of 50,000 directories (strip of
# the operator: the lock looks for runs on trees above or below it, walking
# the project). Before issue 33: gate 23.5 s and 2.9 GB on the first,
# plan 1.36 GB on the second and 17.8 GB (out of memory) on the third: do
# not run this with such a binary.
#   bench/bench_untrusted.sh [AUTOTRACE] [WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
at=${1:-$here/../autotrace}
work=${2:-${TMPDIR:-/tmp}/autotrace-bench-untrusted}
export AUTOTRACE_RULES_DIR="${AUTOTRACE_RULES_DIR:-$here/../rules}"
export AUTOTRACE_DEVICE_DIR="${AUTOTRACE_DEVICE_DIR:-$here/../device}"
. "$here/row.sh"
example=$here/../examples/moe_dispatch_gmm
many=$work/many big=$work/big huge=$work/huge wide=$work/wide

if [ ! -f "$work/.done" ]; then
	rm -rf "$work"
	mkdir -p "$work"
	for d in "$many" "$big" "$huge"; do
		cp -R "$example" "$d"
		rm -rf "$d/build_out"
	done
	mkdir -p "$many/op_kernel/many"
	awk -v d="$many/op_kernel/many" 'BEGIN { for (i = 0; i < 100000; i++) {
		f = sprintf("%s/f%05d.h", d, i); printf "void f%05d(void) { return; }\n", i > f; close(f) } }'
	head -c 40000000 /dev/zero >"$big/op_kernel/zeros.h"
	truncate -s 1G "$huge/op_kernel/zeros.h"
	mkdir -p "$wide/dirs" && cp -R "$example" "$wide/op" && rm -rf "$wide/op/build_out"
	(cd "$wide" && git init -q && awk 'BEGIN { for (i = 0; i < 50000; i++) printf "dirs/d%05d\n", i }' | xargs mkdir -p)
	touch "$work/.done"
fi
# gate exits 1 on the example (its findings): a run is good when it ends so
upto1='"$@"; [ $? -le 1 ]'

row_head
n=$(size_of "$many")
row "plan" "100,000 files of 30 B" "$n" 0 MB "$at" plan "$many"
row "check" "100,000 files of 30 B" "$n" 0 MB "$at" check "$many"
row "gate" "100,000 files of 30 B" "$n" 0 MB sh -c "$upto1" sh "$at" gate "$many"
row "plan" "a file of 40 MB" "$(size_of "$big")" 0 MB "$at" plan "$big"
# read all the same: what it costs within a bound raised
row "plan, bound 64M" "a file of 40 MB" "$(size_of "$big")" 0 MB "$at" --max-file-size 64M plan "$big"
row "plan" "a file of 1 GB" "$(size_of "$huge")" 0 MB "$at" plan "$huge"
# strip writes nothing on the pristine example; it takes the project's lock
row "strip (the lock)" "50,000 directories" "$(size_of "$wide/op")" 0 MB "$at" strip "$wide/op"
