/* Declarations at namespace and class scope: namespaces, extern "C" blocks,
 * classes and structs (nested ones too), templates, and function
 * definitions with their names, template parameters and arguments,
 * parameters and bodies. Everything else is skipped to its ';'. */
#include "cxx_parser.h"

#include <string.h>

#include "xalloc.h"

static size_t scope_push(struct cxx_parser *p, const char *name)
{
	size_t old = p->scope_len, len = strlen(name);

	if (len == 0)
		return old;
	XGROW(p->scope, p->scope_cap, p->scope_len + len + 3);
	if (p->scope_len) {
		memcpy(p->scope + p->scope_len, "::", 2);
		p->scope_len += 2;
	}
	memcpy(p->scope + p->scope_len, name, len);
	p->scope_len += len;
	p->scope[p->scope_len] = '\0';
	return old;
}

static void scope_pop(struct cxx_parser *p, size_t old)
{
	p->scope_len = old;
	if (p->scope)
		p->scope[old] = '\0';
}

/* To the ';' ending a declaration (returned index is after it), or to a '}'
 * of the enclosing scope (returned index is the '}'). */
static size_t skip_decl(const struct cxx_parser *p, size_t i, size_t end)
{
	for (size_t k = i; k < end; k++) {
		if (cxx_is(p, k, CXX_P_SEMI))
			return k + 1;
		if (cxx_is(p, k, CXX_P_RBRACE))
			return k > i ? k : k + 1;
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET) || cxx_is(p, k, CXX_P_LBRACE))) {
			if (p->match[k] == CXX_NOMATCH || p->match[k] >= end)
				return end;
			k = p->match[k];
		}
	}
	return end;
}

/* The '>' closing `template <` at lt (every '<' inside nests). */
static size_t template_close(const struct cxx_parser *p, size_t lt, size_t end)
{
	int level = 0;

	for (size_t k = lt; k < end; k++) {
		const struct cxx_token *t = &p->t[k];
		if (t->kind != CXX_TOK_PUNCT)
			continue;
		switch (t->sub) {
		case CXX_P_LT: level++; break;
		case CXX_P_GT: level -= 1; break;
		case CXX_P_SHR: level -= 2; break;
		case CXX_P_GGG: level -= 3; break;
		case CXX_P_LPAREN:
		case CXX_P_LBRACKET:
			if (p->match[k] == CXX_NOMATCH || p->match[k] >= end)
				return SIZE_MAX;
			k = p->match[k];
			break;
		case CXX_P_SEMI:
		case CXX_P_LBRACE:
		case CXX_P_RBRACE:
			return SIZE_MAX;
		default:
			break;
		}
		if (level <= 0)
			return k;
	}
	return SIZE_MAX;
}

static bool attribute_name(const struct cxx_parser *p, size_t i)
{
	return cxx_ident_is(p, i, "__declspec") || cxx_ident_is(p, i, "__launch_bounds__") ||
	       cxx_ident_is(p, i, "__align__") || cxx_ident_is(p, i, "_Alignas") ||
	       cxx_ident_is(p, i, "__attribute");
}

static int closer(const struct cxx_parser *p, size_t i)
{
	return cxx_is(p, i, CXX_P_GT) ? 1 : cxx_is(p, i, CXX_P_SHR) ? 2 : cxx_is(p, i, CXX_P_GGG) ? 3 : 0;
}

/* Where the name of the function whose parameter list opens at lp starts
 * (its last component in *base, explicit template arguments in *lt..*gt),
 * or SIZE_MAX when no name precedes lp. */
