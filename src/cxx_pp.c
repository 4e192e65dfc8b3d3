/* The preprocessor layer: directives, the choice of #if branches (the rules
 * are in cxx_pp.h) and the macro table that keeps the choices consistent
 * across the files of one scan. */
#include "cxx_pp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_parser.h"
#include "index_table.h"
#include "xalloc.h"

/* ---------------------------------------------------------------- macros */

enum macro_state { M_DEFINED, M_UNDEFINED };
enum macro_origin { M_NEW, M_FILE, M_ASSUMED, M_FIXED }; /* M_NEW: just added */

struct macro {
	char *name;
	size_t len;
	unsigned char state;
	unsigned char origin;
	bool has_value;
	bool else_body;
	long long value;
};

/* The macros in order of first mention, indexed by name. A pointer into v
 * is good until the next macro_add. */
struct cxx_macro_table {
	struct macro *v;
	size_t n, cap;
	struct index_table index;
};

struct macro_key {
	const struct cxx_macro_table *mt;
	const char *s;
	size_t len;
};

static bool same_macro(const void *ctx, size_t item)
{
	const struct macro_key *k = ctx;
	const struct macro *m = &k->mt->v[item];
	return m->len == k->len && memcmp(m->name, k->s, k->len) == 0;
}

struct cxx_macro_table *cxx_macros_new(void)
{
	return xcalloc(1, sizeof(struct cxx_macro_table));
}

void cxx_macros_free(struct cxx_macro_table *mt)
{
	if (!mt)
		return;
	for (size_t i = 0; i < mt->n; i++)
		free(mt->v[i].name);
	free(mt->v);
	index_table_free(&mt->index);
	free(mt);
}

static struct macro *macro_find(const struct cxx_macro_table *mt, const char *s, size_t len)
{
	struct macro_key key = { mt, s, len };
	size_t k = index_table_find(&mt->index, index_hash_bytes(s, len), same_macro, &key);

	return k == SIZE_MAX ? NULL : &mt->v[k];
}

static struct macro *macro_add(struct cxx_macro_table *mt, const char *s, size_t len)
{
	struct macro_key key = { mt, s, len };
	uint64_t h = index_hash_bytes(s, len);
	size_t k = index_table_find(&mt->index, h, same_macro, &key);
	struct macro *m;

	if (k != SIZE_MAX)
		return &mt->v[k];
	XGROW(mt->v, mt->cap, mt->n + 1);
	m = &mt->v[mt->n];
	memset(m, 0, sizeof(*m));
	m->name = xstrndup(s, len);
	m->len = len;
	index_table_add(&mt->index, h, mt->n++);
	return m;
}

