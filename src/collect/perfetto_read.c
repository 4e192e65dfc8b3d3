/* Reader of Perfetto protobuf traces for `report`. See perfetto_read.h.
 *
 * Field numbers (Perfetto's trace.proto, trace_packet.proto,
 * track_event.proto, track_descriptor.proto, interned_data.proto): Trace
 * packet 1; TracePacket timestamp 8, trusted_packet_sequence_id 10,
 * track_event 11, interned_data 12, sequence_flags 13, track_descriptor 60;
 * TrackEvent debug_annotations 4, type 9, name_iid 10, track_uuid 11, name
 * 23; DebugAnnotation name_iid 1, name 10, uint_value 3, int_value 4;
 * InternedData event_names 2, debug_annotation_names 3; EventName iid 1,
 * name 2; TrackDescriptor uuid 1, name 2, process 3, thread 4, parent_uuid
 * 5; ProcessDescriptor process_name 6; ThreadDescriptor thread_name 5; TracePacket timestamp_clock_id
 * 58, clock_snapshot 6, trace_packet_defaults 59; TracePacketDefaults
 * timestamp_clock_id 58, track_event_defaults 11 (TrackEventDefaults
 * track_uuid 11); ClockSnapshot clocks 1, Clock clock_id 1, timestamp 2,
 * is_incremental 3, unit_multiplier_ns 4. Interned names and defaults live
 * per sequence until a packet clears its incremental state; clocks 64-127
 * are the sequence's own, mapped to trace time by its clock snapshots, and
 * an incremental one adds each timestamp to the last (reset by a snapshot). */
#include "perfetto_read.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "index_table.h"
#include "xalloc.h"

#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2
/* Interned annotation names share the table of event names, their iids
 * marked with this bit (a writer's iids are small). */
#define ANNOTATION_NAME (1ull << 63)

struct pb {
	const unsigned char *p, *end;
};

/* An interned name: (sequence, its generation, iid) -> name. */
struct iname {
	uint32_t seq, gen;
	uint64_t iid;
	char *name;
	size_t len;
};

/* A sequence's state: the generation of its interned data, its defaults. */
struct seqgen {
	uint32_t seq, gen;
	uint64_t def_track;           /* track_event_defaults.track_uuid, 0 when none */
	uint32_t def_clock;           /* timestamp_clock_id default, 0 when none */
};

/* A sequence-scoped clock (64..127) as its latest snapshot set it. */
struct seqclock {
	uint32_t seq, id;
	bool incremental;
	uint64_t unit;                /* ns per tick */
	int64_t last;                 /* incremental: the last value, ns of the clock */
	int64_t offset;               /* trace time = clock ns + offset */
};

struct prd {
	const unsigned char *start;
	const char *path;
	struct diag *diag;
	bool failed;
	struct iname *names;
	size_t nnames, capnames;
	struct index_table name_index;
	struct seqgen *gens;
	size_t ngens, capgens;
	struct seqclock *clocks;
	size_t nclocks, capclocks;
	size_t chunk_at;              /* inside compressed_packets: where they are in the file */
};

#define MAX_CHUNK PERFETTO_MAX_CHUNK

__attribute__((format(printf, 3, 4))) static int fail(struct prd *r, const unsigned char *at, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (r->failed)
		return -1;
	r->failed = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->chunk_at)
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0,
			 "not a readable Perfetto trace (truncated or corrupt?): %s at byte %zu of the packets deflated at "
			 "byte %zu",
			 msg, (size_t)(at - r->start), r->chunk_at);
	else
		diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0,
			 "not a readable Perfetto trace (truncated or corrupt?): %s at byte %zu", msg, (size_t)(at - r->start));
	return -1;
}

static inline int varint(struct prd *r, struct pb *b, uint64_t *v)
{
	const unsigned char *at = b->p;

	if (b->p < b->end && !(*b->p & 0x80)) { /* most are one byte */
		*v = *b->p++;
		return 0;
	}
	*v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (b->p >= b->end)
			return fail(r, at, "varint cut short");
		*v |= (uint64_t)(*b->p & 0x7F) << shift;
		if (!(*b->p++ & 0x80))
			return 0;
	}
	return fail(r, at, "varint longer than 10 bytes");
}

/* The next field of `b`: its number and wire type, and its value (varint,
 * fixed) or its bytes (`sub`, length-delimited). 1 when `b` is done. */
