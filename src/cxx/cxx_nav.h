/* Walking the statements of an outline body (struct cxx_body): children and
 * siblings by the `parent` links and source order, and the kinds of
 * statement the planner, the editor and check treat alike (loops, jumps). */
#ifndef AUTOTRACE_CXX_NAV_H
#define AUTOTRACE_CXX_NAV_H

#include <stdbool.h>

#include "cxx_outline.h"

/* The first / last direct child of statement `parent` (CXX_NONE: the body
 * itself), or CXX_NONE. */
int cxx_first_child(const struct cxx_body *b, int parent);
int cxx_last_child(const struct cxx_body *b, int parent);
/* The sibling after / before statement s, or CXX_NONE. */
int cxx_next_sibling(const struct cxx_body *b, int s);
int cxx_prev_sibling(const struct cxx_body *b, int s);
/* The code of branch k of #if group c: from the end of its directive line
 * to the next branch's directive (or the end of the group). */
struct cxx_range cxx_cond_branch_code(const struct cxx_cond *c, size_t k);
/* for, while and do loops */
bool cxx_stmt_is_loop(const struct cxx_stmt *s);
/* A loop that may run its body more than once: not `do { ... } while (false)`
 * (or `while (0)`), the idiom of a block that `break` leaves early. */
bool cxx_stmt_repeats(const struct cxx_stmt *s);
/* return, break, continue and goto */
bool cxx_stmt_is_jump(const struct cxx_stmt *s);
/* Do statements a and s lie in different case sections of one switch (a
 * case label between them), so that one pass through the body runs one of
 * them at most (fall-through aside)? */
bool cxx_stmts_in_other_cases(const struct cxx_body *b, int a, int s);
/* Does `outer` hold `inner`? */
static inline bool cxx_range_contains(struct cxx_range outer, struct cxx_range inner)
{
	return outer.start <= inner.start && inner.end <= outer.end;
}

#endif
