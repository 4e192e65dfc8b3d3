/* Expressions: call sites (callee, object, template arguments, arguments),
 * existing MoeTracing points, lambdas (whose bodies are parsed as nested
 * statements), and the heuristics that read `<` as a template bracket. */
#include "cxx_parser.h"

#include <string.h>

#include "string_literal.h"
#include "xalloc.h"

bool cxx_ident_is(const struct cxx_parser *p, size_t i, const char *lit)
{
	const struct cxx_token *t = &p->t[i];
	return t->kind == CXX_TOK_IDENT && cxx_span_is(p->src + t->start, t->end - t->start, lit);
}

bool cxx_is_macro_name(const struct cxx_parser *p, size_t i)
{
	const struct cxx_token *t = &p->t[i];
	bool upper = false;

	if (t->kind != CXX_TOK_IDENT || t->end - t->start < 2)
		return false;
	for (uint32_t k = t->start; k < t->end; k++) {
		char c = p->src[k];
		if (c >= 'A' && c <= 'Z')
			upper = true;
		else if (!(c == '_' || (c >= '0' && c <= '9')))
			return false;
	}
	return upper;
}

static int closer_weight(const struct cxx_token *t)
{
	if (t->kind != CXX_TOK_PUNCT)
		return 0;
	return t->sub == CXX_P_GT ? 1 : t->sub == CXX_P_SHR ? 2 : t->sub == CXX_P_GGG ? 3 : 0;
}

/* Tokens that never appear inside template arguments at bracket depth 0. */
static bool angle_breaker(const struct cxx_token *t)
{
	if (t->kind == CXX_TOK_KEYWORD)
		return t->sub == CXX_KW_return || t->sub == CXX_KW_if || t->sub == CXX_KW_for ||
		       t->sub == CXX_KW_while;
	if (t->kind != CXX_TOK_PUNCT)
		return false;
	switch (t->sub) {
	case CXX_P_SEMI: case CXX_P_LBRACE: case CXX_P_RBRACE: case CXX_P_RPAREN: case CXX_P_RBRACKET:
	case CXX_P_AND: case CXX_P_OR: case CXX_P_ASSIGN: case CXX_P_PLUS_ASSIGN: case CXX_P_MINUS_ASSIGN:
	case CXX_P_STAR_ASSIGN: case CXX_P_SLASH_ASSIGN: case CXX_P_QUESTION: case CXX_P_NOT:
	case CXX_P_INC: case CXX_P_DEC: case CXX_P_LLL: case CXX_P_SHL: case CXX_P_LE: case CXX_P_GE:
	case CXX_P_EQ: case CXX_P_NE:
		return true;
	default:
		return false;
	}
}

size_t cxx_angle_close(const struct cxx_parser *p, size_t lt, size_t end)
{
	int level = 1;
	size_t limit = lt + 512 < end ? lt + 512 : end;

	for (size_t k = lt + 1; k < limit; k++) {
		const struct cxx_token *t = &p->t[k];
		int w;
		if (t->kind == CXX_TOK_PUNCT && (t->sub == CXX_P_LPAREN || t->sub == CXX_P_LBRACKET)) {
			if (p->match[k] == CXX_NOMATCH || p->match[k] >= limit)
				return SIZE_MAX;
			k = p->match[k];
			continue;
		}
		if ((w = closer_weight(t)) != 0) {
			level -= w;
			if (level <= 0)
				return k;
			continue;
		}
		if (cxx_tok_punct(t, CXX_P_LT)) {
			if (p->t[k - 1].kind == CXX_TOK_IDENT || p->t[k - 1].kind == CXX_TOK_KEYWORD)
				level++;
			else
				return SIZE_MAX;
			continue;
		}
		if (angle_breaker(t))
			return SIZE_MAX;
	}
	return SIZE_MAX;
}

