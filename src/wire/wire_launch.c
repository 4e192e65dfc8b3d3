/* wire, the direct-launch form (project_launch.h): the host function that
 * launches the kernel allocates the profiling tensor (int64, from the named
 * bound, on its first tensor's device), passes it where the kernel takes it
 * and returns it last (mode B): a `void` function becomes `at::Tensor`, an
 * `at::Tensor` one `std::tuple<at::Tensor, at::Tensor>`, a tuple one tensor
 * longer; its declarations under the root change with it, the schema of its
 * torch.ops name returns one more Tensor, a lambda registered for it
 * returns its value. Functions registered under the same names (meta
 * functions) allocate and return it too. A declaration that is nowhere under
 * the root is a warning naming the includes that were not found. The kernel
 * side is wire_kernel.c's, keyed by the launch. */
#include <stdlib.h>
#include <string.h>

#include "c_ident.h"
#include "project_tokens.h"
#include "wire.h"
#include "xalloc.h"

static const struct src_file *file_of(struct wire *w, size_t fi)
{
	return wire_load(w, w->p->launch.files[fi].f->path);
}

static bool own_line(const struct src_file *f, uint32_t at)
{
	for (uint32_t i = wire_line_start(f, at); i < at; i++)
		if (f->data[i] != ' ' && f->data[i] != '\t')
			return false;
	return true;
}

/* ---- the launch ---- */

/* Whether `name` is a tensor of the host function at the launch: 1 a tensor
 * parameter or a local declared as one (at::Tensor, auto of a tensor), -1
 * something else (another parameter, a pointer), 0 not known. */
static int tensor_name(const struct launch_file *lf, const struct launch_site *s, const char *name)
{
	const struct pybind_func *pf = s->func >= 0 ? &lf->pb.funcs[s->func] : NULL;
	const struct pybind_var *v;
	uint32_t at;
	bool tensor = false, star = false, aut = false;

	for (size_t k = 0; pf && k < pf->nparams; k++)
		if (pf->params[k].name && strcmp(pf->params[k].name, name) == 0)
			return pf->params[k].tensor ? 1 : -1;
	if (!(v = pybind_var_before(&lf->pb, s->func, name, s->range.start)))
		return 0;
	/* the declaration's type: back from the name to the statement's start,
	   read as tokens (a comment before it is no part of it: the '*' of a
	   comment made `at::Tensor z` look like a pointer) */
	for (at = v->range.start; at > 0 && !strchr(";{}", lf->f->data[at - 1]); at--)
		;
	{
		struct tok_view tv;
		tok_view_init(&tv, lf->f->data + at, v->range.start - at);
		for (size_t k = 0; k < tv.n; k++) {
			tensor = tensor || tv_is(&tv, k, "Tensor");
			aut = aut || tv_is(&tv, k, "auto");
			star = star || tv_punct(&tv, k, CXX_P_STAR);
		}
		tok_view_release(&tv);
	}
	if (star || strstr(v->init, "data_ptr"))
		return -1;
	return tensor || aut ? 1 : 0;
}

/* The argument that passes the profiling tensor as the launch passes its
 * neighbour `arg`: its tensor replaced (`y.data_ptr()` ->
 * `profiling_data.data_ptr()`), a plain name when it is one; NULL when the
 * neighbour holds no tensor wire can see. */
static char *like_arg(const struct wire *w, const struct launch_file *lf, const struct launch_site *s, const char *arg)
{
	struct tok_view tv;
	char *out = NULL;
	size_t idents = 0;

	tok_view_init(&tv, arg, strlen(arg));
	for (size_t k = 0; k < tv.n; k++)
		idents += tv_ident(&tv, k);
	for (size_t k = 0; k < tv.n && !out; k++) {
		char *name;
		int t;
		if (!tv_ident(&tv, k) || (k > 0 && (tv_punct(&tv, k - 1, CXX_P_DOT) || tv_punct(&tv, k - 1, CXX_P_ARROW))))
			continue;
		name = tv_tok_text(&tv, k, false);
		t = tensor_name(lf, s, name);
		if (t > 0 || (t == 0 && idents == 1 && tv.n == 1))
			out = xasprintf("%.*s%s%s", (int)tv.v[k].start, arg, w->prof, arg + tv.v[k].end);
		free(name);
	}
	tok_view_release(&tv);
	return out;
}

