/* The shape of each trace point and what it names: MoeTracing takes the point
 * and at most two extra arguments; TRACE_POINT takes one string literal label
 * and "B" or "E"; a label is space-separated levels within the policy depth;
 * an identifier passed as an extra argument that the function declares must
 * be declared in a scope holding the point (the field's scripts inserted
 * `MoeTracing(..., groupIdx)` above the loop declaring groupIdx). */
#include <stdlib.h>
#include <string.h>

#include "check_trace.h"
#include "cxx_token.h"
#include "string_literal.h"
#include "token_search.h"
#include "xalloc.h"

struct points_ctx {
	const struct cxx_outline *ol;
	const struct check_label_policy *lp;
	struct diag *diag;
	struct cxx_tokens toks;
	unsigned errors;
	char **labels_reported; /* owned: label errors are given once per label */
	size_t nlabels_reported, cap_labels;
	size_t root_seen;
};

static struct src_loc rloc(const struct points_ctx *c, uint32_t start, uint32_t end)
{
	return src_loc_make(c->ol->file, start, end);
}

/* Index of the first token starting at or after `off`. */
static size_t tok_at(const struct points_ctx *c, uint32_t off)
{
	return token_search(c->toks.v, c->toks.n, sizeof(*c->toks.v), off);
}

/* The value of a plain string literal token (simple escapes), newly allocated;
 * NULL for prefixed, raw or unterminated literals. */
static char *string_value(const struct points_ctx *c, const struct cxx_token *t)
{
	const char *s = c->ol->file->data + t->start, *e = c->ol->file->data + t->end;
	char *out;

	if (t->kind != CXX_TOK_STRING || (t->flags & (CXX_TF_RAW | CXX_TF_UNTERM)) || *s != '"' || e - s < 2)
		return NULL;
	out = xmalloc((size_t)(e - s) - 1);
	string_literal_unescape(s + 1, e - 1, out);
	return out;
}

/* The single token spanning `r`, or NULL. */
static const struct cxx_token *single_token(const struct points_ctx *c, struct cxx_range r)
{
	size_t i = tok_at(c, r.start);

	if (i >= c->toks.n || c->toks.v[i].start != r.start || c->toks.v[i].end != r.end)
		return NULL;
	return &c->toks.v[i];
}

static bool label_reported(struct points_ctx *c, const char *label)
{
	for (size_t i = 0; i < c->nlabels_reported; i++)
		if (strcmp(c->labels_reported[i], label) == 0)
			return true;
	XGROW(c->labels_reported, c->cap_labels, c->nlabels_reported + 1);
	c->labels_reported[c->nlabels_reported++] = xstrdup(label);
	return false;
}

static void check_label(struct points_ctx *c, const char *label, struct src_loc at)
{
	const char *s;
	int words = 1;

	for (size_t i = 0; i < c->lp->nroots; i++)
		if (strcmp(label, c->lp->roots[i].label) == 0) {
			c->root_seen++;
			break;
		}
	for (s = label; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch < 0x20 || ch == 0x7f || ch == '"' || ch == '\\') {
			if (!label_reported(c, label)) {
				c->errors++;
				diag_at(c->diag, DIAG_ERROR, at,
					"label '%s' holds a control character, quote or backslash", label);
			}
			return;
		}
		if (ch == ' ')
			words++;
	}
	if (label[0] == ' ' || s[-1] == ' ' || strstr(label, "  ")) {
		if (!label_reported(c, label)) {
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, at,
				"label '%s' has leading, trailing or repeated spaces (one space separates two levels)",
				label);
		}
		return;
	}
	if (c->lp->depth > 0 && words > c->lp->depth && !label_reported(c, label)) {
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, at, "label '%s' has %d levels; the policy allows at most %d (depth)", label,
			words, c->lp->depth);
	}
}

/* TRACE_POINT("label", "B"|"E"). In a macro body a label that is not a literal
 * (a macro parameter) is a warning: preprocess cannot give it an id. */
