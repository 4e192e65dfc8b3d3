/* The preprocessor layer's directive pass: #include, #define and #undef
 * recorded, the branches of each #if group chosen (the rules are in
 * cxx_pp.h; conditions in cxx_pp_expr.c, the macro table in cxx_macros.c). */
#include "cxx_pp.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_macros.h"
#include "cxx_parser.h"
#include "cxx_pp_expr.h"
#include "xalloc.h"

/* ------------------------------------------------ the directive pass */

struct frame {
	size_t cond;
	bool parent_active;
	bool any_taken;
	bool cur_taken;
	size_t branch_cap;
	int forced;        /* the branch a choice takes, or -1 */
	bool every;        /* every arm that can run is taken (see every_arm) */
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

/* The directive name of the PP_BEGIN token at t[k] ("" for none). */
static const char *directive_at(const struct pp *pp, size_t k, size_t *len)
{
	const struct cxx_token *t = pp->all->v;

	*len = 0;
	if (k + 1 >= pp->all->n || !cxx_pp_tok_word(&t[k + 1]))
		return "";
	*len = t[k + 1].end - t[k + 1].start;
	return pp->src + t[k + 1].start;
}

/* Is the code t[a, b) of one arm whole statements: (), [] and {} balanced,
 * ending at ';' or '}' (or empty)? */
static bool whole_statements(const struct cxx_token *t, size_t a, size_t b)
{
	int paren = 0, bracket = 0, brace = 0;

	for (size_t k = a; k < b; k++) {
		if (t[k].kind != CXX_TOK_PUNCT)
			continue;
		paren += t[k].sub == CXX_P_LPAREN ? 1 : t[k].sub == CXX_P_RPAREN ? -1 : 0;
		bracket += t[k].sub == CXX_P_LBRACKET ? 1 : t[k].sub == CXX_P_RBRACKET ? -1 : 0;
		brace += t[k].sub == CXX_P_LBRACE ? 1 : t[k].sub == CXX_P_RBRACE ? -1 : 0;
		if (paren < 0 || bracket < 0 || brace < 0)
			return false;
	}
	return paren == 0 && bracket == 0 && brace == 0 &&
	       (a == b || cxx_tok_punct(&t[b - 1], CXX_P_SEMI) || cxx_tok_punct(&t[b - 1], CXX_P_RBRACE));
}

/* The group whose #if is the directive t[i, j): may every arm of it run?
 * When no condition of the group can be decided (each uses a macro nobody
 * defined, or is #else) and each arm is whole statements with no directive
 * of its own, the build may take any of them, and experts time each: all
 * are scanned, one after the other, and no assumption is made. */
static bool every_arm(const struct pp *pp, const char *directive, size_t i, size_t j)
{
	const struct cxx_token *t = pp->all->v;
	size_t arm = j + 1, k = j + 1;

	if (cxx_pp_decide(t, pp->src, pp->mt, directive, i + 2, j, -1) != CXX_COND_UNKNOWN)
		return false;
	for (; k < pp->all->n; k++) {
		size_t len, e;
		const char *d;
		if (t[k].kind != CXX_TOK_PP_BEGIN)
			continue;
		d = directive_at(pp, k, &len);
		for (e = k + 1; e < pp->all->n && t[e].kind != CXX_TOK_PP_END; e++)
			;
		if (!(cxx_span_is(d, len, "elif") || cxx_span_is(d, len, "else") || cxx_span_is(d, len, "endif")))
			return false; /* a directive inside an arm: nested groups, #define, ... */
		if (!whole_statements(t, arm, k))
			return false;
		if (cxx_span_is(d, len, "endif"))
			return true;
		if (cxx_span_is(d, len, "elif") &&
		    cxx_pp_decide(t, pp->src, pp->mt, "elif", k + 2, e, -1) != CXX_COND_UNKNOWN)
			return false;
		arm = e + 1;
		k = e;
	}
	return false;
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
		br->value = cxx_pp_decide(pp->all->v, pp->src, pp->mt, directive, i + 2, j, f->forced == 0 ? 1 : 0);
		br->taken = f->forced == 0;
	} else if (parent && every_arm(pp, directive, i, j)) {
		f->every = true;
		c->every_arm = true;
		br->value = CXX_COND_UNKNOWN;
		br->taken = true;
	} else if (parent) {
		br->value = cxx_pp_decide(pp->all->v, pp->src, pp->mt, directive, i + 2, j, 1);
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
			br->value = cxx_pp_decide(pp->all->v, pp->src, pp->mt, directive, i + 2, j, br->taken ? 1 : 0);
	} else if (f->parent_active && f->every) {
		br->value = CXX_COND_UNKNOWN;
		br->taken = true;
	} else if (f->parent_active && !f->any_taken) {
		if (strcmp(directive, "else") == 0) {
			br->value = CXX_COND_TRUE;
			br->taken = true;
		} else {
			br->value = cxx_pp_decide(pp->all->v, pp->src, pp->mt, directive, i + 2, j, 1);
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

	if (name >= j || !cxx_pp_tok_word(&t[name])) {
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

	m = cxx_macro_add(pp->mt, pp->src + t[name].start, t[name].end - t[name].start);
	if (m->origin == M_FIXED)
		return;
	m->origin = M_FILE;
	m->state = M_DEFINED;
	m->has_value = body + 1 == j && t[body].kind == CXX_TOK_NUMBER &&
		       cxx_pp_parse_int(pp->src + t[body].start, t[body].end - t[body].start, &m->value);
	m->else_body = mac->params && body < j && cxx_tok_kw(&t[body], CXX_KW_else);
}

static void do_undef(struct pp *pp, size_t i, size_t j)
{
	const struct cxx_token *t = pp->all->v;
	struct macro *m;

	if (i + 2 >= j || !cxx_pp_tok_word(&t[i + 2]))
		return;
	m = cxx_macro_add(pp->mt, pp->src + t[i + 2].start, t[i + 2].end - t[i + 2].start);
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
		if (i + 1 >= j || !cxx_pp_tok_word(&t[i + 1])) {
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