static size_t name_before(const struct cxx_parser *p, size_t lp, size_t lo, size_t *base, size_t *lt,
			  size_t *gt)
{
	size_t j, b, n;

	*lt = *gt = SIZE_MAX;
	if (lp == 0 || lp - 1 < lo)
		return SIZE_MAX;
	j = lp - 1;
	if (j >= lo + 1 && cxx_iskw(p, j - 1, CXX_KW_operator) &&
	    (p->t[j].kind == CXX_TOK_PUNCT || p->t[j].kind == CXX_TOK_KEYWORD) && !cxx_is(p, j, CXX_P_RPAREN) &&
	    !cxx_is(p, j, CXX_P_RBRACKET)) {
		b = j - 1; /* operator>, operator>>, operator=, operator bool */
		goto qualifiers;
	}
	if (closer(p, j)) {
		size_t o = cxx_angle_open_back(p, j, lo);
		if (o == SIZE_MAX || o == 0 || o - 1 < lo)
			return SIZE_MAX;
		*lt = o;
		*gt = j;
		j = o - 1;
	}
	if (p->t[j].kind == CXX_TOK_IDENT) {
		if (attribute_name(p, j))
			return SIZE_MAX;
		b = j;
	} else if (j >= lo + 2 && (cxx_is(p, j, CXX_P_RPAREN) || cxx_is(p, j, CXX_P_RBRACKET)) &&
		   (cxx_is(p, j - 1, CXX_P_LPAREN) || cxx_is(p, j - 1, CXX_P_LBRACKET)) &&
		   cxx_iskw(p, j - 2, CXX_KW_operator)) {
		b = j - 2;
	} else if (j >= lo + 1 && cxx_iskw(p, j - 1, CXX_KW_operator) &&
		   (p->t[j].kind == CXX_TOK_PUNCT || p->t[j].kind == CXX_TOK_KEYWORD)) {
		b = j - 1;
	} else {
		return SIZE_MAX;
	}
	if (b > lo && cxx_is(p, b - 1, CXX_P_TILDE))
		b--;
qualifiers:
	*base = b;
	n = b;
	while (n >= lo + 2 && cxx_is(p, n - 1, CXX_P_SCOPE)) {
		size_t c = n - 2;
		if (p->t[c].kind == CXX_TOK_IDENT) {
			n = c;
		} else if (closer(p, c)) {
			size_t o = cxx_angle_open_back(p, c, lo);
			if (o == SIZE_MAX || o == 0 || o - 1 < lo || p->t[o - 1].kind != CXX_TOK_IDENT)
				break;
			n = o - 1;
		} else {
			break;
		}
	}
	if (n > lo && cxx_is(p, n - 1, CXX_P_SCOPE))
		n--;
	return n;
}

/* Tokens [a, b) with no spaces: "operator()", "~Kernel". */
static const char *tight(struct cxx_parser *p, size_t a, size_t b)
{
	size_t len = 0;
	char *s, *w;

	for (size_t k = a; k < b; k++)
		len += p->t[k].end - p->t[k].start;
	w = s = cxx_arena_alloc(p->ol->arena, len + 1);
	for (size_t k = a; k < b; k++) {
		memcpy(w, p->src + p->t[k].start, p->t[k].end - p->t[k].start);
		w += p->t[k].end - p->t[k].start;
	}
	*w = '\0';
	return s;
}

static const char *concat(struct cxx_parser *p, const char *const *parts, size_t n)
{
	size_t len = 0;
	char *s, *w;

	for (size_t k = 0; k < n; k++)
		len += strlen(parts[k]);
	w = s = cxx_arena_alloc(p->ol->arena, len + 1);
	for (size_t k = 0; k < n; k++) {
		size_t l = strlen(parts[k]);
		memcpy(w, parts[k], l);
		w += l;
	}
	*w = '\0';
	return s;
}

