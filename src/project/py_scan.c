/* The Python scanner: tokens, statements by indentation, defs, calls,
 * assignments. One pass per layer, arrays grown geometrically. */
#include "py_scan.h"

#include <stdlib.h>
#include <string.h>

#include "token_search.h"
#include "xalloc.h"

#define NO_MATCH ((size_t)-1)

/* Owned blocks of the module, freed together. */
struct py_arena {
	void **v;
	size_t n, cap;
};

static void *arena_keep(struct py_module *m, void *p)
{
	XGROW(m->arena->v, m->arena->cap, m->arena->n + 1);
	m->arena->v[m->arena->n++] = p;
	return p;
}

static const char *arena_strndup(struct py_module *m, const char *s, size_t n)
{
	return arena_keep(m, xstrndup(s, n));
}

/* ---- tokens ---- */

static bool id_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool id_cont(unsigned char c)
{
	return id_start(c) || (c >= '0' && c <= '9');
}

struct lexer {
	struct py_module *m;
	size_t cap;
	const char *d;
	size_t n;
};

static void note_unclosed(struct py_module *m, uint32_t at, const char *what)
{
	if (m->unclosed == UINT32_MAX) {
		m->unclosed = at;
		m->unclosed_what = what;
	}
}

static void push(struct lexer *lx, uint8_t kind, size_t s, size_t e, uint8_t flags, uint32_t indent)
{
	struct py_module *m = lx->m;
	struct py_token *t;

	XGROW(m->toks, lx->cap, m->ntoks + 2);
	t = &m->toks[m->ntoks++];
	t->start = (uint32_t)s;
	t->end = (uint32_t)e;
	t->kind = kind;
	t->flags = flags;
	t->indent = indent;
}

/* The length of a string prefix at p followed by a quote, or -1. */
static int string_prefix(const char *d, size_t n, size_t p, bool *fstr, bool *raw)
{
	size_t k = p;

	*fstr = *raw = false;
	while (k < n && k - p < 3 && strchr("rRbBuUfF", d[k]) && d[k] != '\0') {
		if (d[k] == 'f' || d[k] == 'F')
			*fstr = true;
		if (d[k] == 'r' || d[k] == 'R')
			*raw = true;
		k++;
	}
	if (k < n && (d[k] == '\'' || d[k] == '"') && k - p <= 2)
		return (int)(k - p);
	return -1;
}

static size_t scan_string(struct lexer *lx, size_t p, uint8_t *flags);

/* An f-string replacement field from p (just past '{') to its '}'. */
static size_t scan_fexpr(struct lexer *lx, size_t p, char q, bool triple)
{
	int depth = 0;
	const char *d = lx->d;

	while (p < lx->n) {
		char c = d[p];
		bool fs, raw;
		int pre;
		if (c == '\n' && !triple)
			return p;
		if ((pre = string_prefix(d, lx->n, p, &fs, &raw)) >= 0 && (p == 0 || !id_cont((unsigned char)d[p - 1]))) {
			uint8_t fl = 0;
			if (d[p + (size_t)pre] == q && !triple && depth == 0)
				return p; /* the enclosing string's quote */
			p = scan_string(lx, p, &fl);
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == ']')
			depth--;
		else if (c == '}') {
			if (depth == 0)
				return p + 1;
			depth--;
		}
		p++;
	}
	return p;
}

static size_t scan_string(struct lexer *lx, size_t p, uint8_t *flags)
{
	const char *d = lx->d;
	size_t n = lx->n;
	bool fstr, raw, triple;
	int pre = string_prefix(d, n, p, &fstr, &raw);
	size_t k = p + (size_t)pre;
	char q = d[k];

	triple = k + 2 < n && d[k + 1] == q && d[k + 2] == q;
	k += triple ? 3 : 1;
	if (fstr)
		*flags |= PY_TF_FSTRING;
	while (k < n) {
		char c = d[k];
		if (c == '\\' && k + 1 < n) {
			k += 2;
			continue;
		}
		if (c == '\n' && !triple) {
			*flags |= PY_TF_UNTERM;
			note_unclosed(lx->m, (uint32_t)p, "string");
			return k;
		}
		if (fstr && c == '{') {
			if (k + 1 < n && d[k + 1] == '{') {
				k += 2;
				continue;
			}
			k = scan_fexpr(lx, k + 1, q, triple);
			continue;
		}
		if (c == q) {
			if (!triple)
				return k + 1;
			if (k + 2 < n && d[k + 1] == q && d[k + 2] == q)
				return k + 3;
		}
		k++;
	}
	*flags |= PY_TF_UNTERM;
	note_unclosed(lx->m, (uint32_t)p, triple ? "triple-quoted string" : "string");
	return n;
}

