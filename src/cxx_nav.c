/* Statement navigation over an outline body (see cxx_nav.h). Statements are
 * stored in source pre-order, so a statement's children follow it and end
 * before it does. */
#include "cxx_nav.h"

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

bool cxx_stmt_is_jump(const struct cxx_stmt *s)
{
	return s->kind == CXX_STMT_RETURN || s->kind == CXX_STMT_BREAK || s->kind == CXX_STMT_CONTINUE ||
	       s->kind == CXX_STMT_GOTO;
}