static void parse_params(struct cxx_parser *p, struct cxx_func *f, size_t lp, size_t rp)
{
	size_t cuts[256], n;

	if (rp == lp + 1 || (rp == lp + 2 && cxx_iskw(p, lp + 1, CXX_KW_void)))
		return;
	n = cxx_split_args(p, lp + 1, rp, cuts, sizeof(cuts) / sizeof(cuts[0]));
	f->params = xcalloc(n, sizeof(*f->params));
	for (size_t a = 0; a < n; a++) {
		size_t s = cuts[a], e = a + 1 < n ? cuts[a + 1] - 1 : rp, e2 = e, last;
		struct cxx_param *pr = &f->params[f->nparams];
		if (s >= e)
			continue;
		for (size_t k = s; k < e; k++) {
			if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET) || cxx_is(p, k, CXX_P_LBRACE)) &&
			    p->match[k] != CXX_NOMATCH && p->match[k] < e) {
				k = p->match[k];
			} else if (cxx_is(p, k, CXX_P_LT) && k > s && p->t[k - 1].kind == CXX_TOK_IDENT) {
				size_t c = cxx_angle_close(p, k, e);
				if (c != SIZE_MAX)
					k = c;
			} else if (cxx_is(p, k, CXX_P_ASSIGN)) {
				e2 = k;
				break;
			}
		}
		if (e2 + 1 < e)
			pr->default_arg = cxx_join(p->ol, p->t, e2 + 1, e);
		pr->range.start = p->t[s].start;
		pr->range.end = p->t[e - 1].end;
		last = e2 - 1;
		if (cxx_is(p, last, CXX_P_RBRACKET) && p->match[last] != CXX_NOMATCH && p->match[last] > s)
			last = p->match[last] - 1;
		if (last > s && last < e2 && p->t[last].kind == CXX_TOK_IDENT && !cxx_is(p, last - 1, CXX_P_SCOPE) &&
		    !cxx_is(p, last - 1, CXX_P_DOT)) {
			const char *parts[2];
			pr->name = cxx_join(p->ol, p->t, last, last + 1);
			parts[0] = cxx_join(p->ol, p->t, s, last);
			parts[1] = last + 1 < e2 ? cxx_join(p->ol, p->t, last + 1, e2) : "";
			pr->type = parts[1][0] ? concat(p, parts, 2) : parts[0];
		} else {
			pr->name = NULL;
			pr->type = cxx_join(p->ol, p->t, s, e2);
		}
		f->nparams++;
	}
}

struct decl {
	size_t start;     /* first token ('template' included) */
	size_t spec;      /* first token after the template header */
	size_t tpl_lt, tpl_gt; /* `template <...>` brackets, or SIZE_MAX */
	bool in_class, extern_c;
};

/* Records the function whose parameter list is (lp, rp); `lb` is its body's
 * '{' (SIZE_MAX for = default / = delete, ending at `last`). Returns false
 * when it had to be left out. */
static bool add_function(struct cxx_parser *p, const struct decl *d, size_t lp, size_t lb, size_t last,
			 enum cxx_func_def def)
{
	struct cxx_outline *ol = p->ol;
	struct cxx_func *f;
	size_t base, lt, gt, nstart, rp = p->match[lp], idx;
	const char *parts[6];
	size_t np = 0;
	char *qual;
	size_t qlen = 0, ntypes;