static const char *const ops3[] = { "**=", "//=", ">>=", "<<=", "...", NULL };
static const char *const ops2[] = { "->", ":=", "==", "!=", "<=", ">=", "**", "//", "<<", ">>", "+=", "-=", "*=",
				    "/=", "%=", "&=", "|=", "^=", "@=", NULL };

static size_t op_len(const char *d, size_t n, size_t p)
{
	for (int i = 0; ops3[i]; i++)
		if (p + 3 <= n && memcmp(d + p, ops3[i], 3) == 0)
			return 3;
	for (int i = 0; ops2[i]; i++)
		if (p + 2 <= n && memcmp(d + p, ops2[i], 2) == 0)
			return 2;
	return 1;
}

static void tokenize(struct py_module *m)
{
	struct lexer lx = { m, 0, m->data, m->len };
	const char *d = m->data;
	size_t n = m->len, p = 0;
	int depth = 0;
	bool bol = true;
	uint32_t indent = 0;
	size_t *stack = NULL, sdepth = 0, scap = 0;

	XGROW(m->toks, lx.cap, 1);
	while (p < n) {
		unsigned char c = (unsigned char)d[p];
		bool fs, raw;
		uint8_t flags = 0;
		if (bol) {
			/* measure the indentation of a new line */
			indent = 0;
			while (p < n && (d[p] == ' ' || d[p] == '\t' || d[p] == '\f')) {
				indent = d[p] == '\t' ? (indent / 8 + 1) * 8 : d[p] == ' ' ? indent + 1 : 0;
				p++;
			}
			if (p >= n)
				break;
			c = (unsigned char)d[p];
			if (c == '\n' || c == '\r' || c == '#') {
				/* blank or comment-only line */
				while (p < n && d[p] != '\n')
					p++;
				p++;
				continue;
			}
			if (c == '\\' && p + 1 < n && (d[p + 1] == '\n' || d[p + 1] == '\r')) {
				p += d[p + 1] == '\r' && p + 2 < n && d[p + 2] == '\n' ? 3 : 2;
				continue;
			}
		}
		if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
			p++;
			continue;
		}
		if (c == '#') {
			while (p < n && d[p] != '\n')
				p++;
			continue;
		}
		if (c == '\\' && p + 1 < n && (d[p + 1] == '\n' || (d[p + 1] == '\r' && p + 2 < n && d[p + 2] == '\n'))) {
			p += d[p + 1] == '\r' ? 3 : 2;
			continue;
		}
		if (c == '\n') {
			if (depth == 0 && m->ntoks > 0 && m->toks[m->ntoks - 1].kind != PY_TOK_NEWLINE) {
				push(&lx, PY_TOK_NEWLINE, p, p + 1, 0, 0);
				bol = true;
			} else if (depth == 0) {
				bol = true;
			}
			p++;
			continue;
		}
		flags = bol ? PY_TF_BOL : 0;
		if (string_prefix(d, n, p, &fs, &raw) >= 0) {
			size_t e = scan_string(&lx, p, &flags);
			push(&lx, PY_TOK_STRING, p, e, flags, indent);
			p = e;
		} else if (id_start(c)) {
			size_t e = p + 1;
			while (e < n && id_cont((unsigned char)d[e]))
				e++;
			push(&lx, PY_TOK_NAME, p, e, flags, indent);
			p = e;
		} else if ((c >= '0' && c <= '9') || (c == '.' && p + 1 < n && d[p + 1] >= '0' && d[p + 1] <= '9')) {
			size_t e = p + 1;
			while (e < n && (id_cont((unsigned char)d[e]) || d[e] == '.' ||
					 ((d[e] == '+' || d[e] == '-') && (d[e - 1] == 'e' || d[e - 1] == 'E') &&
					  !(d[p] == '0' && p + 1 < n && (d[p + 1] == 'x' || d[p + 1] == 'X')))))
				e++;
			push(&lx, PY_TOK_NUMBER, p, e, flags, indent);
			p = e;
		} else {
			size_t l = op_len(d, n, p);
			if (c == '(' || c == '[' || c == '{') {
				XGROW(stack, scap, sdepth + 1);
				stack[sdepth++] = m->ntoks;
				depth++;
			} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
				depth--;
				sdepth--;
			}
			push(&lx, PY_TOK_OP, p, p + l, flags, indent);
			p += l;
		}
		bol = false;
	}
	if (sdepth > 0)
		note_unclosed(m, m->toks[stack[0]].start, "bracket");
	free(stack);
	if (m->ntoks > 0 && m->toks[m->ntoks - 1].kind != PY_TOK_NEWLINE)
		push(&lx, PY_TOK_NEWLINE, n, n, 0, 0);
	XGROW(m->toks, lx.cap, m->ntoks + 1);
	memset(&m->toks[m->ntoks], 0, sizeof(m->toks[0]));
	m->toks[m->ntoks].start = m->toks[m->ntoks].end = (uint32_t)n;
}