/* A launch that passes its tensors through pointer variables (`void *y_ptr
 * = y.data_ptr();` ... launch(..., y_ptr, ...)): the profiling tensor's the
 * same way, declared like its neighbour's just before the launch statement
 * (`void *profiling_data_ptr = profiling_data.data_ptr();`). The new
 * argument, or NULL when `arg` is no such variable. */
static char *ptr_arg(struct wire *w, const struct src_file *f, const struct launch_file *lf,
		     const struct launch_site *s, const char *arg)
{
	const struct pybind_var *v;
	const char *init;
	size_t n;
	uint32_t at, line;
	char *tensor, *decl, *ind, *name, *t;

	if (!tv_text_is_ident(arg, strlen(arg)) || !(v = pybind_var_before(&lf->pb, s->func, arg, s->range.start)))
		return NULL;
	init = v->init;
	for (n = 0; init[n] && c_ident_char(init[n]); n++)
		;
	if (!n || strncmp(init + n, ".data_ptr(", 10) != 0)
		return NULL;
	tensor = xstrndup(init, n);
	if (tensor_name(lf, s, tensor) <= 0) {
		free(tensor);
		return NULL;
	}
	free(tensor);
	for (at = v->range.start; at > 0 && !strchr(";{}", lf->f->data[at - 1]); at--)
		;
	while (at < v->range.start && strchr(" \t\r\n", lf->f->data[at]))
		at++;
	name = xasprintf("%s_ptr", w->prof);
	decl = xstrndup(lf->f->data + at, v->range.start - at);
	line = wire_line_start(f, s->range.start);
	ind = wire_indent_at(f, s->range.start);
	t = xasprintf("%s%s%s = %s%s;\n", ind, decl, name, w->prof, init + n);
	wire_edit(w, f, line, line, t, "launch: '%s' passed as %s passes its tensors ('%s%s = %s%s')", w->prof,
		  s->via, decl, name, w->prof, init + n);
	free(t);
	free(ind);
	free(decl);
	return name;
}

static void wire_site(struct wire *w, const struct src_file *f, const struct launch_file *lf,
		      const struct launch_site *s)
{
	const struct project_kentry *e = project_launch_entry(&w->p->kernels, s->kernel);
	size_t want, need, n = s->args.n;
	bool kernel_has = false;
	char *t, *arg;

	for (size_t a = 0; a < n; a++) {
		char *id = project_launch_prof_ident(s->args.v[a], w->prof);
		free(id);
		if (id)
			return; /* passed already: G2 says where it belongs */
	}
	if (!e)
		return;
	if (s->unknown) {
		wire_manual(w, f, s->range.start, s->range.end,
			    "%s launches '%s', but its definition does not tell which of its arguments are the kernel's: pass "
			    "'%s' by hand where '%s' takes 'profilingData'", s->via, s->kernel, w->prof, e->name);
		return;
	}
	if (s->kind == LAUNCH_MACRO && !w->p->launch.macros[s->macro].variadic) {
		const struct launch_macro *mc = &w->p->launch.macros[s->macro];
		wire_manual(w, f, s->range.start, s->range.end,
			    "%s (%s:%zu) takes a fixed number of arguments: give it one more parameter, or '...', for '%s' "
			    "and pass it where '%s' takes 'profilingData', by hand", mc->name, mc->path ? mc->path : "?",
			    mc->line, w->prof, e->name);
		return;
	}
	want = project_launch_position(e, w->prof);
	for (size_t i = 0; i < e->nparams; i++)
		kernel_has = kernel_has || (e->params[i].name && tv_names_profiling(e->params[i].name, w->prof));
	need = e->nparams - (kernel_has ? 1 : 0);
	if (n != need) {
		wire_manual(w, f, s->range.start, s->range.end,
			    "this launch passes %zu arguments, but the kernel '%s' (%s:%zu) takes %zu: wire cannot tell which "
			    "parameter each argument is; pass '%s' as its argument %zu by hand", n, e->name, e->file->path,
			    src_file_line(e->file, e->params_start), need, w->prof, want + 1);
		return;
	}
	if (n == 0) {
		t = xasprintf(", %s", w->prof);
		wire_edit(w, f, s->tail, s->tail, t, "launch: %s passes '%s' to '%s' as argument 1", s->via, w->prof,
			  s->kernel);
		free(t);
		return;
	}
	/* in the form the launch passes its other tensors in */
	if (!(arg = like_arg(w, lf, s, s->args.v[want > 0 ? want - 1 : 0])) &&
	    !(arg = ptr_arg(w, f, lf, s, s->args.v[want > 0 ? want - 1 : 0]))) {
		wire_manual(w, f, s->args.ranges[want > 0 ? want - 1 : 0].start, s->args.ranges[want > 0 ? want - 1 : 0].end,
			    "wire cannot tell how this launch passes its tensors ('%s' is no tensor of %s() it can see): pass "
			    "'%s' the same way, as argument %zu", s->args.v[want > 0 ? want - 1 : 0],
			    s->func >= 0 ? lf->pb.funcs[s->func].name : "the host function", w->prof, want + 1);
		return;
	}
	if (want < n) {
		uint32_t at = s->args.ranges[want].start;
		char *ind = wire_indent_at(f, at);
		t = own_line(f, at) ? xasprintf("%s,\n%s", arg, ind) : xasprintf("%s, ", arg);
		wire_edit(w, f, at, at, t, "launch: %s passes '%s' to '%s' as argument %zu (before '%s')", s->via, arg,
			  s->kernel, want + 1, s->args.v[want]);
		free(ind);
	} else {
		uint32_t at = s->args.ranges[n - 1].end, last = s->args.ranges[n - 1].start;
		char *ind = wire_indent_at(f, last);
		t = own_line(f, last) ? xasprintf(",\n%s%s", ind, arg) : xasprintf(", %s", arg);
		wire_edit(w, f, at, at, t, "launch: %s passes '%s' to '%s' last (argument %zu)", s->via, arg, s->kernel, n + 1);
		free(ind);
	}
	free(t);
	free(arg);
}

