/* __global__ entries, their Init calls, definitions and declarations. */
#include "project_kernel.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cxx_scan.h"
#include "kernel_scan.h"
#include "project_tokens.h"
#include "path_glob.h"
#include "xalloc.h"

bool project_kparam_is_gm(const struct project_kparam *p)
{
	return p->type && (strstr(p->type, "GM_ADDR") || strstr(p->type, "__gm__"));
}

static struct project_kparam *copy_params(const struct cxx_param *in, size_t n)
{
	struct project_kparam *v = n ? xcalloc(n, sizeof(*v)) : NULL;

	for (size_t i = 0; i < n; i++) {
		v[i].type = xstrdup(in[i].type ? in[i].type : "");
		v[i].name = in[i].name ? xstrdup(in[i].name) : NULL;
		v[i].start = in[i].range.start;
		v[i].end = in[i].range.end;
	}
	return v;
}

static void free_params(struct project_kparam *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].type);
		free(v[i].name);
	}
	free(v);
}

long project_kcall_arg(const struct project_kcall *c, const char *name)
{
	for (size_t i = 0; name && i < c->nargs; i++)
		if (strcmp(c->args[i], name) == 0)
			return (long)i;
	return -1;
}

long project_kcall_position(const struct project_kentry *e, const struct project_kcall *c, size_t want)
{
	long after = want > 0 && want - 1 < e->nparams ? project_kcall_arg(c, e->params[want - 1].name) : -1;

	if (after >= 0)
		return after + 1;
	if (want == 0 || want > c->nargs)
		return -1;
	return (long)want;
}

/* The call passes the kernel's outputs [first, want) in their order, each once. */
static bool outputs_in_order(const struct project_kentry *e, const struct project_kcall *c, size_t first, size_t want)
{
	long last = -1;

	for (size_t k = first; k < want && k < e->nparams; k++) {
		long at = -1;
		size_t seen = 0;
		for (size_t a = 0; a < c->nargs; a++)
			if (e->params[k].name && strcmp(c->args[a], e->params[k].name) == 0) {
				at = at < 0 ? (long)a : at;
				seen++;
			}
		if (at < 0 || seen > 1 || at <= last)
			return false;
		last = at;
	}
	return true;
}

bool project_kcall_takes_outputs(const struct project_kentry *e, const struct project_kcall *c, size_t first,
				 size_t want)
{
	return project_kcall_position(e, c, want) >= 0 && outputs_in_order(e, c, first, want);
}

/* True when the call passes one of the entry's parameters: the kernel class
 * Init, not pipe.Init() or a helper's. */
static bool passes_params(const struct cxx_call *call, const struct cxx_func *entry)
{
	for (size_t a = 0; a < call->nargs; a++)
		for (size_t k = 0; k < entry->nparams; k++)
			if (entry->params[k].name && strcmp(call->args[a], entry->params[k].name) == 0)
				return true;
	return false;
}

/* Is token i (the object's name, followed by ';', '(' or '{') declared with
 * a class type? Its name token in *k, the first token of its written
 * qualifier (`ns::`) in *q (== *k when none); template arguments skipped. */
static bool declared_class(const struct tok_view *tv, size_t i, size_t *k, size_t *q)
{
	if (i == 0 || !(tv_is(tv, i + 1, ";") || tv_is(tv, i + 1, "(") || tv_is(tv, i + 1, "{")))
		return false;
	*k = i - 1;
	if (tv_is(tv, *k, ">") || tv_is(tv, *k, ">>")) {
		int depth = 0;
		for (;; (*k)--) {
			if (tv_is(tv, *k, ">"))
				depth++;
			else if (tv_is(tv, *k, ">>"))
				depth += 2;
			else if (tv_is(tv, *k, "<"))
				depth--;
			if (depth <= 0 || *k == 0)
				break;
		}
		if (*k == 0)
			return false;
		(*k)--;
	}
	if (!tv_ident(tv, *k) || tv_is(tv, *k, "return") || tv_is(tv, *k, "auto"))
		return false;
	*q = *k;
	while (*q >= 2 && tv_is(tv, *q - 1, "::") && tv_ident(tv, *q - 2))
		*q -= 2;
	return true;
}

