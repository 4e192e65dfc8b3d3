/* G2 on the torch binding: every function that runs the op (EXEC_NPU_CMD)
 * or is registered under its torch.ops names (meta functions) passes, takes
 * or returns the profiling tensor as the schema says; the schema returns it
 * (mode B) or takes it (mode A). */
#include <stdlib.h>
#include <string.h>

#include "c_ident.h"
#include "g2_checks.h"
#include "g2_scope.h"
#include "gate_run.h"
#include "project_tokens.h"
#include "xalloc.h"

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
void g2_check_returns(struct project_model *p, struct gate_report *r, const struct src_file *f,
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
		if (rat < 0 && !ret->tuple && ret->elems.n == 1 && pybind_tuple_cat_last(ret->elems.v[0], p->profiling))
			continue; /* std::tuple_cat(outputs, std::make_tuple(profiling_data)) */
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
				 gate_loc_at(f, ret->elems.ranges[rat].start, ret->elems.ranges[rat].end), g2_fix_last,
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

/* True when function `func` of the binding has a parameter named as the
 * expression `arg` starts (`profiling_data`, `profiling_data.value()`). */
static bool takes_param(const struct pybind_file *pb, long func, const char *arg)
{
	if (func < 0)
		return true; /* not inside a function the reader sees: not ours to judge */
	for (size_t i = 0; i < pb->funcs[func].nparams; i++) {
		const char *n = pb->funcs[func].params[i].name;
		size_t k = n ? strlen(n) : 0;
		if (k && strncmp(arg, n, k) == 0 && !c_ident_char(arg[k]))
			return true;
	}
	return false;
}

/* True when the body of `pf` names `name` (a whole identifier). */
static bool body_uses(const struct src_file *f, const struct pybind_func *pf, const char *name)
{
	size_t n = strlen(name);

	for (uint32_t i = pf->body.start; i + n <= pf->body.end && i + n <= f->len; i++)
		if (memcmp(f->data + i, name, n) == 0 && (i == 0 || !c_ident_char(f->data[i - 1])) &&
		    !c_ident_char(f->data[i + n]))
			return true;
	return false;
}

/* True when function k of the binding runs the op's API. */
static bool function_runs_op(const struct pybind_file *pb, long k, const char *api)
{
	for (size_t x = 0; x < pb->nexecs; x++)
		if (pb->execs[x].func == k && strcmp(pb->execs[x].api, api) == 0)
			return true;
	return false;
}

/* Mode A: the schema takes the profiling tensor optional, None by default
 * (every caller that does not profile passes nothing). */
static void check_schema_kind(const struct project_model *p, struct gate_report *r, const struct src_file *f,
			      const struct pybind_opname *o)
{
	struct pybind_schema sc;
	long at;

	pybind_schema_read(f, o, &sc);
	at = sc.ok ? pybind_schema_find(&sc, p->profiling) : -1;
	if (at >= 0 && (!strchr(sc.args[at].type, '?') || !sc.args[at].has_default))
		gate_add(r, GATE_RULE_G2_KIND, DIAG_ERROR, gate_loc_at(f, sc.args[at].range.start, sc.args[at].range.end),
			 "declare it 'Tensor? profiling_data=None'",
			 "the schema of '%s' declares '%s' as '%s%s': mode A's profiling tensor is optional with a "
			 "default of None, or every caller must pass one", o->name, p->profiling, sc.args[at].type,
			 sc.args[at].has_default ? "" : " (no default)");
	pybind_schema_release(&sc);
}

static void check_pyargs(const struct project_model *p, struct gate_report *r, const struct src_file *f,
			 const struct pybind_opname *o);

void g2_check_binding(struct project_model *p, struct gate_report *r)
{
	if (p->without_binding) {
		if (p->op && p->absent_binding)
			gate_add(r, GATE_RULE_G2_LAYER, DIAG_NOTE, gate_anchor_loc(p, PROJECT_ANCHOR_API), NULL,
				 "absent: no torch binding runs aclnn%s (looked for %s); G2 checks the layers up to aclnn%s, "
				 "whose callers (a binding written later, C++ callers) pass '%s' last",
				 p->op->name, project_searched_text(p).s, p->op->name, p->profiling);
		else if (p->op)
			gate_add(r, GATE_RULE_G2_LAYER, DIAG_NOTE, gate_anchor_loc(p, PROJECT_ANCHOR_API), NULL,
				 "the torch binding is left out of this project (without binding): not checked; G2 checks the "
				 "layers up to aclnn%s, whose callers pass '%s' last", p->op->name, p->profiling);
		return;
	}
	const struct opdef_op *op = p->op;
	char *api;
	bool have_schema;
	long sat;

	if (project_launch_form(p)) {
		g2_check_launch(p, r);
		return;
	}
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
			check_pyargs(p, r, f, o);
			if (!o->schema || !op || p->prof_out < 0 || !project_is_op_name(p, o->name))
				continue;
			if (p->required && o->nreturns >= 0 && p->py_main >= 0 && o->nreturns != p->py_main + 1)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, o->range.start, o->range.end),
					 "return what the binding returns, profiling_data last: -> (Tensor, ..., Tensor)",
					 "the schema of '%s' returns %ld value%s, but its binding returns %ld (%ld, then '%s': mode "
					 "B)", o->name, o->nreturns, o->nreturns == 1 ? "" : "s", p->py_main + 1, p->py_main,
					 p->profiling);
			else if (p->required && o->nreturns >= 0 && p->py_main < 0 && o->nreturns != (long)op->noutputs)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, o->range.start, o->range.end),
					 "return every output, profiling_data last: -> (Tensor, ..., Tensor)",
					 "the schema of '%s' returns %ld values, but '%s' has %zu outputs (mode B returns '%s' too)",
					 o->name, o->nreturns, op->name, op->noutputs, p->profiling);
			else if (!p->required && sat < 0 && have_schema)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, o->range.start, o->range.end),
					 "mode A: add 'Tensor? profiling_data=None' after the last tensor argument",
					 "the schema of '%s' does not take '%s' (mode A: the caller passes it)", o->name, p->profiling);
			else if (!p->required)
				check_schema_kind(p, r, f, o);
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
				/* an autograd Function's method, or a binding applying one: g2_check_autograd */
				if (pybind_autograd_of_func(pb, (long)k) < 0 && pybind_apply_next(pb, (long)k, &from) < 0)
					g2_check_returns(p, r, f, pb, (long)k);
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
			if (at >= 0 && pf->params[at].type && !strstr(pf->params[at].type, "optional"))
				gate_add(r, GATE_RULE_G2_KIND, DIAG_ERROR,
					 gate_loc_at(f, pf->params[at].range.start, pf->params[at].range.end),
					 "take it as 'const c10::optional<at::Tensor> &profiling_data', as the schema's 'Tensor?'",
					 "'%s' is '%s' in %s(): mode A takes it optional (c10::optional<at::Tensor>, the "
					 "schema's 'Tensor? %s=None': a caller that does not profile passes None)",
					 pf->params[at].name, pf->params[at].type, pf->name, p->profiling);
			if (at >= 0 && pf->params[at].name && !body_uses(f, pf, pf->params[at].name))
				gate_add(r, GATE_RULE_G2_UNUSED, DIAG_ERROR,
					 gate_loc_at(f, pf->params[at].range.start, pf->params[at].range.end),
					 "use it: pass it on to the aclnn call, or mark it used with (void)profiling_data;",
					 "%s() takes '%s' but never uses it: an unused parameter (a warning, an error with -Werror)%s",
					 pf->name, pf->params[at].name,
					 function_runs_op(pb, (long)k, api) ? ", and the kernel never receives it" : "");
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
				want = g2_aclnn_prof_param(fn, p->profiling);
			for (size_t i = 0; i < ex->args.n; i++)
				if (tv_names_profiling(ex->args.v[i], p->profiling))
					at = (long)i;
			if (at < 0) {
				long last = (long)ex->args.n - 1;
				long k = want >= 0 ? want : last;
				if (k >= 0 && (size_t)k < ex->args.n && tv_is_null_text(ex->args.v[k]) && p->required)
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
					 gate_loc_at(f, ex->args.ranges[at].start, ex->args.ranges[at].end), g2_fix_last,
					 "'%s' is not the last argument of %s: '%s' follows it", ex->args.v[at], ex->macro,
					 ex->args.v[at + 1]);
			else if (want >= 0 && at != want)
				gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
					 gate_loc_at(f, ex->args.ranges[at].start, ex->args.ranges[at].end),
					 "pass the arguments in the order of the aclnn parameters",
					 "'%s' is argument %ld of %s, but %s takes '%s' as parameter %ld", ex->args.v[at], at + 1,
					 ex->macro, fn->name, fn->params[want].name, want + 1);
			{
				const struct pybind_var *v =
					pybind_var_before(pb, ex->func, ex->args.v[at], ex->range.start);
				if (v && p->required && tv_is_null_text(v->init))
					gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR, gate_loc_at(f, v->range.start, v->range.end),
						 "allocate the profiling tensor (at::zeros({bound}, int64)) and pass it",
						 "'%s' is %s, but '%s' is a REQUIRED output", v->name, v->init, p->profiling);
				else if (!v && !takes_param(pb, ex->func, ex->args.v[at]))
					gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
						 gate_loc_at(f, ex->args.ranges[at].start, ex->args.ranges[at].end),
						 p->required ? "allocate it at the top of the function: at::Tensor profiling_data = "
							       "at::zeros({bound}, int64 options)"
							     : "take it as a parameter: const c10::optional<at::Tensor> &profiling_data",
						 "%s passes '%s', which %s() neither declares nor takes as a parameter", ex->macro,
						 ex->args.v[at], ex->func >= 0 ? pb->funcs[ex->func].name : "the enclosing function");
			}
		}
	}
	free(api);
}

