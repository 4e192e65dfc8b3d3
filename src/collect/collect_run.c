/* The pairing engine of collect: per (rank, core) track, B/E records are
 * matched by label on a stack, so the slices given to the output nest
 * strictly whatever the dump holds. An E whose label is open deeper in the
 * stack closes the slices above it (marked unclosed); an E with no open B
 * is reported and dropped; B left open at the slot's end close at its last
 * record, marked. Every record ends in exactly one count. */
#include "collect_run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dump_layout.h"
#include "xalloc.h"

/* Unmatched-E warnings printed before only counting. */
#define WARN_LIMIT 5
/* Distinct unmapped ids remembered for the overlap diagnostic. */
#define MISSING_CAP 65536u

struct open_slice {
	uint32_t label;
	uint32_t index, extra;
	bool emitted;
};

struct run {
	const struct collect_opts *o;
	const struct trace_ops *ops;
	void *sink;
	struct collect_counts *c;
	struct diag *diag;
	uint64_t ns_per_cycle;        /* exact when the clock divides 1 GHz, else 0 */
	uint64_t hz;
	bool *label_ok;               /* per label: passes --label */
	bool *seen;                   /* per map id: met in a dump */
	uint32_t *missing;            /* open-addressing set of unmapped ids (+1) */
	size_t nmissing;
	bool missing_full;
	struct open_slice *stack;
	size_t cap_stack;
	unsigned warned_e, warned_cycles, warned_pairs;
	char first_core[32], last_core[32];  /* for messages: the first and last slot names met */
	bool noted_naming;            /* the naming notes are given once per run */
	uint64_t max_span;            /* cycles after the origin no record can be at (1 h) */
	uint64_t next_uuid;
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline uint64_t to_ns(const struct run *r, uint64_t cycles)
{
	if (r->ns_per_cycle)
		return cycles * r->ns_per_cycle;
	__extension__ typedef unsigned __int128 u128;
	return (uint64_t)((u128)cycles * 1000000000u / r->hz);
}

static void note_missing(struct run *r, uint32_t id)
{
	uint32_t key = id + 1, i;

	if (key == 0 || r->missing_full)
		return;
	i = (id * 2654435761u) & (MISSING_CAP - 1);
	while (r->missing[i]) {
		if (r->missing[i] == key)
			return;
		i = (i + 1) & (MISSING_CAP - 1);
	}
	if (r->nmissing + 1 >= MISSING_CAP / 2) {
		r->missing_full = true;
		return;
	}
	r->missing[i] = key;
	r->nmissing++;
}

bool collect_rank_spec_valid(const char *spec)
{
	const char *p = spec;

	if (!*p)
		return false;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b;
		if (end == p || a < 0)
			return false;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return false;
			p = end;
		}
		if (*p == ',')
			p++;
		else if (*p)
			return false;
	}
	return true;
}

bool collect_rank_selected(const char *spec, int rank)
{
	const char *p = spec;

	if (!spec)
		return true;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			p = end;
		}
		if (rank >= a && rank <= b)
			return true;
		if (*p == ',')
			p++;
		else
			break;
	}
	return false;
}

/* The index and extra id a record carries (bits 32..63). */
static inline void record_args(const struct run *r, uint64_t w, uint32_t *index, uint32_t *extra)
{
	if (r->o->whole_index) {
		*index = (uint32_t)(w >> 32);
		*extra = 0;
	} else {
		*index = (uint32_t)(w >> 40);
		*extra = (uint32_t)(w >> 32) & 0xFF;
	}
}

/* A cycle that breaks its core's order: before the last good one (a value
 * going back in time), or a spike above the next record that the next one
 * does not follow (the next is in order with the last good one), or more
 * than `span` cycles after `origin` (no kernel runs that long: a word that
 * is no cycle at all). Such a record keeps its place among the B and E
 * records, at the time of the record before; the cycles after it are
 * measured as if it were not there. */