/* The class of `object` from its declaration in [from, to): `Kernel<T, U> op;`,
 * `Kernel op(...)`, `ns::Kernel op{...}`; its written qualifier ("ns") in
 * *scope (NULL when none). The declaration in scope at `at` (a call there):
 * the last one before it whose block is still open, as C++ looks names up
 * (two objects named op in two blocks are of two classes); without one
 * before `at` (a call in a macro body), the first in the range. NULL when
 * none. */
static char *object_class(const struct src_file *f, uint32_t from, uint32_t to, uint32_t at, const char *object,
			  char **scope)
{
	struct tok_view tv;
	size_t *seen = NULL, nseen = 0, cap = 0, k, q, pick = (size_t)-1;
	int *depth_of = NULL, depth = 0;
	char *klass = NULL;

	*scope = NULL;
	if (!object || strpbrk(object, ".->[("))
		return NULL;
	tok_view_init(&tv, f->data, f->len);
	for (size_t i = tv_at(&tv, from); i + 1 < tv.n && tv.v[i].start < to; i++) {
		if (tv_is(&tv, i, "{"))
			depth++;
		else if (tv_is(&tv, i, "}") && tv.v[i].start < at)
			for (depth--; nseen && depth_of[nseen - 1] > depth;)
				nseen--; /* its block closed before the call: out of scope */
		if (!tv_is(&tv, i, object) || !declared_class(&tv, i, &k, &q))
			continue;
		if (tv.v[i].start >= at)
			continue;
		XGROW(seen, cap, nseen + 1);
		depth_of = xrealloc(depth_of, cap * sizeof(*depth_of));
		depth_of[nseen] = depth;
		seen[nseen++] = i;
	}
	if (nseen)
		pick = seen[nseen - 1];
	else {
		/* none in scope before the call: the first declaration of the range */
		for (size_t i = tv_at(&tv, from); i + 1 < tv.n && tv.v[i].start < to; i++)
			if (tv_is(&tv, i, object) && declared_class(&tv, i, &k, &q)) {
				pick = i;
				break;
			}
	}
	if (pick != (size_t)-1 && declared_class(&tv, pick, &k, &q)) {
		klass = tv_tok_text(&tv, k, false);
		*scope = q < k ? tv_text(&tv, q, k - 1) : NULL;
	}
	free(seen);
	free(depth_of);
	tok_view_release(&tv);
	return klass;
}

/* True when the qualified name of fn names the class in the written scope
 * ("MLAPO_FP16::MLAOperation::Init" for scope "MLAPO_FP16"); true without one. */
static bool in_scope(const struct cxx_func *fn, const char *scope, const char *klass)
{
	char *want;
	bool yes;

	if (!scope)
		return true;
	want = xasprintf("%s::%s::", scope, klass);
	yes = strstr(fn->qualified_name, want) != NULL;
	free(want);
	return yes;
}

/* The class of a member function, from its qualified name ("ns::Kernel::Init"
 * -> "Kernel"), into buf; "" for a free function. */
static const char *member_class(const struct cxx_func *fn, char *buf, size_t size)
{
	const char *q = fn->qualified_name, *end = strrchr(q, ':'), *start;

	buf[0] = '\0';
	if (!end || end - q < 2)
		return buf;
	end--; /* the first ':' of "::Init" */
	start = end;
	while (start > q && start[-1] != ':')
		start--;
	if ((size_t)(end - start) < size) {
		memcpy(buf, start, (size_t)(end - start));
		buf[end - start] = '\0';
	}
	return buf;
}

struct found_def {
	const struct cxx_func *fn;
	const struct src_file *file;
};

/* The declaration of `Init` with `nparams` parameters (any count with
 * `any_count`) in the body of class `klass`, in any of the files: fills *out
 * and returns 0, or -1. */
