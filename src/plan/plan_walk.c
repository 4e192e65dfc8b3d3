/* The planner's walk (pass 2): from each root, statement by statement and
 * through the static call graph, deciding for every construct which trace
 * rule applies and making the tree of candidate points with their fates.
 * Each function is planned once, at its first visit in source order outside
 * tile-level code.
 *
 * Tile level: a loop that no loop rule times and that calls no function a
 * function rule times is tile level (per block, per row, per element): the
 * code inside it, and the functions called from it, get no points from
 * function, loop, branch or hot rules -- only an explicit wrap or region
 * still applies there. A loop without a point that does nothing but hot
 * calls (a wait loop) is timed as a whole. Calls of intra-core pipe
 * synchronisation helpers (SetFlag/WaitFlag wrappers) are tile level too.
 *
 * The nodes are made in plan_nodes.c, the intervals a scope's points
 * enclose worked out in plan_spans.c. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "path_rel.h"
#include "plan_walk.h"
#include "rule_find.h"
#include "xalloc.h"

typedef struct plan_walker walker;
typedef struct plan_ctx ctx_t;

/* Is the kebab-case name `k` the operator's own (the kernel entry's name,
 * MoeDistributeDispatchGmm for moe_distribute_dispatch_gmm; "kernel", "op",
 * "impl" at its end aside)? That name never names a phase: it says nothing
 * of the stage a point is in. */
static bool names_operator(const walker *w, const char *k)
{
	char a[256], b[256];
	size_t n = 0, m = 0;
	static const char *const tails[] = { "kernel", "impl", "op" };

	if (!w->root_name)
		return false;
	for (const char *p = k; *p && n < sizeof(a) - 1; p++)
		if (*p != '-' && *p != '_')
			a[n++] = (char)tolower((unsigned char)*p);
	for (const char *p = w->root_name; *p && m < sizeof(b) - 1; p++)
		if (*p != '-' && *p != '_')
			b[m++] = (char)tolower((unsigned char)*p);
	a[n] = b[m] = '\0';
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		size_t t = strlen(tails[i]);
		if (n > t && strcmp(a + n - t, tails[i]) == 0)
			a[n -= t] = '\0';
		if (m > t && strcmp(b + m - t, tails[i]) == 0)
			b[m -= t] = '\0';
	}
	return strcmp(a, b) == 0;
}

/* Has no rule named the phase here (none, or only a function's name)? */
static bool no_phase(const ctx_t *c)
{
	return !c->phase || c->phase_weak;
}

/* The phase a rule names (`phase`, not NULL) takes over in c. */
static void take_phase(ctx_t *c, const char *phase)
{
	c->phase = phase;
	c->phase_weak = false;
}

/* Where no rule named the phase, the one the rules give function t (called
 * from `caller`) takes over. */
static void phase_of_callee(walker *w, ctx_t *c, struct plan_fref t, const struct plan_fref *caller)
{
	const char *ph;

	if (no_phase(c) && (ph = plan_phase_of(w, t, caller)) != NULL)
		take_phase(c, ph);
}

/* ------------------------------------------------------------ unresolved */

static void note_unresolved(walker *w, struct plan_fref f, const struct cxx_call *c)
{
	struct plan *pl = w->pl;
	const char *callee = c->callee ? c->callee : c->name;
	size_t n = strlen(callee);
	char *key;
	const size_t *a;
	const int *b;

	if (c->template_args && n > 0 && callee[n - 1] == '>') {
		const char *lt = strrchr(callee, '<');
		int depth = 0;
		for (size_t i = n; i-- > 0;) {
			if (callee[i] == '>')
				depth++;
			else if (callee[i] == '<' && --depth == 0) {
				lt = callee + i;
				break;
			}
		}
		if (lt)
			n = (size_t)(lt - callee);
	}
	key = xstrndup(callee, n);
	if (plan_map_get(w->unres, key, &a, &b) > 0) {
		pl->unresolved[a[0]].count++;
		free(key);
		return;
	}
	XGROW(pl->unresolved, pl->cap_unresolved, pl->nunresolved + 1);
	pl->unresolved[pl->nunresolved].callee = key;
	pl->unresolved[pl->nunresolved].unit = f.unit;
	pl->unresolved[pl->nunresolved].off = c->range.start;
	pl->unresolved[pl->nunresolved].count = 1;
	{
		const size_t *na;
		const int *nb;
		pl->unresolved[pl->nunresolved].why =
			c->name && plan_map_get(pl->index->by_name, c->name, &na, &nb) > 0 ? plan_unresolved_why(pl, f, c) : NULL;
	}
	plan_map_add(w->unres, key, pl->nunresolved, 0);
	pl->nunresolved++;
}

/* A call that reaches a function the scanner could not follow. */
static bool check_unfollowed(walker *w, struct plan_fref f, const struct cxx_call *c, const ctx_t *ctx)
{
	const size_t *a;
	const int *b;
	const struct cxx_unfollowed *uf;

	if (!c->name || plan_map_get(w->unfollowed, c->name, &a, &b) == 0)
		return false;
	uf = &w->pl->units[a[0]].outline->unfollowed[b[0]];
	plan_add_note(w, PLAN_function, PLAN_FATE_REFUSED, f, c->stmt, c->range, ctx, xstrdup(uf->qualified_name),
		 xasprintf("the scanner could not follow '%s' (%s:%zu), which this call may reach", uf->qualified_name,
			   plan_unit_path(w->pl, a[0]), src_file_line(w->pl->units[a[0]].file, uf->name_range.start)));
	w->pl->errors++;
	return true;
}

/* ------------------------------------------------------------ the walk */

static void walk_block(walker *w, struct plan_fref f, int parent, const ctx_t *ctx);
static void walk_function(walker *w, struct plan_fref t, const ctx_t *ctx, struct plan_fref caller);
static bool single_call_body(walker *w, struct plan_fref f, int first, int last, struct plan_fref *callee,
			     bool *planned);

static void walk_call(walker *w, struct plan_fref f, const struct cxx_call *c, const ctx_t *ctx)
{
	struct plan_fref t[PLAN_MAX_TARGETS];
	bool lam = false;
	size_t nt, mu;
	int mi;

	if (plan_is_trace_call(c))
		return;
	nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);
	if (nt == 0 && c->name && !c->object && plan_find_macro(w->pl, c->name, &mu, &mi)) {
		const struct cxx_macro *m = &w->pl->units[mu].outline->macros[mi];
		plan_add_note(w, PLAN_macro, PLAN_FATE_MACRO, f, c->stmt, c->range, ctx, xstrdup(m->name),
			 xasprintf("the code of macro %s (%s:%zu) is left alone", m->name, plan_unit_path(w->pl, mu),
				   src_file_line(w->pl->units[mu].file, m->range.start)));
		for (size_t k = 0; k < m->body.ncalls; k++) {
			struct plan_fref t2[PLAN_MAX_TARGETS];
			bool l2;
			size_t n2 = plan_resolve_macro_call(w->pl, f, c, mu, mi, &m->body.calls[k], t2, PLAN_MAX_TARGETS, &l2);
			for (size_t j = 0; j < n2; j++)
				walk_function(w, t2[j], ctx, f);
		}
		return;
	}
	if (nt == 0) {
		if (!lam && !check_unfollowed(w, f, c, ctx))
			note_unresolved(w, f, c);
		return;
	}
	for (size_t k = 0; k < nt; k++)
		walk_function(w, t[k], ctx, f);
}

static void walk_calls_of(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);

	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++)
		walk_call(w, f, &b->calls[fi->call_order[k]], ctx);
}

/* The skip rule of the helper every function call c reaches is (see
 * plan_tile_helper), or NULL; *which: the first of them. */
static const struct rule_trace_rule *calls_tile_helper(walker *w, struct plan_fref f, const struct cxx_call *c,
						       struct plan_fref *which)
{
	struct plan_fref t[PLAN_MAX_TARGETS];
	bool lam;
	size_t nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);
	const struct rule_trace_rule *rule = NULL;

	for (size_t k = 0; k < nt; k++) {
		const struct rule_trace_rule *r = plan_tile_helper(w, t[k]);
		if (!r || (rule && r != rule))
			return NULL;
		rule = r;
	}
	if (nt)
		*which = t[0];
	return rule;
}

/* An opaque function (an embedded operator) called by statement s: the rule,
 * the call (*call) and the function (*target); NULL when none. */
static const struct rule_trace_rule *opaque_call(walker *w, struct plan_fref f, int s, int *call,
						 struct plan_fref *target)
{
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct cxx_body *b = plan_body_of(w, f);

	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++) {
		const struct cxx_call *c = &b->calls[fi->call_order[k]];
		struct plan_fref t[PLAN_MAX_TARGETS];
		bool lam;
		size_t nt = plan_is_trace_call(c) ? 0 : plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);
		for (size_t i = 0; i < nt; i++) {
			const struct rule_trace_rule *r = plan_decide_function(w, t[i], &f);
			if (r && r->kind == RULE_function && r->opaque) {
				*call = fi->call_order[k];
				*target = t[i];
				return r;
			}
		}
	}
	return NULL;
}

/* The call of statement s that is a step of the stage whose own body s is
 * in: a call of the sources' code that no rule times, merges or skips (a
 * transparent function is planned as its caller, so it may be one) and
 * that does work (plan_work.c); -1 when there is none. */
static int step_call(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++) {
		const struct cxx_call *c = &b->calls[fi->call_order[k]];
		struct plan_fref t[PLAN_MAX_TARGETS];
		bool lam;
		size_t nt;
		if (plan_is_trace_call(c) || !plan_makes_call(w->pl, f, c))
			continue;
		if (c->constructs != CXX_CONSTRUCT_CALL)
			return -1; /* making an object is its set-up */
		nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);
		for (size_t i = 0; i < nt; i++) {
			const struct rule_trace_rule *r = plan_decide_function(w, t[i], &f);
			if (w->pl->units[t[i].unit].runtime || (r && r->kind != RULE_transparent))
				return -1;
		}
		if (nt > 0 && plan_does_work(w, t[0], -1, ctx))
			return fi->call_order[k];
		return -1;
	}
	return -1;
}

