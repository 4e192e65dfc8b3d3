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
	int compress_level;           /* zlib level of a compressed output, 1-9; 0: 1 */
};

struct trace_track {
	int rank;
	unsigned tid;                 /* the track's position in its rank, from 0 */
	const char *name;             /* "AIC 3", "AIV 3.1" */
	enum core_kind kind;
	uint64_t uuid;                /* unique across the trace */
};

/* The thread id of track t, the same in every format: never 0 (Perfetto's
 * JSON importer reads tid 0 as the process's main thread and makes it
 * tid = pid, merging it with another core) and unique across the ranks,
 * (rank + 1) * 100000 + position + 1, in the order of the tracks. */
static inline uint64_t trace_track_thread_id(const struct trace_track *t)
{
	return ((uint64_t)t->rank + 1) * 100000 + t->tid + 1;
}

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
