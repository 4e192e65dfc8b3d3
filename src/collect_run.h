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
};

struct collect_counts {
	uint64_t files, slots, slots_empty, tracks;
	uint64_t records;             /* records read from the slots */
	uint64_t mapped;              /* records whose id is in the map */
	uint64_t slices;              /* B/E pairs closed (matched or not) */
	uint64_t written;             /* slices passed to the output after filters */
	uint64_t skipped_no_mapping;
	uint64_t unpreprocessed;      /* records of the reserved id 0xFFFFFFFF */
	uint64_t unmatched_b, unmatched_e;
	uint64_t dropped_v2;          /* refused by the device guard (moe-v2 says how many) */
	uint64_t full_v1;             /* moe-v1 slots at capacity: records may be lost, uncounted */
	uint64_t bad_cycles;          /* records whose cycle breaks their core's order: placed at
				       * the time of the record before, the timeline kept */
	uint64_t paired_by_label;     /* E whose index/extra differ from those of the B it closes */
	uint64_t interleaved;         /* E closing a B of its label under another B of that label */
	uint64_t ids_in_dumps, ids_in_map, ids_in_both;
	uint64_t slots_stamped;       /* moe-v2 slots carrying a build stamp */
	uint64_t slots_selected;      /* slots --core keeps */
	double seconds;
};

/* Runs the inputs (sorted by rank) into `sink`. 0, or -1 after reporting
 * (bad dump, stamps of another build, a moe-v1 map that lacks more than
 * COLLECT_MAX_UNMAPPED_PCT of the ids, filters that keep nothing, nothing
 * mapped). */
#define COLLECT_MAX_UNMAPPED_PCT 5
int collect_run(const struct dump_input *in, size_t nin, const struct collect_opts *o, const struct trace_ops *ops,
		void *sink, struct collect_counts *c, struct diag *diag);

/* The accounting summary, one "key value" per line, prefixed "collect: ". */
void collect_counts_print(FILE *out, const struct collect_counts *c);

/* Rank lists "0,2,4-7": valid syntax? and does it select `rank`? */
bool collect_rank_spec_valid(const char *spec);
bool collect_rank_selected(const char *spec, int rank);

#endif
