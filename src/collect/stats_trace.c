/* report's reader of traces: the events of a Chrome trace JSON
 * (chrome_json.h) or a Perfetto trace (perfetto_read.h), the same events
 * from either, into the per-label rows of collect_stats.h and to its
 * observer (report's views): tracks and their core types, B/E slices as
 * they close, X events nested by their times, slices of tracks not named
 * yet held until the end, the ranks' names. See collect_stats.h.
 *
 * What the JSON reader checks of an event's times and names (chrome_json.h)
 * holds for a Perfetto trace's events too, checked here; and for both, a
 * slice does not end before it begins, and the durations and the cores'
 * busy times add up within 64 bits of nanoseconds (each time is at most
 * 2^53 microseconds, but a few of them add up past that): else a located
 * error, rather than totals that wrap around (issue 33). */
#include "collect_stats.h"

#include <errno.h>
#include <stdarg.h>
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
	uint32_t label, path, index, extra;
	uint64_t dur, self;
};

/* An open slice; `path` in j->paths (SLICE_PATH_ROOT with no observer:
 * only the observer is given paths). */
struct jopen {
	uint32_t label, path, index, extra;
	uint64_t ts, child;         /* child: the time of the slices closed inside */
	size_t at;                  /* the event that opened it (its offset) */
};

/* An X event, held until its track's events are all in (they come
 * children first: nesting is known once the outermost one is read). */
struct xslice {
	uint32_t label, index, extra;
	uint64_t ts, dur;
	size_t pos;                 /* its place among the track's */
	size_t at;                  /* the event's offset */
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
	struct index_table proc_index; /* key -> process */
	size_t last_proc;           /* the previous lookup, + 1 */
	struct slice_paths paths;   /* of the slices, for the observer */
	struct jopen *xstack;       /* scratch: nesting the X events of a track */
	uint64_t *xend;             /* their ends */
	size_t capxstack, capxend;
	struct file_map *map;       /* the trace file, its read part given back; or NULL */
	const char *path;           /* the trace, its bytes, for messages */
	const unsigned char *data;
	struct diag *diag;
	uint64_t dur_sum;           /* of every slice so far: the bound of every total */
	bool failed;                /* an error was reported */
	unsigned warnings;          /* of args (Perfetto) */
};

/* An error at the event at `offset` (JSON: its line and column; Perfetto:
 * the byte of its packet); -1. */
__attribute__((format(printf, 3, 4))) static int event_error(struct jreader *j, size_t offset, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	j->failed = true;
	if (j->perfetto) {
		diag_pos(j->diag, DIAG_ERROR, j->path, 0, 0, "%s (the packet at byte %zu)", msg, offset);
	} else {
		size_t line, col;
		chrome_json_position((const char *)j->data, offset, &line, &col);
		diag_pos(j->diag, DIAG_ERROR, j->path, line, col, "%s", msg);
	}
	return -1;
}

static const char *jlabel_text(const void *src, uint32_t label)
{
	return ((const struct jreader *)src)->labels[label].text;
}

struct proc_key {
	const struct jreader *j;
	uint64_t key;
};

static bool same_proc(const void *ctx, size_t item)
{
	const struct proc_key *k = ctx;
	return k->j->procs[item].key == k->key;
}

/* The process of `key`, made when new: looked up per slice (consecutive
 * slices mostly share it), hashed (a trace may hold a process per event). */