static void walk_simple(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_func *fn = plan_func(w->pl, f);
	const struct cxx_stmt *st = &fn->body.stmts[s];
	int call;
	const struct rule_trace_rule *r;
	ctx_t c2 = *ctx;
	struct plan_fref helper, target;
	const struct rule_trace_rule *hr;

	if (ctx->tile < 0 && (r = opaque_call(w, f, s, &call, &target)) != NULL) {
		/* the call of an embedded operator: one point around it, nothing inside */
		char *name = plan_call_name_var(&fn->body.calls[call]);
		ctx_t oc = *ctx;
		int n;
		phase_of_callee(w, &oc, target, &f);
		n = plan_add_point(w, PLAN_wrap, f, s, st->range, r, r->label, &oc, name, cxx_prev_sibling(&fn->body, s),
			      cxx_next_sibling(&fn->body, s), call);
		w->pl->nodes[n].hoist = st->kind == CXX_STMT_RETURN;
		free(name);
		return;
	}
	r = plan_decide_stmt(w, f, s, ctx, &call);
	if (!r && ctx->steps && ctx->tile < 0 && st->kind == CXX_STMT_EXPR && (call = step_call(w, f, s, ctx)) >= 0) {
		/* a step of a stage's own body: timed at its call, what it calls planned inside */
		char *name = plan_call_name_var(&fn->body.calls[call]);
		int n = plan_add_point(w, PLAN_wrap, f, s, st->range, ctx->steps, ctx->steps->steps, ctx, name,
				       cxx_prev_sibling(&fn->body, s), cxx_next_sibling(&fn->body, s), call);
		free(name);
		c2 = plan_child_ctx(w, n, ctx);
		c2.steps = NULL;
		walk_calls_of(w, f, s, &c2);
		walk_block(w, f, s, &c2);
		return;
	}

	if (r && r->kind == RULE_hot && (hr = calls_tile_helper(w, f, &fn->body.calls[call], &helper)) != NULL) {
		const struct cxx_func *hf = plan_func(w->pl, helper);
		char *where = plan_rule_where(hr);
		plan_add_note(w, PLAN_hot, PLAN_FATE_SKIPPED, f, s, st->range, ctx, xstrdup(fn->body.calls[call].callee),
			 xasprintf("'%s' (%s:%zu) only makes calls that %s skips", hf->qualified_name,
				   plan_unit_path(w->pl, helper.unit),
				   src_file_line(w->pl->units[helper.unit].file, hf->name_range.start), where));
		free(where);
		r = NULL;
	} else if (r && r->kind == RULE_skip) {
		/* shown only when a hot or wrap rule would have taken it */
		const struct cxx_call *c = &fn->body.calls[call];
		bool shadowed = false;
		for (const struct rule_trace_rule *q = w->p->rules; q < r && !shadowed; q++) {
			if (q->kind == RULE_hot && ctx->hot_ok && plan_re_match(w, q->match, c->name))
				shadowed = true;
			else if (q->kind == RULE_wrap &&
				 plan_re_match(w, q->match, plan_stmt_head(w, f, s)))
				shadowed = true;
		}
		if (shadowed)
			plan_add_note(w, PLAN_hot, PLAN_FATE_SKIPPED, f, s, st->range, ctx, xstrdup(c->callee), plan_rule_where(r));
	} else if (r) {
		const struct cxx_call *c = &fn->body.calls[call];
		char *name = plan_call_name_var(c);
		enum plan_kind kind = r->kind == RULE_wrap ? PLAN_wrap : PLAN_hot;
		char *why = NULL;
		if (st->kind == CXX_STMT_RETURN) {
			const struct src_file *file = w->pl->units[f.unit].file;
			uint32_t p = st->range.start + 6;
			while (p < st->range.end && (file->data[p] == ' ' || file->data[p] == '\t' || file->data[p] == '\n'))
				p++;
			if (st->owner != CXX_NONE)
				why = xstrdup("a return from a lambda is not wrapped");
			else if (plan_func_is_void(fn))
				why = xstrdup("a return in a void function cannot be wrapped");
			else if (p < st->range.end && file->data[p] == '{')
				why = xstrdup("a return of a braced list cannot be wrapped");
		}
		if (why) {
			plan_add_note(w, kind, PLAN_FATE_SKIPPED, f, s, st->range, ctx, xstrdup(c->callee), why);
		} else {
			int n = plan_add_point(w, kind, f, s, st->range, r, r->label, ctx, name, cxx_prev_sibling(&fn->body, s),
					  cxx_next_sibling(&fn->body, s), call);
			w->pl->nodes[n].hoist = st->kind == CXX_STMT_RETURN;
			if (r->kind == RULE_hot && r->mark) {
				/* an instant: nothing is inside it, nothing leaves it */
				w->pl->nodes[n].mark = true;
				w->pl->nodes[n].hoist = false;
				w->pl->nodes[n].scope = (struct cxx_range){ st->range.start, st->range.start };
			}
			plan_refuse_index_decl(w, n, f, s, s);
			c2 = plan_child_ctx(w, n, ctx);
			/* a wait is one interval: the waits its callee is made of
			 * (WaitFlagDev around WaitEvent) get no points of their own */
			if (kind == PLAN_hot)
				c2.hot_ok = false;
		}
		free(name);
	}
	walk_calls_of(w, f, s, &c2);
	walk_block(w, f, s, &c2); /* lambdas */
}

/* Does a call in loop s's code reach a function a function rule times? */
static bool loop_holds_stage(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct rule_policy *fb = w->fb;
	bool holds = false;

	/* the fallback rules count only where they give their points */
	if (fb && (ctx->depth >= w->fb_depth || w->in_merge))
		w->fb = NULL;
	for (size_t c = 0; c < b->ncalls && !holds; c++) {
		int cs = b->calls[c].stmt;
		if (cs < 0 || !cxx_range_contains(b->stmts[s].range, b->stmts[cs].range))
			continue;
		holds = plan_callee_has_point(w, f, &b->calls[c]);
	}
	w->fb = fb;
	return holds;
}

/* A wait loop: no nested loop, and every call of its code is hot. The first
 * hot call's index, or -1. */
static int wait_loop_call(walker *w, struct plan_fref f, int s, const struct rule_trace_rule **rule)
{
	const struct cxx_body *b = plan_body_of(w, f);
	int first = -1;

	for (size_t j = (size_t)s + 1; j < b->nstmts && b->stmts[j].range.start < b->stmts[s].range.end; j++)
		if (cxx_stmt_repeats(&b->stmts[j]))
			return -1;
	for (size_t c = 0; c < b->ncalls; c++) {
		const struct cxx_call *cl = &b->calls[c];
		const struct rule_trace_rule *hot = NULL;
		if (cl->stmt < 0 || !cxx_range_contains(b->stmts[s].range, b->stmts[cl->stmt].range) || !cl->name ||
		    !plan_makes_call(w->pl, f, cl))
			continue;
		if (cl->stmt == s && cl->range.start < b->stmts[s].body.start)
			continue; /* the loop's header */
		for (size_t i = w->p->nrules; i-- > 0 && !hot;)
			if (w->p->rules[i].kind == RULE_hot && !w->p->rules[i].in && !w->p->rules[i].mark &&
			    plan_re_match(w, w->p->rules[i].match, cl->name) && plan_nth_call(w, f, cl, &w->p->rules[i]))
				hot = &w->p->rules[i];
		if (!hot || plan_skip_call_rule(w, cl))
			return -1;
		if (first < 0) {
			first = (int)c;
			*rule = hot;
		}
		plan_rule_won(w, hot);
	}
	return first;
}

/* Is r a rule of the operator's own files (not the shipped policy's, not the fallback's)? */
static bool own_rule(walker *w, const struct rule_trace_rule *r)
{
	return r >= w->p->rules && r < w->p->rules + w->p->nrules && w->rule_own[r - w->p->rules];
}

