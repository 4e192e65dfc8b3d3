/* Timing statistics for `report`: a sink of the collect engine, and a
 * consumer of trace events (from the Chrome JSON and Perfetto readers), both
 * reducing slices to durations per (label, core type). See collect_stats.h.
 *
 * Memory is bounded whatever the number of slices: a row keeps its first
 * STATS_EXACT durations (percentiles exact, by nearest rank); past that it
 * moves them into a histogram of logarithmic buckets, each STATS_GAMMA times
 * wider than the last, which answers a percentile within STATS_ALPHA of the
 * true value in a few kilobytes (the scheme of DDSketch). Count, total, mean
 * and max stay exact. */
#include "collect_stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_json.h"
#include "file_map.h"
#include "index_table.h"
#include "perfetto_read.h"
#include "xalloc.h"

/* The relative error of a percentile past STATS_EXACT slices. */
#define STATS_ALPHA 0.005
#define STATS_EXACT 4096

/* Durations of one row: exact (d, while n <= STATS_EXACT) or bucketed. */
struct series {
	char *label;
	int kind;
	uint64_t *d;
	size_t n, cap;
	uint64_t total, max;
	uint64_t *bucket;            /* counts from bucket index lo, once bucketed */
	int lo, hi;                  /* bucket indexes held: [lo, hi) */
	uint64_t zeros;              /* durations of 0 ns (no bucket holds 0) */
};

static double log_gamma(void)
{
	static double lg;
	if (lg == 0)
		lg = log((1 + STATS_ALPHA) / (1 - STATS_ALPHA));
	return lg;
}

/* Bucket i holds durations in (gamma^(i-1), gamma^i]. Durations repeat
 * (they are whole clock cycles, mostly a few hundred of them): the last
 * bucket of each of BUCKET_MEMO slots of them is kept, which spares a
 * log() for most slices past the exact part. */
#define BUCKET_MEMO 4096
static int bucket_of(uint64_t d)
{
	static uint64_t memo_d[BUCKET_MEMO];
	static int memo_b[BUCKET_MEMO];
	size_t k = (size_t)(d % BUCKET_MEMO);

	if (memo_d[k] != d) {
		memo_d[k] = d; /* d > 0: the zeroed memo holds no duration */
		memo_b[k] = (int)ceil(log((double)d) / log_gamma());
	}
	return memo_b[k];
}

static void bucket_add(struct series *se, uint64_t d)
{
	int i;

	if (d == 0) {
		se->zeros++;
		return;
	}
	i = bucket_of(d);
	if (!se->bucket) {
		se->lo = i;
		se->hi = i + 1;
		se->bucket = xcalloc(1, sizeof(*se->bucket));
	} else if (i < se->lo || i >= se->hi) {
		int lo = i < se->lo ? i : se->lo, hi = i >= se->hi ? i + 1 : se->hi;
		uint64_t *b = xcalloc((size_t)(hi - lo), sizeof(*b));
		memcpy(b + (se->lo - lo), se->bucket, (size_t)(se->hi - se->lo) * sizeof(*b));
		free(se->bucket);
		se->bucket = b;
		se->lo = lo;
		se->hi = hi;
	}
	se->bucket[i - se->lo]++;
}

/* The value of rank k (1-based) of a bucketed row: its bucket's middle, in
 * relative terms, within STATS_ALPHA of every duration the bucket holds. */
static uint64_t bucket_rank(const struct series *se, uint64_t k)
{
	uint64_t seen = se->zeros;

	if (k <= seen)
		return 0;
	for (int i = se->lo; i < se->hi; i++) {
		seen += se->bucket[i - se->lo];
		if (seen >= k) {
			double v = 2.0 * exp((double)i * log_gamma()) / (1.0 + exp(log_gamma()));
			uint64_t r = (uint64_t)(v + 0.5);
			return r > se->max ? se->max : r;
		}
	}
	return se->max;
}

struct stats {
	struct series *v;
	size_t n, cap;
	uint64_t core_time[STATS_KINDS];
	struct stats_row *rows;
	bool sorted;
	const struct stats_observer *obs;
};

struct stats *stats_new(void)
{
	return xcalloc(1, sizeof(struct stats));
}

void stats_observe(struct stats *s, const struct stats_observer *o)
{
	s->obs = o;
}