bool py_tok_is(const struct py_module *m, size_t i, const char *lit)
{
	size_t l = strlen(lit);

	if (i >= m->ntoks)
		return false;
	return m->toks[i].end - m->toks[i].start == l && memcmp(m->data + m->toks[i].start, lit, l) == 0;
}

static bool tok_op(const struct py_module *m, size_t i, const char *lit)
{
	return i < m->ntoks && m->toks[i].kind == PY_TOK_OP && py_tok_is(m, i, lit);
}

static void match_brackets(struct py_module *m)
{
	size_t *stack = xmalloc((m->ntoks + 1) * sizeof(*stack)), depth = 0;

	m->match = xmalloc((m->ntoks + 1) * sizeof(*m->match));
	for (size_t i = 0; i <= m->ntoks; i++)
		m->match[i] = NO_MATCH;
	for (size_t i = 0; i < m->ntoks; i++) {
		char c;
		if (m->toks[i].kind != PY_TOK_OP || m->toks[i].end - m->toks[i].start != 1)
			continue;
		c = m->data[m->toks[i].start];
		if (c == '(' || c == '[' || c == '{') {
			stack[depth++] = i;
		} else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
			char o = c == ')' ? '(' : c == ']' ? '[' : '{';
			size_t d = depth;
			while (d > 0 && m->data[m->toks[stack[d - 1]].start] != o)
				d--;
			if (d == 0)
				continue;
			depth = d - 1;
			m->match[i] = stack[depth];
			m->match[stack[depth]] = i;
		}
	}
	free(stack);
}

/* ---- statements ---- */

static const struct {
	const char *kw;
	enum py_stmt_kind kind;
} compound_kws[] = {
	{ "if", PY_STMT_IF },	     { "elif", PY_STMT_ELIF }, { "else", PY_STMT_ELSE },
	{ "for", PY_STMT_FOR },	     { "while", PY_STMT_WHILE }, { "with", PY_STMT_WITH },
	{ "try", PY_STMT_TRY },	     { "except", PY_STMT_EXCEPT }, { "finally", PY_STMT_FINALLY },
	{ "def", PY_STMT_DEF },	     { "class", PY_STMT_CLASS },
};

