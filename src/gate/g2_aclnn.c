/* G2 on the aclnn API: every hand-written aclnn<Op>GetWorkspaceSize
 * declaration and definition takes the profiling tensor after the outputs,
 * and the forwarding call to aclnnInner passes it where the callee takes it. */
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "gate_run.h"
#include "project_aclnn_gen.h"
#include "project_tokens.h"
#include "xalloc.h"

/* The aclnn function of the op: aclnn<Op>GetWorkspaceSize or the Inner one. */
static bool aclnn_of(const char *fn, const char *op)
{
	size_t lo = strlen(op);

	if (strncmp(fn, "aclnn", 5) != 0)
		return false;
	fn += 5;
	if (strncmp(fn, "Inner", 5) == 0 && strncmp(fn + 5, op, lo) == 0 && strcmp(fn + 5 + lo, "GetWorkspaceSize") == 0)
		return true;
	return strncmp(fn, op, lo) == 0 && strcmp(fn + lo, "GetWorkspaceSize") == 0;
}

/* aclnnFooProfilingGetWorkspaceSize, aclnnFoo_with_profiling... */
static bool aclnn_profiling_api(const char *name)
{
	size_t n = strlen(name);
	char *base;
	bool yes;

	if (n > 16 && strcmp(name + n - 16, "GetWorkspaceSize") == 0)
		n -= 16;
	base = xstrndup(name, n);
	yes = project_profiling_suffix(base);
	free(base);
	return yes;
}


/* The declaration or definition of aclnn function `name` in the files read. */
static const struct aclnn_func *aclnn_find(const struct project_model *p, const char *name)
{
	const struct aclnn_func *def = NULL;

	for (size_t a = 0; a < p->naclnns; a++)
		for (size_t i = 0; i < p->aclnns[a].ac.nfuncs; i++)
			if (strcmp(p->aclnns[a].ac.funcs[i].name, name) == 0) {
				if (!p->aclnns[a].ac.funcs[i].definition)
					return &p->aclnns[a].ac.funcs[i];
				def = &p->aclnns[a].ac.funcs[i];
			}
	return def;
}

/* A forwarding call of aclnnInner<Op>GetWorkspaceSize that no file declares:
 * the declaration the build generates from the OpDef (inputs, attributes,
 * outputs with the profiling output last, workspaceSize, executor) decides. */
static void check_generated_inner(struct project_model *p, struct gate_report *r, const struct src_file *f,
				  const struct aclnn_func *fn, const struct aclnn_call *call)
{
	struct aclnn_gen g;
	struct aclnn_gen_match m;

	aclnn_gen_inner(p->op, p->profiling, &g);
	aclnn_gen_match(&g, fn, call, p->profiling, &m);
	if (!m.ok) {
		struct aclnn_range at = m.bad_arg < call->nargs ? call->arg_ranges[m.bad_arg] : call->range;
		gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, at.start, at.end),
			 "pass the arguments in the order the build generates from the OpDef: inputs, attributes, outputs, "
			 "profiling_data, workspaceSize, executor", "%s (no declaration of %s is in sight)", m.why,
			 call->callee);
	} else if (!m.has_prof) {
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, call->range.start, call->range.end),
			 "pass the profiling tensor after the last output, before workspaceSize",
			 "%s does not pass '%s' to %s, whose generated declaration takes it as parameter %zu", fn->name,
			 p->profiling, call->callee, m.prof_at + 1);
	} else if (p->required && tv_is_null_text(call->args[m.prof_at])) {
		gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR,
			 gate_loc_at(f, call->arg_ranges[m.prof_at].start, call->arg_ranges[m.prof_at].end),
			 "pass the profiling tensor; switch recording off with ENABLE_MOE_PROFILING 0 and a rebuild",
			 "%s passes %s for the REQUIRED output '%s'", fn->name, call->args[m.prof_at], p->profiling);
	}
	aclnn_gen_match_release(&m);
	aclnn_gen_release(&g);
}

