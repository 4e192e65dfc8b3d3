/* The conditions of #if, #elif, #ifdef and their kin: parsed into a small
 * tree, evaluated with the macros the table knows, and, when one cannot be
 * decided, the assumptions that decide it recorded in the table. */
#include "cxx_pp_expr.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_macros.h"
#include "cxx_parser.h"
#include "xalloc.h"


enum cnode_kind { CN_NUM, CN_IDENT, CN_DEFINED, CN_UNARY, CN_BINARY, CN_TERNARY, CN_UNKNOWN };

struct cnode {
	enum cnode_kind kind;
	enum cxx_punct op;
	int a, b, c;
	long long v;
	size_t tok;
};

struct cexpr {
	const struct cxx_token *t;
	const char *src;
	size_t i, end;
	struct cnode *nodes;
	size_t n, cap;
	int depth;
	bool bad;
};

struct cval {
	bool known;
	long long v;
};

static int cnode_new(struct cexpr *e, enum cnode_kind kind)
{
	XGROW(e->nodes, e->cap, e->n + 1);
	memset(&e->nodes[e->n], 0, sizeof(e->nodes[0]));
	e->nodes[e->n].kind = kind;
	e->nodes[e->n].a = e->nodes[e->n].b = e->nodes[e->n].c = -1;
	return (int)e->n++;
}

static bool cpeek(const struct cexpr *e, enum cxx_punct op)
{
	return e->i < e->end && cxx_tok_punct(&e->t[e->i], op);
}

static int cparse_cond(struct cexpr *e);

static int cparse_primary(struct cexpr *e)
{
	const struct cxx_token *tk;
	int n;

	if (e->i >= e->end || ++e->depth > 100) {
		e->bad = true;
		return cnode_new(e, CN_UNKNOWN);
	}
	tk = &e->t[e->i];
	if (tk->kind == CXX_TOK_PUNCT) {
		enum cxx_punct op = (enum cxx_punct)tk->sub;
		if (op == CXX_P_LPAREN) {
			e->i++;
			n = cparse_cond(e);
			if (cpeek(e, CXX_P_RPAREN))
				e->i++;
			else
				e->bad = true;
			e->depth--;
			return n;
		}
		if (op == CXX_P_NOT || op == CXX_P_MINUS || op == CXX_P_PLUS || op == CXX_P_TILDE) {
			int a;
			e->i++;
			a = cparse_primary(e);
			n = cnode_new(e, CN_UNARY);
			e->nodes[n].op = op;
			e->nodes[n].a = a;
			e->depth--;
			return n;
		}
		e->bad = true;
		e->i++;
		e->depth--;
		return cnode_new(e, CN_UNKNOWN);
	}
	e->i++;
	e->depth--;
	if (tk->kind == CXX_TOK_NUMBER) {
		n = cnode_new(e, CN_NUM);
		if (!cxx_pp_parse_int(e->src + tk->start, tk->end - tk->start, &e->nodes[n].v))
			e->nodes[n].kind = CN_UNKNOWN;
		return n;
	}
	if (tk->kind == CXX_TOK_CHAR) {
		return cnode_new(e, CN_UNKNOWN);
	}
	if (tk->kind == CXX_TOK_KEYWORD && (tk->sub == CXX_KW_true || tk->sub == CXX_KW_false)) {
		n = cnode_new(e, CN_NUM);
		e->nodes[n].v = tk->sub == CXX_KW_true;
		return n;
	}
	if (tk->kind == CXX_TOK_IDENT || tk->kind == CXX_TOK_KEYWORD) {
		if (cxx_span_is(e->src + tk->start, tk->end - tk->start, "defined")) {
			bool paren = cpeek(e, CXX_P_LPAREN);
			if (paren)
				e->i++;
			if (e->i < e->end && (e->t[e->i].kind == CXX_TOK_IDENT || e->t[e->i].kind == CXX_TOK_KEYWORD)) {
				n = cnode_new(e, CN_DEFINED);
				e->nodes[n].tok = e->i++;
			} else {
				e->bad = true;
				n = cnode_new(e, CN_UNKNOWN);
			}
			if (paren) {
				if (cpeek(e, CXX_P_RPAREN))
					e->i++;
				else
					e->bad = true;
			}
			return n;
		}
		if (cpeek(e, CXX_P_LPAREN)) {
			/* a function-like macro or __has_include(...): undecidable */
			int level = 0;
			for (; e->i < e->end; e->i++) {
				if (cxx_tok_punct(&e->t[e->i], CXX_P_LPAREN))
					level++;
				else if (cxx_tok_punct(&e->t[e->i], CXX_P_RPAREN) && --level == 0) {
					e->i++;
					break;
				}
			}
			return cnode_new(e, CN_UNKNOWN);
		}
		n = cnode_new(e, CN_IDENT);
		e->nodes[n].tok = e->i - 1;
		return n;
	}
	e->bad = true;
	return cnode_new(e, CN_UNKNOWN);
}

