/* A small, independent decoder of the Perfetto protobuf traces collect
 * writes, for the tests: prints one line per track and slice event with
 * interned names (event and annotation names) resolved, the track taken
 * from the sequence's defaults when the event names none, and the time from
 * the sequence's incremental clock, and checks what a viewer relies on
 * (interned names defined before use on a cleared sequence, events on
 * declared tracks, strictly nested slices, time not going backwards on a
 * track, a clock snapshot before an event on a sequence-scoped clock).
 * Exit 0 when the trace is sound, 1 otherwise (the reason on stderr). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	const unsigned char *p, *end;
};

struct track {
	uint64_t uuid;
	char name[64];
	int depth;
	uint64_t last_ts;
};

static char *names[4096], *ann_names[64];
static struct track tracks[4096];
static size_t ntracks;
static bool cleared;
static int failures;
/* the sequence's state (collect writes one sequence) */
static uint64_t def_track, clock_unit = 1, clock_last;
static unsigned def_clock;
static bool clock_incremental, clock_known;

static void fail(const char *msg, uint64_t v)
{
	fprintf(stderr, "pftrace_dump: %s (%llu)\n", msg, (unsigned long long)v);
	failures++;
}

static bool varint(struct buf *b, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (b->p >= b->end)
			return false;
		*v |= (uint64_t)(*b->p & 0x7F) << shift;
		if (!(*b->p++ & 0x80))
			return true;
	}
	return false;
}

/* Next field: number, wire type, and (varint) value or (bytes) sub-buffer. */
static bool field(struct buf *b, unsigned *num, unsigned *wire, uint64_t *v, struct buf *sub)
{
	uint64_t key;

	if (b->p >= b->end || !varint(b, &key))
		return false;
	*num = (unsigned)(key >> 3);
	*wire = (unsigned)(key & 7);
	if (*wire == 0)
		return varint(b, v);
	if (*wire == 2) {
		if (!varint(b, v) || *v > (uint64_t)(b->end - b->p))
			return false;
		sub->p = b->p;
		sub->end = b->p + *v;
		b->p += *v;
		return true;
	}
	if (*wire == 1 && b->end - b->p >= 8) {
		b->p += 8;
		return true;
	}
	if (*wire == 5 && b->end - b->p >= 4) {
		b->p += 4;
		return true;
	}
	return false;
}

static void str(const struct buf *s, char *out, size_t cap)
{
	size_t n = (size_t)(s->end - s->p);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, s->p, n);
	out[n] = '\0';
}

static struct track *find_track(uint64_t uuid)
{
	for (size_t i = 0; i < ntracks; i++)
		if (tracks[i].uuid == uuid)
			return &tracks[i];
	return NULL;
}

static void interned(struct buf b)
{
	unsigned num, wire;
	uint64_t v;
	struct buf sub, s2;

	while (field(&b, &num, &wire, &v, &sub)) {
		unsigned kind = num;
		if ((kind != 2 && kind != 3) || wire != 2)
			continue;
		{
			uint64_t iid = 0;
			char name[256] = "";
			while (field(&sub, &num, &wire, &v, &s2)) {
				if (num == 1 && wire == 0)
					iid = v;
				if (num == 2 && wire == 2)
					str(&s2, name, sizeof(name));
			}
			if (iid == 0 || iid >= (kind == 2 ? 4096 : 64)) {
				fail("bad interned iid", iid);
				continue;
			}
			if (kind == 3) {
				free(ann_names[iid]);
				ann_names[iid] = strdup(name);
				continue;
			}
			free(names[iid]);
			names[iid] = strdup(name);
			printf("intern %llu \"%s\"\n", (unsigned long long)iid, name);
		}
	}
}

