/* aclnn*GetWorkspaceSize declarations, definitions and forwarding calls. */
#include "project_aclnn.h"

#include <stdlib.h>
#include <string.h>

#include "project_tokens.h"
#include "xalloc.h"

static struct aclnn_range rng(uint32_t s, uint32_t e)
{
	struct aclnn_range r = { s, e };
	return r;
}

static bool is_gws_name(const struct tok_view *tv, size_t i)
{
	const char *s = tv->data + tv->v[i].start;
	size_t n = tv->v[i].end - tv->v[i].start;
	static const char suffix[] = "GetWorkspaceSize";

	return tv_ident(tv, i) && n > 5 + sizeof(suffix) - 1 && memcmp(s, "aclnn", 5) == 0 &&
	       memcmp(s + n - (sizeof(suffix) - 1), suffix, sizeof(suffix) - 1) == 0;
}

static void read_params(const struct tok_view *tv, size_t open, struct aclnn_func *fn)
{
	size_t *s, *e, n = tv_split_args(tv, open, &s, &e);

	fn->params = n ? xcalloc(n, sizeof(*fn->params)) : NULL;
	for (size_t a = 0; a < n; a++) {
		struct aclnn_param *p = &fn->params[fn->nparams];
		size_t last = e[a];
		if (s[a] >= e[a])
			continue;
		/* a default value is not C, but skip it anyway */
		for (size_t k = s[a]; k < e[a]; k++)
			if (tv_punct(tv, k, CXX_P_ASSIGN)) {
				last = k;
				break;
			}
		if (last - s[a] == 1 && tv_is(tv, s[a], "void"))
			continue;
		if (last - s[a] >= 2 && tv_ident(tv, last - 1)) {
			p->name = tv_tok_text(tv, last - 1, false);
			p->type = tv_text(tv, s[a], last - 1);
		} else {
			p->type = tv_text(tv, s[a], last);
		}
		p->range = rng(tv->v[s[a]].start, tv->v[e[a] - 1].end);
		p->tensor = strstr(p->type, "aclTensor") != NULL;
		p->output = p->tensor && strstr(p->type, "const") == NULL;
		fn->nparams++;
	}
	free(s);
	free(e);
}

/* A token that may be part of a declared type: a name, `::`, `*`, `&`, a
 * fundamental type or cv keyword. */
static bool type_tok(const struct tok_view *tv, size_t i)
{
	static const enum cxx_keyword kws[] = { CXX_KW_const, CXX_KW_unsigned, CXX_KW_signed, CXX_KW_int, CXX_KW_long,
						CXX_KW_short, CXX_KW_char, CXX_KW_bool, CXX_KW_double, CXX_KW_float,
						CXX_KW_auto, CXX_KW_static, CXX_KW_constexpr, CXX_KW_volatile };

	if (tv_ident(tv, i) || tv_punct(tv, i, CXX_P_SCOPE) || tv_punct(tv, i, CXX_P_STAR) || tv_punct(tv, i, CXX_P_AMP))
		return true;
	for (size_t k = 0; k < sizeof(kws) / sizeof(kws[0]); k++)
		if (cxx_tok_kw(&tv->v[i], kws[k]))
			return true;
	return false;
}

/* The declarations `T name = ...;` / `T name;` of the body between braces
 * open and close, statements at any depth. */
static void read_locals(const struct tok_view *tv, size_t open, size_t close, struct aclnn_func *fn)
{
	for (size_t i = open + 1; i < close; i++) {
		size_t k = i;
		struct aclnn_param *p;
		if (!(tv_punct(tv, i - 1, CXX_P_SEMI) || tv_punct(tv, i - 1, CXX_P_LBRACE) || tv_punct(tv, i - 1, CXX_P_RBRACE)))
			continue;
		while (k < close && type_tok(tv, k))
			k++;
		/* a type, then the name: at least two tokens, the last an identifier */
		if (k - i < 2 || !tv_ident(tv, k - 1) || !(tv_punct(tv, k, CXX_P_ASSIGN) || tv_punct(tv, k, CXX_P_SEMI)))
			continue;
		fn->locals = xrealloc(fn->locals, (fn->nlocals + 1) * sizeof(*fn->locals));
		p = &fn->locals[fn->nlocals++];
		memset(p, 0, sizeof(*p));
		p->name = tv_tok_text(tv, k - 1, false);
		p->type = tv_text(tv, i, k - 1);
		p->range = rng(tv->v[i].start, tv->v[k - 1].end);
		p->tensor = strstr(p->type, "aclTensor") != NULL;
		p->output = p->tensor && strstr(p->type, "const") == NULL;
	}
}

