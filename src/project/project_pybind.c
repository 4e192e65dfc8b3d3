/* EXEC_NPU_CMD calls, returned tuples, initialisers, op names, autograd
 * Function classes and their apply calls of a binding. */
#include "project_pybind.h"

#include <stdlib.h>
#include <string.h>

#include "c_ident.h"
#include "cxx_outline.h"
#include "project_tokens.h"
#include "xalloc.h"

static struct pybind_range rng(uint32_t s, uint32_t e)
{
	struct pybind_range r = { s, e };
	return r;
}

static void list_from(const struct tok_view *tv, size_t open, size_t skip, struct pybind_list *l)
{
	size_t *s, *e, n = tv_split_args(tv, open, &s, &e);

	memset(l, 0, sizeof(*l));
	if (n > skip) {
		l->v = xmalloc((n - skip) * sizeof(*l->v));
		l->ranges = xmalloc((n - skip) * sizeof(*l->ranges));
		for (size_t a = skip; a < n; a++) {
			l->v[l->n] = tv_text(tv, s[a], e[a]);
			l->ranges[l->n] = s[a] < e[a] ? rng(tv->v[s[a]].start, tv->v[e[a] - 1].end)
						      : rng(tv->v[s[a]].start, tv->v[s[a]].start);
			l->n++;
		}
	}
	free(s);
	free(e);
}

static void list_release(struct pybind_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	free(l->ranges);
}

static long func_at(const struct pybind_file *p, uint32_t at)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].body.start <= at && at < p->funcs[i].body.end)
			return (long)i;
	return -1;
}

/* Count of top-level commas + 1 in a template argument text like
 * "at::Tensor, at::Tensor"; handles nested <> and (). */
static long count_targs(const char *s)
{
	long n = 1;
	int depth = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s == '<' || *s == '(')
			depth++;
		else if (*s == '>' || *s == ')')
			depth--;
		else if (*s == ',' && depth == 0)
			n++;
	}
	return n;
}

/* `Function<NAME>` (the CRTP base of an autograd Function) in a base clause. */
static bool autograd_base(const char *target, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = target ? strstr(target, "Function") : NULL; s; s = strstr(s + 1, "Function")) {
		const char *a = s + 8;
		const char *last;
		while (*a == ' ')
			a++;
		if (*a != '<')
			continue;
		a++;
		while (*a == ' ')
			a++;
		/* the argument's last component is the class itself */
		last = a;
		for (const char *q = a; *q && *q != '>' && *q != ','; q++)
			if (q[0] == ':' && q[1] == ':')
				last = q + 2;
		if (strncmp(last, name, n) == 0 && (last[n] == '>' || last[n] == ' '))
			return true;
	}
	return false;
}

static const char *last_component(const char *s)
{
	const char *r = s;

	for (const char *q = s; *q; q++)
		if (q[0] == ':' && q[1] == ':')
			r = q + 2;
	return r;
}

