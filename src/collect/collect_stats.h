/* Per-label timing statistics for `report`: slice durations grouped by
 * (label, core type), with count, total, mean, p50, p99, max and the share
 * of the cores' time (inclusive: a parent's share contains its children's).
 * Filled from the collect engine (as a trace_ops sink) or from a Chrome
 * trace JSON. Owns copies of the labels. Memory stays bounded: p50 and
 * p99 are exact up to 4,096 slices of a row, within 0.5% beyond (count,
 * total, mean and max always exact). */
#ifndef AUTOTRACE_COLLECT_STATS_H
#define AUTOTRACE_COLLECT_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "slice_path.h"
#include "trace_ops.h"

enum { STATS_OTHER = 0, STATS_AIC = 1, STATS_AIV = 2, STATS_KINDS = 3 };

struct stats;

struct stats_row {
	const char *label;
	int kind;
	uint64_t count, total_ns, mean_ns, p50_ns, p99_ns, max_ns;
	double share;               /* total / the time of the cores of this kind */
	bool approximate;           /* p50, p99 within 0.5% (over 4,096 slices) */
};

/* One slice as report's views see it (report_views.h): what the table rows
 * above reduce away. Ranks and cores are ordinals the reader gives out
 * (named through the observer); labels are ids of the reader, whose text
 * label_text gives. `path` is the slice's path in the reader's `paths`
 * (slice_path.h): its own label, then its parent's path, up to the
 * outermost slice open around it. self_ns is the duration less that of the
 * slices nested in it. */
struct stats_slice {
	int kind;
	uint32_t rank, core;
	uint32_t index, extra;      /* record bits 40..63 and 32..39 (0: none) */
	uint64_t dur_ns, self_ns;
	uint32_t path;
	const struct slice_paths *paths;
	const char *(*label_text)(const void *src, uint32_t label);
	const void *src;
};

/* Told of every slice a reader adds to the stats, and of the names of the
 * ranks and cores (a rank may be named after its slices: a trace's
 * metadata can come last). `core` interns a core's name, returning its
 * ordinal. */
struct stats_observer {
	void *ctx;
	uint32_t (*core)(void *ctx, const char *name, size_t len);
	void (*rank)(void *ctx, uint32_t rank, const char *name, size_t len);
	void (*slice)(void *ctx, const struct stats_slice *sl);
};

struct stats *stats_new(void);
/* Every slice added from now on goes to `o` too (NULL: none). */
void stats_observe(struct stats *s, const struct stats_observer *o);
void stats_free(struct stats *s);

void stats_add(struct stats *s, const char *label, int kind, uint64_t dur_ns);
/* The number of the row of (label, kind), made when new (rows stay: a
 * reader caches the number per label), and a duration added to it. */
size_t stats_row(struct stats *s, const char *label, int kind);
void stats_row_add(struct stats *s, size_t row, uint64_t dur_ns);
/* What stats_observe set (NULL: none). */
const struct stats_observer *stats_observer(const struct stats *s);
/* Adds a core's busy span (first begin to last end) to its kind's time. */
void stats_core_time(struct stats *s, int kind, uint64_t ns);

/* The rows, by kind (AIC, AIV, other) then total time, descending; valid
 * until the next stats_add. */
const struct stats_row *stats_rows(struct stats *s, size_t *n);

const char *stats_kind_name(int kind);

/* A trace_ops sink feeding `s` (free it with the ops' free_sink). */
void *stats_sink_new(struct stats *s);
extern const struct trace_ops stats_trace_ops;

/* The trace readers (stats_trace.c). Reads a trace file: Chrome trace JSON (B/E and X events) or a Perfetto
 * protobuf trace (slices on named tracks), told apart by content. Core types
 * come from the thread / track names "AIC ..." / "AIV ...", wherever they
 * stand. One streaming pass. 0 or -1 after reporting `path:line:col: error:`
 * (JSON) or `path: error: ... at byte N` (Perfetto). */
int stats_read_trace(struct stats *s, const char *path, struct diag *diag);
/* The same over bytes in memory, one format each, named `path` in messages. */
int stats_read_chrome_mem(struct stats *s, const char *path, const char *data, size_t len, struct diag *diag);
int stats_read_perfetto_mem(struct stats *s, const char *path, const unsigned char *data, size_t len,
			    struct diag *diag);
/* True when `data` starts (after blanks) like a JSON document. */
bool stats_is_chrome_json(const char *data, size_t len);

#endif
