/* Statement navigation over an outline body (see cxx_nav.h). Statements are
 * stored in source pre-order, so a statement's children follow it and end
 * before it does. */
#include "cxx_nav.h"

#include <string.h>

int cxx_first_child(const struct cxx_body *b, int parent)
{
	size_t s = parent < 0 ? 0 : (size_t)parent + 1;

	if (s < b->nstmts && b->stmts[s].parent == parent)
		return (int)s;
	return CXX_NONE;
}

int cxx_last_child(const struct cxx_body *b, int parent)
{
	int last = CXX_NONE;

	for (size_t s = parent < 0 ? 0 : (size_t)parent + 1; s < b->nstmts; s++) {
		if (parent >= 0 && b->stmts[s].range.start >= b->stmts[parent].range.end)
			break;
		if (b->stmts[s].parent == parent)
			last = (int)s;
	}
	return last;
}

int cxx_next_sibling(const struct cxx_body *b, int s)
{
	int parent = b->stmts[s].parent;
	uint32_t end = b->stmts[s].range.end;
	size_t j = (size_t)s + 1;

	while (j < b->nstmts && b->stmts[j].range.start < end)
		j++;
	return j < b->nstmts && b->stmts[j].parent == parent ? (int)j : CXX_NONE;
}

int cxx_prev_sibling(const struct cxx_body *b, int s)
{
	int parent = b->stmts[s].parent;

	for (int j = s - 1; j >= 0; j--) {
		if (j == parent)
			return CXX_NONE;
		if (b->stmts[j].parent == parent)
			return j;
	}
	return CXX_NONE;
}

bool cxx_stmt_is_loop(const struct cxx_stmt *s)
{
	return s->kind == CXX_STMT_FOR || s->kind == CXX_STMT_WHILE || s->kind == CXX_STMT_DO;
}

struct cxx_range cxx_cond_branch_code(const struct cxx_cond *c, size_t k)
{
	struct cxx_range r = { c->branches[k].range.end,
			       k + 1 < c->nbranches ? c->branches[k + 1].range.start : c->range.end };

	return r;
}

bool cxx_stmt_repeats(const struct cxx_stmt *s)
{
	if (s->kind == CXX_STMT_DO && s->text)
		return !(strcmp(s->text, "false") == 0 || strcmp(s->text, "0") == 0);
	return cxx_stmt_is_loop(s);
}

bool cxx_stmt_is_jump(const struct cxx_stmt *s)
{
	return s->kind == CXX_STMT_RETURN || s->kind == CXX_STMT_BREAK || s->kind == CXX_STMT_CONTINUE ||
	       s->kind == CXX_STMT_GOTO;
}

/* The child of `parent` that holds statement s (s itself when it is one). */
static int child_holding(const struct cxx_body *b, int parent, int s)
{
	while (s >= 0 && b->stmts[s].parent != parent)
		s = b->stmts[s].parent;
	return s;
}

bool cxx_stmts_in_other_cases(const struct cxx_body *b, int a, int s)
{
	if (a < 0 || s < 0 || a == s)
		return false;
	for (int p = b->stmts[a].parent; p >= 0; p = b->stmts[p].parent) {
		int ca, cs;
		if (!cxx_range_contains(b->stmts[p].range, b->stmts[s].range))
			continue;
		/* p is the innermost statement holding both */
		ca = child_holding(b, p, a);
		cs = child_holding(b, p, s);
		if (ca < 0 || cs < 0 || ca == cs)
			return false;
		if (b->stmts[p].kind == CXX_STMT_SWITCH) {
			int lo = ca < cs ? ca : cs, hi = ca < cs ? cs : ca;
			for (int k = cxx_next_sibling(b, lo); k >= 0 && k <= hi; k = cxx_next_sibling(b, k))
				if (b->stmts[k].kind == CXX_STMT_CASE)
					return true;
		}
		return false;
	}
	return false;
}
