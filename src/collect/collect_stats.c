/* Timing statistics for `report`: the rows, and a sink of the collect
 * engine filling them (the trace readers' side is stats_trace.c), reducing
 * slices to durations per (label, core type). See collect_stats.h.
 *
 * Memory is bounded whatever the number of slices: a row keeps its first
 * STATS_EXACT durations (percentiles exact, by nearest rank); past that it
 * moves them into a histogram of logarithmic buckets, each STATS_GAMMA times
 * wider than the last, which answers a percentile within STATS_ALPHA of the
 * true value in a few kilobytes (the scheme of DDSketch). Count, total, mean
 * and max stay exact. */
#include "collect_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "index_table.h"
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
	struct index_table index;   /* (label, kind) -> row */
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
	index_table_free(&s->index);
	free(s->rows);
	free(s);
}

const char *stats_kind_name(int kind)
{
	return kind == STATS_AIC ? "AIC" : kind == STATS_AIV ? "AIV" : "other";
}

struct row_key {
	const struct stats *s;
	const char *label;
	int kind;
};

static bool same_row(const void *ctx, size_t item)
{
	const struct row_key *k = ctx;
	return k->s->v[item].kind == k->kind && strcmp(k->s->v[item].label, k->label) == 0;
}

/* The row of (label, kind), made when new: hashed, as a trace may hold as
 * many labels as slices (readers cache the row per label besides). */
static struct series *find(struct stats *s, const char *label, int kind)
{
	struct row_key key = { s, label, kind };
	uint64_t h = index_hash_more(index_hash_bytes(label, strlen(label)), &kind, sizeof(kind));
	size_t k = index_table_find(&s->index, h, same_row, &key);

	if (k != SIZE_MAX)
		return &s->v[k];
	XGROW(s->v, s->cap, s->n + 1);
	memset(&s->v[s->n], 0, sizeof(s->v[s->n]));
	s->v[s->n].label = xstrdup(label);
	s->v[s->n].kind = kind;
	index_table_add(&s->index, h, s->n);
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

size_t stats_row(struct stats *s, const char *label, int kind)
{
	return (size_t)(find(s, label, kind) - s->v);
}

void stats_row_add(struct stats *s, size_t row, uint64_t dur_ns)
{
	series_add(&s->v[row], dur_ns);
	s->sorted = false;
}

const struct stats_observer *stats_observer(const struct stats *s)
{
	return s->obs;
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
	uint32_t path;              /* in the sink's paths */
	uint64_t ts, child;         /* child: the time of the slices closed inside */
};

struct stats_sink {
	struct stats *s;
	const struct point_map *map;
	struct open *stack;
	size_t sp, cap;
	struct slice_paths paths;   /* of the open slices, for the observer */
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
	slice_paths_release(&k->paths);
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
	k->stack[k->sp] = (struct open){ label, index, extra,
					 slice_path_child(&k->paths, k->sp ? k->stack[k->sp - 1].path : SLICE_PATH_ROOT, label),
					 ts, 0 };
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
					  o.path, &k->paths, map_label, k->map };
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
