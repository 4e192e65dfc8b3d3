/* What apply inserts into one file: for each planned point, B at the start
 * of its scope and E before every exit of it (each return, a break or
 * continue leaving it, the fall-through end), braces around unbraced bodies,
 * and the #include of the base header when the file does not reach it.
 *
 * Where E goes for `return expr;`: when expr calls something (it does work
 * that belongs to the scope being timed) and the function returns a value,
 * the value is computed first and the points are recorded after it:
 *     decltype(auto) autotraceRet = expr;      (the `return` keyword replaced)
 *     MoeTracing(TRACE_POINT("label", "E")); // autotrace
 *     return autotraceRet; // autotrace
 * decltype(auto) keeps a returned reference a reference. Otherwise (no call
 * in expr, a void function, a braced list, a lambda's return) E goes right
 * before the return statement. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "cxx_pp.h"
#include "cxx_token.h"
#include "edit.h"
#include "kernel_scan.h"
#include "plan.h"
#include "xalloc.h"

struct split {
	uint32_t off;
	char *indent;
};

struct ed {
	const struct plan *pl;
	size_t unit;
	const struct src_file *f;
	const char *d;
	uint32_t len;
	struct edit_list *out;
	char unit_indent[16];
	struct split *splits;
	size_t nsplits;
	/* the function being edited */
	const struct cxx_func *fn;
	int *sdepth;              /* statement depth: 0 at the top of the body */
	bool *brace;              /* controller statements whose body gets braces */
	int *nodes;               /* nodes to insert in this function, plan order */
	size_t nnodes;
	const struct cxx_range *only; /* another configuration's pass: its own code */
	size_t nonly;
	struct diag *diag;
};

/* ------------------------------------------------------------ text positions */

static uint32_t line_start(const struct ed *e, uint32_t off)
{
	while (off > 0 && e->d[off - 1] != '\n')
		off--;
	return off;
}

static const char *split_indent(const struct ed *e, uint32_t off)
{
	for (size_t i = 0; i < e->nsplits; i++)
		if (e->splits[i].off == off)
			return e->splits[i].indent;
	return NULL;
}

/* The indentation of the line holding `off` (newly allocated). */
static char *indent_at(const struct ed *e, uint32_t off)
{
	const char *s = split_indent(e, off);
	uint32_t a, b;

	if (s)
		return xstrdup(s);
	a = line_start(e, off);
	b = a;
	while (b < e->len && (e->d[b] == ' ' || e->d[b] == '\t'))
		b++;
	return xstrndup(e->d + a, b - a);
}

static char *indent_plus(const struct ed *e, uint32_t off)
{
	char *i = indent_at(e, off);
	size_t n = strlen(i);
	char *r = xmalloc(n + strlen(e->unit_indent) + 1);

	memcpy(r, i, n);
	strcpy(r + n, e->unit_indent);
	free(i);
	return r;
}

static bool starts_line(const struct ed *e, uint32_t off)
{
	if (split_indent(e, off))
		return true;
	for (uint32_t p = line_start(e, off); p < off; p++)
		if (e->d[p] != ' ' && e->d[p] != '\t')
			return false;
	return true;
}

/* Whether only blanks or a // comment follow `end` on its line; *next is
 * where the next line starts (e->len at the end of the file). */
static bool ends_line(const struct ed *e, uint32_t end, uint32_t *next)
{
	uint32_t p = end;

	while (p < e->len && (e->d[p] == ' ' || e->d[p] == '\t' || e->d[p] == '\r'))
		p++;
	if (p + 1 < e->len && e->d[p] == '/' && e->d[p + 1] == '/')
		while (p < e->len && e->d[p] != '\n')
			p++;
	if (p >= e->len) {
		*next = e->len;
		return true;
	}
	if (e->d[p] != '\n')
		return false;
	*next = p + 1;
	return true;
}

static bool same_line(const struct ed *e, uint32_t a, uint32_t b)
{
	if (a > b) {
		uint32_t t = a;
		a = b;
		b = t;
	}
	return memchr(e->d + a, '\n', b - a) == NULL;
}

/* ------------------------------------------------------------ fragments */

static void add_line(struct ed *e, uint32_t at, const char *indent, const char *code, int band, int k1, int k2)
{
	size_t n = strlen(indent) + strlen(code) + sizeof(EDIT_TAG) + 4;
	char *t = xmalloc(n);

	if (at >= e->len && e->len > 0 && e->d[e->len - 1] != '\n')
		snprintf(t, n, "\n%s%s " EDIT_TAG, indent, code);
	else
		snprintf(t, n, "%s%s " EDIT_TAG "\n", indent, code);
	edit_list_add(e->out, at, 0, band, k1, k2, t);
	free(t);
}