static inline int field(struct prd *r, struct pb *b, unsigned *num, unsigned *wire, uint64_t *v, struct pb *sub)
{
	const unsigned char *at = b->p;
	uint64_t key;

	if (b->p >= b->end)
		return 1;
	if (varint(r, b, &key) != 0)
		return -1;
	*num = (unsigned)(key >> 3);
	*wire = (unsigned)(key & 7);
	switch (*wire) {
	case 0:
		return varint(r, b, v);
	case 1:
	case 5: {
		size_t n = *wire == 1 ? 8 : 4;
		if ((size_t)(b->end - b->p) < n)
			return fail(r, at, "fixed-size field %u cut short", *num);
		*v = 0;
		for (size_t i = n; i-- > 0;)
			*v = *v << 8 | b->p[i];
		b->p += n;
		return 0;
	}
	case 2:
		if (varint(r, b, v) != 0)
			return -1;
		if (*v > (uint64_t)(b->end - b->p))
			return fail(r, at, "field %u claims %llu bytes, %zu are left", *num, (unsigned long long)*v,
				    (size_t)(b->end - b->p));
		sub->p = b->p;
		sub->end = b->p + *v;
		b->p += *v;
		return 0;
	default:
		return fail(r, at, "field %u has wire type %u, which traces do not use", *num, *wire);
	}
}

/* ---- interned names ---- */

static struct seqgen *seqstate(struct prd *r, uint32_t seq)
{
	for (size_t i = 0; i < r->ngens; i++)
		if (r->gens[i].seq == seq)
			return &r->gens[i];
	XGROW(r->gens, r->capgens, r->ngens + 1);
	memset(&r->gens[r->ngens], 0, sizeof(r->gens[0]));
	r->gens[r->ngens].seq = seq;
	return &r->gens[r->ngens++];
}

static uint32_t *generation(struct prd *r, uint32_t seq)
{
	return &seqstate(r, seq)->gen;
}

static struct seqclock *seqclock(struct prd *r, uint32_t seq, uint32_t id, bool make)
{
	for (size_t i = 0; i < r->nclocks; i++)
		if (r->clocks[i].seq == seq && r->clocks[i].id == id)
			return &r->clocks[i];
	if (!make)
		return NULL;
	XGROW(r->clocks, r->capclocks, r->nclocks + 1);
	memset(&r->clocks[r->nclocks], 0, sizeof(r->clocks[0]));
	r->clocks[r->nclocks].seq = seq;
	r->clocks[r->nclocks].id = id;
	r->clocks[r->nclocks].unit = 1;
	return &r->clocks[r->nclocks++];
}

static uint64_t name_hash(uint32_t seq, uint32_t gen, uint64_t iid)
{
	return index_hash_u64(((uint64_t)seq << 32 | gen) ^ index_hash_u64(iid));
}

struct name_key {
	const struct prd *r;
	uint32_t seq, gen;
	uint64_t iid;
};

static bool same_name(const void *ctx, size_t item)
{
	const struct name_key *k = ctx;
	const struct iname *n = &k->r->names[item];
	return n->seq == k->seq && n->gen == k->gen && n->iid == k->iid;
}

static const struct iname *name_find(const struct prd *r, uint32_t seq, uint64_t iid, uint32_t gen)
{
	struct name_key key = { r, seq, gen, iid };
	size_t k = index_table_find(&r->name_index, name_hash(seq, gen, iid), same_name, &key);

	return k == SIZE_MAX ? NULL : &r->names[k];
}

static void name_add(struct prd *r, uint32_t seq, uint64_t iid, const struct pb *name)
{
	uint32_t gen = *generation(r, seq);
	size_t len = (size_t)(name->end - name->p);

	if (name_find(r, seq, iid, gen))
		return; /* an iid is defined once per generation; the first wins */
	XGROW(r->names, r->capnames, r->nnames + 1);
	r->names[r->nnames] = (struct iname){ seq, gen, iid, xstrndup((const char *)name->p, len), len };
	index_table_add(&r->name_index, name_hash(seq, gen, iid), r->nnames);
	r->nnames++;
}

static int interned_data(struct prd *r, struct pb b, uint32_t seq)
{
	unsigned num, wire;
	uint64_t v;
	struct pb sub;
	int rc;

	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		struct pb en = sub, name = { NULL, NULL };
		uint64_t iid = 0, space = num == 3 ? ANNOTATION_NAME : 0;
		bool has_name = false;
		if ((num != 2 && num != 3) || wire != 2)
			continue;
		while ((rc = field(r, &en, &num, &wire, &v, &sub)) == 0) {
			if (num == 1 && wire == 0)
				iid = v;
			else if (num == 2 && wire == 2) {
				name = sub;
				has_name = true;
			}
		}
		if (rc < 0)
			return -1;
		if (has_name)
			name_add(r, seq, iid | space, &name);
	}
	return rc < 0 ? -1 : 0;
}