static int class_decl_of(struct cxx_unit **units, size_t nunits, const char *klass, size_t nparams, bool any_count,
			 struct project_kfunc *out)
{
	for (size_t u = 0; u < nunits; u++) {
		const struct src_file *f = units[u]->file;
		struct tok_view tv;
		int ret = -1;
		if (!strstr(f->data, klass))
			continue;
		tok_view_init(&tv, f->data, f->len);
		for (size_t i = 0; i + 2 < tv.n && ret < 0; i++) {
			size_t open = i + 2, close;
			if (!(tv_is(&tv, i, "class") || tv_is(&tv, i, "struct")) || !tv_is(&tv, i + 1, klass))
				continue;
			while (open < tv.n && !tv_is(&tv, open, "{") && !tv_is(&tv, open, ";"))
				open++;
			if (open >= tv.n || !tv_is(&tv, open, "{") || tv.match[open] == TV_NONE)
				continue;
			close = tv.match[open];
			for (size_t k = open + 1; k + 1 < close && ret < 0; k++) {
				size_t pc, after, *s, *e, n;
				if (tv_is(&tv, k, "{") && tv.match[k] != TV_NONE && tv.match[k] < close) {
					k = tv.match[k]; /* a member function body */
					continue;
				}
				if (!tv_is(&tv, k, "Init") || !tv_is(&tv, k + 1, "(") || tv.match[k + 1] == TV_NONE)
					continue;
				pc = tv.match[k + 1];
				after = pc + 1;
				while (after < close && (tv_is(&tv, after, "const") || tv_is(&tv, after, "override") ||
							 tv_is(&tv, after, "noexcept")))
					after++;
				if (!tv_is(&tv, after, ";"))
					continue;
				n = tv_split_args(&tv, k + 1, &s, &e);
				if (n == nparams || any_count) {
					memset(out, 0, sizeof(*out));
					out->file = f;
					out->decl = true;
					out->params = n ? xcalloc(n, sizeof(*out->params)) : NULL;
					for (size_t a = 0; a < n; a++) {
						size_t name = e[a] > s[a] ? e[a] - 1 : s[a];
						out->params[a].start = tv.v[s[a]].start;
						out->params[a].end = e[a] > s[a] ? tv.v[e[a] - 1].end : tv.v[s[a]].start;
						if (e[a] > s[a] + 1 && tv_ident(&tv, name)) {
							out->params[a].name = tv_tok_text(&tv, name, false);
							out->params[a].type = tv_text(&tv, s[a], name);
						} else {
							out->params[a].type = tv_text(&tv, s[a], e[a]);
						}
					}
					out->nparams = n;
					out->params_start = tv.v[k + 1].start;
					out->params_end = tv.v[pc].end;
					out->qualified = xasprintf("%s::Init", klass);
					ret = 0;
				}
				free(s);
				free(e);
			}
		}
		tok_view_release(&tv);
		if (ret == 0)
			return 0;
	}
	return -1;
}

/* The declaration in class `klass` of its Init with `nparams` parameters,
 * else of its first Init whatever its count: a declaration that disagrees
 * with its definition is what G2 is there to find. */
static int class_decl(struct cxx_unit **units, size_t nunits, const char *klass, size_t nparams, struct project_kfunc *out)
{
	if (class_decl_of(units, nunits, klass, nparams, false, out) == 0)
		return 0;
	return class_decl_of(units, nunits, klass, nparams, true, out);
}

/* The definition a call reaches: of its class with as many parameters, else
 * any with as many, else one of its class; a class of the written scope
 * (ns::Kernel) before one of another namespace with the same name. */
static struct found_def find_def(struct cxx_unit **units, size_t nunits, const char *klass, const char *scope,
				 size_t nargs)
{
	struct found_def best = { NULL, NULL }, count = { NULL, NULL }, of_class = { NULL, NULL };
	struct found_def scoped = { NULL, NULL }, scoped_any = { NULL, NULL };

	for (size_t i = 0; i < nunits; i++) {
		const struct cxx_outline *ol = units[i]->outline;
		for (size_t f = 0; f < ol->nfuncs; f++) {
			const struct cxx_func *fn = &ol->funcs[f];
			char cls[256];
			bool same_class;
			if (strcmp(fn->name, "Init") != 0 || fn->def != CXX_DEF_BODY)
				continue;
			same_class = klass && strcmp(member_class(fn, cls, sizeof(cls)), klass) == 0;
			if (same_class && fn->nparams == nargs && !best.fn)
				best = (struct found_def){ fn, units[i]->file };
			if (!klass && fn->nparams == nargs && !count.fn)
				count = (struct found_def){ fn, units[i]->file };
			if (same_class && !of_class.fn)
				of_class = (struct found_def){ fn, units[i]->file };
			if (same_class && scope && in_scope(fn, scope, klass)) {
				if (fn->nparams == nargs && !scoped.fn)
					scoped = (struct found_def){ fn, units[i]->file };
				if (!scoped_any.fn)
					scoped_any = (struct found_def){ fn, units[i]->file };
			}
		}
	}
	if (scoped.fn || scoped_any.fn)
		return scoped.fn ? scoped : scoped_any;
	/* a class named at the call that has no Init here (a macro parameter, a
	   class of another directory) reaches nothing we can edit */
	if (klass)
		return best.fn ? best : of_class;
	return count.fn ? count : of_class;
}