/* The definition of binding function `name` in the view, with its file. */
static const struct pybind_func *definition_of(const struct project_model *p, const char *name, const struct src_file **f)
{
	for (size_t b = 0; b < p->npybinds; b++) {
		long k = pybind_func_named(&p->pybinds[b].pb, name);
		if (k >= 0) {
			*f = p->pybinds[b].f;
			return &p->pybinds[b].pb.funcs[k];
		}
	}
	return NULL;
}

static long param_prof(const struct pybind_param *v, size_t n, const char *prof)
{
	for (size_t i = 0; i < n; i++)
		if (tv_names_profiling(v[i].name, prof))
			return (long)i;
	return -1;
}

/* Every declaration of a binding function (a header's prototype) says what
 * its definition is: as many parameters, the profiling one in the same
 * place, the same returned tuple; a declaration left behind is a
 * conflicting overload or a link error. */
void g2_check_decls(const struct g2_scope *s, struct gate_report *r)
{
	const struct project_model *p = &s->view;

	for (size_t i = 0; i < s->ndecls; i++) {
		const struct src_file *f = s->decls[i].f;
		for (size_t k = 0; k < s->decls[i].d.n; k++) {
			const struct project_decl *d = &s->decls[i].d.v[k];
			const struct src_file *df = NULL;
			const struct pybind_func *def = definition_of(p, d->name, &df);
			long dp, fp;
			struct gate_finding *fd = NULL;
			if (!def || (df == f && d->range.start >= def->range.start && d->range.start < def->range.end))
				continue;
			dp = param_prof(d->params, d->nparams, p->profiling);
			fp = param_prof(def->params, def->nparams, p->profiling);
			if (d->nparams != def->nparams || dp != fp)
				fd = gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, d->params_range.start, d->params_range.end),
					      "declare the parameters as the definition takes them, the profiling tensor included",
					      "this declaration of %s() takes %zu parameters%s, but its definition (%s:%zu) takes %zu%s",
					      d->name, d->nparams, dp >= 0 ? "" : " without the profiling tensor", df->path,
					      src_file_line(df, def->range.start), def->nparams,
					      fp >= 0 ? " with it" : "");
			else if (def->tuple_arity >= 0 && d->tuple_arity != def->tuple_arity)
				fd = gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, d->return_type.start, d->return_type.end),
					      "declare the return type as the definition returns it (mode B: one more at::Tensor)",
					      "this declaration of %s() returns %s, but its definition (%s:%zu) returns a tuple of %ld",
					      d->name, d->return_text, df->path, src_file_line(df, def->range.start), def->tuple_arity);
			if (fd)
				gate_relate(fd, gate_loc_at(df, def->params_range.start, def->params_range.end),
					    "the definition of %s()", d->name);
		}
	}
}

