/* Building, checking and freeing the outline of a C++ file: tokenize, run
 * the preprocessor layer, outline the macro bodies, then the code of the
 * chosen #if branches. */
#include "cxx_outline.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_parser.h"
#include "xalloc.h"

/* ------------------------------------------------------------ brackets */

static enum cxx_punct closer_of(unsigned op)
{
	return op == CXX_P_LPAREN ? CXX_P_RPAREN : op == CXX_P_LBRACKET ? CXX_P_RBRACKET : CXX_P_RBRACE;
}

void cxx_match_brackets(const struct cxx_token *t, size_t n, uint32_t *match)
{
	uint32_t *stack = NULL;
	size_t depth = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		match[i] = CXX_NOMATCH;
		if (t[i].kind != CXX_TOK_PUNCT)
			continue;
		switch (t[i].sub) {
		case CXX_P_LPAREN:
		case CXX_P_LBRACKET:
		case CXX_P_LBRACE:
			XGROW(stack, cap, depth + 1);
			stack[depth++] = (uint32_t)i;
			break;
		case CXX_P_RPAREN:
		case CXX_P_RBRACKET:
		case CXX_P_RBRACE: {
			size_t d = depth;
			while (d > 0 && closer_of(t[stack[d - 1]].sub) != t[i].sub)
				d--;
			/* a brace closer does not reach through an unclosed brace, and a
			 * paren or bracket closer never pops a brace */
			if (d == 0)
				break;
			for (size_t k = d; k < depth; k++)
				if (t[stack[k]].sub == CXX_P_LBRACE && t[i].sub != CXX_P_RBRACE)
					goto no_match;
			match[i] = stack[d - 1];
			match[stack[d - 1]] = (uint32_t)i;
			depth = d - 1;
no_match:
			break;
		}
		default:
			break;
		}
	}
	match[n] = CXX_NOMATCH;
	free(stack);
}

/* ------------------------------------------------------------ building */

static void parse_macro_body(struct cxx_outline *ol, const struct cxx_tokens *all, struct cxx_macro *mac,
			     const struct cxx_pp_define *def, struct cxx_macro_table *mt, struct diag *diag)
{
	struct cxx_parser p;
	size_t n = def->body_end - def->body_begin;

	if (n == 0)
		return;
	memset(&p, 0, sizeof(p));
	p.ol = ol;
	p.diag = diag;
	p.src = ol->file->data;
	p.t = all->v + def->body_begin;
	p.n = n;
	p.match = xmalloc((n + 1) * sizeof(*p.match));
	p.mt = mt;
	p.body = &mac->body;
	p.lambda = CXX_NONE;
	p.func = CXX_NONE;
	cxx_match_brackets(p.t, n, p.match);
	cxx_parse_expr(&p, 0, n, CXX_NONE);
	free(p.match);
	free(p.jumps);
}

/* Sets ol->balanced. When the chosen #if branches leave braces unbalanced,
 * the groups whose branches change the brace depth differently are the
 * likely cause: each is reported (the parser reports the braces). */
static void check_balance(struct cxx_outline *ol, const struct cxx_tokens *act, const uint32_t *match,
			  struct diag *diag)
{
	ol->balanced = true;
	for (size_t i = 0; i < act->n && ol->balanced; i++) {
		const struct cxx_token *t = &act->v[i];
		if (t->kind == CXX_TOK_PUNCT && (t->sub == CXX_P_LBRACE || t->sub == CXX_P_RBRACE) &&
		    match[i] == CXX_NOMATCH)
			ol->balanced = false;
	}
	if (ol->balanced)
		return;
	for (size_t c = 0; c < ol->nconds; c++) {
		const struct cxx_cond *cd = &ol->conds[c];
		if (!cd->split_braces)
			continue;
		cxx_warn(ol, diag, cd->branches[0].range.start, cd->branches[0].range.end,
			 "the branches of this #%s change the brace depth differently and the chosen ones "
			 "leave braces unbalanced; choose others with -D/-U",
			 cd->branches[0].directive);
	}
}

struct cxx_outline *cxx_outline_build(const struct src_file *file, struct cxx_macro_table *macros,
				      struct diag *diag)
{
	return cxx_outline_build_choosing(file, macros, NULL, 0, diag);
}

struct cxx_outline *cxx_outline_build_choosing(const struct src_file *file, struct cxx_macro_table *macros,
					       const struct cxx_branch_choice *choices, size_t nchoices,
					       struct diag *diag)
{
	struct cxx_outline *ol = xcalloc(1, sizeof(*ol));
	struct cxx_macro_table *own = NULL;
	struct cxx_tokens all = { 0 }, act = { 0 };
	struct cxx_pp_define *defs = NULL;
	struct cxx_parser p;

