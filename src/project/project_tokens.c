/* Token views, constants and constant expressions for the host-side readers. */
#include "project_tokens.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "token_search.h"
#include "xalloc.h"

void tok_view_init(struct tok_view *tv, const char *data, size_t len)
{
	size_t *stack;
	size_t depth = 0, k = 0;
	bool in_pp = false;

	memset(tv, 0, sizeof(*tv));
	tv->data = data;
	tv->len = len;
	cxx_tokenize(data, len, &tv->all);
	tv->v = xmalloc((tv->all.n + 1) * sizeof(*tv->v));
	for (size_t i = 0; i < tv->all.n; i++) {
		const struct cxx_token *t = &tv->all.v[i];
		if (t->kind == CXX_TOK_PP_BEGIN)
			in_pp = true;
		else if (t->kind == CXX_TOK_PP_END)
			in_pp = false;
		else if (!in_pp)
			tv->v[k++] = *t;
	}
	tv->n = k;
	tv->v[k] = tv->all.v[tv->all.n];
	tv->match = xmalloc((k + 1) * sizeof(*tv->match));
	stack = xmalloc((k + 1) * sizeof(*stack));
	for (size_t i = 0; i <= k; i++)
		tv->match[i] = TV_NONE;
	for (size_t i = 0; i < k; i++) {
		const struct cxx_token *t = &tv->v[i];
		if (t->kind != CXX_TOK_PUNCT)
			continue;
		if (t->sub == CXX_P_LPAREN || t->sub == CXX_P_LBRACKET || t->sub == CXX_P_LBRACE) {
			stack[depth++] = i;
		} else if (t->sub == CXX_P_RPAREN || t->sub == CXX_P_RBRACKET || t->sub == CXX_P_RBRACE) {
			enum cxx_punct open = t->sub == CXX_P_RPAREN     ? CXX_P_LPAREN
					      : t->sub == CXX_P_RBRACKET ? CXX_P_LBRACKET
									 : CXX_P_LBRACE;
			/* unwind past unclosed openers of another kind (a stray '(' in bad code) */
			size_t d = depth;
			while (d > 0 && tv->v[stack[d - 1]].sub != open)
				d--;
			if (d == 0)
				continue;
			depth = d - 1;
			tv->match[i] = stack[depth];
			tv->match[stack[depth]] = i;
		}
	}
	free(stack);
}

void tok_view_release(struct tok_view *tv)
{
	cxx_tokens_release(&tv->all);
	free(tv->v);
	free(tv->match);
	memset(tv, 0, sizeof(*tv));
}

size_t tv_at(const struct tok_view *tv, uint32_t off)
{
	return token_search(tv->v, tv->n, sizeof(*tv->v), off);
}

bool tv_is(const struct tok_view *tv, size_t i, const char *lit)
{
	if (i >= tv->n)
		return false;
	return cxx_span_is(tv->data + tv->v[i].start, tv->v[i].end - tv->v[i].start, lit);
}

bool tv_punct(const struct tok_view *tv, size_t i, enum cxx_punct p)
{
	return i < tv->n && cxx_tok_punct(&tv->v[i], p);
}

bool tv_ident(const struct tok_view *tv, size_t i)
{
	return i < tv->n && tv->v[i].kind == CXX_TOK_IDENT;
}

char *tv_tok_text(const struct tok_view *tv, size_t i, bool unquote)
{
	const struct cxx_token *t = &tv->v[i];
	const char *s = tv->data + t->start;
	size_t n = t->end - t->start;

	if (unquote && t->kind == CXX_TOK_STRING) {
		const char *q = memchr(s, '"', n);
		if (q && n >= 2 && s[n - 1] == '"' && q < s + n - 1)
			return xstrndup(q + 1, (size_t)(s + n - 1 - q - 1));
	}
	return xstrndup(s, n);
}

