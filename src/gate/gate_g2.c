/* G2: the profiling output is the last tensor output, in the same position,
 * in every layer (OpDef, infer, kernel __global__, kernel class Init, aclnn,
 * EXEC_NPU_CMD and the returned tuple); REQUIRED/OPTIONAL as the rules' mode
 * says; never a nullptr / c10::nullopt for a REQUIRED output; no second op
 * named *_profiling; infer sets its shape and dtype unconditionally. */
#include <stdlib.h>
#include <string.h>

#include "gate_run.h"
#include "project_aclnn_gen.h"
#include "project_autograd.h"
#include "project_tokens.h"
#include "xalloc.h"

static const char *fix_last =
	"make it the last output: inputs 1..N, outputs 1..M, then profiling_data (workspace and tiling may follow in the kernel)";

static bool is_null_text(const char *s)
{
	return strcmp(s, "nullptr") == 0 || strcmp(s, "NULL") == 0 || strstr(s, "nullopt") != NULL ||
	       strcmp(s, "at::Tensor()") == 0 || strcmp(s, "{}") == 0;
}

static bool workspace_like(const char *name)
{
	char *k;
	bool yes;

	if (!name)
		return false;
	k = tv_name_key(name);
	yes = strstr(k, "workspace") || strstr(k, "tiling");
	free(k);
	return yes;
}

/* ---- OpDef ---- */

static void check_opdef(struct project_model *p, struct gate_report *r)
{
	bool any = false;

	for (size_t h = 0; h < p->nhosts; h++) {
		const struct src_file *f = p->hosts[h].f;
		for (size_t o = 0; o < p->hosts[h].od.nops; o++) {
			const struct opdef_op *op = &p->hosts[h].od.ops[o];
			long prof = -1, k = 0, nout_after = 0;
			if (op->name[0] && project_profiling_suffix(op->name)) {
				struct opdef_range at = op->class_name.end > op->class_name.start ? op->class_name : op->op_add;
				gate_add(r, GATE_RULE_G2_NAME, DIAG_ERROR, gate_loc_at(f, at.start, at.end),
					 "keep one operator: add the profiling output to the original op under its own name",
					 "'%s' looks like a second operator for profiling; profiling is an extra output of the same op",
					 op->name);
			}
			if (op->nparams == 0)
				continue;
			any = true;
			for (size_t i = 0; i < op->nparams; i++) {
				const struct opdef_param *q = &op->params[i];
				if (!tv_names_profiling(q->name, p->profiling))
					continue;
				if (!q->output) {
					gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
						 gate_loc_at(f, q->chain.start, q->chain.start + 10), "declare it with this->Output(...)",
						 "'%s' is declared as an input of '%s'; it must be an output", q->name, op->name);
					continue;
				}
				prof = (long)i;
			}
			if (prof < 0) {
				uint32_t at = op->last_output >= 0 ? op->params[op->last_output].chain.start : op->body.start;
				uint32_t end = op->last_output >= 0 ? op->params[op->last_output].chain.end : op->body.start + 1;
				if (op->noutputs == 0 && op->body.end == 0) {
					at = op->params[0].chain.start;
					end = op->params[0].chain.end;
				}
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, at, end),
					 "after the last Output chain add: this->Output(\"profiling_data\").ParamType(REQUIRED)"
					 ".DataType({ge::DT_INT64}).Format({ge::FORMAT_ND});",
					 "the OpDef of '%s' has no output '%s'", op->name, p->profiling);
				continue;
			}
			for (size_t i = (size_t)prof + 1; i < op->nparams; i++)
				if (op->params[i].output) {
					if (nout_after++ == 0) {
						const struct opdef_param *q = &op->params[prof];
						gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR,
							 gate_loc_at(f, q->name_lit.start, q->name_lit.end), fix_last,
							 "'%s' is not the last output of '%s': '%s' follows it (line %zu)", q->name,
							 op->name, op->params[i].name, src_file_line(f, op->params[i].chain.start));
					}
				}
			for (size_t i = 0; i < (size_t)prof; i++)
				if (op->params[i].output)
					k++;
			{
				const struct opdef_param *q = &op->params[prof];
				enum opdef_param_type want = p->required ? OPDEF_REQUIRED : OPDEF_OPTIONAL;
				if (q->type != want)
					gate_add(r, GATE_RULE_G2_MODE, DIAG_ERROR,
						 q->type == OPDEF_UNSET ? gate_loc_at(f, q->name_lit.start, q->name_lit.end)
									: gate_loc_at(f, q->type_arg.start, q->type_arg.end),
						 p->required ? "use .ParamType(REQUIRED), or say 'profiling \"...\" optional;' in the rules (mode A)"
							     : "use .ParamType(OPTIONAL), or say 'profiling \"...\" required;' in the rules (mode B)",
						 "'%s' is %s, but the rules say %s (mode %s)", q->name,
						 q->type == OPDEF_UNSET ? "without a ParamType" : opdef_param_type_name(q->type),
						 p->required ? "required" : "optional", p->required ? "B" : "A");
				for (size_t d = 0; d < q->ndtypes; d++)
					if (!strstr(q->dtypes[d], "DT_INT64")) {
						gate_add(r, GATE_RULE_G2_DTYPE, DIAG_ERROR,
							 gate_loc_at(f, q->chain.start, q->chain.end),
							 "use .DataType({ge::DT_INT64})", "'%s' has data type %s; profiling records are int64",
							 q->name, q->dtypes[d]);
						break;
					}
			}
		}
	}
	if (!any)
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR, gate_loc_path(NULL, 0, 0),
			 "point the rules' 'host' patterns at the op_host OpDef sources",
			 "no OpDef (this->Input/Output chains) in the files matching %s",
			 project_globs_text(&p->policy->host).s);
}

