/* Perfetto's native protobuf trace, encoded by hand (no SDK): a Trace is a
 * stream of `packet = 1` records, all on one sequence. The first packet
 * clears the sequence's incremental state and interns every label as an
 * event name and the argument names (index, extra, unclosed) as debug
 * annotation names; every later packet that relies on that state (the
 * defaults, the interned names) says so (SEQ_NEEDS_INCREMENTAL_STATE), as
 * the SDK does. Each rank is a process track, each core a thread track
 * under it, ordered as the Chrome JSON orders them: the process's children
 * explicitly (child_ordering, sibling_order_rank), with the legacy sort
 * indices beside, and the thread ids of trace_track_thread_id. Before the slices of a track, one packet sets the sequence's
 * defaults to that track (TracePacketDefaults: track_event_defaults.track_uuid,
 * timestamp_clock_id) and resets an incremental, sequence-scoped clock
 * (ClockSnapshot: clock 64, is_incremental, unit_multiplier_ns = one cycle)
 * to 0 (= BOOTTIME 0), as the Perfetto SDK does when it resets incremental
 * state. Then every slice is a SLICE_BEGIN / SLICE_END pair of packets that
 * hold only what changes: the time since the previous event of the track in
 * cycles (one byte, mostly), the type, the interned name, and the index as
 * an annotation with an interned name: 10 bytes for an END, 12 for a BEGIN,
 * 6 more per annotation, 2 for the flags. With trace_perfetto_z_ops the same packets go
 * deflated (zlib, level 1 unless the header says) in chunks of TRACE_OUT_BUF bytes, each one
 * TracePacket.compressed_packets (the form Perfetto's own tracing service
 * writes when asked to compress, which the trace processor inflates): the
 * repeated structure of the events shrinks to about a third. Field
 * numbers: Perfetto's
 * trace_packet.proto, trace_packet_defaults.proto, clock_snapshot.proto,
 * track_event.proto, track_descriptor.proto, process_descriptor.proto,
 * thread_descriptor.proto, debug_annotation.proto, interned_data.proto
 * (tests/collect/perfetto_trace.proto is this subset, for protoc). */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include <errno.h>

#include "trace_ops.h"
#include "utf8.h"
#include "xalloc.h"

/* TracePacket */
#define F_PACKET 1
#define F_CLOCK_SNAPSHOT 6
#define F_TIMESTAMP 8
#define F_SEQ_ID 10
#define F_TRACK_EVENT 11
#define F_INTERNED_DATA 12
#define F_SEQ_FLAGS 13
#define F_COMPRESSED 50
#define F_DEFAULTS 59
#define F_TRACK_DESCRIPTOR 60
/* TracePacketDefaults, TrackEventDefaults */
#define F_DEF_CLOCK_ID 58
#define F_DEF_TRACK_EVENT 11
#define F_TED_TRACK_UUID 11
/* ClockSnapshot, ClockSnapshot.Clock */
#define F_CS_CLOCKS 1
#define F_CLK_ID 1
#define F_CLK_TIMESTAMP 2
#define F_CLK_INCREMENTAL 3
#define F_CLK_UNIT_NS 4
/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
#define F_TD_UUID 1
#define F_TD_NAME 2
#define F_TD_PROCESS 3
#define F_TD_THREAD 4
#define F_TD_PARENT 5
#define F_TD_CHILD_ORDERING 11
#define F_TD_SIBLING_RANK 12
#define F_PD_PID 1
#define F_PD_SORT_INDEX 3
#define F_PD_NAME 6
#define F_THD_PID 1
#define F_THD_TID 2
#define F_THD_SORT_INDEX 3
#define F_THD_NAME 5
/* TrackEvent, InternedData, EventName, DebugAnnotation(Name) */
#define F_TE_DEBUG 4
#define F_TE_TYPE 9
#define F_TE_NAME_IID 10
#define F_ID_EVENT_NAMES 2
#define F_ID_ANNOTATION_NAMES 3
#define F_EN_IID 1
#define F_EN_NAME 2
#define F_DA_NAME_IID 1
#define F_DA_BOOL 2
#define F_DA_UINT 3