static void walk_loop(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct cxx_stmt *st = &b->stmts[s];
	const char *loop_phase = plan_phase_of_loop(w, f, s);
	const struct rule_trace_rule *r;
	ctx_t lc = *ctx, c2;

	/* a loop's own phase holds for its point and inside it */
	if (loop_phase) {
		take_phase(&lc, loop_phase);
		ctx = &lc;
	}
	walk_calls_of(w, f, s, ctx);
	r = plan_decide_construct(w, f, s, RULE_loop, RULE_TARGET_loop);
	if (r && r->kind == RULE_skip) {
		plan_add_note(w, PLAN_loop, PLAN_FATE_SKIPPED, f, s, st->body, ctx, xstrdup(st->text ? st->text : ""),
			 plan_rule_where(r));
		return;
	}
	if (r && r->kind == RULE_transparent) {
		/* its body is planned as the code around the loop: not tile level either */
		plan_add_note(w, PLAN_loop, PLAN_FATE_MERGED, f, s, st->body, ctx, xstrdup(st->text ? st->text : ""),
			 plan_rule_where(r));
		walk_block(w, f, s, ctx);
		return;
	}
	if (r && !r->whole && !r->match && ctx->hot_ok && ctx->tile < 0) {
		/* a rule that only asks what the loop calls does not time a loop
		 * that only waits per iteration: that one is timed as a whole */
		const struct rule_trace_rule *hot;
		if (wait_loop_call(w, f, s, &hot) >= 0)
			r = NULL;
	}
	if (r && ctx->tile >= 0 && !own_rule(w, r)) {
		/* (a rule of the operator's own names this loop: it is timed) */
		char *where = plan_tile_where(w, ctx);
		plan_add_note(w, PLAN_loop, PLAN_FATE_SKIPPED, f, s, st->body, ctx, xstrdup(st->text ? st->text : ""),
			 xasprintf("inside the tile-level loop at %s", where));
		free(where);
		r = NULL;
	}
	if (r && r->whole) {
		/* the whole loop, every iteration: one point around the statement */
		char *name = plan_loop_name_var(st->var, st->text);
		int n = plan_add_point(w, PLAN_wrap, f, s, st->range, r, r->label, ctx, name, cxx_prev_sibling(b, s),
				       cxx_next_sibling(b, s), -1);
		const char *var = st->var;
		free(name);
		if (var && ((r->index && strcmp(r->index, var) == 0) || (r->extra && strcmp(r->extra, var) == 0)) &&
		    w->pl->nodes[n].fate == PLAN_FATE_INSERT) {
			/* around the loop, its own variable is out of scope */
			w->pl->nodes[n].fate = PLAN_FATE_REFUSED;
			w->pl->nodes[n].why = xasprintf("a whole loop's point is outside the loop: its index cannot be the "
							"loop variable '%s'", var);
			w->pl->errors++;
		}
		c2 = plan_child_ctx(w, n, ctx);
		c2.hot_ok = false;
		if (!loop_holds_stage(w, f, s, ctx)) {
			c2.tile = s;
			c2.tile_fn = f;
		}
	} else if (r) {
		char *name = plan_loop_name_var(st->var, st->text);
		int after = st->braced ? plan_index_decl_end(w, f, cxx_first_child(b, s), -1, r->index, r->extra) : -1;
		int n = plan_add_point(w, PLAN_loop, f, s, st->body, r, r->label, ctx, name,
				  after >= 0 ? after : cxx_first_child(b, s), cxx_last_child(b, s), -1);
		if (after >= 0)
			plan_make_span(w, n, f, after, cxx_last_child(b, s));
		else if (st->braced)
			plan_refuse_index_decl(w, n, f, cxx_first_child(b, s), -1);
		free(name);
		c2 = plan_child_ctx(w, n, ctx);
	} else {
		const struct rule_trace_rule *hot = NULL;
		int wc = ctx->hot_ok && ctx->tile < 0 ? wait_loop_call(w, f, s, &hot) : -1;
		c2 = *ctx;
		c2.hot_ok = false; /* a loop without a point: nothing hot inside is timed per iteration */
		if (wc >= 0) {
			/* a loop that only waits: one point around the whole loop */
			char *name = xasprintf("%s-loop", b->calls[wc].name);
			int n = plan_add_point(w, PLAN_hot, f, s, st->range, hot, hot->label, ctx, name, cxx_prev_sibling(b, s),
					  cxx_next_sibling(b, s), wc);
			free(name);
			c2 = plan_child_ctx(w, n, ctx);
			c2.hot_ok = false;
			c2.tile = s;
			c2.tile_fn = f;
		} else if (ctx->tile < 0 && !loop_holds_stage(w, f, s, ctx)) {
			c2.tile = s;
			c2.tile_fn = f;
		}
	}
	c2.steps = NULL; /* a loop's body is per iteration: no steps */
	walk_block(w, f, s, &c2);
}

/* The rule that matched the first arm of arm s's chain, when it has an else label. */
static const struct rule_trace_rule *else_rule(walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = plan_body_of(w, f);
	int first = cxx_first_child(b, b->stmts[s].parent);
	const struct rule_trace_rule *r;

	if (first < 0 || first == s || b->stmts[first].arm == CXX_ARM_MACRO)
		return NULL;
	r = plan_decide_construct(w, f, first, RULE_branch, RULE_TARGET_branch);
	return r && r->kind == RULE_branch && r->else_label ? r : NULL;
}

/* The one statement of arm s's body (trace points left out) when a hot or
 * wrap rule gives it a point of its own: the arm's point would time the
 * same interval (`if (...) { CrossCoreWaitFlag(...); }`); else -1. */
static int single_timed_stmt(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct rule_trace_rule *r;
	int one = -1, last = cxx_last_child(b, s), call;

	for (int k = cxx_first_child(b, s); k >= 0; k = cxx_next_sibling(b, k)) {
		if (fi->point_at[k] < 0) {
			if (one >= 0)
				return -1;
			one = k;
		}
		if (k == last)
			break;
	}
	if (one < 0 || b->stmts[one].kind != CXX_STMT_EXPR)
		return -1;
	r = plan_decide_stmt(w, f, one, ctx, &call);
	return r && (r->kind == RULE_hot || r->kind == RULE_wrap) ? one : -1;
}

static void walk_arm(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	const struct cxx_stmt *st = &b->stmts[s];
	const struct rule_trace_rule *r = NULL;
	const struct rule_template *t = NULL;
	ctx_t c2 = *ctx;

	walk_calls_of(w, f, s, ctx);
	if (st->arm == CXX_ARM_ELSE) {
		r = else_rule(w, f, s);
		t = r ? r->else_label : NULL;
	} else if (st->arm != CXX_ARM_MACRO) {
		r = plan_decide_construct(w, f, s, RULE_branch, RULE_TARGET_branch);
		t = r ? r->label : NULL;
		if (r && r->kind == RULE_branch && !t)
			r = NULL; /* `branch /RE/ else "LABEL"`: only the else arm is timed */
	}
	if (r && r->kind == RULE_skip) {
		plan_add_note(w, PLAN_branch, PLAN_FATE_SKIPPED, f, s, st->body, ctx, xstrdup(st->text), plan_rule_where(r));
		return;
	}
	if (r && r->kind == RULE_transparent) {
		plan_add_note(w, PLAN_branch, PLAN_FATE_MERGED, f, s, st->body, ctx, xstrdup(st->text), plan_rule_where(r));
		walk_block(w, f, s, ctx);
		return;
	}
	if (r && (ctx->tile >= 0 || r->whole))
		r = NULL; /* tile level: no branch points; a whole rule's point is around the chain (walk_if) */
	if (r) {
		/* a branch whose body is one call of a function with a point of its
		 * own: that point times the same */
		struct plan_fref callee;
		bool planned;
		int one;
		if (single_call_body(w, f, cxx_first_child(b, s), cxx_last_child(b, s), &callee, &planned)) {
			const struct cxx_func *cf = plan_func(w->pl, callee);
			plan_add_note(w, PLAN_branch, PLAN_FATE_MERGED, f, s, st->body, ctx, xstrdup(st->text ? st->text : "else"),
				 xasprintf("its body is one call of '%s', which has a point of its own", cf->qualified_name));
			r = NULL;
		} else if (!w->rule_own[r - w->p->rules] && (one = single_timed_stmt(w, f, s, ctx)) >= 0) {
			plan_add_note(w, PLAN_branch, PLAN_FATE_MERGED, f, s, st->body, ctx, xstrdup(st->text ? st->text : "else"),
				 xasprintf("its body is one statement with a point of its own (line %zu)",
					   src_file_line(w->pl->units[f.unit].file, b->stmts[one].range.start)));
			r = NULL;
		} else if (!w->rule_own[r - w->p->rules] && !plan_does_work(w, f, s, ctx)) {
			/* (the shipped policy's rules time work; an operator's own rule
			 * times what it names) */
			plan_add_note(w, PLAN_branch, PLAN_FATE_MERGED, f, s, st->body, ctx, xstrdup(st->text ? st->text : "else"),
				 xstrdup("its body is set-up, no work of a phase (no loop, no call that is not thin)"));
			r = NULL;
		}
	}
	if (r) {
		char *name = plan_cond_name_var(st->arm == CXX_ARM_ELSE ? b->stmts[cxx_first_child(b, st->parent)].text
									: st->text);
		int after = st->braced ? plan_index_decl_end(w, f, cxx_first_child(b, s), -1, r->index, r->extra) : -1;
		int n = plan_add_point(w, PLAN_branch, f, s, st->body, r, t, ctx, name,
				       after >= 0 ? after : cxx_first_child(b, s), cxx_last_child(b, s), -1);
		if (after >= 0)
			plan_make_span(w, n, f, after, cxx_last_child(b, s));
		else if (st->braced)
			plan_refuse_index_decl(w, n, f, cxx_first_child(b, s), -1);
		free(name);
		c2 = plan_child_ctx(w, n, ctx);
		c2.tile = ctx->tile;
	}
	walk_block(w, f, s, &c2);
}

/* An if chain: a branch rule with `whole` that takes its first arm times the
 * whole chain (one point around the statement); its arms are walked inside. */
static void walk_if(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	int arm = cxx_first_child(b, s);
	const struct rule_trace_rule *r = NULL;
	ctx_t c2 = *ctx;

	if (arm >= 0 && b->stmts[arm].kind == CXX_STMT_ARM && b->stmts[arm].arm != CXX_ARM_MACRO && ctx->tile < 0)
		r = plan_decide_construct(w, f, arm, RULE_branch, RULE_TARGET_branch);
	if (r && r->kind == RULE_branch && r->whole) {
		char *name = plan_cond_name_var(b->stmts[arm].text);
		int n = plan_add_point(w, PLAN_wrap, f, s, b->stmts[s].range, r, r->label, ctx, name,
				       cxx_prev_sibling(b, s), cxx_next_sibling(b, s), -1);
		free(name);
		c2 = plan_child_ctx(w, n, ctx);
	}
	walk_calls_of(w, f, s, &c2);
	walk_block(w, f, s, &c2);
}

static void walk_stmt(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_stmt *st = &plan_body_of(w, f)->stmts[s];

	if (plan_finfo(w->pl, f)->point_at[s] >= 0)
		return;
	switch (st->kind == CXX_STMT_DO && !cxx_stmt_repeats(st) ? CXX_STMT_BLOCK : st->kind) {
	case CXX_STMT_FOR:
	case CXX_STMT_WHILE:
	case CXX_STMT_DO:
		walk_loop(w, f, s, ctx);
		return;
	case CXX_STMT_ARM:
		walk_arm(w, f, s, ctx);
		return;
	case CXX_STMT_IF:
		walk_if(w, f, s, ctx);
		return;
	case CXX_STMT_EXPR:
	case CXX_STMT_RETURN:
		walk_simple(w, f, s, ctx);
		return;
	default:
		walk_calls_of(w, f, s, ctx);
		walk_block(w, f, s, ctx);
		return;
	}
}