/* ---- infer ---- */

static bool names_prof_const(const char *text)
{
	char *k = tv_name_key(text);
	bool yes = strstr(k, "prof") != NULL;

	free(k);
	return yes;
}

static void check_infer(struct project_model *p, struct gate_report *r)
{
	const struct opdef_op *op = p->op;
	long want = p->prof_out;
	bool shape = false, dtype = false, any = false, misplaced = false;

	if (!op || want < 0)
		return;
	if (p->ninfers == 0) {
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR, gate_loc_path(NULL, 0, 0),
			 "point the rules' 'infer' patterns at the InferShape / InferDataType source",
			 "no infer source matches %s", project_globs_text(&p->policy->infer).s);
		return;
	}
	for (size_t i = 0; i < p->ninfers; i++) {
		const struct src_file *f = p->infers[i].f;
		const struct infer_file *inf = &p->infers[i].inf;
		const struct infer_impl *impl = NULL;
		bool named = false;
		for (size_t m = 0; m < inf->nimpls; m++)
			if (strcmp(inf->impls[m].op, op->name) == 0)
				impl = &inf->impls[m];
		/* a constant named for profiling says which index infer means */
		for (size_t u = 0; u < inf->nuses; u++)
			if (infer_impl_has(impl, inf->uses[u].func) && names_prof_const(inf->uses[u].index_text))
				named = true;
		for (size_t u = 0; u < inf->nuses; u++) {
			const struct infer_use *use = &inf->uses[u];
			const char *what = use->kind == INFER_SHAPE ? "GetOutputShape" : "SetOutputDataType";
			if (!infer_impl_has(impl, use->func))
				continue;
			any = true;
			if (use->index >= (long)op->noutputs) {
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, use->index_arg.start, use->index_arg.end),
					 "index the outputs as the OpDef declares them",
					 "%s(%s) is output %ld, but the OpDef of '%s' has %zu outputs", what, use->index_text,
					 use->index, op->name, op->noutputs);
				continue;
			}
			if (use->index >= 0 && use->index != want && names_prof_const(use->index_text)) {
				misplaced = true;
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, use->index_arg.start, use->index_arg.end),
					 "give the constant the position of the profiling output in the OpDef",
					 "%s is %ld, but '%s' is output %ld of '%s'", use->index_text, use->index,
					 p->profiling, want, op->name);
				continue;
			}
			if (use->index != want || (named && !names_prof_const(use->index_text)))
				continue;
			if (use->kind == INFER_SHAPE) {
				bool set = false, cond_only = true;
				const struct infer_dim *cond_dim = NULL;
				shape = true;
				if (use->conditional)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "set the profiling shape on every path, like the main outputs'",
						 "the shape of '%s' is taken inside a condition in %s()", p->profiling,
						 use->func);
				for (size_t d = 0; use->var && d < inf->ndims; d++) {
					const struct infer_dim *dim = &inf->dims[d];
					if (strcmp(dim->var, use->var) != 0 || strcmp(dim->func, use->func) != 0)
						continue;
					if (dim->is_num) {
						if (dim->has_value && dim->value != 1)
							gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
								 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
								 "use SetDimNum(1): one int64 vector of all slots",
								 "'%s' has %lld dimensions; the profiling tensor is 1-D", p->profiling,
								 (long long)dim->value);
						continue;
					}
					if (dim->dim > 0)
						continue;
					set = true;
					if (!dim->conditional)
						cond_only = false;
					else if (!cond_dim)
						cond_dim = dim;
					if (dim->runtime_call)
						gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
							 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
							 "size it from a named upper bound: MAX_INFER_GETBLOCKNUM_UB * SLOTS_PER_GROUP * PROF_SIZE_PER_CORE",
							 "the size of '%s' is computed at run time (%s): infer cannot know the core count, "
							 "size it from an upper bound", p->profiling, dim->runtime_call);
					else if (dim->literal)
						gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
							 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
							 "name the bound: constexpr int64_t MAX_INFER_GETBLOCKNUM_UB = 128; and use it",
							 "the size of '%s' hard-codes %s (a core count?): use a named upper bound",
							 p->profiling, dim->literal);
					else if (!dim->named)
						gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR,
							 gate_loc_at(f, dim->expr_range.start, dim->expr_range.end),
							 "size it from named constants: MAX_INFER_GETBLOCKNUM_UB * SLOTS_PER_GROUP * PROF_SIZE_PER_CORE",
							 "the size of '%s' (%s) is not built from named bounds", p->profiling,
							 dim->expr);
				}
				if (!set)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "set it: SetDimNum(1); SetDim(0, MAX_INFER_GETBLOCKNUM_UB * SLOTS * PROF_SIZE_PER_CORE);",
						 "the shape of '%s' is taken but its size is never set", p->profiling);
				else if (cond_only && !use->conditional)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, cond_dim->call.start, cond_dim->call.end),
						 "set the profiling shape on every path, like the main outputs'",
						 "the size of '%s' is set only inside a condition", p->profiling);
			} else {
				dtype = true;
				if (use->conditional)
					gate_add(r, GATE_RULE_G2_INFER, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "set the profiling data type on every path",
						 "the data type of '%s' is set inside a condition in %s()", p->profiling,
						 use->func);
				if (use->dtype && !strstr(use->dtype, "DT_INT64"))
					gate_add(r, GATE_RULE_G2_DTYPE, DIAG_ERROR, gate_loc_at(f, use->call.start, use->call.end),
						 "use ge::DT_INT64", "the data type of '%s' is set to %s; profiling records are int64",
						 p->profiling, use->dtype);
			}
		}
	}
	if (!any) {
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR, gate_loc_path(p->infers[0].f->path, 0, 0),
			 "point the rules' 'infer' patterns at the InferShape / InferDataType source",
			 "no GetOutputShape / SetOutputDataType in the infer sources of '%s'", op->name);
		return;
	}
	if (misplaced)
		return;
	if (!shape)
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_path(p->infers[0].f->path, 0, 0),
			 "in InferShape: GetOutputShape(OUTPUT_PROFILING_DATA)->SetDimNum(1) and SetDim(0, <named bound>)",
			 "InferShape never sets the shape of '%s' (output %ld)", p->profiling, want);
	if (!dtype)
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_path(p->infers[0].f->path, 0, 0),
			 "in InferDataType: SetOutputDataType(OUTPUT_PROFILING_DATA, ge::DT_INT64)",
			 "InferDataType never sets the data type of '%s' (output %ld)", p->profiling, want);
}