	ol->file = file;
	ol->arena = cxx_arena_new();
	ol->balanced = true;
	if (!macros)
		macros = own = cxx_macros_new();

	cxx_tokenize(file->data, file->len, &all);
	cxx_pp_run(ol, &all, macros, choices, nchoices, &act, &defs, diag);
	for (size_t m = 0; m < ol->nmacros; m++)
		parse_macro_body(ol, &all, &ol->macros[m], &defs[m], macros, diag);
	free(defs);
	cxx_tokens_release(&all);

	memset(&p, 0, sizeof(p));
	p.ol = ol;
	p.diag = diag;
	p.src = file->data;
	p.t = act.v;
	p.n = act.n;
	p.match = xmalloc((act.n + 1) * sizeof(*p.match));
	p.mt = macros;
	p.lambda = CXX_NONE;
	p.func = CXX_NONE;
	cxx_match_brackets(act.v, act.n, p.match);
	check_balance(ol, &act, p.match, diag);
	cxx_parse_scope(&p, 0, act.n, false, false);

	free(p.match);
	free(p.jumps);
	free(p.scope);
	cxx_tokens_release(&act);
	cxx_macros_free(own);
	return ol;
}

static void body_free(struct cxx_body *b)
{
	free(b->stmts);
	free(b->calls);
	free(b->points);
}

void cxx_outline_free(struct cxx_outline *ol)
{
	if (!ol)
		return;
	for (size_t i = 0; i < ol->nconds; i++)
		free(ol->conds[i].branches);
	for (size_t i = 0; i < ol->nmacros; i++)
		body_free(&ol->macros[i].body);
	for (size_t i = 0; i < ol->nfuncs; i++) {
		free(ol->funcs[i].params);
		body_free(&ol->funcs[i].body);
	}
	free(ol->includes);
	free(ol->conds);
	free(ol->macros);
	free(ol->funcs);
	free(ol->types);
	free(ol->unfollowed);
	cxx_arena_free(ol->arena);
	free(ol);
}

/* ------------------------------------------------------------ names */

/* The names of the outline's enums, one X-macro table each. */

const char *cxx_stmt_kind_name(enum cxx_stmt_kind kind)
{
	static const char *const names[] = {
#define CXX_STMT_NAME_(id, name) name,
		CXX_STMT_KIND_LIST(CXX_STMT_NAME_)
#undef CXX_STMT_NAME_
	};
	return (unsigned)kind < CXX_STMT_COUNT ? names[kind] : "?";
}

const char *cxx_arm_kind_name(enum cxx_arm_kind kind)
{
	switch (kind) {
	case CXX_ARM_IF: return "if";
	case CXX_ARM_ELSE_IF: return "else if";
	case CXX_ARM_ELSE: return "else";
	case CXX_ARM_MACRO: return "macro";
	}
	return "?";
}

const char *cxx_construct_name(enum cxx_construct c)
{
	static const char *const names[] = {
#define CXX_CONSTRUCT_NAME_(id, name) name,
		CXX_CONSTRUCT_LIST(CXX_CONSTRUCT_NAME_)
#undef CXX_CONSTRUCT_NAME_
	};
	return (unsigned)c < CXX_CONSTRUCT_COUNT ? names[c] : "?";
}

const char *cxx_include_status_name(enum cxx_include_status st)
{
	switch (st) {
	case CXX_INC_UNRESOLVED: return "unresolved";
	case CXX_INC_FOLLOWED: return "followed";
	case CXX_INC_OUTSIDE: return "outside";
	case CXX_INC_MISSING: return "missing";
	case CXX_INC_SYSTEM: return "system";
	case CXX_INC_INACTIVE: return "inactive";
	}
	return "?";
}

/* ------------------------------------------------------------ validation */

static bool range_ok(struct cxx_range r, size_t len)
{
	return r.start <= r.end && r.end <= len;
}

static bool inside(struct cxx_range in, struct cxx_range out)
{
	return in.start >= out.start && in.end <= out.end;
}

#define FAIL(...)                                        \
	do {                                                 \
		snprintf(why, size, __VA_ARGS__);                \
		return -1;                                       \
	} while (0)

