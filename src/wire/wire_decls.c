/* wire, what follows a binding function's signature: a header's prototype of
 * a function the binding layer changed (a parameter added in mode A, a tuple
 * that grew in mode B) is changed the same way, so that the declaration and
 * the definition stay one function; a pybind11 m.def that names its
 * parameters (py::arg("x"), ...) names the new one too. The definition's new
 * signature is read from its wired text; a declaration that already matches
 * it is left alone, one that matched neither the old nor the new one is a
 * manual step. */
#include <stdlib.h>
#include <string.h>

#include "path_glob.h"
#include "project_decls.h"
#include "project_tokens.h"
#include "wire.h"
#include "text_compare.h"
#include "xalloc.h"

/* The binding functions' definitions before and after the binding layer's
 * edits, by name. */
struct def_pair {
	const char *name;
	const struct src_file *old_file;
	const struct pybind_func *old;
	struct src_file *new_file;     /* the wired text, owned */
	struct pybind_file new_pb;
	const struct pybind_func *now;
};

static struct wire_file *wired_file(struct wire *w, const struct src_file *f)
{
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].f == f)
			return &w->files[i];
	return NULL;
}

static bool pair_of(struct wire *w, const char *name, struct def_pair *dp)
{
	const struct project_model *p = w->p;
	struct wire_file *wf;
	char *text;
	size_t len;
	long k;

	memset(dp, 0, sizeof(*dp));
	dp->name = name;
	for (size_t b = 0; b < p->npybinds && !dp->old; b++)
		if ((k = pybind_func_named(&p->pybinds[b].pb, name)) >= 0) {
			dp->old_file = p->pybinds[b].f;
			dp->old = &p->pybinds[b].pb.funcs[k];
		}
	if (!dp->old || !(wf = wired_file(w, dp->old_file)) || wf->n == 0 || wire_file_result(w, wf, &text, &len) != 0)
		return false;
	dp->new_file = src_file_from_buffer(dp->old_file->path, text, len);
	free(text);
	project_pybind(dp->new_file, &dp->new_pb);
	k = pybind_func_named(&dp->new_pb, name);
	dp->now = k >= 0 ? &dp->new_pb.funcs[k] : NULL;
	return dp->now != NULL;
}

static void pair_release(struct def_pair *dp)
{
	if (dp->new_file) {
		pybind_file_release(&dp->new_pb);
		src_file_free(dp->new_file);
	}
}

/* The text of range r, without the white space that ends it. */
static char *slice(const struct src_file *f, struct pybind_range r)
{
	uint32_t e = r.end;

	while (e > r.start && (f->data[e - 1] == ' ' || f->data[e - 1] == '\t' || f->data[e - 1] == '\n' ||
			       f->data[e - 1] == '\r'))
		e--;
	return xstrndup(f->data + r.start, e - r.start);
}


static bool has_param(const struct pybind_param *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].name && name && strcmp(v[i].name, name) == 0)
			return true;
	return false;
}

/* One declaration of a changed binding function. */
static void wire_decl(struct wire *w, const struct src_file *f, const struct project_decl *d, const struct def_pair *dp)
{
	char *old_ret = slice(dp->old_file, dp->old->return_type), *new_ret = slice(dp->new_file, dp->now->return_type);
	char *dret = slice(f, d->return_type);
	bool matches_old = d->nparams == dp->old->nparams, matches_new = d->nparams == dp->now->nparams;

	/* the return type: std::tuple<a, b> -> std::tuple<a, b, at::Tensor> */
	if (!text_same_but_blanks(old_ret, new_ret)) {
		if (text_same_but_blanks(dret, old_ret))
			wire_edit(w, f, d->return_type.start, d->return_type.end, new_ret,
				  "binding: the declaration of %s() returns what its definition returns", d->name);
		else if (!text_same_but_blanks(dret, new_ret))
			matches_old = matches_new = false;
	}
	/* the parameters: those the definition gained, where it has them */
	if (dp->now->nparams != dp->old->nparams && matches_old && !matches_new) {
		for (size_t i = 0; i < dp->now->nparams; i++) {
			const struct pybind_param *q = &dp->now->params[i];
			char *text;
			uint32_t at;
			if (has_param(dp->old->params, dp->old->nparams, q->name))
				continue;
			text = slice(dp->new_file, q->range);
			/* before the declaration's parameter i, or after its last */
			if (i < d->nparams) {
				char *t = xasprintf("%s, ", text);
				at = d->params[i].range.start;
				wire_edit(w, f, at, at, t, "binding: the declaration of %s() takes '%s' as its definition does",
					  d->name, q->name ? q->name : "?");
				free(t);
			} else if (d->nparams) {
				char *t = xasprintf(", %s", text);
				at = d->params[d->nparams - 1].range.end;
				wire_edit(w, f, at, at, t, "binding: the declaration of %s() takes '%s' as its definition does",
					  d->name, q->name ? q->name : "?");
				free(t);
			} else {
				at = d->params_range.start + 1;
				wire_edit(w, f, at, at, text, "binding: the declaration of %s() takes '%s' as its definition does",
					  d->name, q->name ? q->name : "?");
			}
			free(text);
		}
	} else if (!matches_old && !matches_new) {
		wire_manual(w, f, d->range.start, d->range.end,
			    "this declaration of %s() matches neither its definition (%s:%zu) before wiring nor after: "
			    "declare it as the definition is", d->name, dp->old_file->path,
			    src_file_line(dp->old_file, dp->old->range.start));
	}
	free(old_ret);
	free(new_ret);
	free(dret);
}