/* ---- kernel entry and Init ---- */

/* After the profiling parameter, only the workspace and tiling may follow
 * among the GM tensors; a tiling pointer, a pipe or a flag is not a tensor
 * output, whatever its name. */
static const struct project_kparam *gm_after(const struct project_kparam *v, size_t n, size_t at)
{
	for (size_t i = at + 1; i < n; i++)
		if (project_kparam_is_gm(&v[i]) && !workspace_like(v[i].name))
			return &v[i];
	return NULL;
}

static long kparam_prof(const struct project_model *p, const struct project_kparam *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tv_names_profiling(v[i].name, p->profiling))
			return (long)i;
	return -1;
}

/* An Init definition or declaration: the profiling parameter where its calls pass it. */
static void check_init_func(struct project_model *p, struct gate_report *r, const struct project_kfunc *fn, long pos,
			    const struct project_kcall *call)
{
	long named = kparam_prof(p, fn->params, fn->nparams);
	const char *what = fn->decl ? "the declaration of" : "";
	const struct project_kparam *next;

	if (named < 0) {
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(fn->file, fn->params_start, fn->params_end),
			 "add 'GM_ADDR profilingData' where the Init calls pass it (run autotrace wire)",
			 "%s%s%s has no profiling parameter, but the call at %s:%zu passes one as argument %ld", what,
			 *what ? " " : "", fn->qualified, call->file->path, src_file_line(call->file, call->start), pos + 1);
		return;
	}
	if (named != pos)
		gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
			 gate_loc_at(fn->file, fn->params[named].start, fn->params[named].end),
			 "order Init's parameters as its calls pass the arguments",
			 "'%s' is parameter %ld of %s%s%s, but the call at %s:%zu passes it as argument %ld",
			 fn->params[named].name, named + 1, what, *what ? " " : "", fn->qualified, call->file->path,
			 src_file_line(call->file, call->start), pos + 1);
	else if ((next = gm_after(fn->params, fn->nparams, (size_t)named)) != NULL)
		gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(fn->file, fn->params[named].start, fn->params[named].end),
			 fix_last, "'%s' is not the last tensor parameter of %s%s%s: the GM tensor '%s' follows it",
			 fn->params[named].name, what, *what ? " " : "", fn->qualified, next->name ? next->name : "?");
}