/* The regions open at one level of a block (walk_range), innermost last. */
#define MAX_OPEN_REGIONS 8
struct open_regions {
	const struct rule_trace_rule *rule[MAX_OPEN_REGIONS];
	int last[MAX_OPEN_REGIONS];
	ctx_t ctx[MAX_OPEN_REGIONS];
	size_t n;
};

/* A region starting at statement s: its last statement, or -1. The regions
 * open at this level hold it whole (it ends by `limit`, -1: anywhere), and
 * none of their rules starts again at this level, where their own
 * statements match it too. (In a nested block one does: regions of one rule
 * nest.) */
static int region_end(walker *w, struct plan_fref f, int s, const struct open_regions *open, int limit,
		      const struct rule_trace_rule **rule)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	for (size_t i = w->p->nrules; i-- > 0;) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		bool opened = false;
		for (size_t k = 0; k < open->n; k++)
			opened = opened || open->rule[k] == r;
		int at = s; /* the statement `from` matches: s, or for `after` the one before it */
		if (r->kind == RULE_region && r->from_after) {
			at = cxx_prev_sibling(b, s);
			while (at >= 0 && fi->point_at[at] >= 0)
				at = cxx_prev_sibling(b, at);
			if (at < 0 || fi->point_at[s] >= 0)
				continue;
		}
		if (r->kind != RULE_region || opened || (r->in && !plan_rule_in_scope(w, r, f)) ||
		    !plan_re_match(w, r->match, plan_stmt_head(w, f, at)) || !plan_nth_stmt(w, f, at, r->match, r->nth, false))
			continue;
		if (r->until_end) {
			/* to the block's last statement (the last one the limit allows) */
			int last = -1;
			for (int e = s; e >= 0 && (limit < 0 || e <= limit); e = cxx_next_sibling(b, e))
				if (fi->point_at[e] < 0)
					last = e;
			if (last >= 0) {
				*rule = r;
				return last;
			}
			continue;
		}
		for (int e = s; e >= 0 && (limit < 0 || e <= limit); e = cxx_next_sibling(b, e)) {
			if (fi->point_at[e] < 0 && plan_re_match(w, r->until, plan_stmt_head(w, f, e)) &&
			    plan_nth_stmt(w, f, e, r->until, r->until_nth, false)) {
				*rule = r;
				return e;
			}
		}
	}
	return -1;
}

/* The statements of `parent` (CXX_NONE: the body) from child `from` to
 * child `to` (-1: the first, the last). */
static void walk_range(walker *w, struct plan_fref f, int parent, int from, int to, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	size_t start = from >= 0 ? (size_t)from : parent < 0 ? 0 : (size_t)parent + 1;
	uint32_t end = parent < 0 ? UINT32_MAX : b->stmts[parent].range.end;
	struct open_regions open;
	/* the phase regions open at this level, innermost last */
	const struct rule_trace_rule *phase_rule[MAX_OPEN_REGIONS];
	const char *phase[MAX_OPEN_REGIONS];
	int phase_last[MAX_OPEN_REGIONS];
	size_t nphase = 0;
	ctx_t cur;

	open.n = 0;
	for (size_t s = start; s < b->nstmts && b->stmts[s].range.start < end; s++) {
		const struct rule_trace_rule *rr = NULL;
		const ctx_t *here = open.n ? &open.ctx[open.n - 1] : ctx;
		int e;
		if (b->stmts[s].parent != parent)
			continue;
		if (to >= 0 && (int)s > to)
			break;
		if (w->have_phase_region && nphase < MAX_OPEN_REGIONS && b->stmts[s].kind != CXX_STMT_ARM &&
		    (phase_rule[nphase] = plan_phase_region(w, f, (int)s, phase_rule, nphase, &phase_last[nphase],
							    &phase[nphase])) != NULL)
			nphase++;
		if (nphase) {
			/* the statement's phase is the innermost phase region's */
			cur = *here;
			take_phase(&cur, phase[nphase - 1]);
			here = &cur;
		}
		/* a region is made of statements of a block: never an if chain's arm */
		if (w->have_region && open.n < MAX_OPEN_REGIONS && fi->point_at[s] < 0 &&
		    b->stmts[s].kind != CXX_STMT_ARM &&
		    (e = region_end(w, f, (int)s, &open, open.n ? open.last[open.n - 1] : -1, &rr)) >= 0) {
			struct cxx_range scope = { b->stmts[s].range.start, b->stmts[e].range.end };
			int after = plan_index_decl_end(w, f, (int)s, e, rr->index, rr->extra);
			int n = plan_add_point(w, PLAN_region, f, (int)s, scope, rr, rr->label, here, "",
					  after >= 0 ? after : cxx_prev_sibling(b, (int)s), cxx_next_sibling(b, e), -1);
			w->pl->nodes[n].stmt_last = e;
			if (after >= 0)
				plan_make_span(w, n, f, after, e);
			else
				plan_refuse_index_decl(w, n, f, (int)s, e);
			open.ctx[open.n] = plan_child_ctx(w, n, here);
			open.ctx[open.n].tile = here->tile;
			open.ctx[open.n].tile_fn = here->tile_fn;
			open.rule[open.n] = rr;
			open.last[open.n++] = e;
			here = &open.ctx[open.n - 1];
		}
		walk_stmt(w, f, (int)s, here);
		while (open.n && open.last[open.n - 1] == (int)s)
			open.n--;
		while (nphase && phase_last[nphase - 1] == (int)s)
			nphase--;
	}
}

static void walk_block(walker *w, struct plan_fref f, int parent, const ctx_t *ctx)
{
	walk_range(w, f, parent, -1, -1, ctx);
}

/* Is the function's body (statements first..last) one call statement that
 * reaches a function a function rule times? *callee: that function. */
static bool single_call_body(walker *w, struct plan_fref f, int first, int last, struct plan_fref *callee,
			     bool *planned)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	bool found = false;
	int one = -1;

	/* the one statement that is not a trace point */
	for (int s = first; s >= 0; s = cxx_next_sibling(b, s)) {
		if (fi->point_at[s] < 0) {
			if (one >= 0)
				return false;
			one = s;
		}
		if (s == last)
			break;
	}
	if (one < 0 || b->stmts[one].kind != CXX_STMT_EXPR)
		return false;
	first = one;
	for (int k = fi->call_first[first]; k < fi->call_first[first + 1]; k++) {
		const struct cxx_call *c = &b->calls[fi->call_order[k]];
		struct plan_fref t[PLAN_MAX_TARGETS];
		bool lam;
		size_t nt;
		if (plan_is_trace_call(c))
			continue;
		nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);
		for (size_t i = 0; i < nt; i++) {
			const struct rule_trace_rule *r = plan_decide_function(w, t[i], &f);
			if (r && r->kind == RULE_function && !r->opaque && !plan_tile_helper(w, t[i]) &&
			    (!found || *planned)) {
				*callee = t[i];
				*planned = plan_finfo(w->pl, t[i])->visited;
				found = true;
			}
		}
	}
	return found;
}

/* A function planned under one phase and reached again under another: its
 * points (there is one copy of its code) carry the first phase's name; the
 * plan says so, once per other phase. */
static void note_other_phase(walker *w, struct plan_fref t, const ctx_t *ctx, struct plan_fref caller)
{
	struct plan_finfo *fi = plan_finfo(w->pl, t);
	const char *ph = ctx->phase ? ctx->phase : plan_phase_of(w, t, &caller);
	size_t plen;
	bool labelled = false;

	if (!fi->phase || !ph || strcmp(ph, fi->phase) == 0 || ctx->tile >= 0)
		return;
	for (size_t i = 0; i < fi->nother; i++)
		if (strcmp(fi->other_phases[i], ph) == 0)
			return;
	plen = strlen(fi->phase);
	for (size_t i = 0; i < w->pl->nnodes && !labelled; i++) {
		const struct plan_node *n = &w->pl->nodes[i];
		labelled = n->unit == t.unit && n->func == t.func && n->label &&
			   (n->fate == PLAN_FATE_INSERT || n->fate == PLAN_FATE_PRESENT) &&
			   strncmp(n->label, fi->phase, plen) == 0 && (n->label[plen] == ' ' || !n->label[plen]);
	}
	if (!labelled)
		return;
	fi->other_phases = xrealloc(fi->other_phases, (fi->nother + 1) * sizeof(*fi->other_phases));
	fi->other_phases[fi->nother++] = ph;
	{
		const struct cxx_func *fn = plan_func(w->pl, t);
		const struct plan_unit *cu = &w->pl->units[caller.unit];
		plan_add_note(w, PLAN_function, PLAN_FATE_SHARED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 xasprintf("also reached in phase '%s' (from %s:%zu); its points are labelled for '%s', where it "
				   "is reached first", ph, cu->path,
				   src_file_line(cu->file, plan_func(w->pl, caller)->range.start), fi->phase));
	}
}

/* Function t reached from tile-level code (by rule r, or none): a function
 * a rule times is noted (once), and the functions a helper without a rule
 * calls are looked at the same way, so that a timed function reached
 * through helpers is noted too. */
static void note_tile_reach(walker *w, struct plan_fref t, const struct rule_trace_rule *r, const ctx_t *ctx)
{
	struct plan_finfo *fi = plan_finfo(w->pl, t);
	const struct cxx_func *fn = plan_func(w->pl, t);

	if (r && r->kind == RULE_function) {
		char *where;
		if (fi->tile_noted)
			return;
		fi->tile_noted = true;
		where = plan_tile_where(w, ctx);
		plan_add_note(w, PLAN_function, PLAN_FATE_SKIPPED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 xasprintf("called inside the tile-level loop at %s", where));
		free(where);
		return;
	}
	if ((r && r->kind == RULE_skip) || fi->tile_noted)
		return;
	fi->tile_noted = true; /* a helper: looked into once */
	for (size_t c = 0; c < fn->body.ncalls; c++) {
		struct plan_fref tt[PLAN_MAX_TARGETS];
		bool lam;
		size_t nt;
		if (plan_is_trace_call(&fn->body.calls[c]))
			continue;
		nt = plan_resolve_call(w->pl, t, &fn->body.calls[c], tt, PLAN_MAX_TARGETS, &lam);
		for (size_t k = 0; k < nt; k++)
			if (!w->pl->units[tt[k].unit].runtime && !plan_finfo(w->pl, tt[k])->visited)
				note_tile_reach(w, tt[k], plan_decide_function(w, tt[k], &t), ctx);
	}
}