/* The declarations in file `path` of the changed functions. */
static void decls_in(struct wire *w, const char *path, char *const *names, size_t nnames, struct def_pair *pairs,
		     size_t npairs)
{
	const struct project_model *p = w->p;
	struct src_file *peek;
	const struct src_file *f;
	struct project_decls d;
	bool named = false;

	/* the kernel tree holds device code, never a binding's prototype */
	if (!src_file_is_cxx_name(path) ||
	    (p->kernel_root && strncmp(path, p->kernel_root, strlen(p->kernel_root)) == 0 &&
	     path[strlen(p->kernel_root)] == '/'))
		return;
	peek = src_file_load(path);
	for (size_t k = 0; peek && k < nnames && !named; k++)
		named = strstr(peek->data, names[k]) != NULL;
	src_file_free(peek);
	if (!named || !(f = wire_load(w, path)))
		return;
	project_decls_read(f, names, nnames, &d);
	for (size_t k = 0; k < d.n; k++)
		for (size_t q = 0; q < npairs; q++)
			if (strcmp(pairs[q].name, d.v[k].name) == 0)
				wire_decl(w, f, &d.v[k], &pairs[q]);
	project_decls_release(&d);
}

/* pybind11: m.def("name", &fn, py::arg("x"), ...) of a changed function
 * gains py::arg("profiling_data") = py::none() where the definition gained
 * the parameter (py::arg lists must name every parameter). */
static void wire_pyargs(struct wire *w, const struct def_pair *pairs, size_t npairs)
{
	const struct project_model *p = w->p;

	for (size_t b = 0; b < p->npybinds; b++)
		for (size_t i = 0; i < p->pybinds[b].pb.nnames; i++) {
			const struct pybind_opname *o = &p->pybinds[b].pb.names[i];
			const struct src_file *f = p->pybinds[b].f;
			const struct def_pair *dp = NULL;
			if (!o->pybind11 || !o->impl_fn || o->npyargs == 0)
				continue;
			for (size_t q = 0; q < npairs && !dp; q++)
				if (strcmp(pairs[q].name, o->impl_fn) == 0)
					dp = &pairs[q];
			if (!dp || o->npyargs != dp->old->nparams || dp->now->nparams == dp->old->nparams)
				continue;
			for (size_t k = 0; k < dp->now->nparams; k++) {
				const struct pybind_param *q = &dp->now->params[k];
				char *t;
				bool optional;
				uint32_t at;
				if (!q->name || has_param(dp->old->params, dp->old->nparams, q->name))
					continue;
				optional = q->type && strstr(q->type, "optional");
				if (k < o->npyargs) {
					at = o->pyargs[k].range.start;
					t = xasprintf("py::arg(\"%s\")%s, ", q->name, optional ? " = py::none()" : "");
				} else {
					at = o->pyargs[o->npyargs - 1].range.end;
					t = xasprintf(", py::arg(\"%s\")%s", q->name, optional ? " = py::none()" : "");
				}
				wire_edit(w, f, at, at, t, "binding: the pybind11 m.def of '%s' names '%s'", o->name, q->name);
				free(t);
			}
		}
}

struct decl_walk {
	char **names;
	size_t nnames;
	struct def_pair *pairs;
	size_t npairs;
};

static void decls_each(struct wire *w, const char *path, void *ctx)
{
	struct decl_walk *dw = ctx;

	decls_in(w, path, dw->names, dw->nnames, dw->pairs, dw->npairs);
}

void wire_decls(struct wire *w)
{
	const struct project_model *p = w->p;
	struct def_pair *pairs;
	size_t npairs = 0;
	char **names = NULL;
	size_t nnames = 0;

	if (p->nbind_funcs == 0)
		return;
	pairs = xcalloc(p->nbind_funcs, sizeof(*pairs));
	names = xcalloc(p->nbind_funcs, sizeof(*names));
	for (size_t i = 0; i < p->nbind_funcs; i++)
		if (pair_of(w, p->bind_funcs[i], &pairs[npairs])) {
			names[nnames++] = p->bind_funcs[i];
			npairs++;
		} else {
			pair_release(&pairs[npairs]);
		}
	wire_pyargs(w, pairs, npairs);
	if (npairs) {
		struct decl_walk dw = { names, nnames, pairs, npairs };
		wire_each_project_file(w, decls_each, &dw);
	}
	for (size_t i = 0; i < npairs; i++)
		pair_release(&pairs[i]);
	free(pairs);
	free(names);
}