static void check_kernel(struct project_model *p, struct gate_report *r)
{
	const struct opdef_op *op = p->op;
	long want;
	char *snake;

	if (!op || p->prof_out < 0)
		return;
	want = (long)op->ninputs + p->prof_out;
	if (!p->kernels_read || p->kernels.n == 0) {
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR,
			 gate_loc_path(p->kernel_root ? p->kernel_root : p->opts->opdir, 0, 0),
			 "point the rules' 'kernel' directory at the device sources",
			 "no __global__ kernel found under %s", p->kernel_root ? p->kernel_root : "(no kernel directory)");
		return;
	}
	snake = project_snake(op->name);
	for (size_t k = 0; k < p->kernels.n; k++) {
		const struct project_kentry *e = &p->kernels.v[k];
		const struct src_file *f = e->file;
		const struct project_kparam *next;
		long at;
		if (p->kernels.n > 1 && strcmp(e->name, snake) != 0)
			continue;
		at = kparam_prof(p, e->params, e->nparams);
		if (at < 0) {
			char *c = project_camel(p->profiling);
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, e->params_start, e->params_end),
				 "add 'GM_ADDR profilingData' after the last output parameter, before workspace and tiling",
				 "the kernel '%s' has no '%s' parameter", e->name, c);
			free(c);
			continue;
		}
		if ((next = gm_after(e->params, e->nparams, (size_t)at)) != NULL)
			gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(f, e->params[at].start, e->params[at].end),
				 fix_last, "'%s' is not the last tensor parameter of the kernel '%s': the GM tensor '%s' follows it",
				 e->params[at].name, e->name, next->name ? next->name : "?");
		if (at != want)
			gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, e->params[at].start, e->params[at].end),
				 "order the kernel parameters as the OpDef: inputs, outputs, profiling_data, workspace, tiling",
				 "'%s' is parameter %ld of the kernel '%s', but the OpDef puts '%s' at %ld (%zu inputs, output %ld)",
				 e->params[at].name, at + 1, e->name, p->profiling, want + 1, op->ninputs, p->prof_out + 1);
		/* every Init call, in every branch, and the definition and declaration it reaches */
		for (size_t c = 0; c < e->ncalls; c++) {
			const struct project_kcall *call = &e->calls[c];
			long ca = project_kcall_arg(call, e->params[at].name);
			long after = at > 0 ? project_kcall_arg(call, e->params[at - 1].name) : -1;
			if (ca < 0) {
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(call->file, call->start, call->end),
					 "pass the kernel's profiling parameter to every Init call, after the last output",
					 "this Init call%s%s%s does not pass '%s'", call->macro ? " (in macro " : "",
					 call->macro ? call->macro : "", call->macro ? ")" : "", e->params[at].name);
				continue;
			}
			if (after >= 0 && ca != after + 1)
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(call->file, call->arg_start[ca], call->arg_end[ca]),
					 "pass it right after the kernel's last output, as the kernel's parameters are ordered",
					 "this Init call passes '%s' as argument %ld, but the kernel takes it right after '%s' "
					 "(argument %ld here)", call->args[ca], ca + 1, call->args[after], after + 1);
			if (call->def >= 0)
				check_init_func(p, r, &e->funcs[call->def], ca, call);
			if (call->decl >= 0)
				check_init_func(p, r, &e->funcs[call->decl], ca, call);
		}
	}
	free(snake);
}

