/* Timing statistics for `report`: a sink of the collect engine and a Chrome
 * trace JSON reader, both reducing slices to durations per (label, core
 * type). See collect_stats.h. */
#include "collect_stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "xalloc.h"

struct series {
	char *label;
	int kind;
	uint64_t *d;
	size_t n, cap;
	uint64_t total;
};

struct stats {
	struct series *v;
	size_t n, cap;
	uint64_t core_time[STATS_KINDS];
	struct stats_row *rows;
	bool sorted;
};

struct stats *stats_new(void)
{
	return xcalloc(1, sizeof(struct stats));
}

void stats_free(struct stats *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].label);
		free(s->v[i].d);
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
	XGROW(se->d, se->cap, se->n + 1);
	se->d[se->n++] = dur;
	se->total += dur;
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

/* nearest rank */
static uint64_t pct(const uint64_t *d, size_t n, double p)
{
	/* ceil(p * n) in integers, p in per mille */
	size_t k = (size_t)(((uint64_t)(p * 1000 + 0.5) * n + 999) / 1000);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return d[k - 1];
}

const struct stats_row *stats_rows(struct stats *s, size_t *n)
{
	free(s->rows);
	s->rows = xcalloc(s->n + 1, sizeof(*s->rows));
	for (size_t i = 0; i < s->n; i++) {
		struct series *se = &s->v[i];
		struct stats_row *r = &s->rows[i];
		xqsort(se->d, se->n, sizeof(*se->d), cmp_u64);
		r->label = se->label;
		r->kind = se->kind;
		r->count = se->n;
		r->total_ns = se->total;
		r->mean_ns = se->n ? se->total / se->n : 0;
		r->p50_ns = se->n ? pct(se->d, se->n, 0.50) : 0;
		r->p99_ns = se->n ? pct(se->d, se->n, 0.99) : 0;
		r->max_ns = se->n ? se->d[se->n - 1] : 0;
		r->share = s->core_time[se->kind] ? (double)se->total / (double)s->core_time[se->kind] : 0.0;
	}
	xqsort(s->rows, s->n, sizeof(*s->rows), cmp_row);
	*n = s->n;
	return s->rows;
}

/* ---- the collect sink ---- */

struct open {
	uint32_t label;
	uint64_t ts;
};

struct stats_sink {
	struct stats *s;
	const struct point_map *map;
	struct open *stack;
	size_t sp, cap;
	size_t *cache;              /* per (label, kind): index into s->v, + 1 */
	int kind;
	bool in_track;
	uint64_t first, last;
};

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
	(void)p;
	(void)rank;
}

static void sink_track(void *p, const struct trace_track *t)
{
	struct stats_sink *k = p;
	close_track(k);
	k->kind = t->kind == CORE_AIC ? STATS_AIC : t->kind == CORE_AIV ? STATS_AIV : STATS_OTHER;
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
	(void)index;
	(void)extra;
	XGROW(k->stack, k->cap, k->sp + 1);
	k->stack[k->sp].label = label;
	k->stack[k->sp].ts = ts;
	k->sp++;
	if (ts < k->first)
		k->first = ts;
}

static void sink_end_slice(void *p, const struct trace_track *t, uint64_t ts, bool unclosed)
{
	struct stats_sink *k = p;
	size_t *c;
	struct open o;

	(void)t;
	(void)unclosed;
	if (!k->sp)
		return;
	o = k->stack[--k->sp];
	c = &k->cache[(size_t)o.label * STATS_KINDS + (size_t)k->kind];
	if (!*c)
		*c = (size_t)(find(k->s, k->map->labels[o.label], k->kind) - k->s->v) + 1;
	series_add(&k->s->v[*c - 1], ts - o.ts);
	k->s->sorted = false;
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

/* ---- Chrome trace JSON ---- */

struct jtrack {
	double pid, tid;
	int kind;
	char **labels;              /* open B labels */
	uint64_t *ts;
	size_t sp, cap;
	uint64_t first, last;
};

static struct jtrack *jfind(struct jtrack **v, size_t *n, size_t *cap, double pid, double tid)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].pid == pid && (*v)[i].tid == tid)
			return &(*v)[i];
	XGROW(*v, *cap, *n + 1);
	memset(&(*v)[*n], 0, sizeof((*v)[*n]));
	(*v)[*n].pid = pid;
	(*v)[*n].tid = tid;
	(*v)[*n].first = UINT64_MAX;
	return &(*v)[(*n)++];
}