static void add_inline(struct ed *e, uint32_t at, const char *code, int band, int k1, int k2)
{
	size_t n = strlen(code) + sizeof(EDIT_INLINE_OPEN) + sizeof(EDIT_INLINE_CLOSE) + 1;
	char *t = xmalloc(n);

	snprintf(t, n, EDIT_INLINE_OPEN "%s" EDIT_INLINE_CLOSE, code);
	edit_list_add(e->out, at, 0, band, k1, k2, t);
	free(t);
}

/* `code` inline at `at`, a space between it and the statement it goes
 * `before` (or after). */
static void add_inline_padded(struct ed *e, uint32_t at, bool before, const char *code, int band, int k1, int k2)
{
	char *c = xasprintf(before ? "%s " : " %s", code);

	add_inline(e, at, c, band, k1, k2);
	free(c);
}

/* `code` before the statement starting at `s`: a line of its own when the
 * statement starts its line (between the comment lines introducing it and
 * the statement, as experts place it), else inline. */
static void add_before(struct ed *e, uint32_t s, const char *code, int band, int k1, int k2)
{
	if (starts_line(e, s)) {
		char *ind = indent_at(e, s);
		add_line(e, split_indent(e, s) ? s : line_start(e, s), ind, code, band, k1, k2);
		free(ind);
	} else {
		add_inline_padded(e, s, true, code, band, k1, k2);
	}
}

/* `code` after the statement [s, end): a line of its own (indented like the
 * statement's first line, or `indent`) when nothing but a comment follows
 * it on its line, else inline. */
static void add_after(struct ed *e, uint32_t s, uint32_t end, const char *indent, const char *code, int band, int k1,
		      int k2)
{
	uint32_t next;

	if (ends_line(e, end, &next)) {
		char *ind = indent ? xstrdup(indent) : indent_at(e, s);
		add_line(e, next, ind, code, band, k1, k2);
		free(ind);
	} else {
		add_inline_padded(e, end, false, code, band, k1, k2);
	}
}

/* MoeTracing(TRACE_POINT("label", "B"), extra, index); */
static char *point_code(const struct plan_node *n, const char *event)
{
	size_t cap = strlen(n->label) * 2 + 64 + (n->index ? strlen(n->index) : 0) + (n->extra ? strlen(n->extra) : 0);
	char *s = xmalloc(cap), *w = s;

	w += sprintf(w, n->sync ? "MoeTracing<true>(TRACE_POINT(\"" : "MoeTracing(TRACE_POINT(\"");
	for (const char *p = n->label; *p; p++) {
		if (*p == '"' || *p == '\\')
			*w++ = '\\';
		*w++ = *p;
	}
	w += sprintf(w, "\", \"%s\")", event);
	if (n->extra)
		w += sprintf(w, ", %s, %s", n->extra, n->index ? n->index : "0");
	else if (n->index)
		w += sprintf(w, ", %s", n->index);
	strcpy(w, ");");
	return s;
}

/* ------------------------------------------------------------ structure */

static const struct cxx_stmt *st(const struct ed *e, int s)
{
	return &e->fn->body.stmts[s];
}

static bool is_controller(const struct cxx_stmt *p)
{
	return cxx_stmt_is_loop(p) || (p->kind == CXX_STMT_ARM && p->arm != CXX_ARM_MACRO);
}

/* The controller whose unbraced body is statement s, or -1. */
static int unbraced_owner(const struct ed *e, int s)
{
	int p = st(e, s)->parent;

	if (p < 0 || !is_controller(st(e, p)) || st(e, p)->braced)
		return -1;
	return st(e, p)->body.start == st(e, s)->range.start ? p : -1;
}

/* Where a controller's header ends: after the ')' of if/for/while, after
 * `else` or `do`. */
static uint32_t header_end(const struct ed *e, int p)
{
	const struct cxx_stmt *s = st(e, p);
	uint32_t q;

	if (s->kind == CXX_STMT_DO)
		return s->range.start + 2;
	if (s->kind == CXX_STMT_ARM && s->arm == CXX_ARM_ELSE)
		return s->range.start + 4;
	q = s->head.end;
	while (q < e->len && (e->d[q] == ' ' || e->d[q] == '\t' || e->d[q] == '\n' || e->d[q] == '\r'))
		q++;
	if (q < e->len && e->d[q] == ')' && q < s->body.start)
		return q + 1;
	return s->head.end;
}