size_t cxx_angle_open_back(const struct cxx_parser *p, size_t gt, size_t begin)
{
	int level = closer_weight(&p->t[gt]);
	size_t k = gt;

	if (level == 0)
		return SIZE_MAX;
	while (k > begin) {
		const struct cxx_token *t = &p->t[--k];
		int w;
		if (t->kind == CXX_TOK_PUNCT && (t->sub == CXX_P_RPAREN || t->sub == CXX_P_RBRACKET)) {
			if (p->match[k] == CXX_NOMATCH || p->match[k] < begin)
				return SIZE_MAX;
			k = p->match[k];
			continue;
		}
		if ((w = closer_weight(t)) != 0) {
			level += w;
			continue;
		}
		if (cxx_tok_punct(t, CXX_P_LT)) {
			if (--level == 0)
				return k > begin && (p->t[k - 1].kind == CXX_TOK_IDENT ||
						     p->t[k - 1].kind == CXX_TOK_KEYWORD ||
						     cxx_tok_punct(&p->t[k - 1], CXX_P_RPAREN))
					       ? k
					       : SIZE_MAX;
			continue;
		}
		if (angle_breaker(t) || cxx_tok_punct(t, CXX_P_LPAREN) || cxx_tok_punct(t, CXX_P_LBRACKET))
			return SIZE_MAX;
	}
	return SIZE_MAX;
}

static bool starts_statement(const struct cxx_token *t)
{
	if (t->kind != CXX_TOK_KEYWORD)
		return false;
	switch (t->sub) {
	case CXX_KW_if: case CXX_KW_for: case CXX_KW_while: case CXX_KW_do: case CXX_KW_switch:
	case CXX_KW_return: case CXX_KW_break: case CXX_KW_continue: case CXX_KW_case: case CXX_KW_goto:
	case CXX_KW_else: case CXX_KW_try:
		return true;
	default:
		return false;
	}
}

size_t cxx_skip_to_semi(const struct cxx_parser *p, size_t i, size_t end)
{
	size_t k = i;

	while (k < end) {
		const struct cxx_token *t = &p->t[k];
		if (t->kind == CXX_TOK_PUNCT) {
			if (t->sub == CXX_P_SEMI)
				return k + 1;
			if (t->sub == CXX_P_LPAREN || t->sub == CXX_P_LBRACKET || t->sub == CXX_P_LBRACE) {
				if (p->match[k] == CXX_NOMATCH || p->match[k] >= end)
					return end;
				k = p->match[k] + 1;
				continue;
			}
			if (t->sub == CXX_P_RBRACE || t->sub == CXX_P_RPAREN || t->sub == CXX_P_RBRACKET)
				return k > i ? k : k + 1;
		} else if (k > i && starts_statement(t)) {
			return k;
		}
		k++;
	}
	return end;
}

size_t cxx_split_args(const struct cxx_parser *p, size_t a, size_t b, size_t *cuts, size_t maxcuts)
{
	size_t n = 0;

	cuts[n++] = a;
	for (size_t k = a; k < b; k++) {
		const struct cxx_token *t = &p->t[k];
		if (t->kind != CXX_TOK_PUNCT)
			continue;
		if ((t->sub == CXX_P_LPAREN || t->sub == CXX_P_LBRACKET || t->sub == CXX_P_LBRACE) &&
		    p->match[k] != CXX_NOMATCH && p->match[k] < b) {
			k = p->match[k];
		} else if (t->sub == CXX_P_LT && k > a && p->t[k - 1].kind == CXX_TOK_IDENT) {
			size_t c = cxx_angle_close(p, k, b);
			if (c != SIZE_MAX)
				k = c;
		} else if (t->sub == CXX_P_COMMA && n < maxcuts) {
			cuts[n++] = k + 1;
		}
	}
	return n;
}

static bool is_type_keyword(const struct cxx_token *t)
{
	if (t->kind != CXX_TOK_KEYWORD)
		return false;
	switch (t->sub) {
	case CXX_KW_int: case CXX_KW_float: case CXX_KW_double: case CXX_KW_char: case CXX_KW_bool:
	case CXX_KW_auto: case CXX_KW_void: case CXX_KW_long: case CXX_KW_short: case CXX_KW_unsigned:
	case CXX_KW_signed:
		return true;
	default:
		return false;
	}
}