char *tv_text(const struct tok_view *tv, size_t i, size_t j)
{
	size_t cap = 16, len = 0;
	char *s = xmalloc(cap);

	for (size_t k = i; k < j && k < tv->n; k++) {
		const struct cxx_token *t = &tv->v[k];
		size_t n = t->end - t->start;
		bool space = k > i && cxx_tok_wordlike(t) && cxx_tok_wordlike(&tv->v[k - 1]);
		/* keep binary operators readable: "a * b" */
		if (k > i && t->kind == CXX_TOK_PUNCT &&
		    (t->sub == CXX_P_STAR || t->sub == CXX_P_PLUS || t->sub == CXX_P_MINUS || t->sub == CXX_P_SLASH ||
		     t->sub == CXX_P_EQ || t->sub == CXX_P_NE || t->sub == CXX_P_OR || t->sub == CXX_P_AND) &&
		    (t->flags & CXX_TF_SPACE))
			space = true;
		if (k > i && tv->v[k - 1].kind == CXX_TOK_PUNCT && (tv->v[k - 1].flags & CXX_TF_SPACE) &&
		    (tv->v[k - 1].sub == CXX_P_STAR || tv->v[k - 1].sub == CXX_P_PLUS ||
		     tv->v[k - 1].sub == CXX_P_MINUS || tv->v[k - 1].sub == CXX_P_SLASH ||
		     tv->v[k - 1].sub == CXX_P_EQ || tv->v[k - 1].sub == CXX_P_NE || tv->v[k - 1].sub == CXX_P_OR ||
		     tv->v[k - 1].sub == CXX_P_AND) &&
		    (t->flags & CXX_TF_SPACE))
			space = true;
		if (k > i && t->kind == CXX_TOK_PUNCT && t->sub == CXX_P_COMMA)
			space = false;
		if (k > i && tv->v[k - 1].kind == CXX_TOK_PUNCT && tv->v[k - 1].sub == CXX_P_COMMA)
			space = true;
		XGROW(s, cap, len + n + 2);
		if (space)
			s[len++] = ' ';
		memcpy(s + len, tv->data + t->start, n);
		len += n;
	}
	s[len] = '\0';
	return s;
}

size_t tv_split_args(const struct tok_view *tv, size_t open, size_t **starts, size_t **ends)
{
	size_t close = tv->match[open], n = 0, cap = 0, from = open + 1;

	*starts = NULL;
	*ends = NULL;
	if (close == TV_NONE || close == open + 1)
		return 0;
	for (size_t k = open + 1; k <= close; k++) {
		const struct cxx_token *t = &tv->v[k];
		if (k < close && t->kind == CXX_TOK_PUNCT &&
		    (t->sub == CXX_P_LPAREN || t->sub == CXX_P_LBRACKET || t->sub == CXX_P_LBRACE) &&
		    tv->match[k] != TV_NONE && tv->match[k] < close) {
			k = tv->match[k];
			continue;
		}
		if (k == close || cxx_tok_punct(t, CXX_P_COMMA)) {
			XGROW(*starts, cap, n + 1);
			*ends = xrealloc(*ends, cap * sizeof(**ends));
			(*starts)[n] = from;
			(*ends)[n] = k;
			n++;
			from = k + 1;
		}
	}
	return n;
}

/* ---- constants ---- */

static void consts_add(struct tv_consts *c, const char *name, size_t len, int64_t v, uint32_t at)
{
	for (size_t i = 0; i < c->n; i++)
		if (strlen(c->v[i].name) == len && memcmp(c->v[i].name, name, len) == 0) {
			c->v[i].value = v;
			c->v[i].at = at;
			return;
		}
	XGROW(c->v, c->cap, c->n + 1);
	c->v[c->n].name = xstrndup(name, len);
	c->v[c->n].value = v;
	c->v[c->n].at = at;
	c->n++;
}

const struct tv_const *tv_consts_find(const struct tv_consts *c, const char *name, size_t len)
{
	for (size_t i = c->n; i-- > 0;)
		if (strlen(c->v[i].name) == len && memcmp(c->v[i].name, name, len) == 0)
			return &c->v[i];
	return NULL;
}

void tv_consts_release(struct tv_consts *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].name);
	free(c->v);
	memset(c, 0, sizeof(*c));
}

/* The end of the statement starting at i: its ';' at depth 0, or n. */
static size_t stmt_end(const struct tok_view *tv, size_t i)
{
	for (size_t k = i; k < tv->n; k++) {
		if (tv->match[k] != TV_NONE && tv->match[k] > k && !tv_punct(tv, k, CXX_P_LBRACE)) {
			k = tv->match[k];
			continue;
		}
		if (tv_punct(tv, k, CXX_P_SEMI) || tv_punct(tv, k, CXX_P_LBRACE) || tv_punct(tv, k, CXX_P_RBRACE))
			return k;
	}
	return tv->n;
}