	nstart = name_before(p, lp, d->spec, &base, &lt, &gt);
	if (nstart == SIZE_MAX)
		return false;
	XGROW(ol->funcs, p->func_cap, ol->nfuncs + 1);
	idx = ol->nfuncs++;
	f = &ol->funcs[idx];
	memset(f, 0, sizeof(*f));
	f->def = def;
	f->in_class = d->in_class;
	f->extern_c = d->extern_c;
	if (p->t[base].kind == CXX_TOK_KEYWORD || cxx_is(p, base, CXX_P_TILDE))
		f->name = tight(p, base, lt != SIZE_MAX ? lt : lp);
	else
		f->name = cxx_join(ol, p->t, base, base + 1);
	f->written_name = cxx_join(ol, p->t, nstart, lp);
	f->scope = cxx_outline_strdup(ol, p->scope ? p->scope : "", p->scope_len);
	f->prefix = cxx_join(ol, p->t, d->spec, nstart);
	if (d->tpl_lt != SIZE_MAX)
		f->template_params = cxx_join(ol, p->t, d->tpl_lt + 1, d->tpl_gt);
	if (lt != SIZE_MAX) {
		int extra = closer(p, gt) - 1;
		const char *ta = cxx_join(ol, p->t, lt + 1, gt);
		const char *gts[] = { ta, extra >= 2 ? ">>" : extra == 1 ? ">" : "" };
		f->template_args = extra > 0 ? concat(p, gts, 2) : ta;
	}
	for (size_t k = d->spec; k < nstart; k++) {
		if (cxx_ident_is(p, k, "__global__"))
			f->kernel = true;
		if (cxx_iskw(p, k, CXX_KW_extern) && p->t[k + 1].kind == CXX_TOK_STRING)
			f->extern_c = true;
	}
	/* qualified name: scope, written qualifiers without template arguments,
	 * the name and its explicit arguments */
	qual = cxx_arena_alloc(ol->arena, p->scope_len + (p->t[lp].start - p->t[nstart].start) + 8);
	if (p->scope_len) {
		memcpy(qual, p->scope, p->scope_len);
		qlen = p->scope_len;
	}
	for (size_t k = nstart; k < base; k++) {
		if (cxx_is(p, k, CXX_P_LT)) {
			size_t c = cxx_angle_close(p, k, base);
			if (c != SIZE_MAX) {
				k = c;
				continue;
			}
		}
		if (p->t[k].kind == CXX_TOK_IDENT) {
			if (qlen) {
				memcpy(qual + qlen, "::", 2);
				qlen += 2;
			}
			memcpy(qual + qlen, p->src + p->t[k].start, p->t[k].end - p->t[k].start);
			qlen += p->t[k].end - p->t[k].start;
		}
	}
	qual[qlen] = '\0';
	if (qlen)
		parts[np++] = qual, parts[np++] = "::";
	parts[np++] = f->name;
	if (f->template_args)
		parts[np++] = "<", parts[np++] = f->template_args, parts[np++] = ">";
	f->qualified_name = concat(p, parts, np);

	f->range.start = p->t[d->start].start;
	f->range.end = p->t[lb != SIZE_MAX ? p->match[lb] : last].end;
	f->name_range.start = p->t[nstart].start;
	f->name_range.end = p->t[lp - 1].end;
	f->params_range.start = p->t[lp].start;
	f->params_range.end = p->t[rp].end;
	parse_params(p, &ol->funcs[idx], lp, rp);
	if (lb == SIZE_MAX) {
		f->body_range.start = f->body_range.end = p->t[last].start;
		return true;
	}
	f->body_range.start = p->t[lb].start;
	f->body_range.end = p->t[p->match[lb]].end;

	p->body = &f->body;
	p->func = (int)idx;
	ntypes = ol->ntypes;
	p->stmt_cap = p->call_cap = p->point_cap = 0;
	p->lambda = CXX_NONE;
	p->njumps = 0;
	p->depth = 0;
	p->failed = false;
	cxx_parse_mem_inits(p, rp, lb);
	cxx_parse_stmts(p, lb + 1, p->match[lb], CXX_NONE);
	p->body = NULL;
	p->func = CXX_NONE;
	if (p->failed) {
		ol->ntypes = ntypes; /* the local aliases of a function left out */
		f = &ol->funcs[idx];
		cxx_note(ol, p->diag, f->name_range.start, f->name_range.end, "'%s' is left out of the outline",
			 f->qualified_name);
		ol->unfollowed = xrealloc(ol->unfollowed, (ol->nunfollowed + 1) * sizeof(*ol->unfollowed));
		ol->unfollowed[ol->nunfollowed].qualified_name = f->qualified_name;
		ol->unfollowed[ol->nunfollowed].range = f->range;
		ol->unfollowed[ol->nunfollowed].name_range = f->name_range;
		ol->nunfollowed++;
		free(f->params);
		free(f->body.stmts);
		free(f->body.calls);
		free(f->body.points);
		ol->nfuncs--;
		p->failed = false;
		return false;
	}
	/* the arrays cut to their size: a file of 100,000 one-call functions
	   held eight of each per function, 1.6 KB of outline per 15 bytes */
	f = &ol->funcs[idx];
	if (f->body.nstmts < p->stmt_cap)
		f->body.stmts = xrealloc(f->body.stmts, f->body.nstmts * sizeof(*f->body.stmts));
	if (f->body.ncalls < p->call_cap)
		f->body.calls = xrealloc(f->body.calls, f->body.ncalls * sizeof(*f->body.calls));
	if (f->body.npoints < p->point_cap)
		f->body.points = xrealloc(f->body.points, f->body.npoints * sizeof(*f->body.points));
	return true;
}

