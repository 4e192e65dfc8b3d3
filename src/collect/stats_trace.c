/* report's reader of traces: the events of a Chrome trace JSON
 * (chrome_json.h) or a Perfetto trace (perfetto_read.h), the same events
 * from either, into the per-label rows of collect_stats.h and to its
 * observer (report's views): tracks and their core types, B/E slices as
 * they close, X events nested by their times, slices of tracks not named
 * yet held until the end, the ranks' names. See collect_stats.h. */
#include "collect_stats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "chrome_json.h"
#include "file_map.h"
#include "index_table.h"
#include "perfetto_read.h"
#include "xalloc.h"

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
	const struct stats_observer *obs = stats_observer(j->s);
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
		*c = stats_row(j->s, j->labels[label].text, t->kind) + 1;
	stats_row_add(j->s, *c - 1, dur);
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
			if (stats_observer(j->s))
				t->core = stats_observer(j->s)->core(stats_observer(j->s)->ctx, n, len);
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
	const struct stats_observer *obs = stats_observer(s);

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