/* pybind11: an m.def of a binding function that names its parameters
 * (py::arg) names each of them, the profiling tensor included (optional with
 * a default in mode A); a count that differs fails at import. */
static void check_pyargs(const struct project_model *p, struct gate_report *r, const struct src_file *f,
			 const struct pybind_opname *o)
{
	const struct src_file *df = NULL;
	const struct pybind_func *def;
	long at, pa = -1;

	if (!o->pybind11 || !o->impl_fn || o->npyargs == 0 || !(def = definition_of(p, o->impl_fn, &df)))
		return;
	at = param_prof(def->params, def->nparams, p->profiling);
	for (size_t k = 0; k < o->npyargs; k++)
		if (tv_names_profiling(o->pyargs[k].name, p->profiling))
			pa = (long)k;
	if (o->npyargs != def->nparams || pa != at) {
		struct gate_finding *fd = gate_add(
			r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, o->range.start, o->range.end),
			"name every parameter of the function with py::arg, py::arg(\"profiling_data\") = py::none() included",
			"the pybind11 m.def of '%s' names %zu parameters%s, but %s() takes %zu%s: the module fails to import",
			o->name, o->npyargs, pa >= 0 ? "" : " without the profiling tensor", def->name, def->nparams,
			at >= 0 ? " with it" : "");
		gate_relate(fd, gate_loc_at(df, def->params_range.start, def->params_range.end), "%s() is defined here",
			    def->name);
	} else if (at >= 0 && !p->required && !o->pyargs[pa].has_default) {
		gate_add(r, GATE_RULE_G2_KIND, DIAG_ERROR, gate_loc_at(f, o->pyargs[pa].range.start, o->pyargs[pa].range.end),
			 "py::arg(\"profiling_data\") = py::none()",
			 "the pybind11 m.def of '%s' names '%s' without a default: mode A's profiling tensor is optional, "
			 "callers that do not profile pass nothing", o->name, o->pyargs[pa].name);
	}
}

