/* B/E pairing of trace points along the control flow of each function body.
 *
 * One pass over the statement tree of the body (cxx_outline.h), carrying the
 * state of one path: the stack of open points and the points closed so far.
 * Branches copy the state and join it again; a join of paths whose stacks
 * differ is an error naming the point and where the paths join. A loop body
 * must leave the stack as it found it (the next iteration starts there);
 * `return` and the end of the body must find it empty; `break` and
 * `continue` carry their state to their loop or switch. Lambdas are
 * analysed as bodies of their own. Every report names both locations (the
 * point and the exit, join, other point or earlier close). After an error
 * the state is repaired so one mistake gives one message.
 *
 * What it does not follow: goto (a function using it is skipped with a
 * warning), exceptions, calls that never return, and points opened in one
 * function and closed in another (reported as unclosed). */
#include <stdlib.h>
#include <string.h>

#include "check_trace.h"
#include "cxx_nav.h"
#include "xalloc.h"

struct pair_entry {
	const char *label;
	int pt; /* index into the body's points */
};

struct pair_state {
	bool alive;
	struct pair_entry *open;   /* a stack: open[nopen - 1] is the innermost */
	size_t nopen, cap_open;
	struct pair_entry *closed; /* in order of closing */
	size_t nclosed, cap_closed;
};

struct pair_frame {
	int stmt;                  /* the loop or switch */
	const struct pair_state *entry; /* a loop: the state each iteration starts with */
	struct pair_state brk;     /* the states at its breaks, joined */
};

struct pairing {
	const struct cxx_outline *ol;
	const struct cxx_body *b;
	struct diag *diag;
	unsigned errors;
	int *first_child, *next_sibling, root_first;
	int *pt_first, *pt_next;
	bool *reported;            /* per point: already named in an error */
	struct pair_frame *frames;
	size_t nframes, cap_frames;
	int lambda;                /* the LAMBDA statement analysed, CXX_NONE: the function */
	const struct cxx_cond *arms; /* the #if group whose arms join (join() with stmt CXX_NONE) */
};

/* ---- states ---- */

static void state_init(struct pair_state *s, bool alive)
{
	memset(s, 0, sizeof(*s));
	s->alive = alive;
}

static void state_release(struct pair_state *s)
{
	free(s->open);
	free(s->closed);
	memset(s, 0, sizeof(*s));
}

static void state_copy(struct pair_state *dst, const struct pair_state *src)
{
	dst->alive = src->alive;
	dst->nopen = 0;
	dst->nclosed = 0;
	XGROW(dst->open, dst->cap_open, src->nopen + 1);
	XGROW(dst->closed, dst->cap_closed, src->nclosed + 1);
	if (src->nopen)
		memcpy(dst->open, src->open, src->nopen * sizeof(*src->open));
	if (src->nclosed)
		memcpy(dst->closed, src->closed, src->nclosed * sizeof(*src->closed));
	dst->nopen = src->nopen;
	dst->nclosed = src->nclosed;
}

static void push_open(struct pair_state *s, const char *label, int pt)
{
	XGROW(s->open, s->cap_open, s->nopen + 1);
	s->open[s->nopen].label = label;
	s->open[s->nopen++].pt = pt;
}

static void push_closed(struct pair_state *s, const char *label, int pt)
{
	XGROW(s->closed, s->cap_closed, s->nclosed + 1);
	s->closed[s->nclosed].label = label;
	s->closed[s->nclosed++].pt = pt;
}

static bool has_open(const struct pair_state *s, int pt)
{
	for (size_t i = 0; i < s->nopen; i++)
		if (s->open[i].pt == pt)
			return true;
	return false;
}

static bool has_closed(const struct pair_state *s, int pt)
{
	for (size_t i = 0; i < s->nclosed; i++)
		if (s->closed[i].pt == pt)
			return true;
	return false;
}

/* ---- locations ---- */

static struct src_loc loc_of(const struct pairing *c, struct cxx_range r)
{
	return src_loc_make(c->ol->file, r.start, r.end);
}

static struct src_loc point_loc(const struct pairing *c, int pt)
{
	return loc_of(c, c->b->points[pt].range);
}