/* ---- aclnn ---- */

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

static long aclnn_prof_param(const struct aclnn_func *fn, const char *prof)
{
	for (size_t i = 0; i < fn->nparams; i++)
		if (tv_names_profiling(fn->params[i].name, prof))
			return (long)i;
	return -1;
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
			 "pass the profiling tensor after the last output, before workspaceSize (run autotrace wire)",
			 "%s does not pass '%s' to %s, whose generated declaration takes it as parameter %zu", fn->name,
			 p->profiling, call->callee, m.prof_at + 1);
	} else if (p->required && is_null_text(call->args[m.prof_at])) {
		gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR,
			 gate_loc_at(f, call->arg_ranges[m.prof_at].start, call->arg_ranges[m.prof_at].end),
			 "pass the profiling tensor; switch recording off with ENABLE_MOE_PROFILING 0 and a rebuild",
			 "%s passes %s for the REQUIRED output '%s'", fn->name, call->args[m.prof_at], p->profiling);
	}
	aclnn_gen_match_release(&m);
	aclnn_gen_release(&g);
}

static void check_aclnn(struct project_model *p, struct gate_report *r)
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
			if (aclnn_profiling_api(fn->name)) {
				gate_add(r, GATE_RULE_G2_NAME, DIAG_ERROR,
					 gate_loc_at(f, fn->name_range.start, fn->name_range.end),
					 "keep the original aclnn API and add the profiling tensor to it",
					 "'%s' looks like a second aclnn API for profiling", fn->name);
				continue;
			}
			if (!aclnn_of(fn->name, op->name))
				continue;
			at = aclnn_prof_param(fn, p->profiling);
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
						 gate_loc_at(f, fn->params[at].range.start, fn->params[at].range.end), fix_last,
						 "'%s' is not the last tensor parameter of %s: '%s' follows it",
						 fn->params[at].name, fn->name, fn->params[k].name ? fn->params[k].name : "?");
					break;
				}
			if (ti >= 0 && ti != want)
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, fn->params[at].range.start, fn->params[at].range.end),
					 "order the aclnn tensors as the OpDef: inputs, outputs, profiling_data",
					 "'%s' is tensor %ld of %s, but the OpDef puts '%s' at %ld", fn->params[at].name, ti + 1,
					 fn->name, p->profiling, want + 1);
			/* the forwarding call of a definition: where the callee takes it, as many arguments */
			for (size_t c = 0; c < fn->ncalls; c++) {
				const struct aclnn_call *call = &fn->calls[c];
				const struct aclnn_func *callee = aclnn_find(p, call->callee);
				long k = callee ? aclnn_prof_param(callee, p->profiling) : at;
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
				if (p->required && is_null_text(call->args[k]))
					gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR,
						 gate_loc_at(f, call->arg_ranges[k].start, call->arg_ranges[k].end),
						 "pass the profiling tensor; switch recording off with ENABLE_MOE_PROFILING 0 and a rebuild",
						 "%s passes %s for the REQUIRED output '%s'", fn->name, call->args[k], p->profiling);
				else if (!tv_names_profiling(call->args[k], p->profiling) && !is_null_text(call->args[k]))
					gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
						 gate_loc_at(f, call->arg_ranges[k].start, call->arg_ranges[k].end),
						 "forward the arguments in the order of the parameters",
						 "%s forwards '%s' where %s expects '%s'", fn->name, call->args[k], call->callee,
						 callee ? callee->params[k].name : fn->params[k].name);
			}
		}
	}
}