/* Would `callee`, the one call of f's body, get a function point of its own
 * while other functions call it too? Then f's point goes (the callee's
 * times the same), instead of the callee's, which the others need. */
static bool shared_timed_callee(walker *w, struct plan_fref f, struct plan_fref callee)
{
	const struct plan_finfo *ci = plan_finfo(w->pl, callee);
	const struct rule_trace_rule *r;

	if (ci->ncallers < 2 || w->pl->units[callee.unit].runtime)
		return false;
	r = plan_decide_function(w, callee, &f);
	return r && r->kind == RULE_function && !r->opaque && !plan_tile_helper(w, callee);
}

/* ------------------------------------------------------------ stage sequences */

/* Does statement s of f hold a point of its own making: a loop, a branch or
 * block, a statement a hot or wrap rule takes, a call of a function a rule
 * times? (What ends a stage's set-up.) */
static bool holds_point(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct rule_trace_rule *r;
	int call;

	if (b->stmts[s].kind != CXX_STMT_EXPR && b->stmts[s].kind != CXX_STMT_RETURN)
		return true;
	if (fi->point_at[s] >= 0)
		return true;
	r = plan_decide_stmt(w, f, s, ctx, &call);
	if (r && r->kind != RULE_skip)
		return true;
	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++)
		if (plan_callee_has_point(w, f, &b->calls[fi->call_order[k]]))
			return true;
	return false;
}

/* Is statement s of f, with all it holds, free of points of its own making
 * (no loop, nothing a hot or wrap rule takes, no call of a function a rule
 * times)? Branches and blocks may be: their code is looked into. */
static bool plain_subtree(walker *w, struct plan_fref f, int s, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);

	for (size_t j = (size_t)s; j < b->nstmts && b->stmts[j].range.start < b->stmts[s].range.end; j++) {
		const struct cxx_stmt *st = &b->stmts[j];
		if (st->kind == CXX_STMT_LAMBDA || cxx_stmt_repeats(st) ||
		    (st->kind == CXX_STMT_EXPR || st->kind == CXX_STMT_RETURN ? holds_point(w, f, (int)j, ctx) : false))
			return false;
	}
	return true;
}

/* A point over statements from..to of f (siblings), labelled by `t` of rule
 * r (NULL: the parent's label and `name`), its statements walked inside it. */
static void walk_part(walker *w, struct plan_fref f, int from, int to, const struct rule_trace_rule *r,
		      const struct rule_template *t, const char *name, int call, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct cxx_range scope = { b->stmts[from].range.start, b->stmts[to].range.end };
	int n = plan_add_point(w, PLAN_region, f, from, scope, r, t, ctx, name, cxx_prev_sibling(b, from),
			       cxx_next_sibling(b, to), call);
	ctx_t sc = plan_child_ctx(w, n, ctx);

	sc.steps = NULL; /* a part (set-up, wait, finish, region) is one sub-phase */
	w->pl->nodes[n].stmt_last = to;
	if (call >= 0 && b->calls[call].stmt == to) {
		/* the call the part is named for (its last statement) is timed by it */
		ctx_t one = sc;
		one.hot_ok = false;
		if (to != from)
			walk_range(w, f, CXX_NONE, from, cxx_prev_sibling(b, to), &sc);
		walk_stmt(w, f, to, &one);
	} else {
		walk_range(w, f, CXX_NONE, from, to, &sc);
	}
}

/* Does statement s make a call that is not a trace point? */
static bool makes_call(walker *w, struct plan_fref f, int s)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	for (size_t j = (size_t)s; j < b->nstmts && b->stmts[j].range.start < b->stmts[s].range.end; j++)
		for (int k = fi->call_first[j]; k < fi->call_first[j + 1]; k++)
			if (!plan_is_trace_call(&b->calls[fi->call_order[k]]))
				return true;
	return false;
}

/* The first statement from s on (the last from s back, with `back`) that is
 * not a trace point already there, up to `bound`; or -1. (A second apply
 * meets the points of the first: they are not code.) */
static int code_stmt(walker *w, struct plan_fref f, int s, int bound, bool back)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	while (s >= 0 && fi->point_at[s] >= 0) {
		if (s == bound)
			return -1;
		s = back ? cxx_prev_sibling(b, s) : cxx_next_sibling(b, s);
	}
	return s;
}

/* After the wait for a stage's inputs, the plain statements (no point in
 * them) up to the first that holds a point are the rest of its set-up, when
 * they make a call: a point of their own ("gmm1 aic setup"), apart from the
 * wait, as experts split spin-wait from work. Returns where the walk goes on. */
static int walk_after_wait(walker *w, struct plan_fref f, int from, int last, const struct rule_trace_rule *pr,
			   const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	int end = -1;
	bool work = false;

	if (from < 0 || last < from)
		return from;
	for (int s = from; s >= 0 && s <= last; s = cxx_next_sibling(b, s)) {
		if (fi->point_at[s] >= 0 || b->stmts[s].kind != CXX_STMT_EXPR || holds_point(w, f, s, ctx))
			break;
		work |= makes_call(w, f, s);
		end = s;
	}
	if (end < 0 || end == last || !work)
		return from;
	walk_part(w, f, from, end, pr, NULL, "setup", -1, ctx);
	return cxx_next_sibling(b, end);
}

/* The body (statements first..last) of a stage timed at its call, in the
 * parts experts time: the statements before the first that holds a point,
 * when they make a call, are its set-up ("gmm1 aic setup"), or with that
 * first statement when it is a wait (a hot call) the wait for its inputs,
 * labelled as the wait; the statements after the last that holds a point,
 * when they make a call, are its finish ("gmm2 aic finish"); then what is
 * between, as usual. */
static void walk_with_setup(walker *w, struct plan_fref f, int first, int last, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);
	const struct rule_trace_rule *pr = ctx->parent >= 0 ? w->pl->nodes[ctx->parent].rule : NULL;
	int setup_end = -1, mid = -1, fin = -1, hot_call = -1, lo = code_stmt(w, f, first, last, false),
	    hi = code_stmt(w, f, last, first, true);
	const struct rule_trace_rule *hot = NULL;
	bool setup_work = false, fin_work = false;

	if (!pr || lo < 0 || hi < 0) {
		walk_range(w, f, CXX_NONE, first, last, ctx);
		return;
	}
	first = lo;
	last = hi;
	for (int s = first; s >= 0; s = cxx_next_sibling(b, s)) {
		if (fi->point_at[s] < 0) {
			if (b->stmts[s].kind != CXX_STMT_EXPR || holds_point(w, f, s, ctx)) {
				mid = s;
				break;
			}
			setup_work |= makes_call(w, f, s);
			setup_end = s;
		}
		if (s == last)
			break;
	}
	if (mid < 0) {
		walk_range(w, f, CXX_NONE, first, last, ctx);
		return;
	}
	if (b->stmts[mid].kind == CXX_STMT_EXPR) {
		const struct rule_trace_rule *r = plan_decide_stmt(w, f, mid, ctx, &hot_call);
		if (r && r->kind == RULE_hot)
			hot = r;
	}
	for (int s = last; s >= 0 && s > mid; s = cxx_prev_sibling(b, s)) {
		if (fi->point_at[s] >= 0)
			continue;
		if (!plain_subtree(w, f, s, ctx))
			break;
		fin_work |= makes_call(w, f, s);
		fin = s;
	}
	if (!fin_work)
		fin = -1;
	if (hot && setup_end >= 0) {
		/* the set-up and the wait that ends it: waiting for its inputs */
		char *name = xstrdup(b->calls[hot_call].name ? b->calls[hot_call].name : "");
		walk_part(w, f, first, mid, hot, hot->label, name, hot_call, ctx);
		free(name);
		mid = cxx_next_sibling(b, mid);
		mid = walk_after_wait(w, f, mid, fin >= 0 ? cxx_prev_sibling(b, fin) : last, pr, ctx);
	} else if (setup_end >= 0 && setup_work) {
		walk_part(w, f, first, setup_end, pr, NULL, "setup", -1, ctx);
	} else {
		mid = first;
	}
	if (mid >= 0 && (fin < 0 || mid < fin))
		walk_range(w, f, CXX_NONE, mid, fin >= 0 ? cxx_prev_sibling(b, fin) : last, ctx);
	if (fin >= 0)
		walk_part(w, f, fin, last, pr, NULL, "finish", -1, ctx);
}

enum { MAX_STAGE_CALLS = 16 };

/* The function a stage call of statement s reaches: s is a statement of
 * its own whose call reaches, first visited here, a function a function
 * rule times (not opaque, not a tile-level helper). */
static bool stage_call(walker *w, struct plan_fref f, int s, const ctx_t *ctx, struct plan_fref *callee, int *call)
{
	const struct cxx_body *b = plan_body_of(w, f);
	struct plan_finfo *fi = plan_finfo(w->pl, f);

	if (b->stmts[s].kind != CXX_STMT_EXPR || fi->point_at[s] >= 0)
		return false;
	for (int k = fi->call_first[s]; k < fi->call_first[s + 1]; k++) {
		const struct cxx_call *c = &b->calls[fi->call_order[k]];
		struct plan_fref t[PLAN_MAX_TARGETS];
		bool lam;
		size_t nt;
		if (plan_is_trace_call(c) || !plan_makes_call(w->pl, f, c))
			continue;
		nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);
		for (size_t i = 0; i < nt; i++) {
			const struct rule_trace_rule *r = plan_decide_function(w, t[i], &f);
			if (r && plan_fallback_rule(w, r) && (ctx->depth >= w->fb_depth || w->in_merge))
				continue; /* below the fallback's levels (walk_function) */
			if (r && r->kind == RULE_function && !r->opaque && !plan_tile_helper(w, t[i]) &&
			    !plan_finfo(w->pl, t[i])->visited && !w->pl->units[t[i].unit].runtime) {
				*callee = t[i];
				*call = fi->call_order[k];
				return true;
			}
		}
	}
	return false;
}

