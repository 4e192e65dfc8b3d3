/* Structure a compiler would reject, found before a 20-minute build:
 * brackets that do not balance in the #if branches the scanner chose,
 * #if/#elif/#else/#endif that do not pair, and `#if ENABLE_MOE_PROFILING`
 * guards whose branches open or close brackets they do not also close or
 * open (the code compiles with profiling on and breaks with it off, or the
 * other way round). */
#include <stdlib.h>
#include <string.h>

#include "check_trace.h"
#include "cxx_token.h"
#include "xalloc.h"

#define MAX_UNCLOSED_REPORTS 3

struct group {
	size_t dir;        /* token index of the '#' of the #if */
	size_t branch_dir; /* of the current branch's directive */
	size_t else_dir;   /* of its #else, or SIZE_MAX */
	bool guard;        /* the condition names ENABLE_MOE_PROFILING */
	bool taken;        /* the current branch was chosen */
	bool outer_active; /* every enclosing branch was chosen */
	size_t depth;      /* bracket depth when the current branch began */
	size_t escaped;    /* the first closer in the branch of a bracket opened before it, or SIZE_MAX */
	size_t escaped_open; /* that bracket */
};

struct src_ctx {
	const struct cxx_outline *ol;
	struct diag *diag;
	struct cxx_tokens toks;
	unsigned errors;
	size_t *brackets;  /* token indices of the open brackets */
	size_t nbrackets, cap_brackets;
	struct group *groups;
	size_t ngroups, cap_groups;
};

static const char *dir_name(const struct src_ctx *c, size_t i, char *buf, size_t size);

static struct src_loc tloc(const struct src_ctx *c, size_t i)
{
	return src_loc_make(c->ol->file, c->toks.v[i].start, c->toks.v[i].end);
}

/* The whole directive line starting at the '#' token `i`. */
static struct src_loc dloc(const struct src_ctx *c, size_t i)
{
	size_t k = i;

	while (k + 1 < c->toks.n && c->toks.v[k + 1].kind != CXX_TOK_PP_END)
		k++;
	return src_loc_make(c->ol->file, c->toks.v[i].start, c->toks.v[k].end);
}

static size_t line_of(const struct src_ctx *c, size_t i)
{
	return src_file_line(c->ol->file, c->toks.v[i].start);
}

static bool active(const struct src_ctx *c)
{
	if (c->ngroups == 0)
		return true;
	return c->groups[c->ngroups - 1].outer_active && c->groups[c->ngroups - 1].taken;
}

/* Was the directive at token `i` a taken branch, according to the outline? */
static bool branch_taken(const struct src_ctx *c, size_t i)
{
	uint32_t off = c->toks.v[i].start;

	for (size_t k = 0; k < c->ol->nconds; k++) {
		const struct cxx_cond *g = &c->ol->conds[k];
		if (off < g->range.start || off >= g->range.end)
			continue;
		for (size_t b = 0; b < g->nbranches; b++)
			if (off >= g->branches[b].range.start && off < g->branches[b].range.end)
				return g->branches[b].taken;
	}
	return false;
}

static int branch_brace_delta(const struct src_ctx *c, size_t i)
{
	uint32_t off = c->toks.v[i].start;

	for (size_t k = 0; k < c->ol->nconds; k++) {
		const struct cxx_cond *g = &c->ol->conds[k];
		for (size_t b = 0; b < g->nbranches; b++)
			if (off >= g->branches[b].range.start && off < g->branches[b].range.end)
				return g->branches[b].brace_delta;
	}
	return 0;
}

static char bracket_char(const struct cxx_token *t)
{
	return cxx_punct_text((enum cxx_punct)t->sub)[0];
}

static bool is_open(const struct cxx_token *t)
{
	return cxx_tok_punct(t, CXX_P_LPAREN) || cxx_tok_punct(t, CXX_P_LBRACKET) || cxx_tok_punct(t, CXX_P_LBRACE);
}

static bool is_close(const struct cxx_token *t)
{
	return cxx_tok_punct(t, CXX_P_RPAREN) || cxx_tok_punct(t, CXX_P_RBRACKET) || cxx_tok_punct(t, CXX_P_RBRACE);
}