#define SEQ_CLEARED 1
#define SEQ_NEEDS_STATE 2
#define CHILD_ORDERING_EXPLICIT 3
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2

#define SEQUENCE 1
#define PROCESS_UUID_BASE (1ull << 40)
/* the first sequence-scoped clock id, and the clock it maps to */
#define CLOCK_INCREMENTAL 64
#define CLOCK_BOOTTIME 6
/* interned annotation names */
enum { ANN_INDEX = 1, ANN_EXTRA, ANN_UNCLOSED };

/* A growable message buffer for the few large messages. */
struct pb {
	unsigned char *p;
	size_t n, cap;
};

struct perfetto {
	struct trace_out *out;        /* where packets go: the file, or the stage */
	const struct trace_header *h;
	/* compressed: the packets gather in `stage`, each full stage is
	 * deflated into one compressed_packets packet written to `file` */
	struct trace_out stage, *file;
	z_stream z;
	unsigned char *zbuf;
	size_t zcap;
	bool compress;
	uint64_t unit_ns;             /* the incremental clock's unit: one cycle, or 1 ns */
	unsigned unit_shift;          /* unit = odd << shift ... */
	uint64_t unit_inverse;        /* ... and odd * inverse = 1 mod 2^64 */
	uint64_t last_ts;             /* the time of the track's previous event, ns */
};

/* delta / unit, without a division instruction (tens of cycles, 37 M times
 * at 1,024 ranks): the times are cycles times the unit, so the division is
 * exact, and an exact division by odd << shift is a shift and a multiply by
 * the odd part's inverse modulo 2^64. Checked, with a real division when a
 * delta is not a multiple after all. */
static inline uint64_t in_units(const struct perfetto *p, uint64_t delta)
{
	uint64_t q = (delta >> p->unit_shift) * p->unit_inverse;

	return q * p->unit_ns == delta ? q : delta / p->unit_ns;
}

static inline size_t put_varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

static inline size_t put_key(unsigned char *p, unsigned field, unsigned wire)
{
	return put_varint(p, (uint64_t)field << 3 | wire);
}

static inline size_t put_uint(unsigned char *p, unsigned field, uint64_t v)
{
	size_t n = put_key(p, field, 0);
	return n + put_varint(p + n, v);
}

static void pb_reserve(struct pb *b, size_t more)
{
	XGROW(b->p, b->cap, b->n + more);
}

static void pb_uint(struct pb *b, unsigned field, uint64_t v)
{
	pb_reserve(b, 24);
	b->n += put_uint(b->p + b->n, field, v);
}

static void pb_bytes(struct pb *b, unsigned field, const void *data, size_t len)
{
	pb_reserve(b, len + 24);
	b->n += put_key(b->p + b->n, field, 2);
	b->n += put_varint(b->p + b->n, len);
	memcpy(b->p + b->n, data, len);
	b->n += len;
}

/* Strings of a trace are UTF-8 (map labels are checked when read; this
 * keeps any other name valid too). */
static void pb_str(struct pb *b, unsigned field, const char *s)
{
	size_t n = strlen(s);

	if (utf8_invalid_at(s, n) == SIZE_MAX) {
		pb_bytes(b, field, s, n);
	} else {
		char *clean = utf8_sanitize(s, n, &n);
		pb_bytes(b, field, clean, n);
		free(clean);
	}
}

static void pb_msg(struct pb *b, unsigned field, struct pb *inner)
{
	pb_bytes(b, field, inner->p, inner->n);
	inner->n = 0;
}

/* Writes `packet` as one Trace.packet record. Into a compressing stage, a
 * record is never cut between two chunks (each compressed_packets must
 * inflate to whole packets): it goes whole into the chunk, or starts the
 * next, one of its own when it is larger than a chunk (a label of
 * hundreds of KB). */