static int validate_body(const struct cxx_outline *ol, const struct cxx_body *b, struct cxx_range outer,
			 const char *what, char *why, size_t size)
{
	const char *d = ol->file->data;

	for (size_t s = 0; s < b->nstmts; s++) {
		const struct cxx_stmt *st = &b->stmts[s];
		struct cxx_range pr = outer;
		if (!range_ok(st->range, ol->file->len) || st->range.start == st->range.end)
			FAIL("%s: statement %zu has a bad range", what, s);
		if (st->parent != CXX_NONE) {
			if (st->parent < 0 || (size_t)st->parent >= s)
				FAIL("%s: statement %zu has parent %d", what, s, st->parent);
			pr = b->stmts[st->parent].range;
		}
		if (!inside(st->range, pr))
			FAIL("%s: statement %zu [%u,%u) is not inside its parent [%u,%u)", what, s,
			     st->range.start, st->range.end, pr.start, pr.end);
		if (st->body.end > st->body.start) {
			if (!inside(st->body, st->range))
				FAIL("%s: statement %zu: body outside the statement", what, s);
			if (st->braced && (d[st->body.start] != '{' || d[st->body.end - 1] != '}'))
				FAIL("%s: statement %zu: braced body not delimited by braces", what, s);
		}
		if (st->head.end > st->head.start && !inside(st->head, st->range))
			FAIL("%s: statement %zu: head outside the statement", what, s);
		if ((st->kind == CXX_STMT_BREAK || st->kind == CXX_STMT_CONTINUE || st->kind == CXX_STMT_RETURN) &&
		    st->owner != CXX_NONE && (st->owner < 0 || (size_t)st->owner >= s))
			FAIL("%s: statement %zu: bad owner %d", what, s, st->owner);
	}
	for (size_t c = 0; c < b->ncalls; c++) {
		const struct cxx_call *cl = &b->calls[c];
		if (!range_ok(cl->range, ol->file->len) || !inside(cl->args_range, cl->range))
			FAIL("%s: call %zu has a bad range", what, c);
		if (cl->stmt != CXX_NONE && (cl->stmt < 0 || (size_t)cl->stmt >= b->nstmts))
			FAIL("%s: call %zu: bad statement %d", what, c, cl->stmt);
		if (!cl->callee || !cl->name)
			FAIL("%s: call %zu has no callee", what, c);
	}
	for (size_t k = 0; k < b->npoints; k++) {
		const struct cxx_point *pt = &b->points[k];
		if (pt->call < 0 || (size_t)pt->call >= b->ncalls)
			FAIL("%s: point %zu: bad call %d", what, k, pt->call);
	}
	return 0;
}

int cxx_outline_validate(const struct cxx_outline *ol, char *why, size_t size)
{
	size_t len = ol->file->len;
	const char *d = ol->file->data;

	for (size_t i = 0; i < ol->nincludes; i++)
		if (!range_ok(ol->includes[i].range, len) || !ol->includes[i].name)
			FAIL("include %zu: bad range or name", i);
	for (size_t i = 0; i < ol->nconds; i++) {
		const struct cxx_cond *c = &ol->conds[i];
		if (!range_ok(c->range, len) || c->nbranches == 0)
			FAIL("conditional %zu: bad range", i);
		if (c->parent != CXX_NONE && (c->parent < 0 || (size_t)c->parent >= i))
			FAIL("conditional %zu: bad parent", i);
	}
	for (size_t i = 0; i < ol->nmacros; i++) {
		const struct cxx_macro *m = &ol->macros[i];
		if (!range_ok(m->range, len) || !inside(m->body_range, m->range))
			FAIL("macro %zu: bad range", i);
		if (validate_body(ol, &m->body, m->range, m->name, why, size) < 0)
			return -1;
	}
	for (size_t i = 0; i < ol->ntypes; i++) {
		const struct cxx_type *t = &ol->types[i];
		if (!range_ok(t->range, len) || !t->name || !t->scope)
			FAIL("type %zu: bad range or name", i);
		if (t->func != CXX_NONE && (t->func < 0 || (size_t)t->func >= ol->nfuncs))
			FAIL("type %zu (%s): bad function %d", i, t->name, t->func);
	}
	for (size_t i = 0; i < ol->nfuncs; i++) {
		const struct cxx_func *f = &ol->funcs[i];
		if (!range_ok(f->range, len) || !inside(f->name_range, f->range) ||
		    !inside(f->params_range, f->range) || !inside(f->body_range, f->range))
			FAIL("function %zu (%s): bad range", i, f->name);
		if (f->def == CXX_DEF_BODY &&
		    (d[f->body_range.start] != '{' || d[f->body_range.end - 1] != '}'))
			FAIL("function %zu (%s): body not delimited by braces", i, f->name);
		if (d[f->params_range.start] != '(' || d[f->params_range.end - 1] != ')')
			FAIL("function %zu (%s): parameters not delimited by parentheses", i, f->name);
		if (validate_body(ol, &f->body, f->body_range, f->name, why, size) < 0)
			return -1;
	}
	return 0;
}