static void read_funcs(const struct src_file *f, struct pybind_file *out)
{
	struct cxx_outline *ol = cxx_outline_build(f, NULL, NULL);

	for (size_t i = 0; i < ol->ntypes; i++) {
		const struct cxx_type *t = &ol->types[i];
		struct pybind_autograd a;
		if (t->kind != CXX_TYPE_CLASS || !autograd_base(t->target, t->name))
			continue;
		a.name = xstrdup(t->name);
		a.range = rng(t->range.start, t->range.end);
		a.forward = a.backward = -1;
		out->autograds = xrealloc(out->autograds, (out->nautograds + 1) * sizeof(*out->autograds));
		out->autograds[out->nautograds++] = a;
	}
	for (size_t i = 0; i < ol->nincludes; i++)
		if (!ol->includes[i].system) {
			out->includes = xrealloc(out->includes, (out->nincludes + 1) * sizeof(*out->includes));
			out->includes[out->nincludes++] = xstrdup(ol->includes[i].name);
		}
	for (size_t i = 0; i < ol->nfuncs; i++) {
		const struct cxx_func *fn = &ol->funcs[i];
		struct pybind_func pf;
		const char *t;
		if (fn->def != CXX_DEF_BODY)
			continue;
		/* device code (a __global__ entry, an __aicore__ function) is no binding,
		   whatever its name: a sibling operator's kernel named as the binding */
		if (fn->kernel || (fn->prefix && strstr(fn->prefix, "__aicore__")))
			continue;
		memset(&pf, 0, sizeof(pf));
		pf.name = xstrdup(fn->name);
		pf.scope = xstrdup(fn->scope ? last_component(fn->scope) : "");
		pf.range = rng(fn->range.start, fn->range.end);
		pf.body = rng(fn->body_range.start, fn->body_range.end);
		pf.return_type = rng(fn->range.start, fn->name_range.start);
		pf.tuple_arity = -1;
		pf.params_range = rng(fn->params_range.start, fn->params_range.end);
		pf.params = fn->nparams ? xcalloc(fn->nparams, sizeof(*pf.params)) : NULL;
		for (size_t k = 0; k < fn->nparams; k++) {
			pf.params[k].type = xstrdup(fn->params[k].type ? fn->params[k].type : "");
			pf.params[k].name = fn->params[k].name ? xstrdup(fn->params[k].name) : NULL;
			pf.params[k].range = rng(fn->params[k].range.start, fn->params[k].range.end);
			pf.params[k].tensor = pybind_type_is_tensor(pf.params[k].type);
		}
		pf.nparams = fn->nparams;
		t = fn->prefix ? strstr(fn->prefix, "tuple<") : NULL;
		if (t) {
			char *in = xstrdup(t + 6), *end = strrchr(in, '>');
			if (end) {
				*end = '\0';
				pf.tuple_arity = count_targs(in);
			}
			free(in);
		}
		out->funcs = xrealloc(out->funcs, (out->nfuncs + 1) * sizeof(*out->funcs));
		out->funcs[out->nfuncs++] = pf;
	}
	/* the forward and backward a Function class defines in its body */
	for (size_t a = 0; a < out->nautograds; a++)
		for (size_t i = 0; i < out->nfuncs; i++) {
			const struct pybind_func *pf = &out->funcs[i];
			if (strcmp(pf->scope, out->autograds[a].name) != 0 || pf->range.start < out->autograds[a].range.start ||
			    pf->range.end > out->autograds[a].range.end)
				continue;
			if (strcmp(pf->name, "forward") == 0)
				out->autograds[a].forward = (long)i;
			else if (strcmp(pf->name, "backward") == 0)
				out->autograds[a].backward = (long)i;
		}
	cxx_outline_free(ol);
}

long pybind_autograd_named(const struct pybind_file *p, const char *name)
{
	for (size_t i = 0; i < p->nautograds; i++)
		if (strcmp(p->autograds[i].name, last_component(name)) == 0)
			return (long)i;
	return -1;
}

long pybind_autograd_of_func(const struct pybind_file *p, long fn)
{
	for (size_t i = 0; fn >= 0 && i < p->nautograds; i++)
		if (p->autograds[i].forward == fn || p->autograds[i].backward == fn)
			return (long)i;
	return -1;
}

long pybind_apply_next(const struct pybind_file *p, long fn, size_t *from)
{
	for (size_t i = *from; i < p->napplies; i++)
		if (p->applies[i].func == fn) {
			*from = i + 1;
			return (long)i;
		}
	*from = p->napplies;
	return -1;
}

bool pybind_type_is_tensor_list(const char *type)
{
	return strstr(type, "tensor_list") || strstr(type, "variable_list") ||
	       (strstr(type, "vector") && strstr(type, "Tensor"));
}

bool pybind_type_is_tensor(const char *type)
{
	return strstr(type, "Tensor") != NULL && !strstr(type, "TensorOptions");
}

