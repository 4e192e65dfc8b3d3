/* G2 on the Python side of the operator: the Python implementations
 * registered for its torch.ops names (fake / meta functions: they take the
 * schema's arguments and return what it returns), and its calls in samples
 * and tests, the last layer, paired with the schema it calls. Every keyword a call passes is an
 * argument of the schema (a `profiling_data=` the schema does not take is a
 * TypeError), and a call whose result is unpacked on the spot unpacks as
 * many values as the schema returns (the len(outs) branches of a result
 * kept whole are G4's). */
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "g2_scope.h"
#include "gate_run.h"
#include "project_py.h"
#include "project_tokens.h"
#include "xalloc.h"

/* The op's schema: the first m.def of one of its torch.ops names. */
struct schema_at {
	const struct src_file *f;
	const struct pybind_opname *o;
	struct pybind_schema sc;
};

static bool find_schema(const struct project_model *p, struct schema_at *out)
{
	for (size_t b = 0; b < p->npybinds; b++)
		for (size_t i = 0; i < p->pybinds[b].pb.nnames; i++) {
			const struct pybind_opname *o = &p->pybinds[b].pb.names[i];
			if (!o->schema || !project_is_op_name(p, o->name))
				continue;
			out->f = p->pybinds[b].f;
			out->o = o;
			pybind_schema_read(out->f, o, &out->sc);
			if (out->sc.ok)
				return true;
			pybind_schema_release(&out->sc);
		}
	return false;
}

static void check_call(struct gate_report *r, const struct src_file *f, struct py_module *m, size_t c,
		       const struct schema_at *s)
{
	const struct py_call *call = &m->calls[c];
	const struct py_assign *a = project_py_assign_of_call(m, c);
	size_t line = src_file_line(s->f, s->o->range.start);

	for (size_t i = 0; i < call->nargs; i++) {
		const struct py_arg *arg = &call->args[i];
		if (!arg->keyword || pybind_schema_find(&s->sc, arg->keyword) >= 0)
			continue;
		gate_add(r, GATE_RULE_G2_CALL, DIAG_ERROR, gate_loc_at(f, arg->range.start, arg->range.end),
			 "pass only the schema's arguments, or add this one to the schema (mode A)",
			 "%s(...) is passed '%s=', but the schema of '%s' (%s:%zu) has no argument '%s': a TypeError",
			 call->name, arg->keyword, s->o->name, s->f->path, line, arg->keyword);
	}
	if (a && a->unpacks && s->o->nreturns >= 0) {
		bool star = false;
		for (size_t t = 0; t < a->ntargets; t++)
			star = star || a->targets[t].starred;
		if (!star && (long)a->ntargets != s->o->nreturns)
			gate_add(r, GATE_RULE_G2_CALL, DIAG_ERROR, gate_loc_at(f, a->target_range.start, a->target_range.end),
				 "unpack as many values as the schema returns (or keep the result whole and branch on "
				 "len(outs))",
				 "unpacks %zu values from %s(...), but the schema of '%s' (%s:%zu) returns %ld", a->ntargets,
				 call->name, s->o->name, s->f->path, line, s->o->nreturns);
	}
}

void g2_check_calls(struct project_model *p, struct gate_report *r)
{
	struct schema_at s;

	if (p->without_binding || p->without_samples || !find_schema(p, &s))
		return; /* no schema read: the binding's check says so */
	for (size_t k = 0; k < p->nsamples; k++) {
		struct py_module *m = p->samples[k].py;
		for (size_t c = 0; c < m->ncalls; c++)
			if (project_is_op_call(p, m, &m->calls[c]))
				check_call(r, p->samples[k].f, m, c, &s);
	}
	pybind_schema_release(&s.sc);
}

/* Every Python implementation registered for the op takes what the schema
 * passes (mode A: the optional profiling tensor, or a catch-all *args or **kwargs) and
 * returns as many values as it returns (mode B: one more). */
void g2_check_fakes(const struct g2_scope *sc, struct gate_report *r)
{
	const struct project_model *p = &sc->view;
	struct schema_at s;
	bool have;

	if (p->without_binding || sc->nfakes == 0)
		return;
	have = find_schema(p, &s);
	for (size_t i = 0; i < sc->nfakes; i++) {
		const struct g2_fakes *ff = &sc->fakes[i];
		for (size_t k = 0; k < ff->n; k++) {
			const struct py_func *fn = &ff->m->funcs[ff->v[k].func];
			bool takes = project_py_takes_rest(ff->m, fn);
			for (size_t a = 0; a < fn->nparams && !takes; a++)
				takes = tv_names_profiling(fn->params[a], p->profiling);
			if (!p->required && !takes)
				gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR, gate_loc_at(ff->f, fn->params_range.start, fn->params_range.end),
					 "take it too: profiling_data=None, where the schema has it",
					 "%s(), registered for '%s' at line %zu, takes no '%s', which the schema passes (mode A)",
					 fn->name, ff->v[k].name, src_file_line(ff->f, ff->v[k].at.start), p->profiling);
			if (!p->required || !have || s.o->nreturns < 0)
				continue;
			for (size_t st = 0; st < ff->m->nstmts; st++) {
				size_t last;
				long n;
				if (ff->m->stmts[st].kind != PY_STMT_RETURN || !py_stmt_within(ff->m, (int)st, fn->stmt))
					continue;
				n = project_py_return_arity(ff->m, (int)st, &last);
				if (n >= 0 && n != s.o->nreturns)
					gate_add(r, GATE_RULE_G2_MISSING, DIAG_ERROR,
						 gate_loc_at(ff->f, ff->m->stmts[st].range.start, ff->m->stmts[st].range.end),
						 "return one more value, the profiling tensor last (an empty int64 tensor of the bound)",
						 "%s(), registered for '%s', returns %ld values, but its schema (%s:%zu) returns %ld",
						 fn->name, ff->v[k].name, n, s.f->path, src_file_line(s.f, s.o->range.start),
						 s.o->nreturns);
			}
		}
	}
	if (have)
		pybind_schema_release(&s.sc);
}