static inline bool bad_cycle(const struct collect_slot *s, uint64_t k, int64_t cyc, int64_t prev_good, int64_t origin,
			     uint64_t span)
{
	int64_t next;

	if (cyc < prev_good || (uint64_t)(cyc - origin) > span)
		return true;
	if (k + 1 >= s->n)
		return false;
	next = collect_slot_cycle(s, k + 1);
	return next < cyc && next >= prev_good;
}

static void warn_cycle(struct run *r, const struct dump *d, const struct collect_slot *s, uint64_t k, int64_t cyc,
		       int64_t prev_good)
{
	char after[40] = "";

	if (r->o->quiet || r->warned_cycles++ >= WARN_LIMIT)
		return;
	if (k + 1 < s->n)
		snprintf(after, sizeof(after), ", after it %lld", (long long)collect_slot_cycle(s, k + 1));
	diag_pos(r->diag, DIAG_WARNING, d->path, 0, 0,
		 "%s, record %llu: cycle %lld breaks the order of the core's records (before it %lld%s): placed at the "
		 "time of the record before, the rest of the timeline kept",
		 s->name, (unsigned long long)k, (long long)cyc, (long long)prev_good, after);
}

/* Where in the stack (index + 1) the E `pt` with args (index, extra) closes:
 * the nearest B of its label with the same args, else (an E written
 * without args has index and extra 0) the nearest B of its label. 0 when
 * none is open. Mismatches are counted and reported. */
static size_t match_e(struct run *r, const struct dump *d, const struct collect_slot *s, uint64_t k, size_t sp,
		      uint32_t label, uint32_t index, uint32_t extra)
{
	const struct open_slice *st = r->stack;
	size_t by_label = 0, exact = 0;

	for (size_t j = sp; j > 0; j--) {
		if (st[j - 1].label != label)
			continue;
		if (!by_label)
			by_label = j;
		if (st[j - 1].index == index && st[j - 1].extra == extra) {
			exact = j;
			break;
		}
	}
	/* an E without args (index and extra 0) may be one written without
	 * them: closing the nearest B of its label is no mismatch */
	if (!by_label || exact == by_label || (!exact && !index && !extra))
		return by_label;
	if (exact) {
		/* B(label, i) ... B(label, j) ... E(label, i): slices of one label
		 * that overlap cannot nest; the inner one is closed here, unclosed */
		r->c->interleaved++;
		if (!r->o->quiet && r->warned_pairs++ < WARN_LIMIT)
			diag_pos(r->diag, DIAG_WARNING, d->path, 0, 0,
				 "%s, record %llu: \"E\" of '%s' with index %u, extra %u closes its \"B\" under an open "
				 "\"B\" of the same label with index %u, extra %u: the two overlap, which one track cannot "
				 "show; the inner one is closed here, marked unclosed",
				 s->name, (unsigned long long)k, r->o->map->labels[label], index, extra,
				 st[by_label - 1].index, st[by_label - 1].extra);
		return exact;
	}
	r->c->paired_by_label++;
	if (!r->o->quiet && r->warned_pairs++ < WARN_LIMIT)
		diag_pos(r->diag, DIAG_WARNING, d->path, 0, 0,
			 "%s, record %llu: \"E\" of '%s' carries index %u, extra %u, its \"B\" index %u, extra %u: "
			 "paired by label (E and B of one slice carry the same index in the field's code)",
			 s->name, (unsigned long long)k, r->o->map->labels[label], index, extra, st[by_label - 1].index,
			 st[by_label - 1].extra);
	return by_label;
}

static void run_track(struct run *r, const struct dump *d, const struct collect_slot *s, int64_t origin,
		      struct trace_track *t, bool *process_announced)
{
	const struct point_map *map = r->o->map;
	const int depth = r->o->depth;
	bool selected = collect_core_selected(r->o->cores, s->name);
	bool announced = false;
	uint64_t last_ts = 0;
	int64_t prev_good = s->entry < origin ? origin : s->entry;
	size_t sp = 0;