static int binary_prec(enum cxx_punct op)
{
	switch (op) {
	case CXX_P_STAR: case CXX_P_SLASH: case CXX_P_PERCENT: return 10;
	case CXX_P_PLUS: case CXX_P_MINUS: return 9;
	case CXX_P_SHL: case CXX_P_SHR: return 8;
	case CXX_P_LT: case CXX_P_GT: case CXX_P_LE: case CXX_P_GE: return 7;
	case CXX_P_EQ: case CXX_P_NE: return 6;
	case CXX_P_AMP: return 5;
	case CXX_P_CARET: return 4;
	case CXX_P_PIPE: return 3;
	case CXX_P_AND: return 2;
	case CXX_P_OR: return 1;
	default: return 0;
	}
}

static int cparse_binary(struct cexpr *e, int min_prec)
{
	int lhs = cparse_primary(e);

	while (e->i < e->end && e->t[e->i].kind == CXX_TOK_PUNCT) {
		enum cxx_punct op = (enum cxx_punct)e->t[e->i].sub;
		int prec = binary_prec(op), rhs, n;
		if (prec == 0 || prec < min_prec)
			break;
		e->i++;
		rhs = cparse_binary(e, prec + 1);
		n = cnode_new(e, CN_BINARY);
		e->nodes[n].op = op;
		e->nodes[n].a = lhs;
		e->nodes[n].b = rhs;
		lhs = n;
	}
	return lhs;
}

static int cparse_cond(struct cexpr *e)
{
	int c = cparse_binary(e, 1), a, b, n;

	if (!cpeek(e, CXX_P_QUESTION))
		return c;
	e->i++;
	a = cparse_cond(e);
	if (cpeek(e, CXX_P_COLON))
		e->i++;
	else
		e->bad = true;
	b = cparse_cond(e);
	n = cnode_new(e, CN_TERNARY);
	e->nodes[n].a = c;
	e->nodes[n].b = a;
	e->nodes[n].c = b;
	return n;
}

static struct macro *cnode_macro(const struct cexpr *e, const struct cxx_macro_table *mt, const struct cnode *nd)
{
	const struct cxx_token *tk = &e->t[nd->tok];
	return cxx_macro_find(mt, e->src + tk->start, tk->end - tk->start);
}

static struct cval ceval(const struct cexpr *e, const struct cxx_macro_table *mt, int idx)
{
	struct cval r = { false, 0 }, a, b;
	const struct cnode *nd = &e->nodes[idx];
	const struct macro *m;

	switch (nd->kind) {
	case CN_NUM:
		r.known = true;
		r.v = nd->v;
		break;
	case CN_IDENT:
		m = cnode_macro(e, mt, nd);
		if (m && m->state == M_UNDEFINED)
			r.known = true;
		else if (m && m->has_value)
			r.known = true, r.v = m->value;
		break;
	case CN_DEFINED:
		m = cnode_macro(e, mt, nd);
		if (m)
			r.known = true, r.v = m->state == M_DEFINED;
		break;
	case CN_UNARY:
		a = ceval(e, mt, nd->a);
		r.known = a.known;
		if (nd->op == CXX_P_NOT)
			r.v = !a.v;
		else if (nd->op == CXX_P_MINUS)
			r.v = (long long)(0ull - (unsigned long long)a.v);
		else if (nd->op == CXX_P_TILDE)
			r.v = ~a.v;
		else
			r.v = a.v;
		break;
	case CN_BINARY:
		a = ceval(e, mt, nd->a);
		b = ceval(e, mt, nd->b);
		if (nd->op == CXX_P_AND) {
			if ((a.known && !a.v) || (b.known && !b.v))
				r.known = true, r.v = 0;
			else if (a.known && b.known)
				r.known = true, r.v = 1;
			break;
		}
		if (nd->op == CXX_P_OR) {
			if ((a.known && a.v) || (b.known && b.v))
				r.known = true, r.v = 1;
			else if (a.known && b.known)
				r.known = true, r.v = 0;
			break;
		}
		if (!a.known || !b.known)
			break;
		r.known = true;
		switch (nd->op) {
		case CXX_P_STAR: r.v = (long long)((unsigned long long)a.v * (unsigned long long)b.v); break;
		case CXX_P_SLASH: case CXX_P_PERCENT:
			if (b.v == 0 || (b.v == -1 && a.v == LLONG_MIN)) {
				r.known = false;
				break;
			}
			r.v = nd->op == CXX_P_SLASH ? a.v / b.v : a.v % b.v;
			break;
		case CXX_P_PLUS: r.v = (long long)((unsigned long long)a.v + (unsigned long long)b.v); break;
		case CXX_P_MINUS: r.v = (long long)((unsigned long long)a.v - (unsigned long long)b.v); break;
		case CXX_P_SHL: r.v = b.v >= 0 && b.v < 64 ? (long long)((unsigned long long)a.v << b.v) : 0; break;
		case CXX_P_SHR: r.v = b.v >= 0 && b.v < 64 ? a.v >> b.v : 0; break;
		case CXX_P_LT: r.v = a.v < b.v; break;
		case CXX_P_GT: r.v = a.v > b.v; break;
		case CXX_P_LE: r.v = a.v <= b.v; break;
		case CXX_P_GE: r.v = a.v >= b.v; break;
		case CXX_P_EQ: r.v = a.v == b.v; break;
		case CXX_P_NE: r.v = a.v != b.v; break;
		case CXX_P_AMP: r.v = a.v & b.v; break;
		case CXX_P_CARET: r.v = a.v ^ b.v; break;
		case CXX_P_PIPE: r.v = a.v | b.v; break;
		default: r.known = false; break;
		}
		break;
	case CN_TERNARY:
		a = ceval(e, mt, nd->a);
		if (a.known)
			return ceval(e, mt, a.v ? nd->b : nd->c);
		a = ceval(e, mt, nd->b);
		b = ceval(e, mt, nd->c);
		if (a.known && b.known && a.v == b.v)
			r = a;
		break;
	case CN_UNKNOWN:
		break;
	}
	return r;
}

