/* Where a root's or function's points go: after the runtime's set-up
 * (MOE_TRACING_KERNEL_BEGIN, SetMoeProfilePtr, an `#if ENABLE_MOE_PROFILING`
 * block) and after leading guards (`if (...) return;`), before the runtime's
 * teardown; a loop, branch or region whose index is declared in its first
 * statements starts after that declaration. See plan_walk.h. */
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "plan_walk.h"
#include "xalloc.h"

static bool calls_named(struct plan_walker *w, struct plan_fref f, int s, const char *const *names)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);

	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++) {
		const char *n = b->calls[fi->call_order[k]].name;
		for (int i = 0; n && names[i]; i++)
			if (strcmp(n, names[i]) == 0)
				return true;
	}
	return false;
}

/* Inside an `#if ENABLE_MOE_PROFILING` group: the runtime's own code. */
static bool in_profiling_if(struct plan_walker *w, struct plan_fref f, int s)
{
	const struct cxx_outline *ol = w->pl->units[f.unit].outline;
	struct cxx_range r = plan_body_of(w, f)->stmts[s].range;

	for (size_t c = 0; c < ol->nconds; c++)
		if (cxx_range_contains(ol->conds[c].range, r) && ol->conds[c].branches[0].condition &&
		    strstr(ol->conds[c].branches[0].condition, "ENABLE_MOE_PROFILING"))
			return true;
	return false;
}

static const char *const setup_names[] = { "MOE_TRACING_KERNEL_BEGIN", "MOE_TRACING_KERNEL_SCOPE", "SetMoeProfilePtr",
					 "MoeTracingKernelBegin", NULL };
/* what reads or writes the active buffer by hand: a header written after the
 * set-up, a copy-out before the end */
static const char *const buffer_names[] = { "GetMoeProfilePtr", NULL };

static bool is_setup(struct plan_walker *w, struct plan_fref f, int s)
{
	return calls_named(w, f, s, setup_names) || in_profiling_if(w, f, s);
}

static bool is_teardown(struct plan_walker *w, struct plan_fref f, int s)
{
	static const char *const names[] = { "MoeTracingKernelEnd", NULL };
	return calls_named(w, f, s, names) || in_profiling_if(w, f, s);
}

bool plan_plain_decl(struct plan_walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	if (b->stmts[s].kind != CXX_STMT_EXPR || fi->point_at[s] >= 0 || cxx_first_child(b, s) >= 0)
		return false;
	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++)
		if (b->calls[fi->call_order[k]].constructs != CXX_CONSTRUCT_DECLARATION)
			return false;
	return true;
}

/* `if (...) return;` (or a return of a value computed without a call),
 * without else: an early exit before any work. */
static bool is_guard(struct plan_walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct cxx_stmt *st = &b->stmts[s];
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	int arm = cxx_first_child(b, s), inner;

	if (st->kind != CXX_STMT_IF || arm < 0 || cxx_next_sibling(b, arm) >= 0 || b->stmts[arm].arm != CXX_ARM_IF)
		return false;
	inner = cxx_first_child(b, arm);
	if (inner >= 0 && b->stmts[inner].kind == CXX_STMT_BLOCK && !b->stmts[arm].braced)
		inner = cxx_first_child(b, inner);
	if (inner < 0 || b->stmts[inner].kind != CXX_STMT_RETURN || cxx_next_sibling(b, inner) >= 0 ||
	    b->stmts[inner].owner != CXX_NONE)
		return false;
	return fi->call_first[inner] == fi->call_first[inner + 1]; /* the return calls nothing */
}

/* The first and last statements of block `parent` (CXX_NONE: the body) a
 * root's or function's points enclose: *first < 0 when nothing is left.
 * Returns true when that is not the whole block (the point is a span). */
bool plan_block_span(struct plan_walker *w, struct plan_fref f, int parent, bool root, int *first, int *last)
{
	const struct cxx_body *b = plan_body_of(w, f);
	int f0 = cxx_first_child(b, parent), l0 = cxx_last_child(b, parent);
	int s;

	*first = f0;
	*last = l0;
	if (f0 < 0)
		return false;
	if (root) {
		/* before the trailing teardown, after the last set-up statement before it */
		while (*last >= 0 && is_teardown(w, f, *last))
			*last = cxx_prev_sibling(b, *last);
		for (s = f0; s >= 0 && *last >= 0 && s <= *last; s = cxx_next_sibling(b, s))
			if (is_setup(w, f, s))
				*first = cxx_next_sibling(b, s);
		/* a header the set-up writes by hand (`GetMoeProfilePtr()[0] = 1;`)
		 * is set-up; a copy-out after the work, with the declarations just
		 * before it, is teardown */
		while (*first >= 0 && *first != *last && calls_named(w, f, *first, buffer_names))
			*first = cxx_next_sibling(b, *first);
		for (s = *first; s >= 0 && *last >= 0 && s <= *last; s = cxx_next_sibling(b, s))
			if (s != *first && calls_named(w, f, s, buffer_names)) {
				*last = cxx_prev_sibling(b, s);
				while (*last >= 0 && *last != *first && plan_plain_decl(w, f, *last))
					*last = cxx_prev_sibling(b, *last);
				break;
			}
	}
	while (*first >= 0 && is_guard(w, f, *first) && *first != *last)
		*first = cxx_next_sibling(b, *first);
	if (*first < 0 || *last < 0 || b->stmts[*last].range.start < b->stmts[*first].range.start) {
		*first = -1;
		return true;
	}
	return *first != f0 || *last != l0;
}