static void emit_packet(struct trace_out *o, const unsigned char *packet, size_t len)
{
	unsigned char head[16];
	size_t n = put_key(head, F_PACKET, 2);

	n += put_varint(head + n, len);
	if (o->drain) {
		size_t total = n + len;
		if (o->buf.n + total > TRACE_OUT_BUF)
			trace_out_flush(o);
		strbuf_room(&o->buf, total);
		memcpy(o->buf.s + o->buf.n, head, n);
		memcpy(o->buf.s + o->buf.n + n, packet, len);
		trace_out_wrote(o, total);
		if (o->buf.n > TRACE_OUT_BUF)
			trace_out_flush(o); /* the chunk of its own */
		return;
	}
	trace_out_mem(o, head, n);
	trace_out_mem(o, packet, len);
}

static void *pf_new(struct trace_out *out)
{
	struct perfetto *p = xcalloc(1, sizeof(*p));
	p->out = out;
	return p;
}

/* The stage is full (or the trace ends): its packets, deflated, as one
 * TracePacket.compressed_packets in the file. */
static void deflate_stage(struct trace_out *stage, void *ctx)
{
	struct perfetto *p = ctx;
	unsigned char head[24];
	size_t need = deflateBound(&p->z, (uLong)stage->buf.n), n, zlen;

	if (need > p->zcap) {
		p->zcap = need;
		p->zbuf = xrealloc(p->zbuf, p->zcap);
	}
	deflateReset(&p->z);
	p->z.next_in = (unsigned char *)stage->buf.s;
	p->z.avail_in = (uInt)stage->buf.n;
	p->z.next_out = p->zbuf;
	p->z.avail_out = (uInt)p->zcap;
	if (deflate(&p->z, Z_FINISH) != Z_STREAM_END) {
		p->file->failed = true;
		p->file->err = EIO;
		return;
	}
	zlen = p->zcap - p->z.avail_out;
	/* Trace.packet { compressed_packets: bytes } */
	n = put_key(head + 12, F_COMPRESSED, 2);
	n += put_varint(head + 12 + n, zlen);
	{
		unsigned char outer[12];
		size_t k = put_key(outer, F_PACKET, 2);
		k += put_varint(outer + k, n + zlen);
		trace_out_mem(p->file, outer, k);
	}
	trace_out_mem(p->file, head + 12, n);
	trace_out_mem(p->file, p->zbuf, zlen);
}

/* The stream starts in pf_begin, which knows the level. */
static void *pf_z_new(struct trace_out *out)
{
	struct perfetto *p = pf_new(out);

	p->compress = true;
	p->file = out;
	trace_out_take_room(&p->stage);
	p->stage.drain = deflate_stage;
	p->stage.drain_ctx = p;
	p->stage.cleanup = -1;
	p->out = &p->stage;
	return p;
}

static void pf_free(void *sink)
{
	struct perfetto *p = sink;

	if (p && p->compress) {
		deflateEnd(&p->z);
		strbuf_release(&p->stage.buf);
		free(p->zbuf);
	}
	free(sink);
}

static int pf_begin(void *sink, const struct trace_header *h)
{
	struct perfetto *p = sink;
	const struct point_map *m = h->map;
	struct pb packet = { 0 }, interned = { 0 }, name = { 0 };
	static const char *const annotation[] = { NULL, "index", "extra", "unclosed" };

	p->h = h;
	if (p->compress && deflateInit(&p->z, h->compress_level ? h->compress_level : Z_BEST_SPEED) != Z_OK)
		xalloc_die();
	p->unit_ns = h->clock_hz && 1000000000u % h->clock_hz == 0 ? 1000000000u / h->clock_hz : 1;
	{
		uint64_t odd = p->unit_ns, inv;
		p->unit_shift = 0;
		while (!(odd & 1)) {
			odd >>= 1;
			p->unit_shift++;
		}
		/* Newton's iteration doubles the correct low bits: 3, 6, 12, 24, 48, 96 */
		inv = odd;
		for (int i = 0; i < 5; i++)
			inv *= 2 - odd * inv;
		p->unit_inverse = inv;
	}
	for (size_t i = 0; i < m->nlabels; i++) {
		pb_uint(&name, F_EN_IID, i + 1);
		pb_str(&name, F_EN_NAME, m->labels[i]);
		pb_msg(&interned, F_ID_EVENT_NAMES, &name);
	}
	for (unsigned i = ANN_INDEX; i <= ANN_UNCLOSED; i++) {
		pb_uint(&name, F_EN_IID, i);
		pb_str(&name, F_EN_NAME, annotation[i]);
		pb_msg(&interned, F_ID_ANNOTATION_NAMES, &name);
	}
	pb_uint(&packet, F_SEQ_ID, SEQUENCE);
	pb_uint(&packet, F_SEQ_FLAGS, SEQ_CLEARED | SEQ_NEEDS_STATE);
	pb_msg(&packet, F_INTERNED_DATA, &interned);
	emit_packet(p->out, packet.p, packet.n);
	free(packet.p);
	free(interned.p);
	free(name.p);
	return 0;
}

