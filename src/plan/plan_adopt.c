/* Points already in the sources (written by hand, or by an earlier apply)
 * beside the planned ones, after the walk: a planned point that times the
 * same statements as an existing pair but for declarations and other points
 * (a pair shifted by a declaration line, nested at the same spot), or the
 * body of a function called once whose call a pair times (and the reverse),
 * is that pair: present, under its label. A planned point whose B and E
 * would interleave with a pair's nests around or inside it where only points
 * and declarations lie between, and is skipped otherwise. pl->hand lists
 * every pair and the planned point that took it (none: kept as it is). See
 * plan_walk.h. */
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "plan_walk.h"
#include "xalloc.h"

/* An existing pair: B and E are statements of one block. */
struct pair {
	int b, e; /* the statements */
	int k;    /* the B point */
};


/* The statements of work within [start, end): how many, from where to where. */
struct extent {
	int n;
	uint32_t lo, hi;
};

/* (a point, or a declaration that calls nothing but constructors, is no work) */
static struct extent work_in(struct plan_walker *w, struct plan_fref f, uint32_t start, uint32_t end)
{
	const struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);
	struct extent x = { 0, 0, 0 };

	for (size_t s = 0; s < b->nstmts; s++) {
		struct cxx_range r = b->stmts[s].range;
		if (r.start < start || r.end > end || fi->point_at[s] >= 0 || plan_plain_decl(w, f, (int)s))
			continue;
		if (x.n == 0 || r.start < x.lo)
			x.lo = r.start;
		if (x.n == 0 || r.end > x.hi)
			x.hi = r.end;
		x.n++;
	}
	return x;
}

static bool same_work(struct extent a, struct extent b)
{
	return a.n > 0 && a.n == b.n && a.lo == b.lo && a.hi == b.hi;
}

static bool work_within(struct extent a, uint32_t start, uint32_t end)
{
	return a.n > 0 && a.lo >= start && a.hi <= end;
}

/* The existing pairs of f (`all`), or those no planned point has taken, in
 * source order. */
static size_t pairs_of(struct plan_walker *w, struct plan_fref f, bool all, struct pair **out)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);
	size_t n = 0;

	*out = NULL;
	for (size_t k = 0; k < b->npoints; k++) {
		const struct cxx_point *p = &b->points[k];
		int s = p->stmt;
		if ((fi->claimed[k] && !all) || !p->label || !p->event || strcmp(p->event, "B") != 0 || s < 0 ||
		    fi->point_at[s] != (int)k)
			continue;
		for (int e = cxx_next_sibling(b, s); e >= 0; e = cxx_next_sibling(b, e)) {
			const struct cxx_point *q = fi->point_at[e] >= 0 ? &b->points[fi->point_at[e]] : NULL;
			if (!q || !q->label || !q->event || strcmp(q->label, p->label) != 0)
				continue;
			if (strcmp(q->event, "E") == 0) {
				if (n % 8 == 0)
					*out = xrealloc(*out, (n + 8) * sizeof(**out));
				(*out)[n++] = (struct pair){ s, e, (int)k };
			}
			break;
		}
	}
	return n;
}

static struct extent pair_work(struct plan_walker *w, struct plan_fref f, const struct pair *h)
{
	const struct cxx_body *b = plan_body_of(w, f);

	return work_in(w, f, b->stmts[h->b].range.end, b->stmts[h->e].range.start);
}

/* Node idx is the existing pair whose B is point k of f: present, under its
 * label, which the labels planned inside it made of its own ({parent}) take. */
static void adopt(struct plan_walker *w, int idx, struct plan_fref f, int k)
{
	struct plan *pl = w->pl;
	struct plan_node *n = &pl->nodes[idx];
	const char *hand = plan_body_of(w, f)->points[k].label;
	char *old = n->label;
	size_t len = strlen(old);

	plan_finfo(pl, f)->claimed[k] = idx + 1;
	n->fate = PLAN_FATE_PRESENT;
	n->rule_label = old;
	n->label = xstrdup(hand);
	/* (a label that cannot be written in a point, `"a\nb"`, is not given on) */
	for (size_t i = (size_t)idx + 1;
	     hand[0] && !strchr(hand, '\n') && !strchr(hand, '\r') && !strstr(hand, "*/") && i < pl->nnodes &&
	     pl->nodes[i].depth > n->depth;
	     i++) {
		struct plan_node *c = &pl->nodes[i];
		if (c->fate == PLAN_FATE_PRESENT || !c->label || strncmp(c->label, old, len) != 0 || c->label[len] != ' ')
			continue;
		char *l = xasprintf("%s%s", hand, c->label + len);
		free(c->label);
		c->label = l;
	}
}

