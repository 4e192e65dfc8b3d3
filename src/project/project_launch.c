/* The direct launches of an operator's kernel, the host functions that make
 * them, their registrations, schemas and declarations (project_launch.h). */
#define _GNU_SOURCE /* memmem(3) */
#include <string.h>

#include "project_launch.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "project_tokens.h"
#include "strset.h"
#include "xalloc.h"

/* The files of the reading, loaded on demand. */
struct reading {
	struct project_launch *l;
	char *const *paths;
	size_t npaths;
	struct src_file **cache;       /* by path index; NULL until read */
	bool *tried;
	char *const *entries;
	size_t nentries;
	const char *profiling;
};

static const struct src_file *file_at(struct reading *r, size_t i)
{
	if (!r->tried[i]) {
		r->tried[i] = true;
		r->cache[i] = src_file_load(r->paths[i]);
	}
	return r->cache[i];
}

static struct pybind_range rng(uint32_t s, uint32_t e)
{
	struct pybind_range x = { s, e };
	return x;
}

/* The index of path i among the reading's files, reading it in (with its
 * binding facts) when it is not there yet. */
static size_t file_index(struct reading *r, size_t i)
{
	struct project_launch *l = r->l;
	const struct src_file *f = file_at(r, i);

	for (size_t k = 0; k < l->nfiles; k++)
		if (strcmp(l->files[k].f->path, r->paths[i]) == 0)
			return k;
	l->files = xrealloc(l->files, (l->nfiles + 1) * sizeof(*l->files));
	memset(&l->files[l->nfiles], 0, sizeof(l->files[0]));
	l->files[l->nfiles].f = src_file_from_buffer(f->path, f->data, f->len);
	project_pybind(l->files[l->nfiles].f, &l->files[l->nfiles].pb);
	strset_add(&l->paths, &l->npaths, f->path);
	return l->nfiles++;
}

/* ---- arity of a return type ---- */

static bool word_at(const char *s, size_t len, size_t i, const char *w)
{
	size_t n = strlen(w);
	bool left = i == 0 || !(s[i - 1] == '_' || (s[i - 1] >= 'a' && s[i - 1] <= 'z') ||
				(s[i - 1] >= 'A' && s[i - 1] <= 'Z') || (s[i - 1] >= '0' && s[i - 1] <= '9'));
	bool right = i + n >= len || !(s[i + n] == '_' || (s[i + n] >= 'a' && s[i + n] <= 'z') ||
				       (s[i + n] >= 'A' && s[i + n] <= 'Z') || (s[i + n] >= '0' && s[i + n] <= '9'));
	return i + n <= len && memcmp(s + i, w, n) == 0 && left && right;
}

long project_launch_arity(const char *type, size_t len, bool *ref)
{
	bool vd = false, star = false, amp = false;
	const char *t = memmem(type, len, "tuple<", 6);

	*ref = false;
	if (t) {
		long n = 1;
		int depth = 0;
		for (const char *q = t + 6; q < type + len; q++) {
			if (*q == '<' || *q == '(')
				depth++;
			else if ((*q == '>' || *q == ')') && depth-- == 0)
				break;
			else if (*q == ',' && depth == 0)
				n++;
		}
		return n;
	}
	for (size_t i = 0; i < len; i++) {
		vd = vd || word_at(type, len, i, "void");
		star = star || type[i] == '*';
		amp = amp || type[i] == '&';
	}
	if (vd && !star)
		return 0;
	*ref = amp;
	return 1;
}

const struct pybind_func *project_launch_pf(const struct project_launch *l, const struct launch_func *fn)
{
	return &l->files[fn->file].pb.funcs[fn->index];
}

/* ---- the launch macros ---- */

/* The matching ')' of the '(' at tokens[i], within [i, end), or end. */
static size_t close_of(const struct cxx_token *t, size_t i, size_t end)
{
	int depth = 0;

	for (size_t k = i; k < end; k++) {
		if (cxx_tok_punct(&t[k], CXX_P_LPAREN))
			depth++;
		else if (cxx_tok_punct(&t[k], CXX_P_RPAREN) && --depth == 0)
			return k;
	}
	return end;
}

/* The top-level arguments of the parentheses [open, close]: their first tokens in starts, their ends. */
static size_t split_at(const struct cxx_token *t, size_t open, size_t close, size_t *starts, size_t *ends, size_t cap)
{
	size_t n = 0, from = open + 1;
	int depth = 0;

	if (close == open + 1)
		return 0;
	for (size_t k = open + 1; k <= close; k++) {
		if (k < close && (cxx_tok_punct(&t[k], CXX_P_LPAREN) || cxx_tok_punct(&t[k], CXX_P_LBRACKET) ||
				  cxx_tok_punct(&t[k], CXX_P_LBRACE)))
			depth++;
		else if (k < close && (cxx_tok_punct(&t[k], CXX_P_RPAREN) || cxx_tok_punct(&t[k], CXX_P_RBRACKET) ||
				       cxx_tok_punct(&t[k], CXX_P_RBRACE)))
			depth--;
		else if ((k == close || (depth == 0 && cxx_tok_punct(&t[k], CXX_P_COMMA))) && n < cap) {
			starts[n] = from;
			ends[n] = k;
			n++;
			from = k + 1;
		}
	}
	return n;
}

static bool tok_is(const char *data, const struct cxx_token *t, const char *lit)
{
	size_t n = strlen(lit);
	return t->end - t->start == n && memcmp(data + t->start, lit, n) == 0;
}