/* Unescapes a string literal token into the arena. */
static const char *string_value(struct cxx_parser *p, const struct cxx_token *t)
{
	const char *s = p->src + t->start, *e = p->src + t->end;
	char *out;

	while (s < e && *s != '"')
		s++;
	if (s >= e)
		return NULL;
	if (t->flags & CXX_TF_RAW) {
		const char *o = memchr(s, '(', (size_t)(e - s));
		const char *c = e - 1;
		while (c > s && *c != ')')
			c--;
		if (!o || c <= o)
			return NULL;
		return cxx_outline_strdup(p->ol, o + 1, (size_t)(c - o - 1));
	}
	s++;
	if (e > s && e[-1] == '"' && !(t->flags & CXX_TF_UNTERM))
		e--;
	out = cxx_arena_alloc(p->ol->arena, (size_t)(e - s) + 1);
	string_literal_unescape(s, e, out);
	return out;
}

static void add_point(struct cxx_parser *p, size_t call_idx, size_t lp, size_t rp)
{
	struct cxx_body *b = p->body;
	struct cxx_call *cl = &b->calls[call_idx];
	struct cxx_point *pt;
	size_t cuts[2], nargs = cl->nargs, a0, a1;

	if (nargs)
		cxx_split_args(p, lp + 1, rp, cuts, 2);
	a0 = nargs ? cuts[0] : rp;
	a1 = nargs > 1 ? cuts[1] - 1 : rp;
	XGROW(b->points, p->point_cap, b->npoints + 1);
	pt = &b->points[b->npoints++];
	memset(pt, 0, sizeof(*pt));
	pt->range = cl->range;
	pt->stmt = cl->stmt;
	pt->call = (int)call_idx;
	pt->data = nargs ? cl->args[0] : "";
	pt->extra = nargs > 1 ? cl->args + 1 : NULL;
	pt->nextra = nargs > 1 ? nargs - 1 : 0;
	pt->template_args = cl->template_args;
	/* TRACE_POINT ( "label" , "B" ) */
	if (nargs && a1 - a0 >= 4 && cxx_ident_is(p, a0, "TRACE_POINT") && cxx_is(p, a0 + 1, CXX_P_LPAREN) &&
	    p->t[a0 + 2].kind == CXX_TOK_STRING) {
		pt->label = string_value(p, &p->t[a0 + 2]);
		if (cxx_is(p, a0 + 3, CXX_P_COMMA) && p->t[a0 + 4].kind == CXX_TOK_STRING)
			pt->event = string_value(p, &p->t[a0 + 4]);
	}
}

const char *cxx_template_args_text(struct cxx_parser *p, size_t lt, size_t gt)
{
	int extra = closer_weight(&p->t[gt]) - 1;
	const char *ta = cxx_join(p->ol, p->t, lt + 1, gt);

	if (extra > 0 && !cxx_is(p, lt, CXX_P_LLL)) {
		size_t len = strlen(ta);
		char *s = cxx_arena_alloc(p->ol->arena, len + (size_t)extra + 1);
		memcpy(s, ta, len);
		memset(s + len, '>', (size_t)extra);
		s[len + (size_t)extra] = '\0';
		ta = s;
	}
	return ta;
}