long pybind_func_named(const struct pybind_file *p, const char *name)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (strcmp(p->funcs[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* The function an m.impl registers: the last identifier of its last argument
 * (`&ns::fn`, `TORCH_FN(ns::fn)`), or NULL. */
static char *impl_function(const struct tok_view *tv, size_t open)
{
	size_t close = tv->match[open], *s, *e, n;
	char *fn = NULL;

	if (close == TV_NONE)
		return NULL;
	n = tv_split_args(tv, open, &s, &e);
	if (n >= 2)
		for (size_t k = s[n - 1]; k < e[n - 1]; k++)
			if (tv_ident(tv, k) && !tv_is(tv, k, "TORCH_FN")) {
				free(fn);
				fn = tv_tok_text(tv, k, false);
			}
	free(s);
	free(e);
	return fn;
}

void pybind_schema_read(const struct src_file *f, const struct pybind_opname *o, struct pybind_schema *out)
{
	/* the characters inside the literal pieces, with their offsets in the file */
	size_t cap = o->range.end - o->range.start + 1, n = 0;
	char *text = xmalloc(cap);
	uint32_t *at = xmalloc(cap * sizeof(*at));
	bool in = false;
	size_t open = 0, close = 0, start;
	int depth = 0;

	memset(out, 0, sizeof(*out));
	for (uint32_t i = o->range.start; i < o->range.end; i++) {
		char c = f->data[i];
		if (c == '"' && (i == o->range.start || f->data[i - 1] != '\\')) {
			in = !in;
			continue;
		}
		if (!in)
			continue;
		if (c == '\\' && i + 1 < o->range.end) {
			i++;
			c = f->data[i];
		}
		text[n] = c;
		at[n++] = i;
	}
	text[n] = '\0';
	while (open < n && text[open] != '(')
		open++;
	for (close = open; close < n; close++) {
		if (text[close] == '(' || text[close] == '[')
			depth++;
		else if (text[close] == ')' || text[close] == ']') {
			if (--depth == 0)
				break;
		}
	}
	if (open >= n || close >= n) {
		free(text);
		free(at);
		return;
	}
	out->ok = true;
	out->close = at[close];
	depth = 0;
	start = open + 1;
	for (size_t i = open + 1; i <= close; i++) {
		if (i < close && (text[i] == '(' || text[i] == '['))
			depth++;
		else if (i < close && (text[i] == ')' || text[i] == ']'))
			depth--;
		if (i == close || (text[i] == ',' && depth == 0)) {
			size_t a = start, b = i;
			while (a < b && (text[a] == ' ' || text[a] == '\t' || text[a] == '\n'))
				a++;
			while (b > a && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\n'))
				b--;
			if (b > a && !(b - a == 1 && text[a] == '*')) {
				struct pybind_schema_arg g;
				size_t sp = a;
				memset(&g, 0, sizeof(g));
				while (sp < b && text[sp] != ' ')
					sp++;
				g.type = xstrndup(text + a, sp - a);
				while (sp < b && text[sp] == ' ')
					sp++;
				{
					size_t eq = sp;
					while (eq < b && text[eq] != '=')
						eq++;
					g.name = xstrndup(text + sp, eq - sp);
					g.has_default = eq < b;
				}
				g.tensor = strncmp(g.type, "Tensor", 6) == 0;
				g.range = rng(at[a], at[b - 1] + 1);
				out->args = xrealloc(out->args, (out->nargs + 1) * sizeof(*out->args));
				out->args[out->nargs++] = g;
			}
			start = i + 1;
		}
	}
	free(text);
	free(at);
}

void pybind_schema_release(struct pybind_schema *s)
{
	for (size_t i = 0; i < s->nargs; i++) {
		free(s->args[i].type);
		free(s->args[i].name);
	}
	free(s->args);
	memset(s, 0, sizeof(*s));
}

long pybind_schema_find(const struct pybind_schema *s, const char *name)
{
	for (size_t i = 0; i < s->nargs; i++)
		if (strcmp(s->args[i].name, name) == 0)
			return (long)i;
	return -1;
}

/* "name(args) -> (Tensor, Tensor)": the name and the count of returns. */
static void schema_parts(const char *s, char **name, long *nret)
{
	const char *p = strchr(s, '('), *arrow = strstr(s, "->");
	size_t n = p ? (size_t)(p - s) : strlen(s);

	while (n && (s[n - 1] == ' '))
		n--;
	*name = xstrndup(s, n);
	*nret = -1;
	if (arrow) {
		const char *r = arrow + 2;
		while (*r == ' ')
			r++;
		if (*r == '(') {
			long c = 1;
			int depth = 0;
			for (const char *q = r + 1; *q && !(*q == ')' && depth == 0); q++) {
				if (*q == '(' || *q == '[')
					depth++;
				else if (*q == ')' || *q == ']')
					depth--;
				else if (*q == ',' && depth == 0)
					c++;
			}
			*nret = c;
		} else if (*r) {
			*nret = 1;
		}
	}
}

/* pybind11's m.def("name", callable, "doc", py::arg("x"), py::arg("y") = v):
 * the callable's function name and the py::arg annotations. */
static void read_pybind11(const struct tok_view *tv, size_t open, struct pybind_opname *o)
{
	size_t close = tv->match[open], *s, *e, n;

	o->pybind11 = true;
	if (close == TV_NONE)
		return;
	o->call_end = tv->v[close].start;
	n = tv_split_args(tv, open, &s, &e);
	for (size_t k = n >= 2 ? s[1] : 0; n >= 2 && k < e[1]; k++)
		if (tv_ident(tv, k) && !tv_is(tv, k, "TORCH_FN") && !tv_is(tv, k, "overload_cast") && !tv_is(tv, k, "py")) {
			free(o->impl_fn);
			o->impl_fn = tv_tok_text(tv, k, false);
		}
	for (size_t a = 2; a < n; a++) {
		size_t k = s[a];
		struct pybind_pyarg pa;
		/* py::arg("x") [= v], pybind11::arg(...), "x"_a */
		while (k < e[a] && !tv_is(tv, k, "arg"))
			k++;
		if (k + 2 >= e[a] || !tv_punct(tv, k + 1, CXX_P_LPAREN) || tv->v[k + 2].kind != CXX_TOK_STRING)
			continue;
		memset(&pa, 0, sizeof(pa));
		pa.name = tv_tok_text(tv, k + 2, true);
		pa.range = rng(tv->v[s[a]].start, tv->v[e[a] - 1].end);
		for (size_t q = tv->match[k + 1] != TV_NONE ? tv->match[k + 1] : k; q < e[a]; q++)
			if (tv_punct(tv, q, CXX_P_ASSIGN))
				pa.has_default = true;
		o->pyargs = xrealloc(o->pyargs, (o->npyargs + 1) * sizeof(*o->pyargs));
		o->pyargs[o->npyargs++] = pa;
	}
	free(s);
	free(e);
}

void project_pybind(const struct src_file *f, struct pybind_file *out)
{
	struct tok_view tv;

	memset(out, 0, sizeof(*out));
	read_funcs(f, out);
	tok_view_init(&tv, f->data, f->len);
	/* X::apply( anywhere in a function, a return's value included */
	for (size_t i = 0; i + 3 < tv.n; i++) {
		const struct cxx_token *t = &tv.v[i];
		struct pybind_apply a;
		if (t->kind != CXX_TOK_IDENT || !tv_punct(&tv, i + 1, CXX_P_SCOPE) || !tv_is(&tv, i + 2, "apply") ||
		    !tv_punct(&tv, i + 3, CXX_P_LPAREN) || tv.match[i + 3] == TV_NONE || func_at(out, t->start) < 0)
			continue;
		a.cls = tv_tok_text(&tv, i, false);
		a.range = rng(t->start, tv.v[tv.match[i + 3]].end);
		a.func = func_at(out, t->start);
		out->applies = xrealloc(out->applies, (out->napplies + 1) * sizeof(*out->applies));
		out->applies[out->napplies++] = a;
	}
	for (size_t i = 0; i < tv.n; i++) {
		const struct cxx_token *t = &tv.v[i];
		if (t->kind == CXX_TOK_IDENT && t->end - t->start >= 12 &&
		    memcmp(tv.data + t->start, "EXEC_NPU_CMD", 12) == 0 && tv_punct(&tv, i + 1, CXX_P_LPAREN) &&
		    tv.match[i + 1] != TV_NONE) {
			struct pybind_exec x;
			size_t open = i + 1, close = tv.match[open], comma = open + 1;
			memset(&x, 0, sizeof(x));
			x.macro = tv_tok_text(&tv, i, false);
			x.range = rng(t->start, tv.v[close].end);
			while (comma < close && !tv_punct(&tv, comma, CXX_P_COMMA))
				comma++;
			x.api = tv_text(&tv, open + 1, comma);
			x.api_range = open + 1 < comma ? rng(tv.v[open + 1].start, tv.v[comma - 1].end)
						       : rng(tv.v[open].end, tv.v[open].end);
			x.args_range = comma < close ? rng(tv.v[comma].end, tv.v[close].start)
						     : rng(tv.v[close].start, tv.v[close].start);
			list_from(&tv, open, 1, &x.args);
			x.func = func_at(out, t->start);
			out->execs = xrealloc(out->execs, (out->nexecs + 1) * sizeof(*out->execs));
			out->execs[out->nexecs++] = x;
			i = close;
		} else if (cxx_tok_kw(t, CXX_KW_return)) {
			struct pybind_return r;
			size_t k = i + 1, end = k;
			memset(&r, 0, sizeof(r));
			while (end < tv.n && !tv_punct(&tv, end, CXX_P_SEMI)) {
				if (tv.match[end] != TV_NONE && tv.match[end] > end)
					end = tv.match[end];
				end++;
			}
			r.range = rng(t->start, end < tv.n ? tv.v[end].end : tv.v[end - 1].end);
			r.func = func_at(out, t->start);
			/* std::make_tuple( / std::tie( / std::tuple<...>( / { */
			if (tv_punct(&tv, k, CXX_P_LBRACE) && tv.match[k] != TV_NONE) {
				r.tuple = true;
				list_from(&tv, k, 0, &r.elems);
				r.list_range = rng(tv.v[k].end, tv.v[tv.match[k]].start);
			} else {
				size_t p = k;
				bool tuple_call = false;
				while (p < end && !tv_punct(&tv, p, CXX_P_LPAREN) && !tv_punct(&tv, p, CXX_P_LBRACE)) {
					if (tv_is(&tv, p, "make_tuple") || tv_is(&tv, p, "tie") || tv_is(&tv, p, "tuple") ||
					    tv_is(&tv, p, "forward_as_tuple"))
						tuple_call = true;
					if (tv_punct(&tv, p, CXX_P_LT)) {
						/* skip template arguments */
						int d = 0;
						for (; p < end; p++) {
							if (tv_punct(&tv, p, CXX_P_LT))
								d++;
							else if (tv_punct(&tv, p, CXX_P_GT))
								d--;
							else if (tv_punct(&tv, p, CXX_P_SHR))
								d -= 2;
							if (d <= 0)
								break;
						}
					}
					p++;
				}
				if (tuple_call && p < end && tv.match[p] != TV_NONE) {
					r.tuple = true;
					list_from(&tv, p, 0, &r.elems);
					r.list_range = rng(tv.v[p].end, tv.v[tv.match[p]].start);
				} else if (k < end) {
					r.elems.v = xmalloc(sizeof(*r.elems.v));
					r.elems.ranges = xmalloc(sizeof(*r.elems.ranges));
					r.elems.v[0] = tv_text(&tv, k, end);
					r.elems.ranges[0] = rng(tv.v[k].start, tv.v[end - 1].end);
					r.elems.n = 1;
					r.list_range = r.elems.ranges[0];
				}
			}
			out->returns = xrealloc(out->returns, (out->nreturns + 1) * sizeof(*out->returns));
			out->returns[out->nreturns++] = r;
			i = end;
		} else if (t->kind == CXX_TOK_IDENT && tv_punct(&tv, i + 1, CXX_P_ASSIGN) && func_at(out, t->start) >= 0) {
			struct pybind_var v;
			size_t end = i + 2;
			while (end < tv.n && !tv_punct(&tv, end, CXX_P_SEMI)) {
				if (tv.match[end] != TV_NONE && tv.match[end] > end)
					end = tv.match[end];
				end++;
			}
			v.name = tv_tok_text(&tv, i, false);
			v.init = tv_text(&tv, i + 2, end);
			v.range = rng(t->start, end < tv.n ? tv.v[end].end : tv.v[end - 1].end);
			v.func = func_at(out, t->start);
			out->vars = xrealloc(out->vars, (out->nvars + 1) * sizeof(*out->vars));
			out->vars[out->nvars++] = v;
		} else if ((tv_is(&tv, i, "def") || tv_is(&tv, i, "impl")) && i > 0 &&
			   (tv_punct(&tv, i - 1, CXX_P_DOT) || tv_punct(&tv, i - 1, CXX_P_ARROW)) &&
			   tv_punct(&tv, i + 1, CXX_P_LPAREN) && tv.v[i + 2].kind == CXX_TOK_STRING) {
			struct pybind_opname o;
			size_t k = i + 2;
			char *s;
			/* adjacent literals: "a" "b" */
			size_t cap = 64, len = 0;
			s = xmalloc(cap);
			s[0] = '\0';
			for (; tv.v[k].kind == CXX_TOK_STRING; k++) {
				char *part = tv_tok_text(&tv, k, true);
				size_t pl = strlen(part);
				XGROW(s, cap, len + pl + 1);
				memcpy(s + len, part, pl + 1);
				len += pl;
				free(part);
			}
			memset(&o, 0, sizeof(o));
			o.range = rng(tv.v[i + 2].start, tv.v[k - 1].end);
			o.schema = tv_is(&tv, i, "def");
			if (o.schema && !strchr(s, '(') && tv_punct(&tv, k, CXX_P_COMMA)) {
				/* pybind11: m.def("name", &fn, ...) names a function, no schema */
				o.schema = false;
				o.name = s;
				o.nreturns = -1;
				read_pybind11(&tv, i + 1, &o);
			} else if (o.schema) {
				schema_parts(s, &o.name, &o.nreturns);
				free(s);
			} else {
				o.name = s;
				o.nreturns = -1;
				o.impl_fn = impl_function(&tv, i + 1);
			}
			out->names = xrealloc(out->names, (out->nnames + 1) * sizeof(*out->names));
			out->names[out->nnames++] = o;
		}
	}
	tok_view_release(&tv);
}

void pybind_file_release(struct pybind_file *p)
{
	for (size_t i = 0; i < p->nfuncs; i++) {
		free(p->funcs[i].name);
		free(p->funcs[i].scope);
		for (size_t k = 0; k < p->funcs[i].nparams; k++) {
			free(p->funcs[i].params[k].type);
			free(p->funcs[i].params[k].name);
		}
		free(p->funcs[i].params);
	}
	for (size_t i = 0; i < p->nexecs; i++) {
		free(p->execs[i].macro);
		free(p->execs[i].api);
		list_release(&p->execs[i].args);
	}
	for (size_t i = 0; i < p->nreturns; i++)
		list_release(&p->returns[i].elems);
	for (size_t i = 0; i < p->nvars; i++) {
		free(p->vars[i].name);
		free(p->vars[i].init);
	}
	for (size_t i = 0; i < p->nnames; i++) {
		free(p->names[i].name);
		free(p->names[i].impl_fn);
		for (size_t k = 0; k < p->names[i].npyargs; k++)
			free(p->names[i].pyargs[k].name);
		free(p->names[i].pyargs);
	}
	for (size_t i = 0; i < p->nautograds; i++)
		free(p->autograds[i].name);
	for (size_t i = 0; i < p->napplies; i++)
		free(p->applies[i].cls);
	for (size_t i = 0; i < p->nincludes; i++)
		free(p->includes[i]);
	free(p->autograds);
	free(p->applies);
	free(p->includes);
	free(p->funcs);
	free(p->execs);
	free(p->returns);
	free(p->vars);
	free(p->names);
	memset(p, 0, sizeof(*p));
}

char *pybind_last_push(const struct src_file *f, const struct pybind_func *fn, const char *name, uint32_t before)
{
	struct tok_view tv;
	char *arg = NULL;

	tok_view_init(&tv, f->data, f->len);
	for (size_t i = tv_at(&tv, fn->body.start); i + 3 < tv.n && tv.v[i].start < before; i++) {
		size_t open = i + 3;
		if (!tv_is(&tv, i, name) || !tv_punct(&tv, i + 1, CXX_P_DOT) ||
		    !(tv_is(&tv, i + 2, "push_back") || tv_is(&tv, i + 2, "emplace_back")) || !tv_punct(&tv, open, CXX_P_LPAREN) ||
		    tv.match[open] == TV_NONE || tv.v[tv.match[open]].end > before)
			continue;
		free(arg);
		arg = tv_text(&tv, open + 1, tv.match[open]);
	}
	tok_view_release(&tv);
	return arg;
}

const struct pybind_var *pybind_var_before(const struct pybind_file *p, long func, const char *name,
					   uint32_t before)
{
	const struct pybind_var *best = NULL;

	for (size_t i = 0; i < p->nvars; i++)
		if (p->vars[i].func == func && p->vars[i].range.start < before && strcmp(p->vars[i].name, name) == 0)
			best = &p->vars[i];
	return best;
}

bool pybind_tuple_cat_last(const char *expr, const char *profiling)
{
	size_t n = strlen(expr), e;
	char *last;
	bool yes;

	if (!strstr(expr, "tuple_cat(") || !strstr(expr, "make_tuple("))
		return false;
	while (n > 0 && (expr[n - 1] == ')' || expr[n - 1] == ' '))
		n--;
	e = n;
	while (n > 0 && c_ident_char(expr[n - 1]))
		n--;
	if (n == e)
		return false;
	last = xstrndup(expr + n, e - n);
	yes = tv_names_profiling(last, profiling);
	free(last);
	return yes;
}