static void collect_enum(const struct tok_view *tv, size_t open, struct tv_consts *out)
{
	size_t close = tv->match[open], *s, *e, n;
	int64_t next = 0;

	if (close == TV_NONE)
		return;
	n = tv_split_args(tv, open, &s, &e);
	for (size_t a = 0; a < n; a++) {
		int64_t v = next;
		if (s[a] >= e[a] || !tv_ident(tv, s[a]))
			continue;
		if (s[a] + 1 < e[a] && tv_punct(tv, s[a] + 1, CXX_P_ASSIGN) && tv_eval(tv, s[a] + 2, e[a], out, &v) != 0)
			continue;
		consts_add(out, tv->data + tv->v[s[a]].start, tv->v[s[a]].end - tv->v[s[a]].start, v,
			   tv->v[s[a]].start);
		next = v + 1;
	}
	free(s);
	free(e);
}

/* #define NAME value: directives are in tv->all only. */
static void collect_defines(const struct tok_view *tv, struct tv_consts *out)
{
	const struct cxx_tokens *a = &tv->all;

	for (size_t i = 0; i + 2 < a->n; i++) {
		struct tok_view one;
		size_t j, nm;
		int64_t v;
		if (a->v[i].kind != CXX_TOK_PP_BEGIN || !cxx_span_is(tv->data + a->v[i + 1].start,
								      a->v[i + 1].end - a->v[i + 1].start, "define"))
			continue;
		nm = i + 2;
		if (a->v[nm].kind != CXX_TOK_IDENT)
			continue;
		/* function-like: '(' right after the name */
		if (cxx_tok_punct(&a->v[nm + 1], CXX_P_LPAREN) && !(a->v[nm + 1].flags & CXX_TF_SPACE))
			continue;
		for (j = nm + 1; j < a->n && a->v[j].kind != CXX_TOK_PP_END; j++)
			;
		if (j == nm + 1 || j >= a->n)
			continue;
		/* evaluate the replacement list through a view of just its bytes */
		tok_view_init(&one, tv->data + a->v[nm + 1].start, a->v[j - 1].end - a->v[nm + 1].start);
		if (tv_eval(&one, 0, one.n, out, &v) == 0)
			consts_add(out, tv->data + a->v[nm].start, a->v[nm].end - a->v[nm].start, v, a->v[nm].start);
		tok_view_release(&one);
	}
}

void tv_consts_collect(const struct tok_view *tv, struct tv_consts *out)
{
	memset(out, 0, sizeof(*out));
	collect_defines(tv, out);
	for (size_t i = 0; i < tv->n; i++) {
		const struct cxx_token *t = &tv->v[i];
		if (cxx_tok_kw(t, CXX_KW_enum)) {
			size_t k = i + 1;
			while (k < tv->n && !tv_punct(tv, k, CXX_P_LBRACE) && !tv_punct(tv, k, CXX_P_SEMI))
				k++;
			if (tv_punct(tv, k, CXX_P_LBRACE))
				collect_enum(tv, k, out);
			continue;
		}
		if (cxx_tok_kw(t, CXX_KW_constexpr) || cxx_tok_kw(t, CXX_KW_const)) {
			size_t end = stmt_end(tv, i), eq = TV_NONE;
			int64_t v;
			if (i > 0 && (tv_punct(tv, i - 1, CXX_P_LPAREN) || tv_punct(tv, i - 1, CXX_P_COMMA)))
				continue; /* a parameter */
			for (size_t k = i + 1; k < end; k++)
				if (tv_punct(tv, k, CXX_P_ASSIGN)) {
					eq = k;
					break;
				} else if (tv_punct(tv, k, CXX_P_LPAREN) || tv_punct(tv, k, CXX_P_LBRACKET)) {
					break;
				}
			if (eq == TV_NONE || eq == i + 1 || !tv_ident(tv, eq - 1) || !tv_punct(tv, end, CXX_P_SEMI))
				continue;
			if (tv_eval(tv, eq + 1, end, out, &v) == 0)
				consts_add(out, tv->data + tv->v[eq - 1].start, tv->v[eq - 1].end - tv->v[eq - 1].start, v,
					   tv->v[eq - 1].start);
			i = eq;
		}
	}
}

/* ---- constant expressions: precedence climbing over tokens ---- */

struct ev {
	const struct tok_view *tv;
	size_t i, j;
	const struct tv_consts *c;
	bool bad;
};

