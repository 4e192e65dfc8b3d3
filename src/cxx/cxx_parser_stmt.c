/* Statements inside function bodies: blocks, if/else chains (with
 * `if constexpr`, `if ASCEND_IS_AIC {` and macros that expand to
 * `else if ...`), loops and their variables, switch/case, jumps with their
 * owners, inline asm, macro invocations used as statements (with a block
 * of their own: `FOR_EACH_TILE(i, n) {`, `__VEC_SCOPE__ {`). */
#include "cxx_parser.h"

#include <string.h>

#include "xalloc.h"

int cxx_add_stmt(struct cxx_parser *p, enum cxx_stmt_kind kind, int parent, size_t first, size_t last)
{
	struct cxx_body *b = p->body;
	struct cxx_stmt *s;

	XGROW(b->stmts, p->stmt_cap, b->nstmts + 1);
	s = &b->stmts[b->nstmts];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->parent = parent;
	s->range.start = p->t[first].start;
	s->range.end = p->t[last].end;
	s->owner = CXX_NONE;
	return (int)b->nstmts++;
}

static struct cxx_stmt *st(struct cxx_parser *p, int idx)
{
	return &p->body->stmts[idx];
}

static void set_head(struct cxx_parser *p, int idx, size_t a, size_t b)
{
	struct cxx_stmt *s = st(p, idx);

	if (a < b) {
		s->head.start = p->t[a].start;
		s->head.end = p->t[b - 1].end;
		s->text = cxx_join(p->ol, p->t, a, b);
	} else {
		s->head.start = s->head.end = p->t[a].start;
		s->text = "";
	}
}

static void push_jump(struct cxx_parser *p, int idx)
{
	XGROW(p->jumps, p->jumps_cap, p->njumps + 1);
	p->jumps[p->njumps++] = idx;
}

static void fail(struct cxx_parser *p, size_t at, const char *why)
{
	if (p->failed)
		return;
	p->failed = true;
	cxx_warn(p->ol, p->diag, p->t[at].start, p->t[at].end, "%s", why);
}

/* Parses a controlled body (braced or a single statement) from i as a child
 * of `owner`; records its range; returns the index after it. */
static size_t parse_body(struct cxx_parser *p, size_t i, size_t end, int owner)
{
	size_t next;

	if (i >= end) {
		st(p, owner)->body.start = st(p, owner)->body.end = p->t[i > 0 ? i - 1 : 0].end;
		return end;
	}
	if (cxx_is(p, i, CXX_P_LBRACE)) {
		size_t m = p->match[i];
		if (m == CXX_NOMATCH || m >= end) {
			fail(p, i, "'}' expected to close this '{'; the function is left out");
			return end;
		}
		st(p, owner)->braced = true;
		st(p, owner)->body.start = p->t[i].start;
		st(p, owner)->body.end = p->t[m].end;
		cxx_parse_stmts(p, i + 1, m, owner);
		return m + 1;
	}
	next = cxx_parse_stmt(p, i, end, owner);
	st(p, owner)->body.start = p->t[i].start;
	st(p, owner)->body.end = p->t[next - 1].end;
	return next;
}

static void finish_range(struct cxx_parser *p, int idx, size_t last)
{
	if (st(p, idx)->range.end < p->t[last].end)
		st(p, idx)->range.end = p->t[last].end;
}

/* A `NAME(...)` at i used as a statement: no ';' follows the ')'. */
/* `NAME;` where NAME is an object-like macro of the file whose replacement
 * makes calls (`#define INIT_AND_PROCESS op.Init(...); op.Process()` in the
 * kernel entry): recorded as a call of NAME with no arguments, which the
 * planner follows into the macro's calls as it does a function-like macro's. */
static bool object_macro_use(struct cxx_parser *p, size_t i, int stmt)
{
	const struct cxx_token *t = &p->t[i];
	size_t len = t->end - t->start, idx;
	struct cxx_call *cl;

	if (t->kind != CXX_TOK_IDENT || !cxx_is(p, i + 1, CXX_P_SEMI))
		return false;
	for (size_t m = 0; m < p->ol->nmacros; m++) {
		const struct cxx_macro *mac = &p->ol->macros[m];
		if (mac->params || mac->body.ncalls == 0 || strlen(mac->name) != len ||
		    memcmp(mac->name, p->src + t->start, len) != 0)
			continue;
		idx = cxx_add_call(p, i, SIZE_MAX, i, stmt);
		cl = &p->body->calls[idx];
		cl->callee = cl->name = mac->name;
		return true;
	}
	return false;
}

