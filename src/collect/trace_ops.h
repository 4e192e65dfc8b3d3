/* The interface between collect's pairing engine and an output: a small ops
 * table (begin / process / track / slice begin / slice end / end), one file
 * per format (trace_chrome.c, trace_perfetto.c, collect_stats.c for report).
 * The engine guarantees: a rank's process() before its tracks, a track()
 * before its first slice, all slices of one track before the next track,
 * and strictly nested slices on each track, in time order. */
#ifndef AUTOTRACE_TRACE_OPS_H
#define AUTOTRACE_TRACE_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "collect_slot.h"
#include "point_map.h"
#include "trace_out.h"

struct collect_counts;

struct trace_header {
	const struct point_map *map;  /* labels are map->labels[0 .. nlabels) */
	const char *map_path;
	uint64_t clock_hz;
	const char *alignment;        /* "rank-start" or "absolute" */
};

struct trace_track {
	int rank;
	unsigned tid;                 /* the track's position in its rank, from 0 */
	const char *name;             /* "AIC 3", "AIV 3.1" */
	enum core_kind kind;
	uint64_t uuid;                /* unique across the trace */
};

struct trace_ops {
	const char *name;
	void *(*new_sink)(struct trace_out *out);
	int (*begin)(void *sink, const struct trace_header *h);
	void (*process)(void *sink, int rank);
	void (*track)(void *sink, const struct trace_track *t);
	void (*slice_begin)(void *sink, const struct trace_track *t, uint64_t ts_ns, uint32_t label,
			    uint32_t index, uint32_t extra);
	void (*slice_end)(void *sink, const struct trace_track *t, uint64_t ts_ns, bool unclosed);
	int (*end)(void *sink, const struct collect_counts *c);
	void (*free_sink)(void *sink);
};

extern const struct trace_ops trace_chrome_ops;    /* X events */
extern const struct trace_ops trace_chrome_be_ops; /* B/E pairs */
extern const struct trace_ops trace_perfetto_ops;
extern const struct trace_ops trace_perfetto_z_ops; /* the same packets, deflated in chunks */

#endif