/* Does jump j leave the scope of node n? */
static bool leaves(const struct ed *e, int j, const struct plan_node *n)
{
	const struct cxx_stmt *js = st(e, j);

	if (!cxx_range_contains(n->scope, js->range))
		return false;
	if ((n->kind == PLAN_wrap || n->kind == PLAN_hot) && n->stmt == j)
		return false; /* a wrapped return: its value is computed inside */
	switch (js->kind) {
	case CXX_STMT_RETURN:
		return js->owner == CXX_NONE || !cxx_range_contains(n->scope, st(e, js->owner)->range);
	case CXX_STMT_BREAK:
	case CXX_STMT_CONTINUE:
		if (js->owner == CXX_NONE)
			return false;
		if (st(e, js->owner)->kind == CXX_STMT_MACRO)
			return !cxx_range_contains(n->scope, st(e, js->owner)->range);
		return !cxx_range_contains(n->scope, st(e, js->owner)->range);
	case CXX_STMT_GOTO:
		for (size_t k = 0; k < e->fn->body.nstmts; k++) {
			const struct cxx_stmt *l = st(e, (int)k);
			if (l->kind == CXX_STMT_LABEL && l->text && js->text && strcmp(l->text, js->text) == 0)
				return !cxx_range_contains(n->scope, l->range);
		}
		return false;
	default:
		return false;
	}
}

static bool return_does_work(const struct ed *e, int j)
{
	const struct cxx_body *b = &e->fn->body;
	uint32_t p = st(e, j)->range.start + 6;

	while (p < e->len && (e->d[p] == ' ' || e->d[p] == '\t' || e->d[p] == '\n'))
		p++;
	if (p < e->len && (e->d[p] == '{' || e->d[p] == ';'))
		return false;
	for (size_t c = 0; c < b->ncalls; c++)
		if (b->calls[c].stmt == j && !plan_is_trace_call(&b->calls[c]))
			return true;
	return false;
}

static const struct plan_node *node(const struct ed *e, size_t i)
{
	return &e->pl->nodes[e->nodes[i]];
}

/* B at the opening brace of a body, E at its closing brace and exits. */
static bool is_body_kind(const struct plan_node *n)
{
	return !n->span &&
	       (n->kind == PLAN_root || n->kind == PLAN_function || n->kind == PLAN_loop || n->kind == PLAN_branch);
}

/* B before a first statement, E after a last one (and at exits between). */
static bool is_stmt_kind(const struct plan_node *n)
{
	return n->span || n->kind == PLAN_wrap || n->kind == PLAN_hot || n->kind == PLAN_region;
}

static int first_stmt(const struct plan_node *n)
{
	return n->span ? n->span_first : n->stmt;
}

static int last_stmt(const struct plan_node *n)
{
	return n->span ? n->span_last : n->stmt_last;
}

/* The statement a body node's scope belongs to: -1 for the function body. */
static int body_owner(const struct plan_node *n)
{
	return n->kind == PLAN_root || n->kind == PLAN_function ? -1 : n->stmt;
}

static bool body_braced(const struct ed *e, const struct plan_node *n)
{
	return body_owner(n) < 0 || st(e, n->stmt)->braced;
}

static void need_brace(struct ed *e, int s)
{
	int p = unbraced_owner(e, s);

	if (p >= 0)
		e->brace[p] = true;
}

/* ------------------------------------------------------------ one function */

static void emit_braces(struct ed *e, int p)
{
	const struct cxx_stmt *c = st(e, p);
	uint32_t he = header_end(e, p), next;
	int body = p + 1; /* the body statement: the controller's first child */
	char *pind = indent_at(e, c->kind == CXX_STMT_ARM && c->arm != CXX_ARM_IF ? c->range.start : c->range.start);
	int level = e->sdepth[body];

	if (!same_line(e, he, c->body.start)) {
		if (ends_line(e, he, &next) && !(next > he && memchr(e->d + he, '/', next - he)))
			edit_list_add(e->out, he, 0, 1, INT_MIN, 0, " { " EDIT_TAG);
		else
			add_inline(e, he, " {", 1, INT_MIN, 0);
	} else {
		struct split sp;
		edit_list_add(e->out, c->body.start, 0, 1, INT_MIN, 0, EDIT_TAG_SPLIT "\n");
		sp.off = c->body.start;
		sp.indent = indent_plus(e, c->range.start);
		edit_list_add(e->out, c->body.start, 0, 2, 0, 0, sp.indent);
		e->splits = xrealloc(e->splits, (e->nsplits + 1) * sizeof(*e->splits));
		e->splits[e->nsplits++] = sp;
	}
	if (ends_line(e, c->body.end, &next))
		add_line(e, next, pind, "}", 0, -level, 3000);
	else
		add_inline(e, c->body.end, " }", 0, -level, 3000);
	(void)body;
	free(pind);
}

/* The branch of group `c` whose code holds offset `x` (the end of a
 * statement counts as inside it when `end`), or -1. */
static int branch_holding(const struct cxx_cond *c, uint32_t x, bool end)
{
	for (size_t k = 0; k < c->nbranches; k++) {
		struct cxx_range code = cxx_cond_branch_code(c, k);
		if (end ? (code.start < x && x <= code.end) : (code.start <= x && x < code.end))
			return (int)k;
	}
	return -1;
}