/* funcs[] index of the definition / declaration, added once. */
static long add_func(struct project_kentry *e, const struct project_kfunc *k)
{
	for (size_t i = 0; i < e->nfuncs; i++)
		if (e->funcs[i].file == k->file && e->funcs[i].params_start == k->params_start) {
			free_params(k->params, k->nparams);
			free(k->qualified);
			return (long)i;
		}
	e->funcs = xrealloc(e->funcs, (e->nfuncs + 1) * sizeof(*e->funcs));
	e->funcs[e->nfuncs] = *k;
	return (long)e->nfuncs++;
}

/* A call of entry e; use_class: the class a use of its macro names for
 * the object (the macro's parameter substituted), or NULL. */
static void add_call(struct project_kentry *e, const struct src_file *f, const struct cxx_call *call, const char *macro,
		     char *use_class)
{
	struct project_kcall c;

	for (size_t i = 0; i < e->ncalls; i++)
		if (e->calls[i].file == f && e->calls[i].start == call->range.start) {
			/* a macro expanded in several branches: of one class, or of several */
			struct project_kcall *x = &e->calls[i];
			if (!use_class != !x->klass || (use_class && strcmp(use_class, x->klass) != 0))
				x->klass_varies = true;
			free(use_class);
			return;
		}
	memset(&c, 0, sizeof(c));
	c.file = f;
	c.klass = use_class;
	c.object = call->object ? xstrdup(call->object) : NULL;
	c.macro = macro ? xstrdup(macro) : NULL;
	c.nargs = call->nargs;
	c.args = call->nargs ? xmalloc(call->nargs * sizeof(*c.args)) : NULL;
	c.arg_start = call->nargs ? xmalloc(call->nargs * sizeof(uint32_t)) : NULL;
	c.arg_end = call->nargs ? xmalloc(call->nargs * sizeof(uint32_t)) : NULL;
	for (size_t a = 0; a < call->nargs; a++) {
		c.args[a] = xstrdup(call->args[a]);
		c.arg_start[a] = call->arg_ranges[a].start;
		c.arg_end[a] = call->arg_ranges[a].end;
	}
	c.start = call->range.start;
	c.end = call->range.end;
	c.args_start = call->args_range.start;
	c.args_end = call->args_range.end;
	c.def = c.decl = -1;
	e->calls = xrealloc(e->calls, (e->ncalls + 1) * sizeof(*e->calls));
	e->calls[e->ncalls++] = c;
}

/* A function-like macro with code, defined in one of the files. */
static const struct cxx_macro *find_macro(struct cxx_unit **units, size_t nunits, const char *name,
					  const struct src_file **file)
{
	for (size_t i = 0; i < nunits; i++)
		for (size_t m = 0; m < units[i]->outline->nmacros; m++) {
			const struct cxx_macro *mc = &units[i]->outline->macros[m];
			if (strcmp(mc->name, name) == 0 && mc->params && mc->body.ncalls) {
				*file = units[i]->file;
				return mc;
			}
		}
	return NULL;
}

/* The class a use of macro mc (in file mf) gives `object`: when the macro
 * body declares it with a type that is one of the macro's parameters
 * (`templateClass<__VA_ARGS__> op(&pipe);`), the use's argument there (as
 * written, "ns::Kernel", its template arguments left out); when with a class of its own
 * (`Kernel<T, N> op;`), that class; NULL when no declaration is found there
 * (the object is the entry's). */