/* ---- packets ---- */

struct packet {
	bool has_ts, has_te, has_td, has_id, has_def, has_cs;
	uint64_t ts, flags;
	uint32_t seq, clock;
	struct pb te, td, id, def, cs;
};

/* TracePacketDefaults: the sequence's default track and clock. */
static int defaults(struct prd *r, struct pb b, uint32_t seq)
{
	struct seqgen *st = seqstate(r, seq);
	unsigned num, wire;
	uint64_t v;
	struct pb sub;
	int rc;

	st->def_track = 0;
	st->def_clock = 0;
	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num == 58 && wire == 0) {
			st->def_clock = (uint32_t)v;
		} else if (num == 11 && wire == 2) {
			struct pb ted = sub;
			while ((rc = field(r, &ted, &num, &wire, &v, &sub)) == 0)
				if (num == 11 && wire == 0)
					st->def_track = v;
			if (rc < 0)
				return -1;
		}
	}
	return rc < 0 ? -1 : 0;
}

/* ClockSnapshot: the sequence's own clocks against the trace's clock (the
 * builtin clock of the snapshot, whose time is trace time here). */
static int clock_snapshot(struct prd *r, struct pb b, uint32_t seq)
{
	struct { uint32_t id; uint64_t ts, unit; bool incremental; } c[16];
	size_t n = 0;
	int64_t builtin = 0;
	unsigned num, wire;
	uint64_t v;
	struct pb sub;
	int rc;

	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		struct pb ck = sub;
		if (num != 1 || wire != 2 || n == 16)
			continue;
		memset(&c[n], 0, sizeof(c[n]));
		c[n].unit = 1;
		while ((rc = field(r, &ck, &num, &wire, &v, &sub)) == 0) {
			if (num == 1 && wire == 0)
				c[n].id = (uint32_t)v;
			else if (num == 2 && wire == 0)
				c[n].ts = v;
			else if (num == 3 && wire == 0)
				c[n].incremental = v != 0;
			else if (num == 4 && wire == 0 && v)
				c[n].unit = v;
		}
		if (rc < 0)
			return -1;
		if (c[n].id < 64)
			builtin = (int64_t)(c[n].ts * c[n].unit);
		n++;
	}
	if (rc < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct seqclock *k;
		if (c[i].id < 64 || c[i].id > 127)
			continue;
		k = seqclock(r, seq, c[i].id, true);
		k->incremental = c[i].incremental;
		k->unit = c[i].unit;
		k->last = (int64_t)(c[i].ts * c[i].unit);
		k->offset = builtin - k->last;
	}
	return 0;
}

/* The packet's timestamp in trace time. */
static uint64_t trace_time(struct prd *r, const struct packet *pk)
{
	uint32_t id = pk->clock ? pk->clock : seqstate(r, pk->seq)->def_clock;
	struct seqclock *k = id >= 64 && id <= 127 ? seqclock(r, pk->seq, id, false) : NULL;
	int64_t t;

	if (!k)
		return pk->ts;
	t = (int64_t)(pk->ts * k->unit);
	if (k->incremental)
		t = k->last += t;
	t += k->offset;
	return t < 0 ? 0 : (uint64_t)t;
}