/* Is the point around one statement, which is the only statement of the
 * only arm of group `cd` (`#ifdef SYNC_MODE`, the wait, `#endif`)? */
static bool only_statement_of_arm(const struct ed *e, const struct plan_node *n, const struct cxx_cond *cd)
{
	const struct cxx_body *b = &e->fn->body;
	struct cxx_range arm, own;

	if (n->span || n->stmt != n->stmt_last || cd->nbranches != 1)
		return false;
	arm = cxx_cond_branch_code(cd, 0);
	own = st(e, n->stmt)->range;
	for (size_t j = 0; j < b->nstmts; j++)
		if (arm.start <= b->stmts[j].range.start && b->stmts[j].range.start < arm.end &&
		    !cxx_range_contains(own, b->stmts[j].range))
			return false;
	return true;
}

/* A statement-range point must open and close in the same #if branch:
 * when its first (last) statement lies in a group that does not also hold
 * its other end in the same branch (the other end is outside the group, or
 * in another of its arms, all of which the scan took), B (E) moves to
 * before (after) the outermost such group, so that the point spans the
 * whole group and balances whichever branch the build takes. So it does
 * when its one statement is all a group of one arm holds, as experts time
 * a wait that only some builds make: the point is there in every build. The
 * offset to put B before / E after. */
static uint32_t snap_out(const struct ed *e, const struct plan_node *n, uint32_t at, bool start)
{
	const struct cxx_outline *ol = e->pl->units[e->unit].outline;
	uint32_t other = start ? st(e, last_stmt(n))->range.end : st(e, first_stmt(n))->range.start;
	uint32_t best = at;

	for (size_t c = 0; c < ol->nconds; c++) {
		const struct cxx_cond *cd = &ol->conds[c];
		struct cxx_range r = cd->range;
		bool holds_at = start ? (r.start <= at && at < r.end) : (r.start < at && at <= r.end);
		bool holds_other = start ? (r.start < other && other <= r.end) : (r.start <= other && other < r.end);
		if (holds_at && holds_other && (branch_holding(cd, at, !start) != branch_holding(cd, other, start) ||
						only_statement_of_arm(e, n, cd)))
			holds_other = false;
		if (!holds_at || holds_other || r.start < e->fn->body_range.start || r.end > e->fn->body_range.end)
			continue;
		if (start ? r.start < best : r.end > best)
			best = start ? r.start : r.end;
	}
	return best;
}

static void emit_b(struct ed *e, const struct plan_node *n)
{
	char *code = point_code(n, "B");

	if (is_body_kind(n) && body_braced(e, n)) {
		struct cxx_range b = n->scope;
		uint32_t next;
		int c0 = cxx_first_child(&e->fn->body, body_owner(n));
		if (ends_line(e, b.start + 1, &next) && next < b.end) {
			char *ind = c0 >= 0 && starts_line(e, st(e, c0)->range.start) &&
						!same_line(e, b.start, st(e, c0)->range.start)
					    ? indent_at(e, st(e, c0)->range.start)
					    : indent_plus(e, b.start);
			add_line(e, next, ind, code, 1, 0, 0);
			free(ind);
		} else {
			char *c = xmalloc(strlen(code) + 2);
			sprintf(c, " %s", code);
			add_inline(e, b.start + 1, c, 1, 0, 0);
			free(c);
		}
	} else if (is_body_kind(n)) {
		add_before(e, st(e, n->stmt)->body.start, code, 1, 0, 0);
	} else {
		uint32_t s0 = st(e, first_stmt(n))->range.start, at = snap_out(e, n, s0, true);
		if (at != s0) {
			/* before the #if line, indented like the statement */
			char *ind = indent_at(e, s0);
			add_line(e, line_start(e, at), ind, code, 1, 0, 0);
			free(ind);
		} else {
			add_before(e, s0, code, 1, 0, 0);
		}
		if (n->mark) {
			/* a marker: its E right after its B, wherever that went */
			char *end = point_code(n, "E");
			if (at != s0) {
				char *ind = indent_at(e, s0);
				add_line(e, line_start(e, at), ind, end, 1, 0, 1);
				free(ind);
			} else {
				add_before(e, s0, end, 1, 0, 1);
			}
			free(end);
		}
	}
	free(code);
}