static long macro_named(const struct project_launch *l, const char *data, const struct cxx_token *t)
{
	for (size_t m = 0; m < l->nmacros; m++)
		if (t->kind == CXX_TOK_IDENT && tok_is(data, t, l->macros[m].name))
			return (long)m;
	return -1;
}

#define LAUNCH_MAX_ARGS 256

/* The parameter of a macro that token t names (one identifier), or -1. */
static long param_of(const char *data, const struct cxx_token *t, char **params, size_t nparams)
{
	if (t->kind != CXX_TOK_IDENT)
		return -1;
	for (size_t p = 0; p < nparams; p++)
		if (tok_is(data, t, params[p]))
			return (long)p;
	return -1;
}

/* One #define of tokens [i, end) (the '#' to the directive's end): a launch
 * macro when its replacement launches one of its parameters. */
static void read_define(struct reading *r, const struct src_file *f, const struct cxx_token *t, size_t i, size_t end)
{
	struct project_launch *l = r->l;
	char *params[LAUNCH_MAX_ARGS];
	size_t nparams = 0, k = i + 3, body;
	bool variadic = false;
	long kernel = -1, first = -2;

	if (end < i + 4 || !tok_is(f->data, &t[i + 1], "define") || t[i + 2].kind != CXX_TOK_IDENT ||
	    !cxx_tok_punct(&t[k], CXX_P_LPAREN) || t[k].start != t[i + 2].end)
		return;
	for (size_t m = 0; m < l->nmacros; m++)
		if (tok_is(f->data, &t[i + 2], l->macros[m].name))
			return;
	for (k++; k < end && !cxx_tok_punct(&t[k], CXX_P_RPAREN); k++) {
		if (cxx_tok_punct(&t[k], CXX_P_ELLIPSIS))
			variadic = true;
		else if (t[k].kind == CXX_TOK_IDENT && nparams < LAUNCH_MAX_ARGS)
			params[nparams++] = xstrndup(f->data + t[k].start, t[k].end - t[k].start);
	}
	body = k + 1;
	for (k = body; k < end && kernel < 0; k++) {
		size_t starts[LAUNCH_MAX_ARGS], ends[LAUNCH_MAX_ARGS], n = 0, from = 0, open;
		long m;
		if (tok_is(f->data, &t[k], "ACLRT_LAUNCH_KERNEL") && k + 4 < end && cxx_tok_punct(&t[k + 1], CXX_P_LPAREN) &&
		    cxx_tok_punct(&t[k + 3], CXX_P_RPAREN) && cxx_tok_punct(&t[k + 4], CXX_P_LPAREN)) {
			kernel = param_of(f->data, &t[k + 2], params, nparams);
			open = k + 4;
			from = 2;
		} else if (k + 1 < end && cxx_tok_punct(&t[k + 1], CXX_P_LLL)) {
			kernel = param_of(f->data, &t[k], params, nparams);
			for (open = k + 2; open < end && !cxx_tok_punct(&t[open], CXX_P_GGG); open++)
				;
			open++;
		} else if ((m = macro_named(l, f->data, &t[k])) >= 0 && k + 1 < end && cxx_tok_punct(&t[k + 1], CXX_P_LPAREN)) {
			open = k + 1;
			n = split_at(t, open, close_of(t, open, end), starts, ends, LAUNCH_MAX_ARGS);
			if (l->macros[m].kernel < n && ends[l->macros[m].kernel] == starts[l->macros[m].kernel] + 1)
				kernel = param_of(f->data, &t[starts[l->macros[m].kernel]], params, nparams);
			from = l->macros[m].first < 0 ? n + 1 : (size_t)l->macros[m].first;
		} else {
			continue;
		}
		if (kernel < 0 || open >= end || !cxx_tok_punct(&t[open], CXX_P_LPAREN))
			continue;
		if (!n)
			n = split_at(t, open, close_of(t, open, end), starts, ends, LAUNCH_MAX_ARGS);
		if (variadic) {
			first = (long)nparams;
		} else if (from <= n) {
			/* the kernel's arguments are the macro's last parameters, in order */
			long p0 = from < n ? param_of(f->data, &t[starts[from]], params, nparams) : (long)nparams;
			first = p0;
			for (size_t a = from; a < n && first >= 0; a++)
				if (ends[a] != starts[a] + 1 || param_of(f->data, &t[starts[a]], params, nparams) != p0 + (long)(a - from))
					first = -1;
			if (first >= 0 && p0 + (long)(n - from) != (long)nparams)
				first = -1;
		} else {
			first = -1;
		}
	}
	if (kernel >= 0) {
		struct launch_macro *mc;
		l->macros = xrealloc(l->macros, (l->nmacros + 1) * sizeof(*l->macros));
		mc = &l->macros[l->nmacros++];
		mc->name = xstrndup(f->data + t[i + 2].start, t[i + 2].end - t[i + 2].start);
		mc->kernel = (size_t)kernel;
		mc->first = first < -1 ? -1 : first;
		mc->variadic = variadic;
		mc->nparams = nparams;
		mc->path = xstrdup(f->path);
		mc->at = t[i + 2].start;
		mc->line = t[i + 2].line;
	}
	for (size_t p = 0; p < nparams; p++)
		free(params[p]);
}

/* True when the file may launch: it names a launch form or a launch macro. */
static bool mentions_launch(const struct project_launch *l, const struct src_file *f)
{
	if (memmem(f->data, f->len, "ACLRT_LAUNCH_KERNEL", 19) || memmem(f->data, f->len, "<<<", 3))
		return true;
	for (size_t m = 0; m < l->nmacros; m++)
		if (src_file_has_word(f, l->macros[m].name, false))
			return true;
	return false;
}

