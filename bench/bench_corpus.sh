#!/bin/sh
# Times autotrace on real operator code: BENCH_COPIES (default 40) copies of
# every operator of the shared corpus, each copy an operator directory of its
# own, side by side under WORKDIR (default ${TMPDIR:-/tmp}/autotrace-bench-corpus).
#   scan         one run over all the kernel sources of the tree
#   plan, apply, strip
#                one run over all the operators (autotrace apply DIR...), then
#                one run per operator (startup and rules loading each time);
#                the tree must come back byte for byte
# Prints MB of source per second (wall, and user+sys) and the peak RSS of the
# largest single run. The corpus is found at $AUTOTRACE_CORPUS (default
# ../shared/corpus); without it the script says so and exits 77.
#   bench/bench_corpus.sh [AUTOTRACE] [WORKDIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../autotrace}
base=${2:-${TMPDIR:-/tmp}/autotrace-bench-corpus}
copies=${BENCH_COPIES:-40}
. "$here/corpus.sh"
corpus_need vllm-w4a8
tree=$base/tree
export AUTOTRACE_RULES_DIR="${AUTOTRACE_RULES_DIR:-$here/../rules}"
export AUTOTRACE_DEVICE_DIR="${AUTOTRACE_DEVICE_DIR:-$here/../device}"
ops="vllm-w4a8/before/csrc/mc2/dispatch_ffn_combine_w4_a8 ops-transformer/mc2/allto_allv_grouped_mat_mul
ops-transformer/mc2/grouped_mat_mul_allto_allv ops-transformer/moe/moe_token_permute
sgl-kernel-npu/csrc/mla_preprocess sgl-kernel-npu/csrc/batch_matmul_transpose sgl-kernel-npu/csrc/lightning_indexer"
if [ ! -f "$base/.done-$copies" ]; then
	rm -rf "$base"
	mkdir -p "$tree"
	i=0
	while [ "$i" -lt "$copies" ]; do
		for op in $ops; do
			d="$tree/c$(printf %03d "$i")/$(basename "$op")"
			mkdir -p "$d"
			cp -r "$corpus/$op/op_kernel" "$d/"
		done
		i=$((i + 1))
	done
	touch "$base/.done-$copies"
fi
# (the corpus is read-only; apply refuses a file it cannot write)
chmod -R u+w "$tree"
bytes=$(find "$tree" -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.cpp' \) -printf '%s\n' | awk '{ s += $1 } END { print s }')
nops=$(find "$tree" -mindepth 2 -maxdepth 2 -type d | wc -l)
timing=$(mktemp)
trap 'rm -f "$timing"' EXIT

# run CMD...: times CMD (a shell loop over the operators counts as one run: its
# children's user and sys seconds add up, its peak RSS is the largest child's)
tw=0 tu=0 ts=0 rss=0
run() {
	/usr/bin/time -f '%e %U %S %M' -o "$timing" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
	read -r tw tu ts rss <"$timing"
}
# each CMD runs once per operator directory, as a user runs it
per_op() {
	run sh -c 'bin=$1; cmd=$2; shift 2; for d in "$@"; do "$bin" "$cmd" "$d" || exit 1; done' sh "$bin" "$1" "$tree"/*/*
}
report() {
	awk -v b="$bytes" -v w="$tw" -v u="$tu" -v s="$ts" -v r="$rss" -v what="$1" -v n="$nops" 'BEGIN {
		printf "  %-7s %3d operators, %.1f MB: wall %.2f s (user %.2f, sys %.2f): %6.1f MB/s wall, %6.1f MB/s user+sys; peak RSS %.1f MB\n",
			what, n, b / 1e6, w, u, s, b / 1e6 / (w > 0 ? w : 0.001), b / 1e6 / (u + s > 0 ? u + s : 0.001), r / 1024 }'
	tw=0 tu=0 ts=0 rss=0
}
echo "corpus: $copies copies of 7 operators, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of kernel sources"
"$bin" scan --root "$tree" "$tree" >/dev/null 2>&1 || true # warm the page cache
run "$bin" scan --root "$tree" "$tree"
report scan
echo "one run for all operators:"
for cmd in plan apply strip; do
	run "$bin" "$cmd" "$tree"/*/*
	report "$cmd"
done
echo "one run per operator:"
for cmd in plan apply strip; do
	per_op "$cmd"
	report "$cmd"
done
i=0
ok=yes
for d in "$tree"/c000/*; do
	diff -r "$corpus/$(echo "$ops" | tr ' ' '\n' | grep "/$(basename "$d")\$")/op_kernel" "$d/op_kernel" >/dev/null || ok=no
done
echo "  strip restored the tree byte for byte: $ok"
[ "$ok" = yes ]