static uint32_t proc_find(struct jreader *j, uint64_t key)
{
	struct proc_key pk = { j, key };
	uint64_t h;
	size_t k;

	if (j->last_proc && j->procs[j->last_proc - 1].key == key)
		return (uint32_t)(j->last_proc - 1);
	h = index_hash_u64(key);
	k = index_table_find(&j->proc_index, h, same_proc, &pk);
	if (k == SIZE_MAX) {
		XGROW(j->procs, j->capprocs, j->nprocs + 1);
		j->procs[j->nprocs] = (struct jproc){ key, NULL };
		index_table_add(&j->proc_index, h, j->nprocs);
		k = j->nprocs++;
	}
	j->last_proc = k + 1;
	return (uint32_t)k;
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

static int flush_x(struct jreader *j, size_t track);

static size_t jtrack_find(struct jreader *j, const struct chrome_event *e)
{
	struct track_key key = { j, e->pid, e->tid };
	uint64_t h;
	size_t k;
	struct jtrack *t;

	if (j->last && same_track(&key, j->last - 1))
		return j->last - 1;
	/* another track: the last one's X events are all in (collect writes a
	 * track's events together; a trace that interleaves them nests less);
	 * an error sets j->failed */
	if (j->last && j->tracks[j->last - 1].nx)
		(void)flush_x(j, j->last - 1);
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

/* A slice labelled `label` opened on a stack of `sp` open slices, by the
 * event at `at`. */
static struct jopen open_slice(struct jreader *j, const struct jopen *stack, size_t sp, uint32_t label, uint32_t index,
			       uint32_t extra, uint64_t ts, size_t at)
{
	uint32_t path = SLICE_PATH_ROOT;

	if (stats_observer(j->s))
		path = slice_path_child(&j->paths, sp ? stack[sp - 1].path : SLICE_PATH_ROOT, label);
	return (struct jopen){ label, path, index, extra, ts, 0, at };
}

/* A closed slice of `track`: into its row, and to the observer. */
static void add_slice(struct jreader *j, size_t track, uint32_t label, uint32_t path, uint32_t index, uint32_t extra,
		      uint64_t dur, uint64_t self)
{
	struct jtrack *t = &j->tracks[track];
	const struct stats_observer *obs = stats_observer(j->s);
	size_t *c;

	if (t->kind < 0) {
		XGROW(j->pend, j->cappend, j->npend + 1);
		j->pend[j->npend++] = (struct pending){ track, label, path, index, extra, dur, self };
		return;
	}
	if ((size_t)label * STATS_KINDS + STATS_KINDS > j->capseries) {
		/* doubled: grown by 16 labels at a time, 60,000 labels copied it
		 * 3,750 times where realloc cannot move pages (ASan: 18 s) */
		size_t old = j->capseries, n = old ? old : 16 * STATS_KINDS;
		while (n < (size_t)label * STATS_KINDS + STATS_KINDS)
			n *= 2;
		j->capseries = n;
		j->series = xrealloc(j->series, j->capseries * sizeof(*j->series));
		memset(j->series + old, 0, (j->capseries - old) * sizeof(*j->series));
	}
	c = &j->series[(size_t)label * STATS_KINDS + (size_t)t->kind];
	if (!*c)
		*c = stats_row(j->s, j->labels[label].text, t->kind) + 1;
	stats_row_add(j->s, *c - 1, dur);
	if (obs) {
		uint32_t rank = proc_find(j, t->has_process ? t->process : UINT64_MAX);
		struct stats_slice sl = { t->kind, rank, t->core, index, extra, dur, self, path, &j->paths, jlabel_text, j };
		obs->slice(obs->ctx, &sl);
	}
}

/* Pops the top of a stack of open slices (`*sp` of them) closed at `end`
 * by the event at `at`: its row, its parent's child time. -1 after
 * reporting a slice ending before it begins, or durations past 64 bits. */
static int close_open(struct jreader *j, size_t track, struct jopen *stack, size_t *sp, uint64_t end, size_t at)
{
	struct jopen o = stack[*sp - 1];
	uint64_t dur;

	if (end < o.ts)
		return event_error(j, at,
				   "this slice end (at %.3f us) comes before the begin of '%s' it closes (at %.3f us): a "
				   "slice cannot end before it begins",
				   (double)end / 1000.0, j->labels[o.label].text, (double)o.ts / 1000.0);
	dur = end - o.ts;
	if (j->dur_sum > UINT64_MAX - dur)
		return event_error(j, at,
				   "the durations of the slices add up past 2^64 ns (584 years) with this one ('%s', %.3f "
				   "us): report's totals cannot hold them",
				   j->labels[o.label].text, (double)dur / 1000.0);
	j->dur_sum += dur;
	add_slice(j, track, o.label, o.path, o.index, o.extra, dur, dur > o.child ? dur - o.child : 0);
	if (--*sp)
		stack[*sp - 1].child += dur;
	return 0;
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
 * another's span is its child) and adds them. -1 as close_open. */
static int flush_x(struct jreader *j, size_t track)
{
	struct jtrack *t = &j->tracks[track];
	size_t sp = 0;
	int rc = 0;

	xqsort(t->x, t->nx, sizeof(*t->x), cmp_xslice);
	for (size_t i = 0; i <= t->nx && rc == 0; i++) {
		const struct xslice *x = i < t->nx ? &t->x[i] : NULL;
		while (rc == 0 && sp && (!x || x->ts + x->dur > j->xend[sp - 1]))
			rc = close_open(j, track, j->xstack, &sp, j->xend[sp - 1], j->xstack[sp - 1].at);
		if (!x || rc)
			break;
		XGROW(j->xstack, j->capxstack, sp + 1);
		XGROW(j->xend, j->capxend, sp + 1);
		j->xstack[sp] = open_slice(j, j->xstack, sp, x->label, x->index, x->extra, x->ts, x->at);
		j->xend[sp++] = x->ts + x->dur;
	}
	/* (freed: the held events of one track at a time, not of all) */
	free(t->x);
	t->x = NULL;
	t->nx = t->capx = 0;
	return rc;
}

static bool is_name(const struct chrome_str *s, const char *name)
{
	return s->s && s->len == strlen(name) && memcmp(s->s, name, s->len) == 0;
}

/* What the JSON reader refuses in a Chrome trace's events, for a Perfetto
 * trace's (a JSON event never reaches here with it): a slice with no time
 * or one past CHROME_TIME_MAX_NS, a NUL in a name. -1 after reporting. */
static int check_event(struct jreader *j, const struct chrome_event *e)
{
	const char *what = e->ph == 'B' ? "slice begin" : "slice end";

	if ((e->ph == 'B' || e->ph == 'E') && !e->has_ts)
		return event_error(j, e->offset, "a %s without a timestamp", what);
	if ((e->ph == 'B' || e->ph == 'E') && e->ts_ns > CHROME_TIME_MAX_NS)
		return event_error(j, e->offset,
				   "a %s at %llu ns, past 2^53 microseconds (285 years): report reads times up to that "
				   "(a clock snapshot that puts it before 0?)",
				   what, (unsigned long long)e->ts_ns);
	if (e->ph == 'B' && e->name.s && memchr(e->name.s, 0, e->name.len))
		return event_error(j, e->offset, "a NUL character in the name of a slice: a label cannot hold one");
	if (e->ph == 'M' && (is_name(&e->name, "thread_name") || is_name(&e->name, "process_name")) && e->arg_name.s &&
	    memchr(e->arg_name.s, 0, e->arg_name.len))
		return event_error(j, e->offset, "a NUL character in the name of a %s: a name cannot hold one",
				   is_name(&e->name, "thread_name") ? "track" : "process");
	return 0;
}

static int chrome_event(void *ctx, const struct chrome_event *e)
{
	struct jreader *j = ctx;
	struct jtrack *t;
	size_t ti;

	if (j->map)
		file_map_release(j->map, e->offset);
	if (check_event(j, e) != 0)
		return -1;
	if (e->ph == 'B' && e->bad_args && ++j->warnings <= CHROME_MAX_WARNINGS)
		diag_pos(j->diag, DIAG_WARNING, j->path, 0, 0,
			 "a slice begin's debug annotation \"%s\" is not a whole number from 0 to 4294967295: the slice is "
			 "read without it (the packet at byte %zu)",
			 e->bad_args & 1 ? "index" : "extra", e->offset);

	if (e->ph == 'M') {
		if (is_name(&e->name, "thread_name") && e->arg_name.s) {
			const char *n = e->arg_name.s;
			size_t len = e->arg_name.len;
			ti = jtrack_find(j, e); /* may move j->tracks */
			if (j->failed)
				return -1;
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
		} else if (is_name(&e->name, "process_name") && e->arg_name.s &&
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
	if (j->failed)
		return -1;
	t = &j->tracks[ti];
	if (e->ph == 'X') {
		if (e->name.s) {
			XGROW(t->x, t->capx, t->nx + 1);
			t->x[t->nx] = (struct xslice){ label_intern(j, &e->name), e->index, e->extra, e->ts_ns,
						       e->dur_ns, t->nx, e->offset };
			t->nx++;
		}
		if (e->ts_ns < t->first)
			t->first = e->ts_ns;
		if (e->ts_ns + e->dur_ns > t->last)
			t->last = e->ts_ns + e->dur_ns;
	} else if (e->ph == 'B') {
		XGROW(t->stack, t->cap, t->sp + 1);
		t->stack[t->sp] = open_slice(j, t->stack, t->sp, label_intern(j, &e->name), e->index, e->extra, e->ts_ns,
					     e->offset);
		t->sp++;
		if (e->ts_ns < t->first)
			t->first = e->ts_ns;
	} else if (t->sp) {
		if (close_open(j, ti, t->stack, &t->sp, e->ts_ns, e->offset) != 0)
			return -1;
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

	for (size_t i = 0; rc == 0 && i < j->ntracks; i++)
		if (j->tracks[i].nx && flush_x(j, i) != 0)
			rc = -1;
	if (rc == 0) {
		uint64_t busy = 0;
		for (size_t i = 0; i < j->ntracks; i++) {
			const struct jtrack *t = &j->tracks[i];
			uint64_t span = t->last > t->first && t->first != UINT64_MAX ? t->last - t->first : 0;
			if (busy > UINT64_MAX - span) {
				diag_pos(j->diag, DIAG_ERROR, j->path, 0, 0,
					 "the busy times of the cores add up past 2^64 ns (584 years) with pid %.15g tid %.15g "
					 "(%.3f us): report's shares cannot be told",
					 t->pid, t->tid, (double)span / 1000.0);
				rc = -1;
				break;
			}
			busy += span;
		}
	}
	if (rc == 0) {
		for (size_t i = 0; i < j->ntracks; i++)
			if (j->tracks[i].kind < 0) {
				char name[48];
				j->tracks[i].kind = STATS_OTHER;
				snprintf(name, sizeof(name), "tid %.15g", j->tracks[i].tid);
				if (obs)
					j->tracks[i].core = obs->core(obs->ctx, name, strlen(name));
			}
		for (size_t i = 0; i < j->npend; i++)
			add_slice(j, j->pend[i].track, j->pend[i].label, j->pend[i].path, j->pend[i].index, j->pend[i].extra,
				  j->pend[i].dur, j->pend[i].self);
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
	free(j->pend);
	if (j->warnings > CHROME_MAX_WARNINGS)
		diag_pos(j->diag, DIAG_NOTE, j->path, 0, 0, "%u more slices with a debug annotation index or extra read without it",
			 j->warnings - CHROME_MAX_WARNINGS);
	for (size_t i = 0; i < j->nprocs; i++)
		free(j->procs[i].name);
	free(j->procs);
	index_table_free(&j->proc_index);
	slice_paths_release(&j->paths);
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
	j.path = path;
	j.data = data;
	j.diag = diag;
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