static int track_descriptor(struct prd *r, struct pb b, struct chrome_event *e)
{
	unsigned num, wire;
	uint64_t v, uuid = 0, parent = 0;
	struct pb sub, name = { NULL, NULL }, thread_name = { NULL, NULL }, process_name = { NULL, NULL };
	bool is_process = false, has_parent = false;
	int rc;

	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num == 1 && wire == 0)
			uuid = v;
		else if (num == 2 && wire == 2)
			name = sub;
		else if (num == 5 && wire == 0) {
			parent = v;
			has_parent = true;
		} else if (num == 3 && wire == 2) {
			struct pb pd = sub;
			is_process = true;
			while ((rc = field(r, &pd, &num, &wire, &v, &sub)) == 0)
				if (num == 6 && wire == 2)
					process_name = sub;
			if (rc < 0)
				return -1;
		} else if (num == 4 && wire == 2) {
			struct pb th = sub;
			while ((rc = field(r, &th, &num, &wire, &v, &sub)) == 0)
				if (num == 5 && wire == 2)
					thread_name = sub;
			if (rc < 0)
				return -1;
		}
	}
	if (rc < 0)
		return -1;
	memset(e, 0, sizeof(*e));
	e->pid = (double)(uuid >> 32);
	e->tid = (double)(uuid & 0xFFFFFFFFu);
	if (is_process) {
		/* a process (a rank): named for the tracks whose parent it is */
		if (!process_name.p)
			process_name = name;
		if (!process_name.p)
			return 0;
		e->ph = 'M';
		e->name.s = "process_name";
		e->name.len = 12;
		e->arg_name.s = (const char *)process_name.p;
		e->arg_name.len = (size_t)(process_name.end - process_name.p);
		e->process = uuid;
		e->has_process = true;
		return 0;
	}
	if (!name.p)
		name = thread_name;
	if (!name.p)
		return 0; /* an unnamed track: its slices count as "other" */
	e->ph = 'M';
	e->name.s = "thread_name";
	e->name.len = 11;
	e->arg_name.s = (const char *)name.p;
	e->arg_name.len = (size_t)(name.end - name.p);
	e->process = parent;
	e->has_process = has_parent;
	return 0;
}

/* A DebugAnnotation: when it is named "index" or "extra" (inline or
 * interned) and holds an integer of 32 bits, into e; any other value of
 * theirs (a negative or larger integer, a double, a string) is marked in
 * e->bad_args. */
static int annotation_arg(struct prd *r, uint32_t seq, struct pb b, struct chrome_event *e)
{
	unsigned num, wire;
	uint64_t v, iid = 0, value = 0;
	struct pb sub, name = { NULL, NULL };
	bool has_iid = false, has_value = false, other = false;
	int rc;

	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num == 1 && wire == 0) {
			iid = v;
			has_iid = true;
		} else if (num == 10 && wire == 2) {
			name = sub;
		} else if ((num == 3 || num == 4) && wire == 0 && (int64_t)v >= 0) {
			value = v;
			has_value = true;
		} else if (num != 16) {
			other = true; /* a negative int; a bool, double, string, pointer, dict, array... */
		}
	}
	if (rc < 0)
		return -1;
	if (!name.p && has_iid) {
		const struct iname *n = name_find(r, seq, iid | ANNOTATION_NAME, *generation(r, seq));
		if (n) {
			name.p = (const unsigned char *)n->name;
			name.end = name.p + n->len;
		}
	}
	if ((has_value || other) && name.p && name.end - name.p == 5) {
		bool fits = has_value && !other && value <= UINT32_MAX;
		if (memcmp(name.p, "index", 5) == 0) {
			if (fits)
				e->index = (uint32_t)value;
			else
				e->bad_args |= 1;
		} else if (memcmp(name.p, "extra", 5) == 0) {
			if (fits)
				e->extra = (uint32_t)value;
			else
				e->bad_args |= 2;
		}
	}
	return 0;
}

static int track_event(struct prd *r, const struct packet *pk, struct chrome_event *e)
{
	struct pb b = pk->te, sub, name = { NULL, NULL };
	unsigned num, wire;
	uint64_t v, type = 0, uuid = 0, iid = 0;
	bool has_iid = false;
	struct chrome_event args;
	int rc;

	memset(&args, 0, sizeof(args));

	uuid = seqstate(r, pk->seq)->def_track;
	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num == 9 && wire == 0)
			type = v;
		else if (num == 4 && wire == 2) {
			if (annotation_arg(r, pk->seq, sub, &args) != 0)
				return -1;
		}
		else if (num == 11 && wire == 0)
			uuid = v;
		else if (num == 10 && wire == 0) {
			iid = v;
			has_iid = true;
		} else if (num == 23 && wire == 2)
			name = sub;
	}
	if (rc < 0)
		return -1;
	memset(e, 0, sizeof(*e));
	if (type != TYPE_SLICE_BEGIN && type != TYPE_SLICE_END)
		return 0; /* instants, counters: not slices */
	e->ph = type == TYPE_SLICE_BEGIN ? 'B' : 'E';
	e->pid = (double)(uuid >> 32);
	e->tid = (double)(uuid & 0xFFFFFFFFu);
	e->has_ts = pk->has_ts;
	e->ts_ns = pk->ts; /* trace time: see packet() */
	e->index = args.index;
	e->extra = args.extra;
	e->bad_args = args.bad_args;
	if (name.p) {
		e->name.s = (const char *)name.p;
		e->name.len = (size_t)(name.end - name.p);
	} else if (has_iid) {
		const struct iname *n = name_find(r, pk->seq, iid, *generation(r, pk->seq));
		if (n) {
			e->name.s = n->name;
			e->name.len = n->len;
		}
	}
	return 0;
}