static bool compound_kind(const struct py_module *m, size_t i, enum py_stmt_kind *k)
{
	if (py_tok_is(m, i, "async"))
		i++;
	if (m->toks[i].kind != PY_TOK_NAME)
		return false;
	for (size_t c = 0; c < sizeof(compound_kws) / sizeof(compound_kws[0]); c++)
		if (py_tok_is(m, i, compound_kws[c].kw)) {
			*k = compound_kws[c].kind;
			return true;
		}
	/* soft keywords: `match x:` / `case p:` as headers ending in ':' */
	if ((py_tok_is(m, i, "match") || py_tok_is(m, i, "case")) && m->toks[i + 1].kind != PY_TOK_OP) {
		*k = PY_STMT_MATCH;
		return true;
	}
	if ((py_tok_is(m, i, "match") || py_tok_is(m, i, "case")) && (tok_op(m, i + 1, "(") || tok_op(m, i + 1, "["))) {
		/* `match(x):` is a header only when it ends in ':' */
		size_t close = m->match[i + 1];
		if (close != NO_MATCH && tok_op(m, close + 1, ":") && m->toks[close + 2].kind == PY_TOK_NEWLINE) {
			*k = PY_STMT_MATCH;
			return true;
		}
	}
	return false;
}

/* The next top-level token in [i, end) that is `lit`, or end. */
static size_t find_top(const struct py_module *m, size_t i, size_t end, const char *lit, bool count_lambda)
{
	int lambdas = 0;

	for (size_t k = i; k < end; k++) {
		if (m->match[k] != NO_MATCH && m->match[k] > k) {
			k = m->match[k];
			continue;
		}
		if (count_lambda && py_tok_is(m, k, "lambda")) {
			lambdas++;
			continue;
		}
		if (tok_op(m, k, lit)) {
			if (lambdas > 0 && lit[0] == ':' && lit[1] == '\0') {
				lambdas--;
				continue;
			}
			return k;
		}
	}
	return end;
}

static int add_stmt(struct py_module *m, size_t *cap, enum py_stmt_kind kind, int parent, size_t t0, size_t t1,
		    uint32_t indent)
{
	struct py_stmt *s;

	XGROW(m->stmts, *cap, m->nstmts + 1);
	s = &m->stmts[m->nstmts];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->parent = parent;
	s->tok_start = t0;
	s->tok_end = t1 > t0 ? t1 : t0;
	s->range.start = m->toks[t0].start;
	s->range.end = t1 > t0 ? m->toks[t1 - 1].end : m->toks[t0].start;
	s->block = s->range;
	s->indent = indent;
	s->func = PY_NONE;
	return (int)m->nstmts++;
}

/* Simple statements of tokens [i, end) split at ';'. */
static void add_simple(struct py_module *m, size_t *cap, int parent, size_t i, size_t end, uint32_t indent)
{
	while (i < end) {
		size_t semi = find_top(m, i, end, ";", false);
		if (semi > i) {
			enum py_stmt_kind k = PY_STMT_SIMPLE;
			if (py_tok_is(m, i, "return"))
				k = PY_STMT_RETURN;
			else if (tok_op(m, i, "@"))
				k = PY_STMT_DECORATOR;
			add_stmt(m, cap, k, parent, i, semi, indent);
		}
		i = semi + 1;
	}
}

struct block {
	uint32_t indent;
	int owner;
};