bool plan_only_call_site(struct plan_walker *w, struct plan_fref t, struct plan_fref *g, int *stmt)
{
	const struct plan_finfo *ti = plan_finfo(w->pl, t);
	int found = 0;

	for (size_t i = 0; i < ti->ncallers; i++) {
		struct plan_fref c = ti->callers[i];
		const struct cxx_body *b = plan_body_of(w, c);
		for (size_t j = 0; j < b->ncalls; j++) {
			struct plan_fref to[PLAN_RESOLVE_MAX];
			bool quiet;
			size_t nt = plan_resolve_call(w->pl, c, &b->calls[j], to, PLAN_RESOLVE_MAX, &quiet);
			for (size_t x = 0; x < nt; x++)
				if (to[x].unit == t.unit && to[x].func == t.func) {
					if (++found > 1 || b->calls[j].stmt < 0)
						return false;
					*g = c;
					*stmt = b->calls[j].stmt;
				}
		}
	}
	return found == 1;
}

/* A pair of f whose work is `x`, or -1. */
static int pair_with_work(struct plan_walker *w, struct plan_fref f, struct extent x)
{
	struct pair *h;
	size_t nh = pairs_of(w, f, false, &h);
	int k = -1;

	for (size_t i = 0; i < nh && k < 0; i++)
		if (same_work(pair_work(w, f, &h[i]), x))
			k = h[i].k;
	free(h);
	return k;
}

/* The body of a function called once, where a pair times its call; a call
 * of a function called once whose whole body a pair times. */
static bool adopt_across_call(struct plan_walker *w, int idx, struct plan_fref f)
{
	struct plan_node *n = &w->pl->nodes[idx];
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_fref g, t[PLAN_RESOLVE_MAX];
	int s, k;

	if (n->kind == PLAN_function && plan_only_call_site(w, f, &g, &s)) {
		const struct cxx_body *gb = plan_body_of(w, g);
		k = pair_with_work(w, g, work_in(w, g, gb->stmts[s].range.start, gb->stmts[s].range.end));
		if (k >= 0) {
			adopt(w, idx, g, k);
			return true;
		}
	}
	if ((n->kind == PLAN_wrap || n->kind == PLAN_hot) && n->call >= 0) {
		bool quiet;
		size_t nt = plan_resolve_call(w->pl, f, &b->calls[n->call], t, PLAN_RESOLVE_MAX, &quiet);
		if (nt == 1 && !w->pl->units[t[0].unit].runtime && plan_only_call_site(w, t[0], &g, &s)) {
			const struct cxx_func *fn = plan_func(w->pl, t[0]);
			k = pair_with_work(w, t[0], work_in(w, t[0], fn->body_range.start, fn->body_range.end));
			if (k >= 0) {
				adopt(w, idx, t[0], k);
				return true;
			}
		}
	}
	return false;
}

static bool stmt_kind(const struct plan_node *n)
{
	return n->span || n->kind == PLAN_wrap || n->kind == PLAN_hot || n->kind == PLAN_region;
}

static void set_stmts(struct plan_node *n, const struct cxx_body *b, int first, int last)
{
	if (n->span) {
		n->span_first = first;
		n->span_last = last;
	} else {
		n->stmt = first;
		n->stmt_last = last;
	}
	n->scope.start = b->stmts[first].range.start;
	n->scope.end = b->stmts[last].range.end;
}

/* Moves the statements of n so that its B and E nest with every pair's;
 * false when they cannot. */
static bool nest(struct plan_walker *w, struct plan_node *n, struct plan_fref f, const struct pair *h, size_t nh,
		 int *crossed)
{
	const struct cxx_body *b = plan_body_of(w, f);

	for (int round = 0; round < 8; round++) {
		bool moved = false;
		int first = n->span ? n->span_first : n->stmt, last = n->span ? n->span_last : n->stmt_last;
		uint32_t pb = n->scope.start, pe = n->scope.end;
		struct extent pw = work_in(w, f, pb, pe);
		for (size_t i = 0; i < nh && !moved; i++) {
			uint32_t hb = b->stmts[h[i].b].range.start, he = b->stmts[h[i].e].range.end;
			bool opens_first = pb <= hb, closes_last = pe >= he;
			struct extent hw;
			if (pe <= hb || he <= pb || opens_first == closes_last)
				continue; /* apart, or nested */
			*crossed = (int)i;
			if (!stmt_kind(n) || first < 0)
				return false;
			hw = pair_work(w, f, &h[i]);
			if (work_within(hw, pb, pe) || hw.n == 0) {
				/* around the pair: B before its B, E after its E */
				if (!opens_first && b->stmts[h[i].b].parent == b->stmts[first].parent)
					first = h[i].b;
				else if (!closes_last && b->stmts[h[i].e].parent == b->stmts[last].parent)
					last = h[i].e;
				else
					return false;
			} else if (work_within(pw, b->stmts[h[i].b].range.end, b->stmts[h[i].e].range.start)) {
				/* inside the pair: after its B, before its E */
				if (opens_first && b->stmts[h[i].b].parent == b->stmts[first].parent)
					first = cxx_next_sibling(b, h[i].b);
				else if (!opens_first && b->stmts[h[i].e].parent == b->stmts[last].parent)
					last = cxx_prev_sibling(b, h[i].e);
				else
					return false;
				if (first < 0 || last < 0 || b->stmts[first].range.start > b->stmts[last].range.start)
					return false;
			} else {
				return false;
			}
			set_stmts(n, b, first, last);
			moved = true;
		}
		if (!moved)
			return true;
	}
	return false;
}