/* ---- return types ---- */

/* The offset of word `word` in [start, end) of f, or UINT32_MAX. */
static uint32_t word_in(const struct src_file *f, uint32_t start, uint32_t end, const char *word)
{
	size_t n = strlen(word);

	for (uint32_t i = start; i + n <= end; i++)
		if (memcmp(f->data + i, word, n) == 0 && (i == start || !c_ident_char(f->data[i - 1])) &&
		    (i + n == end || !c_ident_char(f->data[i + n])))
			return i;
	return UINT32_MAX;
}

/* The return type [start, end) of a function, declaration or lambda, of
 * `arity` values, made to give one more, the profiling tensor last. */
static void retype(struct wire *w, const struct src_file *f, uint32_t start, uint32_t end, long arity, bool ref,
		   const char *what)
{
	uint32_t at;

	if (arity == 0 && (at = word_in(f, start, end, "void")) != UINT32_MAX) {
		wire_edit(w, f, at, at + 4, "at::Tensor", "launch: %s returns at::Tensor ('%s')", what, w->prof);
		return;
	}
	if (arity > 1) {
		uint32_t gt = end;
		while (gt > start && f->data[gt - 1] != '>')
			gt--;
		if (gt > start) {
			wire_edit(w, f, gt - 1, gt - 1, ", at::Tensor", "launch: %s returns std::tuple of %ld tensors, '%s' last",
				  what, arity + 1, w->prof);
			return;
		}
	}
	if (arity == 1 && (at = word_in(f, start, end, "Tensor")) != UINT32_MAX) {
		uint32_t from = at >= start + 4 && memcmp(f->data + at - 4, "at::", 4) == 0 ? at - 4 : at, to = at + 6;
		const char *type = "std::tuple<at::Tensor, at::Tensor>";
		if (ref) {
			while (to < end && f->data[to] != '&')
				to++;
			to = to < end ? to + 1 : at + 6;
			type = "std::tuple<at::Tensor &, at::Tensor>";
		}
		wire_edit(w, f, from, to, type, "launch: %s returns %s", what, type);
		return;
	}
	wire_manual(w, f, start, end > start ? end : start + 1,
		    "make %s return one more value, '%s' (at::Tensor) last", what, w->prof);
}

/* ---- the host and registered functions ---- */