/* E at the fall-through end of a body node. */
static void emit_end(struct ed *e, const struct plan_node *n)
{
	int owner = body_owner(n);
	int last;
	char *code;

	if (body_braced(e, n)) {
		last = cxx_last_child(&e->fn->body, owner);
	} else {
		last = cxx_first_child(&e->fn->body, owner);
	}
	if (last >= 0 && cxx_stmt_is_jump(st(e, last)) && leaves(e, last, n))
		return; /* the end is not reached: the exit has its E */
	code = point_code(n, "E");
	if (body_braced(e, n)) {
		uint32_t cb = n->scope.end - 1;
		int level = owner < 0 ? 0 : e->sdepth[owner] + 1;
		if (starts_line(e, cb) && !same_line(e, n->scope.start, cb)) {
			char *ind = last >= 0 && starts_line(e, st(e, last)->range.start) &&
						!same_line(e, n->scope.start, st(e, last)->range.start)
					    ? indent_at(e, st(e, last)->range.start)
					    : indent_plus(e, cb);
			add_line(e, line_start(e, cb), ind, code, 0, -level, 2000);
			free(ind);
		} else {
			char *c = xmalloc(strlen(code) + 2);
			sprintf(c, "%s ", code);
			add_inline(e, cb, c, 0, -level, 2000);
			free(c);
		}
	} else if (last >= 0) {
		add_after(e, st(e, last)->range.start, st(e, last)->range.end, NULL, code, 0, -e->sdepth[last], 2000);
	}
	free(code);
}

struct exit_ref {
	size_t len;
	int depth;
	int node;
};

static int cmp_exit(const void *pa, const void *pb)
{
	const struct exit_ref *a = pa, *b = pb;

	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return b->depth - a->depth;
}

static void emit_exits(struct ed *e, int j, const struct exit_ref *ex, size_t nex, bool hoist)
{
	const struct cxx_stmt *js = st(e, j);

	if (hoist) {
		int level = -e->sdepth[j];
		edit_list_add(e->out, js->range.start, 6, 1, 0, 0, EDIT_HOIST);
		for (size_t k = 0; k < nex; k++) {
			char *code = point_code(&e->pl->nodes[ex[k].node], "E");
			add_after(e, js->range.start, js->range.end, NULL, code, 0, level, 1000 + (int)k);
			free(code);
		}
		add_after(e, js->range.start, js->range.end, NULL, "return " EDIT_HOIST_VAR ";", 0, level, 1999);
		return;
	}
	for (size_t k = 0; k < nex; k++) {
		char *code = point_code(&e->pl->nodes[ex[k].node], "E");
		add_before(e, js->range.start, code, 1, 1, 0);
		free(code);
	}
}

/* Is statement j of e->fn code that only another configuration has (inside
 * one of e->only's ranges)? Always true in the scan's own configuration. */
static bool in_scope_of_pass(const struct ed *e, int j)
{
	if (!e->only)
		return true;
	for (size_t i = 0; i < e->nonly; i++)
		if (cxx_range_contains(e->only[i], st(e, j)->range))
			return true;
	return false;
}

/* The edits of one function. In the scan's configuration (e->only NULL):
 * the braces, the B, every exit's E and the ends. In another configuration
 * of the file (fn from an outline of other #if branches, e->only their
 * code): the E before the exits that only it has, and their braces. */
static void edit_function(struct ed *e, const struct cxx_func *fn)
{
	const struct cxx_body *b;
	size_t n;
	struct exit_ref *ex;
	bool *hoist, *wrapped_return;

	e->fn = fn;
	b = &e->fn->body;
	n = b->nstmts;
	e->sdepth = xcalloc(n + 1, sizeof(int));
	e->brace = xcalloc(n + 1, sizeof(bool));
	hoist = xcalloc(n + 1, sizeof(bool));
	wrapped_return = xcalloc(n + 1, sizeof(bool));
	ex = xmalloc((e->nnodes + 1) * sizeof(*ex));
	for (size_t s = 0; s < n; s++)
		e->sdepth[s] = b->stmts[s].parent < 0 ? 0 : e->sdepth[b->stmts[s].parent] + 1;

	/* which bodies get braces, which returns are hoisted */
	for (size_t i = 0; i < e->nnodes && !e->only; i++) {
		const struct plan_node *nd = node(e, i);
		if ((nd->kind == PLAN_loop || nd->kind == PLAN_branch) && !st(e, nd->stmt)->braced)
			e->brace[nd->stmt] = true;
		if (is_stmt_kind(nd)) {
			need_brace(e, first_stmt(nd));
			need_brace(e, last_stmt(nd));
			if (nd->hoist) {
				hoist[nd->stmt] = true;
				wrapped_return[nd->stmt] = true;
			}
		}
	}
	for (size_t j = 0; j < n; j++) {
		bool any = false;
		if (!cxx_stmt_is_jump(st(e, (int)j)) || !in_scope_of_pass(e, (int)j))
			continue;
		for (size_t i = 0; i < e->nnodes && !any; i++)
			any = leaves(e, (int)j, node(e, i));
		if (!any && !hoist[j])
			continue;
		need_brace(e, (int)j);
		if (st(e, (int)j)->kind == CXX_STMT_RETURN && st(e, (int)j)->owner == CXX_NONE &&
		    !plan_func_is_void(e->fn) && return_does_work(e, (int)j))
			hoist[j] = true;
	}

	for (size_t s = 0; s < n; s++)
		if (e->brace[s])
			emit_braces(e, (int)s);
	for (size_t i = 0; i < e->nnodes && !e->only; i++)
		emit_b(e, node(e, i));
	for (size_t j = 0; j < n; j++) {
		size_t nex = 0;
		if (!cxx_stmt_is_jump(st(e, (int)j)) || !in_scope_of_pass(e, (int)j))
			continue;
		for (size_t i = 0; i < e->nnodes; i++) {
			const struct plan_node *nd = node(e, i);
			if (leaves(e, (int)j, nd)) {
				ex[nex].len = nd->scope.end - nd->scope.start;
				ex[nex].depth = nd->depth;
				ex[nex].node = e->nodes[i];
				nex++;
			}
		}
		xqsort(ex, nex, sizeof(*ex), cmp_exit);
		if (nex || hoist[j])
			emit_exits(e, (int)j, ex, nex, hoist[j]);
	}
	for (size_t i = 0; i < e->nnodes && !e->only; i++) {
		const struct plan_node *nd = node(e, i);
		if (is_stmt_kind(nd)) {
			int l = last_stmt(nd);
			const struct cxx_stmt *last = st(e, l);
			char *code;
			if (nd->mark || (cxx_stmt_is_jump(last) && !wrapped_return[l] && leaves(e, l, nd)))
				continue; /* (a marker's E went with its B) */
			code = point_code(nd, "E");
			add_after(e, st(e, first_stmt(nd))->range.start, snap_out(e, nd, last->range.end, false), NULL, code, 0,
				  -e->sdepth[l], -nd->depth);
			free(code);
		} else {
			emit_end(e, nd);
		}
	}
	free(ex);
	free(hoist);
	free(wrapped_return);
	free(e->sdepth);
	free(e->brace);
	for (size_t i = 0; i < e->nsplits; i++)
		free(e->splits[i].indent);
	free(e->splits);
	e->splits = NULL;
	e->nsplits = 0;
}