size_t cxx_add_call(struct cxx_parser *p, size_t first, size_t open, size_t close, int stmt)
{
	const struct cxx_token *t = p->t;
	struct cxx_body *b = p->body;
	struct cxx_call *cl;
	size_t cuts[64];

	XGROW(b->calls, p->call_cap, b->ncalls + 1);
	cl = &b->calls[b->ncalls];
	memset(cl, 0, sizeof(*cl));
	cl->stmt = stmt;
	cl->range.start = t[first].start;
	if (open == SIZE_MAX) {
		cl->range.end = t[close].end;
		cl->args_range.start = cl->args_range.end = cl->range.end;
		return b->ncalls++;
	}
	cl->range.end = close < p->n ? t[close].end : t[close - 1].end;
	cl->args_range.start = t[open].end;
	cl->args_range.end = close < p->n && p->match[open] == close ? t[close].start : cl->range.end;
	if (close > open + 1) {
		size_t nargs = cxx_split_args(p, open + 1, close, cuts, sizeof(cuts) / sizeof(cuts[0]));
		cl->args = cxx_arena_alloc(p->ol->arena, nargs * sizeof(*cl->args));
		cl->arg_ranges = cxx_arena_alloc(p->ol->arena, nargs * sizeof(*cl->arg_ranges));
		for (size_t a = 0; a < nargs; a++) {
			size_t e = a + 1 < nargs ? cuts[a + 1] - 1 : close;
			size_t s = cuts[a];
			cl->args[a] = cxx_join(p->ol, t, s, e);
			cl->arg_ranges[a].start = t[s].start;
			cl->arg_ranges[a].end = s < e ? t[e - 1].end : t[s].start;
		}
		cl->nargs = nargs;
	}
	return b->ncalls++;
}

/* Records the call whose argument list opens at `lp`, if the tokens before
 * it name a callee; `lo` bounds the walk back. */
static void try_call(struct cxx_parser *p, size_t lo, size_t lp, size_t end, int stmt)
{
	size_t j, name, name_end, cs, lt = SIZE_MAX, gt = SIZE_MAX, sep = SIZE_MAX, rp, idx;
	const struct cxx_token *t = p->t;
	struct cxx_call *cl;

	if (lp == 0 || lp - 1 < lo)
		return;
	j = lp - 1;
	if (t[j].kind == CXX_TOK_PUNCT && t[j].sub == CXX_P_GGG) {
		/* a kernel launch name<<<blocks, l2ctrl, stream>>>(args), or three
		 * template lists closing at once */
		size_t k = j;
		while (k > lo && !cxx_is(p, k, CXX_P_LLL) && !cxx_is(p, k, CXX_P_SEMI))
			k--;
		if (cxx_is(p, k, CXX_P_LLL) && k > lo) {
			lt = k;
			gt = j;
			j = k - 1;
		}
	}
	if (lt == SIZE_MAX && closer_weight(&t[j])) {
		size_t o = cxx_angle_open_back(p, j, lo);
		if (o == SIZE_MAX || o == 0)
			return;
		lt = o;
		gt = j;
		j = o - 1;
	}
	name_end = j + 1;
	if (j >= lo + 2 && cxx_is(p, j, CXX_P_RPAREN) && cxx_is(p, j - 1, CXX_P_LPAREN) &&
	    cxx_iskw(p, j - 2, CXX_KW_operator)) {
		/* obj.operator()<AscendC::AIC>(args): an explicit call of operator() */
		j -= 2;
	} else if (t[j].kind != CXX_TOK_IDENT) {
		return;
	}
	name = cs = j;
	while (cs > lo) {
		size_t s = cs - 1, c;
		if (cxx_iskw(p, s, CXX_KW_template) && s > lo)
			s--; /* obj.template Get<T>(), typename X::template Y<T>() */
		if (!(cxx_is(p, s, CXX_P_SCOPE) || cxx_is(p, s, CXX_P_DOT) || cxx_is(p, s, CXX_P_ARROW)))
			break;
		if (s == lo) {
			if (cxx_is(p, s, CXX_P_SCOPE))
				cs = s;
			break;
		}
		c = s - 1;
		if (t[c].kind == CXX_TOK_IDENT || cxx_iskw(p, c, CXX_KW_this)) {
			if (!cxx_is(p, s, CXX_P_SCOPE) && sep == SIZE_MAX)
				sep = s;
			cs = c;
			continue;
		}
		if (closer_weight(&t[c])) {
			size_t o = cxx_angle_open_back(p, c, lo);
			if (o == SIZE_MAX || o == 0 || o - 1 < lo || t[o - 1].kind != CXX_TOK_IDENT)
				break;
			if (!cxx_is(p, s, CXX_P_SCOPE) && sep == SIZE_MAX)
				sep = s;
			cs = o - 1;
			continue;
		}
		if ((cxx_is(p, c, CXX_P_RPAREN) || cxx_is(p, c, CXX_P_RBRACKET) || cxx_is(p, c, CXX_P_RBRACE)) &&
		    p->match[c] != CXX_NOMATCH &&
		    p->match[c] >= lo) {
			size_t o = p->match[c];
			if (!cxx_is(p, s, CXX_P_SCOPE) && sep == SIZE_MAX)
				sep = s;
			cs = o;
			if (o > lo && t[o - 1].kind == CXX_TOK_IDENT)
				cs = o - 1;
			continue;
		}
		if (cxx_is(p, s, CXX_P_SCOPE))
			cs = s;
		break;
	}
	/* `Type name(args)` and `LocalTensor<T> x(args)` declare, they do not call */
	if (cs > 0 && sep == SIZE_MAX && cs == name) {
		const struct cxx_token *pv = &t[cs - 1];
		if (pv->kind == CXX_TOK_IDENT || is_type_keyword(pv))
			return;
		if (closer_weight(pv)) {
			size_t o = cxx_angle_open_back(p, cs - 1, lo > 0 ? lo - 1 : 0);
			if (o != SIZE_MAX && o > 0 && t[o - 1].kind == CXX_TOK_IDENT)
				return;
		}
	}

	rp = p->match[lp];
	if (rp == CXX_NOMATCH || rp > end)
		rp = end > lp + 1 ? end : lp + 1;
	idx = cxx_add_call(p, cs, lp, rp, stmt);
	cl = &p->body->calls[idx];
	cl->callee = cxx_join(p->ol, t, cs, lp);
	cl->name = name_end == name + 1 ? cxx_join(p->ol, t, name, name + 1) : "operator()";
	cl->object = sep != SIZE_MAX ? cxx_join(p->ol, t, cs, sep) : NULL;
	if (lt != SIZE_MAX)
		cl->template_args = cxx_template_args_text(p, lt, gt);
	if (cxx_ident_is(p, name, "MoeTracing"))
		add_point(p, idx, lp, rp);
}