void stats_free(struct stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].label);
		free(s->v[i].d);
		free(s->v[i].bucket);
	}
	free(s->v);
	free(s->rows);
	free(s);
}

const char *stats_kind_name(int kind)
{
	return kind == STATS_AIC ? "AIC" : kind == STATS_AIV ? "AIV" : "other";
}

/* Linear search: reports have tens of labels, and the sink caches below. */
static struct series *find(struct stats *s, const char *label, int kind)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].kind == kind && strcmp(s->v[i].label, label) == 0)
			return &s->v[i];
	XGROW(s->v, s->cap, s->n + 1);
	memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
	s->v[s->n].label = xstrdup(label);
	s->v[s->n].kind = kind;
	return &s->v[s->n++];
}

static void series_add(struct series *se, uint64_t dur)
{
	if (dur > se->max)
		se->max = dur;
	se->total += dur;
	if (se->bucket || se->n >= STATS_EXACT) {
		if (!se->bucket) {
			/* past the exact part: every duration so far into the buckets */
			for (size_t i = 0; i < se->n; i++)
				bucket_add(se, se->d[i]);
			free(se->d);
			se->d = NULL;
			se->cap = 0;
		}
		bucket_add(se, dur);
		se->n++;
		return;
	}
	XGROW(se->d, se->cap, se->n + 1);
	se->d[se->n++] = dur;
}

void stats_add(struct stats *s, const char *label, int kind, uint64_t dur_ns)
{
	series_add(find(s, label, kind), dur_ns);
	s->sorted = false;
}

