# Sourced by the benchmarks on real operators: where the corpus is
# ($AUTOTRACE_CORPUS, default ../shared/corpus from the top of the
# repository), and a clear stop (exit 77, "skipped") when it is absent.
#   . "$here/corpus.sh"; corpus_need RELATIVE-PATH
corpus=${AUTOTRACE_CORPUS:-$here/../../shared/corpus}
corpus_need() {
	if [ ! -e "$corpus/$1" ]; then
		echo "$(basename "$0"): no $1 in the corpus at $corpus (set AUTOTRACE_CORPUS)" >&2
		exit 77
	fi
}