/* Is r a rule of the operator's own files? */
static bool own_rules_file(struct plan_walker *w, const struct rule_trace_rule *r)
{
	return w->rule_own && r >= w->p->rules && r < w->p->rules + w->p->nrules && w->rule_own[r - w->p->rules];
}

static void adopt_node(struct plan_walker *w, int idx)
{
	struct plan_node *n = &w->pl->nodes[idx];
	struct plan_fref f = { n->unit, n->func };
	const struct cxx_body *b;
	struct pair *h;
	size_t nh;
	int crossed = -1;

	if (n->fate != PLAN_FATE_INSERT || n->func < 0)
		return;
	b = plan_body_of(w, f);
	if (n->mark) {
		/* a marker: present when its B and E already stand just before the statement */
		struct plan_finfo *fi = plan_finfo(w->pl, f);
		int e1 = n->stmt >= 0 ? cxx_prev_sibling(b, n->stmt) : -1, b1 = e1 >= 0 ? cxx_prev_sibling(b, e1) : -1;
		const struct cxx_point *pe = e1 >= 0 && fi->point_at[e1] >= 0 ? &b->points[fi->point_at[e1]] : NULL;
		const struct cxx_point *pb = b1 >= 0 && fi->point_at[b1] >= 0 ? &b->points[fi->point_at[b1]] : NULL;
		if (pe && pb && pe->event && pb->event && strcmp(pe->event, "E") == 0 && strcmp(pb->event, "B") == 0 &&
		    pe->label && pb->label && strcmp(pe->label, pb->label) == 0 && !fi->claimed[fi->point_at[b1]])
			adopt(w, idx, f, fi->point_at[b1]);
		return;
	}
	nh = pairs_of(w, f, false, &h);
	if (n->kind == PLAN_root) {
		/* the root's label already recorded in the entry: that is the root */
		for (size_t i = 0; i < nh; i++)
			if (strcmp(b->points[h[i].k].label, n->label) == 0 &&
			    cxx_range_contains(n->scope, b->stmts[h[i].b].range)) {
				adopt(w, idx, f, h[i].k);
				goto out;
			}
	}
	{
		struct extent pw = work_in(w, f, n->scope.start, n->scope.end);
		for (size_t i = 0; i < nh; i++)
			if (same_work(pair_work(w, f, &h[i]), pw)) {
				adopt(w, idx, f, h[i].k);
				goto out;
			}
	}
	if (adopt_across_call(w, idx, f))
		goto out;
	if (!nest(w, n, f, h, nh, &crossed)) {
		const struct cxx_point *p = &b->points[h[crossed].k];
		n->fate = PLAN_FATE_SKIPPED;
		free(n->why);
		n->why = xasprintf("its B and E would interleave with the existing pair '%s' (line %zu)", p->label,
				   src_file_line(w->pl->units[f.unit].file, p->range.start));
		goto out;
	}
	if (n->kind == PLAN_region && !(n->rule && n->rule->loc.file && own_rules_file(w, n->rule))) {
		/* a part of a function (set-up, wait, finish) around an existing
		 * pair that opens or closes where it does: that pair is the part
		 * (a region rule of the operator's own says what it times) */
		for (size_t i = 0; i < nh; i++) {
			uint32_t hb = b->stmts[h[i].b].range.start, he = b->stmts[h[i].e].range.end;
			const struct cxx_point *p = &b->points[h[i].k];
			if (n->scope.start > hb || n->scope.end < he ||
			    (work_in(w, f, n->scope.start, hb).n > 0 && work_in(w, f, he, n->scope.end).n > 0))
				continue;
			n->fate = PLAN_FATE_SKIPPED;
			free(n->why);
			n->why = xasprintf("it would %s where the existing pair '%s' (line %zu) does, which times this part",
					   work_in(w, f, n->scope.start, hb).n == 0 ? "open" : "close", p->label,
					   src_file_line(w->pl->units[f.unit].file, p->range.start));
			break;
		}
	}
out:
	free(h);
}

void plan_adopt(struct plan_walker *w)
{
	struct plan *pl = w->pl;

	for (size_t i = 0; i < pl->nnodes; i++)
		adopt_node(w, (int)i);
	/* every existing pair, and the planned point that took it */
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		if (pl->units[u].runtime)
			continue;
		for (size_t fn = 0; fn < ol->nfuncs; fn++) {
			struct plan_fref f = { u, (int)fn };
			const struct cxx_body *b = &ol->funcs[fn].body;
			struct pair *h;
			size_t nh;
			if (b->npoints == 0)
				continue;
			nh = pairs_of(w, f, true, &h);
			for (size_t i = 0; i < nh; i++) {
				if (pl->nhand % 16 == 0)
					pl->hand = xrealloc(pl->hand, (pl->nhand + 16) * sizeof(*pl->hand));
				pl->hand[pl->nhand++] = (struct plan_hand){
					u, (int)fn, h[i].b, h[i].e, b->points[h[i].k].label, b->stmts[h[i].b].range.start,
					b->stmts[h[i].e].range.start, plan_finfo(pl, f)->claimed[h[i].k] - 1
				};
			}
			free(h);
		}
	}
}