/* ---- the direct-launch form (project_launch.h) ---- */

/* The upper-case names the initialiser of the profiling tensor sizes it
 * from are defined in its file (the named bound, G2's "sized from a named
 * upper bound"): the first one that is not, or NULL. */
static char *bound_undefined(const struct src_file *f, const char *init)
{
	struct tok_view tv, iv;
	struct tv_consts cs = { 0 };
	char *missing = NULL;

	tok_view_init(&tv, f->data, f->len);
	tv_consts_collect(&tv, &cs);
	tok_view_init(&iv, init, strlen(init));
	for (size_t k = 0; k < iv.n && !missing; k++) {
		const struct cxx_token *t = &iv.v[k];
		bool upper = t->kind == CXX_TOK_IDENT && t->end - t->start > 2;
		for (uint32_t c = t->start; upper && c < t->end; c++)
			upper = (init[c] >= 'A' && init[c] <= 'Z') || init[c] == '_' || (init[c] >= '0' && init[c] <= '9');
		if (upper && !tv_consts_find(&cs, init + t->start, t->end - t->start))
			missing = xstrndup(init + t->start, t->end - t->start);
	}
	tok_view_release(&iv);
	tv_consts_release(&cs);
	tok_view_release(&tv);
	return missing;
}

/* The launch passes the kernel's parameters one for one, the profiling
 * tensor where the kernel takes it, a tensor the host function allocates. */