static void read_macros(struct reading *r)
{
	struct project_launch *l = r->l;
	bool known = false;

	for (int round = 0; round < 8; round++) {
		size_t before = l->nmacros;
		for (size_t i = 0; i < r->npaths; i++) {
			const struct src_file *f = file_at(r, i);
			struct cxx_tokens toks;
			if (!f || !memmem(f->data, f->len, "define", 6) || !mentions_launch(l, f))
				continue;
			memset(&toks, 0, sizeof(toks));
			cxx_tokenize(f->data, f->len, &toks);
			for (size_t k = 0; k < toks.n; k++) {
				size_t e = k;
				if (toks.v[k].kind != CXX_TOK_PP_BEGIN)
					continue;
				while (e < toks.n && toks.v[e].kind != CXX_TOK_PP_END)
					e++;
				read_define(r, f, toks.v, k, e);
				k = e;
			}
			cxx_tokens_release(&toks);
		}
		if (l->nmacros == before)
			break;
	}
	for (size_t m = 0; m < l->nmacros; m++)
		known = known || strcmp(l->macros[m].name, "EXEC_KERNEL_CMD") == 0;
	if (!known) {
		/* torch_npu projects' EXEC_KERNEL_CMD(kernel, blockDim, args...), defined in a header not here */
		l->macros = xrealloc(l->macros, (l->nmacros + 1) * sizeof(*l->macros));
		l->macros[l->nmacros++] = (struct launch_macro){ xstrdup("EXEC_KERNEL_CMD"), 0, 2, true, 2, NULL, 0, 0 };
	}
}

/* ---- the launches ---- */

/* The last identifier of tokens [s, e) of the view, newly allocated, or NULL. */
static char *last_ident(const struct tok_view *tv, size_t s, size_t e)
{
	for (size_t k = e; k-- > s;)
		if (tv_ident(tv, k))
			return tv_tok_text(tv, k, false);
	return NULL;
}

static bool is_entry(const struct reading *r, const char *name)
{
	return name && strset_has(r->entries, r->nentries, name);
}

/* Fills the site's kernel arguments from the arguments [from, n) of the parentheses at `open`. */
static void site_args(const struct tok_view *tv, size_t open, size_t from, struct launch_site *s)
{
	size_t *st, *en, n = tv_split_args(tv, open, &st, &en);

	s->tail = from > 0 && from <= n && en[from - 1] > st[from - 1] ? tv->v[en[from - 1] - 1].end : tv->v[open].end;
	for (size_t a = from; a < n; a++) {
		s->args.v = xrealloc(s->args.v, (s->args.n + 1) * sizeof(*s->args.v));
		s->args.ranges = xrealloc(s->args.ranges, (s->args.n + 1) * sizeof(*s->args.ranges));
		s->args.v[s->args.n] = tv_text(tv, st[a], en[a]);
		s->args.ranges[s->args.n] = st[a] < en[a] ? rng(tv->v[st[a]].start, tv->v[en[a] - 1].end)
							   : rng(tv->v[st[a]].start, tv->v[st[a]].start);
		s->args.n++;
	}
	free(st);
	free(en);
}

static long func_at(const struct pybind_file *pb, uint32_t at)
{
	for (size_t i = 0; i < pb->nfuncs; i++)
		if (pb->funcs[i].body.start <= at && at < pb->funcs[i].body.end)
			return (long)i;
	return -1;
}

static void add_site(struct launch_file *lf, struct launch_site *s)
{
	s->func = func_at(&lf->pb, s->range.start);
	lf->sites = xrealloc(lf->sites, (lf->nsites + 1) * sizeof(*lf->sites));
	lf->sites[lf->nsites++] = *s;
}

/* The launches of the operator's entries in path i. */
static void read_sites(struct reading *r, size_t i)
{
	struct project_launch *l = r->l;
	const struct src_file *f = file_at(r, i);
	struct tok_view tv;
	long fi = -1;
	bool any = false;

	for (size_t e = 0; e < r->nentries && !any; e++)
		any = src_file_has_word(f, r->entries[e], false);
	if (!any || !mentions_launch(l, f))
		return;
	tok_view_init(&tv, f->data, f->len);
	for (size_t k = 0; k + 1 < tv.n; k++) {
		struct launch_site s;
		size_t open = TV_NONE, from = 0;
		long m;
		memset(&s, 0, sizeof(s));
		if (tv_is(&tv, k, "ACLRT_LAUNCH_KERNEL") && tv_punct(&tv, k + 1, CXX_P_LPAREN) && tv.match[k + 1] != TV_NONE &&
		    tv_punct(&tv, tv.match[k + 1] + 1, CXX_P_LPAREN)) {
			s.kind = LAUNCH_ACLRT;
			s.via = xstrdup("ACLRT_LAUNCH_KERNEL");
			s.kernel = last_ident(&tv, k + 2, tv.match[k + 1]);
			open = tv.match[k + 1] + 1;
			from = 2;
		} else if (tv_ident(&tv, k) && tv_punct(&tv, k + 1, CXX_P_LLL)) {
			size_t g = k + 2;
			while (g < tv.n && !tv_punct(&tv, g, CXX_P_GGG) && !tv_punct(&tv, g, CXX_P_SEMI))
				g++;
			if (!tv_punct(&tv, g, CXX_P_GGG) || !tv_punct(&tv, g + 1, CXX_P_LPAREN))
				continue;
			s.kind = LAUNCH_CHEVRON;
			s.via = xstrdup("<<<>>>");
			s.kernel = tv_tok_text(&tv, k, false);
			open = g + 1;
		} else if ((m = macro_named(l, tv.data, &tv.v[k])) >= 0 && tv_punct(&tv, k + 1, CXX_P_LPAREN)) {
			size_t *st, *en, n = tv_split_args(&tv, k + 1, &st, &en);
			const struct launch_macro *mc = &l->macros[m];
			if (mc->kernel < n)
				s.kernel = last_ident(&tv, st[mc->kernel], en[mc->kernel]);
			free(st);
			free(en);
			s.kind = LAUNCH_MACRO;
			s.via = xstrdup(mc->name);
			s.macro = m;
			s.nmacro_args = n;
			open = k + 1;
			s.unknown = mc->first < 0;
			from = mc->first < 0 ? n : (size_t)mc->first;
		} else {
			continue;
		}
		if (open == TV_NONE || tv.match[open] == TV_NONE || !is_entry(r, s.kernel)) {
			free(s.via);
			free(s.kernel);
			continue;
		}
		s.range = rng(tv.v[k].start, tv.v[tv.match[open]].end);
		site_args(&tv, open, from, &s);
		if (fi < 0)
			fi = (long)file_index(r, i);
		add_site(&l->files[fi], &s);
		l->nsites++;
		k = tv.match[open];
	}
	tok_view_release(&tv);
}