static bool macro_invocation(const struct cxx_parser *p, size_t i, size_t end, size_t *rp)
{
	size_t m;
	const struct cxx_token *nx;

	if (p->t[i].kind != CXX_TOK_IDENT || !cxx_is(p, i + 1, CXX_P_LPAREN))
		return false;
	m = p->match[i + 1];
	if (m == CXX_NOMATCH || m >= end)
		return false;
	if (m + 1 >= end) {
		*rp = m;
		return cxx_is_macro_name(p, i);
	}
	nx = &p->t[m + 1];
	if (nx->kind == CXX_TOK_PUNCT && nx->sub != CXX_P_LBRACE && nx->sub != CXX_P_RBRACE)
		return false;
	*rp = m;
	return true;
}

/* Can the macro invocations starting at i continue an if chain? True when a
 * macro is known to expand to `else ...`, or when capitalised invocations
 * lead to an `else`. */
static bool macro_arm(const struct cxx_parser *p, size_t i, size_t end)
{
	size_t rp;

	if (!macro_invocation(p, i, end, &rp))
		return false;
	if (cxx_macros_is_else(p->mt, p->src + p->t[i].start, p->t[i].end - p->t[i].start))
		return true;
	while (cxx_is_macro_name(p, i) && macro_invocation(p, i, end, &rp)) {
		i = rp + 1;
		if (i < end && cxx_iskw(p, i, CXX_KW_else))
			return true;
	}
	return false;
}

static size_t parse_if(struct cxx_parser *p, size_t i, size_t end, int parent)
{
	int chain = cxx_add_stmt(p, CXX_STMT_IF, parent, i, i);
	size_t k = i;
	bool first = true;

	while (k < end && !p->failed) {
		size_t a = k, h0, h1, bstart;
		enum cxx_arm_kind kind;
		bool is_constexpr = false;
		int arm;

		if (cxx_iskw(p, k, CXX_KW_if)) {
			kind = first ? CXX_ARM_IF : CXX_ARM_ELSE_IF;
			k++;
		} else if (cxx_iskw(p, k, CXX_KW_else)) {
			if (cxx_iskw(p, k + 1, CXX_KW_if) && k + 1 < end) {
				kind = CXX_ARM_ELSE_IF;
				k += 2;
			} else {
				arm = cxx_add_stmt(p, CXX_STMT_ARM, chain, a, a);
				st(p, arm)->arm = CXX_ARM_ELSE;
				set_head(p, arm, k + 1, k + 1);
				k = parse_body(p, k + 1, end, arm);
				finish_range(p, arm, k - 1);
				finish_range(p, chain, k - 1);
				return k;
			}
		} else {
			size_t rp;
			/* a macro that expands to `else if ...` */
			if (!macro_invocation(p, k, end, &rp))
				break;
			arm = cxx_add_stmt(p, CXX_STMT_ARM, chain, k, rp);
			st(p, arm)->arm = CXX_ARM_MACRO;
			set_head(p, arm, k, rp + 1);
			st(p, arm)->body.start = st(p, arm)->body.end = p->t[rp].end;
			cxx_parse_expr(p, k, rp + 1, arm);
			finish_range(p, chain, rp);
			k = rp + 1;
			first = false;
			if (k < end && (cxx_iskw(p, k, CXX_KW_else) || macro_arm(p, k, end)))
				continue;
			return k;
		}
		if (cxx_iskw(p, k, CXX_KW_constexpr) || cxx_iskw(p, k, CXX_KW_consteval)) {
			is_constexpr = true;
			k++;
		}
		if (cxx_is(p, k, CXX_P_NOT) && cxx_iskw(p, k + 1, CXX_KW_consteval))
			k += 2;
		if (cxx_is(p, k, CXX_P_LPAREN) && p->match[k] != CXX_NOMATCH && p->match[k] < end) {
			h0 = k + 1;
			h1 = p->match[k];
			bstart = h1 + 1;
		} else {
			/* `if ASCEND_IS_AIC {`: the condition runs to the brace */
			h0 = k;
			for (h1 = k; h1 < end && !cxx_is(p, h1, CXX_P_LBRACE) && !cxx_is(p, h1, CXX_P_SEMI); h1++)
				if (cxx_is(p, h1, CXX_P_LPAREN) && p->match[h1] != CXX_NOMATCH && p->match[h1] < end)
					h1 = p->match[h1];
			bstart = h1;
		}
		arm = cxx_add_stmt(p, CXX_STMT_ARM, chain, a, a);
		st(p, arm)->arm = kind;
		st(p, arm)->is_constexpr = is_constexpr;
		set_head(p, arm, h0, h1);
		cxx_parse_head(p, h0, h1, arm);
		k = parse_body(p, bstart, end, arm);
		finish_range(p, arm, k - 1);
		finish_range(p, chain, k - 1);
		first = false;
		if (k < end && (cxx_iskw(p, k, CXX_KW_else) || macro_arm(p, k, end)))
			continue;
		break;
	}
	return k > i ? k : i + 1;
}