/* ------------------------------------------------------------ the file */

static void detect_indent(struct ed *e)
{
	size_t best = 0;
	bool tab = false;

	for (uint32_t p = 0; p < e->len;) {
		uint32_t q = p;
		size_t sp = 0;
		while (q < e->len && e->d[q] == ' ')
			q++, sp++;
		if (q < e->len && e->d[q] == '\t' && sp == 0)
			tab = true;
		if (sp > 1 && q < e->len && e->d[q] != '\n' && e->d[q] != '*' && (best == 0 || sp < best))
			best = sp;
		while (q < e->len && e->d[q] != '\n')
			q++;
		p = q + 1;
		if (tab)
			break;
	}
	if (tab)
		strcpy(e->unit_indent, "\t");
	else
		snprintf(e->unit_indent, sizeof(e->unit_indent), "%*s", (int)(best >= 2 && best <= 8 ? best : 4), "");
}

/* "../../x_base.h": the path of `to` relative to the directory of `from`
 * (both relative to the same root). */
static char *relative_path(const char *from, const char *to)
{
	size_t common = 0, ups = 0;
	char *r;
	size_t n = 0;

	for (size_t i = 0; from[i] && to[i] && from[i] == to[i]; i++)
		if (from[i] == '/')
			common = i + 1;
	for (const char *p = from + common; *p; p++)
		if (*p == '/')
			ups++;
	r = xmalloc(ups * 3 + strlen(to + common) + 1);
	for (size_t i = 0; i < ups; i++) {
		memcpy(r + n, "../", 3);
		n += 3;
	}
	strcpy(r + n, to + common);
	return r;
}

/* Is group c a header guard: one branch, and nothing but blanks after its
 * #endif to the end of the file? */
static bool guard_group(const struct ed *e, const struct cxx_cond *c)
{
	if (c->parent != CXX_NONE || c->nbranches != 1)
		return false;
	for (uint32_t p = c->range.end; p < e->len; p++)
		if (e->d[p] != ' ' && e->d[p] != '\t' && e->d[p] != '\n' && e->d[p] != '\r')
			return false;
	return true;
}

/* Is an include at `r` compiled whatever the build defines: outside every
 * #if group but a header guard, or in groups decided by macros the sources,
 * the build or the rules define (not by the default an unknown one gets)? */
static bool include_sure(const struct ed *e, const struct cxx_outline *ol, struct cxx_range r)
{
	for (size_t i = 0; i < ol->nconds; i++) {
		const struct cxx_cond *c = &ol->conds[i];
		if (!cxx_range_contains(c->range, r) || guard_group(e, c))
			continue;
		if (c->every_arm)
			return false;
		for (size_t b = 0; b < c->nbranches; b++)
			if (c->branches[b].value == CXX_COND_UNKNOWN)
				return false;
	}
	return true;
}