/* The keyword (or macro name) that starts a statement. */
static struct src_loc keyword_loc(const struct pairing *c, int stmt)
{
	const struct cxx_stmt *s = &c->b->stmts[stmt];
	const char *d = c->ol->file->data;
	uint32_t e = s->range.start;

	while (e < s->range.end && (d[e] == '_' || (d[e] >= 'a' && d[e] <= 'z') || (d[e] >= 'A' && d[e] <= 'Z') ||
				    (d[e] >= '0' && d[e] <= '9')))
		e++;
	if (e == s->range.start)
		e = s->range.start + 1;
	return src_loc_make(c->ol->file, s->range.start, e);
}

static const char *construct_name(const struct pairing *c, int stmt)
{
	const struct cxx_stmt *s = &c->b->stmts[stmt];

	return s->kind == CXX_STMT_MACRO ? "macro block" : cxx_stmt_kind_name(s->kind);
}

/* ---- reports ---- */

/* The latest close of `label` after position `after` on path `s`, or -1. */
static int closed_after(const struct pairing *c, const struct pair_state *s, const char *label, uint32_t after)
{
	for (size_t i = s->nclosed; i-- > 0;)
		if (strcmp(s->closed[i].label, label) == 0 && c->b->points[s->closed[i].pt].range.start > after)
			return s->closed[i].pt;
	return -1;
}

/* `e` is open on one path and not on `other`; the paths join after `stmt`. */
static void report_one_sided(struct pairing *c, const struct pair_entry *e, const struct pair_state *other,
			     int stmt)
{
	int closer;

	if (c->reported[e->pt])
		return;
	c->reported[e->pt] = true;
	c->errors++;
	closer = closed_after(c, other, e->label, c->b->points[e->pt].range.start);
	if (closer >= 0) {
		c->reported[closer] = true;
		diag_at(c->diag, DIAG_ERROR, point_loc(c, closer), "'%s' is closed on some paths but not on others",
			e->label);
		diag_at(c->diag, DIAG_NOTE, point_loc(c, e->pt), "'%s' opened here", e->label);
	} else {
		diag_at(c->diag, DIAG_ERROR, point_loc(c, e->pt), "'%s' is left open on some paths but not on others",
			e->label);
	}
	if (stmt == CXX_NONE)
		diag_at(c->diag, DIAG_NOTE, loc_of(c, c->arms->branches[0].range),
			"the arms of this #%s join at its #endif (the build may take any of them)",
			c->arms->branches[0].directive);
	else
		diag_at(c->diag, DIAG_NOTE, keyword_loc(c, stmt), "the paths join after this %s", construct_name(c, stmt));
}

/* Joins path `from` into `into` where the paths meet after `stmt`. */
static void join(struct pairing *c, struct pair_state *into, const struct pair_state *from, int stmt)
{
	if (!from->alive)
		return;
	if (!into->alive) {
		state_copy(into, from);
		return;
	}
	for (size_t i = 0; i < into->nopen; i++)
		if (!has_open(from, into->open[i].pt))
			report_one_sided(c, &into->open[i], from, stmt);
	/* the repaired state holds the points of both paths; those reported are
	 * then closed, or left open, without further messages */
	for (size_t i = 0; i < from->nopen; i++)
		if (!has_open(into, from->open[i].pt)) {
			report_one_sided(c, &from->open[i], into, stmt);
			push_open(into, from->open[i].label, from->open[i].pt);
		}
	for (size_t i = 0; i < from->nclosed; i++)
		if (!has_closed(into, from->closed[i].pt))
			push_closed(into, from->closed[i].label, from->closed[i].pt);
}

/* The state at the end of an iteration (`end`) must be the one the loop
 * started it with (`entry`). */
