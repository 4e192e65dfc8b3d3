/* The roots of a plan and the core types of its functions (pass 1 of the
 * planner). A root is a function a root rule names: by default the kernel
 * entry (`__global__`), else those matching `root ... at function /RE/`; a
 * root reached from another root is an ordinary function. Core types flow
 * down the call graph to a fixpoint: a function reached from an AIC-only and
 * an AIV-only path runs on both. Each function reached learns its callers. */
#include <stdlib.h>
#include <string.h>

#include "plan_walk.h"
#include "xalloc.h"

/* The root rule that makes fn a root (the first that matches), or -1. */
static int root_rule(struct plan_walker *w, const struct cxx_func *fn)
{
	for (size_t r = 0; r < w->p->nroots; r++) {
		const struct rule_root *rr = &w->p->roots[r];
		if (rr->at ? plan_re_match(w, rr->at, fn->qualified_name) : fn->kernel)
			return (int)r;
	}
	return -1;
}

size_t plan_find_roots(struct plan_walker *w, struct plan_fref **roots)
{
	struct plan *pl = w->pl;
	size_t n = 0, cap = 0;

	*roots = NULL;
	for (size_t u = 0; u < pl->nunits; u++) {
		const struct cxx_outline *ol = pl->units[u].outline;
		if (pl->units[u].runtime || plan_is_skip_file(w, u))
			continue;
		for (size_t k = 0; k < ol->nfuncs; k++) {
			struct plan_fref f = { u, (int)k };
			int rr = ol->funcs[k].def == CXX_DEF_BODY ? root_rule(w, &ol->funcs[k]) : -1;
			if (rr < 0)
				continue;
			XGROW(*roots, cap, n + 1);
			(*roots)[n++] = f;
			plan_finfo(pl, f)->is_root = true;
			plan_finfo(pl, f)->root_rule = rr;
		}
	}
	return n;
}

/* f calls the function of ti (each caller once). */
static void add_caller(struct plan_finfo *ti, struct plan_fref f)
{
	for (size_t i = 0; i < ti->ncallers; i++)
		if (ti->callers[i].unit == f.unit && ti->callers[i].func == f.func)
			return;
	XGROW(ti->callers, ti->callers_cap, ti->ncallers + 1);
	ti->callers[ti->ncallers++] = f;
}

void plan_propagate_cores(struct plan *pl, const struct plan_fref *roots, size_t nroots)
{
	size_t cap = pl->index->nfuncs + 1, n = 0;
	struct plan_fref *work = xmalloc(cap * sizeof(*work));
	bool *queued = xcalloc(cap, sizeof(bool));
	struct plan_fref t[PLAN_MAX_TARGETS];

	for (size_t i = 0; i < nroots; i++) {
		struct plan_finfo *fi = plan_finfo(pl, roots[i]);
		fi->mask = fi->own;
		fi->reached = true;
		work[n++] = roots[i];
		queued[plan_fid(pl, roots[i])] = true;
	}
	while (n > 0) {
		struct plan_fref f = work[--n];
		struct plan_finfo *fi = plan_finfo(pl, f);
		const struct cxx_body *b = &plan_func(pl, f)->body;
		queued[plan_fid(pl, f)] = false;
		if (pl->units[f.unit].runtime)
			continue;
		for (size_t ci = 0; ci < b->ncalls; ci++) {
			const struct cxx_call *c = &b->calls[ci];
			unsigned m = fi->mask & (c->stmt >= 0 ? fi->restr[c->stmt] : fi->own);
			bool lam;
			size_t nt = plan_resolve_call(pl, f, c, t, PLAN_MAX_TARGETS, &lam);
			size_t mu;
			int mi;
			if (nt == 0 && c->name && !c->object && plan_find_macro(pl, c->name, &mu, &mi)) {
				/* the calls in a macro's body count as calls of the statement */
				const struct cxx_body *mb = &pl->units[mu].outline->macros[mi].body;
				for (size_t k = 0; k < mb->ncalls && nt < PLAN_MAX_TARGETS; k++) {
					bool l2;
					nt += plan_resolve_macro_call(pl, f, c, mu, mi, &mb->calls[k], t + nt,
								      PLAN_MAX_TARGETS - nt, &l2);
				}
			}
			for (size_t k = 0; k < nt; k++) {
				struct plan_finfo *ti = plan_finfo(pl, t[k]);
				unsigned nm = ti->mask | (m & ti->own);
				size_t id = plan_fid(pl, t[k]);
				add_caller(ti, f);
				if (nm != ti->mask || !ti->reached) {
					ti->mask = nm;
					ti->reached = true;
					if (!queued[id]) {
						if (n == cap) {
							cap *= 2;
							work = xrealloc(work, cap * sizeof(*work));
						}
						work[n++] = t[k];
						queued[id] = true;
					}
				}
				if (ti->is_root && !(t[k].unit == f.unit && t[k].func == f.func))
					ti->is_root = false; /* reached from another root: an ordinary function */
			}
		}
	}
	free(queued);
	free(work);
}