/* Records the assumption that makes node `idx` evaluate to `want`, on the
 * macros nobody defined, so that later conditions agree with this choice. */
static void cassume(const struct cexpr *e, struct cxx_macro_table *mt, int idx, bool want)
{
	const struct cnode *nd = &e->nodes[idx];
	const struct cxx_token *tk;
	struct macro *m;

	switch (nd->kind) {
	case CN_IDENT:
	case CN_DEFINED:
		tk = &e->t[nd->tok];
		if (cxx_macro_find(mt, e->src + tk->start, tk->end - tk->start))
			return;
		m = cxx_macro_add(mt, e->src + tk->start, tk->end - tk->start);
		m->origin = M_ASSUMED;
		m->state = want ? M_DEFINED : M_UNDEFINED;
		m->has_value = want && nd->kind == CN_IDENT;
		m->value = 1;
		break;
	case CN_UNARY:
		if (nd->op == CXX_P_NOT)
			cassume(e, mt, nd->a, !want);
		break;
	case CN_BINARY:
		if ((nd->op == CXX_P_AND && want) || (nd->op == CXX_P_OR && !want)) {
			cassume(e, mt, nd->a, want);
			cassume(e, mt, nd->b, want);
		} else if (nd->op == CXX_P_AND || nd->op == CXX_P_OR) {
			if (!ceval(e, mt, nd->a).known)
				cassume(e, mt, nd->a, want);
			else if (!ceval(e, mt, nd->b).known)
				cassume(e, mt, nd->b, want);
		}
		break;
	default:
		break;
	}
}

/* Evaluates the condition of directive `name` over tokens [a, b); when it
 * cannot be decided, `assume` 1 (0) records the assumptions that make it
 * true (false), -1 none. */
enum cxx_cond_value cxx_pp_decide(const struct cxx_token *t, const char *src, struct cxx_macro_table *mt,
				  const char *name, size_t a, size_t b, int assume)
{
	struct cexpr e = { t, src, a, b, NULL, 0, 0, 0, false };
	int root;
	struct cval v;
	bool negate = false;

	if (strcmp(name, "ifdef") == 0 || strcmp(name, "ifndef") == 0 || strcmp(name, "elifdef") == 0 ||
	    strcmp(name, "elifndef") == 0) {
		negate = strstr(name, "ndef") != NULL;
		if (a < b && cxx_pp_tok_word(&t[a])) {
			root = cnode_new(&e, CN_DEFINED);
			e.nodes[root].tok = a;
		} else {
			root = cnode_new(&e, CN_UNKNOWN);
		}
		if (negate) {
			int n = cnode_new(&e, CN_UNARY);
			e.nodes[n].op = CXX_P_NOT;
			e.nodes[n].a = root;
			root = n;
		}
	} else {
		root = cparse_cond(&e);
		if (e.i < e.end)
			e.bad = true;
	}
	v = e.bad ? (struct cval){ false, 0 } : ceval(&e, mt, root);
	if (!v.known && assume >= 0 && !e.bad)
		cassume(&e, mt, root, assume == 1);
	free(e.nodes);
	if (!v.known)
		return CXX_COND_UNKNOWN;
	return v.v ? CXX_COND_TRUE : CXX_COND_FALSE;
}