static int packet(struct prd *r, struct pb b, int (*cb)(void *, const struct chrome_event *), void *ctx, int *cb_rc);

/* The buffer holds MAX_CHUNK bytes: 1 when the stream has more to give,
 * 0 when it ends there, -1 when it is corrupt or cut short. One byte of
 * room is all it is given. */
static int stream_goes_on(z_stream *zs)
{
	unsigned char probe;
	int zr;

	zs->next_out = &probe;
	zs->avail_out = 1;
	do
		zr = inflate(zs, Z_NO_FLUSH);
	while (zr == Z_OK && zs->avail_out == 1 && zs->avail_in > 0);
	if (zs->avail_out == 0)
		return 1;
	return zr == Z_STREAM_END ? 0 : -1;
}

/* TracePacket.compressed_packets: a zlib (or gzip) stream of packets, as
 * in a Trace; inflated and walked like the file's own. The buffer grows by
 * doubling up to MAX_CHUNK and never past it: a stream that has more to
 * give once it is full is refused. */
static int compressed(struct prd *r, struct pb z, int (*cb)(void *, const struct chrome_event *), void *ctx,
		      int *cb_rc)
{
	z_stream zs;
	unsigned char *buf;
	size_t cap = (size_t)(z.end - z.p) * 4 + 4096, len = 0;
	const unsigned char *saved = r->start;
	int zr, rc = 0;

	if (r->chunk_at)
		return fail(r, z.p, "compressed packets inside compressed packets");
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 32) != Z_OK) /* zlib or gzip header */
		return fail(r, z.p, "cannot inflate");
	if (cap > MAX_CHUNK)
		cap = MAX_CHUNK;
	buf = xmalloc(cap);
	zs.next_in = (unsigned char *)z.p;
	zs.avail_in = (uInt)(z.end - z.p);
	for (;;) {
		if (len == cap) {
			if (cap == MAX_CHUNK) {
				int more = stream_goes_on(&zs);
				if (more == 0)
					break; /* it ends exactly at the cap */
				if (more < 0)
					fail(r, z.p, "compressed packets that do not inflate (%s)", zs.msg ? zs.msg : "corrupt");
				else
					fail(r, z.p, "compressed packets inflate to more than %zu bytes", MAX_CHUNK);
				inflateEnd(&zs);
				free(buf);
				return -1;
			}
			cap = cap > MAX_CHUNK / 2 ? MAX_CHUNK : cap * 2;
			buf = xrealloc(buf, cap);
		}
		zs.next_out = buf + len;
		zs.avail_out = (uInt)(cap - len);
		zr = inflate(&zs, Z_NO_FLUSH);
		len = cap - zs.avail_out;
		if (zr == Z_STREAM_END)
			break;
		if (zr != Z_OK && !(zr == Z_BUF_ERROR && len == cap)) {
			inflateEnd(&zs);
			free(buf);
			return fail(r, z.p, "compressed packets that do not inflate (%s)", zs.msg ? zs.msg : "corrupt");
		}
	}
	inflateEnd(&zs);
	r->chunk_at = (size_t)(z.p - r->start);
	r->start = buf;
	{
		struct pb b = { buf, buf + len }, sub;
		unsigned num, wire;
		uint64_t v;
		while (rc == 0 && (rc = field(r, &b, &num, &wire, &v, &sub)) == 0)
			if (num == 1 && wire == 2 && packet(r, sub, cb, ctx, cb_rc) != 0)
				rc = -1;
		if (rc > 0)
			rc = 0;
	}
	r->start = saved;
	r->chunk_at = 0;
	free(buf);
	return rc;
}

