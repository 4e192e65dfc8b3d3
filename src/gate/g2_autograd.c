/* G2 on bindings that return what a torch::autograd::Function returns
 * (project_autograd.h): the Function's forward() returns the profiling
 * tensor last, marks it non-differentiable and passes it to the op; each
 * return of the binding gives every value apply gives back. */
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "gate_run.h"
#include "project_autograd.h"
#include "project_tokens.h"
#include "xalloc.h"

struct seen_classes {
	const struct src_file **f;
	long *cls;
	size_t n;
};

static bool class_seen(struct seen_classes *s, const struct autograd_ref *ref)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->f[i] == ref->f && s->cls[i] == ref->cls)
			return true;
	s->f = xrealloc(s->f, (s->n + 1) * sizeof(*s->f));
	s->cls = xrealloc(s->cls, (s->n + 1) * sizeof(*s->cls));
	s->f[s->n] = ref->f;
	s->cls[s->n++] = ref->cls;
	return false;
}

/* forward() of a Function running the op: the profiling tensor returned
 * last, marked non-differentiable, passed to the op when the file is none
 * of the binding files (whose EXEC_NPU_CMD check_pybind checks). */
static void check_forward(struct project_model *p, struct gate_report *r, const struct autograd_ref *ref, bool in_pybinds)
{
	const struct pybind_autograd *ag = &ref->pb->autograds[ref->cls];
	const struct pybind_func *fn;
	struct pybind_range call, list;
	bool found;
	char *api;

	if (ag->forward < 0)
		return;
	fn = &ref->pb->funcs[ag->forward];
	g2_check_returns(p, r, ref->f, ref->pb, ag->forward);
	if (!autograd_marks(ref->f, ref->pb, ag->forward, p->profiling, &call, &list, &found))
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
			 found ? gate_loc_at(ref->f, call.start, call.end) : gate_loc_at(ref->f, fn->range.start, fn->params_range.end),
			 "ctx->mark_non_differentiable({..., profiling_data}): profiling records have no gradient",
			 "%s::forward() does not mark '%s' non-differentiable", ag->name, p->profiling);
	if (in_pybinds)
		return;
	api = xasprintf("aclnn%s", p->op->name);
	for (size_t x = 0; x < ref->pb->nexecs; x++) {
		const struct pybind_exec *ex = &ref->pb->execs[x];
		if (ex->func != ag->forward || strcmp(ex->api, api) != 0)
			continue;
		if (ex->args.n == 0 || !tv_names_profiling(ex->args.v[ex->args.n - 1], p->profiling))
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(ref->f, ex->range.start, ex->range.end),
				 "pass the profiling tensor as the last argument of EXEC_NPU_CMD",
				 "%s(%s, ...) does not pass '%s' last", ex->macro, ex->api, p->profiling);
	}
	free(api);
}

static bool in_binding_files(const struct project_model *p, const struct src_file *f)
{
	for (size_t b = 0; b < p->npybinds; b++)
		if (p->pybinds[b].f == f)
			return true;
	return false;
}

/* Mode B, a binding returning what an autograd Function returns
 * (project_autograd.h): each return passes the result of apply on, whole or
 * its values in order, as many as the op's outputs; the Function's forward()
 * as check_forward says. */
void g2_check_autograd(struct project_model *p, struct gate_report *r)
{
	struct autograd_cache cache = { NULL, NULL, 0 };
	struct seen_classes seen = { NULL, NULL, 0 };

	if (!p->op || p->prof_out < 0 || !p->required)
		return;
	for (size_t b = 0; b < p->npybinds; b++) {
		const struct src_file *f = p->pybinds[b].f;
		const struct pybind_file *pb = &p->pybinds[b].pb;
		for (size_t k = 0; k < pb->nfuncs; k++) {
			const struct pybind_func *pf = &pb->funcs[k];
			size_t from = 0;
			long a;
			struct autograd_ref ref;
			if (!project_is_bind_func(p, pf->name) || pybind_autograd_of_func(pb, (long)k) >= 0 ||
			    (a = pybind_apply_next(pb, (long)k, &from)) < 0)
				continue;
			if (!project_autograd_find(p, f, pb, pb->applies[a].cls, &cache, &ref)) {
				g2_check_returns(p, r, f, pb, (long)k);
				continue;
			}
			if (!class_seen(&seen, &ref))
				check_forward(p, r, &ref, in_binding_files(p, ref.f));
			for (size_t i = 0; i < pb->nreturns; i++) {
				const struct pybind_return *ret = &pb->returns[i];
				struct autograd_return_form form;
				if (ret->func != (long)k)
					continue;
				autograd_return_of(pb, (long)k, ret, pb->applies[a].cls, &form);
				if (form.kind == AUTOGRAD_RETURN_INDEXED && form.n != p->op->noutputs)
					gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, ret->range.start, ret->range.end),
						 "mode B: return every value apply gives, profiling_data last",
						 "%s() returns %zu of the values %s::apply gives, but '%s' has %zu outputs (mode B returns "
						 "'%s' too)", pf->name, form.n, pb->applies[a].cls, p->op->name, p->op->noutputs,
						 p->profiling);
				else if (form.kind == AUTOGRAD_RETURN_OTHER)
					g2_check_returns(p, r, f, pb, (long)k);
				autograd_return_form_release(&form);
				if (form.kind == AUTOGRAD_RETURN_OTHER)
					break;
			}
			if (pf->tuple_arity >= 0 && pf->tuple_arity != (long)p->op->noutputs)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, pf->return_type.start, pf->return_type.end),
					 "give the std::tuple one at::Tensor per output, profiling_data last",
					 "%s() is declared to return %ld values, but '%s' has %zu outputs", pf->name, pf->tuple_arity,
					 p->op->name, p->op->noutputs);
		}
	}
	/* a Function of the binding files running the op that no binding applies */
	for (size_t b = 0; b < p->npybinds; b++)
		for (size_t c = 0; c < p->pybinds[b].pb.nautograds; c++) {
			struct autograd_ref ref = { p->pybinds[b].f, &p->pybinds[b].pb, (long)c };
			long fwd = ref.pb->autograds[c].forward;
			if (fwd >= 0 && project_is_bind_func(p, ref.pb->funcs[fwd].name) && !class_seen(&seen, &ref))
				check_forward(p, r, &ref, true);
		}
	free(seen.f);
	free(seen.cls);
	autograd_cache_release(&cache);
}