/* The loop variable of a for header [a, b). */
static const char *for_var(struct cxx_parser *p, size_t a, size_t b)
{
	size_t semi = SIZE_MAX, semi2 = SIZE_MAX;

	for (size_t k = a; k < b; k++) {
		const struct cxx_token *t = &p->t[k];
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACE)) && p->match[k] != CXX_NOMATCH &&
		    p->match[k] < b) {
			if (semi == SIZE_MAX && cxx_is(p, k, CXX_P_LBRACE) && k > a && p->t[k - 1].kind == CXX_TOK_IDENT)
				return cxx_join(p->ol, p->t, k - 1, k);
			k = p->match[k];
			continue;
		}
		if (cxx_tok_punct(t, CXX_P_COLON) && semi == SIZE_MAX) {
			/* range-for: the name (or [a, b] binding) before ':' */
			if (k > a && cxx_is(p, k - 1, CXX_P_RBRACKET) && p->match[k - 1] != CXX_NOMATCH)
				return cxx_join(p->ol, p->t, p->match[k - 1], k);
			if (k > a && p->t[k - 1].kind == CXX_TOK_IDENT)
				return cxx_join(p->ol, p->t, k - 1, k);
			return NULL;
		}
		if (cxx_tok_punct(t, CXX_P_ASSIGN) && semi == SIZE_MAX) {
			if (k > a && p->t[k - 1].kind == CXX_TOK_IDENT)
				return cxx_join(p->ol, p->t, k - 1, k);
			return NULL;
		}
		if (cxx_tok_punct(t, CXX_P_SEMI)) {
			if (semi == SIZE_MAX)
				semi = k;
			else if (semi2 == SIZE_MAX)
				semi2 = k;
		}
	}
	if (semi != SIZE_MAX && semi2 != SIZE_MAX) {
		/* `for (; i < n; ++i)`: the first name of the increment */
		for (size_t k = semi2 + 1; k < b; k++)
			if (p->t[k].kind == CXX_TOK_IDENT)
				return cxx_join(p->ol, p->t, k, k + 1);
	}
	return NULL;
}

static size_t parse_loop(struct cxx_parser *p, size_t i, size_t end, int parent, enum cxx_stmt_kind kind)
{
	int s = cxx_add_stmt(p, kind, parent, i, i);
	size_t k = i + 1, lp;

	if (kind == CXX_STMT_DO) {
		push_jump(p, s);
		k = parse_body(p, k, end, s);
		p->njumps--;
		if (k < end && cxx_iskw(p, k, CXX_KW_while) && cxx_is(p, k + 1, CXX_P_LPAREN) &&
		    p->match[k + 1] != CXX_NOMATCH && p->match[k + 1] < end) {
			lp = k + 1;
			set_head(p, s, lp + 1, p->match[lp]);
			cxx_parse_expr(p, lp + 1, p->match[lp], s);
			k = p->match[lp] + 1;
			if (k < end && cxx_is(p, k, CXX_P_SEMI))
				k++;
		} else {
			set_head(p, s, k < end ? k : end - 1, k < end ? k : end - 1);
		}
		finish_range(p, s, k - 1);
		return k;
	}
	if (!cxx_is(p, k, CXX_P_LPAREN) || p->match[k] == CXX_NOMATCH || p->match[k] >= end) {
		/* `for` without a header: read it as a plain statement */
		p->body->stmts[s].kind = CXX_STMT_EXPR;
		k = cxx_skip_to_semi(p, i + 1, end);
		finish_range(p, s, k - 1);
		return k;
	}
	lp = k;
	set_head(p, s, lp + 1, p->match[lp]);
	if (kind == CXX_STMT_FOR)
		st(p, s)->var = for_var(p, lp + 1, p->match[lp]);
	cxx_parse_head(p, lp + 1, p->match[lp], s);
	push_jump(p, s);
	k = parse_body(p, p->match[lp] + 1, end, s);
	p->njumps--;
	finish_range(p, s, k - 1);
	return k;
}