/* ---- functions, registrations, schemas ---- */

static bool func_known(const struct project_launch *l, const char *name)
{
	for (size_t i = 0; i < l->nfuncs; i++)
		if (strcmp(project_launch_pf(l, &l->funcs[i])->name, name) == 0)
			return true;
	return false;
}

static void add_func(struct reading *r, size_t file, long index, bool launches)
{
	struct project_launch *l = r->l;
	const struct launch_file *lf = &l->files[file];
	const struct pybind_func *pf = &lf->pb.funcs[index];
	struct launch_func fn;
	size_t nret = 0;

	for (size_t i = 0; i < l->nfuncs; i++)
		if (l->funcs[i].file == file && l->funcs[i].index == index) {
			l->funcs[i].launches = l->funcs[i].launches || launches;
			return;
		}
	memset(&fn, 0, sizeof(fn));
	fn.file = file;
	fn.index = index;
	fn.launches = launches;
	fn.arity = project_launch_arity(lf->f->data + pf->return_type.start, pf->return_type.end - pf->return_type.start,
					&fn.ref);
	for (size_t k = 0; k < lf->pb.nreturns; k++) {
		const struct pybind_return *ret = &lf->pb.returns[k];
		if (ret->func == index && ret->elems.n && tv_names_profiling(ret->elems.v[ret->elems.n - 1], r->profiling))
			fn.returns_prof = true;
		nret += ret->func == index;
	}
	if (nret == 0 && fn.arity > 0 && !fn.ref && pybind_var_before(&lf->pb, index, r->profiling, pf->body.end))
		fn.returns_prof = fn.returns_missing = true;
	l->funcs = xrealloc(l->funcs, (l->nfuncs + 1) * sizeof(*l->funcs));
	l->funcs[l->nfuncs++] = fn;
}

/* A lambda registered at tokens [s, e): the call of a known function in its body. */
static void read_lambda(const struct project_launch *l, const struct tok_view *tv, size_t s, size_t e,
			struct launch_reg *g)
{
	size_t k = s, body = TV_NONE, params_close = TV_NONE;
	bool other_return = false;

	g->lambda = true;
	if (tv->match[k] == TV_NONE)
		return;
	k = tv->match[k] + 1;
	if (tv_punct(tv, k, CXX_P_LPAREN) && tv->match[k] != TV_NONE) {
		params_close = tv->match[k];
		k = params_close + 1;
	}
	g->lambda_params_end = params_close != TV_NONE ? tv->v[params_close].end : tv->v[s].end;
	for (; k < e && !tv_punct(tv, k, CXX_P_LBRACE); k++)
		if (tv_punct(tv, k, CXX_P_ARROW) && k + 1 < e) {
			size_t b = k + 1;
			while (b < e && !tv_punct(tv, b, CXX_P_LBRACE))
				b++;
			g->lambda_ret = rng(tv->v[k + 1].start, tv->v[b - 1].end);
			k = b - 1;
		}
	if (k >= e || tv->match[k] == TV_NONE)
		return;
	body = k;
	for (k = body + 1; k < tv->match[body]; k++) {
		size_t q = k, before;
		if (tv_is(tv, k, "return") && !tv_punct(tv, k + 1, CXX_P_SEMI))
			other_return = true;
		if (g->func || !tv_ident(tv, k) || !tv_punct(tv, k + 1, CXX_P_LPAREN) || tv->match[k + 1] == TV_NONE)
			continue;
		{
			char *name = tv_tok_text(tv, k, false);
			bool ours = func_known(l, name);
			if (!ours) {
				free(name);
				continue;
			}
			g->func = name;
		}
		while (q >= 2 && tv_punct(tv, q - 1, CXX_P_SCOPE) && tv_ident(tv, q - 2))
			q -= 2;
		before = q - 1;
		g->call = rng(tv->v[q].start, tv->v[tv->match[k + 1]].end);
		g->call_returned = tv_is(tv, before, "return") && tv_punct(tv, tv->match[k + 1] + 1, CXX_P_SEMI);
		g->call_statement = (tv_punct(tv, before, CXX_P_SEMI) || tv_punct(tv, before, CXX_P_LBRACE) ||
				     tv_punct(tv, before, CXX_P_RBRACE)) &&
				    tv_punct(tv, tv->match[k + 1] + 1, CXX_P_SEMI);
		if (g->call_returned)
			other_return = false;
	}
	if (other_return && !g->call_returned)
		g->call_statement = false;
}