static char opener_of(char close)
{
	return close == ')' ? '(' : close == ']' ? '[' : '{';
}

static void on_close(struct src_ctx *c, size_t i)
{
	char want = opener_of(bracket_char(&c->toks.v[i]));
	size_t k;

	if (c->nbrackets && bracket_char(&c->toks.v[c->brackets[c->nbrackets - 1]]) == want) {
		c->nbrackets--;
		for (size_t g = c->ngroups; g-- > 0;) {
			struct group *gr = &c->groups[g];
			if (gr->guard && gr->taken && c->nbrackets < gr->depth && gr->escaped == SIZE_MAX) {
				gr->escaped = i;
				gr->escaped_open = c->brackets[c->nbrackets];
			}
		}
		return;
	}
	c->errors++;
	if (c->nbrackets == 0) {
		diag_at(c->diag, DIAG_ERROR, tloc(c, i), "unmatched '%c'", bracket_char(&c->toks.v[i]));
		return;
	}
	diag_at(c->diag, DIAG_ERROR, tloc(c, i), "'%c' does not close the '%c' of line %zu",
		bracket_char(&c->toks.v[i]), bracket_char(&c->toks.v[c->brackets[c->nbrackets - 1]]),
		line_of(c, c->brackets[c->nbrackets - 1]));
	diag_at(c->diag, DIAG_NOTE, tloc(c, c->brackets[c->nbrackets - 1]), "'%c' opened here",
		bracket_char(&c->toks.v[c->brackets[c->nbrackets - 1]]));
	/* recover: close up to a matching opener, if any */
	for (k = c->nbrackets; k-- > 0;)
		if (bracket_char(&c->toks.v[c->brackets[k]]) == want) {
			c->nbrackets = k;
			return;
		}
}

/* The current branch of guard `g` ends at directive `at`. */
static void end_guard_branch(struct src_ctx *c, const struct group *g, size_t at)
{
	char name[16];

	if (!g->guard)
		return;
	if (g->taken && g->outer_active) {
		if (c->nbrackets > g->depth) {
			size_t open = c->brackets[g->depth];
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, tloc(c, open),
				"'%c' opened under the profiling guard of line %zu is not closed before its #%s",
				bracket_char(&c->toks.v[open]), line_of(c, g->branch_dir),
				dir_name(c, at, name, sizeof(name)));
			diag_at(c->diag, DIAG_NOTE, dloc(c, g->branch_dir), "the guard is here");
		} else if (g->escaped != SIZE_MAX) {
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, tloc(c, g->escaped),
				"'%c' under the profiling guard of line %zu closes the '%c' of line %zu, opened before the guard",
				bracket_char(&c->toks.v[g->escaped]), line_of(c, g->branch_dir),
				bracket_char(&c->toks.v[g->escaped_open]), line_of(c, g->escaped_open));
			diag_at(c->diag, DIAG_NOTE, dloc(c, g->branch_dir), "the guard is here");
		}
	} else if (branch_brace_delta(c, g->branch_dir) != 0) {
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, dloc(c, g->branch_dir),
			"the braces of this branch of a profiling guard do not balance (%+d)",
			branch_brace_delta(c, g->branch_dir));
	}
}

/* The name of the directive whose '#' is token `i` ("if", "else", ...). */
static const char *dir_name(const struct src_ctx *c, size_t i, char *buf, size_t size)
{
	const struct cxx_token *t = &c->toks.v[i + 1];
	size_t n = t->end - t->start;

	if (t->kind == CXX_TOK_PP_END)
		n = 0;
	if (n >= size)
		n = size - 1;
	memcpy(buf, c->ol->file->data + t->start, n);
	buf[n] = '\0';
	return buf;
}

static bool names_guard(const struct src_ctx *c, size_t i)
{
	for (i++; i < c->toks.n && c->toks.v[i].kind != CXX_TOK_PP_END; i++) {
		const struct cxx_token *t = &c->toks.v[i];
		if (t->kind == CXX_TOK_IDENT &&
		    cxx_span_is(c->ol->file->data + t->start, t->end - t->start, "ENABLE_MOE_PROFILING"))
			return true;
	}
	return false;
}