	if (selected)
		r->c->slots_selected++;
	if (!r->first_core[0])
		snprintf(r->first_core, sizeof(r->first_core), "%s", s->name);
	snprintf(r->last_core, sizeof(r->last_core), "%s", s->name);
	if (s->n > r->cap_stack) {
		r->cap_stack = s->n;
		r->stack = xrealloc(r->stack, r->cap_stack * sizeof(*r->stack));
	}
	if (s->n && collect_slot_cycle(s, 0) < prev_good && s->n > 1 && collect_slot_cycle(s, 1) < prev_good)
		prev_good = origin; /* the entry word is above the records: it is the one to doubt */
	for (uint64_t k = 0; k < s->n; k++) {
		uint64_t w = (uint64_t)collect_slot_word(s, k);
		uint32_t id = (uint32_t)w, index, extra;
		const struct point_map_point *pt;
		int64_t cyc;
		uint64_t ts;

		if (id == POINT_MAP_UNPREPROCESSED_ID) {
			r->c->unpreprocessed++;
			continue;
		}
		pt = point_map_get(map, id);
		if (!pt) {
			r->c->skipped_no_mapping++;
			note_missing(r, id);
			continue;
		}
		r->c->mapped++;
		r->seen[id] = true;
		cyc = collect_slot_cycle(s, k);
		if (bad_cycle(s, k, cyc, prev_good, origin, r->max_span)) {
			r->c->bad_cycles++;
			warn_cycle(r, d, s, k, cyc, prev_good);
			ts = last_ts;
		} else {
			prev_good = cyc;
			ts = to_ns(r, (uint64_t)(cyc - origin));
			if (ts < last_ts)
				ts = last_ts;
		}
		last_ts = ts;
		record_args(r, w, &index, &extra);
		if (pt->event_type == 'B') {
			bool emit = selected && (depth == 0 || (int)sp < depth) && r->label_ok[pt->label];
			r->stack[sp].label = pt->label;
			r->stack[sp].index = index;
			r->stack[sp].extra = extra;
			r->stack[sp].emitted = emit;
			sp++;
			if (emit) {
				if (!announced) {
					if (!*process_announced) {
						r->ops->process(r->sink, t->rank);
						*process_announced = true;
					}
					t->name = s->name;
					t->kind = s->kind;
					t->uuid = ++r->next_uuid;
					r->ops->track(r->sink, t);
					r->c->tracks++;
					announced = true;
				}
				r->ops->slice_begin(r->sink, t, ts, pt->label, index, extra);
			}
		} else {
			size_t j = match_e(r, d, s, k, sp, pt->label, index, extra);
			if (j == 0) {
				r->c->unmatched_e++;
				if (!r->o->quiet && r->warned_e++ < WARN_LIMIT)
					diag_pos(r->diag, DIAG_WARNING, d->path, 0, 0,
						 "%s, record %llu: \"E\" of '%s' (id %u) without an open \"B\"; dropped", s->name,
						 (unsigned long long)k, map->labels[pt->label], id);
				continue;
			}
			/* stack[j - 1] is the matching B; those above it close here, unclosed */
			while (sp > j - 1) {
				bool unclosed;
				sp--;
				unclosed = sp != j - 1;
				r->c->slices++;
				if (unclosed)
					r->c->unmatched_b++;
				if (r->stack[sp].emitted) {
					r->ops->slice_end(r->sink, t, ts, unclosed);
					r->c->written++;
				}
			}
		}
	}
	while (sp > 0) {
		sp--;
		r->c->slices++;
		r->c->unmatched_b++;
		if (r->stack[sp].emitted) {
			r->ops->slice_end(r->sink, t, last_ts, true);
			r->c->written++;
		}
	}
	if (announced)
		t->tid++;
}

/* The rules file that holds the collect settings, for messages. */
static const char *rules_name(const struct rule_policy *p)
{
	return p->nsources && p->sources[0]->path ? p->sources[0]->path : "the default rules";
}

/* Where the rules' `cores` and `slot` disagree with the dump (or cannot be
 * checked against it), a note naming both, once per run. */