/* True when the `return` at token r lies in a lambda inside the body [open, close). */
static bool in_lambda(const struct tok_view *tv, size_t open, size_t r)
{
	for (size_t k = open + 1; k < r; k++) {
		size_t b = k;
		if (!tv_punct(tv, k, CXX_P_LBRACKET) || tv->match[k] == TV_NONE)
			continue;
		b = tv->match[k] + 1;
		if (tv_punct(tv, b, CXX_P_LPAREN) && tv->match[b] != TV_NONE)
			b = tv->match[b] + 1;
		while (b < tv->n && !tv_punct(tv, b, CXX_P_LBRACE) && !tv_punct(tv, b, CXX_P_SEMI) &&
		       !tv_punct(tv, b, CXX_P_COMMA) && !tv_punct(tv, b, CXX_P_RPAREN))
			b++;
		if (tv_punct(tv, b, CXX_P_LBRACE) && tv->match[b] != TV_NONE && b < r && r < tv->match[b])
			return true;
	}
	return false;
}

/* A void function made to return the tensor (or one typed so already, with no
 * return): every `return;` of its own, and its end. */
static void void_returns(struct wire *w, const struct src_file *f, const struct pybind_func *pf)
{
	struct tok_view tv;
	size_t open = TV_NONE, close, last = TV_NONE;
	char *t;

	tok_view_init(&tv, f->data, f->len);
	open = tv_at(&tv, pf->body.start);
	if (open >= tv.n || !tv_punct(&tv, open, CXX_P_LBRACE) || tv.match[open] == TV_NONE) {
		tok_view_release(&tv);
		return;
	}
	close = tv.match[open];
	for (size_t k = open + 1; k < close; k++) {
		if (!tv_is(&tv, k, "return") || in_lambda(&tv, open, k))
			continue;
		last = k;
		if (tv_punct(&tv, k + 1, CXX_P_SEMI)) {
			t = xasprintf("return %s;", w->prof);
			wire_edit(w, f, tv.v[k].start, tv.v[k + 1].end, t, "launch: %s() returns '%s' here", pf->name, w->prof);
			free(t);
		}
	}
	/* the end of the body, unless it ends in a return */
	if (!(last != TV_NONE && last + 1 < close && tv_punct(&tv, close - 1, CXX_P_SEMI) &&
	      (last + 2 == close || !memchr(f->data + tv.v[last].end, ';', tv.v[close - 1].start - tv.v[last].end)))) {
		uint32_t at = wire_line_start(f, tv.v[close].start);
		char *ind = close > open + 1 ? wire_indent_at(f, tv.v[close - 1].start) : xstrdup("    ");
		if (!own_line(f, tv.v[close].start)) {
			t = xasprintf(" return %s; ", w->prof);
			at = tv.v[close].start;
		} else {
			t = xasprintf("%sreturn %s;\n", ind[0] ? ind : "    ", w->prof);
		}
		wire_edit(w, f, at, at, t, "launch: %s() returns '%s' at its end", pf->name, w->prof);
		free(t);
		free(ind);
	}
	tok_view_release(&tv);
}

/* Mode B for a reference return (`at::Tensor &f(...)`): the value forwarded with the tensor. */
static void ref_returns(struct wire *w, const struct src_file *f, const struct pybind_file *pb, long fi)
{
	for (size_t r = 0; r < pb->nreturns; r++) {
		const struct pybind_return *ret = &pb->returns[r];
		char *t;
		if (ret->func != fi || ret->elems.n != 1)
			continue;
		t = xasprintf("std::forward_as_tuple(%s, %s)", ret->elems.v[0], w->prof);
		wire_edit(w, f, ret->elems.ranges[0].start, ret->elems.ranges[0].end, t, "launch: %s() returns (%s, %s)",
			  pb->funcs[fi].name, ret->elems.v[0], w->prof);
		free(t);
	}
}