void stats_core_time(struct stats *s, int kind, uint64_t ns)
{
	if (kind >= 0 && kind < STATS_KINDS)
		s->core_time[kind] += ns;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_row(const void *a, const void *b)
{
	const struct stats_row *x = a, *y = b;
	int kx = x->kind == STATS_OTHER ? 9 : x->kind, ky = y->kind == STATS_OTHER ? 9 : y->kind;
	if (kx != ky)
		return kx - ky;
	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* nearest rank: exact while the row holds its durations, else its bucket */
static uint64_t pct(const struct series *se, double p)
{
	/* ceil(p * n) in integers, p in per mille */
	size_t n = se->n, k = (size_t)(((uint64_t)(p * 1000 + 0.5) * n + 999) / 1000);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return se->bucket ? bucket_rank(se, k) : se->d[k - 1];
}

const struct stats_row *stats_rows(struct stats *s, size_t *n)
{
	free(s->rows);
	s->rows = xcalloc(s->n + 1, sizeof(*s->rows));
	for (size_t i = 0; i < s->n; i++) {
		struct series *se = &s->v[i];
		struct stats_row *r = &s->rows[i];
		if (!se->bucket)
			xqsort(se->d, se->n, sizeof(*se->d), cmp_u64);
		r->label = se->label;
		r->kind = se->kind;
		r->count = se->n;
		r->total_ns = se->total;
		r->mean_ns = se->n ? se->total / se->n : 0;
		r->p50_ns = se->n ? pct(se, 0.50) : 0;
		r->p99_ns = se->n ? pct(se, 0.99) : 0;
		r->max_ns = se->max;
		r->approximate = se->bucket != NULL;
		r->share = s->core_time[se->kind] ? (double)se->total / (double)s->core_time[se->kind] : 0.0;
	}
	xqsort(s->rows, s->n, sizeof(*s->rows), cmp_row);
	*n = s->n;
	return s->rows;
}

/* ---- the collect sink ---- */

struct open {
	uint32_t label, index, extra;
	uint64_t ts, child;         /* child: the time of the slices closed inside */
};

struct stats_sink {
	struct stats *s;
	const struct point_map *map;
	struct open *stack;
	uint32_t *path;             /* the labels of the stack, for the observer */
	size_t sp, cap, cap_path;
	size_t *cache;              /* per (label, kind): index into s->v, + 1 */
	int kind;
	bool in_track;
	uint64_t first, last;
	uint32_t rank, core, nranks;
};

static const char *map_label(const void *map, uint32_t label)
{
	return ((const struct point_map *)map)->labels[label];
}

void *stats_sink_new(struct stats *s)
{
	struct stats_sink *k = xcalloc(1, sizeof(*k));
	k->s = s;
	return k;
}

static void *sink_new_unused(struct trace_out *out)
{
	(void)out;
	return NULL;
}

static void sink_free(void *p)
{
	struct stats_sink *k = p;
	if (!k)
		return;
	free(k->stack);
	free(k->path);
	free(k->cache);
	free(k);
}

static int sink_begin(void *p, const struct trace_header *h)
{
	struct stats_sink *k = p;
	k->map = h->map;
	k->cache = xcalloc((h->map->nlabels + 1) * STATS_KINDS, sizeof(*k->cache));
	return 0;
}

static void close_track(struct stats_sink *k)
{
	if (k->in_track && k->last > k->first)
		stats_core_time(k->s, k->kind, k->last - k->first);
	k->in_track = false;
}

static void sink_process(void *p, int rank)
{
	struct stats_sink *k = p;
	const struct stats_observer *o = k->s->obs;
	char name[32];

	k->rank = k->nranks++;
	if (o) {
		snprintf(name, sizeof(name), "rank %d", rank);
		o->rank(o->ctx, k->rank, name, strlen(name));
	}
}

static void sink_track(void *p, const struct trace_track *t)
{
	struct stats_sink *k = p;
	close_track(k);
	k->kind = t->kind == CORE_AIC ? STATS_AIC : t->kind == CORE_AIV ? STATS_AIV : STATS_OTHER;
	if (k->s->obs)
		k->core = k->s->obs->core(k->s->obs->ctx, t->name, strlen(t->name));
	k->sp = 0;
	k->in_track = true;
	k->first = UINT64_MAX;
	k->last = 0;
}

static void sink_begin_slice(void *p, const struct trace_track *t, uint64_t ts, uint32_t label, uint32_t index,
			     uint32_t extra)
{
	struct stats_sink *k = p;
	(void)t;
	XGROW(k->stack, k->cap, k->sp + 1);
	XGROW(k->path, k->cap_path, k->sp + 1);
	k->stack[k->sp] = (struct open){ label, index, extra, ts, 0 };
	k->path[k->sp] = label;
	k->sp++;
	if (ts < k->first)
		k->first = ts;
}

static void sink_end_slice(void *p, const struct trace_track *t, uint64_t ts, bool unclosed)
{
	struct stats_sink *k = p;
	const struct stats_observer *obs = k->s->obs;
	size_t *c;
	struct open o;
	uint64_t dur;

	(void)t;
	(void)unclosed;
	if (!k->sp)
		return;
	o = k->stack[--k->sp];
	dur = ts - o.ts;
	c = &k->cache[(size_t)o.label * STATS_KINDS + (size_t)k->kind];
	if (!*c)
		*c = (size_t)(find(k->s, k->map->labels[o.label], k->kind) - k->s->v) + 1;
	series_add(&k->s->v[*c - 1], dur);
	k->s->sorted = false;
	if (k->sp)
		k->stack[k->sp - 1].child += dur;
	if (obs) {
		struct stats_slice sl = { k->kind, k->rank, k->core, o.index, o.extra, dur, dur > o.child ? dur - o.child : 0,
					  k->path, k->sp + 1, map_label, k->map };
		obs->slice(obs->ctx, &sl);
	}
	if (ts > k->last)
		k->last = ts;
}

static int sink_end(void *p, const struct collect_counts *c)
{
	(void)c;
	close_track(p);
	return 0;
}

const struct trace_ops stats_trace_ops = {
	.name = "stats",
	.new_sink = sink_new_unused,
	.begin = sink_begin,
	.process = sink_process,
	.track = sink_track,
	.slice_begin = sink_begin_slice,
	.slice_end = sink_end_slice,
	.end = sink_end,
	.free_sink = sink_free,
};

/* ---- Chrome trace JSON and Perfetto (the same events) ---- */

/* A slice whose track had no thread name yet: settled at the end. */
struct pending {
	size_t track;
	uint32_t label, index, extra;
	uint64_t dur, self;
	uint32_t *path;             /* owned */
	size_t depth;
};

struct jopen {
	uint32_t label, index, extra;
	uint64_t ts, child;         /* child: the time of the slices closed inside */
};

/* An X event, held until its track's events are all in (they come
 * children first: nesting is known once the outermost one is read). */
struct xslice {
	uint32_t label, index, extra;
	uint64_t ts, dur;
	size_t pos;                 /* its place among the track's */
};

struct jtrack {
	double pid, tid;
	int kind;                   /* -1 until a thread_name names it */
	uint32_t core;              /* the observer's ordinal, once named */
	uint64_t process;           /* the key of its process, when has_process */
	bool has_process;
	struct jopen *stack;        /* open B events */
	size_t sp, cap;
	struct xslice *x;           /* X events not yet nested */
	size_t nx, capx;
	uint64_t first, last;
};

struct jlabel {
	char *text;                 /* owned */
	size_t len;
};

/* A process (a rank): its key (Chrome: the pid's bits; Perfetto: the
 * process track's uuid) and name ("rank 3"), once a process_name gives it. */
struct jproc {
	uint64_t key;
	char *name;                 /* owned; NULL until named */
};

struct jreader {
	struct stats *s;
	bool perfetto;
	struct jtrack *tracks;
	size_t ntracks, captracks;
	struct index_table track_index; /* (pid, tid) -> track */
	size_t last;                /* the previous event's track, + 1 */
	struct jlabel *labels;      /* interned */
	size_t nlabels, caplabels;
	struct index_table label_index;
	size_t *series;             /* per (label, kind): index into s->v, + 1 */
	size_t capseries;
	struct pending *pend;
	size_t npend, cappend;
	struct jproc *procs;
	size_t nprocs, capprocs;
	size_t last_proc;           /* the previous lookup, + 1 */
	uint32_t *path;             /* scratch: the labels of a slice's stack */
	size_t cappath;
	struct jopen *xstack;       /* scratch: nesting the X events of a track */
	uint64_t *xend;             /* their ends */
	size_t capxstack, capxend;
	struct file_map *map;       /* the trace file, its read part given back; or NULL */
};

static const char *jlabel_text(const void *src, uint32_t label)
{
	return ((const struct jreader *)src)->labels[label].text;
}

static uint32_t proc_find(struct jreader *j, uint64_t key)
{
	if (j->last_proc && j->procs[j->last_proc - 1].key == key)
		return (uint32_t)(j->last_proc - 1);
	/* linear: a trace has a process per rank, looked up per track */
	for (size_t i = 0; i < j->nprocs; i++)
		if (j->procs[i].key == key) {
			j->last_proc = i + 1;
			return (uint32_t)i;
		}
	XGROW(j->procs, j->capprocs, j->nprocs + 1);
	j->procs[j->nprocs] = (struct jproc){ key, NULL };
	j->last_proc = ++j->nprocs;
	return (uint32_t)(j->nprocs - 1);
}

struct track_key {
	const struct jreader *j;
	double pid, tid;
};

static uint64_t track_hash(double pid, double tid)
{
	uint64_t a, b;
	memcpy(&a, &pid, sizeof(a));
	memcpy(&b, &tid, sizeof(b));
	return index_hash_u64(a * 31 + index_hash_u64(b));
}

static bool same_track(const void *ctx, size_t item)
{
	const struct track_key *k = ctx;
	return k->j->tracks[item].pid == k->pid && k->j->tracks[item].tid == k->tid;
}

static void flush_x(struct jreader *j, size_t track);

static size_t jtrack_find(struct jreader *j, const struct chrome_event *e)
{
	struct track_key key = { j, e->pid, e->tid };
	uint64_t h;
	size_t k;
	struct jtrack *t;

	if (j->last && same_track(&key, j->last - 1))
		return j->last - 1;
	/* another track: the last one's X events are all in (collect writes a
	 * track's events together; a trace that interleaves them nests less) */
	if (j->last && j->tracks[j->last - 1].nx)
		flush_x(j, j->last - 1);
	/* with no B event of it open, its stack goes too (it comes back if the
	 * track does): kept, a trace of 73,728 tracks (1,024 ranks) held them
	 * all */
	if (j->last && !j->tracks[j->last - 1].sp) {
		t = &j->tracks[j->last - 1];
		free(t->stack);
		t->stack = NULL;
		t->cap = 0;
	}
	h = track_hash(e->pid, e->tid);
	k = index_table_find(&j->track_index, h, same_track, &key);
	if (k == SIZE_MAX) {
		XGROW(j->tracks, j->captracks, j->ntracks + 1);
		t = &j->tracks[j->ntracks];
		memset(t, 0, sizeof(*t));
		t->pid = e->pid;
		t->tid = e->tid;
		t->kind = -1;
		t->first = UINT64_MAX;
		if (!j->perfetto) {
			t->process = e->process;
			t->has_process = e->has_process;
		}
		k = j->ntracks++;
		index_table_add(&j->track_index, h, k);
	}
	j->last = k + 1;
	return k;
}

struct label_key {
	const struct jreader *j;
	const char *s;
	size_t n;
};

static bool same_label(const void *ctx, size_t item)
{
	const struct label_key *k = ctx;
	const struct jlabel *l = &k->j->labels[item];
	return l->len == k->n && memcmp(l->text, k->s, k->n) == 0;
}

static uint32_t label_intern(struct jreader *j, const struct chrome_str *name)
{
	struct label_key key = { j, name->s ? name->s : "?", name->s ? name->len : 1 };
	uint64_t h = index_hash_bytes(key.s, key.n);
	size_t k = index_table_find(&j->label_index, h, same_label, &key);

	if (k != SIZE_MAX)
		return (uint32_t)k;
	XGROW(j->labels, j->caplabels, j->nlabels + 1);
	j->labels[j->nlabels].text = xstrndup(key.s, key.n);
	j->labels[j->nlabels].len = key.n;
	index_table_add(&j->label_index, h, j->nlabels);
	return (uint32_t)j->nlabels++;
}

/* A closed slice of `track`: into its row, and to the observer. */
static void add_slice(struct jreader *j, size_t track, uint32_t label, uint32_t index, uint32_t extra, uint64_t dur,
		      uint64_t self,
		      const uint32_t *path, size_t depth)
{
	struct jtrack *t = &j->tracks[track];
	const struct stats_observer *obs = j->s->obs;
	size_t *c;

	if (t->kind < 0) {
		XGROW(j->pend, j->cappend, j->npend + 1);
		j->pend[j->npend] = (struct pending){ track, label, index, extra, dur, self, NULL, depth };
		if (obs) {
			j->pend[j->npend].path = xcalloc(depth, sizeof(*path));
			memcpy(j->pend[j->npend].path, path, depth * sizeof(*path));
		}
		j->npend++;
		return;
	}
	if ((size_t)label * STATS_KINDS + STATS_KINDS > j->capseries) {
		size_t old = j->capseries;
		j->capseries = ((size_t)label + 16) * STATS_KINDS;
		j->series = xrealloc(j->series, j->capseries * sizeof(*j->series));
		memset(j->series + old, 0, (j->capseries - old) * sizeof(*j->series));
	}
	c = &j->series[(size_t)label * STATS_KINDS + (size_t)t->kind];
	if (!*c)
		*c = (size_t)(find(j->s, j->labels[label].text, t->kind) - j->s->v) + 1;
	series_add(&j->s->v[*c - 1], dur);
	j->s->sorted = false;
	if (obs) {
		uint32_t rank = proc_find(j, t->has_process ? t->process : UINT64_MAX);
		struct stats_slice sl = { t->kind, rank, t->core, index, extra, dur, self, path, depth, jlabel_text, j };
		obs->slice(obs->ctx, &sl);
	}
}

/* The labels of stack[0 .. n) in j->path. */
static const uint32_t *stack_path(struct jreader *j, const struct jopen *stack, size_t n)
{
	XGROW(j->path, j->cappath, n + 1);
	for (size_t i = 0; i < n; i++)
		j->path[i] = stack[i].label;
	return j->path;
}

/* Pops the top of a stack of open slices (`*sp` of them) closed at `end`:
 * its row, its parent's child time. */
static void close_open(struct jreader *j, size_t track, struct jopen *stack, size_t *sp, uint64_t end)
{
	struct jopen o = stack[*sp - 1];
	uint64_t dur = end >= o.ts ? end - o.ts : 0;
	const uint32_t *path = stack_path(j, stack, *sp);

	add_slice(j, track, o.label, o.index, o.extra, dur, dur > o.child ? dur - o.child : 0, path, *sp);
	if (--*sp)
		stack[*sp - 1].child += dur;
}

static int cmp_xslice(const void *a, const void *b)
{
	const struct xslice *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1; /* the outer one first */
	return x->pos > y->pos ? -1 : x->pos < y->pos; /* the same span: the parent came after */
}

/* Nests the X events held for `track` by their times (a slice within
 * another's span is its child) and adds them. */
static void flush_x(struct jreader *j, size_t track)
{
	struct jtrack *t = &j->tracks[track];
	size_t sp = 0;

	xqsort(t->x, t->nx, sizeof(*t->x), cmp_xslice);
	for (size_t i = 0; i <= t->nx; i++) {
		const struct xslice *x = i < t->nx ? &t->x[i] : NULL;
		while (sp && (!x || x->ts + x->dur > j->xend[sp - 1]))
			close_open(j, track, j->xstack, &sp, j->xend[sp - 1]);
		if (!x)
			break;
		XGROW(j->xstack, j->capxstack, sp + 1);
		XGROW(j->xend, j->capxend, sp + 1);
		j->xstack[sp] = (struct jopen){ x->label, x->index, x->extra, x->ts, 0 };
		j->xend[sp++] = x->ts + x->dur;
	}
	/* (freed: the held events of one track at a time, not of all) */
	free(t->x);
	t->x = NULL;
	t->nx = t->capx = 0;
}

static int chrome_event(void *ctx, const struct chrome_event *e)
{
	struct jreader *j = ctx;
	struct jtrack *t;
	size_t ti;

	if (j->map)
		file_map_release(j->map, e->offset);

	if (e->ph == 'M') {
		if (e->name.len == 11 && memcmp(e->name.s, "thread_name", 11) == 0 && e->arg_name.s) {
			const char *n = e->arg_name.s;
			size_t len = e->arg_name.len;
			ti = jtrack_find(j, e); /* may move j->tracks */
			t = &j->tracks[ti];
			t->kind = len >= 3 && memcmp(n, "AIC", 3) == 0   ? STATS_AIC
				  : len >= 3 && memcmp(n, "AIV", 3) == 0 ? STATS_AIV
									 : STATS_OTHER;
			if (j->s->obs)
				t->core = j->s->obs->core(j->s->obs->ctx, n, len);
			if (e->has_process) {
				t->process = e->process;
				t->has_process = true;
			}
		} else if (e->name.len == 12 && memcmp(e->name.s, "process_name", 12) == 0 && e->arg_name.s &&
			   e->has_process) {
			uint32_t k = proc_find(j, e->process); /* may move j->procs */
			struct jproc *p = &j->procs[k];
			free(p->name);
			p->name = xstrndup(e->arg_name.s, e->arg_name.len);
		}
		return 0;
	}
	if (e->ph != 'X' && e->ph != 'B' && e->ph != 'E')
		return 0;
	ti = jtrack_find(j, e);
	t = &j->tracks[ti];
	if (e->ph == 'X') {
		if (e->name.s) {
			XGROW(t->x, t->capx, t->nx + 1);
			t->x[t->nx] = (struct xslice){ label_intern(j, &e->name), e->index, e->extra, e->ts_ns,
						       e->dur_ns, t->nx };
			t->nx++;
		}
		if (e->ts_ns < t->first)
			t->first = e->ts_ns;
		if (e->ts_ns + e->dur_ns > t->last)
			t->last = e->ts_ns + e->dur_ns;
	} else if (e->ph == 'B') {
		XGROW(t->stack, t->cap, t->sp + 1);
		t->stack[t->sp] = (struct jopen){ label_intern(j, &e->name), e->index, e->extra, e->ts_ns, 0 };
		t->sp++;
		if (e->ts_ns < t->first)
			t->first = e->ts_ns;
	} else if (t->sp) {
		close_open(j, ti, t->stack, &t->sp, e->ts_ns);
		if (e->ts_ns > t->last)
			t->last = e->ts_ns;
	}
	return 0;
}

/* Settles the slices of tracks never named, adds the core times, names the
 * ranks, frees `j`. */
static int jreader_done(struct jreader *j, int rc)
{
	struct stats *s = j->s;
	const struct stats_observer *obs = s->obs;

	if (rc == 0) {
		for (size_t i = 0; i < j->ntracks; i++)
			if (j->tracks[i].nx)
				flush_x(j, i);
		for (size_t i = 0; i < j->ntracks; i++)
			if (j->tracks[i].kind < 0) {
				char name[48];
				j->tracks[i].kind = STATS_OTHER;
				snprintf(name, sizeof(name), "tid %.15g", j->tracks[i].tid);
				if (obs)
					j->tracks[i].core = obs->core(obs->ctx, name, strlen(name));
			}
		for (size_t i = 0; i < j->npend; i++)
			add_slice(j, j->pend[i].track, j->pend[i].label, j->pend[i].index, j->pend[i].extra, j->pend[i].dur,
				  j->pend[i].self,
				  j->pend[i].path, j->pend[i].depth);
		for (size_t i = 0; i < j->ntracks; i++)
			if (j->tracks[i].last > j->tracks[i].first && j->tracks[i].first != UINT64_MAX)
				stats_core_time(s, j->tracks[i].kind, j->tracks[i].last - j->tracks[i].first);
		for (size_t i = 0; obs && i < j->nprocs; i++) {
			char name[48];
			const struct jproc *p = &j->procs[i];
			double pid;
			memcpy(&pid, &p->key, sizeof(pid));
			if (p->name)
				obs->rank(obs->ctx, (uint32_t)i, p->name, strlen(p->name));
			else {
				if (p->key == UINT64_MAX)
					snprintf(name, sizeof(name), "no process");
				else if (j->perfetto)
					snprintf(name, sizeof(name), "process %llu", (unsigned long long)p->key);
				else
					snprintf(name, sizeof(name), "pid %.15g", pid);
				obs->rank(obs->ctx, (uint32_t)i, name, strlen(name));
			}
		}
	}
	for (size_t i = 0; i < j->ntracks; i++) {
		free(j->tracks[i].stack);
		free(j->tracks[i].x);
	}
	free(j->tracks);
	index_table_free(&j->track_index);
	for (size_t i = 0; i < j->nlabels; i++)
		free(j->labels[i].text);
	free(j->labels);
	index_table_free(&j->label_index);
	free(j->series);
	for (size_t i = 0; i < j->npend; i++)
		free(j->pend[i].path);
	free(j->pend);
	for (size_t i = 0; i < j->nprocs; i++)
		free(j->procs[i].name);
	free(j->procs);
	free(j->path);
	free(j->xstack);
	free(j->xend);
	return rc == 0 ? 0 : -1;
}

/* One of the readers over data, its events into s; with a map, the part of
 * it read given back as the reading goes. */
static int read_trace(struct stats *s, const char *path, const unsigned char *data, size_t len, bool perfetto,
		      struct file_map *map, struct diag *diag)
{
	struct jreader j;

	memset(&j, 0, sizeof(j));
	j.s = s;
	j.perfetto = perfetto;
	j.map = map;
	return jreader_done(&j, perfetto ? perfetto_events(path, data, len, chrome_event, &j, diag)
					 : chrome_json_events(path, (const char *)data, len, chrome_event, &j, diag));
}

int stats_read_chrome_mem(struct stats *s, const char *path, const char *data, size_t len, struct diag *diag)
{
	return read_trace(s, path, (const unsigned char *)data, len, false, NULL, diag);
}

int stats_read_perfetto_mem(struct stats *s, const char *path, const unsigned char *data, size_t len,
			    struct diag *diag)
{
	return read_trace(s, path, data, len, true, NULL, diag);
}

bool stats_is_chrome_json(const char *data, size_t len)
{
	size_t i = 0;

	while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
		i++;
	return i < len && (data[i] == '{' || data[i] == '[');
}

int stats_read_trace(struct stats *s, const char *path, struct diag *diag)
{
	/* mapped, not read into memory: a trace of GBs keeps a few MB resident */
	struct file_map *f = file_map_open(path);
	const char *text;
	int rc;

	if (!f) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read trace: %s",
			 errno == EINVAL ? "not a regular file" : strerror(errno));
		return -1;
	}
	text = (const char *)f->data;
	/* Perfetto first: its first byte is 0x0A, a blank to JSON */
	if (perfetto_looks_like_trace(f->data, f->len)) {
		rc = read_trace(s, path, f->data, f->len, true, f, diag);
	} else if (stats_is_chrome_json(text, f->len)) {
		rc = read_trace(s, path, f->data, f->len, false, f, diag);
	} else if (f->len && f->data[0] == (1 << 3 | 2)) {
		/* a packet field first, but cut short or corrupt further on: say where */
		rc = read_trace(s, path, f->data, f->len, true, f, diag);
	} else {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "neither a Chrome trace JSON nor a Perfetto trace");
		rc = -1;
	}
	file_map_close(f);
	return rc;
}