static void check_iteration(struct pairing *c, const struct pair_state *entry, const struct pair_state *end,
			    int stmt, int via)
{
	if (!end->alive || !entry->alive)
		return;
	for (size_t i = 0; i < end->nopen; i++) {
		const struct pair_entry *e = &end->open[i];
		if (has_open(entry, e->pt) || c->reported[e->pt])
			continue;
		c->reported[e->pt] = true;
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, point_loc(c, e->pt),
			"'%s' opened in the loop body is still open when the next iteration starts", e->label);
		if (via != CXX_NONE)
			diag_at(c->diag, DIAG_NOTE, loc_of(c, c->b->stmts[via].range), "the iteration ends here");
		else
			diag_at(c->diag, DIAG_NOTE, keyword_loc(c, stmt), "the %s is here", construct_name(c, stmt));
	}
	for (size_t i = 0; i < entry->nopen; i++) {
		const struct pair_entry *e = &entry->open[i];
		int closer;
		if (has_open(end, e->pt))
			continue;
		closer = closed_after(c, end, e->label, c->b->points[e->pt].range.start);
		if (closer < 0 || c->reported[closer])
			continue;
		c->reported[closer] = true;
		c->reported[e->pt] = true;
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, point_loc(c, closer),
			"'%s' is closed inside the loop body but was opened before the loop", e->label);
		diag_at(c->diag, DIAG_NOTE, point_loc(c, e->pt), "'%s' opened here", e->label);
	}
}

/* Leaving the body (return or its end) with points open. */
static void check_exit(struct pairing *c, const struct pair_state *s, struct src_loc at, const char *what)
{
	if (!s->alive)
		return;
	for (size_t i = s->nopen; i-- > 0;) {
		const struct pair_entry *e = &s->open[i];
		if (c->reported[e->pt])
			continue;
		c->reported[e->pt] = true;
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, at, "%s leaves '%s' open", what, e->label);
		diag_at(c->diag, DIAG_NOTE, point_loc(c, e->pt), "'%s' opened here", e->label);
	}
}

static void apply_point(struct pairing *c, struct pair_state *s, int pt)
{
	const struct cxx_point *p = &c->b->points[pt];
	size_t i;

	if (!s->alive || !p->label || !p->label[0] || !p->event)
		return;
	if (strcmp(p->event, "B") == 0) {
		for (i = 0; i < s->nopen; i++)
			if (strcmp(s->open[i].label, p->label) == 0)
				break;
		if (i < s->nopen && c->reported[s->open[i].pt]) {
			/* already reported as open on one path only: this B takes its place */
			memmove(s->open + i, s->open + i + 1, (s->nopen - i - 1) * sizeof(*s->open));
			s->nopen--;
			i = s->nopen;
		}
		if (i < s->nopen) {
			c->reported[pt] = true;
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, point_loc(c, pt), "'%s' is opened again while it is open", p->label);
			diag_at(c->diag, DIAG_NOTE, point_loc(c, s->open[i].pt), "'%s' first opened here", p->label);
			return;
		}
		push_open(s, p->label, pt);
		return;
	}
	if (strcmp(p->event, "E") != 0)
		return;
	for (i = s->nopen; i-- > 0;)
		if (strcmp(s->open[i].label, p->label) == 0)
			break;
	if (i == SIZE_MAX) {
		int first = -1;
		for (size_t k = s->nclosed; k-- > 0;)
			if (strcmp(s->closed[k].label, p->label) == 0) {
				first = s->closed[k].pt;
				break;
			}
		c->reported[pt] = true;
		c->errors++;
		if (first >= 0) {
			diag_at(c->diag, DIAG_ERROR, point_loc(c, pt), "'%s' is closed twice on this path", p->label);
			diag_at(c->diag, DIAG_NOTE, point_loc(c, first), "'%s' first closed here", p->label);
		} else {
			diag_at(c->diag, DIAG_ERROR, point_loc(c, pt), "'%s' is closed but was not opened on this path",
				p->label);
		}
		push_closed(s, p->label, pt);
		return;
	}
	while (i + 1 < s->nopen && c->reported[s->open[s->nopen - 1].pt])
		s->nopen--; /* points already reported as open on one path only */
	if (i + 1 < s->nopen) {
		const struct pair_entry *inner = &s->open[s->nopen - 1];
		c->reported[pt] = true;
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, point_loc(c, pt),
			"'%s' is closed while '%s', opened inside it, is still open (points must nest)", p->label,
			inner->label);
		diag_at(c->diag, DIAG_NOTE, point_loc(c, inner->pt), "'%s' opened here", inner->label);
	}
	memmove(s->open + i, s->open + i + 1, (s->nopen - i - 1) * sizeof(*s->open));
	s->nopen--;
	push_closed(s, p->label, pt);
}

static void apply_points(struct pairing *c, struct pair_state *s, int stmt)
{
	for (int pt = c->pt_first[stmt]; pt != CXX_NONE; pt = c->pt_next[pt])
		apply_point(c, s, pt);
}