static void build_stmts(struct py_module *m)
{
	size_t cap = 0, bcap = 8, nb = 1;
	struct block *blocks = xmalloc(bcap * sizeof(*blocks));
	int pending = PY_NONE; /* a header waiting for its indented block */
	size_t i = 0;

	blocks[0].indent = m->ntoks ? m->toks[0].indent : 0;
	blocks[0].owner = PY_NONE;
	while (i < m->ntoks) {
		size_t end = i;
		uint32_t ind = m->toks[i].indent;
		enum py_stmt_kind kind;
		int parent;
		while (end < m->ntoks && m->toks[end].kind != PY_TOK_NEWLINE)
			end++;
		if (end == i) {
			i++;
			continue;
		}
		if (pending != PY_NONE && ind > blocks[nb - 1].indent) {
			XGROW(blocks, bcap, nb + 1);
			blocks[nb].indent = ind;
			blocks[nb].owner = pending;
			nb++;
		} else {
			while (nb > 1 && blocks[nb - 1].indent > ind)
				nb--;
		}
		pending = PY_NONE;
		parent = blocks[nb - 1].owner;
		if (compound_kind(m, i, &kind)) {
			size_t colon = find_top(m, i, end, ":", true);
			int s = add_stmt(m, &cap, kind, parent, i, colon < end ? colon + 1 : end, ind);
			if (colon + 1 < end)
				add_simple(m, &cap, s, colon + 1, end, ind);
			else
				pending = s;
		} else {
			add_simple(m, &cap, parent, i, end, ind);
		}
		i = end + 1;
	}
	free(blocks);
	/* enclosing functions and block ends (children follow their parents) */
	for (size_t s = 0; s < m->nstmts; s++) {
		struct py_stmt *st = &m->stmts[s];
		if (st->parent != PY_NONE) {
			const struct py_stmt *p = &m->stmts[st->parent];
			st->func = p->kind == PY_STMT_DEF ? st->parent : p->func;
		}
		for (int a = st->parent; a != PY_NONE; a = m->stmts[a].parent)
			if (m->stmts[a].block.end < st->range.end)
				m->stmts[a].block.end = st->range.end;
	}
}

/* ---- defs, calls, assignments ---- */

static bool is_keyword(const struct py_module *m, size_t i)
{
	static const char *const kws[] = { "if",    "elif",  "else",   "for",  "while", "in",     "not",  "and",
					   "or",    "is",    "return", "lambda", "yield", "assert", "del",  "with",
					   "as",    "except", "import", "from", "raise", "global", "nonlocal", "await",
					   "print_", NULL };
	if (m->toks[i].kind != PY_TOK_NAME)
		return false;
	for (int k = 0; kws[k]; k++)
		if (py_tok_is(m, i, kws[k]))
			return true;
	return false;
}

const char *py_text(struct py_module *m, size_t i, size_t j)
{
	size_t len = 0, cap = 32;
	char *s = xmalloc(cap);

	for (size_t k = i; k < j && k < m->ntoks; k++) {
		size_t n = m->toks[k].end - m->toks[k].start;
		if (m->toks[k].kind == PY_TOK_NEWLINE)
			continue;
		XGROW(s, cap, len + n + 2);
		/* keep words apart: "not x", "lambda p" */
		if (k > i && m->toks[k].kind == PY_TOK_NAME &&
		    (m->toks[k - 1].kind == PY_TOK_NAME || m->toks[k - 1].kind == PY_TOK_NUMBER))
			s[len++] = ' ';
		memcpy(s + len, m->data + m->toks[k].start, n);
		len += n;
	}
	s[len] = '\0';
	return arena_keep(m, s);
}

char *py_string_value(const struct py_module *m, size_t tok)
{
	const struct py_token *t;
	const char *s;
	size_t n, q;

	if (tok >= m->ntoks || m->toks[tok].kind != PY_TOK_STRING)
		return NULL;
	t = &m->toks[tok];
	s = m->data + t->start;
	n = t->end - t->start;
	q = 0;
	while (q < n && s[q] != '\'' && s[q] != '"')
		q++;
	if (q + 6 <= n && s[q + 1] == s[q] && s[q + 2] == s[q] && s[n - 1] == s[q] && s[n - 2] == s[q] &&
	    s[n - 3] == s[q] && n - q >= 6)
		return xstrndup(s + q + 3, n - q - 6);
	if (q + 2 <= n && s[n - 1] == s[q] && n - q >= 2)
		return xstrndup(s + q + 1, n - q - 2);
	return xstrndup(s + q + (q < n), n > q + 1 ? n - q - 1 : 0);
}

size_t py_tok_at(const struct py_module *m, uint32_t off)
{
	return token_search(m->toks, m->ntoks, sizeof(*m->toks), off);
}