static int64_t ev_expr(struct ev *e, int minprec);

static bool parse_number(const char *s, size_t n, int64_t *out)
{
	char buf[64];
	char *end;
	size_t k = 0;
	unsigned long long v;

	if (n >= sizeof(buf))
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '\'')
			buf[k++] = s[i];
	buf[k] = '\0';
	v = strtoull(buf, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (*end != '\0')
		return false;
	*out = (int64_t)v;
	return true;
}

static int64_t ev_primary(struct ev *e)
{
	const struct tok_view *tv = e->tv;
	const struct cxx_token *t;

	if (e->i >= e->j) {
		e->bad = true;
		return 0;
	}
	t = &tv->v[e->i];
	if (cxx_tok_punct(t, CXX_P_MINUS) || cxx_tok_punct(t, CXX_P_PLUS) || cxx_tok_punct(t, CXX_P_TILDE) ||
	    cxx_tok_punct(t, CXX_P_NOT)) {
		int64_t v;
		e->i++;
		v = ev_primary(e);
		return t->sub == CXX_P_MINUS ? (int64_t)(0 - (uint64_t)v) : t->sub == CXX_P_TILDE ? ~v
					   : t->sub == CXX_P_NOT                                 ? !v
												 : v;
	}
	if (cxx_tok_punct(t, CXX_P_LPAREN)) {
		size_t close = tv->match[e->i];
		int64_t v;
		if (close == TV_NONE || close >= e->j) {
			e->bad = true;
			return 0;
		}
		/* a C cast: (type) operand, where the parentheses hold only names */
		if (close + 1 < e->j) {
			bool names = true;
			for (size_t k = e->i + 1; k < close; k++)
				if (!(tv->v[k].kind == CXX_TOK_IDENT || tv->v[k].kind == CXX_TOK_KEYWORD ||
				      tv_punct(tv, k, CXX_P_SCOPE)))
					names = false;
			if (names && (tv->v[close + 1].kind == CXX_TOK_NUMBER || tv->v[close + 1].kind == CXX_TOK_IDENT ||
				      tv_punct(tv, close + 1, CXX_P_LPAREN))) {
				e->i = close + 1;
				return ev_primary(e);
			}
		}
		{
			struct ev in = { tv, e->i + 1, close, e->c, false };
			v = ev_expr(&in, 0);
			if (in.bad || in.i != close)
				e->bad = true;
		}
		e->i = close + 1;
		return v;
	}
	if (t->kind == CXX_TOK_NUMBER) {
		int64_t v = 0;
		if (!parse_number(tv->data + t->start, t->end - t->start, &v))
			e->bad = true;
		e->i++;
		return v;
	}
	if (t->kind == CXX_TOK_KEYWORD && (t->sub == CXX_KW_static_cast)) {
		/* static_cast<T>(x) */
		size_t k = e->i + 1;
		while (k < e->j && !tv_punct(tv, k, CXX_P_LPAREN))
			k++;
		if (k >= e->j) {
			e->bad = true;
			return 0;
		}
		e->i = k;
		return ev_primary(e);
	}
	if (t->kind == CXX_TOK_IDENT || tv_punct(tv, e->i, CXX_P_SCOPE)) {
		/* a qualified name: the last component */
		size_t last = e->i;
		const struct tv_const *c;
		while (e->i < e->j && (tv->v[e->i].kind == CXX_TOK_IDENT || tv_punct(tv, e->i, CXX_P_SCOPE))) {
			if (tv->v[e->i].kind == CXX_TOK_IDENT)
				last = e->i;
			e->i++;
		}
		/* a functional cast: int64_t(x) */
		if (e->i < e->j && tv_punct(tv, e->i, CXX_P_LPAREN))
			return ev_primary(e);
		c = tv_consts_find(e->c, tv->data + tv->v[last].start, tv->v[last].end - tv->v[last].start);
		if (!c) {
			e->bad = true;
			return 0;
		}
		return c->value;
	}
	e->bad = true;
	e->i++;
	return 0;
}

static int binop_prec(const struct cxx_token *t)
{
	if (t->kind != CXX_TOK_PUNCT)
		return -1;
	switch (t->sub) {
	case CXX_P_STAR:
	case CXX_P_SLASH:
	case CXX_P_PERCENT:
		return 5;
	case CXX_P_PLUS:
	case CXX_P_MINUS:
		return 4;
	case CXX_P_SHL:
	case CXX_P_SHR:
		return 3;
	case CXX_P_AMP:
		return 2;
	case CXX_P_CARET:
		return 1;
	case CXX_P_PIPE:
		return 0;
	default:
		return -1;
	}
}

