/* wire, the Python implementations registered for the op's torch.ops names
 * (fake / meta functions, project_py_fake.h): they take the schema's
 * arguments and return what it returns, so mode A gives them the optional
 * profiling tensor where the schema takes it (`profiling_data=None`), and
 * mode B one more value to return, an empty int64 tensor of the bound on the
 * device of their first argument. A function whose returns cannot be counted
 * (one expression) is a manual step. */
#define _GNU_SOURCE /* memmem(3) */
#include <stdlib.h>
#include <string.h>

#include "project_py_fake.h"
#include "project_tokens.h"
#include "wire.h"
#include "xalloc.h"

/* The bound of the profiling tensor, in Python: the numbers of WIRE_BOUND_EXPR. */
#define WIRE_FAKE_NUMEL "128 * 3 * 2048"

struct fake_walk {
	long sat;                     /* mode A: the schema's argument index of the profiling tensor, -1 unknown */
};

static bool takes(const struct py_module *m, const struct py_func *fn, const char *prof)
{
	if (project_py_takes_rest(m, fn))
		return true;
	for (size_t a = 0; a < fn->nparams; a++)
		if (tv_names_profiling(fn->params[a], prof))
			return true;
	return false;
}

/* The offset before which parameter `k` of fn starts (the end of the list
 * when k is past its last), and whether parameters come before it. */
static uint32_t param_at(const struct py_module *m, const struct py_func *fn, size_t k, bool *after_one)
{
	size_t open = py_tok_at(m, fn->params_range.start), close = m->match[open], n = 0;

	*after_one = false;
	for (size_t t = open + 1; close != (size_t)-1 && t < close; t++) {
		if (n == k)
			return m->toks[t].start;
		*after_one = true;
		if (m->match[t] != (size_t)-1 && m->match[t] > t) {
			t = m->match[t];
			continue;
		}
		if (py_tok_is(m, t, ","))
			n++;
	}
	/* past the last: before the ')' (after a trailing comma, none is added) */
	return close != (size_t)-1 ? m->toks[close].start : fn->params_range.end - 1;
}

static void wire_fake(struct wire *w, const struct src_file *f, struct py_module *m, const struct py_fake *fk,
		      const struct fake_walk *fw)
{
	const struct py_func *fn = &m->funcs[fk->func];

	if (!w->required) {
		bool before;
		size_t k = fw->sat >= 0 && (size_t)fw->sat < fn->nparams ? (size_t)fw->sat : fn->nparams;
		uint32_t at;
		char *t;
		if (takes(m, fn, w->prof))
			return;
		at = param_at(m, fn, k, &before);
		t = k < fn->nparams ? xasprintf("%s=None, ", w->prof) : xasprintf("%s%s=None", before ? ", " : "", w->prof);
		wire_edit(w, f, at, at, t, "fake: %s(), registered for '%s', takes '%s' (mode A)", fn->name, fk->name, w->prof);
		free(t);
		return;
	}
	/* on the device of its first argument; a fake taking only *args (a test's
	   stand-in) makes it where torch does */
	bool before, rest_first = fn->nparams == 0 || m->data[param_at(m, fn, 0, &before)] == '*';
	char *empty = rest_first ? xasprintf("torch.empty(%s, dtype=torch.int64)", WIRE_FAKE_NUMEL)
				 : xasprintf("torch.empty(%s, dtype=torch.int64, device=%s.device)", WIRE_FAKE_NUMEL,
					     fn->params[0]);
	size_t nmain = wire_py_outputs(w);
	for (size_t s = 0; s < m->nstmts; s++) {
		const struct py_stmt *st = &m->stmts[s];
		size_t last;
		long n;
		char *t;
		if (st->kind != PY_STMT_RETURN || !py_stmt_within(m, (int)s, fn->stmt))
			continue;
		/* wired already: the tensor is there */
		if (memmem(m->data + st->range.start, st->range.end - st->range.start, WIRE_FAKE_NUMEL,
			   strlen(WIRE_FAKE_NUMEL)))
			continue;
		n = project_py_return_arity(m, (int)s, &last);
		if (n < 0) {
			/* one expression: the op's one value, or the values of a tuple it holds */
			size_t i = st->tok_start + 1, j = st->tok_end;
			while (j > i && m->toks[j - 1].kind == PY_TOK_NEWLINE)
				j--;
			if (j <= i || nmain == 0) {
				wire_manual(w, f, st->range.start, st->range.end,
					    "return '%s' last from %s(), registered for '%s': an empty int64 tensor of {%s} "
					    "words (mode B returns one more value)", w->prof, fn->name, fk->name, WIRE_FAKE_NUMEL);
				continue;
			}
			t = xasprintf("(%s%.*s, %s)", nmain == 1 ? "" : "*", (int)(m->toks[j - 1].end - m->toks[i].start),
				      m->data + m->toks[i].start, empty);
			wire_edit(w, f, m->toks[i].start, m->toks[j - 1].end, t,
				  "fake: %s(), registered for '%s', returns '%s' last (mode B)", fn->name, fk->name, w->prof);
			free(t);
			continue;
		}
		/* as many values as the op's outputs: one more, the tensor; one more
		   already: wired */
		if ((size_t)n != nmain)
			continue;
		t = xasprintf(", %s", empty);
		wire_edit(w, f, m->toks[last - 1].end, m->toks[last - 1].end, t,
			  "fake: %s(), registered for '%s', returns '%s' last (mode B)", fn->name, fk->name, w->prof);
		free(t);
	}
	free(empty);
}

static void fakes_each(struct wire *w, const char *path, void *ctx)
{
	const struct project_model *p = w->p;
	const struct fake_walk *fw = ctx;
	const struct src_file *f;
	struct py_module *m;
	struct py_fake *v;
	size_t n;

	if (!(f = wire_load_py_naming_op(w, path)))
		return;
	m = py_scan(f->data, f->len);
	n = project_py_fakes(m, p->py_names, p->npy_names, &v);
	for (size_t i = 0; i < n; i++)
		wire_fake(w, f, m, &v[i], fw);
	project_py_fakes_free(v);
	py_module_free(m);
}

void wire_fakes(struct wire *w)
{
	const struct project_model *p = w->p;
	struct fake_walk fw = { -1 };

	if (p->without_binding || p->npy_names == 0 || (!p->op && !project_launch_form(p)))
		return;
	/* mode A: where the schema takes the tensor (or will) */
	for (size_t b = 0; b < p->npybinds && !w->required && fw.sat < 0; b++)
		for (size_t i = 0; i < p->pybinds[b].pb.nnames; i++) {
			const struct pybind_opname *o = &p->pybinds[b].pb.names[i];
			struct pybind_schema sc;
			if (!o->schema || !project_is_op_name(p, o->name))
				continue;
			pybind_schema_read(p->pybinds[b].f, o, &sc);
			if (sc.ok) {
				/* mode A puts it after the last tensor argument (wire_pybind.c) */
				for (size_t a = 0; a < sc.nargs; a++)
					if (sc.args[a].tensor)
						fw.sat = (long)a + 1;
			}
			pybind_schema_release(&sc);
			break;
		}
	wire_each_project_file(w, fakes_each, &fw);
}
