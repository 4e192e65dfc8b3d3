/* Reader of Perfetto protobuf traces for `report`. See perfetto_read.h.
 *
 * Field numbers (Perfetto's trace.proto, trace_packet.proto,
 * track_event.proto, track_descriptor.proto, interned_data.proto): Trace
 * packet 1; TracePacket timestamp 8, trusted_packet_sequence_id 10,
 * track_event 11, interned_data 12, sequence_flags 13, track_descriptor 60;
 * TrackEvent type 9, name_iid 10, track_uuid 11, name 23; InternedData
 * event_names 2; EventName iid 1, name 2; TrackDescriptor uuid 1, name 2,
 * thread 4; ThreadDescriptor thread_name 5. Interned names live per
 * sequence until a packet clears its incremental state. */
#include "perfetto_read.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "index_table.h"
#include "xalloc.h"

#define SEQ_INCREMENTAL_STATE_CLEARED 1
#define TYPE_SLICE_BEGIN 1
#define TYPE_SLICE_END 2

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

struct seqgen {
	uint32_t seq, gen;
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
};

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
	diag_pos(r->diag, DIAG_ERROR, r->path, 0, 0, "not a readable Perfetto trace (truncated or corrupt?): %s at byte %zu",
		 msg, (size_t)(at - r->start));
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

static uint32_t *generation(struct prd *r, uint32_t seq)
{
	for (size_t i = 0; i < r->ngens; i++)
		if (r->gens[i].seq == seq)
			return &r->gens[i].gen;
	XGROW(r->gens, r->capgens, r->ngens + 1);
	r->gens[r->ngens].seq = seq;
	r->gens[r->ngens].gen = 0;
	return &r->gens[r->ngens++].gen;
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
		uint64_t iid = 0;
		bool has_name = false;
		if (num != 2 || wire != 2)
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
			name_add(r, seq, iid, &name);
	}
	return rc < 0 ? -1 : 0;
}

/* ---- packets ---- */

struct packet {
	bool has_ts, has_te, has_td, has_id;
	uint64_t ts, flags;
	uint32_t seq;
	struct pb te, td, id;
};

static int track_descriptor(struct prd *r, struct pb b, struct chrome_event *e)
{
	unsigned num, wire;
	uint64_t v, uuid = 0;
	struct pb sub, name = { NULL, NULL }, thread_name = { NULL, NULL };
	int rc;

	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num == 1 && wire == 0)
			uuid = v;
		else if (num == 2 && wire == 2)
			name = sub;
		else if (num == 4 && wire == 2) {
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
	if (!name.p)
		name = thread_name;
	memset(e, 0, sizeof(*e));
	if (!name.p)
		return 0; /* an unnamed track: its slices count as "other" */
	e->ph = 'M';
	e->name.s = "thread_name";
	e->name.len = 11;
	e->arg_name.s = (const char *)name.p;
	e->arg_name.len = (size_t)(name.end - name.p);
	e->pid = (double)(uuid >> 32);
	e->tid = (double)(uuid & 0xFFFFFFFFu);
	return 0;
}

static int track_event(struct prd *r, const struct packet *pk, struct chrome_event *e)
{
	struct pb b = pk->te, sub, name = { NULL, NULL };
	unsigned num, wire;
	uint64_t v, type = 0, uuid = 0, iid = 0;
	bool has_iid = false;
	int rc;

	while ((rc = field(r, &b, &num, &wire, &v, &sub)) == 0) {
		if (num == 9 && wire == 0)
			type = v;
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
	e->ts_ns = pk->ts;
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

static int packet(struct prd *r, struct pb b, int (*cb)(void *, const struct chrome_event *), void *ctx, int *cb_rc)
{
	struct packet pk;
	struct chrome_event e;
	unsigned num, wire;
	uint64_t v;
	struct pb sub;
	int rc;

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
		}
	}
	if (rc < 0)
		return -1;
	if (pk.flags & SEQ_INCREMENTAL_STATE_CLEARED)
		(*generation(r, pk.seq))++;
	if (pk.has_id && interned_data(r, pk.id, pk.seq) != 0)
		return -1;
	if (pk.has_td) {
		if (track_descriptor(r, pk.td, &e) != 0)
			return -1;
		if (e.ph && (*cb_rc = cb(ctx, &e)) != 0)
			return -1;
	}
	if (pk.has_te) {
		if (track_event(r, &pk, &e) != 0)
			return -1;
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

	/* a trace is a run of length-delimited `packet` fields (1) that ends
	 * exactly at the end of the file: text (JSON starting with a line break,
	 * 0x0A too) does not keep that up */
	if (len < 2 || data[0] != (1 << 3 | 2))
		return false;
	while (p < end) {
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
	return rc;
}