/* ---- the walk ---- */

static void walk_stmt(struct pairing *c, int i, struct pair_state *s);

/* The #if group whose every arm the scan took (cxx_pp.h) that holds
 * statement k, a child of `parent`, and not `parent` itself; or NULL. */
static const struct cxx_cond *arms_at(const struct pairing *c, int parent, int k)
{
	uint32_t at = c->b->stmts[k].range.start;

	for (size_t g = 0; g < c->ol->nconds; g++) {
		const struct cxx_cond *cd = &c->ol->conds[g];
		if (cd->every_arm && cd->range.start < at && at < cd->range.end &&
		    (parent == CXX_NONE || c->b->stmts[parent].range.start < cd->range.start))
			return cd;
	}
	return NULL;
}

/* The statements from k on that lie in group cd, walked arm by arm, each
 * from the state before the group, and the arms joined (with the path
 * that takes none, when the group has no #else). Returns the last of them. */
static int walk_arms(struct pairing *c, const struct cxx_cond *cd, int k, struct pair_state *s)
{
	struct pair_state out, arm;
	bool has_else = false;
	int last = k;

	state_init(&out, false);
	state_init(&arm, false);
	for (size_t br = 0; br < cd->nbranches; br++) {
		struct cxx_range code = cxx_cond_branch_code(cd, br);
		if (!cd->branches[br].taken)
			continue;
		has_else |= strcmp(cd->branches[br].directive, "else") == 0;
		state_copy(&arm, s);
		for (int j = k; j != CXX_NONE && c->b->stmts[j].range.start < cd->range.end; j = c->next_sibling[j]) {
			if (code.start <= c->b->stmts[j].range.start && c->b->stmts[j].range.start < code.end)
				walk_stmt(c, j, &arm);
			last = j;
		}
		c->arms = cd;
		join(c, &out, &arm, CXX_NONE);
	}
	if (!has_else) {
		c->arms = cd;
		join(c, &out, s, CXX_NONE);
	}
	state_copy(s, &out);
	state_release(&out);
	state_release(&arm);
	return last;
}

static void walk_children(struct pairing *c, int parent, struct pair_state *s)
{
	int k = parent == CXX_NONE ? c->root_first : c->first_child[parent];

	for (; k != CXX_NONE; k = c->next_sibling[k]) {
		const struct cxx_cond *cd = s->alive ? arms_at(c, parent, k) : NULL;
		if (cd)
			k = walk_arms(c, cd, k, s);
		else
			walk_stmt(c, k, s);
	}
}

static bool is_true_text(const char *t)
{
	return t && (strcmp(t, "true") == 0 || strcmp(t, "1") == 0);
}

/* A loop whose only way out is break (`for (;;)`, `while (true)`). */
static bool endless(const struct cxx_stmt *st)
{
	const char *t = st->text, *a, *b;

	if (st->kind != CXX_STMT_FOR)
		return is_true_text(t);
	if (!t || !(a = strchr(t, ';')) || !(b = strchr(a + 1, ';')))
		return false;
	a++;
	while (a < b && *a == ' ')
		a++;
	while (b > a && b[-1] == ' ')
		b--;
	return a == b || (b - a == 4 && memcmp(a, "true", 4) == 0) || (b - a == 1 && *a == '1');
}

static struct pair_frame *push_frame(struct pairing *c, int stmt)
{
	struct pair_frame *f;

	XGROW(c->frames, c->cap_frames, c->nframes + 1);
	f = &c->frames[c->nframes++];
	f->stmt = stmt;
	f->entry = NULL;
	state_init(&f->brk, false);
	return f;
}

static struct pair_frame *find_frame(struct pairing *c, int stmt)
{
	for (size_t i = c->nframes; i-- > 0;)
		if (c->frames[i].stmt == stmt)
			return &c->frames[i];
	return NULL;
}

static void walk_loop(struct pairing *c, int i, struct pair_state *s)
{
	const struct cxx_stmt *st = &c->b->stmts[i];
	struct pair_state body, out;
	struct pair_frame *f;

	apply_points(c, s, i);
	if (!s->alive)
		return;
	f = push_frame(c, i);
	f->entry = s;
	state_init(&body, true);
	state_copy(&body, s);
	walk_children(c, i, &body);
	check_iteration(c, s, &body, i, CXX_NONE);
	f = &c->frames[c->nframes - 1];
	state_init(&out, false);
	state_copy(&out, &f->brk);
	/* every iteration ends in the entry state (or was reported): leaving
	 * through the condition is leaving in that state */
	if (!endless(st))
		join(c, &out, s, i);
	state_copy(s, &out);
	state_release(&out);
	state_release(&body);
	state_release(&f->brk);
	c->nframes--;
}