/* The name of the class whose key is at ck and body opens at lb. */
static const char *class_name(struct cxx_parser *p, size_t ck, size_t lb)
{
	size_t name = SIZE_MAX, k;

	for (k = ck + 1; k < lb; k++) {
		if (cxx_is(p, k, CXX_P_COLON) || cxx_is(p, k, CXX_P_LT) || cxx_ident_is(p, k, "final"))
			break;
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET)) && p->match[k] != CXX_NOMATCH &&
		    p->match[k] < lb) {
			k = p->match[k]; /* alignas(16), MACRO(x), [[attr]] */
			continue;
		}
		if (p->t[k].kind == CXX_TOK_IDENT && !cxx_is(p, k + 1, CXX_P_LPAREN))
			name = k;
	}
	if (name == SIZE_MAX)
		return "";
	return cxx_join(p->ol, p->t, name, name + 1);
}

/* One declaration from d->spec; returns the index after it. */
static size_t parse_decl(struct cxx_parser *p, struct decl *d, size_t end)
{
	size_t k = d->spec, cand = SIZE_MAX, ck = SIZE_MAX;
	bool assigned = false, base_clause = false;
	enum cxx_func_def def = CXX_DEF_BODY;
	bool has_def = false;

	while (k < end) {
		const struct cxx_token *t = &p->t[k];
		if (t->kind == CXX_TOK_KEYWORD) {
			switch (t->sub) {
			case CXX_KW_namespace:
			case CXX_KW_template:
			case CXX_KW_using:
			case CXX_KW_typedef:
			case CXX_KW_static_assert:
				if (k > d->spec)
					return k; /* what came before was a macro without ';' */
				break;
			case CXX_KW_class:
			case CXX_KW_struct:
			case CXX_KW_union:
			case CXX_KW_enum:
				if (ck == SIZE_MAX && cand == SIZE_MAX && !assigned)
					ck = k;
				break;
			case CXX_KW_extern:
				if (p->t[k + 1].kind == CXX_TOK_STRING)
					d->extern_c = true;
				break;
			case CXX_KW_requires: {
				/* requires requires { ... }, requires (T x) { ... } */
				size_t j = k + 1;
				if (cxx_iskw(p, j, CXX_KW_requires))
					j++;
				if (cxx_is(p, j, CXX_P_LPAREN) && p->match[j] != CXX_NOMATCH && cxx_is(p, p->match[j] + 1, CXX_P_LBRACE))
					j = p->match[j] + 1;
				if (cxx_is(p, j, CXX_P_LBRACE) && p->match[j] != CXX_NOMATCH && p->match[j] < end) {
					k = p->match[j] + 1;
					continue;
				}
				break;
			}
			default:
				break;
			}
			k++;
			continue;
		}
		if (t->kind != CXX_TOK_PUNCT) {
			k++;
			continue;
		}
		switch (t->sub) {
		case CXX_P_SEMI:
			if (cand != SIZE_MAX && has_def)
				add_function(p, d, cand, SIZE_MAX, k, def);
			return k + 1;
		case CXX_P_RBRACE:
			return k > d->spec ? k : k + 1;
		case CXX_P_LPAREN:
		case CXX_P_LBRACKET: {
			size_t m = p->match[k];
			if (m == CXX_NOMATCH || m >= end) {
				cxx_warn(p->ol, p->diag, t->start, t->end, "'%s' expected (to close '%s' at line %u)",
					 t->sub == CXX_P_LPAREN ? ")" : "]", t->sub == CXX_P_LPAREN ? "(" : "[",
					 (unsigned)t->line);
				return end;
			}
			/* after a class key, parentheses are attributes (alignas(64),
			 * MACRO(32)): `struct X f()` is not read as a function */
			if (t->sub == CXX_P_LPAREN && !assigned && !base_clause && ck == SIZE_MAX) {
				size_t base, lt, gt, nstart;
				if (cxx_iskw(p, k - (k > 0), CXX_KW_operator) && k > 0 && m == k + 1) {
					k = m + 1; /* the `()` of `operator()` */
					continue;
				}
				nstart = name_before(p, k, d->spec, &base, &lt, &gt);
				if (nstart != SIZE_MAX &&
				    (cand == SIZE_MAX || nstart > p->match[cand] + 1))
					cand = k;
			}
			k = m + 1;
			continue;
		}
		case CXX_P_ASSIGN:
			if (k > d->spec && cxx_iskw(p, k - 1, CXX_KW_operator)) {
				k++; /* the name operator= */
				continue;
			}
			if (cand != SIZE_MAX) {
				if (cxx_iskw(p, k + 1, CXX_KW_default))
					def = CXX_DEF_DEFAULT, has_def = true;
				else if (cxx_iskw(p, k + 1, CXX_KW_delete))
					def = CXX_DEF_DELETE, has_def = true;
				else
					cand = SIZE_MAX, assigned = true; /* `= 0` or a variable */
			} else {
				assigned = true;
			}
			k++;
			continue;
		case CXX_P_COLON:
			if (ck != SIZE_MAX && cand == SIZE_MAX)
				base_clause = true;
			if (cand != SIZE_MAX && !assigned) {
				/* constructor initializers: name(...) or name{...}, up to the body */
				size_t j = k + 1;
				while (j < end) {
					if (cxx_is(p, j, CXX_P_LPAREN) && p->match[j] != CXX_NOMATCH) {
						j = p->match[j] + 1;
						continue;
					}
					if (cxx_is(p, j, CXX_P_LBRACE)) {
						const struct cxx_token *pv = &p->t[j - 1];
						if ((pv->kind == CXX_TOK_IDENT || closer(p, j - 1)) && p->match[j] != CXX_NOMATCH) {
							j = p->match[j] + 1;
							continue;
						}
						break;
					}
					if (cxx_is(p, j, CXX_P_SEMI) || cxx_is(p, j, CXX_P_RBRACE))
						break;
					j++;
				}
				k = j;
				continue;
			}
			k++;
			continue;
		case CXX_P_LBRACE: {
			size_t m = p->match[k];
			if (m == CXX_NOMATCH || m >= end) {
				if (cand != SIZE_MAX) {
					size_t base, lt, gt, ns = name_before(p, cand, d->spec, &base, &lt, &gt);
					cxx_warn(p->ol, p->diag, p->t[ns].start, p->t[cand - 1].end,
						 "'}' expected (to close '{' at line %u); '%s' is left out",
						 (unsigned)t->line, cxx_join(p->ol, p->t, ns, cand));
				} else {
					cxx_warn(p->ol, p->diag, t->start, t->end, "'}' expected (to close '{' at line %u)",
						 (unsigned)t->line);
				}
				return end;
			}
			if (ck != SIZE_MAX && cand == SIZE_MAX) {
				if (!cxx_iskw(p, ck, CXX_KW_enum)) {
					size_t old;
					cxx_record_class(p, d->start, ck, k, m, d->tpl_lt, d->tpl_gt);
					old = scope_push(p, class_name(p, ck, k));
					cxx_parse_scope(p, k + 1, m, true, false);
					scope_pop(p, old);
				}
				return skip_decl(p, m + 1, end);
			}
			if (cand != SIZE_MAX && !assigned) {
				add_function(p, d, cand, k, m, CXX_DEF_BODY);
				return m + 1;
			}
			if (assigned || (k > d->spec && (p->t[k - 1].kind == CXX_TOK_IDENT || closer(p, k - 1)))) {
				k = m + 1; /* an initializer */
				continue;
			}
			cxx_warn(p->ol, p->diag, t->start, t->end, "cannot tell what this block belongs to; skipped");
			return m + 1;
		}
		default:
			k++;
			continue;
		}
	}
	return end;
}