/* ---- pybind ---- */

static const struct aclnn_func *aclnn_named(const struct project_model *p, const char *api)
{
	size_t n = strlen(api);

	for (size_t a = 0; a < p->naclnns; a++)
		for (size_t i = 0; i < p->aclnns[a].ac.nfuncs; i++) {
			const struct aclnn_func *fn = &p->aclnns[a].ac.funcs[i];
			if (strncmp(fn->name, api, n) == 0 && strcmp(fn->name + n, "GetWorkspaceSize") == 0)
				return fn;
		}
	return NULL;
}

/* Mode B: every return of binding function fi gives the profiling tensor last. */
static void check_returns(struct project_model *p, struct gate_report *r, const struct src_file *f,
			  const struct pybind_file *pb, long fi)
{
	const struct pybind_func *pf = &pb->funcs[fi];

	for (size_t k = 0; k < pb->nreturns; k++) {
		const struct pybind_return *ret = &pb->returns[k];
		long rat = -1;
		if (ret->func != fi)
			continue;
		for (size_t e = 0; e < ret->elems.n; e++)
			if (tv_names_profiling(ret->elems.v[e], p->profiling))
				rat = (long)e;
		if (rat < 0 && !ret->tuple && ret->elems.n == 1) {
			/* a list of tensors returned by name: the last one it was given */
			char *last = pybind_last_push(f, pf, ret->elems.v[0], ret->range.start);
			bool pushed = last && tv_names_profiling(last, p->profiling);
			free(last);
			if (pushed)
				continue;
		}
		if (rat < 0)
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, ret->range.start, ret->range.end),
				 "mode B: return the profiling tensor last, and add it to the std::tuple type",
				 "%s() returns without '%s' (mode B: the op returns it last)", pf->name, p->profiling);
		else if (rat != (long)ret->elems.n - 1)
			gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR,
				 gate_loc_at(f, ret->elems.ranges[rat].start, ret->elems.ranges[rat].end), fix_last,
				 "'%s' is not the last value %s() returns", ret->elems.v[rat], pf->name);
		else if (pf->tuple_arity >= 0 && pf->tuple_arity != (long)ret->elems.n)
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, pf->return_type.start, pf->return_type.end),
				 "give the std::tuple one at::Tensor per returned value",
				 "%s() is declared to return %ld values but returns %zu", pf->name, pf->tuple_arity, ret->elems.n);
	}
}

/* Mode A: the schema's position of the profiling argument, -1 when absent or
 * unread; sets *found_schema when the op's schema was read. */