/* Are calls a and b made on two objects (mm1_.Process(), mm2_.Process())? */
static bool other_objects(const struct cxx_call *a, const struct cxx_call *b)
{
	return a->object && b->object && strcmp(a->object, b->object) != 0;
}

/* Is the body of f (statements first..last, siblings) a sequence of stages:
 * two or more stage calls (stage_call) of different functions (or of one
 * function on different objects), and besides
 * them only plain statements (no loop, branch or block, no call a rule
 * times)? Fills seq/callees/calls with the stage calls; returns their
 * number, or 0. */
static size_t stage_sequence(walker *w, struct plan_fref f, int first, int last, const ctx_t *ctx, int *seq,
			     struct plan_fref *callees, int *calls)
{
	const struct cxx_body *b = plan_body_of(w, f);
	size_t n = 0;

	for (int s = first; s >= 0; s = cxx_next_sibling(b, s)) {
		struct plan_fref callee;
		int call, other;
		if (stage_call(w, f, s, ctx, &callee, &call)) {
			/* one function twice only on two objects (mm1_.Process(); mm2_.Process();) */
			for (size_t k = 0; k < n; k++)
				if (callees[k].unit == callee.unit && callees[k].func == callee.func &&
				    !other_objects(&b->calls[calls[k]], &b->calls[call]))
					return 0;
			if (n == MAX_STAGE_CALLS)
				return 0;
			seq[n] = s;
			callees[n] = callee;
			calls[n++] = call;
		} else if (b->stmts[s].kind != CXX_STMT_EXPR ||
			   (plan_decide_stmt(w, f, s, ctx, &other) != NULL &&
			    plan_decide_stmt(w, f, s, ctx, &other)->kind != RULE_skip)) {
			return 0;
		}
		if (s == last)
			break;
	}
	return n >= 2 ? n : 0;
}

/* Do statements x and y of f lie in the same arm of every #if group of
 * several arms that holds either? The scan takes every arm of some groups
 * (per core type, per SoC): a range from one arm into the next is no code
 * any build runs. A group of one arm (`#ifdef SYNC_MODE` around a wait) is
 * code some builds run: a range may take it in (edit_points.c snaps its
 * points out of it). */
static bool same_arms(walker *w, struct plan_fref f, int x, int y)
{
	const struct cxx_outline *ol = w->pl->units[f.unit].outline;
	const struct cxx_body *b = plan_body_of(w, f);
	uint32_t px = b->stmts[x].range.start, py = b->stmts[y].range.start;

	for (size_t c = 0; c < ol->nconds; c++) {
		const struct cxx_cond *cd = &ol->conds[c];
		int ax = -1, ay = -1;
		for (size_t k = 0; k < cd->nbranches; k++) {
			struct cxx_range code = cxx_cond_branch_code(cd, k);
			if (code.start <= px && px < code.end)
				ax = (int)k;
			if (code.start <= py && py < code.end)
				ay = (int)k;
		}
		if (ax != ay && cd->nbranches > 1)
			return false;
	}
	return true;
}

/* The body of f as the sequence of its stages (stage_sequence): each stage
 * call is a sub-phase of f's caller, from the call (the first from the
 * start of the body) to the statement before the next one, labelled as the
 * stage's own point would be; the stage's function point merges into it
 * (the same work), and f gets no point of its own (the reference: each
 * call of an operator() with its own meaning has its own B/E). A stage
 * stays in the #if arm of its call (stages per core type, `#ifdef
 * __DAV_C220_CUBE__ ... #elif __DAV_C220_VEC__`): one in an arm the previous
 * stage's call is not in starts at the arm's first statement; the
 * statements of no stage are walked as the body's own. */
static void walk_stage_sequence(walker *w, struct plan_fref f, int first, int last, const int *seq,
				const struct plan_fref *callees, const int *calls, size_t n, const ctx_t *ctx)
{
	const struct cxx_body *b = plan_body_of(w, f);
	int done = -1; /* the last statement walked */

	for (size_t k = 0; k < n; k++) {
		int from = seq[k], to = seq[k], bound = k + 1 < n ? seq[k + 1] : cxx_next_sibling(b, last);
		/* back to the body's start (the first stage) or the previous stage's
		   end (a stage in another arm), forward to the next stage's call, as
		   far as the statements lie in the call's arms */
		if (k == 0 || !same_arms(w, f, seq[k - 1], seq[k]))
			while (from != first && cxx_prev_sibling(b, from) != done &&
			       same_arms(w, f, cxx_prev_sibling(b, from), seq[k]))
				from = cxx_prev_sibling(b, from);
		while (to != last && cxx_next_sibling(b, to) != bound && same_arms(w, f, cxx_next_sibling(b, to), seq[k]))
			to = cxx_next_sibling(b, to);
		for (int s = done < 0 ? first : cxx_next_sibling(b, done); s >= 0 && s != from; s = cxx_next_sibling(b, s))
			walk_stmt(w, f, s, ctx); /* between two arms' stages: no stage's */
		done = to;
		from = code_stmt(w, f, from, seq[k], false);
		to = code_stmt(w, f, to, seq[k], true);
		const struct rule_trace_rule *r = plan_decide_function(w, callees[k], &f), *wr;
		const struct cxx_func *cf = plan_func(w->pl, callees[k]);
		int wcall;
		/* a wrap rule of the operator's own that takes the stage's call names it */
		if ((wr = plan_decide_stmt(w, f, seq[k], ctx, &wcall)) != NULL && wr->kind == RULE_wrap && own_rule(w, wr))
			r = wr;
		struct cxx_range scope = { b->stmts[from].range.start, b->stmts[to].range.end };
		char *name = plan_generic_method(cf->name) ? plan_call_name_var(&b->calls[calls[k]]) : plan_func_name_var(cf);
		ctx_t lc = *ctx, sc;
		int node;
		phase_of_callee(w, &lc, callees[k], &f);
		node = plan_add_point(w, PLAN_wrap, f, from, scope, r, r->label, &lc, name, cxx_prev_sibling(b, from),
				      cxx_next_sibling(b, to), calls[k]);
		w->pl->nodes[node].stmt_last = to;
		free(name);
		sc = plan_child_ctx(w, node, ctx);
		for (int s = from; s >= 0; s = cxx_next_sibling(b, s)) {
			ctx_t one = sc;
			if (s == seq[k]) {
				one.absorb = node;
				one.setup = true;
			}
			if (s == seq[k] && r == wr)
				walk_calls_of(w, f, s, &one); /* (the wrap rule's point is the stage's) */
			else
				walk_stmt(w, f, s, &one);
			if (s == to)
				break;
		}
	}
	if (done >= 0 && done != last)
		for (int s = cxx_next_sibling(b, done); s >= 0; s = cxx_next_sibling(b, s)) {
			walk_stmt(w, f, s, ctx);
			if (s == last)
				break;
		}
}

/* Does call name `name` (unqualified) begin with the word `word`: "CombineV2"
 * with "Combine", not "Combined"? */
static bool name_begins_word(const char *name, const char *word, size_t len)
{
	char next;

	if (!name || strncmp(name, word, len) != 0)
		return false;
	next = name[len];
	return !(next >= 'a' && next <= 'z');
}

/* A stage named for two stages in turn (DispatchAndCombine), whose phase is
 * that name: the points of its body (first..last) take the first stage's
 * phase ("dispatch") up to the statement where the work changes hands, the
 * first after the first statement that calls a function named for the
 * second (CombineV2), and the second's ("combine") from there on, as experts
 * name them. False, walking nothing, when the name or the body has no such
 * hand-off. */
static bool walk_handoff(walker *w, struct plan_fref t, int first, int last, const char *phase, const ctx_t *ctx)
{
	const struct cxx_func *fn = plan_func(w->pl, t);
	const struct cxx_body *b = &fn->body;
	struct plan_finfo *fi = plan_finfo(w->pl, t);
	const char *nm = fn->name, *and = NULL, *second;
	size_t word = 0;
	char *own, *x, *y;
	int at = -1;

	for (const char *q = nm; q[0] && q[1] && q[2] && q[3]; q++)
		if (q > nm && q[0] == 'A' && q[1] == 'n' && q[2] == 'd' && q[3] >= 'A' && q[3] <= 'Z' &&
		    !(q[-1] >= 'A' && q[-1] <= 'Z')) {
			and = q;
			break;
		}
	if (!and || w->have_region) /* (a region could straddle the hand-off) */
		return false;
	second = and + 3;
	while (second[word] && !(word > 0 && ((second[word] >= 'A' && second[word] <= 'Z') || second[word] == '_')))
		word++;
	own = rule_kebab_case(nm);
	if (strcmp(own, phase) != 0) {
		free(own);
		return false;
	}
	free(own);
	for (int s = cxx_next_sibling(b, first); s >= 0 && s <= last && at < 0; s = cxx_next_sibling(b, s))
		for (size_t j = (size_t)s; j < b->nstmts && b->stmts[j].range.start < b->stmts[s].range.end && at < 0; j++)
			for (int k = fi->call_first[j]; k < fi->call_first[j + 1]; k++)
				if (name_begins_word(b->calls[fi->call_order[k]].name, second, word)) {
					at = s;
					break;
				}
	if (at < 0)
		return false;
	{
		ctx_t cx = *ctx, cy = *ctx;
		char *first_name = xstrndup(nm, (size_t)(and - nm));
		x = rule_kebab_case(first_name);
		y = rule_kebab_case(second);
		free(first_name);
		cx.phase = plan_keep_string(w, x);
		cy.phase = plan_keep_string(w, y);
		walk_range(w, t, CXX_NONE, first, cxx_prev_sibling(b, at), &cx);
		walk_range(w, t, CXX_NONE, at, last, &cy);
	}
	return true;
}

