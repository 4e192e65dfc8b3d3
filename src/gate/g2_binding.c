/* G2 on the torch binding: every function that runs the op (EXEC_NPU_CMD)
 * or is registered under its torch.ops names (meta functions) passes, takes
 * or returns the profiling tensor as the schema says; the schema returns it
 * (mode B) or takes it (mode A). */
#include <stdlib.h>
#include <string.h>

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

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
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
		if (k && strncmp(arg, n, k) == 0 && !ident_char(arg[k]))
			return true;
	}
	return false;
}

/* True when the body of `pf` names `name` (a whole identifier). */
static bool body_uses(const struct src_file *f, const struct pybind_func *pf, const char *name)
{
	size_t n = strlen(name);

	for (uint32_t i = pf->body.start; i + n <= pf->body.end && i + n <= f->len; i++)
		if (memcmp(f->data + i, name, n) == 0 && (i == 0 || !ident_char(f->data[i - 1])) &&
		    !ident_char(f->data[i + n]))
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
			check_pyargs(p, r, f, o);
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
				if (k >= 0 && (size_t)k < ex->args.n && g2_is_null_text(ex->args.v[k]) && p->required)
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
				if (v && p->required && g2_is_null_text(v->init))
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