static void check_trace_point(struct points_ctx *c, const struct cxx_call *cl, bool in_macro)
{
	const struct cxx_token *lt, *et;
	char *label = NULL, *event = NULL;

	if (cl->nargs != 2) {
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, rloc(c, cl->range.start, cl->range.end),
			"TRACE_POINT takes 2 arguments (a label and \"B\" or \"E\"), not %zu", cl->nargs);
		return;
	}
	lt = single_token(c, cl->arg_ranges[0]);
	et = single_token(c, cl->arg_ranges[1]);
	if (lt)
		label = string_value(c, lt);
	if (et)
		event = string_value(c, et);
	if (!label) {
		if (in_macro) {
			diag_at(c->diag, DIAG_WARNING, rloc(c, cl->arg_ranges[0].start, cl->arg_ranges[0].end),
				"the label of TRACE_POINT is not a string literal: preprocess cannot give this point an id");
		} else {
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, rloc(c, cl->arg_ranges[0].start, cl->arg_ranges[0].end),
				"the label of TRACE_POINT must be one plain string literal");
		}
	} else if (!label[0]) {
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, rloc(c, lt->start, lt->end), "empty trace point label");
	} else {
		check_label(c, label, rloc(c, lt->start, lt->end));
	}
	if (!event || (strcmp(event, "B") != 0 && strcmp(event, "E") != 0)) {
		if (!in_macro || event) {
			c->errors++;
			diag_at(c->diag, DIAG_ERROR, rloc(c, cl->arg_ranges[1].start, cl->arg_ranges[1].end),
				"the event of TRACE_POINT must be \"B\" or \"E\", not %s", cl->args[1]);
		}
	}
	free(label);
	free(event);
}

static bool is_number_text(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F') || *s == 'x' ||
		      *s == 'X' || *s == 'u' || *s == 'U' || *s == 'l' || *s == 'L' || *s == '\''))
			return false;
	return true;
}

static void check_moe_tracing(struct points_ctx *c, const struct cxx_point *p, const struct cxx_call *cl)
{
	struct src_loc at = rloc(c, cl->range.start, cl->range.end);

	if (cl->nargs < 1 || cl->nargs > 3) {
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, at,
			"MoeTracing takes 1 to 3 arguments (the point, then [extraId,] index), not %zu", cl->nargs);
		return;
	}
	if (p->template_args && (strchr(p->template_args, ',') || !p->template_args[0])) {
		c->errors++;
		diag_at(c->diag, DIAG_ERROR, at, "MoeTracing takes one template argument (sync), not <%s>",
			p->template_args);
	}
	if (strncmp(p->data, "TRACE_POINT", 11) == 0 && (p->data[11] == '(' || p->data[11] == ' '))
		return;
	if (is_number_text(p->data)) {
		diag_at(c->diag, DIAG_WARNING, rloc(c, cl->arg_ranges[0].start, cl->arg_ranges[0].end),
			"this point is already preprocessed (id %s): check the sources, not the build tree", p->data);
		return;
	}
	c->errors++;
	diag_at(c->diag, DIAG_ERROR, rloc(c, cl->arg_ranges[0].start, cl->arg_ranges[0].end),
		"the first argument of MoeTracing must be TRACE_POINT(\"label\", \"B\"|\"E\")");
}

/* ---- scope of the extra arguments ---- */

static bool type_keyword(unsigned kw)
{
	switch (kw) {
	case CXX_KW_const: case CXX_KW_volatile: case CXX_KW_static: case CXX_KW_constexpr: case CXX_KW_auto:
	case CXX_KW_bool: case CXX_KW_char: case CXX_KW_short: case CXX_KW_int: case CXX_KW_long:
	case CXX_KW_float: case CXX_KW_double: case CXX_KW_signed: case CXX_KW_unsigned: case CXX_KW_void:
	case CXX_KW_struct: case CXX_KW_class: case CXX_KW_enum: case CXX_KW_typename: case CXX_KW_register:
		return true;
	default:
		return false;
	}
}

/* The identifier a declaration statement in [start, end) declares first, or
 * SIZE_MAX when the statement does not look like a declaration. */