static bool is_ident(const char *s, size_t len)
{
	if (len == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* Parses a preprocessor integer (suffixes ignored); false when it is not one. */
static bool parse_int(const char *s, size_t len, long long *out)
{
	unsigned long long v = 0;
	unsigned base = 10;
	size_t i = 0;

	if (len == 0 || s[0] < '0' || s[0] > '9')
		return false;
	if (len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, i = 2;
	else if (len > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, i = 2;
	else if (s[0] == '0')
		base = 8;
	for (; i < len; i++) {
		unsigned d;
		char c = s[i];
		if (c == '\'')
			continue;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		v = v * base + d;
	}
	for (; i < len; i++)
		if (!strchr("uUlLzZ", s[i]))
			return false;
	*out = (long long)v;
	return true;
}

int cxx_macros_define(struct cxx_macro_table *mt, const char *spec)
{
	const char *eq = strchr(spec, '=');
	size_t len = eq ? (size_t)(eq - spec) : strlen(spec);
	struct macro *m;

	if (!is_ident(spec, len))
		return -1;
	m = macro_add(mt, spec, len);
	m->state = M_DEFINED;
	m->origin = M_FIXED;
	m->has_value = true;
	m->value = 1;
	if (eq && !parse_int(eq + 1, strlen(eq + 1), &m->value))
		m->has_value = false;
	return 0;
}

int cxx_macros_undef(struct cxx_macro_table *mt, const char *name)
{
	struct macro *m;

	if (!is_ident(name, strlen(name)))
		return -1;
	m = macro_add(mt, name, strlen(name));
	m->state = M_UNDEFINED;
	m->origin = M_FIXED;
	m->has_value = false;
	return 0;
}

bool cxx_macros_is_else(const struct cxx_macro_table *mt, const char *name, size_t len)
{
	const struct macro *m = mt ? macro_find(mt, name, len) : NULL;

	return m && m->state == M_DEFINED && m->else_body;
}

/* ------------------------------------------------ #if expressions */

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
		if (!parse_int(e->src + tk->start, tk->end - tk->start, &e->nodes[n].v))
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
	return macro_find(mt, e->src + tk->start, tk->end - tk->start);
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
		if (macro_find(mt, e->src + tk->start, tk->end - tk->start))
			return;
		m = macro_add(mt, e->src + tk->start, tk->end - tk->start);
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

/* ------------------------------------------------ the directive pass */

struct frame {
	size_t cond;
	bool parent_active;
	bool any_taken;
	bool cur_taken;
	size_t branch_cap;
	int forced;        /* the branch a choice takes, or -1 */
};

struct pp {
	struct cxx_outline *ol;
	const struct cxx_tokens *all;
	const char *src;
	struct cxx_macro_table *mt;
	struct diag *diag;
	struct frame *frames;
	size_t nframes, frames_cap;
	size_t inc_cap, cond_cap, mac_cap;
	struct cxx_pp_define *defs;
	const struct cxx_branch_choice *choices;
	size_t nchoices;
};

static bool active_now(const struct pp *pp)
{
	const struct frame *f;

	if (pp->nframes == 0)
		return true;
	f = &pp->frames[pp->nframes - 1];
	return f->parent_active && f->cur_taken;
}

static bool tok_word(const struct cxx_token *t)
{
	return t->kind == CXX_TOK_IDENT || t->kind == CXX_TOK_KEYWORD;
}

/* Evaluates the condition of directive `name` over tokens [a, b); when it
 * cannot be decided, `assume` 1 (0) records the assumptions that make it
 * true (false), -1 none. */
static enum cxx_cond_value decide(struct pp *pp, const char *name, size_t a, size_t b, int assume)
{
	struct cexpr e = { pp->all->v, pp->src, a, b, NULL, 0, 0, 0, false };
	int root;
	struct cval v;
	bool negate = false;

	if (strcmp(name, "ifdef") == 0 || strcmp(name, "ifndef") == 0 || strcmp(name, "elifdef") == 0 ||
	    strcmp(name, "elifndef") == 0) {
		negate = strstr(name, "ndef") != NULL;
		if (a < b && tok_word(&pp->all->v[a])) {
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
	v = e.bad ? (struct cval){ false, 0 } : ceval(&e, pp->mt, root);
	if (!v.known && assume >= 0 && !e.bad)
		cassume(&e, pp->mt, root, assume == 1);
	free(e.nodes);
	if (!v.known)
		return CXX_COND_UNKNOWN;
	return v.v ? CXX_COND_TRUE : CXX_COND_FALSE;
}

static struct cxx_cond_branch *add_branch(struct pp *pp, struct frame *f, const char *directive, size_t i,
					  size_t j)
{
	struct cxx_cond *c = &pp->ol->conds[f->cond];
	const struct cxx_token *t = pp->all->v;
	struct cxx_cond_branch *br;

	XGROW(c->branches, f->branch_cap, c->nbranches + 1);
	br = &c->branches[c->nbranches++];
	memset(br, 0, sizeof(*br));
	br->range.start = t[i].start;
	br->range.end = t[j].start;
	br->directive = directive;
	br->condition = i + 2 < j ? cxx_join(pp->ol, t, i + 2, j) : "";
	br->value = CXX_COND_SKIPPED;
	return br;
}

static void open_group(struct pp *pp, const char *directive, size_t i, size_t j)
{
	struct frame *f;
	struct cxx_cond *c;
	struct cxx_cond_branch *br;
	bool parent = active_now(pp);

	XGROW(pp->ol->conds, pp->cond_cap, pp->ol->nconds + 1);
	c = &pp->ol->conds[pp->ol->nconds];
	memset(c, 0, sizeof(*c));
	c->range.start = pp->all->v[i].start;
	c->range.end = pp->all->v[j].start;
	c->parent = pp->nframes ? (int)pp->frames[pp->nframes - 1].cond : CXX_NONE;
	XGROW(pp->frames, pp->frames_cap, pp->nframes + 1);
	f = &pp->frames[pp->nframes++];
	memset(f, 0, sizeof(*f));
	f->cond = pp->ol->nconds++;
	f->parent_active = parent;
	f->forced = -1;
	for (size_t k = 0; k < pp->nchoices; k++)
		if (pp->choices[k].group_start == c->range.start)
			f->forced = (int)pp->choices[k].branch;
	br = add_branch(pp, f, directive, i, j);
	if (parent && f->forced >= 0) {
		/* chosen: what it implies is assumed, so that later groups agree */
		br->value = decide(pp, directive, i + 2, j, f->forced == 0 ? 1 : 0);
		br->taken = f->forced == 0;
	} else if (parent) {
		br->value = decide(pp, directive, i + 2, j, 1);
		br->taken = br->value != CXX_COND_FALSE;
	}
	f->cur_taken = br->taken;
	f->any_taken = br->taken;
}

static void next_branch(struct pp *pp, const char *directive, size_t i, size_t j)
{
	struct frame *f;
	struct cxx_cond_branch *br;
	const struct cxx_token *t = pp->all->v;

	if (pp->nframes == 0) {
		cxx_warn(pp->ol, pp->diag, t[i].start, t[j].start, "#%s without #if", directive);
		return;
	}
	f = &pp->frames[pp->nframes - 1];
	br = add_branch(pp, f, directive, i, j);
	if (f->parent_active && f->forced >= 0) {
		size_t k = pp->ol->conds[f->cond].nbranches - 1;
		br->taken = (size_t)f->forced == k;
		if (strcmp(directive, "else") == 0)
			br->value = br->taken ? CXX_COND_TRUE : CXX_COND_FALSE;
		else if ((size_t)f->forced >= k)
			br->value = decide(pp, directive, i + 2, j, br->taken ? 1 : 0);
	} else if (f->parent_active && !f->any_taken) {
		if (strcmp(directive, "else") == 0) {
			br->value = CXX_COND_TRUE;
			br->taken = true;
		} else {
			br->value = decide(pp, directive, i + 2, j, 1);
			br->taken = br->value != CXX_COND_FALSE;
		}
	}
	f->cur_taken = br->taken;
	f->any_taken |= br->taken;
}

static void close_group(struct pp *pp, uint32_t end)
{
	struct frame *f = &pp->frames[pp->nframes - 1];
	struct cxx_cond *c = &pp->ol->conds[f->cond];
	bool has_else = false;
	int carry = c->branches[0].brace_delta;

	c->range.end = end;
	for (size_t b = 0; b < c->nbranches; b++) {
		if (c->branches[b].brace_delta != c->branches[0].brace_delta)
			c->split_braces = true;
		if (strcmp(c->branches[b].directive, "else") == 0)
			has_else = true;
		if (c->branches[b].taken)
			carry = c->branches[b].brace_delta;
	}
	if (!has_else && c->branches[0].brace_delta != 0)
		c->split_braces = true;
	pp->nframes--;
	if (pp->nframes) {
		struct frame *up = &pp->frames[pp->nframes - 1];
		struct cxx_cond *uc = &pp->ol->conds[up->cond];
		uc->branches[uc->nbranches - 1].brace_delta += carry;
	}
}

static void do_define(struct pp *pp, size_t i, size_t j)
{
	const struct cxx_token *t = pp->all->v;
	struct cxx_outline *ol = pp->ol;
	struct cxx_macro *mac;
	struct macro *m;
	size_t name = i + 2, body = i + 3;

	if (name >= j || !tok_word(&t[name])) {
		cxx_warn(ol, pp->diag, t[i].start, t[j].start, "#define without a macro name");
		return;
	}
	XGROW(ol->macros, pp->mac_cap, ol->nmacros + 1);
	pp->defs = xrealloc(pp->defs, pp->mac_cap * sizeof(*pp->defs));
	mac = &ol->macros[ol->nmacros];
	memset(mac, 0, sizeof(*mac));
	mac->name = cxx_join(ol, t, name, name + 1);
	mac->range.start = t[i].start;
	mac->range.end = t[j].start;
	if (body < j && cxx_tok_punct(&t[body], CXX_P_LPAREN) && t[body].start == t[name].end) {
		size_t k = body + 1;
		while (k < j && !cxx_tok_punct(&t[k], CXX_P_RPAREN))
			k++;
		mac->params = k > body + 1 ? cxx_join(ol, t, body + 1, k) : "";
		body = k < j ? k + 1 : j;
	}
	mac->body_range.start = body < j ? t[body].start : t[j].start;
	mac->body_range.end = body < j ? t[j - 1].end : t[j].start;
	for (size_t k = body; k < j; k++) {
		if (cxx_tok_punct(&t[k], CXX_P_SEMI) || cxx_tok_punct(&t[k], CXX_P_LBRACE) ||
		    cxx_tok_kw(&t[k], CXX_KW_do) || cxx_tok_kw(&t[k], CXX_KW_else) || cxx_tok_kw(&t[k], CXX_KW_if) ||
		    cxx_tok_kw(&t[k], CXX_KW_for) || cxx_tok_kw(&t[k], CXX_KW_while) ||
		    cxx_tok_kw(&t[k], CXX_KW_return)) {
			mac->has_code = true;
			break;
		}
	}
	pp->defs[ol->nmacros].body_begin = body < j ? body : j;
	pp->defs[ol->nmacros].body_end = j;
	ol->nmacros++;

	m = macro_add(pp->mt, pp->src + t[name].start, t[name].end - t[name].start);
	if (m->origin == M_FIXED)
		return;
	m->origin = M_FILE;
	m->state = M_DEFINED;
	m->has_value = body + 1 == j && t[body].kind == CXX_TOK_NUMBER &&
		       parse_int(pp->src + t[body].start, t[body].end - t[body].start, &m->value);
	m->else_body = mac->params && body < j && cxx_tok_kw(&t[body], CXX_KW_else);
}

static void do_undef(struct pp *pp, size_t i, size_t j)
{
	const struct cxx_token *t = pp->all->v;
	struct macro *m;

	if (i + 2 >= j || !tok_word(&t[i + 2]))
		return;
	m = macro_add(pp->mt, pp->src + t[i + 2].start, t[i + 2].end - t[i + 2].start);
	if (m->origin == M_FIXED)
		return;
	m->origin = M_FILE;
	m->state = M_UNDEFINED;
	m->has_value = false;
	m->else_body = false;
}

static void do_include(struct pp *pp, size_t i, size_t j)
{
	const struct cxx_token *t = pp->all->v;
	struct cxx_outline *ol = pp->ol;
	struct cxx_include *inc;
	size_t k = i + 2;

	XGROW(ol->includes, pp->inc_cap, ol->nincludes + 1);
	inc = &ol->includes[ol->nincludes++];
	memset(inc, 0, sizeof(*inc));
	inc->range.start = t[i].start;
	inc->range.end = t[j].start;
	inc->active = active_now(pp);
	inc->status = inc->active ? CXX_INC_UNRESOLVED : CXX_INC_INACTIVE;
	if (k < j && (t[k].kind == CXX_TOK_HEADER ||
		      (t[k].kind == CXX_TOK_STRING && t[k].end - t[k].start >= 2 && pp->src[t[k].start] == '"'))) {
		inc->system = t[k].kind == CXX_TOK_HEADER;
		inc->name = cxx_outline_strdup(ol, pp->src + t[k].start + 1, t[k].end - t[k].start - 2);
	} else {
		inc->name = k < j ? cxx_join(ol, t, k, j) : "";
		if (inc->active)
			cxx_warn(ol, pp->diag, t[i].start, t[j].start, "#include of a macro name is not followed");
	}
}

void cxx_pp_run(struct cxx_outline *ol, const struct cxx_tokens *all, struct cxx_macro_table *mt,
		const struct cxx_branch_choice *choices, size_t nchoices, struct cxx_tokens *active,
		struct cxx_pp_define **defs, struct diag *diag)
{
	struct pp pp;
	const struct cxx_token *t = all->v;
	size_t i = 0;

	memset(&pp, 0, sizeof(pp));
	pp.choices = choices;
	pp.nchoices = nchoices;
	pp.ol = ol;
	pp.all = all;
	pp.src = ol->file->data;
	pp.mt = mt;
	pp.diag = diag;
	active->n = 0;
	XGROW(active->v, active->cap, all->n + 1);

	while (i < all->n) {
		size_t j, nlen;
		const char *name;

		if (t[i].kind != CXX_TOK_PP_BEGIN) {
			if (t[i].kind == CXX_TOK_PUNCT && (t[i].sub == CXX_P_LBRACE || t[i].sub == CXX_P_RBRACE) &&
			    pp.nframes) {
				struct cxx_cond *c = &ol->conds[pp.frames[pp.nframes - 1].cond];
				c->branches[c->nbranches - 1].brace_delta += t[i].sub == CXX_P_LBRACE ? 1 : -1;
			}
			if (active_now(&pp))
				active->v[active->n++] = t[i];
			i++;
			continue;
		}
		for (j = i + 1; j < all->n && t[j].kind != CXX_TOK_PP_END; j++)
			;
		if (i + 1 >= j || !tok_word(&t[i + 1])) {
			i = j + 1; /* a null directive or `# 12 "file"` */
			continue;
		}
		name = pp.src + t[i + 1].start;
		nlen = t[i + 1].end - t[i + 1].start;
		if (cxx_span_is(name, nlen, "if") || cxx_span_is(name, nlen, "ifdef") ||
		    cxx_span_is(name, nlen, "ifndef")) {
			open_group(&pp, nlen == 2 ? "if" : nlen == 5 ? "ifdef" : "ifndef", i, j);
		} else if (cxx_span_is(name, nlen, "elif")) {
			next_branch(&pp, "elif", i, j);
		} else if (cxx_span_is(name, nlen, "elifdef")) {
			next_branch(&pp, "elifdef", i, j);
		} else if (cxx_span_is(name, nlen, "elifndef")) {
			next_branch(&pp, "elifndef", i, j);
		} else if (cxx_span_is(name, nlen, "else")) {
			next_branch(&pp, "else", i, j);
		} else if (cxx_span_is(name, nlen, "endif")) {
			if (pp.nframes == 0)
				cxx_warn(ol, diag, t[i].start, t[j].start, "#endif without #if");
			else
				close_group(&pp, t[j].start);
		} else if (cxx_span_is(name, nlen, "include") || cxx_span_is(name, nlen, "include_next") ||
			   cxx_span_is(name, nlen, "import")) {
			do_include(&pp, i, j); /* listed even when not taken */
		} else if (!active_now(&pp)) {
			/* other directives in branches not taken have no effect */
		} else if (cxx_span_is(name, nlen, "define")) {
			do_define(&pp, i, j);
		} else if (cxx_span_is(name, nlen, "undef")) {
			do_undef(&pp, i, j);
		}
		i = j + 1;
	}
	while (pp.nframes) {
		struct cxx_cond *c = &ol->conds[pp.frames[pp.nframes - 1].cond];
		cxx_warn(ol, diag, c->branches[0].range.start, c->branches[0].range.end,
			 "unterminated #%s", c->branches[0].directive);
		close_group(&pp, (uint32_t)ol->file->len);
	}
	active->v[active->n] = t[all->n];
	free(pp.frames);
	*defs = pp.defs;
}
