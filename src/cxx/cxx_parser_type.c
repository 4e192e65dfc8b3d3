/* Type names: `using N = T;`, `typedef T N;`, alias templates and class
 * definitions, recorded in the outline (struct cxx_type) so that the planner
 * can follow a variable's type -- through aliases, std::conditional and the
 * template arguments of a class -- to the class whose methods a call
 * reaches. Nothing here changes how statements or functions are read. */
#include "cxx_parser.h"

#include <string.h>

#include "xalloc.h"

static struct cxx_type *new_type(struct cxx_parser *p, enum cxx_type_kind kind, size_t first, size_t last)
{
	struct cxx_outline *ol = p->ol;
	struct cxx_type *t;

	XGROW(ol->types, p->type_cap, ol->ntypes + 1);
	t = &ol->types[ol->ntypes++];
	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->scope = cxx_outline_strdup(ol, p->scope ? p->scope : "", p->scope_len);
	t->range.start = p->t[first].start;
	t->range.end = p->t[last].end;
	t->func = p->func;
	return t;
}

/* The ';' ending the declaration at i (brackets skipped), or the '}' of the
 * enclosing scope, or `end`. */
static size_t decl_end(const struct cxx_parser *p, size_t i, size_t end)
{
	for (size_t k = i; k < end; k++) {
		if (cxx_is(p, k, CXX_P_SEMI) || cxx_is(p, k, CXX_P_RBRACE))
			return k;
		if (cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET) || cxx_is(p, k, CXX_P_LBRACE)) {
			if (p->match[k] == CXX_NOMATCH || p->match[k] >= end)
				return end;
			k = p->match[k];
		}
	}
	return end;
}

/* `typedef T N;`: the name is the last token; declarators with a top-level
 * comma or parentheses (function pointers) and anonymous bodies are not
 * recorded. */
static void typedef_alias(struct cxx_parser *p, size_t i, size_t semi, size_t first)
{
	size_t name = semi - 1, from = i + 1;
	struct cxx_type *t;

	if (semi < i + 3 || p->t[name].kind != CXX_TOK_IDENT)
		return;
	for (size_t k = from; k < name; k++) {
		if (cxx_is(p, k, CXX_P_COMMA) || cxx_is(p, k, CXX_P_LPAREN))
			return;
		if (cxx_is(p, k, CXX_P_LBRACE)) {
			/* typedef struct Tag { ... } N; -> the tag, when there is one */
			if (k >= from + 2 && p->t[k - 1].kind == CXX_TOK_IDENT &&
			    (cxx_iskw(p, k - 2, CXX_KW_struct) || cxx_iskw(p, k - 2, CXX_KW_class) ||
			     cxx_iskw(p, k - 2, CXX_KW_union))) {
				t = new_type(p, CXX_TYPE_ALIAS, first, semi);
				t->name = cxx_join(p->ol, p->t, name, name + 1);
				t->target = cxx_join(p->ol, p->t, k - 1, k);
			}
			return;
		}
	}
	t = new_type(p, CXX_TYPE_ALIAS, first, semi);
	t->name = cxx_join(p->ol, p->t, name, name + 1);
	t->target = cxx_join(p->ol, p->t, from, name);
}

size_t cxx_parse_alias(struct cxx_parser *p, size_t i, size_t end, size_t tpl_lt, size_t tpl_gt)
{
	size_t semi = decl_end(p, i, end);
	size_t first = tpl_lt != SIZE_MAX && tpl_lt > 0 ? tpl_lt - 1 : i;

	if (semi >= end)
		return end;
	if (cxx_iskw(p, i, CXX_KW_typedef)) {
		typedef_alias(p, i, semi, first);
	} else if (p->t[i + 1].kind == CXX_TOK_IDENT) {
		/* using N = T;  using N [[attr]] = T; (a using-declaration has no '=') */
		size_t eq = i + 2;
		while (cxx_is(p, eq, CXX_P_LBRACKET) && p->match[eq] != CXX_NOMATCH && p->match[eq] < semi)
			eq = p->match[eq] + 1;
		if (cxx_is(p, eq, CXX_P_ASSIGN) && eq + 1 < semi) {
			struct cxx_type *t = new_type(p, CXX_TYPE_ALIAS, first, semi);
			t->name = cxx_join(p->ol, p->t, i + 1, i + 2);
			t->target = cxx_join(p->ol, p->t, eq + 1, semi);
			if (tpl_lt != SIZE_MAX)
				t->template_params = cxx_join(p->ol, p->t, tpl_lt + 1, tpl_gt);
		}
	}
	return cxx_is(p, semi, CXX_P_SEMI) ? semi + 1 : semi;
}

void cxx_record_class(struct cxx_parser *p, size_t first, size_t ck, size_t lb, size_t rb, size_t tpl_lt,
		      size_t tpl_gt)
{
	size_t name = SIZE_MAX, colon = SIZE_MAX;
	struct cxx_type *t;

	for (size_t k = ck + 1; k < lb; k++) {
		if (cxx_is(p, k, CXX_P_COLON)) {
			colon = k;
			break;
		}
		if (cxx_is(p, k, CXX_P_LT) && name != SIZE_MAX) {
			size_t gt = cxx_angle_close(p, k, lb);
			if (gt == SIZE_MAX)
				break;
			k = gt;
			continue;
		}
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET)) && p->match[k] != CXX_NOMATCH &&
		    p->match[k] < lb) {
			k = p->match[k]; /* alignas(16), MACRO(x), [[attr]] */
			continue;
		}
		if (p->t[k].kind == CXX_TOK_IDENT && !cxx_ident_is(p, k, "final") && !cxx_is(p, k + 1, CXX_P_LPAREN))
			name = k;
	}
	if (name == SIZE_MAX)
		return; /* anonymous */
	t = new_type(p, CXX_TYPE_CLASS, first, rb);
	t->name = cxx_join(p->ol, p->t, name, name + 1);
	if (cxx_is(p, name + 1, CXX_P_LT)) {
		size_t gt = cxx_angle_close(p, name + 1, lb);
		if (gt != SIZE_MAX)
			t->template_args = cxx_join(p->ol, p->t, name + 2, gt);
	}
	if (colon != SIZE_MAX && colon + 1 < lb)
		t->target = cxx_join(p->ol, p->t, colon + 1, lb);
	if (tpl_lt != SIZE_MAX)
		t->template_params = cxx_join(p->ol, p->t, tpl_lt + 1, tpl_gt);
}