static size_t declared_name(const struct points_ctx *c, uint32_t start, uint32_t end)
{
	size_t i = tok_at(c, start), prev = SIZE_MAX, before = SIZE_MAX;
	int angle = 0;

	for (; i < c->toks.n && c->toks.v[i].start < end; i++) {
		const struct cxx_token *t = &c->toks.v[i];
		if (t->kind == CXX_TOK_PP_BEGIN) {
			while (i < c->toks.n && c->toks.v[i].kind != CXX_TOK_PP_END)
				i++;
			continue;
		}
		if (t->kind == CXX_TOK_KEYWORD && !type_keyword(t->sub))
			return SIZE_MAX;
		if (t->kind == CXX_TOK_PUNCT) {
			if (cxx_tok_punct(t, CXX_P_LT) && prev != SIZE_MAX && c->toks.v[prev].kind == CXX_TOK_IDENT) {
				angle++;
			} else if (angle > 0 && (cxx_tok_punct(t, CXX_P_GT) || cxx_tok_punct(t, CXX_P_SHR))) {
				angle -= cxx_tok_punct(t, CXX_P_SHR) ? 2 : 1;
				if (angle < 0)
					angle = 0;
			} else if (angle == 0) {
				if (cxx_tok_punct(t, CXX_P_DOT) || cxx_tok_punct(t, CXX_P_ARROW))
					return SIZE_MAX;
				if (cxx_tok_punct(t, CXX_P_ASSIGN) || cxx_tok_punct(t, CXX_P_SEMI) ||
				    cxx_tok_punct(t, CXX_P_LBRACE) || cxx_tok_punct(t, CXX_P_LPAREN) ||
				    cxx_tok_punct(t, CXX_P_LBRACKET) || cxx_tok_punct(t, CXX_P_COMMA) ||
				    cxx_tok_punct(t, CXX_P_COLON))
					break;
			}
		}
		before = prev;
		prev = i;
	}
	if (prev == SIZE_MAX || before == SIZE_MAX || c->toks.v[prev].kind != CXX_TOK_IDENT)
		return SIZE_MAX;
	{
		const struct cxx_token *b = &c->toks.v[before];
		if (b->kind == CXX_TOK_IDENT || b->kind == CXX_TOK_KEYWORD || cxx_tok_punct(b, CXX_P_GT) ||
		    cxx_tok_punct(b, CXX_P_SHR) || cxx_tok_punct(b, CXX_P_STAR) || cxx_tok_punct(b, CXX_P_AMP) ||
		    cxx_tok_punct(b, CXX_P_AND))
			return prev;
	}
	return SIZE_MAX;
}

static bool tok_is(const struct points_ctx *c, size_t i, const char *name)
{
	const struct cxx_token *t = &c->toks.v[i];
	return cxx_span_is(c->ol->file->data + t->start, t->end - t->start, name);
}

/* Is statement `anc` (or the function top, CXX_NONE) an enclosing scope of `st`? */
static bool encloses(const struct cxx_body *b, int anc, int st)
{
	for (int k = st; k != CXX_NONE; k = b->stmts[k].parent)
		if (b->stmts[k].parent == anc)
			return true;
	return anc == CXX_NONE;
}

static void check_extra_scope(struct points_ctx *c, const struct cxx_func *fn, const struct cxx_point *p,
			      const struct cxx_call *cl)
{
	const struct cxx_body *b = &fn->body;

	for (size_t a = 1; a < cl->nargs; a++) {
		size_t i = tok_at(c, cl->arg_ranges[a].start);
		for (; i < c->toks.n && c->toks.v[i].start < cl->arg_ranges[a].end; i++) {
			const struct cxx_token *t = &c->toks.v[i], *nx = &c->toks.v[i + 1];
			const char *name = c->ol->file->data + t->start;
			size_t len = t->end - t->start, decl_at = SIZE_MAX;
			bool in_scope = false;
			char *nm;
			if (t->kind != CXX_TOK_IDENT)
				continue;
			if (i > 0 && (cxx_tok_punct(&t[-1], CXX_P_DOT) || cxx_tok_punct(&t[-1], CXX_P_ARROW) ||
				      cxx_tok_punct(&t[-1], CXX_P_SCOPE)))
				continue;
			if (cxx_tok_punct(nx, CXX_P_LPAREN) || cxx_tok_punct(nx, CXX_P_SCOPE) || cxx_tok_punct(nx, CXX_P_LT))
				continue;
			nm = xstrndup(name, len);
			for (size_t k = 0; k < fn->nparams && !in_scope; k++)
				if (fn->params[k].name && strcmp(fn->params[k].name, nm) == 0)
					in_scope = true;
			for (size_t s = 0; s < b->nstmts && !in_scope; s++) {
				const struct cxx_stmt *st = &b->stmts[s];
				size_t d;
				if (st->kind == CXX_STMT_FOR && st->var && strcmp(st->var, nm) == 0) {
					if (encloses(b, (int)s, p->stmt) || (int)s == p->stmt)
						in_scope = true;
					else if (decl_at == SIZE_MAX)
						decl_at = tok_at(c, st->head.start);
					continue;
				}
				if (st->kind != CXX_STMT_EXPR)
					continue;
				d = declared_name(c, st->range.start, st->range.end);
				if (d == SIZE_MAX || !tok_is(c, d, nm))
					continue;
				if (st->range.end <= p->range.start && encloses(b, st->parent, p->stmt))
					in_scope = true;
				else if (decl_at == SIZE_MAX)
					decl_at = d;
			}
			if (!in_scope && decl_at != SIZE_MAX) {
				const struct cxx_token *dt = &c->toks.v[decl_at];
				c->errors++;
				diag_at(c->diag, DIAG_ERROR, rloc(c, t->start, t->end),
					"'%s', passed to this trace point, is not declared in a scope that holds the point", nm);
				if (tok_is(c, decl_at, nm))
					diag_at(c->diag, DIAG_NOTE, rloc(c, dt->start, dt->end), "'%s' is declared here", nm);
				else
					diag_at(c->diag, DIAG_NOTE, rloc(c, dt->start, dt->end),
						"'%s' is declared in this loop header", nm);
			}
			free(nm);
		}
	}
}