static void read_args(struct py_module *m, size_t open, struct py_call *c)
{
	size_t close = m->match[open], from = open + 1, cap = 0;

	for (size_t k = open + 1; k <= close && close != NO_MATCH; k++) {
		if (k < close && m->match[k] != NO_MATCH && m->match[k] > k) {
			k = m->match[k];
			continue;
		}
		if (k == close || tok_op(m, k, ",")) {
			struct py_arg a;
			size_t v = from;
			if (from == k) {
				from = k + 1;
				continue; /* a trailing comma */
			}
			memset(&a, 0, sizeof(a));
			if (m->toks[from].kind == PY_TOK_NAME && tok_op(m, from + 1, "=") && from + 2 <= k) {
				a.keyword = arena_strndup(m, m->data + m->toks[from].start,
							  m->toks[from].end - m->toks[from].start);
				v = from + 2;
			} else if (tok_op(m, from, "*")) {
				a.star = true;
				v = from + 1;
			} else if (tok_op(m, from, "**")) {
				a.dstar = true;
				v = from + 1;
			}
			a.range.start = m->toks[from].start;
			a.range.end = m->toks[k - 1].end;
			a.value.start = v < k ? m->toks[v].start : a.range.end;
			a.value.end = a.range.end;
			a.tok_start = v;
			a.tok_end = k;
			XGROW(c->args, cap, c->nargs + 1);
			c->args[c->nargs++] = a;
			from = k + 1;
		}
	}
	if (c->args)
		arena_keep(m, c->args);
}

/* The first token of the primary expression ending at token p. */
static size_t primary_start(const struct py_module *m, size_t p, size_t floor)
{
	size_t j = p;

	for (;;) {
		if ((tok_op(m, j, ")") || tok_op(m, j, "]")) && m->match[j] != NO_MATCH && m->match[j] >= floor) {
			size_t o = m->match[j];
			if (o > floor && (m->toks[o - 1].kind == PY_TOK_NAME || tok_op(m, o - 1, ")") ||
					  tok_op(m, o - 1, "]")) &&
			    !is_keyword(m, o - 1) && o - 1 < j) {
				j = o - 1;
				continue;
			}
			return o;
		}
		if (j >= floor + 2 && tok_op(m, j - 1, ".") &&
		    (m->toks[j - 2].kind == PY_TOK_NAME || m->toks[j - 2].kind == PY_TOK_STRING ||
		     tok_op(m, j - 2, ")") || tok_op(m, j - 2, "]")) &&
		    !is_keyword(m, j - 2)) {
			j -= 2;
			continue;
		}
		return j;
	}
}

static void read_calls(struct py_module *m, int s, size_t *cap)
{
	const struct py_stmt *st = &m->stmts[s];

	for (size_t k = st->tok_start + 1; k < st->tok_end; k++) {
		size_t p = k - 1, start;
		struct py_call c;
		if (!tok_op(m, k, "(") || m->match[k] == NO_MATCH)
			continue;
		if (!((m->toks[p].kind == PY_TOK_NAME && !is_keyword(m, p)) || tok_op(m, p, ")") || tok_op(m, p, "]")))
			continue;
		if (p > st->tok_start && (py_tok_is(m, p - 1, "def") || py_tok_is(m, p - 1, "class")))
			continue;
		start = primary_start(m, p, st->tok_start);
		memset(&c, 0, sizeof(c));
		c.range.start = m->toks[start].start;
		c.range.end = m->toks[m->match[k]].end;
		c.callee.start = m->toks[start].start;
		c.callee.end = m->toks[p].end;
		c.args_range.start = m->toks[k].end;
		c.args_range.end = m->toks[m->match[k]].start;
		c.callee_text = py_text(m, start, k);
		c.name = m->toks[p].kind == PY_TOK_NAME
				 ? arena_strndup(m, m->data + m->toks[p].start, m->toks[p].end - m->toks[p].start)
				 : "";
		c.open_tok = k;
		c.stmt = s;
		read_args(m, k, &c);
		XGROW(m->calls, *cap, m->ncalls + 1);
		m->calls[m->ncalls++] = c;
	}
}

static int call_at(const struct py_module *m, size_t from, size_t v0, size_t v1)
{
	for (size_t c = from; c < m->ncalls; c++) {
		const struct py_call *call = &m->calls[c];
		if (call->range.start == m->toks[v0].start && call->range.end == m->toks[v1 - 1].end)
			return (int)c;
	}
	return PY_NONE;
}