bool plan_body_span(struct plan_walker *w, struct plan_fref f, bool root, int *first, int *last)
{
	return plan_block_span(w, f, CXX_NONE, root, first, last);
}

/* The blocks of f in which the runtime is set up, when that is not in its
 * body itself (`if (TILING_KEY_IS(1)) { SetMoeProfilePtr(...); ... }`): up
 * to `max` into out, their number. */
size_t plan_setup_blocks(struct plan_walker *w, struct plan_fref f, int *out, size_t max)
{
	const struct cxx_body *b = plan_body_of(w, f);
	size_t n = 0;

	for (int s = cxx_first_child(b, CXX_NONE); s >= 0; s = cxx_next_sibling(b, s))
		if (is_setup(w, f, s))
			return 0;
	for (size_t c = 0; c < b->ncalls; c++) {
		const struct cxx_call *call = &b->calls[c];
		int p;
		bool seen = false;
		if (call->stmt < 0 || !call->name)
			continue;
		for (int i = 0; setup_names[i] && !seen; i++)
			seen = strcmp(call->name, setup_names[i]) == 0;
		if (!seen)
			continue;
		p = b->stmts[call->stmt].parent;
		if (p == CXX_NONE)
			continue;
		for (size_t i = 0; i < n && seen; i++)
			seen = out[i] != p;
		if (seen && n < max)
			out[n++] = p;
	}
	return n;
}

/* Of the leading declarations of statements first..last (-1: to the end of
 * the block), the last that declares a variable the index expressions name
 * (`uint32_t tracingIdx = next++;`), or -1. */
static int index_decl(struct plan_walker *w, struct plan_fref f, int first, int last, const char *index,
		      const char *extra)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct src_file *file = w->pl->units[f.unit].file;
	const char *exprs[2] = { index, extra };
	int found = -1;

	for (int s = first; s >= 0; s = s == last ? -1 : cxx_next_sibling(b, s)) {
		const struct cxx_stmt *st = &b->stmts[s];
		const char *text;
		if (st->kind != CXX_STMT_EXPR)
			break; /* declarations come first; a jump or a block ends the search */
		text = plan_stmt_text(w, file, st->range);
		for (int e = 0; e < 2; e++) {
			const char *x = exprs[e];
			while (x && *x) {
				/* each identifier of the expression */
				const char *a = x, *id;
				size_t n;
				while (*a && !((*a >= 'A' && *a <= 'Z') || (*a >= 'a' && *a <= 'z') || *a == '_'))
					a++;
				if (!*a)
					break;
				for (x = a; (*x >= 'A' && *x <= 'Z') || (*x >= 'a' && *x <= 'z') || (*x >= '0' && *x <= '9') || *x == '_';)
					x++;
				n = (size_t)(x - a);
				/* `TYPE name =`, `TYPE name{`, `TYPE name(`: a word, a blank, the name */
				for (id = strstr(text, " "); id; id = strstr(id + 1, " ")) {
					const char *nm = id + 1;
					while (*nm == '*' || *nm == '&')
						nm++;
					if (strncmp(nm, a, n) == 0 && strchr("={( ", nm[n]) && nm[n] &&
					    strcspn(text, "=(") >= (size_t)(nm - text)) {
						found = s;
						break;
					}
				}
			}
		}
	}
	return found;
}

int plan_index_decl_end(struct plan_walker *w, struct plan_fref f, int first, int last, const char *index,
			const char *extra)
{
	int found = index_decl(w, f, first, last, index, extra);

	if (found < 0 || found == last)
		return -1;
	return cxx_next_sibling(plan_body_of(w, f), found);
}

bool plan_refuse_index_decl(struct plan_walker *w, int node, struct plan_fref f, int first, int last)
{
	struct plan_node *n = &w->pl->nodes[node];
	const struct rule_trace_rule *r = n->rule;
	int found;

	if (!r || n->fate != PLAN_FATE_INSERT || first < 0 ||
	    (found = index_decl(w, f, first, last, r->index, r->extra)) < 0 ||
	    plan_index_decl_end(w, f, first, last, r->index, r->extra) >= 0)
		return false;
	n->fate = PLAN_FATE_REFUSED;
	free(n->why);
	n->why = xasprintf("the point's index or extra (%s%s%s) is a variable that the last statement it times "
			   "declares (line %zu): B, before that statement, could not record it",
			   r->index ? r->index : "", r->index && r->extra ? ", " : "", r->extra ? r->extra : "",
			   src_file_line(w->pl->units[f.unit].file, plan_body_of(w, f)->stmts[found].range.start));
	w->pl->errors++;
	return true;
}