static void check_body(struct points_ctx *c, const struct cxx_func *fn, const struct cxx_body *b, bool in_macro)
{
	for (size_t i = 0; i < b->ncalls; i++) {
		const struct cxx_call *cl = &b->calls[i];
		if (strcmp(cl->callee, "TRACE_POINT") == 0)
			check_trace_point(c, cl, in_macro);
	}
	for (size_t i = 0; i < b->npoints; i++) {
		const struct cxx_point *p = &b->points[i];
		const struct cxx_call *cl = &b->calls[p->call];
		check_moe_tracing(c, p, cl);
		if (fn && cl->nargs > 1 && cl->nargs <= 3)
			check_extra_scope(c, fn, p, cl);
	}
}

unsigned check_points(const struct cxx_outline *ol, const struct check_label_policy *lp, size_t *root_seen,
		      struct diag *diag)
{
	struct points_ctx c;

	memset(&c, 0, sizeof(c));
	c.ol = ol;
	c.lp = lp;
	c.diag = diag;
	cxx_tokenize(ol->file->data, ol->file->len, &c.toks);
	/* the runtime's own definitions (MoeTracing overloads forwarding to one
	 * another, MoeTracingRecord...) call MoeTracing with a record word, not a
	 * trace point */
	for (size_t i = 0; i < ol->nfuncs; i++)
		if (ol->funcs[i].def == CXX_DEF_BODY && strncmp(ol->funcs[i].name, "MoeTracing", 10) != 0)
			check_body(&c, &ol->funcs[i], &ol->funcs[i].body, false);
	for (size_t i = 0; i < ol->nmacros; i++)
		if (strncmp(ol->macros[i].name, "MoeTracing", 10) != 0 && strncmp(ol->macros[i].name, "MOE_TRACING", 11) != 0)
			check_body(&c, NULL, &ol->macros[i].body, true);
	cxx_tokens_release(&c.toks);
	for (size_t i = 0; i < c.nlabels_reported; i++)
		free(c.labels_reported[i]);
	free(c.labels_reported);
	if (root_seen)
		*root_seen += c.root_seen;
	return c.errors;
}

bool check_defines_runtime(const struct cxx_outline *ol)
{
	for (size_t i = 0; i < ol->nfuncs; i++)
		if (strcmp(ol->funcs[i].name, "MoeTracing") == 0)
			return true;
	for (size_t i = 0; i < ol->nmacros; i++)
		if (strcmp(ol->macros[i].name, "MoeTracing") == 0)
			return true;
	return false;
}

bool check_uses_runtime(const struct cxx_outline *ol, struct cxx_range *first)
{
	bool found = false;

	for (size_t i = 0; i < ol->nfuncs; i++) {
		const struct cxx_body *b = &ol->funcs[i].body;
		for (size_t k = 0; k < b->ncalls; k++) {
			const struct cxx_call *cl = &b->calls[k];
			if (strcmp(cl->name, "MoeTracing") != 0 && strcmp(cl->callee, "TRACE_POINT") != 0)
				continue;
			if (!found || cl->range.start < first->start)
				*first = cl->range;
			found = true;
		}
	}
	return found;
}
