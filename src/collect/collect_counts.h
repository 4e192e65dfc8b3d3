/* What collect counts of a run: files, slots, records and where each went
 * (mapped, skipped, paired, dropped). The engine (collect_run.c) fills it;
 * the outputs read it at the end (trace_ops' end(): the Chrome trace's
 * "counts"), and collect prints it on stderr unless -q. */
#ifndef AUTOTRACE_COLLECT_COUNTS_H
#define AUTOTRACE_COLLECT_COUNTS_H

#include <stdint.h>
#include <stdio.h>

struct collect_counts {
	uint64_t files, slots, slots_empty, tracks;
	uint64_t records;             /* records read from the slots */
	uint64_t mapped;              /* records whose id is in the map */
	uint64_t slices;              /* B/E pairs closed (matched or not) */
	uint64_t written;             /* slices passed to the output after filters */
	uint64_t skipped_no_mapping;
	uint64_t unpreprocessed;      /* records of the reserved id 0xFFFFFFFF */
	uint64_t unmatched_b, unmatched_e;
	uint64_t dropped_on_device;   /* refused by the device guard (layouts that count them: moe-v2) */
	uint64_t full_uncounted;      /* slots at capacity of layouts that do not count what the
				       * device refused (moe-v1): records may be lost, uncounted;
				       * printed as full_v1_slots */
	uint64_t bad_cycles;          /* records whose cycle breaks their core's order: placed at
				       * the time of the record before, the timeline kept */
	uint64_t paired_by_label;     /* E whose index/extra differ from those of the B it closes */
	uint64_t interleaved;         /* E closing a B of its label under another B of that label */
	uint64_t ids_in_dumps, ids_in_map, ids_in_both;
	uint64_t slots_stamped;       /* slots carrying a build stamp (layouts that have one: moe-v2) */
	uint64_t slots_selected;      /* slots --core keeps */
	double seconds;
};

/* The accounting summary, one "key value" per line, prefixed "collect: ". */
void collect_counts_print(FILE *out, const struct collect_counts *c);

#endif