static void walk_function(walker *w, struct plan_fref t, const ctx_t *ctx, struct plan_fref caller)
{
	struct plan_finfo *fi = plan_finfo(w->pl, t);
	const struct cxx_func *fn = plan_func(w->pl, t);
	const struct rule_trace_rule *r;
	const char *phase;
	ctx_t c2;

	if (w->pl->units[t.unit].runtime)
		return;
	if (fi->visited) {
		note_other_phase(w, t, ctx, caller);
		return;
	}
	r = plan_decide_function(w, t, &caller);
	if (r && plan_fallback_rule(w, r) && r->kind == RULE_function && (ctx->depth >= w->fb_depth || w->in_merge))
		r = NULL; /* the fallback times the levels near the root, and no book-keeping */
	if (ctx->tile >= 0) {
		/* reached from tile-level code: planned where it is first reached outside it */
		note_tile_reach(w, t, r, ctx);
		if (w->have_wrap_region && !fi->tile_queued) {
			fi->tile_queued = true;
			if (w->ntile_reached == w->cap_tile_reached) {
				w->cap_tile_reached = w->cap_tile_reached ? 2 * w->cap_tile_reached : 16;
				w->tile_reached = xrealloc(w->tile_reached, w->cap_tile_reached * sizeof(*w->tile_reached));
			}
			w->tile_reached[w->ntile_reached].f = t;
			w->tile_reached[w->ntile_reached++].ctx = *ctx;
		}
		return;
	}
	if (r && r->kind == RULE_function && r->opaque) {
		/* reached where the call is not a statement of its own */
		char *where = plan_rule_where(r);
		plan_add_note(w, PLAN_function, PLAN_FATE_SKIPPED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 xasprintf("%s is opaque: only a call that is a statement of its own gets its point", where));
		free(where);
		return;
	}
	fi->visited = true;
	if (r && r->kind == RULE_function && plan_tile_helper(w, t)) {
		char *where = plan_rule_where(plan_tile_helper(w, t));
		plan_add_note(w, PLAN_function, PLAN_FATE_SKIPPED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 xasprintf("it only makes calls that %s skips", where));
		free(where);
		return;
	}
	phase = plan_phase_of(w, t, &caller);
	fi->phase = !no_phase(ctx) ? ctx->phase : phase ? phase : ctx->phase;
	c2 = *ctx;
	c2.steps = r && r->kind == RULE_function && r->steps ? r : NULL; /* (the caller's steps stay there) */
	if (r && r->kind == RULE_function && ctx->absorb >= 0 && ctx->absorb == ctx->parent) {
		/* the caller's body is this one call: its point times the same */
		plan_add_note(w, PLAN_function, PLAN_FATE_MERGED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 xasprintf("the body of its caller is this one call, timed by '%s'",
				   w->pl->nodes[ctx->absorb].label));
		if (phase && no_phase(&c2))
			take_phase(&c2, phase);
		{
			/* a chain of one-call wrappers merges whole into the outermost */
			int first, last;
			struct plan_fref next;
			bool planned;
			plan_body_span(w, t, false, &first, &last);
			if (!single_call_body(w, t, first, last, &next, &planned) || planned)
				c2.absorb = -1;
			c2.setup = false;
			if (ctx->setup && first >= 0) {
				/* a stage timed where it is called: the work before its first
				 * sub-phase is one of its own */
				walk_with_setup(w, t, first, last, &c2);
				return;
			}
		}
		if (phase && no_phase(ctx) && fn->body.nstmts) {
			/* the whole body, as walk_block walks it */
			int end = 0;
			for (int s = 0; s >= 0; s = cxx_next_sibling(&fn->body, s))
				end = s;
			if (walk_handoff(w, t, 0, end, phase, &c2))
				return;
		}
		walk_block(w, t, -1, &c2);
		return;
	}
	if (r && r->kind == RULE_skip) {
		plan_add_note(w, PLAN_function, PLAN_FATE_SKIPPED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 plan_rule_where(r));
		return;
	}
	if (r && r->kind == RULE_merge) {
		plan_add_note(w, PLAN_function, PLAN_FATE_MERGED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 plan_rule_where(r));
		w->in_merge++;
		walk_block(w, t, -1, ctx);
		w->in_merge--;
		return;
	}
	if (phase && no_phase(&c2)) {
		take_phase(&c2, phase); /* the outermost function's phase holds for all it reaches */
	} else if (!c2.phase && !fi->is_root && (!r || r->kind != RULE_transparent)) {
		/* no rule names a phase here: the first function reached does
		 * (ProcessCube: "process-cube aic ..."; a Process() its class), until
		 * a rule names one */
		/* (of a Process() or an operator(), its class's name) */
		char *own = plan_kebab_var(plan_generic_method(fn->name) ? plan_class_var(fn) : plan_func_name_var(fn));
		if (own[0] && fn->name[0] != '~' && !names_operator(w, own)) {
			c2.phase = plan_keep_string(w, plan_phase_fit(own));
			c2.phase_weak = true;
		}
		free(own);
	}
	if (r && r->kind == RULE_transparent) {
		/* as merge, but its phase holds */
		plan_add_note(w, PLAN_function, PLAN_FATE_MERGED, t, -1, fn->body_range, ctx, xstrdup(fn->qualified_name),
			 plan_rule_where(r));
		walk_block(w, t, -1, &c2);
		return;
	}
	if (r) {
		int first, last, n;
		bool span = plan_body_span(w, t, false, &first, &last);
		/* (Process, Run, ... name no work: a stage's own point goes without;
		 * where it is called, the object names it) */
		char *name = plan_generic_method(fn->name) && strcmp(fn->name, "operator()") != 0 ? xstrdup("")
												  : plan_func_name_var(fn);
		if (first < 0) {
			if (!span) { /* an empty body (`Dispatcher() {}`): nothing to time */
				free(name);
				name = xstrdup(fn->qualified_name);
			} else {
				name = plan_kebab_var(name);
			}
			plan_add_note(w, PLAN_function, PLAN_FATE_SKIPPED, t, -1, fn->body_range, ctx, name,
				 xstrdup(span ? "nothing is left to time after its leading guards" : "its body is empty"));
			walk_block(w, t, -1, ctx);
			return;
		}
		{
			int seq[MAX_STAGE_CALLS], calls[MAX_STAGE_CALLS];
			struct plan_fref callees[MAX_STAGE_CALLS];
			size_t nseq = stage_sequence(w, t, first, last, &c2, seq, callees, calls);
			if (nseq) {
				plan_add_note(w, PLAN_function, PLAN_FATE_MERGED, t, -1, fn->body_range, ctx,
					      xstrdup(fn->qualified_name),
					      xasprintf("its body is a sequence of %zu stage calls: each is timed where it is called",
							nseq));
				free(name);
				walk_stage_sequence(w, t, first, last, seq, callees, calls, nseq, &c2);
				return;
			}
		}
		{
			struct plan_fref callee;
			bool planned = false, one = single_call_body(w, t, first, last, &callee, &planned);
			ctx_t lc = c2;
			if (one && (planned || shared_timed_callee(w, t, callee))) {
				/* the callee keeps its point, which its other callers need too */
				plan_add_note(w, PLAN_function, PLAN_FATE_MERGED, t, -1, fn->body_range, ctx,
					 xstrdup(fn->qualified_name),
					 xasprintf("its body is one call of '%s', which has a point of its own (it is called "
						   "from %zu functions)", plan_func(w->pl, callee)->qualified_name,
						   plan_finfo(w->pl, callee)->ncallers));
				free(name);
				walk_block(w, t, -1, &c2);
				return;
			}
			/* B after the leading declaration of the index's variable, as a loop's */
			int after = plan_index_decl_end(w, t, first, last, r->index, r->extra);
			if (one)
				phase_of_callee(w, &lc, callee, &t); /* named for the stage it runs */
			n = plan_add_point(w, PLAN_function, t, -1, fn->body_range, r, r->label, &lc, name,
					   after >= 0 ? after : first, last, -1);
			if (after >= 0 || span)
				plan_make_span(w, n, t, after >= 0 ? after : first, last);
			if (after < 0)
				plan_refuse_index_decl(w, n, t, first, last);
			free(name);
			c2 = plan_child_ctx(w, n, &c2);
			if (one)
				c2.absorb = n;
			c2.steps = r->steps ? r : NULL;
			/* the guards before the span are outside every point */
			if (!phase || !no_phase(ctx) || !walk_handoff(w, t, first, last, phase, &c2))
				walk_range(w, t, CXX_NONE, first, last, &c2);
			return;
		}
	}
	{
		/* a helper without a point of its own whose body runs stages in
		 * turn: each is timed where it is called, as in a stage */
		int first, last, seq[MAX_STAGE_CALLS], calls[MAX_STAGE_CALLS];
		struct plan_fref callees[MAX_STAGE_CALLS];
		size_t nseq;
		plan_body_span(w, t, false, &first, &last);
		nseq = first >= 0 ? stage_sequence(w, t, first, last, &c2, seq, callees, calls) : 0;
		if (nseq) {
			walk_stage_sequence(w, t, first, last, seq, callees, calls, nseq, &c2);
			return;
		}
	}
	walk_block(w, t, -1, &c2);
}

/* ------------------------------------------------------------ rules that do nothing */

/* Is `path` (a rules file's) one of the shipped rules? */
static bool shipped_rules(const char *path)
{
	char *dir = path_absolute(rule_find_rules_dir()), *abs = path_absolute(path);
	bool yes = dir && abs && path_within(abs, dir);

	free(dir);
	free(abs);
	return yes;
}

static void add_idle(struct plan_idle_rule **list, size_t *n, const struct rule_trace_rule *r,
		     const struct rule_trace_rule *by)
{
	struct plan_idle_rule *e;

	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	e = &(*list)[(*n)++];
	e->rule = r;
	e->by = by;
	e->what = plan_rule_where(r);
	e->by_what = by ? plan_rule_where(by) : NULL;
}

/* The trace rules of the operator's own files that do nothing, silent
 * otherwise: those whose regular expressions matched nothing the walk tried
 * them on (a function the code does not have, a loop variable it does not
 * use, an `in` scope it does not have), and those that match constructs but
 * never decide one, each taken by a later rule (a rule given twice, a
 * general rule after a particular one). (The shipped policy's rules are for
 * every operator: not listed.) */
