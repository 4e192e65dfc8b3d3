/* collect's engine: rank dumps + point map + rules -> slices on per-core
 * tracks, fed to a trace_ops sink, with every record accounted for.
 *
 * Time: cycles of all cores of one device share a clock (device/LAYOUT.md),
 * so each rank has one time axis. With the default alignment "rank-start",
 * a rank's origin (t = 0) is the earliest kernel-entry cycle among its cores
 * (word S-1 in moe-v1, word 7 in moe-v2), which the start synchronisation
 * makes the moment its cores began together; ranks are aligned on that
 * moment. "absolute" keeps raw cycles (for devices known to share a clock). */
#ifndef AUTOTRACE_COLLECT_RUN_H
#define AUTOTRACE_COLLECT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "collect_counts.h"
#include "diag.h"
#include "dump.h"
#include "point_map.h"
#include "rule_policy.h"
#include "trace_ops.h"

enum collect_align { COLLECT_ALIGN_RANK_START, COLLECT_ALIGN_ABSOLUTE };

struct collect_opts {
	const struct rule_policy *policy;
	const struct point_map *map;
	const char *map_path;
	bool ignore_stamp;
	bool whole_index;             /* index = bits 32..63, no extra (two-argument MoeTracing) */
	bool progress;
	bool quiet;                   /* no per-record warnings */
	enum collect_align align;
	int depth;                    /* keep slices at nesting level <= depth; 0 = all */
	const char *ranks;            /* "0,2,4-7" or NULL */
	const char *cores;            /* see collect_core_selected, or NULL */
	const pcre2_code *label_re;   /* or NULL */
	const char *label;            /* its text, for messages */
	int compress_level;           /* zlib level of a compressed output, 1-9; 0: 1 */
};

/* Runs the inputs (sorted by rank) into `sink`. 0, or -1 after reporting
 * (bad dump, stamps of another build, a moe-v1 map that lacks more than
 * COLLECT_MAX_UNMAPPED_PCT of the ids, filters that keep nothing, nothing
 * mapped). */
#define COLLECT_MAX_UNMAPPED_PCT 5
int collect_run(const struct dump_input *in, size_t nin, const struct collect_opts *o, const struct trace_ops *ops,
		void *sink, struct collect_counts *c, struct diag *diag);

/* Rank lists "0,2,4-7": valid syntax? and does it select `rank`? */
bool collect_rank_spec_valid(const char *spec);
bool collect_rank_selected(const char *spec, int rank);

#endif