void g2_check_aclnn(struct project_model *p, struct gate_report *r)
{
	const struct opdef_op *op = p->op;
	long want;

	if (!op || p->prof_out < 0)
		return;
	want = (long)op->ninputs + p->prof_out;
	if (p->naclnns == 0)
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_NOTE, gate_loc_path(NULL, 0, 0), NULL,
			 "no hand-written aclnn%sGetWorkspaceSize (looked for %s): the generated aclnn API follows the OpDef",
			 op->name, project_searched_text(p).s);
	for (size_t a = 0; a < p->naclnns; a++) {
		const struct src_file *f = p->aclnns[a].f;
		const struct aclnn_file *ac = &p->aclnns[a].ac;
		for (size_t i = 0; i < ac->nfuncs; i++) {
			const struct aclnn_func *fn = &ac->funcs[i];
			long at, ti;
			size_t ntensors;
			if (aclnn_profiling_api(fn->name)) {
				gate_add(r, GATE_RULE_G2_NAME, DIAG_ERROR,
					 gate_loc_at(f, fn->name_range.start, fn->name_range.end),
					 "keep the original aclnn API and add the profiling tensor to it",
					 "'%s' looks like a second aclnn API for profiling", fn->name);
				continue;
			}
			if (!aclnn_of(fn->name, op->name))
				continue;
			at = g2_aclnn_prof_param(fn, p->profiling);
			if (at < 0) {
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
					 gate_loc_at(f, fn->params_range.start, fn->params_range.end),
					 "add 'aclTensor *profilingData' after the last output, before workspaceSize",
					 "%s has no '%s' parameter", fn->name, p->profiling);
				continue;
			}
			ti = aclnn_tensor_index(fn, (size_t)at);
			for (size_t k = (size_t)at + 1; k < fn->nparams; k++)
				if (fn->params[k].tensor) {
					gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR,
						 gate_loc_at(f, fn->params[at].range.start, fn->params[at].range.end), g2_fix_last,
						 "'%s' is not the last tensor parameter of %s: '%s' follows it",
						 fn->params[at].name, fn->name, fn->params[k].name ? fn->params[k].name : "?");
					break;
				}
			/* a hand-written API whose tensors are not the OpDef's (optional
			   inputs left out, lists, extra tensors) is compared by 'last' alone */
			ntensors = 0;
			for (size_t k = 0; k < fn->nparams; k++)
				ntensors += fn->params[k].tensor;
			if (ti >= 0 && ti != want && ntensors == op->ninputs + op->noutputs)
				g2_relate_opdef(gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
							 gate_loc_at(f, fn->params[at].range.start, fn->params[at].range.end),
							 "order the aclnn tensors as the OpDef: inputs, outputs, profiling_data",
							 "'%s' is tensor %ld of %s, but the OpDef puts '%s' at %ld", fn->params[at].name,
							 ti + 1, fn->name, p->profiling, want + 1),
						p);
			/* the forwarding call of a definition: where the callee takes it, as many arguments */
			for (size_t c = 0; c < fn->ncalls; c++) {
				const struct aclnn_call *call = &fn->calls[c];
				const struct aclnn_func *callee = aclnn_find(p, call->callee);
				long k = callee ? g2_aclnn_prof_param(callee, p->profiling) : at;
				if (!callee && aclnn_gen_is_inner(call->callee, op->name)) {
					check_generated_inner(p, r, f, fn, call);
					continue;
				}
				if (callee && call->nargs != callee->nparams) {
					gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, call->range.start, call->range.end),
						 "pass one argument per parameter of the callee, the profiling tensor included",
						 "%s passes %zu arguments to %s, which takes %zu", fn->name, call->nargs, call->callee,
						 callee->nparams);
					continue;
				}
				if (k < 0 || (size_t)k >= call->nargs)
					continue;
				if (p->required && tv_is_null_text(call->args[k]))
					gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR,
						 gate_loc_at(f, call->arg_ranges[k].start, call->arg_ranges[k].end),
						 "pass the profiling tensor; switch recording off with ENABLE_MOE_PROFILING 0 and a rebuild",
						 "%s passes %s for the REQUIRED output '%s'", fn->name, call->args[k], p->profiling);
				else if (!tv_names_profiling(call->args[k], p->profiling) && !tv_is_null_text(call->args[k]))
					gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
						 gate_loc_at(f, call->arg_ranges[k].start, call->arg_ranges[k].end),
						 "forward the arguments in the order of the parameters",
						 "%s forwards '%s' where %s expects '%s'", fn->name, call->args[k], call->callee,
						 callee ? callee->params[k].name : fn->params[k].name);
			}
		}
	}
}
