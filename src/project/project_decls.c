/* Function declarations outside bodies, by name (project_decls.h). */
#include "project_decls.h"

#include <stdlib.h>
#include <string.h>

#include "cxx_outline.h"
#include "project_tokens.h"
#include "xalloc.h"

static bool wanted(const struct tok_view *tv, size_t i, char *const *names, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (tv_is(tv, i, names[k]))
			return true;
	return false;
}

static bool in_body(const struct cxx_outline *ol, uint32_t at)
{
	for (size_t f = 0; f < ol->nfuncs; f++)
		if (ol->funcs[f].body_range.start <= at && at < ol->funcs[f].body_range.end)
			return true;
	return false;
}

/* The token can end a return type: a name (not a statement keyword), a
 * template's '>', a pointer or reference. */
static bool type_end(const struct tok_view *tv, size_t i)
{
	static const char *const not_types[] = { "return", "else", "case", "throw", "new", "delete", "sizeof", "co_return" };

	if (tv_punct(tv, i, CXX_P_GT) || tv_punct(tv, i, CXX_P_AMP) || tv_punct(tv, i, CXX_P_STAR) ||
	    tv_punct(tv, i, CXX_P_AND))
		return true;
	if (!tv_ident(tv, i))
		return false;
	for (size_t k = 0; k < sizeof(not_types) / sizeof(not_types[0]); k++)
		if (tv_is(tv, i, not_types[k]))
			return false;
	return true;
}

static long tuple_arity(const char *t)
{
	const char *s = strstr(t, "tuple<");
	long n = 1;
	int depth = 0;

	if (!s)
		return -1;
	for (s += 6; *s; s++) {
		if (*s == '<' || *s == '(')
			depth++;
		else if ((*s == '>' || *s == ')') && depth-- == 0)
			return n;
		else if (*s == ',' && depth == 0)
			n++;
	}
	return -1;
}

static void read_params(const struct tok_view *tv, size_t open, struct project_decl *d)
{
	size_t *s, *e, n = tv_split_args(tv, open, &s, &e);

	d->params = n ? xcalloc(n, sizeof(*d->params)) : NULL;
	for (size_t a = 0; a < n; a++) {
		size_t end = e[a];
		struct pybind_param *q = &d->params[d->nparams];
		for (size_t k = s[a]; k < e[a]; k++)
			if (tv_punct(tv, k, CXX_P_ASSIGN)) {
				end = k; /* a default value */
				break;
			}
		if (end == s[a])
			continue;
		if (end > s[a] + 1 && tv_ident(tv, end - 1) && !tv_punct(tv, end - 2, CXX_P_SCOPE)) {
			q->name = tv_tok_text(tv, end - 1, false);
			q->type = tv_text(tv, s[a], end - 1);
		} else {
			q->type = tv_text(tv, s[a], end);
		}
		q->range.start = tv->v[s[a]].start;
		q->range.end = tv->v[end - 1].end;
		q->tensor = pybind_type_is_tensor(q->type);
		d->nparams++;
	}
	free(s);
	free(e);
}

void project_decls_read(const struct src_file *f, char *const *names, size_t nnames, struct project_decls *out)
{
	struct tok_view tv;
	struct cxx_outline *ol;

	memset(out, 0, sizeof(*out));
	if (nnames == 0)
		return;
	tok_view_init(&tv, f->data, f->len);
	ol = cxx_outline_build(f, NULL, NULL);
	for (size_t i = 1; i + 1 < tv.n; i++) {
		size_t close, after, start, name = i;
		struct project_decl d;
		if (!wanted(&tv, i, names, nnames) || !tv_punct(&tv, i + 1, CXX_P_LPAREN) ||
		    (close = tv.match[i + 1]) == TV_NONE || in_body(ol, tv.v[i].start))
			continue;
		after = close + 1;
		while (after < tv.n && (tv_is(&tv, after, "const") || tv_is(&tv, after, "noexcept") ||
					tv_is(&tv, after, "override")))
			after++;
		if (after >= tv.n || !tv_punct(&tv, after, CXX_P_SEMI))
			continue;
		/* ns::name: the qualifier belongs to the name */
		while (name >= 2 && tv_punct(&tv, name - 1, CXX_P_SCOPE) && tv_ident(&tv, name - 2))
			name -= 2;
		if (name == 0 || !type_end(&tv, name - 1))
			continue;
		start = name;
		while (start > 0 && !tv_punct(&tv, start - 1, CXX_P_SEMI) && !tv_punct(&tv, start - 1, CXX_P_RBRACE) &&
		       !tv_punct(&tv, start - 1, CXX_P_LBRACE) && !tv_punct(&tv, start - 1, CXX_P_COLON))
			start--;
		memset(&d, 0, sizeof(d));
		d.name = tv_tok_text(&tv, i, false);
		d.range.start = tv.v[start].start;
		d.range.end = tv.v[after].end;
		d.return_type.start = tv.v[start].start;
		d.return_type.end = tv.v[name - 1].end;
		d.params_range.start = tv.v[i + 1].start;
		d.params_range.end = tv.v[close].end;
		d.return_text = tv_text(&tv, start, name);
		d.tuple_arity = tuple_arity(d.return_text);
		read_params(&tv, i + 1, &d);
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = d;
	}
	cxx_outline_free(ol);
	tok_view_release(&tv);
}

void project_decls_release(struct project_decls *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].name);
		free(d->v[i].return_text);
		for (size_t k = 0; k < d->v[i].nparams; k++) {
			free(d->v[i].params[k].type);
			free(d->v[i].params[k].name);
		}
		free(d->v[i].params);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