static bool reg_known(const struct project_launch *l, size_t file, uint32_t at)
{
	for (size_t i = 0; i < l->nregs; i++)
		if (l->regs[i].file == file && l->regs[i].at.start == at)
			return true;
	return false;
}

/* The registrations (m.impl, m.def with a function) in file fi, of known
 * functions or names; true when a name or function was learnt. */
static bool read_regs(struct reading *r, size_t fi)
{
	struct project_launch *l = r->l;
	const struct launch_file *lf = &l->files[fi];
	struct tok_view tv;
	bool learnt = false;

	tok_view_init(&tv, lf->f->data, lf->f->len);
	for (size_t k = 1; k + 2 < tv.n; k++) {
		size_t *st, *en, n;
		struct launch_reg g;
		const struct pybind_opname *o = NULL;
		if (!(tv_is(&tv, k, "impl") || tv_is(&tv, k, "def")) ||
		    !(tv_punct(&tv, k - 1, CXX_P_DOT) || tv_punct(&tv, k - 1, CXX_P_ARROW)) ||
		    !tv_punct(&tv, k + 1, CXX_P_LPAREN) || tv.v[k + 2].kind != CXX_TOK_STRING || tv.match[k + 1] == TV_NONE)
			continue;
		for (size_t x = 0; x < lf->pb.nnames && !o; x++)
			if (lf->pb.names[x].range.start == tv.v[k + 2].start)
				o = &lf->pb.names[x];
		n = tv_split_args(&tv, k + 1, &st, &en);
		if (!o || n < 2 || reg_known(l, fi, o->range.start)) {
			free(st);
			free(en);
			continue;
		}
		memset(&g, 0, sizeof(g));
		g.file = fi;
		g.name = xstrdup(o->name);
		g.at = o->range;
		/* a lambda runs to the call's ')' (the commas of its template types split it) */
		for (size_t a = 1; a < n && !g.lambda; a++)
			if (tv_punct(&tv, st[a], CXX_P_LBRACKET))
				read_lambda(l, &tv, st[a], en[n - 1], &g);
		if (!g.lambda)
			for (size_t q = st[n - 1]; q < en[n - 1]; q++)
				if (tv_ident(&tv, q) && !tv_is(&tv, q, "TORCH_FN")) {
					free(g.func);
					g.func = tv_tok_text(&tv, q, false);
				}
		free(st);
		free(en);
		if (g.func && (func_known(l, g.func) || strset_has(l->names, l->nnames, g.name))) {
			learnt |= strset_add(&l->names, &l->nnames, g.name);
			l->regs = xrealloc(l->regs, (l->nregs + 1) * sizeof(*l->regs));
			l->regs[l->nregs++] = g;
		} else {
			free(g.name);
			free(g.func);
		}
	}
	tok_view_release(&tv);
	return learnt;
}

/* Functions registered under the names but defined elsewhere (meta
 * functions): their definitions, wherever they are. */
static bool find_registered(struct reading *r)
{
	struct project_launch *l = r->l;
	bool learnt = false;

	for (size_t g = 0; g < l->nregs; g++) {
		const char *name = l->regs[g].func;
		if (l->regs[g].lambda || func_known(l, name))
			continue;
		for (size_t i = 0; i < r->npaths && !func_known(l, name); i++) {
			const struct src_file *f = file_at(r, i);
			size_t fi;
			long k;
			if (!f || !src_file_has_word(f, name, false))
				continue;
			fi = file_index(r, i);
			if ((k = pybind_func_named(&l->files[fi].pb, name)) >= 0) {
				add_func(r, fi, k, false);
				learnt = true;
			}
		}
	}
	return learnt;
}

static void read_registrations(struct reading *r)
{
	struct project_launch *l = r->l;

	for (int round = 0; round < 8; round++) {
		bool learnt = false;
		for (size_t i = 0; i < r->npaths; i++) {
			const struct src_file *f = file_at(r, i);
			bool maybe = false;
			if (!f || (!memmem(f->data, f->len, "impl", 4) && !memmem(f->data, f->len, "def", 3)))
				continue;
			for (size_t k = 0; k < l->nfuncs && !maybe; k++)
				maybe = src_file_has_word(f, project_launch_pf(l, &l->funcs[k])->name, false);
			for (size_t k = 0; k < l->nnames && !maybe; k++)
				maybe = src_file_has_literal(f, l->names[k]);
			if (maybe)
				learnt |= read_regs(r, file_index(r, i));
		}
		learnt |= find_registered(r);
		if (!learnt)
			break;
	}
}

/* `-> ()` 0, `-> T` 1, `-> (A, B)` 2, in the literal pieces of the schema
 * ("... -> " "(Tensor, Tensor)"); the returns' range in the file. */
static void read_schema_returns(const struct src_file *f, const struct pybind_opname *o, struct launch_schema *s)
{
	uint32_t a = o->range.start, e = o->range.end, last = 0;
	long n = 1;
	int depth = 0;
	bool any = false, in = true, paren = false;

	s->nreturns = -1;
	while (a + 1 < e && !(f->data[a] == '-' && f->data[a + 1] == '>'))
		a++;
	if (a + 1 >= e)
		return;
	s->returns = rng(a + 2, a + 2);
	for (a += 2; a < e; a++) {
		char c = f->data[a];
		if (c == '"') {
			in = !in;
			continue;
		}
		if (!in || c == ' ' || c == '\t' || c == '\n')
			continue;
		if (!any) {
			s->returns.start = a;
			paren = c == '(';
		}
		any = true;
		last = a + 1;
		if (c == '(' || c == '[')
			depth++;
		else if (c == ')' || c == ']')
			depth--;
		else if (c == ',' && depth == 1 && paren)
			n++;
	}
	if (!any)
		return;
	s->returns.end = last;
	if (!paren)
		s->nreturns = 1;
	else if (last == s->returns.start + 2 || (last > s->returns.start + 1 && f->data[s->returns.start + 1] == ')'))
		s->nreturns = 0;
	else
		s->nreturns = n;
}