static void descriptor(struct buf b)
{
	unsigned num, wire;
	uint64_t v, uuid = 0, parent = 0, pid = 0, tid = 0;
	struct buf sub, s2;
	char name[64] = "", pname[64] = "", tname[64] = "";
	bool is_process = false, is_thread = false;

	while (field(&b, &num, &wire, &v, &sub)) {
		if (num == 1 && wire == 0)
			uuid = v;
		else if (num == 2 && wire == 2)
			str(&sub, name, sizeof(name));
		else if (num == 5 && wire == 0)
			parent = v;
		else if ((num == 3 || num == 4) && wire == 2) {
			is_process = num == 3;
			is_thread = num == 4;
			while (field(&sub, &num, &wire, &v, &s2)) {
				if (num == 1 && wire == 0)
					pid = v;
				else if (is_thread && num == 2 && wire == 0)
					tid = v;
				else if (is_process && num == 6 && wire == 2)
					str(&s2, pname, sizeof(pname));
				else if (is_thread && num == 5 && wire == 2)
					str(&s2, tname, sizeof(tname));
			}
		}
	}
	if (find_track(uuid))
		fail("track uuid declared twice", uuid);
	if (is_thread && parent && !find_track(parent))
		fail("thread track before its process", parent);
	if (ntracks < 4096) {
		tracks[ntracks].uuid = uuid;
		snprintf(tracks[ntracks].name, sizeof(tracks[ntracks].name), "%s", is_process ? pname : tname);
		ntracks++;
	}
	if (is_process)
		printf("process pid=%llu \"%s\"\n", (unsigned long long)pid, pname);
	else if (is_thread)
		printf("thread pid=%llu tid=%llu \"%s\" name=\"%s\"\n", (unsigned long long)pid, (unsigned long long)tid,
		       tname, name);
}

static void annotations(struct buf b, char *out, size_t cap)
{
	unsigned num, wire;
	uint64_t v;
	struct buf s2;
	char name[32] = "";
	uint64_t val = 0;

	while (field(&b, &num, &wire, &v, &s2)) {
		if (num == 10 && wire == 2)
			str(&s2, name, sizeof(name));
		else if (num == 1 && wire == 0) {
			if (v == 0 || v >= 64 || !ann_names[v])
				fail("annotation with an undefined name iid", v);
			else
				snprintf(name, sizeof(name), "%s", ann_names[v]);
		} else if ((num == 2 || num == 3) && wire == 0)
			val = v;
	}
	snprintf(out + strlen(out), cap - strlen(out), " %s=%llu", name, (unsigned long long)val);
}

static void track_event(struct buf b, uint64_t ts, bool has_ts, uint64_t flags)
{
	unsigned num, wire;
	uint64_t v, type = 0, track = 0, iid = 0;
	struct buf sub;
	char args[256] = "";
	struct track *t;

	track = def_track;
	while (field(&b, &num, &wire, &v, &sub)) {
		if (num == 9 && wire == 0)
			type = v;
		else if (num == 11 && wire == 0)
			track = v;
		else if (num == 10 && wire == 0)
			iid = v;
		else if (num == 4 && wire == 2)
			annotations(sub, args, sizeof(args));
	}
	if (!has_ts)
		fail("event without timestamp", 0);
	if (!cleared)
		fail("event without incremental state", flags);
	t = find_track(track);
	if (!t) {
		fail("event on an undeclared track", track);
		return;
	}
	if (ts < t->last_ts)
		fail("time goes backwards on a track", ts);
	t->last_ts = ts;
	if (type == 1) {
		if (iid == 0 || iid >= 4096 || !names[iid])
			fail("begin with an undefined name iid", iid);
		t->depth++;
		printf("B %llu [%s] %s%s\n", (unsigned long long)ts, t->name, iid < 4096 && names[iid] ? names[iid] : "?",
		       args);
	} else if (type == 2) {
		if (--t->depth < 0)
			fail("end without begin", ts);
		printf("E %llu [%s]%s\n", (unsigned long long)ts, t->name, args);
	} else {
		fail("unexpected event type", type);
	}
}