static char *macro_use_class(const struct src_file *mf, const struct cxx_macro *mc, const char *object,
			     const char *const *args, size_t nargs)
{
	struct tok_view tv;
	char *type = NULL, *out = NULL;
	size_t k, q;

	if (!object || !mc->params)
		return NULL;
	/* the body alone: in the file it is one directive, no tokens */
	tok_view_init(&tv, mf->data + mc->body_range.start, mc->body_range.end - mc->body_range.start);
	for (size_t i = 0; i + 1 < tv.n && !type; i++)
		if (tv_is(&tv, i, object) && declared_class(&tv, i, &k, &q) && q == k)
			type = tv_tok_text(&tv, k, false);
	tok_view_release(&tv);
	if (type) {
		const char *p = mc->params;
		for (size_t idx = 0; *p; idx++) {
			size_t len;
			while (*p == ' ' || *p == '\t')
				p++;
			len = strcspn(p, ", \t");
			if (len == strlen(type) && strncmp(p, type, len) == 0) {
				if (idx < nargs) {
					/* qualified as written: ns1::Op and ns2::Op are two classes */
					const char *a = args[idx], *end = a + strcspn(a, "<( \t");
					if (end > a)
						out = xstrndup(a, (size_t)(end - a));
				}
				break;
			}
			p += strcspn(p, ",");
			if (*p == ',')
				p++;
		}
		if (!*p && !out) /* not a parameter: the class the body names */
			return type;
	}
	free(type);
	return out;
}

/* A call of Init definition `def` (a member of a class) from a function of
 * the sources other than the entry `entry` (an object of that class
 * declared there: `Post<T> opCast; opCast.Init(...)` in another class's
 * method): the tensor is not at hand there, so the Init cannot be given a
 * parameter. Its file and offset set; false when none. */
static bool init_called_elsewhere(struct cxx_unit **units, size_t nunits, const struct cxx_func *entry,
				  const struct cxx_func *def, const struct src_file **file, uint32_t *at)
{
	char cls[256];

	if (!*member_class(def, cls, sizeof(cls)))
		return false;
	for (size_t i = 0; i < nunits; i++)
		for (size_t f = 0; f < units[i]->outline->nfuncs; f++) {
			const struct cxx_func *g = &units[i]->outline->funcs[f];
			if (g == entry || g->kernel || g->def != CXX_DEF_BODY) /* other entries: variants */
				continue;
			for (size_t c = 0; c < g->body.ncalls; c++) {
				const struct cxx_call *call = &g->body.calls[c];
				char *klass, *scope = NULL;
				bool same;
				char mine[256];
				/* fewer arguments: the Init's defaults (the tensor would take one's place) */
				if (strcmp(call->name, "Init") != 0 || call->nargs > def->nparams)
					continue;
				if (!call->object) /* Init(...) in a member of the class itself */
					klass = strcmp(member_class(g, mine, sizeof(mine)), cls) == 0 ? xstrdup(cls) : NULL;
				else
					klass = object_class(units[i]->file, g->body_range.start, g->body_range.end,
							     call->range.start, call->object, &scope);
				same = klass && strcmp(klass, cls) == 0;
				free(klass);
				free(scope);
				if (same) {
					*file = units[i]->file;
					*at = call->range.start;
					return true;
				}
			}
		}
	return false;
}

/* The class a use of macro mc at `use` (an offset in the entry's file
 * `file`, function fn) gives the object of the macro's Init call mcall:
 * what the macro's body says (macro_use_class), else the object's declared
 * in scope at the use (`KernelA op; INIT_OP();`), qualified as written. */
static char *use_class_of(const struct src_file *file, const struct cxx_func *fn, const struct src_file *mf,
			  const struct cxx_macro *mc, const struct cxx_call *mcall, const struct cxx_call *use)
{
	char *c = macro_use_class(mf, mc, mcall->object, use->args, use->nargs), *scope = NULL;

	if (c)
		return c;
	c = object_class(file, fn->body_range.start, fn->body_range.end, use->range.start, mcall->object, &scope);
	if (c && scope) {
		char *q = xasprintf("%s::%s", scope, c);
		free(c);
		c = q;
	}
	free(scope);
	return c;
}