static void read_targets(struct py_module *m, size_t t0, size_t t1, struct py_assign *a)
{
	size_t cap = 0, from;

	/* `x: T = v`: the annotation is not a target */
	size_t colon = find_top(m, t0, t1, ":", false);
	if (colon < t1)
		t1 = colon;
	if (t1 <= t0) { /* `: T = v` with nothing before the colon: no target */
		a->target_range.start = a->target_range.end = m->toks[t0].start;
		return;
	}
	a->target_range.start = m->toks[t0].start;
	a->target_range.end = m->toks[t1 - 1].end;
	/* (a, b) = ... / [a, b] = ... */
	if ((tok_op(m, t0, "(") || tok_op(m, t0, "[")) && m->match[t0] == t1 - 1) {
		a->unpacks = true;
		t0++;
		t1--;
	}
	from = t0;
	for (size_t k = t0; k <= t1; k++) {
		if (k < t1 && m->match[k] != NO_MATCH && m->match[k] > k) {
			k = m->match[k];
			continue;
		}
		if (k == t1 || tok_op(m, k, ",")) {
			struct py_target t;
			if (k < t1)
				a->unpacks = true;
			if (from == k) {
				from = k + 1;
				continue;
			}
			t.starred = tok_op(m, from, "*");
			t.range.start = m->toks[from].start;
			t.range.end = m->toks[k - 1].end;
			t.text = py_text(m, from + (t.starred ? 1 : 0), k);
			XGROW(a->targets, cap, a->ntargets + 1);
			a->targets[a->ntargets++] = t;
			from = k + 1;
		}
	}
	if (a->targets)
		arena_keep(m, a->targets);
}

static void read_assign(struct py_module *m, int s, size_t first_call, size_t *cap)
{
	const struct py_stmt *st = &m->stmts[s];
	size_t eq = find_top(m, st->tok_start, st->tok_end, "=", true), last = eq;
	struct py_assign a;

	if (st->kind != PY_STMT_SIMPLE || eq >= st->tok_end || eq == st->tok_start)
		return;
	/* a = b = v: the value follows the last '=' */
	for (size_t k = find_top(m, eq + 1, st->tok_end, "=", true); k < st->tok_end;
	     k = find_top(m, k + 1, st->tok_end, "=", true))
		last = k;
	memset(&a, 0, sizeof(a));
	a.stmt = s;
	read_targets(m, st->tok_start, eq, &a);
	a.value_tok_start = last + 1;
	a.value_tok_end = st->tok_end;
	if (last + 1 < st->tok_end) {
		a.value.start = m->toks[last + 1].start;
		a.value.end = m->toks[st->tok_end - 1].end;
		/* `x = await f(...)` is a call of f as well */
		a.call = call_at(m, first_call, last + 1 + (py_tok_is(m, last + 1, "await") && last + 2 < st->tok_end),
				 st->tok_end);
	} else {
		a.value.start = a.value.end = m->toks[last].end;
		a.call = PY_NONE;
	}
	XGROW(m->assigns, *cap, m->nassigns + 1);
	m->assigns[m->nassigns++] = a;
}