static void walk_switch(struct pairing *c, int i, struct pair_state *s)
{
	struct pair_state cur, out;
	struct pair_frame *f;
	bool has_default = false;

	apply_points(c, s, i);
	if (!s->alive)
		return;
	push_frame(c, i);
	state_init(&cur, false);
	for (int k = c->first_child[i]; k != CXX_NONE; k = c->next_sibling[k]) {
		const struct cxx_stmt *ks = &c->b->stmts[k];
		if (ks->kind == CXX_STMT_CASE) {
			join(c, &cur, s, i);
			if (ks->text && strcmp(ks->text, "default") == 0)
				has_default = true;
		}
		walk_stmt(c, k, &cur);
	}
	f = &c->frames[c->nframes - 1];
	state_init(&out, false);
	state_copy(&out, &f->brk);
	join(c, &out, &cur, i);
	if (!has_default)
		join(c, &out, s, i);
	state_copy(s, &out);
	state_release(&out);
	state_release(&cur);
	state_release(&f->brk);
	c->nframes--;
}

static void walk_if(struct pairing *c, int i, struct pair_state *s)
{
	struct pair_state out, arm;
	bool has_else = false;

	apply_points(c, s, i);
	if (!s->alive)
		return;
	state_init(&out, false);
	state_init(&arm, false);
	for (int k = c->first_child[i]; k != CXX_NONE; k = c->next_sibling[k]) {
		const struct cxx_stmt *a = &c->b->stmts[k];
		if (a->kind != CXX_STMT_ARM) {
			walk_stmt(c, k, s);
			continue;
		}
		apply_points(c, s, k); /* the condition */
		if (a->arm == CXX_ARM_ELSE)
			has_else = true;
		state_copy(&arm, s);
		walk_children(c, k, &arm);
		join(c, &out, &arm, i);
	}
	if (!has_else)
		join(c, &out, s, i);
	state_copy(s, &out);
	state_release(&out);
	state_release(&arm);
}

static void walk_stmt(struct pairing *c, int i, struct pair_state *s)
{
	const struct cxx_stmt *st = &c->b->stmts[i];
	struct pair_frame *f;
	struct pair_state opt;

	switch (st->kind) {
	case CXX_STMT_LAMBDA:
	case CXX_STMT_TYPE:
		return;
	case CXX_STMT_IF:
		walk_if(c, i, s);
		return;
	case CXX_STMT_FOR:
	case CXX_STMT_WHILE:
	case CXX_STMT_DO:
		walk_loop(c, i, s);
		return;
	case CXX_STMT_SWITCH:
		walk_switch(c, i, s);
		return;
	case CXX_STMT_BLOCK:
	case CXX_STMT_ARM:
		apply_points(c, s, i);
		walk_children(c, i, s);
		return;
	case CXX_STMT_MACRO:
		apply_points(c, s, i);
		if (st->body.end > st->body.start && s->alive) {
			/* a body the macro may run or not: it must leave the state as it found it */
			state_init(&opt, false);
			state_copy(&opt, s);
			walk_children(c, i, &opt);
			join(c, s, &opt, i);
			state_release(&opt);
		}
		return;
	case CXX_STMT_RETURN:
		apply_points(c, s, i);
		if (st->owner == c->lambda)
			check_exit(c, s, loc_of(c, st->range), "return");
		s->alive = false;
		return;
	case CXX_STMT_BREAK:
	case CXX_STMT_CONTINUE:
		apply_points(c, s, i);
		f = st->owner == CXX_NONE ? NULL : find_frame(c, st->owner);
		if (f && s->alive) {
			if (st->kind == CXX_STMT_BREAK)
				join(c, &f->brk, s, st->owner);
			else if (f->entry)
				check_iteration(c, f->entry, s, st->owner, i);
		}
		s->alive = false;
		return;
	default:
		apply_points(c, s, i);
		walk_children(c, i, s);
		return;
	}
}