static void add_call(const struct tok_view *tv, size_t i, struct aclnn_func *fn)
{
	struct aclnn_call c;
	size_t open = i + 1, close = tv->match[open], *s, *e, n;

	memset(&c, 0, sizeof(c));
	c.callee = tv_tok_text(tv, i, false);
	c.range = rng(tv->v[i].start, tv->v[close].end);
	c.args_range = rng(tv->v[open].end, tv->v[close].start);
	n = tv_split_args(tv, open, &s, &e);
	c.args = n ? xmalloc(n * sizeof(*c.args)) : NULL;
	c.arg_ranges = n ? xmalloc(n * sizeof(*c.arg_ranges)) : NULL;
	for (size_t a = 0; a < n; a++) {
		c.args[a] = tv_text(tv, s[a], e[a]);
		c.arg_ranges[a] = s[a] < e[a] ? rng(tv->v[s[a]].start, tv->v[e[a] - 1].end)
					      : rng(tv->v[s[a]].start, tv->v[s[a]].start);
	}
	c.nargs = n;
	free(s);
	free(e);
	fn->calls = xrealloc(fn->calls, (fn->ncalls + 1) * sizeof(*fn->calls));
	fn->calls[fn->ncalls++] = c;
}

void project_aclnn(const char *data, size_t len, struct aclnn_file *out)
{
	struct tok_view tv;
	long body_of = -1;
	size_t body_end = 0;

	memset(out, 0, sizeof(*out));
	tok_view_init(&tv, data, len);
	for (size_t i = 0; i < tv.n; i++) {
		size_t open = i + 1, close, after;
		bool decl;
		if (body_of >= 0 && i >= body_end)
			body_of = -1;
		if (!is_gws_name(&tv, i) || !tv_punct(&tv, open, CXX_P_LPAREN) || tv.match[open] == TV_NONE)
			continue;
		close = tv.match[open];
		after = close + 1;
		/* a declarator follows a type; a call follows an operator, `return` or a bracket */
		decl = i > 0 && (tv.v[i - 1].kind == CXX_TOK_IDENT || tv_punct(&tv, i - 1, CXX_P_STAR) ||
				 tv_punct(&tv, i - 1, CXX_P_RPAREN));
		if (decl && (tv_punct(&tv, after, CXX_P_SEMI) || tv_punct(&tv, after, CXX_P_LBRACE))) {
			struct aclnn_func fn;
			memset(&fn, 0, sizeof(fn));
			fn.name = tv_tok_text(&tv, i, false);
			fn.name_range = rng(tv.v[i].start, tv.v[i].end);
			fn.params_range = rng(tv.v[open].start, tv.v[close].end);
			read_params(&tv, open, &fn);
			fn.definition = tv_punct(&tv, after, CXX_P_LBRACE);
			if (fn.definition && tv.match[after] != TV_NONE) {
				fn.range = rng(tv.v[i].start, tv.v[tv.match[after]].end);
				read_locals(&tv, after, tv.match[after], &fn);
				body_of = (long)out->nfuncs;
				body_end = tv.match[after];
			} else {
				fn.range = rng(tv.v[i].start, tv.v[after].end);
			}
			out->funcs = xrealloc(out->funcs, (out->nfuncs + 1) * sizeof(*out->funcs));
			out->funcs[out->nfuncs++] = fn;
			i = fn.definition ? after : close;
		} else if (body_of >= 0) {
			add_call(&tv, i, &out->funcs[body_of]);
		}
	}
	tok_view_release(&tv);
}

void aclnn_file_release(struct aclnn_file *f)
{
	for (size_t i = 0; i < f->nfuncs; i++) {
		struct aclnn_func *fn = &f->funcs[i];
		for (size_t k = 0; k < fn->nparams; k++) {
			free(fn->params[k].type);
			free(fn->params[k].name);
		}
		for (size_t k = 0; k < fn->nlocals; k++) {
			free(fn->locals[k].type);
			free(fn->locals[k].name);
		}
		free(fn->locals);
		for (size_t k = 0; k < fn->ncalls; k++) {
			for (size_t a = 0; a < fn->calls[k].nargs; a++)
				free(fn->calls[k].args[a]);
			free(fn->calls[k].args);
			free(fn->calls[k].arg_ranges);
			free(fn->calls[k].callee);
		}
		free(fn->params);
		free(fn->calls);
		free(fn->name);
	}
	free(f->funcs);
	memset(f, 0, sizeof(*f));
}

long aclnn_tensor_index(const struct aclnn_func *fn, size_t k)
{
	long idx = 0;

	if (k >= fn->nparams || !fn->params[k].tensor)
		return -1;
	for (size_t i = 0; i < k; i++)
		idx += fn->params[i].tensor;
	return idx;
}