static int64_t ev_expr(struct ev *e, int minprec)
{
	int64_t l = ev_primary(e);

	while (!e->bad && e->i < e->j) {
		const struct cxx_token *t = &e->tv->v[e->i];
		int p = binop_prec(t);
		int64_t r;
		uint64_t ul, ur;
		if (p < minprec)
			break;
		e->i++;
		r = ev_expr(e, p + 1);
		ul = (uint64_t)l;
		ur = (uint64_t)r;
		switch (t->sub) {
		case CXX_P_STAR: l = (int64_t)(ul * ur); break;
		case CXX_P_SLASH:
		case CXX_P_PERCENT:
			if (r == 0 || (l == INT64_MIN && r == -1)) {
				e->bad = true;
				return 0;
			}
			l = t->sub == CXX_P_SLASH ? l / r : l % r;
			break;
		case CXX_P_PLUS: l = (int64_t)(ul + ur); break;
		case CXX_P_MINUS: l = (int64_t)(ul - ur); break;
		case CXX_P_SHL: l = (int64_t)(ul << (ur & 63)); break;
		case CXX_P_SHR: l = (int64_t)(ul >> (ur & 63)); break;
		case CXX_P_AMP: l = (int64_t)(ul & ur); break;
		case CXX_P_CARET: l = (int64_t)(ul ^ ur); break;
		default: l = (int64_t)(ul | ur); break;
		}
	}
	return l;
}

int tv_eval(const struct tok_view *tv, size_t i, size_t j, const struct tv_consts *c, int64_t *out)
{
	struct ev e = { tv, i, j, c, false };
	int64_t v;

	if (i >= j)
		return -1;
	v = ev_expr(&e, 0);
	if (e.bad || e.i != j)
		return -1;
	*out = v;
	return 0;
}

bool tv_text_is_ident(const char *s, size_t n)
{
	if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

char *tv_name_key(const char *s)
{
	size_t n = strlen(s), k = 0;
	char *o = xmalloc(n + 1);

	for (size_t i = 0; i < n; i++)
		if (s[i] != '_')
			o[k++] = (char)tolower((unsigned char)s[i]);
	o[k] = '\0';
	return o;
}

bool tv_is_null_text(const char *s)
{
	return strcmp(s, "nullptr") == 0 || strcmp(s, "NULL") == 0 || strstr(s, "nullopt") != NULL ||
	       strcmp(s, "at::Tensor()") == 0 || strcmp(s, "{}") == 0;
}

bool tv_names_profiling(const char *name, const char *profiling)
{
	static const char *const suffixes[] = { "", "gm", "tensor", "ptr", "addr", "out", "optional" };
	char *a, *b;
	bool ok = false;
	size_t lb;

	if (!name || !profiling)
		return false;
	a = tv_name_key(name);
	b = tv_name_key(profiling);
	lb = strlen(b);
	if (strncmp(a, b, lb) == 0)
		for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
			if (strcmp(a + lb, suffixes[i]) == 0)
				ok = true;
	free(a);
	free(b);
	return ok;
}

char *project_snake(const char *s)
{
	size_t n = strlen(s), k = 0;
	char *o = xmalloc(2 * n + 1);

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isupper(c)) {
			if (i > 0 && (islower((unsigned char)s[i - 1]) || isdigit((unsigned char)s[i - 1]) ||
				      (i + 1 < n && islower((unsigned char)s[i + 1]) && isupper((unsigned char)s[i - 1]))))
				o[k++] = '_';
			o[k++] = (char)tolower(c);
		} else {
			o[k++] = (char)c;
		}
	}
	o[k] = '\0';
	return o;
}

char *project_camel(const char *snake)
{
	size_t n = strlen(snake), k = 0;
	char *o = xmalloc(n + 1);
	bool up = false;

	for (size_t i = 0; i < n; i++) {
		if (snake[i] == '_') {
			up = k > 0;
			continue;
		}
		o[k++] = up ? (char)(snake[i] >= 'a' && snake[i] <= 'z' ? snake[i] - 32 : snake[i]) : snake[i];
		up = false;
	}
	o[k] = '\0';
	return o;
}