static void pf_process(void *sink, int rank)
{
	struct perfetto *p = sink;
	struct pb packet = { 0 }, td = { 0 }, pd = { 0 };
	char name[32];

	snprintf(name, sizeof(name), "rank %d", rank);
	pb_uint(&pd, F_PD_PID, (uint64_t)rank + 1);
	pb_uint(&pd, F_PD_SORT_INDEX, (uint64_t)rank);
	pb_str(&pd, F_PD_NAME, name);
	pb_uint(&td, F_TD_UUID, PROCESS_UUID_BASE + (uint64_t)rank);
	pb_msg(&td, F_TD_PROCESS, &pd);
	pb_uint(&td, F_TD_CHILD_ORDERING, CHILD_ORDERING_EXPLICIT);
	pb_uint(&td, F_TD_SIBLING_RANK, (uint64_t)rank);
	pb_msg(&packet, F_TRACK_DESCRIPTOR, &td);
	emit_packet(p->out, packet.p, packet.n);
	free(packet.p);
	free(td.p);
	free(pd.p);
}

static void pf_track(void *sink, const struct trace_track *t)
{
	struct perfetto *p = sink;
	struct pb packet = { 0 }, td = { 0 }, thd = { 0 }, def = { 0 }, ted = { 0 }, cs = { 0 }, clk = { 0 };

	/* tids are global in Perfetto: unique across the ranks, as in the JSON */
	pb_uint(&thd, F_THD_PID, (uint64_t)t->rank + 1);
	pb_uint(&thd, F_THD_TID, trace_track_thread_id(t));
	pb_uint(&thd, F_THD_SORT_INDEX, t->tid);
	pb_str(&thd, F_THD_NAME, t->name);
	pb_uint(&td, F_TD_UUID, t->uuid);
	pb_str(&td, F_TD_NAME, t->name);
	pb_msg(&td, F_TD_THREAD, &thd);
	pb_uint(&td, F_TD_PARENT, PROCESS_UUID_BASE + (uint64_t)t->rank);
	pb_uint(&td, F_TD_SIBLING_RANK, t->tid);
	pb_msg(&packet, F_TRACK_DESCRIPTOR, &td);
	emit_packet(p->out, packet.p, packet.n);
	packet.n = 0;

	/* the sequence now speaks of this track, its clock starts again at 0 */
	pb_uint(&ted, F_TED_TRACK_UUID, t->uuid);
	pb_uint(&def, F_DEF_CLOCK_ID, CLOCK_INCREMENTAL);
	pb_msg(&def, F_DEF_TRACK_EVENT, &ted);
	pb_uint(&clk, F_CLK_ID, CLOCK_INCREMENTAL);
	pb_uint(&clk, F_CLK_TIMESTAMP, 0);
	pb_uint(&clk, F_CLK_INCREMENTAL, 1);
	pb_uint(&clk, F_CLK_UNIT_NS, p->unit_ns);
	pb_msg(&cs, F_CS_CLOCKS, &clk);
	pb_uint(&clk, F_CLK_ID, CLOCK_BOOTTIME);
	pb_uint(&clk, F_CLK_TIMESTAMP, 0);
	pb_msg(&cs, F_CS_CLOCKS, &clk);
	pb_uint(&packet, F_SEQ_ID, SEQUENCE);
	pb_uint(&packet, F_SEQ_FLAGS, SEQ_NEEDS_STATE);
	pb_msg(&packet, F_DEFAULTS, &def);
	pb_msg(&packet, F_CLOCK_SNAPSHOT, &cs);
	emit_packet(p->out, packet.p, packet.n);
	p->last_ts = 0;
	free(packet.p);
	free(td.p);
	free(thd.p);
	free(def.p);
	free(ted.p);
	free(cs.p);
	free(clk.p);
}