static int jump_owner(const struct cxx_parser *p, bool is_continue)
{
	for (size_t k = p->njumps; k > 0; k--) {
		int idx = p->jumps[k - 1];
		if (!is_continue || p->body->stmts[idx].kind != CXX_STMT_SWITCH)
			return idx;
	}
	return CXX_NONE;
}

/* `case X:` or `default:` at i; returns the index of its ':'. */
static size_t case_colon(const struct cxx_parser *p, size_t i, size_t end)
{
	int ternary = 0;

	for (size_t k = i + 1; k < end; k++) {
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET)) && p->match[k] != CXX_NOMATCH &&
		    p->match[k] < end) {
			k = p->match[k];
			continue;
		}
		if (cxx_is(p, k, CXX_P_QUESTION))
			ternary++;
		else if (cxx_is(p, k, CXX_P_COLON) && ternary-- == 0)
			return k;
		else if (cxx_is(p, k, CXX_P_SEMI) || cxx_is(p, k, CXX_P_LBRACE) || cxx_is(p, k, CXX_P_RBRACE))
			return k - 1;
	}
	return end - 1;
}

void cxx_parse_stmts(struct cxx_parser *p, size_t i, size_t end, int parent)
{
	while (i < end && !p->failed)
		i = cxx_parse_stmt(p, i, end, parent);
}