/* A '[' at k starts a lambda when it cannot be a subscript or an attribute. */
static bool lambda_start(const struct cxx_parser *p, size_t k)
{
	const struct cxx_token *pv;

	if (cxx_is(p, k + 1, CXX_P_LBRACKET))
		return false;
	if (k == 0)
		return true;
	pv = &p->t[k - 1];
	if (pv->kind == CXX_TOK_IDENT || pv->kind == CXX_TOK_NUMBER || pv->kind == CXX_TOK_STRING ||
	    pv->kind == CXX_TOK_CHAR)
		return false;
	if (pv->kind == CXX_TOK_KEYWORD)
		return pv->sub == CXX_KW_return || pv->sub == CXX_KW_else || pv->sub == CXX_KW_case;
	if (pv->kind == CXX_TOK_PUNCT)
		return !(pv->sub == CXX_P_RPAREN || pv->sub == CXX_P_RBRACKET || pv->sub == CXX_P_GT ||
			 pv->sub == CXX_P_SHR || pv->sub == CXX_P_RBRACE);
	return true;
}

/* Parses the lambda whose introducer is at k; returns the index after its
 * body, or k + 1 when it is not a lambda after all. */
static size_t parse_lambda(struct cxx_parser *p, size_t k, size_t end, int stmt)
{
	size_t rb = p->match[k], j, lp = SIZE_MAX, body;
	int idx, saved_lambda;
	int *saved_jumps;
	size_t saved_n, saved_cap;

	if (rb == CXX_NOMATCH || rb >= end)
		return k + 1;
	j = rb + 1;
	if (cxx_is(p, j, CXX_P_LT)) {
		size_t c = cxx_angle_close(p, j, end);
		if (c == SIZE_MAX)
			return k + 1;
		j = c + 1;
	}
	if (cxx_is(p, j, CXX_P_LPAREN)) {
		if (p->match[j] == CXX_NOMATCH || p->match[j] >= end)
			return k + 1;
		lp = j;
		j = p->match[j] + 1;
	}
	while (j < end && !cxx_is(p, j, CXX_P_LBRACE)) {
		const struct cxx_token *t = &p->t[j];
		if (t->kind == CXX_TOK_PUNCT && (t->sub == CXX_P_SEMI || t->sub == CXX_P_COMMA ||
						 t->sub == CXX_P_RPAREN || t->sub == CXX_P_RBRACE))
			return k + 1;
		if ((cxx_is(p, j, CXX_P_LPAREN) || cxx_is(p, j, CXX_P_LBRACKET)) && p->match[j] != CXX_NOMATCH)
			j = p->match[j];
		j++;
	}
	if (j >= end || p->match[j] == CXX_NOMATCH || p->match[j] >= end)
		return k + 1;
	body = j;
	if (lp != SIZE_MAX)
		cxx_parse_expr(p, lp + 1, p->match[lp], stmt);
	idx = cxx_add_stmt(p, CXX_STMT_LAMBDA, stmt, k, p->match[body]);
	if (lp != SIZE_MAX && p->match[lp] > lp + 1) {
		p->body->stmts[idx].head.start = p->t[lp + 1].start;
		p->body->stmts[idx].head.end = p->t[p->match[lp] - 1].end;
		p->body->stmts[idx].text = cxx_join(p->ol, p->t, lp + 1, p->match[lp]);
	} else {
		p->body->stmts[idx].head.start = p->body->stmts[idx].head.end = p->t[rb].end;
		p->body->stmts[idx].text = "";
	}
	p->body->stmts[idx].body.start = p->t[body].start;
	p->body->stmts[idx].body.end = p->t[p->match[body]].end;
	p->body->stmts[idx].braced = true;
	saved_lambda = p->lambda;
	saved_jumps = p->jumps;
	saved_n = p->njumps;
	saved_cap = p->jumps_cap;
	p->lambda = idx;
	p->jumps = NULL;
	p->njumps = p->jumps_cap = 0;
	cxx_parse_stmts(p, body + 1, p->match[body], idx);
	free(p->jumps);
	p->jumps = saved_jumps;
	p->njumps = saved_n;
	p->jumps_cap = saved_cap;
	p->lambda = saved_lambda;
	return p->match[body] + 1;
}