static void check_site(struct project_model *p, struct gate_report *r, const struct launch_file *lf,
		       const struct launch_site *s)
{
	const struct project_kentry *e = project_launch_entry(&p->kernels, s->kernel);
	const struct pybind_var *v;
	long kat = -1, pa = -1;
	char *id = NULL;

	if (!e)
		return;
	for (size_t i = 0; i < e->nparams; i++)
		if (e->params[i].name && tv_names_profiling(e->params[i].name, p->profiling))
			kat = (long)i;
	for (size_t a = 0; a < s->args.n && pa < 0; a++)
		if ((id = project_launch_prof_ident(s->args.v[a], p->profiling)) != NULL)
			pa = (long)a;
	if (s->unknown) {
		gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR, gate_loc_at(lf->f, s->range.start, s->range.end),
			 "write the launch with ACLRT_LAUNCH_KERNEL, <<<>>> or a macro whose last parameters are the kernel's",
			 "%s launches '%s', but its definition does not tell which of its arguments are the kernel's: G2 "
			 "cannot see the profiling tensor reach the kernel", s->via, s->kernel);
		free(id);
		return;
	}
	if (s->kind == LAUNCH_MACRO && !p->launch.macros[s->macro].variadic &&
	    s->nmacro_args != p->launch.macros[s->macro].nparams) {
		const struct launch_macro *mc = &p->launch.macros[s->macro];
		gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(lf->f, s->range.start, s->range.end),
			 "give the macro a parameter for the profiling tensor (or '...')",
			 "%s takes %zu arguments (%s:%zu), but this launch passes %zu", mc->name, mc->nparams,
			 mc->path ? mc->path : "?", mc->line, s->nmacro_args);
	}
	if (s->args.n != e->nparams)
		gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR, gate_loc_at(lf->f, s->range.start, s->range.end),
			 "pass one argument per parameter of the kernel, in its order",
			 "%s launches '%s' with %zu arguments, but the kernel (%s:%zu) takes %zu", s->via, s->kernel, s->args.n,
			 e->file->path, src_file_line(e->file, e->params_start), e->nparams);
	if (kat < 0) {
		free(id);
		return; /* the kernel's own finding (g2_kernel.c) */
	}
	if (pa < 0) {
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(lf->f, s->range.start, s->range.end),
			 "pass the profiling tensor where the kernel takes it",
			 "%s launches '%s' without '%s': the kernel takes '%s' as parameter %ld (%s:%zu)", s->via, s->kernel,
			 p->profiling, e->params[kat].name, kat + 1, e->file->path, src_file_line(e->file, e->params[kat].start));
		free(id);
		return;
	}
	if (pa != kat)
		gate_add(r, GATE_RULE_G2_POSITION, DIAG_ERROR,
			 gate_loc_at(lf->f, s->args.ranges[pa].start, s->args.ranges[pa].end),
			 "pass the arguments in the order of the kernel's parameters",
			 "'%s' is argument %ld of this launch, but the kernel '%s' takes '%s' as parameter %ld (%s:%zu)",
			 s->args.v[pa], pa + 1, s->kernel, e->params[kat].name, kat + 1, e->file->path,
			 src_file_line(e->file, e->params[kat].start));
	v = pybind_var_before(&lf->pb, s->func, id, s->range.start);
	if (v && p->required && tv_is_null_text(v->init))
		gate_add(r, GATE_RULE_G2_NULL, DIAG_ERROR, gate_loc_at(lf->f, v->range.start, v->range.end),
			 "allocate the profiling tensor (at::zeros({bound}, int64)) and pass it",
			 "'%s' is %s, but the kernel records into it", v->name, v->init);
	else if (!v && !takes_param(&lf->pb, s->func, id))
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
			 gate_loc_at(lf->f, s->args.ranges[pa].start, s->args.ranges[pa].end),
			 "allocate it at the top of the function: at::Tensor profiling_data = at::zeros({bound}, int64 options)",
			 "%s passes '%s', which %s() neither declares nor takes as a parameter", s->via, id,
			 s->func >= 0 ? lf->pb.funcs[s->func].name : "the enclosing function");
	free(id);
}