size_t cxx_parse_stmt(struct cxx_parser *p, size_t i, size_t end, int parent)
{
	const struct cxx_token *t = &p->t[i];
	size_t k, rp;
	int s;

	if (p->depth >= CXX_MAX_DEPTH) {
		fail(p, i, "statements nested too deeply to follow; the function is left out");
		return end;
	}
	p->depth++;
	k = i + 1;
	if (t->kind == CXX_TOK_PUNCT) {
		switch (t->sub) {
		case CXX_P_SEMI:
		case CXX_P_RBRACE:
		case CXX_P_RPAREN:
		case CXX_P_RBRACKET:
			goto out;
		case CXX_P_LBRACE:
			s = cxx_add_stmt(p, CXX_STMT_BLOCK, parent, i, i);
			k = parse_body(p, i, end, s);
			finish_range(p, s, k - 1);
			goto out;
		default:
			break;
		}
	} else if (t->kind == CXX_TOK_KEYWORD) {
		switch (t->sub) {
		case CXX_KW_if:
		case CXX_KW_else:
			k = parse_if(p, i, end, parent);
			goto out;
		case CXX_KW_for:
			k = parse_loop(p, i, end, parent, CXX_STMT_FOR);
			goto out;
		case CXX_KW_while:
			k = parse_loop(p, i, end, parent, CXX_STMT_WHILE);
			goto out;
		case CXX_KW_do:
			k = parse_loop(p, i, end, parent, CXX_STMT_DO);
			goto out;
		case CXX_KW_switch:
			k = parse_loop(p, i, end, parent, CXX_STMT_SWITCH);
			goto out;
		case CXX_KW_return:
			k = cxx_skip_to_semi(p, i + 1, end);
			s = cxx_add_stmt(p, CXX_STMT_RETURN, parent, i, k - 1);
			st(p, s)->owner = p->lambda;
			cxx_parse_expr(p, i + 1, k, s);
			goto out;
		case CXX_KW_break:
		case CXX_KW_continue:
			k = cxx_skip_to_semi(p, i + 1, end);
			s = cxx_add_stmt(p, t->sub == CXX_KW_break ? CXX_STMT_BREAK : CXX_STMT_CONTINUE, parent, i,
					 k - 1);
			st(p, s)->owner = jump_owner(p, t->sub == CXX_KW_continue);
			goto out;
		case CXX_KW_goto:
			k = cxx_skip_to_semi(p, i + 1, end);
			s = cxx_add_stmt(p, CXX_STMT_GOTO, parent, i, k - 1);
			set_head(p, s, i + 1, k > i + 1 && cxx_is(p, k - 1, CXX_P_SEMI) ? k - 1 : k);
			goto out;
		case CXX_KW_case:
		case CXX_KW_default:
			k = case_colon(p, i, end);
			s = cxx_add_stmt(p, CXX_STMT_CASE, parent, i, k);
			set_head(p, s, t->sub == CXX_KW_case ? i + 1 : i, t->sub == CXX_KW_case ? k : i + 1);
			k++;
			goto out;
		case CXX_KW_asm:
		case CXX_KW_gnu_asm:
		case CXX_KW_gnu_asm2:
			k = cxx_skip_to_semi(p, i + 1, end);
			cxx_add_stmt(p, CXX_STMT_ASM, parent, i, k - 1);
			goto out;
		case CXX_KW_using:
		case CXX_KW_typedef:
			/* a local alias: recorded for the planner; the statement does no work */
			k = cxx_skip_to_semi(p, i + 1, end);
			cxx_parse_alias(p, i, k, SIZE_MAX, SIZE_MAX);
			cxx_add_stmt(p, CXX_STMT_EXPR, parent, i, k - 1);
			goto out;
		case CXX_KW_struct:
		case CXX_KW_class:
		case CXX_KW_union:
		case CXX_KW_enum:
			k = cxx_skip_to_semi(p, i + 1, end);
			cxx_add_stmt(p, CXX_STMT_TYPE, parent, i, k - 1);
			goto out;
		case CXX_KW_try:
			s = cxx_add_stmt(p, CXX_STMT_BLOCK, parent, i, i);
			k = parse_body(p, i + 1, end, s);
			while (k < end && cxx_iskw(p, k, CXX_KW_catch) && cxx_is(p, k + 1, CXX_P_LPAREN) &&
			       p->match[k + 1] != CXX_NOMATCH && p->match[k + 1] + 1 < end) {
				int c = cxx_add_stmt(p, CXX_STMT_BLOCK, parent, k, k);
				k = parse_body(p, p->match[k + 1] + 1, end, c);
				finish_range(p, c, k - 1);
			}
			finish_range(p, s, k - 1);
			goto out;
		default:
			break;
		}
	} else if (t->kind == CXX_TOK_IDENT) {
		if (cxx_is(p, i + 1, CXX_P_COLON) && i + 1 < end) {
			s = cxx_add_stmt(p, CXX_STMT_LABEL, parent, i, i + 1);
			set_head(p, s, i, i + 1);
			k = i + 2;
			goto out;
		}
		if (cxx_is_macro_name(p, i) && cxx_is(p, i + 1, CXX_P_LBRACE) && p->match[i + 1] != CXX_NOMATCH &&
		    p->match[i + 1] < end && !(p->match[i + 1] + 1 < end && p->t[p->match[i + 1] + 1].kind == CXX_TOK_PUNCT &&
					       p->t[p->match[i + 1] + 1].sub != CXX_P_LBRACE &&
					       p->t[p->match[i + 1] + 1].sub != CXX_P_RBRACE)) {
			/* __VEC_SCOPE__ { ... }: an object-like macro that opens a scope
			   (not NAME{...}; nor NAME{...}.f(): a braced initialiser) */
			s = cxx_add_stmt(p, CXX_STMT_MACRO, parent, i, i);
			set_head(p, s, i, i + 1);
			k = parse_body(p, i + 1, end, s);
			finish_range(p, s, k - 1);
			goto out;
		}
		if (macro_invocation(p, i, end, &rp)) {
			s = cxx_add_stmt(p, CXX_STMT_MACRO, parent, i, rp);
			set_head(p, s, i, i + 1);
			cxx_parse_expr(p, i, rp + 1, s);
			k = rp + 1;
			if (k < end && cxx_is(p, k, CXX_P_LBRACE) && cxx_is_macro_name(p, i)) {
				/* FOR_EACH_TILE(i, n) { ... } */
				k = parse_body(p, k, end, s);
				finish_range(p, s, k - 1);
			}
			goto out;
		}
	}
	k = cxx_skip_to_semi(p, i, end);
	s = cxx_add_stmt(p, CXX_STMT_EXPR, parent, i, k - 1);
	if (k == i + 2 && object_macro_use(p, i, s))
		goto out;
	if (!cxx_parse_declaration(p, i, k, s))
		cxx_parse_expr(p, i, k, s);
out:
	p->depth--;
	return k > i ? k : i + 1;
}
