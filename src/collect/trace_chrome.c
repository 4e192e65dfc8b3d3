/* Chrome trace JSON (Trace Event Format), streamed: one process per rank
 * ("rank N"), one thread per core ("AIC 3", "AIV 3.1") with sort indices
 * and the thread ids of the Perfetto output (trace_track_thread_id),
 * complete ("X") events with index / extra in args, ts and dur in
 * microseconds with nanosecond fractions. An X event is written when its
 * slice ends (children before their parent): one event per slice instead of
 * a B and an E halves the events and saves a third of the bytes. The
 * trace_chrome_be_ops variant writes B/E pairs instead. Each label's file:line sites
 * are written once, in the top-level "metadata" object, not per event.
 * Event prefixes and escaped names are built once, numbers by hand. */
#include <stdlib.h>
#include <string.h>

#include "collect_counts.h"
#include "config.h"
#include "json_escape.h"
#include "trace_ops.h"
#include "utf8.h"
#include "xalloc.h"

struct open_x {
	uint64_t ts;
	uint32_t label, index, extra;
};

struct chrome {
	struct trace_out *out;
	bool be;                      /* B/E pairs instead of X events */
	struct open_x *stack;
	size_t sp, cap;
	const struct trace_header *h;
	char **names;                 /* per label: `,"name":"<escaped>"` */
	size_t *name_len;
	size_t nlabels;
	bool first;                   /* no event written yet */
	char begin_prefix[96], end_prefix[96], x_prefix[96];
	size_t begin_len, end_len, x_len;
};

/* Event pieces up to COPY_PAD bytes are copied with one fixed-size memcpy
 * (inlined, no call, no length branches): their sources are padded to that
 * size and the output always has that much room. */
#define COPY_PAD 64

static inline unsigned char *copy_small(unsigned char *p, const char *src, size_t n)
{
	if (n <= COPY_PAD)
		memcpy(p, src, COPY_PAD);
	else
		memcpy(p, src, n);
	return p + n;
}

/* JSON string body of s (no quotes), newly allocated. Bytes that are not
 * UTF-8 become U+FFFD (a JSON reader refuses them; map labels are checked
 * when read, this keeps any other name valid too). */
static char *json_body(const char *raw)
{
	size_t n = strlen(raw);
	char *clean = utf8_invalid_at(raw, n) == SIZE_MAX ? NULL : utf8_sanitize(raw, n, &n);
	char *o = xmalloc(JSON_ESCAPE_MAX * n + 1);

	o[json_escape(o, clean ? clean : raw, n)] = '\0';
	free(clean);
	return o;
}

static void out_json_string(struct trace_out *o, const char *s)
{
	char *e = json_body(s);
	trace_out_mem(o, "\"", 1);
	trace_out_str(o, e);
	trace_out_mem(o, "\"", 1);
	free(e);
}

static void *chrome_new(struct trace_out *out)
{
	struct chrome *c = xcalloc(1, sizeof(*c));
	c->out = out;
	c->first = true;
	return c;
}

static void chrome_free(void *sink)
{
	struct chrome *c = sink;
	if (!c)
		return;
	for (size_t i = 0; i < c->nlabels; i++)
		free(c->names[i]);
	free(c->names);
	free(c->name_len);
	free(c->stack);
	free(c);
}