/* TracePacketDefaults: the default track and clock of the sequence. */
static void defaults(struct buf b)
{
	unsigned num, wire;
	uint64_t v;
	struct buf sub, s2;

	def_track = 0;
	def_clock = 0;
	while (field(&b, &num, &wire, &v, &sub)) {
		if (num == 58 && wire == 0)
			def_clock = (unsigned)v;
		else if (num == 11 && wire == 2)
			while (field(&sub, &num, &wire, &v, &s2))
				if (num == 11 && wire == 0)
					def_track = v;
	}
}

/* ClockSnapshot: clock 64 of the sequence against BOOTTIME (which must be
 * in the snapshot too, at the same instant here: collect maps 0 to 0). */
static void snapshot(struct buf b)
{
	unsigned num, wire;
	uint64_t v;
	struct buf sub, s2;
	bool boottime = false;

	while (field(&b, &num, &wire, &v, &sub)) {
		uint64_t id = 0, ts = 0, unit = 1, inc = 0;
		if (num != 1 || wire != 2)
			continue;
		while (field(&sub, &num, &wire, &v, &s2)) {
			if (num == 1 && wire == 0)
				id = v;
			else if (num == 2 && wire == 0)
				ts = v;
			else if (num == 3 && wire == 0)
				inc = v;
			else if (num == 4 && wire == 0)
				unit = v;
		}
		if (id == 6)
			boottime = ts == 0;
		else if (id == 64) {
			clock_known = true;
			clock_incremental = inc != 0;
			clock_unit = unit ? unit : 1;
			clock_last = ts * clock_unit;
		} else
			fail("unexpected clock in a snapshot", id);
	}
	if (!boottime)
		fail("a clock snapshot without BOOTTIME at 0", 0);
}

static void packet(struct buf b)
{
	unsigned num, wire;
	uint64_t v, ts = 0, flags = 0, clock = 0;
	bool has_ts = false;
	struct buf sub, te = { 0 }, id = { 0 }, td = { 0 }, def = { 0 }, cs = { 0 };

	while (field(&b, &num, &wire, &v, &sub)) {
		if (num == 8 && wire == 0) {
			ts = v;
			has_ts = true;
		} else if (num == 13 && wire == 0) {
			flags = v;
		} else if (num == 58 && wire == 0) {
			clock = v;
		} else if (num == 11 && wire == 2) {
			te = sub;
		} else if (num == 12 && wire == 2) {
			id = sub;
		} else if (num == 60 && wire == 2) {
			td = sub;
		} else if (num == 59 && wire == 2) {
			def = sub;
		} else if (num == 6 && wire == 2) {
			cs = sub;
		}
	}
	if (flags & 1)
		cleared = true;
	if (def.p)
		defaults(def);
	if (id.p)
		interned(id);
	if (cs.p)
		snapshot(cs);
	if (td.p)
		descriptor(td);
	if (te.p) {
		if (!clock)
			clock = def_clock;
		if (clock == 64) {
			if (!clock_known)
				fail("an event on clock 64 before its snapshot", ts);
			ts *= clock_unit;
			if (clock_incremental)
				ts = clock_last += ts;
		} else if (clock != 0 && clock != 6) {
			fail("an event on an unknown clock", clock);
		}
		track_event(te, ts, has_ts, flags);
	}
}

int main(int argc, char **argv)
{
	FILE *f;
	unsigned char *data;
	long len;
	struct buf b, sub;
	unsigned num, wire;
	uint64_t v;

	if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: pftrace_dump TRACE\n");
		return 2;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	data = malloc((size_t)len + 1);
	if (fread(data, 1, (size_t)len, f) != (size_t)len)
		return 2;
	fclose(f);
	b.p = data;
	b.end = data + len;
	while (b.p < b.end) {
		if (!field(&b, &num, &wire, &v, &sub) || num != 1 || wire != 2) {
			fail("not a Trace of packets at byte", (uint64_t)(b.p - data));
			break;
		}
		packet(sub);
	}
	for (size_t i = 0; i < ntracks; i++)
		if (tracks[i].depth != 0)
			fail("slices left open on a track", tracks[i].uuid);
	for (size_t i = 0; i < 4096; i++)
		free(names[i]);
	free(data);
	return failures ? 1 : 0;
}