static void read_schemas(struct reading *r)
{
	struct project_launch *l = r->l;

	for (size_t i = 0; i < r->npaths && l->nnames; i++) {
		const struct src_file *f = file_at(r, i);
		bool maybe = false;
		for (size_t k = 0; f && k < l->nnames && !maybe; k++)
			maybe = src_file_has_literal(f, l->names[k]);
		if (!maybe)
			continue;
		{
			size_t fi = file_index(r, i);
			const struct pybind_file *pb = &l->files[fi].pb;
			for (size_t o = 0; o < pb->nnames; o++) {
				struct launch_schema s;
				if (!pb->names[o].schema || !strset_has(l->names, l->nnames, pb->names[o].name))
					continue;
				memset(&s, 0, sizeof(s));
				s.file = fi;
				s.name = (long)o;
				read_schema_returns(l->files[fi].f, &pb->names[o], &s);
				l->schemas = xrealloc(l->schemas, (l->nschemas + 1) * sizeof(*l->schemas));
				l->schemas[l->nschemas++] = s;
			}
		}
	}
}

/* ---- declarations ---- */

/* Declarations of `name` in the view: `T name(params);` at a statement's start. */
static void read_decls_of(struct reading *r, size_t fi, const struct tok_view *tv, const char *name)
{
	struct project_launch *l = r->l;

	for (size_t k = 1; k + 1 < tv->n; k++) {
		size_t q = k, s, after;
		bool ok = true;
		int angle = 0;
		if (!tv_is(tv, k, name) || !tv_punct(tv, k + 1, CXX_P_LPAREN) || tv->match[k + 1] == TV_NONE)
			continue;
		after = tv->match[k + 1] + 1;
		while (after < tv->n && (tv_is(tv, after, "const") || tv_is(tv, after, "noexcept") || tv_is(tv, after, "override")))
			after++;
		if (!tv_punct(tv, after, CXX_P_SEMI))
			continue;
		while (q >= 2 && tv_punct(tv, q - 1, CXX_P_SCOPE) && tv_ident(tv, q - 2))
			q -= 2;
		/* back to the statement's start (a label or access specifier ends one too);
		   a comma only between template arguments (std::tuple<A, B>) */
		for (s = q; s > 0 && !tv_punct(tv, s - 1, CXX_P_SEMI) && !tv_punct(tv, s - 1, CXX_P_LBRACE) &&
			    !tv_punct(tv, s - 1, CXX_P_RBRACE) && !tv_punct(tv, s - 1, CXX_P_COLON);
		     s--) {
			angle += tv_punct(tv, s - 1, CXX_P_GT) ? 1 : tv_punct(tv, s - 1, CXX_P_SHR) ? 2 : 0;
			angle -= tv_punct(tv, s - 1, CXX_P_LT) ? 1 : 0;
			if (tv_punct(tv, s - 1, CXX_P_ASSIGN) || tv_punct(tv, s - 1, CXX_P_DOT) || tv_punct(tv, s - 1, CXX_P_ARROW) ||
			    tv_punct(tv, s - 1, CXX_P_LPAREN) || (tv_punct(tv, s - 1, CXX_P_COMMA) && angle <= 0) ||
			    tv_is(tv, s - 1, "return") || tv_is(tv, s - 1, "else") || tv_is(tv, s - 1, "do") ||
			    tv_is(tv, s - 1, "throw"))
				ok = false;
		}
		if (!ok || s == q)
			continue;
		{
			struct launch_decl d;
			memset(&d, 0, sizeof(d));
			d.file = fi;
			d.func = xstrdup(name);
			d.type = rng(tv->v[s].start, tv->v[q].start);
			d.name = rng(tv->v[k].start, tv->v[k].end);
			d.arity = project_launch_arity(tv->data + d.type.start, d.type.end - d.type.start, &d.ref);
			l->decls = xrealloc(l->decls, (l->ndecls + 1) * sizeof(*l->decls));
			l->decls[l->ndecls++] = d;
		}
	}
}

static void read_decls(struct reading *r)
{
	struct project_launch *l = r->l;
	size_t nfuncs = l->nfuncs;

	for (size_t i = 0; i < r->npaths; i++) {
		const struct src_file *f = file_at(r, i);
		struct tok_view tv;
		bool any = false;
		for (size_t k = 0; f && k < nfuncs && !any; k++)
			any = src_file_has_word(f, project_launch_pf(l, &l->funcs[k])->name, false);
		if (!any)
			continue;
		tok_view_init(&tv, f->data, f->len);
		for (size_t k = 0; k < nfuncs; k++) {
			const char *name = project_launch_pf(l, &l->funcs[k])->name;
			size_t before = l->ndecls;
			if (!src_file_has_word(f, name, false))
				continue;
			read_decls_of(r, l->nfiles, &tv, name);
			if (l->ndecls > before) {
				/* the file's index, now that it holds one */
				size_t fi = file_index(r, i);
				for (size_t d = before; d < l->ndecls; d++)
					l->decls[d].file = fi;
			}
		}
		tok_view_release(&tv);
	}
}

/* ---- where a declaration is not found ---- */

