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

struct stats *stats_new(void);
void stats_free(struct stats *s);

void stats_add(struct stats *s, const char *label, int kind, uint64_t dur_ns);
/* Adds a core's busy span (first begin to last end) to its kind's time. */
void stats_core_time(struct stats *s, int kind, uint64_t ns);

/* The rows, by kind (AIC, AIV, other) then total time, descending; valid
 * until the next stats_add. */
const struct stats_row *stats_rows(struct stats *s, size_t *n);

const char *stats_kind_name(int kind);

/* A trace_ops sink feeding `s` (free it with the ops' free_sink). */
void *stats_sink_new(struct stats *s);
extern const struct trace_ops stats_trace_ops;

/* Reads a trace file: Chrome trace JSON (B/E and X events) or a Perfetto
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