static int chrome_begin(void *sink, const struct trace_header *h)
{
	struct chrome *c = sink;
	const struct point_map *m = h->map;

	c->h = h;
	c->nlabels = m->nlabels;
	c->names = xcalloc(m->nlabels + 1, sizeof(*c->names));
	c->name_len = xcalloc(m->nlabels + 1, sizeof(*c->name_len));
	for (size_t i = 0; i < m->nlabels; i++) {
		char *e = json_body(m->labels[i]);
		size_t n = strlen(e);
		c->names[i] = xcalloc(n + 10 + COPY_PAD, 1); /* padded for copy_small */
		memcpy(c->names[i], ",\"name\":\"", 9);
		memcpy(c->names[i] + 9, e, n);
		c->names[i][9 + n] = '"';
		c->names[i][10 + n] = '\0';
		c->name_len[i] = n + 10;
		free(e);
	}
	trace_out_str(c->out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
	return 0;
}

static void sep(struct chrome *c)
{
	if (c->first) {
		trace_out_mem(c->out, "\n", 1);
		c->first = false;
	} else {
		trace_out_mem(c->out, ",\n", 2);
	}
}

static void chrome_process(void *sink, int rank)
{
	struct chrome *c = sink;
	struct trace_out *o = c->out;

	sep(c);
	trace_out_str(o, "{\"ph\":\"M\",\"pid\":");
	trace_out_u64(o, (uint64_t)rank);
	trace_out_str(o, ",\"name\":\"process_name\",\"args\":{\"name\":\"rank ");
	trace_out_u64(o, (uint64_t)rank);
	trace_out_str(o, "\"}},\n{\"ph\":\"M\",\"pid\":");
	trace_out_u64(o, (uint64_t)rank);
	trace_out_str(o, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":");
	trace_out_u64(o, (uint64_t)rank);
	trace_out_str(o, "}}");
}

static size_t make_prefix(char *buf, const char *ph, const struct trace_track *t)
{
	size_t n = 0;
	n += (size_t)sprintf(buf, ",\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%llu,\"ts\":", ph, t->rank,
			     (unsigned long long)trace_track_thread_id(t));
	return n;
}

/* The head of a metadata event of track t, up to its args: `{"ph":"M",
 * "pid":R,"tid":T,"name":"WHAT","args":{`. */
static void meta_head(struct trace_out *o, const struct trace_track *t, const char *what)
{
	trace_out_str(o, "{\"ph\":\"M\",\"pid\":");
	trace_out_u64(o, (uint64_t)t->rank);
	trace_out_str(o, ",\"tid\":");
	trace_out_u64(o, trace_track_thread_id(t));
	trace_out_str(o, ",\"name\":\"");
	trace_out_str(o, what);
	trace_out_str(o, "\",\"args\":{");
}

static void chrome_track(void *sink, const struct trace_track *t)
{
	struct chrome *c = sink;
	struct trace_out *o = c->out;

	sep(c);
	meta_head(o, t, "thread_name");
	trace_out_str(o, "\"name\":");
	out_json_string(o, t->name);
	trace_out_str(o, "}},\n");
	meta_head(o, t, "thread_sort_index");
	trace_out_str(o, "\"sort_index\":");
	trace_out_u64(o, t->tid);
	trace_out_str(o, "}}");
	c->begin_len = make_prefix(c->begin_prefix, "B", t);
	c->end_len = make_prefix(c->end_prefix, "E", t);
	c->x_len = make_prefix(c->x_prefix, "X", t);
	c->sp = 0;
}

/* ns as microseconds: "12", "12.5", "12.345" */
static inline size_t fmt_us(unsigned char *p, uint64_t ns)
{
	uint64_t us = ns / 1000;
	unsigned frac = (unsigned)(ns - us * 1000), low;
	size_t n = trace_fmt_u64(p, us);

	if (!frac)
		return n;
	/* ".hlo" with trailing zeros dropped: all four bytes written, the length says which count */
	low = frac % 100;
	p[n] = '.';
	p[n + 1] = (unsigned char)('0' + frac / 100);
	memcpy(p + n + 2, trace_digit_pairs + 2 * low, 2);
	return n + (low == 0 ? 2 : low % 10 == 0 ? 3 : 4);
}

static unsigned char *put_args(unsigned char *p, uint32_t index, uint32_t extra, bool unclosed)
{
	if (!index && !extra && !unclosed)
		return p;
	memcpy(p, ",\"args\":{", 9);
	p += 9;
	if (index) {
		memcpy(p, "\"index\":", 8);
		p += 8;
		p += trace_fmt_u64(p, index);
	}
	if (extra) {
		if (index)
			*p++ = ',';
		memcpy(p, "\"extra\":", 8);
		p += 8;
		p += trace_fmt_u64(p, extra);
	}
	if (unclosed) {
		if (index || extra)
			*p++ = ',';
		memcpy(p, "\"unclosed\":true", 15);
		p += 15;
	}
	*p++ = '}';
	return p;
}

static void be_slice_begin(void *sink, const struct trace_track *t, uint64_t ts_ns, uint32_t label,
			       uint32_t index, uint32_t extra)
{
	struct chrome *c = sink;
	struct trace_out *o = c->out;
	size_t need = c->begin_len + 24 + c->name_len[label] + 64;
	unsigned char *p, *start;

	(void)t;
	if (need > TRACE_OUT_BUF / 2) {
		/* a label longer than half the buffer: the slow path */
		trace_out_mem(o, c->begin_prefix, c->begin_len);
		p = trace_out_room(o, 24);
		trace_out_wrote(o, fmt_us(p, ts_ns));
		trace_out_mem(o, c->names[label], c->name_len[label]);
		trace_out_mem(o, "}", 1);
		return;
	}
	start = p = trace_out_room(o, need);
	memcpy(p, c->begin_prefix, c->begin_len);
	p += c->begin_len;
	p += fmt_us(p, ts_ns);
	memcpy(p, c->names[label], c->name_len[label]);
	p += c->name_len[label];
	p = put_args(p, index, extra, false);
	*p++ = '}';
	trace_out_wrote(o, (size_t)(p - start));
}

static void be_slice_end(void *sink, const struct trace_track *t, uint64_t ts_ns, bool unclosed)
{
	struct chrome *c = sink;
	struct trace_out *o = c->out;
	unsigned char *p, *start;

	(void)t;
	start = p = trace_out_room(o, c->end_len + 64);
	memcpy(p, c->end_prefix, c->end_len);
	p += c->end_len;
	p += fmt_us(p, ts_ns);
	p = put_args(p, 0, 0, unclosed);
	*p++ = '}';
	trace_out_wrote(o, (size_t)(p - start));
}


static void chrome_slice_begin(void *sink, const struct trace_track *t, uint64_t ts_ns, uint32_t label,
			       uint32_t index, uint32_t extra)
{
	struct chrome *c = sink;

	if (c->be) {
		be_slice_begin(sink, t, ts_ns, label, index, extra);
		return;
	}
	XGROW(c->stack, c->cap, c->sp + 1);
	c->stack[c->sp].ts = ts_ns;
	c->stack[c->sp].label = label;
	c->stack[c->sp].index = index;
	c->stack[c->sp].extra = extra;
	c->sp++;
}

static void chrome_slice_end(void *sink, const struct trace_track *t, uint64_t ts_ns, bool unclosed)
{
	struct chrome *c = sink;
	struct trace_out *o = c->out;
	struct open_x x;
	size_t need;
	unsigned char *p, *start;

	if (c->be) {
		be_slice_end(sink, t, ts_ns, unclosed);
		return;
	}
	if (!c->sp)
		return;
	x = c->stack[--c->sp];
	need = c->x_len + 2 * 24 + 8 + c->name_len[x.label] + 96 + COPY_PAD;
	if (need > TRACE_OUT_BUF / 2) {
		/* a label longer than half the buffer: the slow path, no args */
		trace_out_mem(o, c->x_prefix, c->x_len);
		p = trace_out_room(o, 24);
		trace_out_wrote(o, fmt_us(p, x.ts));
		trace_out_mem(o, ",\"dur\":", 7);
		p = trace_out_room(o, 24);
		trace_out_wrote(o, fmt_us(p, ts_ns - x.ts));
		trace_out_mem(o, c->names[x.label], c->name_len[x.label]);
		trace_out_mem(o, "}", 1);
		return;
	}
	start = p = trace_out_room(o, need);
	p = copy_small(p, c->x_prefix, c->x_len);
	p += fmt_us(p, x.ts);
	memcpy(p, ",\"dur\":", 7);
	p += 7;
	p += fmt_us(p, ts_ns - x.ts);
	p = copy_small(p, c->names[x.label], c->name_len[x.label]);
	p = put_args(p, x.index, x.extra, unclosed);
	*p++ = '}';
	trace_out_wrote(o, (size_t)(p - start));
}

static void count_field(struct trace_out *o, const char *key, uint64_t v, bool comma)
{
	if (comma)
		trace_out_mem(o, ",", 1);
	trace_out_mem(o, "\"", 1);
	trace_out_str(o, key);
	trace_out_mem(o, "\":", 2);
	trace_out_u64(o, v);
}

static int chrome_end(void *sink, const struct collect_counts *k)
{
	struct chrome *c = sink;
	struct trace_out *o = c->out;
	const struct point_map *m = c->h->map;
	bool firstlabel = true;

	trace_out_str(o, "\n],\n\"metadata\":{\"generator\":\"autotrace " PACKAGE_VERSION "\",\"point_map\":");
	out_json_string(o, c->h->map_path ? c->h->map_path : "");
	if (m->has_stamp) {
		char stamp[64];
		snprintf(stamp, sizeof(stamp), ",\"build_stamp\":\"%016llx\"", (unsigned long long)m->build_stamp);
		trace_out_str(o, stamp);
	}
	count_field(o, "clock_hz", c->h->clock_hz, true);
	trace_out_str(o, ",\"time_alignment\":");
	out_json_string(o, c->h->alignment);
	/* each label once, with its B and E sites */
	trace_out_str(o, ",\n\"labels\":{");
	{
		size_t *first = xmalloc((m->nlabels + 1) * sizeof(size_t));
		size_t *next = xmalloc((m->npoints + 1) * sizeof(size_t));
		for (size_t i = 0; i < m->nlabels; i++)
			first[i] = SIZE_MAX;
		for (size_t id = m->npoints; id-- > 0;) {
			if (!m->points[id].present)
				continue;
			next[id] = first[m->points[id].label];
			first[m->points[id].label] = id;
		}
		for (size_t l = 0; l < m->nlabels; l++) {
			bool firstsite = true;
			if (!firstlabel)
				trace_out_mem(o, ",", 1);
			firstlabel = false;
			trace_out_mem(o, "\n", 1);
			out_json_string(o, m->labels[l]);
			trace_out_str(o, ":[");
			for (size_t id = first[l]; id != SIZE_MAX; id = next[id]) {
				const struct point_map_point *pt = &m->points[id];
				char site[96];
				if (!firstsite)
					trace_out_mem(o, ",", 1);
				firstsite = false;
				snprintf(site, sizeof(site), "{\"id\":%zu,\"type\":\"%c\",\"file\":", id, pt->event_type);
				trace_out_str(o, site);
				out_json_string(o, pt->file != UINT32_MAX ? m->files[pt->file] : "");
				count_field(o, "line", pt->line, true);
				trace_out_mem(o, "}", 1);
			}
			trace_out_mem(o, "]", 1);
		}
		free(first);
		free(next);
	}
	trace_out_str(o, "},\n\"counts\":{");
	count_field(o, "records", k->records, false);
	count_field(o, "slices", k->slices, true);
	count_field(o, "written", k->written, true);
	count_field(o, "skipped_no_mapping", k->skipped_no_mapping, true);
	count_field(o, "unpreprocessed", k->unpreprocessed, true);
	count_field(o, "unmatched_b", k->unmatched_b, true);
	count_field(o, "unmatched_e", k->unmatched_e, true);
	count_field(o, "dropped_on_device", k->dropped_on_device, true);
	trace_out_str(o, "}}}\n");
	return 0;
}

static void *chrome_be_new(struct trace_out *out)
{
	struct chrome *c = chrome_new(out);
	c->be = true;
	return c;
}

/* The two Chrome writers differ only in how a sink starts (B/E or X
 * events): one table, two instances. */
#define CHROME_OPS(new_fn)                                                 \
	{                                                                  \
		.name = "chrome", .new_sink = new_fn, .begin = chrome_begin, \
		.process = chrome_process, .track = chrome_track,           \
		.slice_begin = chrome_slice_begin, .slice_end = chrome_slice_end, \
		.end = chrome_end, .free_sink = chrome_free,                \
	}

const struct trace_ops trace_chrome_be_ops = CHROME_OPS(chrome_be_new);
const struct trace_ops trace_chrome_ops = CHROME_OPS(chrome_new);