static bool resolves(const struct reading *r, const char *from, const char *name)
{
	char *dir = xstrdup(from), *slash = strrchr(dir, '/'), *p;
	size_t nl = strlen(name);
	struct stat st;
	bool yes;

	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	p = xasprintf("%s%s", dir, name);
	yes = stat(p, &st) == 0;
	free(p);
	free(dir);
	for (size_t i = 0; i < r->npaths && !yes; i++) {
		size_t pl = strlen(r->paths[i]);
		yes = pl > nl && r->paths[i][pl - nl - 1] == '/' && strcmp(r->paths[i] + pl - nl, name) == 0;
	}
	return yes;
}

/* The quoted includes of file fi; the unresolved ones kept as missing, the resolved ones as paths read. */
static void read_includes(struct reading *r, size_t fi)
{
	struct launch_file *lf = &r->l->files[fi];
	struct cxx_tokens toks;

	memset(&toks, 0, sizeof(toks));
	cxx_tokenize(lf->f->data, lf->f->len, &toks);
	for (size_t k = 0; k + 2 < toks.n; k++) {
		char *name;
		if (toks.v[k].kind != CXX_TOK_PP_BEGIN || !tok_is(lf->f->data, &toks.v[k + 1], "include") ||
		    toks.v[k + 2].kind != CXX_TOK_STRING)
			continue;
		name = xstrndup(lf->f->data + toks.v[k + 2].start + 1, toks.v[k + 2].end - toks.v[k + 2].start - 2);
		if (resolves(r, lf->f->path, name)) {
			for (size_t i = 0; i < r->npaths; i++) {
				size_t pl = strlen(r->paths[i]), nl = strlen(name);
				if (pl > nl && r->paths[i][pl - nl - 1] == '/' && strcmp(r->paths[i] + pl - nl, name) == 0)
					strset_add(&r->l->paths, &r->l->npaths, r->paths[i]);
			}
			free(name);
			continue;
		}
		lf->missing = xrealloc(lf->missing, (lf->nmissing + 1) * sizeof(*lf->missing));
		lf->missing_at = xrealloc(lf->missing_at, (lf->nmissing + 1) * sizeof(*lf->missing_at));
		lf->missing[lf->nmissing] = name;
		lf->missing_at[lf->nmissing++] = rng(toks.v[k].start, toks.v[k + 2].end);
	}
	cxx_tokens_release(&toks);
}

/* A registering file that neither defines nor declares a function it
 * registers, whose declaration is nowhere: its unresolved includes. */
static void read_missing(struct reading *r)
{
	struct project_launch *l = r->l;

	for (size_t g = 0; g < l->nregs; g++) {
		const struct launch_reg *reg = &l->regs[g];
		const char *fn = reg->func;
		bool here = false, declared = false;
		if (!fn || l->files[reg->file].nmissing)
			continue;
		here = pybind_func_named(&l->files[reg->file].pb, fn) >= 0;
		for (size_t d = 0; d < l->ndecls; d++)
			declared = declared || strcmp(l->decls[d].func, fn) == 0;
		if (!here && !declared)
			read_includes(r, reg->file);
	}
}

char *project_launch_missing(const struct project_launch *l, const struct launch_reg *reg, const char *root,
			     const char *profiling, struct pybind_range *at)
{
	const struct launch_file *lf = &l->files[reg->file];
	char *names = xstrdup(""), *change, *msg;

	for (size_t k = 0; k < lf->nmissing; k++) {
		char *t = xasprintf("%s%s'%s'", names, k ? ", " : "", lf->missing[k]);
		free(names);
		names = t;
	}
	const struct launch_func *fn = NULL;
	bool ref = false;

	for (size_t i = 0; i < l->nfuncs; i++)
		if (strcmp(project_launch_pf(l, &l->funcs[i])->name, reg->func) == 0)
			fn = &l->funcs[i];
	ref = fn && fn->ref;
	if (fn && fn->returns_prof) {
		/* wired already: the definition's type as it is now */
		const struct pybind_func *pf = project_launch_pf(l, fn);
		const char *t = l->files[fn->file].f->data + pf->return_type.start;
		size_t n = pf->return_type.end - pf->return_type.start;
		while (n && (t[n - 1] == ' ' || t[n - 1] == '\n'))
			n--;
		change = xasprintf("the definition's: %.*s", (int)n, t);
	} else if (l->nmain == 0)
		change = xstrdup("void -> at::Tensor");
	else if (l->nmain == 1)
		change = xstrdup(ref ? "at::Tensor & -> std::tuple<at::Tensor &, at::Tensor>"
				     : "at::Tensor -> std::tuple<at::Tensor, at::Tensor>");
	else
		change = xasprintf("std::tuple of %ld -> %ld tensors", l->nmain, l->nmain + 1);
	msg = xasprintf("%s() is registered in this file but declared in no file under the project root %s: its "
			"declaration, in an include not found there (%s), must return what the definition does, '%s' last "
			"(%s): change it by hand", reg->func, root, names, profiling, change);
	*at = lf->nmissing ? lf->missing_at[0] : reg->at;
	free(names);
	free(change);
	return msg;
}