void cxx_parse_scope(struct cxx_parser *p, size_t i, size_t end, bool in_class, bool extern_c)
{
	while (i < end) {
		const struct cxx_token *t = &p->t[i];
		struct decl d;

		if (cxx_is(p, i, CXX_P_SEMI)) {
			i++;
			continue;
		}
		if (cxx_is(p, i, CXX_P_RBRACE)) {
			if (p->match[i] == CXX_NOMATCH)
				cxx_warn(p->ol, p->diag, t->start, t->end, "unmatched '}'");
			i++;
			continue;
		}
		if (t->kind == CXX_TOK_KEYWORD) {
			switch (t->sub) {
			case CXX_KW_namespace: {
				size_t k = i + 1, m, name_end;
				while (k < end && (p->t[k].kind == CXX_TOK_IDENT || cxx_is(p, k, CXX_P_SCOPE)))
					k++;
				name_end = k;
				/* namespace std _GLIBCXX_VISIBILITY(default) {, namespace [[deprecated]] x { */
				if (name_end > i + 1 && cxx_is(p, k, CXX_P_LPAREN) && p->match[k] != CXX_NOMATCH) {
					name_end = k - 1;
					k = p->match[k] + 1;
				}
				while (cxx_is(p, k, CXX_P_LBRACKET) && p->match[k] != CXX_NOMATCH)
					k = p->match[k] + 1;
				if (!cxx_is(p, k, CXX_P_LBRACE)) {
					i = skip_decl(p, i, end);
					continue;
				}
				m = p->match[k];
				{
					const char *name = name_end > i + 1 ? cxx_join(p->ol, p->t, i + 1, name_end) : "";
					size_t old = scope_push(p, name);
					if (m == CXX_NOMATCH || m >= end) {
						cxx_warn(p->ol, p->diag, t->start, p->t[k].end,
							 "'}' expected (to close '{' at line %u)", (unsigned)p->t[k].line);
						cxx_parse_scope(p, k + 1, end, false, extern_c);
						scope_pop(p, old);
						return;
					}
					cxx_parse_scope(p, k + 1, m, false, extern_c);
					scope_pop(p, old);
				}
				i = m + 1;
				continue;
			}
			case CXX_KW_extern:
				if (p->t[i + 1].kind == CXX_TOK_STRING && cxx_is(p, i + 2, CXX_P_LBRACE)) {
					size_t m = p->match[i + 2];
					if (m == CXX_NOMATCH || m >= end) {
						cxx_parse_scope(p, i + 3, end, in_class, true);
						return;
					}
					cxx_parse_scope(p, i + 3, m, in_class, true);
					i = m + 1;
					continue;
				}
				break;
			case CXX_KW_using:
			case CXX_KW_typedef:
				i = cxx_parse_alias(p, i, end, SIZE_MAX, SIZE_MAX);
				continue;
			case CXX_KW_static_assert:
				i = skip_decl(p, i, end);
				continue;
			case CXX_KW_public:
			case CXX_KW_private:
			case CXX_KW_protected:
				i += cxx_is(p, i + 1, CXX_P_COLON) ? 2 : 1;
				continue;
			default:
				break;
			}
		}
		memset(&d, 0, sizeof(d));
		d.start = d.spec = i;
		d.tpl_lt = d.tpl_gt = SIZE_MAX;
		d.in_class = in_class;
		d.extern_c = extern_c;
		while (cxx_iskw(p, d.spec, CXX_KW_template)) {
			size_t gt;
			if (!cxx_is(p, d.spec + 1, CXX_P_LT) ||
			    (gt = template_close(p, d.spec + 1, end)) == SIZE_MAX) {
				d.spec = SIZE_MAX;
				break;
			}
			d.tpl_lt = d.spec + 1;
			d.tpl_gt = gt;
			d.spec = gt + 1;
		}
		if (d.spec == SIZE_MAX || d.spec >= end) {
			i = skip_decl(p, i + 1, end); /* explicit instantiation or a broken header */
			continue;
		}
		if (cxx_iskw(p, d.spec, CXX_KW_using)) {
			size_t next = cxx_parse_alias(p, d.spec, end, d.tpl_lt, d.tpl_gt);
			i = next > i ? next : i + 1;
			continue;
		}
		{
			size_t next = parse_decl(p, &d, end);
			i = next > i ? next : i + 1;
		}
	}
}