/* The return arity a function of the launch gives now. */
static long func_arity(const struct project_launch *l, const struct launch_func *fn)
{
	const struct pybind_func *pf = project_launch_pf(l, fn);
	const struct src_file *f = l->files[fn->file].f;
	bool ref;

	return project_launch_arity(f->data + pf->return_type.start, pf->return_type.end - pf->return_type.start, &ref);
}

static const struct launch_func *func_named(const struct project_launch *l, const char *name)
{
	for (size_t i = 0; name && i < l->nfuncs; i++)
		if (strcmp(project_launch_pf(l, &l->funcs[i])->name, name) == 0)
			return &l->funcs[i];
	return NULL;
}

/* Mode B: the function allocates the tensor from a bound its file names and
 * returns it, last, on every return. */
static void check_launch_returns(struct project_model *p, struct gate_report *r, const struct launch_func *fn)
{
	const struct project_launch *l = &p->launch;
	const struct launch_file *lf = &l->files[fn->file];
	const struct pybind_func *pf = project_launch_pf(l, fn);
	const struct pybind_var *v = pybind_var_before(&lf->pb, fn->index, p->profiling, pf->body.end);
	size_t nret = 0;
	char *undef;

	if (v && (undef = bound_undefined(lf->f, v->init)) != NULL) {
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(lf->f, v->range.start, v->range.end),
			 "name the bound in this file (constexpr int64_t ... = ...;)",
			 "'%s' is sized from %s, which this file does not define", v->name, undef);
		free(undef);
	}
	for (size_t k = 0; k < lf->pb.nreturns; k++)
		nret += lf->pb.returns[k].func == fn->index && lf->pb.returns[k].elems.n > 0;
	if (func_arity(l, fn) == 0)
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(lf->f, pf->return_type.start, pf->range.end > pf->return_type.end ? pf->return_type.end : pf->range.end),
			 "return the profiling tensor: at::Tensor f(...) { ... return profiling_data; }",
			 "%s() returns nothing (void), but mode B returns '%s', the tensor its kernel records into", pf->name,
			 p->profiling);
	else if (nret == 0)
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(lf->f, pf->body.end - 1, pf->body.end),
			 "end the function with: return profiling_data;",
			 "%s() never returns '%s' (mode B: the op returns it last)", pf->name, p->profiling);
	g2_check_returns(p, r, lf->f, &lf->pb, fn->index);
}

/* The schema of a torch.ops name returns what the function registered for it does. */
static void check_launch_schema(struct project_model *p, struct gate_report *r, const struct launch_schema *s)
{
	const struct project_launch *l = &p->launch;
	const struct launch_file *lf = &l->files[s->file];
	const struct pybind_opname *o = &lf->pb.names[s->name];
	const struct launch_func *fn = NULL;

	for (size_t g = 0; g < l->nregs && !fn; g++)
		if (strcmp(l->regs[g].name, o->name) == 0)
			fn = func_named(l, l->regs[g].func);
	if (!fn || s->nreturns < 0)
		return;
	if (s->nreturns != func_arity(l, fn)) {
		const struct pybind_func *pf = project_launch_pf(l, fn);
		const struct src_file *ff = l->files[fn->file].f;
		gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(lf->f, o->range.start, o->range.end),
			 p->required ? "return one more Tensor, last: -> Tensor, -> (Tensor, Tensor), ..."
				     : "make the schema's returns those of the function",
			 "the schema of '%s' returns %ld value%s, but %s() (%s:%zu), registered for it, returns %ld", o->name,
			 s->nreturns, s->nreturns == 1 ? "" : "s", pf->name, ff->path, src_file_line(ff, pf->range.start),
			 func_arity(l, fn));
	}
}