static void take_calls(struct project_kentry *e, const struct cxx_func *fn, const struct src_file *file,
		       struct cxx_unit **units, size_t nunits)
{
	for (size_t c = 0; c < fn->body.ncalls; c++) {
		const struct cxx_call *call = &fn->body.calls[c];
		const struct cxx_macro *mc;
		const struct src_file *mf = NULL;
		if (strcmp(call->name, "Init") == 0 && passes_params(call, fn)) {
			add_call(e, file, call, NULL, NULL);
			continue;
		}
		/* INVOKE_OP_IMPL(); expands `op.Init(x, y, ...)` here */
		mc = find_macro(units, nunits, call->name, &mf);
		for (size_t k = 0; mc && k < mc->body.ncalls; k++)
			if (strcmp(mc->body.calls[k].name, "Init") == 0 && passes_params(&mc->body.calls[k], fn))
				add_call(e, mf, &mc->body.calls[k], mc->name,
					 use_class_of(file, fn, mf, mc, &mc->body.calls[k], call));
	}
	/* a macro statement the expression parser did not take as a call */
	for (size_t s = 0; s < fn->body.nstmts; s++) {
		const struct cxx_stmt *st = &fn->body.stmts[s];
		const struct cxx_macro *mc;
		const struct src_file *mf = NULL;
		struct cxx_call use;
		bool seen = false;
		if (st->kind != CXX_STMT_MACRO || !st->text)
			continue;
		for (size_t c = 0; c < fn->body.ncalls && !seen; c++)
			seen = strcmp(fn->body.calls[c].name, st->text) == 0 && fn->body.calls[c].range.start >= st->range.start &&
			       fn->body.calls[c].range.start < st->range.end;
		mc = seen ? NULL : find_macro(units, nunits, st->text, &mf);
		memset(&use, 0, sizeof(use));
		use.range.start = st->range.start;
		for (size_t k = 0; mc && k < mc->body.ncalls; k++)
			if (strcmp(mc->body.calls[k].name, "Init") == 0 && passes_params(&mc->body.calls[k], fn))
				add_call(e, mf, &mc->body.calls[k], mc->name,
					 use_class_of(file, fn, mf, mc, &mc->body.calls[k], &use));
	}
	/* each call's class, definition and declaration */
	for (size_t c = 0; c < e->ncalls; c++) {
		struct project_kcall *k = &e->calls[c];
		struct found_def d;
		char *scope = NULL;
		if (k->klass_varies)
			continue; /* one call, several classes: no one Init to wire */
		if (!k->klass)
			k->klass = object_class(file, fn->body_range.start, fn->body_range.end,
						k->file == file ? k->start : fn->body_range.start, k->object, &scope);
		else if (strstr(k->klass, "::")) {
			/* "ns::Kernel" of a macro use: the scope and the class */
			char *last = k->klass;
			for (char *q = strstr(last, "::"); q; q = strstr(last, "::"))
				last = q + 2;
			scope = xstrndup(k->klass, (size_t)(last - 2 - k->klass));
			memmove(k->klass, last, strlen(last) + 1);
		}
		d = find_def(units, nunits, k->klass, scope, k->nargs);
		free(scope);
		if (!d.fn)
			continue;
		{
			struct project_kfunc kf;
			memset(&kf, 0, sizeof(kf));
			kf.file = d.file;
			kf.qualified = xstrdup(d.fn->qualified_name);
			kf.params = copy_params(d.fn->params, d.fn->nparams);
			kf.nparams = d.fn->nparams;
			kf.params_start = d.fn->params_range.start;
			kf.params_end = d.fn->params_range.end;
			kf.body_open = d.fn->body_range.start;
			k->def = add_func(e, &kf);
		}
		init_called_elsewhere(units, nunits, fn, d.fn, &k->other_file, &k->other_at);
		if (!d.fn->in_class) {
			struct project_kfunc decl;
			char cls[256];
			if (*member_class(d.fn, cls, sizeof(cls)) &&
			    class_decl(units, nunits, cls, d.fn->nparams, &decl) == 0)
				k->decl = add_func(e, &decl);
		}
	}
}

/* The files entry `e`'s file includes, transitively (itself first), among
 * the units the scan followed. */