static void idle_rules(walker *w)
{
	struct plan *pl = w->pl;

	for (size_t i = 0; i < w->p->nrules; i++) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (!w->rule_own[i] || (!r->match && !r->calls))
			continue;
		if (!w->rule_hit[i])
			add_idle(&pl->unmatched, &pl->nunmatched, r, NULL);
		else if (!w->rule_won[i] && w->rule_taken_by[i] >= 0)
			add_idle(&pl->shadowed, &pl->nshadowed, r, &w->p->rules[w->rule_taken_by[i]]);
	}
}

/* ------------------------------------------------------------ density */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void density(struct plan *pl)
{
	const char **labels = xcalloc(pl->nnodes + 1, sizeof(char *));

	for (int core = 0; core < 2; core++) {
		size_t n = 0, d = 0;
		unsigned bit = core == 0 ? PLAN_CORE_AIC : PLAN_CORE_AIV;
		for (size_t i = 0; i < pl->nnodes; i++) {
			const struct plan_node *nd = &pl->nodes[i];
			if ((nd->fate == PLAN_FATE_INSERT || nd->fate == PLAN_FATE_PRESENT) && (nd->core & bit))
				labels[n++] = nd->label;
		}
		xqsort(labels, n, sizeof(*labels), cmp_str);
		for (size_t i = 0; i < n; i++)
			if (i == 0 || strcmp(labels[i], labels[i - 1]) != 0)
				d++;
		pl->density[core] = (unsigned)d;
	}
	free(labels);
}

static int cmp_unres(const void *a, const void *b)
{
	return strcmp(((const struct plan_unresolved *)a)->callee, ((const struct plan_unresolved *)b)->callee);
}

static void warn_no_root(walker *w)
{
	char *list = xstrdup("");

	for (size_t r = 0; r < w->p->nroots; r++) {
		char *re = w->p->roots[r].at ? rule_regex_text(w->p->roots[r].at) : NULL;
		char *next = xasprintf("%s%s%s", list, r ? ", " : "", re ? re : "a __global__ kernel entry");
		free(re);
		free(list);
		list = next;
	}
	diag_plain(w->diag, DIAG_WARNING, "no function of %s is a root (%s): nothing is planned", w->pl->kernel_dir,
		   list);
	free(list);
}

/* The root's point over statements of block `parent` of the root function
 * (a span after the runtime's set-up and leading guards, before its
 * teardown), then those statements; false when nothing is left. */
static bool root_point(walker *w, struct plan_fref root, int parent, const ctx_t *c0)
{
	const struct cxx_func *fn = plan_func(w->pl, root);
	struct plan_finfo *fi = plan_finfo(w->pl, root);
	int first, last, n;
	bool span = plan_block_span(w, root, parent, true, &first, &last);
	struct cxx_range scope = parent == CXX_NONE ? fn->body_range : fn->body.stmts[parent].range;
	ctx_t c;

	if (first < 0) {
		plan_add_note(w, PLAN_root, PLAN_FATE_SKIPPED, root, parent, scope, c0,
			 xstrdup(w->p->roots[fi->root_rule].label),
			 xstrdup(span ? "nothing is left to time after the runtime's set-up and the leading guards"
				      : "its body is empty"));
		return false;
	}
	n = plan_add_point(w, PLAN_root, root, -1, scope, NULL, NULL, c0, "", first, last, -1);
	if (span || parent != CXX_NONE)
		plan_make_span(w, n, root, first, last);
	c = plan_child_ctx(w, n, c0);
	/* set-up, guards and teardown are outside every point */
	walk_range(w, root, parent, first, last, &c);
	return true;
}

/* The root: its point, then its body; where the runtime is set up in blocks
 * of the body (the arms of a tiling-key chain) and not in the body itself,
 * a point in each of those blocks, after the set-up: code outside them
 * records nothing. */
static void walk_root(walker *w, struct plan_fref root)
{
	struct plan_finfo *fi = plan_finfo(w->pl, root);
	const struct cxx_func *fn = plan_func(w->pl, root);
	ctx_t c0 = { .parent = -1, .depth = 0, .phase = NULL, .phase_weak = false, .hot_ok = true, .tile = -1,
		      .tile_fn = { 0, 0 }, .absorb = -1, .steps = NULL, .setup = false };
	int blocks[16];
	size_t nb;
	bool any = false;

	fi->visited = true;
	w->root_name = fn->name;
	w->root_label = w->p->roots[fi->root_rule].label;
	c0.phase = plan_phase_of(w, root, NULL);
	nb = plan_setup_blocks(w, root, blocks, 16);
	if (nb == 0)
		any = root_point(w, root, CXX_NONE, &c0);
	for (size_t i = 0; i < nb; i++)
		any |= root_point(w, root, blocks[i], &c0);
	if (any)
		w->pl->nroots++;
}

/* The functions reached only from tile-level code, in the order first
 * reached, with the context of that call: their code is tile level too, so
 * only wrap and region rules give it points (and what they call is queued
 * in turn). */
static void walk_tile_reached(walker *w)
{
	for (size_t i = 0; i < w->ntile_reached; i++) {
		struct plan_fref t = w->tile_reached[i].f;
		struct plan_finfo *fi = plan_finfo(w->pl, t);
		ctx_t ctx = w->tile_reached[i].ctx;
		if (fi->visited)
			continue;
		fi->visited = true;
		if (!fi->phase)
			fi->phase = ctx.phase;
		walk_block(w, t, -1, &ctx);
	}
}

void plan_walk(struct plan *pl, struct diag *diag, const struct rule_policy *fallback, int fallback_depth)
{
	walker w;
	struct plan_fref *roots = NULL;
	size_t nroots;

	memset(&w, 0, sizeof(w));
	w.pl = pl;
	w.diag = diag;
	w.p = pl->policy;
	w.fb = fallback;
	w.fb_depth = fallback_depth;
	w.unres = plan_map_new();
	w.unfollowed = plan_map_new();
	w.helper = xmalloc((pl->index->nfuncs + 1) * sizeof(*w.helper));
	for (size_t i = 0; i <= pl->index->nfuncs; i++)
		w.helper[i] = PLAN_HELPER_UNKNOWN;
	for (size_t i = 0; i < w.p->nrules; i++)
		if (w.p->rules[i].kind == RULE_region)
			w.have_region = w.have_wrap_region = true;
		else if (w.p->rules[i].kind == RULE_wrap)
			w.have_wrap_region = true;
		else if (w.p->rules[i].kind == RULE_phase && w.p->rules[i].target == RULE_TARGET_region)
			w.have_phase_region = true;
	w.rule_hit = xcalloc(w.p->nrules + 1, sizeof(*w.rule_hit));
	w.rule_won = xcalloc(w.p->nrules + 1, sizeof(*w.rule_won));
	w.rule_own = xcalloc(w.p->nrules + 1, sizeof(*w.rule_own));
	w.rule_taken_by = xmalloc((w.p->nrules + 1) * sizeof(*w.rule_taken_by));
	for (size_t i = 0; i < w.p->nrules; i++) {
		const struct rule_trace_rule *r = &w.p->rules[i];
		w.rule_own[i] = r->loc.file && !shipped_rules(r->loc.file->path);
		w.rule_taken_by[i] = -1;
	}
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		if (pl->units[u].runtime)
			continue;
		for (size_t k = 0; k < ol->nunfollowed; k++) {
			const char *q = ol->unfollowed[k].qualified_name, *last = q;
			char *name;
			for (const char *s = q; *s; s++)
				if (s[0] == ':' && s[1] == ':')
					last = s + 2;
			name = xstrndup(last, strcspn(last, "<"));
			plan_map_add(w.unfollowed, name, u, (int)k);
			free(name);
		}
	}
	nroots = plan_find_roots(&w, &roots);
	plan_propagate_cores(pl, roots, nroots);
	for (size_t i = 0; i < nroots; i++) {
		struct plan_finfo *fi = plan_finfo(pl, roots[i]);
		if (fi->is_root && !fi->visited)
			walk_root(&w, roots[i]);
	}
	walk_tile_reached(&w);
	plan_adopt(&w);
	/* functions the scanner left out that a rule would instrument */
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		if (pl->units[u].runtime)
			continue;
		for (size_t k = 0; k < ol->nunfollowed; k++) {
			const struct cxx_unfollowed *uf = &ol->unfollowed[k];
			bool hit = false;
			for (size_t r = 0; r < w.p->nroots && !hit; r++)
				hit = w.p->roots[r].at && plan_re_match(&w, w.p->roots[r].at, uf->qualified_name);
			for (size_t i = w.p->nrules; i-- > 0 && !hit;) {
				const struct rule_trace_rule *r = &w.p->rules[i];
				if ((r->kind == RULE_function || r->kind == RULE_skip || r->kind == RULE_merge ||
				     r->kind == RULE_transparent) &&
				    (r->kind == RULE_function || r->target == RULE_TARGET_function) && r->match &&
				    plan_re_match(&w, r->match, uf->qualified_name)) {
					hit = r->kind == RULE_function;
					break;
				}
			}
			if (hit) {
				diag_at(diag, DIAG_ERROR, src_loc_make(pl->units[u].file, uf->name_range.start, uf->name_range.end),
					"the scanner could not follow '%s', which the rules instrument", uf->qualified_name);
				pl->errors++;
			}
		}
	}
	if (nroots == 0)
		warn_no_root(&w);
	idle_rules(&w);
	density(pl);
	xqsort(pl->unresolved, pl->nunresolved, sizeof(*pl->unresolved), cmp_unres);
	free(roots);
	free(w.last_child);
	free(w.prev_sibling);
	free(w.text);
	free(w.subj);
	free(w.helper);
	free(w.rule_hit);
	free(w.tile_reached);
	free(w.rule_won);
	free(w.rule_own);
	free(w.rule_taken_by);
	for (size_t i = 0; i < w.nkept; i++)
		free(w.kept[i]);
	free(w.kept);
	plan_map_free(w.unres);
	plan_map_free(w.unfollowed);
}