static void add_include(struct ed *e)
{
	const struct plan_unit *u = &e->pl->units[e->unit];
	const struct cxx_outline *ol = u->outline;
	const char *base_path = e->pl->base != SIZE_MAX ? e->pl->units[e->pl->base].path : e->pl->base_new;
	const char *kernel = e->pl->policy->kernel.value;
	size_t kl = strcmp(kernel, ".") == 0 ? 0 : strlen(kernel) + 1;
	bool root_style = false;
	uint32_t at = 0;
	char *name, *code;
	const struct cxx_include *last = NULL;

	/* the file's own style: paths relative to the kernel root or to itself */
	for (size_t i = 0; i < ol->nincludes; i++) {
		const struct cxx_include *inc = &ol->includes[i];
		if (inc->status == CXX_INC_FOLLOWED && inc->resolved && strchr(u->path + kl, '/') &&
		    strcmp(inc->name, inc->resolved) == 0)
			root_style = true;
		/* (the runtime's include goes where the build compiles it whatever it
		   defines: not into an #if arm taken only by default) */
		if (inc->active && include_sure(e, ol, inc->range))
			last = inc;
	}
	name = root_style ? xstrdup(base_path + kl) : relative_path(u->path + kl, base_path + kl);
	if (last) {
		uint32_t next;
		at = ends_line(e, last->range.end, &next) ? next : last->range.end;
	} else {
		/* after a header guard (its one #ifndef and #define) or #pragma once,
		   else after the leading comment; never inside a later #if */
		uint32_t p = 0;
		int guard_lines = 0;
		for (;;) {
			uint32_t q = p, next;
			bool guard;
			while (q < e->len && (e->d[q] == ' ' || e->d[q] == '\t'))
				q++;
			guard = q < e->len && ((!strncmp(e->d + q, "#ifndef", 7) && guard_lines == 0) ||
					       (!strncmp(e->d + q, "#define", 7) && guard_lines == 1));
			if (guard)
				guard_lines++;
			if (q < e->len && (e->d[q] == '\n' || (e->d[q] == '/' && q + 1 < e->len && e->d[q + 1] == '/') ||
					   !strncmp(e->d + q, "#pragma once", 12) || guard)) {
				bool blank = e->d[q] == '\n';
				if (!ends_line(e, q, &next)) {
					while (q < e->len && e->d[q] != '\n')
						q++;
					next = q < e->len ? q + 1 : e->len;
				}
				if (!blank)
					at = next;
				p = next;
				if (p >= e->len)
					break;
				continue;
			}
			break;
		}
	}
	code = xmalloc(strlen(name) + 16);
	sprintf(code, "#include \"%s\"", name);
	add_line(e, at, "", code, 1, INT_MIN, 0);
	free(code);
	free(name);
}

/* ------------------------------------------------------------ other #if branches */

/* The untaken branches of the file that lie inside scopes getting points:
 * each other configuration (variant v takes the v-th untaken branch of
 * every such group) is outlined, and the exits only it has get their E, so
 * that the points balance whichever branches the build takes. Returns 0, or
 * -1 after reporting a configuration whose braces or functions differ. */