void g2_check_launch(struct project_model *p, struct gate_report *r)
{
	const struct project_launch *l = &p->launch;

	for (size_t fi = 0; fi < l->nfiles; fi++)
		for (size_t s = 0; s < l->files[fi].nsites; s++)
			check_site(p, r, &l->files[fi], &l->files[fi].sites[s]);
	for (size_t k = 0; k < l->nfuncs && p->required; k++)
		check_launch_returns(p, r, &l->funcs[k]);
	for (size_t s = 0; s < l->nschemas; s++)
		check_launch_schema(p, r, &l->schemas[s]);
	for (size_t g = 0; g < l->nregs; g++) {
		const struct launch_reg *reg = &l->regs[g];
		const struct launch_func *fn = func_named(l, reg->func);
		const struct src_file *f = l->files[reg->file].f;
		if (project_profiling_suffix(reg->name))
			gate_add(r, GATE_RULE_G2_NAME, DIAG_ERROR, gate_loc_at(f, reg->at.start, reg->at.end),
				 "keep one torch.ops name: return profiling_data from the original op",
				 "'%s' registers a second torch.ops name for profiling", reg->name);
		if (!reg->lambda || !fn)
			continue;
		if (!reg->call_returned && p->required)
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
				 gate_loc_at(f, reg->call.start, reg->call.end > reg->call.start ? reg->call.end : reg->at.end),
				 "return the call's value from the lambda: return ns::f(...);",
				 "the lambda registered for '%s' calls %s() but does not return its value: '%s' never reaches "
				 "Python", reg->name, reg->func, p->profiling);
		if (reg->lambda_ret.end > reg->lambda_ret.start) {
			bool ref;
			long a = project_launch_arity(f->data + reg->lambda_ret.start, reg->lambda_ret.end - reg->lambda_ret.start,
						      &ref);
			if (a != func_arity(l, fn))
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, reg->lambda_ret.start, reg->lambda_ret.end),
					 "give the lambda the return type of the function it forwards",
					 "the lambda registered for '%s' returns %ld value%s, %s() %ld", reg->name, a, a == 1 ? "" : "s",
					 reg->func, func_arity(l, fn));
		}
	}
	for (size_t d = 0; d < l->ndecls; d++) {
		const struct launch_decl *dc = &l->decls[d];
		const struct launch_func *fn = func_named(l, dc->func);
		const struct src_file *f = l->files[dc->file].f;
		if (fn && dc->arity != func_arity(l, fn)) {
			const struct pybind_func *pf = project_launch_pf(l, fn);
			const struct src_file *ff = l->files[fn->file].f;
			gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(f, dc->type.start, dc->name.end),
				 "declare it as it is defined",
				 "this declaration of %s() returns %ld value%s, its definition (%s:%zu) %ld", dc->func, dc->arity,
				 dc->arity == 1 ? "" : "s", ff->path, src_file_line(ff, pf->range.start), func_arity(l, fn));
		}
	}
	for (size_t g = 0; g < l->nregs; g++) {
		const struct launch_reg *reg = &l->regs[g];
		bool seen = false;
		for (size_t h = 0; h < g && !seen; h++)
			seen = l->regs[h].file == reg->file && l->regs[h].func && reg->func && strcmp(l->regs[h].func, reg->func) == 0;
		if (!seen && reg->func && l->files[reg->file].nmissing) {
			struct pybind_range at;
			char *msg = project_launch_missing(l, reg, p->root.path, p->profiling, &at);
			gate_add(r, GATE_RULE_G2_LAYER, DIAG_WARNING, gate_loc_at(l->files[reg->file].f, at.start, at.end),
				 "bring the header that declares it under the project root, or change the declaration by hand",
				 "%s", msg);
			free(msg);
		}
	}
	for (size_t k = 0; k < l->nfuncs && l->nnames == 0; k++)
		if (l->funcs[k].launches) {
			const struct pybind_func *pf = project_launch_pf(l, &l->funcs[k]);
			gate_add(r, GATE_RULE_G2_LAYER, DIAG_ERROR,
				 gate_loc_at(l->files[l->funcs[k].file].f, pf->range.start, pf->params_range.start),
				 "register it: m.impl(\"name\", TORCH_FN(ns::f)) in a TORCH_LIBRARY_IMPL block",
				 "%s() launches the kernel, but no m.impl or m.def registers it (looked for %s): the profiling "
				 "output never reaches Python", pf->name, project_searched_text(p).s);
			break;
		}
}