static void note_naming(struct run *r, const struct dump *d, const struct collect_slots *slots)
{
	const struct rule_policy *p = r->o->policy;
	unsigned aic = 0, aiv = 0;

	if (r->noted_naming || r->o->quiet || !slots->by_position)
		return;
	r->noted_naming = true;
	for (size_t i = 0; i < p->ncores; i++) {
		if (strcmp(p->cores[i].type, "aic") == 0)
			aic = p->cores[i].count;
		else if (strcmp(p->cores[i].type, "aiv") == 0)
			aiv = p->cores[i].count;
	}
	if (slots->shape_words && slots->shape_words != p->slot_words)
		diag_pos(r->diag, DIAG_NOTE, d->path, 0, 0,
			 "the dump's slots are %zu words (its tensor rows), the rules say `slot %u` (%s): the rows are used",
			 slots->shape_words, p->slot_words, rules_name(p));
	if (slots->naming == NAMED_BY_TENSORS && (slots->shape_aic != aic || slots->shape_aiv != aiv))
		diag_pos(r->diag, DIAG_NOTE, d->path, 0, 0,
			 "the dump's tensors hold %u AIC and %u AIV slots, the rules say `cores aic %u, aiv %u` (%s): the "
			 "tracks are named from the tensors",
			 slots->shape_aic, slots->shape_aiv, aic, aiv, rules_name(p));
	else if (slots->naming == NAMED_BY_RULES)
		diag_pos(r->diag, DIAG_NOTE, d->path, 0, 0,
			 "%s says not which slot is which core: the first %u are named AIC and the next %u AIV, after "
			 "`cores aic %u, aiv %u` in %s (%zu slots in the dump)",
			 slots->shape_words ? "a single tensor" : "a flat dump", aic, aiv, aic, aiv, rules_name(p),
			 slots->total);
}