static int edit_other_branches(struct ed *e, const bool *has_nodes)
{
	const struct plan_unit *u = &e->pl->units[e->unit];
	const struct cxx_outline *ol = u->outline;
	const int *un;
	size_t nun = plan_unit_nodes(e->pl, e->unit, &un), nvar = 0, ngroups = 0;
	struct plan_branch *br = NULL;
	size_t nbr = plan_untaken_branches(e->pl, e->unit, &br);
	unsigned **untaken = xcalloc(ol->nconds + 1, sizeof(*untaken));
	size_t *nuntaken = xcalloc(ol->nconds + 1, sizeof(*nuntaken));
	int status = 0;

	for (size_t i = 0; i < nbr; i++) {
		size_t c = br[i].cond;
		untaken[c] = xrealloc(untaken[c], (nuntaken[c] + 1) * sizeof(**untaken));
		untaken[c][nuntaken[c]++] = br[i].branch;
		if (nuntaken[c] == 1)
			ngroups++;
		if (nuntaken[c] > nvar)
			nvar = nuntaken[c];
	}
	free(br);
	for (size_t v = 0; v < nvar && status == 0; v++) {
		struct cxx_branch_choice *ch = xcalloc(ngroups + 1, sizeof(*ch));
		struct cxx_range *code = xcalloc(ngroups + 1, sizeof(*code));
		struct cxx_macro_table *mt = kernel_scan_macros(e->pl->policy);
		struct cxx_outline *vol;
		size_t nch = 0;
		for (size_t c = 0; c < ol->nconds; c++) {
			if (v >= nuntaken[c])
				continue;
			ch[nch].group_start = ol->conds[c].range.start;
			ch[nch].branch = untaken[c][v];
			code[nch] = cxx_cond_branch_code(&ol->conds[c], untaken[c][v]);
			nch++;
		}
		vol = cxx_outline_build_choosing(u->file, mt, ch, nch, NULL);
		if (!vol->balanced) {
			for (size_t c = 0; c < ol->nconds; c++)
				if (v < nuntaken[c] && vol->conds[c].split_braces) {
					const struct cxx_cond_branch *cb = &ol->conds[c].branches[untaken[c][v]];
					diag_at(e->diag, DIAG_ERROR, src_loc_make(u->file, cb->range.start, cb->range.end),
						"the braces of this #%s branch differ from the branch the scan took: the trace "
						"points cannot be balanced in both (choose one with define/undef in the rules)",
						cb->directive);
					status = -1;
					break;
				}
			if (status == 0) {
				diag_plain(e->diag, DIAG_ERROR, "%s: braces do not balance under other #if branches; not edited",
					   u->path);
				status = -1;
			}
		}
		for (size_t f = 0; f < ol->nfuncs && status == 0; f++) {
			const struct cxx_func *fn = &ol->funcs[f], *vf = NULL;
			if (!has_nodes[f])
				continue;
			for (size_t k = 0; k < vol->nfuncs && !vf; k++)
				if (vol->funcs[k].name_range.start == fn->name_range.start)
					vf = &vol->funcs[k];
			if (!vf || vf->body_range.start != fn->body_range.start || vf->body_range.end != fn->body_range.end) {
				diag_at(e->diag, DIAG_ERROR, src_loc_make(u->file, fn->name_range.start, fn->name_range.end),
					"'%s' is not the same function under the other #if branches of this file: its trace "
					"points cannot be balanced in both (choose the branches with define/undef in the rules)",
					fn->qualified_name);
				status = -1;
				break;
			}
			e->nnodes = 0;
			for (size_t k = 0; k < nun; k++)
				if (e->pl->nodes[un[k]].fate == PLAN_FATE_INSERT && e->pl->nodes[un[k]].func == (int)f)
					e->nodes[e->nnodes++] = un[k];
			e->only = code;
			e->nonly = nch;
			edit_function(e, vf);
			e->only = NULL;
			e->nonly = 0;
		}
		cxx_outline_free(vol);
		cxx_macros_free(mt);
		free(code);
		free(ch);
	}
	for (size_t c = 0; c < ol->nconds; c++)
		free(untaken[c]);
	free(untaken);
	free(nuntaken);
	return status;
}

int edit_unit(const struct plan *pl, size_t u, struct edit_list *out, struct diag *diag)
{
	struct ed e;
	const struct plan_unit *pu = &pl->units[u];
	size_t nins = 0, nun;
	const int *un;
	int status = 0;

	memset(&e, 0, sizeof(e));
	e.pl = pl;
	e.unit = u;
	e.f = pu->file;
	e.d = pu->file->data;
	e.len = (uint32_t)pu->file->len;
	e.out = out;
	e.diag = diag;
	nun = plan_unit_nodes(pl, u, &un);
	for (size_t i = 0; i < nun; i++)
		if (pl->nodes[un[i]].fate == PLAN_FATE_INSERT)
			nins++;
	if (!pu->outline->balanced && !pu->runtime) {
		/* its functions could not be read: the points it should get are
		   unknown, and writing the others would lose them silently */
		diag_plain(diag, DIAG_ERROR, "%s: braces do not balance under the chosen #if branches (see the warnings "
			   "above): its points cannot be placed",
			   pu->path);
		return -1;
	}
	if (nins == 0)
		return 0;
	detect_indent(&e);
	e.nodes = xmalloc(nins * sizeof(int));
	{
		/* the functions with points, in source order; each function's nodes in plan order */
		bool *done = xcalloc(pu->outline->nfuncs + 1, sizeof(bool));
		for (size_t k = 0; k < nun; k++) {
			int f = pl->nodes[un[k]].func;
			if (pl->nodes[un[k]].fate != PLAN_FATE_INSERT || f < 0)
				continue;
			done[f] = true;
		}
		for (size_t f = 0; f < pu->outline->nfuncs; f++) {
			if (!done[f])
				continue;
			e.nnodes = 0;
			for (size_t k = 0; k < nun; k++)
				if (pl->nodes[un[k]].fate == PLAN_FATE_INSERT && pl->nodes[un[k]].func == (int)f)
					e.nodes[e.nnodes++] = un[k];
			edit_function(&e, &pu->outline->funcs[f]);
		}
		if (pu->outline->nconds && edit_other_branches(&e, done) != 0)
			status = -1;
		free(done);
	}
	if (!pu->reaches_base && (pl->base != SIZE_MAX || pl->base_new) && u != pl->base)
		add_include(&e);
	free(e.nodes);
	return status;
}
