/* A reader of Perfetto protobuf traces (the TrackEvent subset that `collect
 * --format perfetto` writes, and any trace of slices on named tracks): walks
 * the packets of a trace held in memory and hands `report` the same events a
 * Chrome trace gives (see chrome_json.h): a thread-name metadata event per
 * track descriptor, then B / E events with their track, time and name
 * (interned names resolved per sequence). Every length and varint is bounds-
 * checked; a truncated or corrupt trace is reported with its byte offset. */
#ifndef AUTOTRACE_PERFETTO_READ_H
#define AUTOTRACE_PERFETTO_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "chrome_json.h"
#include "diag.h"

/* True when `data` is laid out as a Perfetto trace: length-delimited fields,
 * the first a `packet`, each within the data, the last ending exactly at the
 * end; of a trace over PERFETTO_SNIFF bytes, the fields that start in its
 * first PERFETTO_SNIFF bytes. */
bool perfetto_looks_like_trace(const unsigned char *data, size_t len);
#define PERFETTO_SNIFF ((size_t)1 << 20)

/* A TracePacket's compressed_packets may inflate to this many bytes; one
 * that inflates to more is refused once this much is inflated (a chunk of a
 * trace writer is far smaller: this stops a forged one from taking the
 * memory). The buffer never grows past it. */
#define PERFETTO_MAX_CHUNK ((size_t)256 << 20)

/* Calls `cb` for every track descriptor (ph 'M', name "thread_name", args.name
 * the track's name) and every slice begin / end (ph 'B' / 'E') in order;
 * tracks are told apart by pid/tid (the track uuid's high and low 32 bits).
 * Returns 0, -1 after reporting `path: error: ... at byte N`, or what `cb`
 * returned when it stopped the walk. */
int perfetto_events(const char *path, const unsigned char *data, size_t len,
		    int (*cb)(void *ctx, const struct chrome_event *e), void *ctx, struct diag *diag);

#endif
