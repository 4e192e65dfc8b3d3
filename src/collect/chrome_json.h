/* A streaming reader of Chrome trace JSON (Trace Event Format): walks the
 * `traceEvents` array (or a bare top-level array) of a document held in
 * memory and hands each event to a callback with the fields `report` needs,
 * without building a tree, so a 50 MB trace costs its own size and one pass.
 * The whole document is checked to be JSON; the first syntax error is
 * reported with its line and column. Other keys are skipped.
 *
 * What `report` reads of a B, E or X event is checked (issue 33): "ts" (and
 * an X event's "dur") present, a number, 0 or more and at most
 * CHROME_TIME_MAX_US, else a located error; an event's name, and a
 * thread_name's or process_name's args.name, without a NUL character
 * (\u0000: it would cut the label), else a located error; args.index and
 * args.extra of a B or X event a whole number from 0 to 2^32 - 1, else a
 * located warning and the event read without it (args are free-form in
 * the Trace Event Format: another tool may mean something else by them).
 * Other events are read as before: report ignores them. */
#ifndef AUTOTRACE_CHROME_JSON_H
#define AUTOTRACE_CHROME_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* A string as found in the event: points into the document when it has no
 * escapes, else into a scratch buffer valid until the callback returns. */
struct chrome_str {
	const char *s;
	size_t len;
};

struct chrome_event {
	char ph;                    /* the phase letter; 0 when absent or not one letter */
	struct chrome_str name;     /* len 0 and s NULL when absent */
	struct chrome_str arg_name; /* args.name (metadata events), or absent */
	double pid, tid;            /* 0 when absent */
	/* the process the event's track belongs to: the pid's bits here; in a
	 * Perfetto trace the parent track of a thread track (set on its
	 * "thread_name" event) and the track of a "process_name" event */
	uint64_t process;
	bool has_process;
	uint32_t index, extra;      /* args.index, args.extra: 0 when absent */
	/* Perfetto: a debug annotation "index" (1) or "extra" (2) that is not a
	 * whole number from 0 to 2^32 - 1, left out (the JSON reader warns of
	 * its own, where the value stands) */
	unsigned char bad_args;
	bool has_ts, has_dur;
	uint64_t ts_ns, dur_ns;     /* microseconds in the file, rounded to ns (exact for a plain
				     * decimal); at most CHROME_TIME_MAX_NS (B, E and X events) */
	size_t offset;              /* where the event starts in the document (in a Perfetto
				     * trace its packet, or the compressed packets holding it):
				     * the bytes before are read */
};

/* The largest time (ts, dur) read: 2^53 microseconds (285 years), the
 * whole microseconds a double holds exactly; in nanoseconds ts + dur still
 * fits 64 bits. A Perfetto trace's times are held to it too. */
#define CHROME_TIME_MAX_US UINT64_C(9007199254740992)
#define CHROME_TIME_MAX_NS (CHROME_TIME_MAX_US * 1000)

/* Warnings about args past this many in one trace are counted, then said
 * in one note. */
#define CHROME_MAX_WARNINGS 10

/* The line and column (1-based, in bytes) of byte `offset` of `data`. */
void chrome_json_position(const char *data, size_t offset, size_t *line, size_t *col);

/* Calls `cb` for every element of the event array that is an object, in
 * order. `cb` returns 0 to go on. Returns 0, -1 after reporting
 * `path:line:col: error: ...` for malformed JSON or a document with no event
 * array, or what `cb` returned when it stopped the walk. */
int chrome_json_events(const char *path, const char *data, size_t len,
		       int (*cb)(void *ctx, const struct chrome_event *e), void *ctx, struct diag *diag);

#endif