static void wire_func(struct wire *w, size_t fi, const struct launch_func *fn, bool *consts_done)
{
	const struct project_launch *l = &w->p->launch;
	const struct launch_file *lf = &l->files[fi];
	const struct pybind_func *pf = &lf->pb.funcs[fn->index];
	const struct src_file *f = file_of(w, fi);
	char *what;
	bool have = pybind_var_before(&lf->pb, fn->index, w->prof, pf->body.end) != NULL;

	if (!f)
		return;
	for (size_t k = 0; k < pf->nparams; k++)
		have = have || (pf->params[k].name && tv_names_profiling(pf->params[k].name, w->prof));
	if (!have)
		wire_alloc_profiling(w, f, pf, fn->launches, consts_done);
	else
		wire_bound_kept(w, f, pf, consts_done);
	for (size_t s = 0; s < lf->nsites; s++)
		if (lf->sites[s].func == fn->index)
			wire_site(w, f, lf, &lf->sites[s]);
	if (fn->returns_prof) {
		/* wired already: the returns a later edit lost (none, or one without the tensor) */
		if (wire_main_outputs(w) == 0)
			void_returns(w, f, pf);
		else if (!fn->ref)
			wire_mode_b_returns(w, f, &lf->pb, fn->index);
		return;
	}
	what = xasprintf("%s()", pf->name);
	if (fn->arity == 0) {
		retype(w, f, pf->return_type.start, pf->return_type.end, 0, false, what);
		void_returns(w, f, pf);
	} else if (fn->arity == 1 && fn->ref) {
		retype(w, f, pf->return_type.start, pf->return_type.end, 1, true, what);
		ref_returns(w, f, &lf->pb, fn->index);
	} else {
		wire_mode_b_returns(w, f, &lf->pb, fn->index);
	}
	free(what);
}

/* ---- declarations, registrations, schemas ---- */

static void wire_decl(struct wire *w, const struct launch_decl *d)
{
	const struct project_launch *l = &w->p->launch;
	const struct src_file *f = file_of(w, d->file);
	long nmain = project_launch_main_of(l, d->func);
	char *what;

	if (!f || d->arity == nmain + 1)
		return;
	if (d->arity != nmain) {
		wire_manual(w, f, d->name.start, d->name.end,
			    "this declaration of %s() returns %ld value%s, its definition %ld: make them agree, then run wire "
			    "again", d->func, d->arity, d->arity == 1 ? "" : "s", nmain);
		return;
	}
	what = xasprintf("the declaration of %s()", d->func);
	retype(w, f, d->type.start, d->type.end, d->arity, d->ref, what);
	free(what);
}

static void wire_reg(struct wire *w, const struct launch_reg *g)
{
	const struct project_launch *l = &w->p->launch;
	const struct src_file *f;
	char *what;

	if (!g->lambda || !g->func || !(f = file_of(w, g->file)))
		return;
	what = xasprintf("the lambda registered for '%s'", g->name);
	if (g->lambda_ret.end > g->lambda_ret.start) {
		bool ref;
		long arity = project_launch_arity(f->data + g->lambda_ret.start, g->lambda_ret.end - g->lambda_ret.start, &ref);
		if (arity == project_launch_main_of(l, g->func))
			retype(w, f, g->lambda_ret.start, g->lambda_ret.end, arity, ref, what);
	}
	if (g->call_statement && !g->call_returned)
		wire_edit(w, f, g->call.start, g->call.start, "return ", "launch: %s returns what %s() returns", what,
			  g->func);
	else if (!g->call_returned)
		wire_manual(w, f, g->call.start, g->call.end > g->call.start ? g->call.end : g->at.end,
			    "%s calls %s() but does not return its value: return it, '%s' last (mode B)", what, g->func,
			    w->prof);
	free(what);
}

static void wire_schema(struct wire *w, const struct launch_schema *s)
{
	const struct project_launch *l = &w->p->launch;
	const struct pybind_opname *o = &l->files[s->file].pb.names[s->name];
	const struct src_file *f = file_of(w, s->file);
	uint32_t a = s->returns.start, e = s->returns.end;
	long nmain = l->nmain;
	char *t;

	/* the function registered under the schema's name answers for it */
	for (size_t g = 0; g < l->nregs; g++)
		if (l->regs[g].func && strcmp(l->regs[g].name, o->name) == 0) {
			nmain = project_launch_main_of(l, l->regs[g].func);
			break;
		}
	if (!f || s->nreturns < 0 || s->nreturns == nmain + 1)
		return; /* no returns written (a pybind11 m.def("name", &f)): nothing to grow */
	if (s->nreturns != nmain) {
		wire_manual(w, f, o->range.start, o->range.end,
			    "the schema of '%s' returns %ld value%s, the function registered for it %ld: make them agree, "
			    "then run wire again", o->name, s->nreturns, s->nreturns == 1 ? "" : "s", nmain);
		return;
	}
	if (s->nreturns == 0) {
		wire_edit(w, f, a, e, "Tensor", "launch: the schema of '%s' returns Tensor ('%s')", o->name, w->prof);
	} else if (f->data[a] == '(') {
		wire_edit(w, f, e - 1, e - 1, ", Tensor", "launch: the schema of '%s' returns %ld values, '%s' last", o->name,
			  s->nreturns + 1, w->prof);
	} else {
		t = xasprintf("(%.*s, Tensor)", (int)(e - a), f->data + a);
		wire_edit(w, f, a, e, t, "launch: the schema of '%s' returns %s", o->name, t);
		free(t);
	}
}