static uint64_t us_to_ns(double us)
{
	return us <= 0 ? 0 : (uint64_t)(us * 1000.0 + 0.5);
}

int stats_read_chrome(struct stats *s, const char *path, struct diag *diag)
{
	struct src_file *f = src_file_load(path);
	cJSON *root = NULL;
	const cJSON *events, *e;
	struct jtrack *tracks = NULL;
	size_t ntracks = 0, captracks = 0;
	int rc = -1;

	if (!f) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read trace: %s", strerror(errno));
		return -1;
	}
	root = cJSON_ParseWithLength(f->data, f->len);
	if (!root) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "not a Chrome trace JSON (malformed JSON)");
		goto out;
	}
	events = cJSON_IsArray(root) ? root : cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
	if (!cJSON_IsArray(events)) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "no \"traceEvents\" array: not a Chrome trace");
		goto out;
	}
	/* thread names first: they may come anywhere */
	cJSON_ArrayForEach(e, events) {
		const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph"), *name = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args"), *tn;
		if (!cJSON_IsString(ph) || strcmp(ph->valuestring, "M") != 0 || !cJSON_IsString(name) ||
		    strcmp(name->valuestring, "thread_name") != 0)
			continue;
		tn = cJSON_GetObjectItemCaseSensitive(args, "name");
		if (cJSON_IsString(tn)) {
			struct jtrack *t = jfind(&tracks, &ntracks, &captracks,
						 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "pid")),
						 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "tid")));
			t->kind = strncmp(tn->valuestring, "AIC", 3) == 0 ? STATS_AIC
				  : strncmp(tn->valuestring, "AIV", 3) == 0 ? STATS_AIV
									 : STATS_OTHER;
		}
	}
	cJSON_ArrayForEach(e, events) {
		const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph");
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
		double pid = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "pid"));
		double tid = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "tid"));
		uint64_t ts = us_to_ns(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "ts")));
		struct jtrack *t;
		char p;

		if (!cJSON_IsString(ph) || strlen(ph->valuestring) != 1)
			continue;
		p = ph->valuestring[0];
		if (p != 'B' && p != 'E' && p != 'X')
			continue;
		t = jfind(&tracks, &ntracks, &captracks, pid, tid);
		if (p == 'X') {
			uint64_t dur = us_to_ns(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "dur")));
			if (cJSON_IsString(name))
				stats_add(s, name->valuestring, t->kind, dur);
			if (ts < t->first)
				t->first = ts;
			if (ts + dur > t->last)
				t->last = ts + dur;
		} else if (p == 'B') {
			XGROW(t->labels, t->cap, t->sp + 1);
			t->ts = xrealloc(t->ts, t->cap * sizeof(*t->ts));
			t->labels[t->sp] = xstrdup(cJSON_IsString(name) ? name->valuestring : "?");
			t->ts[t->sp++] = ts;
			if (ts < t->first)
				t->first = ts;
		} else if (t->sp) {
			t->sp--;
			stats_add(s, t->labels[t->sp], t->kind, ts >= t->ts[t->sp] ? ts - t->ts[t->sp] : 0);
			free(t->labels[t->sp]);
			if (ts > t->last)
				t->last = ts;
		}
	}
	for (size_t i = 0; i < ntracks; i++)
		if (tracks[i].last > tracks[i].first && tracks[i].first != UINT64_MAX)
			stats_core_time(s, tracks[i].kind, tracks[i].last - tracks[i].first);
	rc = 0;
out:
	for (size_t i = 0; i < ntracks; i++) {
		for (size_t k = 0; k < tracks[i].sp; k++)
			free(tracks[i].labels[k]);
		free(tracks[i].labels);
		free(tracks[i].ts);
	}
	free(tracks);
	cJSON_Delete(root);
	src_file_free(f);
	return rc;
}