/* DebugAnnotation {name_iid, value} at q, as TrackEvent.debug_annotations;
 * returns its length (at most 2 + 2 + 11). */
static inline size_t put_annotation(unsigned char *q, unsigned name_iid, unsigned value_field, uint64_t v)
{
	size_t n = 2;

	q[n++] = F_DA_NAME_IID << 3;
	q[n++] = (unsigned char)name_iid;
	n += put_uint(q + n, value_field, v);
	q[0] = F_TE_DEBUG << 3 | 2;
	q[1] = (unsigned char)(n - 2);
	return n;
}

/* One TracePacket {timestamp delta, track_event, sequence} written straight
 * into the output buffer. Bounded sizes: the TrackEvent is at most 2 + 6 +
 * 3 * 15 = 53 bytes and the packet at most 11 + 55 + 2 + 2 = 70, so both
 * lengths are one-byte varints, patched in once the fields are written. */
static void event(struct perfetto *p, uint64_t ts_ns, unsigned type, uint32_t label, uint32_t index, uint32_t extra,
		  bool unclosed)
{
	struct trace_out *o = p->out;
	unsigned char *start = trace_out_room(o, 128), *q = start + 2, *te;

	{
		uint64_t units = in_units(p, ts_ns - p->last_ts);
		q += put_uint(q, F_TIMESTAMP, units);
		p->last_ts += units * p->unit_ns;
	}
	*q++ = F_TRACK_EVENT << 3 | 2;
	te = ++q;
	*q++ = F_TE_TYPE << 3;
	*q++ = (unsigned char)type;
	if (type == TYPE_SLICE_BEGIN)
		q += put_uint(q, F_TE_NAME_IID, (uint64_t)label + 1);
	if (index)
		q += put_annotation(q, ANN_INDEX, F_DA_UINT, index);
	if (extra)
		q += put_annotation(q, ANN_EXTRA, F_DA_UINT, extra);
	if (unclosed)
		q += put_annotation(q, ANN_UNCLOSED, F_DA_BOOL, 1);
	te[-1] = (unsigned char)(q - te);
	*q++ = F_SEQ_ID << 3;
	*q++ = SEQUENCE;
	*q++ = F_SEQ_FLAGS << 3;
	*q++ = SEQ_NEEDS_STATE;
	start[0] = F_PACKET << 3 | 2;
	start[1] = (unsigned char)(q - start - 2);
	trace_out_wrote(o, (size_t)(q - start));
}

static void pf_slice_begin(void *sink, const struct trace_track *t, uint64_t ts_ns, uint32_t label, uint32_t index,
			   uint32_t extra)
{
	(void)t;
	event(sink, ts_ns, TYPE_SLICE_BEGIN, label, index, extra, false);
}

static void pf_slice_end(void *sink, const struct trace_track *t, uint64_t ts_ns, bool unclosed)
{
	(void)t;
	event(sink, ts_ns, TYPE_SLICE_END, 0, 0, 0, unclosed);
}

static int pf_end(void *sink, const struct collect_counts *c)
{
	struct perfetto *p = sink;

	(void)c;
	if (p->compress)
		trace_out_flush(&p->stage); /* the last, partial chunk */
	return 0;
}

/* The two writers differ in where the packets go, nothing else. */
#define PERFETTO_OPS(ident, label, make)                                                                   \
	const struct trace_ops ident = {                                                                   \
		.name = label,                                                                             \
		.new_sink = make,                                                                          \
		.begin = pf_begin,                                                                         \
		.process = pf_process,                                                                     \
		.track = pf_track,                                                                         \
		.slice_begin = pf_slice_begin,                                                             \
		.slice_end = pf_slice_end,                                                                 \
		.end = pf_end,                                                                             \
		.free_sink = pf_free,                                                                      \
	}

PERFETTO_OPS(trace_perfetto_ops, "perfetto", pf_new);
PERFETTO_OPS(trace_perfetto_z_ops, "perfetto, compressed", pf_z_new);