static void read_def(struct py_module *m, int s, size_t *cap)
{
	const struct py_stmt *st = &m->stmts[s];
	size_t k = st->tok_start, pcap = 0;
	struct py_func f;

	if (py_tok_is(m, k, "async"))
		k++;
	if (m->toks[k + 1].kind != PY_TOK_NAME)
		return;
	memset(&f, 0, sizeof(f));
	f.stmt = s;
	f.parent = PY_NONE;
	for (size_t q = 0; q < m->nfuncs; q++)
		if (m->funcs[q].stmt == st->func)
			f.parent = (int)q;
	f.name = arena_strndup(m, m->data + m->toks[k + 1].start, m->toks[k + 1].end - m->toks[k + 1].start);
	f.name_range.start = m->toks[k + 1].start;
	f.name_range.end = m->toks[k + 1].end;
	if (tok_op(m, k + 2, "(") && m->match[k + 2] != NO_MATCH) {
		size_t open = k + 2, close = m->match[open];
		bool at_start = true;
		f.params_range.start = m->toks[open].start;
		f.params_range.end = m->toks[close].end;
		for (size_t q = open + 1; q < close; q++) {
			if (m->match[q] != NO_MATCH && m->match[q] > q) {
				q = m->match[q];
				continue;
			}
			if (tok_op(m, q, ",")) {
				at_start = true;
				continue;
			}
			if (at_start && m->toks[q].kind == PY_TOK_NAME) {
				XGROW(f.params, pcap, f.nparams + 1);
				f.params[f.nparams++] =
					arena_strndup(m, m->data + m->toks[q].start, m->toks[q].end - m->toks[q].start);
			}
			if (!(tok_op(m, q, "*") || tok_op(m, q, "**")))
				at_start = false;
		}
		if (f.params)
			arena_keep(m, f.params);
	}
	/* decorators: the statements right before it at the same level */
	{
		size_t nd = 0, dcap = 0;
		for (int d = s - 1; d >= 0 && m->stmts[d].kind == PY_STMT_DECORATOR && m->stmts[d].parent == st->parent; d--)
			nd++;
		for (size_t q = nd; q > 0; q--) {
			const struct py_stmt *ds = &m->stmts[(size_t)s - q];
			XGROW(f.decorators, dcap, f.ndecorators + 1);
			f.decorators[f.ndecorators++] = py_text(m, ds->tok_start + 1, ds->tok_end);
		}
		if (f.decorators)
			arena_keep(m, f.decorators);
	}
	XGROW(m->funcs, *cap, m->nfuncs + 1);
	m->funcs[m->nfuncs++] = f;
}

struct py_module *py_scan(const char *data, size_t len)
{
	struct py_module *m = xcalloc(1, sizeof(*m));
	size_t ccap = 0, acap = 0, fcap = 0;

	m->data = data;
	m->len = len;
	m->unclosed = UINT32_MAX;
	m->arena = xcalloc(1, sizeof(*m->arena));
	tokenize(m);
	match_brackets(m);
	build_stmts(m);
	for (size_t s = 0; s < m->nstmts; s++) {
		size_t first = m->ncalls;
		if (m->stmts[s].kind == PY_STMT_DEF)
			read_def(m, (int)s, &fcap);
		read_calls(m, (int)s, &ccap);
		read_assign(m, (int)s, first, &acap);
	}
	return m;
}

/* Frees the module and everything it holds. */
void py_module_free(struct py_module *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->arena->n; i++)
		free(m->arena->v[i]);
	free(m->arena->v);
	free(m->arena);
	free(m->toks);
	free(m->match);
	free(m->stmts);
	free(m->funcs);
	free(m->calls);
	free(m->assigns);
	free(m);
}

/* The block that decides whether `s` runs: its parent, seen through the
 * bodies of try and with (which run whenever they are reached). */
static int deciding_block(const struct py_module *m, int s)
{
	int p = m->stmts[s].parent;

	while (p != PY_NONE && (m->stmts[p].kind == PY_STMT_TRY || m->stmts[p].kind == PY_STMT_WITH))
		p = m->stmts[p].parent;
	return p;
}

bool py_stmt_within(const struct py_module *m, int s, int outer)
{
	for (int p = m->stmts[s].parent; p != PY_NONE; p = m->stmts[p].parent)
		if (p == outer)
			return true;
	return false;
}

bool py_dominates(const struct py_module *m, int a, int b)
{
	int blk;

	if (a < 0 || b < 0 || m->stmts[a].func != m->stmts[b].func || m->stmts[a].range.start >= m->stmts[b].range.start)
		return false;
	blk = deciding_block(m, a);
	if (blk == PY_NONE || blk == m->stmts[a].func)
		return true;
	return py_stmt_within(m, b, blk);
}

const char *py_stmt_kind_name(enum py_stmt_kind k)
{
	static const char *const names[] = { "simple", "return", "decorator", "def",    "class",   "if",
					     "elif",   "else",   "for",       "while",  "with",    "try",
					     "except", "finally", "match" };
	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}