/* The reading over files read already (`loaded`, borrowed) or to be read on demand. */
static void read_all(struct project_launch *out, char *const *paths, struct src_file *const *loaded, size_t npaths,
		     char *const *entries, size_t nentries, const char *profiling)
{
	struct reading r;

	memset(out, 0, sizeof(*out));
	out->nmain = -1;
	if (nentries == 0 || npaths == 0)
		return;
	memset(&r, 0, sizeof(r));
	r.l = out;
	r.paths = paths;
	r.npaths = npaths;
	r.cache = xcalloc(npaths, sizeof(*r.cache));
	r.tried = xcalloc(npaths, sizeof(*r.tried));
	for (size_t i = 0; loaded && i < npaths; i++) {
		r.cache[i] = loaded[i];
		r.tried[i] = true;
	}
	r.entries = entries;
	r.nentries = nentries;
	r.profiling = profiling;
	read_macros(&r);
	for (size_t i = 0; i < npaths; i++)
		if (file_at(&r, i))
			read_sites(&r, i);
	for (size_t fi = 0; fi < out->nfiles; fi++)
		for (size_t s = 0; s < out->files[fi].nsites; s++)
			if (out->files[fi].sites[s].func >= 0)
				add_func(&r, fi, out->files[fi].sites[s].func, true);
	if (out->nfuncs) {
		read_registrations(&r);
		read_schemas(&r);
		read_decls(&r);
		read_missing(&r);
	}
	for (size_t i = 0; i < out->nfuncs; i++)
		if (out->funcs[i].launches) {
			out->nmain = out->funcs[i].arity - (out->funcs[i].returns_prof ? 1 : 0);
			break;
		}
	for (size_t m = 0; m < out->nmacros; m++)
		if (out->macros[m].path)
			strset_add(&out->paths, &out->npaths, out->macros[m].path);
	for (size_t i = 0; i < npaths && !loaded; i++)
		src_file_free(r.cache[i]);
	free(r.cache);
	free(r.tried);
}

long project_launch_main_of(const struct project_launch *l, const char *func)
{
	for (size_t i = 0; func && i < l->nfuncs; i++)
		if (l->funcs[i].launches && strcmp(project_launch_pf(l, &l->funcs[i])->name, func) == 0)
			return l->funcs[i].arity - (l->funcs[i].returns_prof ? 1 : 0);
	return l->nmain;
}

void project_launch_read(struct project_launch *out, char *const *paths, size_t npaths, char *const *entries,
			 size_t nentries, const char *profiling)
{
	read_all(out, paths, NULL, npaths, entries, nentries, profiling);
}

void project_launch_read_files(struct project_launch *out, struct src_file *const *files, size_t nfiles,
			       char *const *entries, size_t nentries, const char *profiling)
{
	char **paths = xmalloc((nfiles ? nfiles : 1) * sizeof(*paths));

	for (size_t i = 0; i < nfiles; i++)
		paths[i] = files[i]->path;
	read_all(out, paths, files, nfiles, entries, nentries, profiling);
	free(paths);
}

void project_launch_release(struct project_launch *l)
{
	for (size_t m = 0; m < l->nmacros; m++) {
		free(l->macros[m].name);
		free(l->macros[m].path);
	}
	for (size_t i = 0; i < l->nfiles; i++) {
		struct launch_file *lf = &l->files[i];
		for (size_t s = 0; s < lf->nsites; s++) {
			free(lf->sites[s].via);
			free(lf->sites[s].kernel);
			for (size_t a = 0; a < lf->sites[s].args.n; a++)
				free(lf->sites[s].args.v[a]);
			free(lf->sites[s].args.v);
			free(lf->sites[s].args.ranges);
		}
		free(lf->sites);
		for (size_t k = 0; k < lf->nmissing; k++)
			free(lf->missing[k]);
		free(lf->missing);
		free(lf->missing_at);
		pybind_file_release(&lf->pb);
		src_file_free(lf->f);
	}
	for (size_t g = 0; g < l->nregs; g++) {
		free(l->regs[g].name);
		free(l->regs[g].func);
	}
	for (size_t d = 0; d < l->ndecls; d++)
		free(l->decls[d].func);
	for (size_t i = 0; i < l->nnames; i++)
		free(l->names[i]);
	for (size_t i = 0; i < l->npaths; i++)
		free(l->paths[i]);
	free(l->macros);
	free(l->files);
	free(l->funcs);
	free(l->names);
	free(l->regs);
	free(l->schemas);
	free(l->decls);
	free(l->paths);
	memset(l, 0, sizeof(*l));
	l->nmain = -1;
}

char *project_launch_prof_ident(const char *arg, const char *profiling)
{
	struct tok_view tv;
	char *id = NULL;

	tok_view_init(&tv, arg, strlen(arg));
	for (size_t k = 0; k < tv.n && !id; k++)
		if (tv_ident(&tv, k) && !(k > 0 && (tv_punct(&tv, k - 1, CXX_P_DOT) || tv_punct(&tv, k - 1, CXX_P_ARROW)))) {
			char *t = tv_tok_text(&tv, k, false);
			if (tv_names_profiling(t, profiling))
				id = t;
			else
				free(t);
		}
	tok_view_release(&tv);
	return id;
}

const struct project_kentry *project_launch_entry(const struct project_kernels *k, const char *kernel)
{
	for (size_t i = 0; kernel && i < k->n; i++) {
		const char *colon = strrchr(k->v[i].name, ':');
		if (strcmp(colon ? colon + 1 : k->v[i].name, kernel) == 0)
			return &k->v[i];
	}
	return NULL;
}

size_t project_launch_position(const struct project_kentry *e, const char *profiling)
{
	long last = -1;

	for (size_t i = 0; i < e->nparams; i++)
		if (e->params[i].name && tv_names_profiling(e->params[i].name, profiling))
			return i;
	for (size_t i = 0; i < e->nparams; i++) {
		char *k = e->params[i].name ? tv_name_key(e->params[i].name) : xstrdup("");
		if (project_kparam_is_gm(&e->params[i]) && !strstr(k, "workspace") && !strstr(k, "tiling"))
			last = (long)i;
		free(k);
	}
	return (size_t)(last + 1);
}