static void entry_closure(struct project_kentry *e, struct cxx_unit **units, size_t nunits)
{
	size_t *stack = xmalloc((nunits + 1) * sizeof(*stack)), top = 0;
	bool *seen = xcalloc(nunits + 1, sizeof(*seen));

	for (size_t i = 0; i < nunits; i++)
		if (units[i]->file == e->file) {
			stack[top++] = i;
			seen[i] = true;
		}
	while (top) {
		size_t u = stack[--top];
		const struct cxx_outline *ol = units[u]->outline;
		e->closure = xrealloc(e->closure, (e->nclosure + 1) * sizeof(*e->closure));
		e->closure[e->nclosure++] = units[u]->file;
		for (size_t k = 0; k < ol->nincludes; k++) {
			const struct cxx_include *inc = &ol->includes[k];
			if (inc->status != CXX_INC_FOLLOWED || !inc->resolved)
				continue;
			for (size_t j = 0; j < nunits; j++)
				if (!seen[j] && strcmp(units[j]->path, inc->resolved) == 0) {
					seen[j] = true;
					stack[top++] = j;
				}
		}
	}
	free(stack);
	free(seen);
}

int project_kernels_read(const struct rule_policy *policy, const char *opdir, struct project_kernels *out,
			 struct diag *diag)
{
	struct kernel_scan_opts ko = { .policy = policy, .opdir = opdir, .reached = true, .skipped_diag = diag };
	struct kernel_scan ks;
	struct cxx_unit *u, **units = NULL;
	size_t nunits = 0;
	struct diag quiet;
	struct stat st;

	memset(out, 0, sizeof(*out));
	diag_init_quiet(&quiet);
	{
		char *root = path_join(opdir, policy->kernel.value);
		bool dir = stat(root, &st) == 0 && S_ISDIR(st.st_mode);
		if (!dir)
			diag_plain(diag, DIAG_ERROR, "the kernel directory %s cannot be read", root);
		free(root);
		if (!dir)
			return -1;
	}
	/* includes the scanner cannot find are the toolchain's: no warnings */
	if (kernel_scan_open(&ks, &ko, &quiet, diag) != 0) {
		kernel_scan_close(&ks);
		return -1;
	}
	while ((u = cxx_scan_next(ks.scan)) != NULL) {
		char *p = path_join(ks.root, u->path);
		free(u->file->path);
		u->file->path = p;
		units = xrealloc(units, (nunits + 1) * sizeof(*units));
		units[nunits++] = u;
	}
	kernel_scan_close(&ks);
	out->nsources = nunits;
	for (size_t i = 0; i < nunits; i++) {
		const struct cxx_outline *ol = units[i]->outline;
		for (size_t f = 0; f < ol->nfuncs; f++) {
			const struct cxx_func *fn = &ol->funcs[f];
			struct project_kentry e;
			if (!fn->kernel || fn->def != CXX_DEF_BODY)
				continue;
			memset(&e, 0, sizeof(e));
			e.name = xstrdup(fn->name);
			e.file = units[i]->file;
			e.params = copy_params(fn->params, fn->nparams);
			e.nparams = fn->nparams;
			e.params_start = fn->params_range.start;
			e.params_end = fn->params_range.end;
			take_calls(&e, fn, units[i]->file, units, nunits);
			out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
			out->v[out->n++] = e;
		}
	}
	/* each entry's #include closure, while the outlines are there */
	for (size_t k = 0; k < out->n; k++)
		entry_closure(&out->v[k], units, nunits);
	/* keep the files, drop the outlines */
	out->files = nunits ? xmalloc(nunits * sizeof(*out->files)) : NULL;
	for (size_t i = 0; i < nunits; i++) {
		out->files[out->nfiles++] = units[i]->file;
		units[i]->file = NULL;
		cxx_unit_free(units[i]);
	}
	free(units);
	return 0;
}

void project_kernels_release(struct project_kernels *k)
{
	for (size_t i = 0; i < k->n; i++) {
		struct project_kentry *e = &k->v[i];
		free(e->name);
		free_params(e->params, e->nparams);
		for (size_t c = 0; c < e->ncalls; c++) {
			struct project_kcall *x = &e->calls[c];
			free(x->object);
			free(x->klass);
			free(x->macro);
			for (size_t a = 0; a < x->nargs; a++)
				free(x->args[a]);
			free(x->args);
			free(x->arg_start);
			free(x->arg_end);
		}
		free(e->calls);
		for (size_t f = 0; f < e->nfuncs; f++) {
			free(e->funcs[f].qualified);
			free_params(e->funcs[f].params, e->funcs[f].nparams);
		}
		free(e->funcs);
		free(e->closure);
	}
	for (size_t i = 0; i < k->nfiles; i++)
		src_file_free(k->files[i]);
	free(k->files);
	free(k->v);
	memset(k, 0, sizeof(*k));
}