static int check_stamps(struct run *r, const struct dump *d, const struct collect_slots *slots)
{
	const struct point_map *map = r->o->map;

	if (!map->has_stamp)
		return 0;
	for (size_t i = 0; i < slots->n; i++) {
		const struct collect_slot *s = &slots->v[i];
		if (!s->layout->stamped || s->stamp == 0 || s->stamp == map->build_stamp)
			continue;
		if (r->o->ignore_stamp) {
			diag_pos(r->diag, DIAG_WARNING, d->path, 0, 0,
				 "build stamp %016llx differs from the map's %016llx (--ignore-stamp given)",
				 (unsigned long long)s->stamp, (unsigned long long)map->build_stamp);
			return 0;
		}
		diag_pos(r->diag, DIAG_ERROR, d->path, 0, 0,
			 "the dumps and point_map.json come from different builds: %s carries build stamp %016llx, "
			 "%s has %016llx (rebuild and rerun, or pass --ignore-stamp to decode anyway)",
			 s->name, (unsigned long long)s->stamp, r->o->map_path ? r->o->map_path : "the map",
			 (unsigned long long)map->build_stamp);
		return -1;
	}
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* t = 0 of a rank: the earliest kernel-entry cycle of its cores, leaving out
 * an entry word far (more than max_span) below the median of the others,
 * which is no cycle of this run (it would push every record of the rank
 * hours away from its origin). */
static int64_t rank_origin(struct run *r, const struct dump *d, const struct collect_slots *slots)
{
	int64_t *e = xmalloc((slots->n + 1) * sizeof(*e)), med, origin = INT64_MAX;
	size_t left_out = 0;

	for (size_t i = 0; i < slots->n; i++)
		e[i] = slots->v[i].entry;
	xqsort(e, slots->n, sizeof(*e), cmp_i64);
	med = slots->n ? e[slots->n / 2] : 0;
	for (size_t i = 0; i < slots->n; i++) {
		if (med > e[i] && (uint64_t)(med - e[i]) > r->max_span) {
			left_out++;
			continue;
		}
		if (e[i] < origin)
			origin = e[i];
	}
	if (left_out && !r->o->quiet)
		diag_pos(r->diag, DIAG_WARNING, d->path, 0, 0,
			 "%zu slot%s hold%s a kernel-entry cycle hours before the other cores' (median %lld): not taken "
			 "as the rank's start",
			 left_out, left_out == 1 ? "" : "s", left_out == 1 ? "s" : "", (long long)med);
	free(e);
	return origin == INT64_MAX ? 0 : origin;
}

static int run_dump(struct run *r, const struct dump_input *in)
{
	struct dump *d = dump_read(in->path, r->diag);
	struct collect_slots slots;
	struct trace_track t;
	bool process_announced = false;
	int64_t origin = 0;
	int rc = -1;

	if (!d)
		return -1;
	d->rank = in->rank;
	if (collect_slots_decode(d, r->o->policy, &slots, r->diag) != 0)
		goto out;
	if (check_stamps(r, d, &slots) != 0)
		goto out_slots;
	note_naming(r, d, &slots);
	r->c->files++;
	r->c->slots += slots.total;
	r->c->slots_empty += slots.empty;
	if (r->o->align == COLLECT_ALIGN_RANK_START)
		origin = rank_origin(r, d, &slots);
	memset(&t, 0, sizeof(t));
	t.rank = in->rank;
	for (size_t i = 0; i < slots.n; i++) {
		const struct collect_slot *s = &slots.v[i];
		r->c->records += s->n;
		r->c->dropped_on_device += s->dropped;
		if (s->layout->stamped && s->stamp)
			r->c->slots_stamped++;
		if (!s->layout->counts_dropped && s->n == s->capacity)
			r->c->full_uncounted++;
		run_track(r, d, s, origin, &t, &process_announced);
	}
	rc = 0;
out_slots:
	collect_slots_release(&slots);
out:
	dump_free(d);
	return rc;
}

static bool layout_unstamped(const struct dump_layout *l)
{
	return !l->stamped;
}

static bool layout_uncounted(const struct dump_layout *l)
{
	return !l->counts_dropped;
}

/* Ids of the dumps the map does not hold. Under 2%: counted. Above that a
 * warning; above COLLECT_MAX_UNMAPPED_PCT, when no slot carries a build
 * stamp that settles the question (moe-v1 has none), the error the stamp
 * check gives: the trace would be mislabeled. -1 after that error. */
static int overlap_diagnostic(struct run *r)
{
	const struct collect_counts *c = r->c;
	uint64_t with_id = c->mapped + c->skipped_no_mapping;
	bool refuse = c->skipped_no_mapping * 100 > with_id * COLLECT_MAX_UNMAPPED_PCT && !c->slots_stamped &&
		      !r->o->ignore_stamp;
	uint32_t shown[8];
	size_t nshown = 0;
	char list[160] = "", unstamped[128];

	if (!c->skipped_no_mapping || c->skipped_no_mapping * 50 < with_id)
		return 0; /* under 2% missing: counted, not worth a diagnostic */
	for (size_t i = 0; i < MISSING_CAP && nshown < 8; i++)
		if (r->missing[i])
			shown[nshown++] = r->missing[i] - 1;
	for (size_t i = 0; i < nshown; i++) {
		size_t len = strlen(list);
		snprintf(list + len, sizeof(list) - len, "%s%u", i ? ", " : "", shown[i]);
	}
	{
		char counts[320];
		snprintf(counts, sizeof(counts),
			 "%llu of %llu records (%.1f%%) have ids the map does not hold (ids in the dumps %llu%s, in the "
			 "map %llu, in both %llu; e.g. %s)",
			 (unsigned long long)c->skipped_no_mapping, (unsigned long long)with_id,
			 100.0 * (double)c->skipped_no_mapping / (double)with_id, (unsigned long long)c->ids_in_dumps,
			 r->missing_full ? "+" : "", (unsigned long long)c->ids_in_map, (unsigned long long)c->ids_in_both,
			 list);
		dump_layout_names(unstamped, sizeof(unstamped), "/", layout_unstamped);
		if (refuse)
			diag_pos(r->diag, DIAG_ERROR, r->o->map_path, 0, 0,
				 "the dumps and this map come from different builds: %s; %s dumps carry no build stamp, "
				 "this is the sign (rebuild and rerun, or pass --ignore-stamp to decode anyway)",
				 counts, unstamped);
		else
			diag_pos(r->diag, DIAG_WARNING, r->o->map_path, 0, 0, "%s", counts);
	}
	if (c->ids_in_both == 0)
		diag_pos(r->diag, DIAG_NOTE, r->o->map_path, 0, 0,
			 "no id in common: this point_map.json belongs to another build or another operator");
	else
		diag_pos(r->diag, DIAG_NOTE, r->o->map_path, 0, 0,
			 "the map is probably from an older or newer build of the same sources; use the one "
			 "`autotrace preprocess` wrote for the build that ran");
	return refuse ? -1 : 0;
}

/* Filters that keep nothing are an error, as --rank is: an empty trace
 * would look like a run without events. */
static int check_filters(const struct run *r)
{
	const struct collect_opts *o = r->o;
	const struct collect_counts *c = r->c;

	if (o->cores && c->slots && !c->slots_selected) {
		diag_plain(r->diag, DIAG_ERROR,
			   "--core %s selects none of the %llu written slots of the dumps (they hold %s to %s; see "
			   "`autotrace inspect --slots`)",
			   o->cores, (unsigned long long)(c->slots - c->slots_empty), r->first_core, r->last_core);
		return -1;
	}
	if (c->slices && !c->written) {
		diag_plain(r->diag, DIAG_ERROR, "the filters%s%s%s%s keep none of the %llu slices", o->ranks ? " --rank" : "",
			   o->cores ? " --core" : "", o->label_re ? " --label" : "", o->depth ? " --depth" : "",
			   (unsigned long long)c->slices);
		return -1;
	}
	return 0;
}

int collect_run(const struct dump_input *in, size_t nin, const struct collect_opts *o, const struct trace_ops *ops,
		void *sink, struct collect_counts *c, struct diag *diag)
{
	struct run r;
	struct trace_header h;
	const struct point_map *map = o->map;
	double t0 = now_seconds(), last_progress = t0;
	size_t nsel = 0, done = 0;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	memset(c, 0, sizeof(*c));
	r.o = o;
	r.ops = ops;
	r.sink = sink;
	r.c = c;
	r.diag = diag;
	r.hz = o->policy->clock_hz ? o->policy->clock_hz : 50000000;
	r.max_span = r.hz * 3600;
	if (1000000000u % r.hz == 0)
		r.ns_per_cycle = 1000000000u / r.hz;
	r.label_ok = xcalloc(map->nlabels + 1, sizeof(bool));
	for (size_t i = 0; i < map->nlabels; i++) {
		if (o->label_re) {
			pcre2_match_data *md = pcre2_match_data_create_from_pattern(o->label_re, NULL);
			r.label_ok[i] = pcre2_match(o->label_re, (PCRE2_SPTR)map->labels[i], strlen(map->labels[i]), 0, 0, md,
						    NULL) >= 0;
			pcre2_match_data_free(md);
		} else {
			r.label_ok[i] = true;
		}
	}
	if (o->label_re) {
		size_t matched = 0;
		for (size_t i = 0; i < map->nlabels; i++)
			matched += r.label_ok[i];
		if (!matched) {
			diag_plain(diag, DIAG_ERROR, "--label '%s' matches none of the %zu labels of %s", o->label ? o->label : "",
				   map->nlabels, o->map_path ? o->map_path : "the point map");
			free(r.label_ok);
			return -1;
		}
	}
	r.seen = xcalloc(map->npoints + 1, sizeof(bool));
	r.missing = xcalloc(MISSING_CAP, sizeof(uint32_t));

	h.map = map;
	h.map_path = o->map_path;
	h.clock_hz = r.hz;
	h.alignment = o->align == COLLECT_ALIGN_ABSOLUTE ? "absolute" : "rank-start";
	h.compress_level = o->compress_level;
	if (ops->begin(sink, &h) != 0)
		goto out;
	for (size_t i = 0; i < nin; i++)
		if (collect_rank_selected(o->ranks, in[i].rank))
			nsel++;
	for (size_t i = 0; i < nin; i++) {
		if (!collect_rank_selected(o->ranks, in[i].rank))
			continue;
		if (run_dump(&r, &in[i]) != 0)
			goto out;
		done++;
		if (o->progress) {
			double t = now_seconds();
			if (t - last_progress > 0.2 || done == nsel) {
				fprintf(stderr, "\rcollect: %zu/%zu files, %.1f M records/s ", done, nsel,
					(double)c->records / (t - t0 > 1e-9 ? t - t0 : 1e-9) / 1e6);
				last_progress = t;
			}
		}
	}
	if (o->progress && nsel)
		fputc('\n', stderr);
	if (nsel == 0) {
		diag_plain(diag, DIAG_ERROR, "--rank %s selects none of the %zu dump files", o->ranks ? o->ranks : "",
			   nin);
		goto out;
	}
	c->ids_in_map = map->count;
	for (size_t id = 0; id < map->npoints; id++)
		if (r.seen[id])
			c->ids_in_both++;
	c->ids_in_dumps = c->ids_in_both + r.nmissing;
	if (overlap_diagnostic(&r) != 0)
		goto out;
	if (r.warned_e > WARN_LIMIT)
		diag_plain(diag, DIAG_NOTE, "%u more \"E\" records without an open \"B\" (see unmatched_e)",
			   r.warned_e - WARN_LIMIT);
	if (r.warned_cycles > WARN_LIMIT)
		diag_plain(diag, DIAG_NOTE, "%u more records whose cycle breaks their core's order (see bad_cycles)",
			   r.warned_cycles - WARN_LIMIT);
	if (r.warned_pairs > WARN_LIMIT)
		diag_plain(diag, DIAG_NOTE,
			   "%u more \"E\" records whose index or extra differ from their \"B\" (see paired_by_label, "
			   "interleaved)",
			   r.warned_pairs - WARN_LIMIT);
	if (c->bad_cycles)
		diag_plain(diag, DIAG_WARNING,
			   "%llu record%s with a cycle out of its core's order (bad_cycles): each placed at the time of the "
			   "record before it, the rest of the timeline kept",
			   (unsigned long long)c->bad_cycles, c->bad_cycles == 1 ? "" : "s");
	if (c->unpreprocessed)
		diag_plain(diag, c->mapped ? DIAG_WARNING : DIAG_ERROR,
			   "%llu records carry the reserved id 0xFFFFFFFF: this build was not preprocessed "
			   "(TRACE_POINT fell back to its placeholder because `autotrace preprocess` did not run on "
			   "the build tree; check the hook with `autotrace hook --verify`, gate G1)",
			   (unsigned long long)c->unpreprocessed);
	if (c->records && !c->mapped) {
		if (!c->unpreprocessed)
			diag_pos(diag, DIAG_ERROR, o->map_path, 0, 0, "no record of the dumps has an id in this map");
		goto out;
	}
	if (check_filters(&r) != 0)
		goto out;
	if (c->dropped_on_device)
		diag_plain(diag, DIAG_WARNING,
			   "%llu records were dropped on the device (slots full): raise PROF_SIZE_PER_CORE or trace less",
			   (unsigned long long)c->dropped_on_device);
	if (c->full_uncounted) {
		char names[128];
		dump_layout_names(names, sizeof(names), "/", layout_uncounted);
		diag_plain(diag, DIAG_WARNING,
			   "%llu %s slots are full: later records may have been lost (%s does not count them)",
			   (unsigned long long)c->full_uncounted, names, names);
	}
	c->seconds = now_seconds() - t0;
	if (ops->end(sink, c) != 0)
		goto out;
	rc = 0;
out:
	free(r.label_ok);
	free(r.seen);
	free(r.missing);
	free(r.stack);
	return rc;
}