static bool dir_is(const struct src_ctx *c, size_t i, const char *name)
{
	const struct cxx_token *t = &c->toks.v[i];
	return (t->kind == CXX_TOK_IDENT || t->kind == CXX_TOK_KEYWORD) &&
	       cxx_span_is(c->ol->file->data + t->start, t->end - t->start, name);
}

static void on_directive(struct src_ctx *c, size_t i)
{
	size_t d = i + 1;
	struct group *g;

	if (d >= c->toks.n || c->toks.v[d].kind == CXX_TOK_PP_END)
		return;
	if (dir_is(c, d, "if") || dir_is(c, d, "ifdef") || dir_is(c, d, "ifndef")) {
		bool outer = active(c);
		XGROW(c->groups, c->cap_groups, c->ngroups + 1);
		g = &c->groups[c->ngroups++];
		g->dir = g->branch_dir = i;
		g->else_dir = SIZE_MAX;
		g->guard = !dir_is(c, d, "ifndef") && names_guard(c, d);
		g->outer_active = outer;
		g->taken = outer && branch_taken(c, i);
		g->depth = c->nbrackets;
		g->escaped = g->escaped_open = SIZE_MAX;
		return;
	}
	if (dir_is(c, d, "elif") || dir_is(c, d, "elifdef") || dir_is(c, d, "elifndef") || dir_is(c, d, "else")) {
		bool is_else = dir_is(c, d, "else");
		if (c->ngroups == 0) {
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, dloc(c, i), "#%s without #if",
				is_else ? "else" : "elif");
			return;
		}
		g = &c->groups[c->ngroups - 1];
		if (g->else_dir != SIZE_MAX) {
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, dloc(c, i), "#%s after #else", is_else ? "else" : "elif");
			diag_at(c->diag, DIAG_NOTE, dloc(c, g->else_dir), "the #else is here");
		}
		end_guard_branch(c, g, i);
		if (is_else)
			g->else_dir = i;
		g->branch_dir = i;
		g->taken = g->outer_active && branch_taken(c, i);
		g->depth = c->nbrackets;
		g->escaped = g->escaped_open = SIZE_MAX;
		return;
	}
	if (dir_is(c, d, "endif")) {
		if (c->ngroups == 0) {
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, dloc(c, i), "#endif without #if");
			return;
		}
		g = &c->groups[c->ngroups - 1];
		end_guard_branch(c, g, i);
		c->ngroups--;
	}
}

unsigned check_source(const struct cxx_outline *ol, struct diag *diag)
{
	struct src_ctx c;

	memset(&c, 0, sizeof(c));
	c.ol = ol;
	c.diag = diag;
	cxx_tokenize(ol->file->data, ol->file->len, &c.toks);
	for (size_t i = 0; i < c.toks.n; i++) {
		const struct cxx_token *t = &c.toks.v[i];
		if (t->kind == CXX_TOK_PP_BEGIN) {
			on_directive(&c, i);
			while (i + 1 < c.toks.n && c.toks.v[i].kind != CXX_TOK_PP_END)
				i++;
			continue;
		}
		if (t->kind != CXX_TOK_PUNCT || !active(&c))
			continue;
		if (is_open(t)) {
			XGROW(c.brackets, c.cap_brackets, c.nbrackets + 1);
			c.brackets[c.nbrackets++] = i;
		} else if (is_close(t)) {
			on_close(&c, i);
		}
	}
	while (c.ngroups > 0) {
		const struct group *g = &c.groups[--c.ngroups];
		char name[16];
		c.errors++;
		if (g->guard)
			diag_at(diag, DIAG_ERROR, dloc(&c, g->dir), "this profiling guard has no #endif");
		else
			diag_at(diag, DIAG_ERROR, dloc(&c, g->dir), "#%s without #endif",
				dir_name(&c, g->dir, name, sizeof(name)));
	}
	for (size_t k = 0; k < c.nbrackets && k < MAX_UNCLOSED_REPORTS; k++) {
		c.errors++;
		diag_at(diag, DIAG_ERROR, tloc(&c, c.brackets[c.nbrackets - 1 - k]), "'%c' is never closed",
			bracket_char(&c.toks.v[c.brackets[c.nbrackets - 1 - k]]));
	}
	cxx_tokens_release(&c.toks);
	free(c.brackets);
	free(c.groups);
	return c.errors;
}