static long schema_prof(const struct project_model *p, bool *found_schema)
{
	*found_schema = false;
	for (size_t b = 0; b < p->npybinds; b++)
		for (size_t i = 0; i < p->pybinds[b].pb.nnames; i++) {
			const struct pybind_opname *o = &p->pybinds[b].pb.names[i];
			struct pybind_schema sc;
			long at;
			if (!o->schema || project_profiling_suffix(o->name) || !project_is_op_name(p, o->name))
				continue;
			pybind_schema_read(p->pybinds[b].f, o, &sc);
			if (!sc.ok) {
				pybind_schema_release(&sc);
				continue;
			}
			*found_schema = true;
			at = pybind_schema_find(&sc, p->profiling);
			pybind_schema_release(&sc);
			return at;
		}
	return -1;
}

static void check_pybind(struct project_model *p, struct gate_report *r)
{
	const struct opdef_op *op = p->op;
	char *api;
	bool have_schema;
	long sat;

	if (op && op->name[0] && p->npybinds == 0)
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR, gate_anchor_loc(p, PROJECT_ANCHOR_API),
			 "point the rules' 'pybind' patterns (or 'project \"DIR\";') at the torch binding",
			 "no binding runs EXEC_NPU_CMD(aclnn%s, ...) or registers its torch.ops name (looked for %s): "
			 "the profiling output never reaches Python", op->name, project_searched_text(p).s);
	api = op ? xasprintf("aclnn%s", op->name) : xstrdup("");
	sat = schema_prof(p, &have_schema);
	for (size_t b = 0; b < p->npybinds; b++) {
		const struct src_file *f = p->pybinds[b].f;
		const struct pybind_file *pb = &p->pybinds[b].pb;
		for (size_t i = 0; i < pb->nnames; i++) {
			const struct pybind_opname *o = &pb->names[i];
			if (project_profiling_suffix(o->name)) {
				gate_add(r, GATE_RULE_G2_NAME, DIAG_ERROR, gate_loc_at(f, o->range.start, o->range.end),
					 "keep one torch.ops name: return profiling_data from the original op",
					 "'%s' registers a second torch.ops name for profiling", o->name);
				continue;
			}
			if (!o->schema || !op || p->prof_out < 0 || !project_is_op_name(p, o->name))
				continue;
			if (p->required && o->nreturns >= 0 && o->nreturns != (long)op->noutputs)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, o->range.start, o->range.end),
					 "return every output, profiling_data last: -> (Tensor, ..., Tensor)",
					 "the schema of '%s' returns %ld values, but '%s' has %zu outputs (mode B returns '%s' too)",
					 o->name, o->nreturns, op->name, op->noutputs, p->profiling);
			else if (!p->required && sat < 0 && have_schema)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, o->range.start, o->range.end),
					 "mode A: add 'Tensor? profiling_data=None' after the last tensor argument",
					 "the schema of '%s' does not take '%s' (mode A: the caller passes it)", o->name, p->profiling);
		}
		if (!op || p->prof_out < 0)
			continue;
		/* every binding function: the one that runs the op and the registered (meta) ones */
		for (size_t k = 0; k < pb->nfuncs; k++) {
			const struct pybind_func *pf = &pb->funcs[k];
			long at = -1;
			if (!project_is_bind_func(p, pf->name))
				continue;
			if (p->required) {
				size_t from = 0;
				/* an autograd Function's method, or a binding applying one: check_autograd */
				if (pybind_autograd_of_func(pb, (long)k) < 0 && pybind_apply_next(pb, (long)k, &from) < 0)
					check_returns(p, r, f, pb, (long)k);
				continue;
			}
			for (size_t i = 0; i < pf->nparams; i++)
				if (tv_names_profiling(pf->params[i].name, p->profiling))
					at = (long)i;
			if (at < 0)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, pf->params_range.start, pf->params_range.end),
					 "mode A: take 'const c10::optional<at::Tensor> &profiling_data' where the schema has it",
					 "%s() has no '%s' parameter (mode A: the caller passes it)", pf->name, p->profiling);
			else if (have_schema && sat >= 0 && at != sat)
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, pf->params[at].range.start, pf->params[at].range.end),
					 "order the parameters as the schema: the registered functions receive its arguments in order",
					 "'%s' is parameter %ld of %s(), but argument %ld of the schema", pf->params[at].name, at + 1,
					 pf->name, sat + 1);
		}
		for (size_t x = 0; x < pb->nexecs; x++) {
			const struct pybind_exec *ex = &pb->execs[x];
			const struct aclnn_func *fn = aclnn_named(p, ex->api);
			long at = -1, want = -1;
			if (project_profiling_suffix(ex->api)) {
				gate_add(r, GATE_RULE_G2_NAME, DIAG_ERROR, gate_loc_at(f, ex->api_range.start, ex->api_range.end),
					 "call the original aclnn API with the profiling tensor",
					 "%s calls '%s', a second aclnn API for profiling", ex->macro, ex->api);
				continue;
			}
			if (strcmp(ex->api, api) != 0)
				continue; /* another operator's API, in a binding they share */
			if (fn)
				want = aclnn_prof_param(fn, p->profiling);
			for (size_t i = 0; i < ex->args.n; i++)
				if (tv_names_profiling(ex->args.v[i], p->profiling))
					at = (long)i;
			if (at < 0) {
				long last = (long)ex->args.n - 1;
				long k = want >= 0 ? want : last;
				if (k >= 0 && (size_t)k < ex->args.n && is_null_text(ex->args.v[k]) && p->required)
					gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR,
						 gate_loc_at(f, ex->args.ranges[k].start, ex->args.ranges[k].end),
						 "allocate the profiling tensor (at::zeros({bound}, int64)) and pass it",
						 "%s passes %s for the REQUIRED output '%s'", ex->macro, ex->args.v[k], p->profiling);
				else
					gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, ex->range.start, ex->range.end),
						 "pass the profiling tensor as the last argument of EXEC_NPU_CMD",
						 "%s(%s, ...) does not pass '%s'", ex->macro, ex->api, p->profiling);
				continue;
			}
			/* EXEC_NPU_CMD passes every parameter of the API but the workspace size and the executor */
			if (fn && fn->nparams >= 2 && ex->args.n != fn->nparams - 2)
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(f, ex->range.start, ex->range.end),
					 "pass one argument per parameter of the aclnn API (workspace size and executor aside)",
					 "%s(%s, ...) passes %zu arguments, but %s takes %zu (and the workspace size and executor)",
					 ex->macro, ex->api, ex->args.n, fn->name, fn->nparams - 2);
			if (at != (long)ex->args.n - 1)
				gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR,
					 gate_loc_at(f, ex->args.ranges[at].start, ex->args.ranges[at].end), fix_last,
					 "'%s' is not the last argument of %s: '%s' follows it", ex->args.v[at], ex->macro,
					 ex->args.v[at + 1]);
			else if (want >= 0 && at != want)
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, ex->args.ranges[at].start, ex->args.ranges[at].end),
					 "pass the arguments in the order of the aclnn parameters",
					 "'%s' is argument %ld of %s, but %s takes '%s' as parameter %ld", ex->args.v[at], at + 1,
					 ex->macro, fn->name, fn->params[want].name, want + 1);
			if (p->required) {
				const struct pybind_var *v =
					pybind_var_before(pb, ex->func, ex->args.v[at], ex->range.start);
				if (v && is_null_text(v->init))
					gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR, gate_loc_at(f, v->range.start, v->range.end),
						 "allocate the profiling tensor (at::zeros({bound}, int64)) and pass it",
						 "'%s' is %s, but '%s' is a REQUIRED output", v->name, v->init, p->profiling);
			}
		}
	}
	free(api);
}

/* ---- bindings returning what an autograd Function returns ---- */

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
	check_returns(p, r, ref->f, ref->pb, ag->forward);
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
static void check_autograd(struct project_model *p, struct gate_report *r)
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
				check_returns(p, r, f, pb, (long)k);
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
					check_returns(p, r, f, pb, (long)k);
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

void gate_g2(struct project_model *p, struct gate_report *r)
{
	check_opdef(p, r);
	check_infer(p, r);
	check_kernel(p, r);
	check_aclnn(p, r);
	check_pybind(p, r);
	check_autograd(p, r);
}