struct pt_key {
	int stmt;
	uint32_t start;
	int pt;
};

static int cmp_key(const void *a, const void *b)
{
	const struct pt_key *x = a, *y = b;

	if (x->stmt != y->stmt)
		return x->stmt < y->stmt ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void pair_body(struct pairing *c, const struct cxx_body *b, struct src_loc end, const char *name,
		      struct diag *diag)
{
	int *last_child;
	struct pt_key *order;
	struct pair_state s;

	if (b->npoints == 0)
		return;
	for (size_t i = 0; i < b->nstmts; i++)
		if (b->stmts[i].kind == CXX_STMT_GOTO) {
			diag_at(diag, DIAG_WARNING, loc_of(c, b->stmts[i].range),
				"'%s' uses goto: the pairing of its trace points is not checked", name);
			return;
		}
	c->b = b;
	c->first_child = xmalloc((b->nstmts + 1) * sizeof(int));
	c->next_sibling = xmalloc((b->nstmts + 1) * sizeof(int));
	last_child = xmalloc((b->nstmts + 1) * sizeof(int));
	c->pt_first = xmalloc((b->nstmts + 1) * sizeof(int));
	c->pt_next = xmalloc(b->npoints * sizeof(int));
	c->reported = xcalloc(b->npoints, sizeof(bool));
	order = xmalloc(b->npoints * sizeof(*order));
	for (size_t i = 0; i < b->nstmts; i++) {
		c->first_child[i] = c->next_sibling[i] = last_child[i] = CXX_NONE;
		c->pt_first[i] = CXX_NONE;
	}
	c->root_first = CXX_NONE;
	{
		int root_last = CXX_NONE;
		for (size_t i = 0; i < b->nstmts; i++) {
			int p = b->stmts[i].parent;
			int *first = p == CXX_NONE ? &c->root_first : &c->first_child[p];
			int *last = p == CXX_NONE ? &root_last : &last_child[p];
			if (*last == CXX_NONE)
				*first = (int)i;
			else
				c->next_sibling[*last] = (int)i;
			*last = (int)i;
		}
	}
	for (size_t i = 0; i < b->npoints; i++) {
		order[i].stmt = b->points[i].stmt;
		order[i].start = b->points[i].range.start;
		order[i].pt = (int)i;
	}
	xqsort(order, b->npoints, sizeof(*order), cmp_key);
	for (size_t k = b->npoints; k-- > 0;) {
		int pt = order[k].pt, st = order[k].stmt;
		c->pt_next[pt] = CXX_NONE;
		if (st < 0 || (size_t)st >= b->nstmts)
			continue;
		c->pt_next[pt] = c->pt_first[st];
		c->pt_first[st] = pt;
	}

	/* the function, then each lambda as a body of its own */
	state_init(&s, true);
	c->lambda = CXX_NONE;
	walk_children(c, CXX_NONE, &s);
	check_exit(c, &s, end, "the end of the function");
	for (size_t i = 0; i < b->nstmts; i++) {
		const struct cxx_stmt *l = &b->stmts[i];
		if (l->kind != CXX_STMT_LAMBDA)
			continue;
		state_release(&s);
		state_init(&s, true);
		c->lambda = (int)i;
		walk_children(c, (int)i, &s);
		check_exit(c, &s, src_loc_make(c->ol->file, l->body.end ? l->body.end - 1 : l->body.end, l->body.end),
			   "the end of the lambda");
	}
	state_release(&s);
	free(order);
	free(last_child);
	free(c->first_child);
	free(c->next_sibling);
	free(c->pt_first);
	free(c->pt_next);
	free(c->reported);
}

unsigned check_pairing(const struct cxx_outline *ol, struct diag *diag)
{
	struct pairing c;

	memset(&c, 0, sizeof(c));
	c.ol = ol;
	c.diag = diag;
	for (size_t i = 0; i < ol->nfuncs; i++) {
		const struct cxx_func *fn = &ol->funcs[i];
		uint32_t e = fn->body_range.end;
		if (fn->def != CXX_DEF_BODY)
			continue;
		pair_body(&c, &fn->body, src_loc_make(ol->file, e ? e - 1 : e, e), fn->qualified_name, diag);
	}
	free(c.frames);
	return c.errors;
}