void cxx_parse_expr(struct cxx_parser *p, size_t i, size_t end, int stmt)
{
	size_t k = i;

	if (!p->body)
		return;
	while (k < end && !p->failed) {
		const struct cxx_token *t = &p->t[k];
		if (t->kind == CXX_TOK_PUNCT) {
			/* (a lambda in a mem-initializer has no statement to nest in:
			 * its body is not read) */
			if (t->sub == CXX_P_LBRACKET && lambda_start(p, k) && (stmt != CXX_NONE || p->func == CXX_NONE)) {
				k = parse_lambda(p, k, end, stmt);
				continue;
			}
			if (t->sub == CXX_P_LPAREN)
				try_call(p, i, k, end, stmt);
			else if (t->sub == CXX_P_LBRACE)
				cxx_brace_temporary(p, i, k, stmt);
		} else if (t->kind == CXX_TOK_KEYWORD && t->sub == CXX_KW_new) {
			k = cxx_parse_new(p, k, end, stmt);
			continue;
		} else if (t->kind == CXX_TOK_KEYWORD &&
			   (t->sub == CXX_KW_asm || t->sub == CXX_KW_gnu_asm || t->sub == CXX_KW_gnu_asm2)) {
			/* the operands of inline asm are not calls */
			size_t g = k + 1;
			while (g < end && p->t[g].kind == CXX_TOK_KEYWORD)
				g++;
			if (cxx_is(p, g, CXX_P_LPAREN) && p->match[g] != CXX_NOMATCH && p->match[g] < end) {
				k = p->match[g] + 1;
				continue;
			}
		}
		k++;
	}
}
