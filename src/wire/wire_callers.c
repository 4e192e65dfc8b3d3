/* wire, the Python code of the project that calls the op and is no sample:
 * library modules, routers, tests the samples patterns do not name. In mode
 * B the op returns one more value, so each call whose result is unpacked on
 * the spot into as many names as the binding returned before gets one more
 * target, `_`: the profiling tensor is saved by the samples, not there. An
 * op that returned one tensor returns a tuple now: `o = op(...)` becomes
 * `o, _ = op(...)`, and any other use of its value is a manual step. A
 * tuple kept whole (`outs = op(...)`, indexed) or unpacked into a count of
 * its own is left as it is (G2 says which of those disagree with the
 * schema). */
#include <stdlib.h>
#include <string.h>

#include "project_py.h"
#include "wire.h"
#include "xalloc.h"

static bool is_sample(const struct project_model *p, const char *path)
{
	for (size_t k = 0; k < p->nsamples; k++)
		if (p->samples[k].f && strcmp(p->samples[k].f->path, path) == 0)
			return true;
	return false;
}

static void callers_each(struct wire *w, const char *path, void *ctx)
{
	const struct project_model *p = w->p;
	size_t nmain = wire_py_outputs(w);
	const struct src_file *f;
	struct py_module *m;

	(void)ctx;
	if (is_sample(p, path) || !(f = wire_load_py_naming_op(w, path)))
		return;
	m = py_scan(f->data, f->len);
	for (size_t c = 0; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		const struct py_stmt *st = &m->stmts[call->stmt];
		const struct py_assign *a;
		bool star = false;
		if (!project_is_op_call(p, m, call))
			continue;
		a = project_py_assign_of_call(m, c);
		if (nmain == 1 && (!a || !a->unpacks)) {
			/* the op's one tensor becomes (tensor, profiling): `o = op(...)` takes
			   the first as `o, _ = op(...)`; a call whose value is dropped needs
			   nothing; any other use is the user's to change */
			if (a && a->ntargets == 1 && a->call == (int)c && !a->targets[0].starred)
				wire_edit(w, f, a->targets[0].range.end, a->targets[0].range.end, ", _",
					  "caller: the result of %s unpacked as its tensor and '%s', left unused here",
					  call->name, w->prof);
			else if (!(st->kind == PY_STMT_SIMPLE && st->range.start == call->range.start && !a))
				wire_manual(w, f, call->range.start, call->range.end,
					    "this uses the value of %s(...) as one tensor: in mode B it returns (tensor, '%s'): "
					    "take its first value ([0]) here", call->name, w->prof);
			continue;
		}
		if (!a || !a->unpacks)
			continue;
		for (size_t t = 0; t < a->ntargets; t++)
			star = star || a->targets[t].starred;
		if (star || a->ntargets != nmain)
			continue;
		wire_edit(w, f, a->targets[a->ntargets - 1].range.end, a->targets[a->ntargets - 1].range.end, ", _",
			  "caller: the result of %s unpacked with one more value, '%s', left unused here", call->name,
			  w->prof);
	}
	py_module_free(m);
}

void wire_callers(struct wire *w)
{
	const struct project_model *p = w->p;

	if (!w->required || p->without_binding || p->npy_names == 0 || !p->op ||
	    project_launch_form(p))
		return;
	wire_each_project_file(w, callers_each, NULL);
}