static int packet(struct prd *r, struct pb b, int (*cb)(void *, const struct chrome_event *), void *ctx, int *cb_rc)
{
	struct packet pk;
	struct chrome_event e;
	unsigned num, wire;
	uint64_t v;
	struct pb sub;
	int rc;
	/* where the packet is in the file (inflated ones: their compressed packets) */
	size_t at = r->chunk_at ? r->chunk_at : (size_t)(b.p - r->start);

	memset(&pk, 0, sizeof(pk));
	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num == 8 && wire == 0) {
			pk.ts = v;
			pk.has_ts = true;
		} else if (num == 10 && wire == 0) {
			pk.seq = (uint32_t)v;
		} else if (num == 13 && wire == 0) {
			pk.flags = v;
		} else if (num == 11 && wire == 2) {
			pk.te = sub;
			pk.has_te = true;
		} else if (num == 12 && wire == 2) {
			pk.id = sub;
			pk.has_id = true;
		} else if (num == 60 && wire == 2) {
			pk.td = sub;
			pk.has_td = true;
		} else if (num == 58 && wire == 0) {
			pk.clock = (uint32_t)v;
		} else if (num == 59 && wire == 2) {
			pk.def = sub;
			pk.has_def = true;
		} else if (num == 6 && wire == 2) {
			pk.cs = sub;
			pk.has_cs = true;
		} else if (num == 50 && wire == 2) {
			if (compressed(r, sub, cb, ctx, cb_rc) != 0)
				return -1;
		}
	}
	if (rc < 0)
		return -1;
	if (pk.flags & SEQ_INCREMENTAL_STATE_CLEARED) {
		struct seqgen *st = seqstate(r, pk.seq);
		st->gen++;
		st->def_track = 0;
		st->def_clock = 0;
	}
	/* defaults first: they bear on the timestamp (as in Perfetto) */
	if (pk.has_def && defaults(r, pk.def, pk.seq) != 0)
		return -1;
	if (pk.has_id && interned_data(r, pk.id, pk.seq) != 0)
		return -1;
	if (pk.has_cs && clock_snapshot(r, pk.cs, pk.seq) != 0)
		return -1;
	if (pk.has_ts && pk.has_te)
		pk.ts = trace_time(r, &pk);
	if (pk.has_td) {
		if (track_descriptor(r, pk.td, &e) != 0)
			return -1;
		e.offset = at;
		if (e.ph && (*cb_rc = cb(ctx, &e)) != 0)
			return -1;
	}
	if (pk.has_te) {
		if (track_event(r, &pk, &e) != 0)
			return -1;
		e.offset = at;
		if (e.ph && (*cb_rc = cb(ctx, &e)) != 0)
			return -1;
	}
	return 0;
}

/* One varint at *p (before end), without diagnostics. */
static bool peek_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64 && *p < end; shift += 7) {
		unsigned char c = *(*p)++;
		*v |= (uint64_t)(c & 0x7F) << shift;
		if (!(c & 0x80))
			return true;
	}
	return false;
}

bool perfetto_looks_like_trace(const unsigned char *data, size_t len)
{
	const unsigned char *p = data, *end = data + len;
	const unsigned char *seen = len > PERFETTO_SNIFF ? data + PERFETTO_SNIFF : end;

	/* a trace is a run of length-delimited `packet` fields (1) that ends
	 * exactly at the end of the file: text (JSON starting with a line break,
	 * 0x0A too) does not keep that up for long; the fields starting in the
	 * first PERFETTO_SNIFF bytes are enough to tell (walking a trace of GBs
	 * would read it all once more) */
	if (len < 2 || data[0] != (1 << 3 | 2))
		return false;
	while (p < seen) {
		uint64_t key, n;
		if (!peek_varint(&p, end, &key) || (key & 7) != 2 || key >> 3 == 0 || !peek_varint(&p, end, &n) ||
		    n > (uint64_t)(end - p))
			return false;
		p += n;
	}
	return true;
}

int perfetto_events(const char *path, const unsigned char *data, size_t len,
		    int (*cb)(void *ctx, const struct chrome_event *e), void *ctx, struct diag *diag)
{
	struct prd r;
	struct pb b = { data, data + len }, sub;
	unsigned num, wire;
	uint64_t v;
	int rc, cb_rc = 0;
	size_t npackets = 0;

	memset(&r, 0, sizeof(r));
	r.start = data;
	r.path = path;
	r.diag = diag;
	while ((rc = field(&r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num != 1 || wire != 2)
			continue; /* other Trace fields */
		npackets++;
		if (packet(&r, sub, cb, ctx, &cb_rc) != 0) {
			rc = -1;
			break;
		}
	}
	if (cb_rc)
		rc = cb_rc;
	else if (rc < 0)
		rc = -1;
	else if (npackets == 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "not a Perfetto trace: no packet in it");
		rc = -1;
	} else
		rc = 0;
	for (size_t i = 0; i < r.nnames; i++)
		free(r.names[i].name);
	free(r.names);
	index_table_free(&r.name_index);
	free(r.gens);
	free(r.clocks);
	return rc;
}
