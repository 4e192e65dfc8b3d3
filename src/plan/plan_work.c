/* Does code do a phase's work? The test a branch body passes before it gets
 * a point of its own. Set-up -- assignments, getters and initialisers, the
 * pipe's own flags, a lone copy -- is no phase: experts do not time
 * `if ASCEND_IS_AIV { tmpBlockIdx = GetBlockIdx(); }` or an Init helper's
 * core-type split; that code folds into the points around it. Work is a
 * loop, a statement a hot, wrap or region rule takes, a call of a function a
 * rule times, or a library call that no skip-call or merge rule calls thin
 * (the rules say what is thin: `merge function /(Get|Set|Init)\w*$/` is as
 * true of AscendC::GetBlockIdx as of a getter of the sources, and a merged
 * function of the sources is thin whatever it calls: an InitBuffers is
 * set-up). A call of a function of the sources without a rule, or a
 * transparent one, does work when its body does. */
#include "cxx_nav.h"
#include "plan_walk.h"

/* How deep the calls are followed; deeper is taken for work. */
enum { WORK_MAX_DEPTH = 4 };

static bool body_works(struct plan_walker *w, struct plan_fref f, int s, const struct plan_ctx *ctx, int depth);

/* Does a merge rule (for functions, in no `in` block) match `name`? */
static bool thin_name(struct plan_walker *w, const char *name)
{
	for (size_t i = 0; i < w->p->nrules; i++) {
		const struct rule_trace_rule *r = &w->p->rules[i];
		if (r->kind == RULE_merge && r->target == RULE_TARGET_function && !r->in && !r->calls && r->match &&
		    plan_re_match(w, r->match, name))
			return true;
	}
	return false;
}

static bool call_works(struct plan_walker *w, struct plan_fref f, const struct cxx_call *c, const struct plan_ctx *ctx,
		       int depth)
{
	struct plan_fref t[PLAN_MAX_TARGETS];
	bool lam;
	size_t nt;

	if (plan_is_trace_call(c) || !plan_makes_call(w->pl, f, c))
		return false;
	nt = plan_resolve_call(w->pl, f, c, t, PLAN_MAX_TARGETS, &lam);
	if (nt == 0)
		return !plan_skip_call_rule(w, c) && !(c->name && thin_name(w, c->name)) &&
		       !(c->callee && thin_name(w, c->callee));
	for (size_t k = 0; k < nt; k++) {
		const struct rule_trace_rule *r;
		if (w->pl->units[t[k].unit].runtime)
			continue;
		r = plan_decide_function(w, t[k], &f);
		if (r && (r->kind == RULE_skip || r->kind == RULE_merge))
			continue;
		if (r && r->kind == RULE_function)
			return !plan_tile_helper(w, t[k]);
		if (depth >= WORK_MAX_DEPTH || body_works(w, t[k], -1, ctx, depth + 1))
			return true;
	}
	return false;
}

/* Statement s of f with all it holds (s < 0: the whole body). */
static bool body_works(struct plan_walker *w, struct plan_fref f, int s, const struct plan_ctx *ctx, int depth)
{
	const struct cxx_body *b = plan_body_of(w, f);
	uint32_t lo = s >= 0 ? b->stmts[s].range.start : 0, hi = s >= 0 ? b->stmts[s].range.end : UINT32_MAX;
	size_t first = s >= 0 ? (size_t)s : 0;

	for (size_t j = first; j < b->nstmts && b->stmts[j].range.start < hi; j++) {
		const struct cxx_stmt *st = &b->stmts[j];
		int call;
		const struct rule_trace_rule *r;
		if (st->range.start < lo)
			continue;
		if (cxx_stmt_repeats(st))
			return true;
		if (st->kind != CXX_STMT_EXPR && st->kind != CXX_STMT_RETURN)
			continue;
		r = plan_decide_stmt(w, f, (int)j, ctx, &call);
		if (r && r->kind != RULE_skip)
			return true;
	}
	for (size_t c = 0; c < b->ncalls; c++) {
		int cs = b->calls[c].stmt;
		if (s >= 0 && (cs < 0 || b->stmts[cs].range.start < lo || b->stmts[cs].range.start >= hi))
			continue;
		if (call_works(w, f, &b->calls[c], ctx, depth))
			return true;
	}
	return false;
}

bool plan_does_work(struct plan_walker *w, struct plan_fref f, int s, const struct plan_ctx *ctx)
{
	return body_works(w, f, s, ctx, 0);
}