/* A registered function whose declaration is found nowhere under the root:
 * a warning at the includes that were not found, once per file and function. */
static void missing_decls(struct wire *w)
{
	const struct project_launch *l = &w->p->launch;

	for (size_t g = 0; g < l->nregs; g++) {
		const struct launch_reg *reg = &l->regs[g];
		const struct launch_file *lf = &l->files[reg->file];
		bool seen = false;
		if (!lf->nmissing || !reg->func)
			continue;
		for (size_t h = 0; h < g && !seen; h++)
			seen = l->regs[h].file == reg->file && l->regs[h].func && strcmp(l->regs[h].func, reg->func) == 0;
		if (seen)
			continue;
		{
			struct pybind_range at;
			char *msg = project_launch_missing(l, reg, w->p->root.path, w->prof, &at);
			diag_at(w->diag, DIAG_WARNING, src_loc_make(file_of(w, reg->file), at.start, at.end), "%s", msg);
			free(msg);
		}
	}
}

void wire_launch(struct wire *w)
{
	const struct project_launch *l = &w->p->launch;
	bool *consts = NULL;

	if (!project_launch_form(w->p))
		return;
	if (!w->required) {
		const struct launch_site *s = NULL;
		for (size_t fi = 0; fi < l->nfiles && !s; fi++)
			s = l->files[fi].nsites ? &l->files[fi].sites[0] : NULL;
		wire_manual(w, s ? file_of(w, 0) : NULL, s ? s->range.start : 0, s ? s->range.end : 0,
			    "the kernel is launched directly: wire threads '%s' in mode B (the host function allocates it and "
			    "returns it last); say 'profiling \"%s\" required;' (or auto) in the rules", w->prof, w->prof);
		return;
	}
	consts = xcalloc(l->nfiles ? l->nfiles : 1, sizeof(*consts));
	for (size_t k = 0; k < l->nfuncs; k++) {
		w->fn_main = project_launch_main_of(l, project_launch_pf(l, &l->funcs[k])->name);
		wire_func(w, l->funcs[k].file, &l->funcs[k], &consts[l->funcs[k].file]);
		w->fn_main = -1;
	}
	for (size_t fi = 0; fi < l->nfiles; fi++)
		for (size_t s = 0; s < l->files[fi].nsites; s++)
			if (l->files[fi].sites[s].func < 0)
				wire_manual(w, file_of(w, fi), l->files[fi].sites[s].range.start, l->files[fi].sites[s].range.end,
					    "this launch of '%s' is in no function wire can read: pass '%s' to it and return it by "
					    "hand", l->files[fi].sites[s].kernel, w->prof);
	for (size_t d = 0; d < l->ndecls; d++)
		wire_decl(w, &l->decls[d]);
	for (size_t g = 0; g < l->nregs; g++)
		wire_reg(w, &l->regs[g]);
	for (size_t s = 0; s < l->nschemas; s++)
		wire_schema(w, &l->schemas[s]);
	for (size_t k = 0; k < l->nfuncs && l->nnames == 0; k++)
		if (l->funcs[k].launches) {
			const struct pybind_func *pf = project_launch_pf(l, &l->funcs[k]);
			wire_manual(w, file_of(w, l->funcs[k].file), pf->range.start, pf->params_range.start,
				    "%s() launches the kernel, but no m.impl or m.def under the project root registers it "
				    "(looked for %s): register it as the torch.ops function, or '%s' never reaches Python",
				    pf->name, project_searched_text(w->p).s, w->prof);
			break;
		}
	missing_decls(w);
	free(consts);
}
