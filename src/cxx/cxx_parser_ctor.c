/* Constructions: the objects of a class type that a function body makes,
 * recorded as calls of the class's constructors (struct cxx_call,
 * `constructs`) so that the planner can follow them into the constructor:
 * variable declarations (`T a(args);`, `T a{args};`, `T a;`,
 * `T a = {args};`), new-expressions, `T{args}` temporaries and a
 * constructor's mem-initializers.
 *
 * Builtin and scalar types (`int`, `uint32_t`, `half`, GM_ADDR), pointers
 * and references make no object, nor does an `extern` declaration or
 * `T f();` (a function). A copy-initialisation `T a = expr;` is not recorded:
 * what makes the object is the expression, whose calls are. The syntax
 * cannot tell a class from a template parameter or a library type: those
 * are recorded, and the planner finds no constructor for them. */
#include "cxx_parser.h"

#include <string.h>

/* Identifiers of types that are never classes. */
static const char *const scalar_names[] = {
	"int8_t",   "int16_t",  "int32_t",  "int64_t",    "uint8_t",    "uint16_t",   "uint32_t",
	"uint64_t", "size_t",   "ssize_t",  "ptrdiff_t",  "intptr_t",   "uintptr_t",  "wchar_t",
	"char16_t", "char32_t", "half",     "bfloat16_t", "float16_t",  "hifloat8_t", "fp8_e4m3fn_t",
	"fp8_e5m2_t", "int4b_t", "GM_ADDR", NULL,
};

static bool is_scalar_name(const struct cxx_parser *p, size_t i)
{
	const struct cxx_token *t = &p->t[i];
	const char *s = p->src + t->start;
	size_t n = t->end - t->start;

	/* (the names end in "_t", but for half and GM_ADDR) */
	if (!(n > 2 && s[n - 2] == '_' && s[n - 1] == 't') && n != 4 && n != 7)
		return false;
	for (int k = 0; scalar_names[k]; k++)
		if (cxx_span_is(s, n, scalar_names[k]))
			return true;
	return false;
}

static bool is_builtin_type(const struct cxx_parser *p, size_t i)
{
	if (p->t[i].kind != CXX_TOK_KEYWORD)
		return false;
	switch (p->t[i].sub) {
	case CXX_KW_int: case CXX_KW_long: case CXX_KW_short: case CXX_KW_signed: case CXX_KW_unsigned:
	case CXX_KW_char: case CXX_KW_bool: case CXX_KW_float: case CXX_KW_double: case CXX_KW_void:
	case CXX_KW_auto:
		return true;
	default:
		return false;
	}
}

static bool is_cv(const struct cxx_parser *p, size_t i)
{
	return cxx_iskw(p, i, CXX_KW_const) || cxx_iskw(p, i, CXX_KW_volatile);
}

/* `__gm__`, `__ubuf__`, `__restrict__`: qualifiers and attributes spelt
 * with double underscores on both sides. */
static bool is_dunder(const struct cxx_parser *p, size_t i)
{
	const struct cxx_token *t = &p->t[i];
	const char *s = p->src + t->start;
	size_t n = t->end - t->start;

	return t->kind == CXX_TOK_IDENT && n > 4 && s[0] == '_' && s[1] == '_' && s[n - 1] == '_' && s[n - 2] == '_';
}

/* The group opened at k, when it closes before `end`: its closer, else SIZE_MAX. */
static size_t group_end(const struct cxx_parser *p, size_t k, size_t end)
{
	size_t m = cxx_partner(p, k);

	return m == CXX_NOMATCH || m >= end ? SIZE_MAX : m;
}

/* A type as a declaration or a new-expression writes it. */
struct ctor_type {
	size_t first, end;  /* [first, end): the type without specifiers and trailing cv */
	size_t name;        /* its last name */
	size_t lt, gt;      /* that name's template argument brackets, or SIZE_MAX */
	bool scalar;        /* builtin (a name that is never a class: set by the caller) */
	bool no_object;     /* `extern`: declares an object made elsewhere */
};

static size_t skip_specifiers(const struct cxx_parser *p, size_t k, size_t end, bool *ext)
{
	while (k < end) {
		size_t m;
		if (is_cv(p, k) || cxx_iskw(p, k, CXX_KW_static) || cxx_iskw(p, k, CXX_KW_constexpr) ||
		    cxx_iskw(p, k, CXX_KW_consteval) || cxx_iskw(p, k, CXX_KW_inline) ||
		    cxx_iskw(p, k, CXX_KW_register) || cxx_iskw(p, k, CXX_KW_mutable) || is_dunder(p, k) ||
		    (p->src[p->t[k].start] == 't' && cxx_ident_is(p, k, "thread_local"))) {
			k++;
		} else if (cxx_iskw(p, k, CXX_KW_extern)) {
			*ext = true;
			k++;
		} else if ((cxx_iskw(p, k, CXX_KW_alignas) || cxx_iskw(p, k, CXX_KW_attribute)) &&
			   cxx_is(p, k + 1, CXX_P_LPAREN) && (m = group_end(p, k + 1, end)) != SIZE_MAX) {
			k = m + 1;
		} else if (cxx_is(p, k, CXX_P_LBRACKET) && cxx_is(p, k + 1, CXX_P_LBRACKET) &&
			   (m = group_end(p, k, end)) != SIZE_MAX) {
			k = m + 1; /* [[maybe_unused]] */
		} else {
			break;
		}
	}
	return k;
}

/* A name with its template arguments at k (`Tensor<half>`): the index after
 * it, or SIZE_MAX when k is not a name or its `<` reads as less-than. */
static size_t name_component(const struct cxx_parser *p, size_t k, size_t end, size_t *lt, size_t *gt)
{
	size_t c;

	*lt = *gt = SIZE_MAX;
	if (k >= end || p->t[k].kind != CXX_TOK_IDENT)
		return SIZE_MAX;
	if (k + 1 >= end || !cxx_is(p, k + 1, CXX_P_LT))
		return k + 1;
	if ((c = cxx_angle_close(p, k + 1, end)) == SIZE_MAX)
		return SIZE_MAX;
	*lt = k + 1;
	*gt = c;
	return c + 1;
}

/* A qualified name from k (`ns::Cls<T>::Inner`, `::T`): the index after it,
 * its last name and that name's template brackets; SIZE_MAX when none. */
static size_t qualified_name(const struct cxx_parser *p, size_t k, size_t end, size_t *name, size_t *lt, size_t *gt)
{
	if (k < end && cxx_is(p, k, CXX_P_SCOPE))
		k++;
	for (;;) {
		size_t next = name_component(p, k, end, lt, gt);
		if (next == SIZE_MAX)
			return SIZE_MAX;
		*name = k;
		k = next;
		if (k + 1 < end && cxx_is(p, k, CXX_P_SCOPE)) {
			k++;
			if (cxx_iskw(p, k, CXX_KW_template))
				k++;
			continue;
		}
		return k;
	}
}

/* The type at i (after its specifiers): the index after it (trailing cv
 * included), or SIZE_MAX when i does not start a type. */
static size_t parse_type(const struct cxx_parser *p, size_t i, size_t end, struct ctor_type *ty)
{
	size_t k;

	memset(ty, 0, sizeof(*ty));
	ty->lt = ty->gt = ty->name = SIZE_MAX;
	k = skip_specifiers(p, i, end, &ty->no_object);
	ty->first = k;
	if (k < end && is_builtin_type(p, k)) {
		while (k < end && (is_builtin_type(p, k) || is_cv(p, k)))
			k++;
		ty->end = k;
		ty->scalar = true;
		return k;
	}
	if (cxx_iskw(p, k, CXX_KW_typename))
		k++;
	k = qualified_name(p, k, end, &ty->name, &ty->lt, &ty->gt);
	if (k == SIZE_MAX)
		return SIZE_MAX;
	ty->end = k;
	while (k < end && is_cv(p, k))
		k++;
	return k;
}

/* One declarator: `*p`, `&r`, `a`, `a[4]`, `a(args)`, `a{args}`, `a = expr`. */
struct ctor_declarator {
	size_t name;
	bool indirect;            /* a pointer or reference */
	size_t bounds, bounds_end;/* array bounds [bounds, bounds_end), empty when none */
	size_t open, close;       /* a (...) or {...} initializer, or SIZE_MAX */
	size_t eq, init_end;      /* `= expr`: the '=' and the end of expr, or SIZE_MAX */
};

/* Where an initializer `= expr` starting at k ends: at a top-level ',' or
 * ';', or at `end`. */
static size_t init_end(const struct cxx_parser *p, size_t k, size_t end)
{
	for (; k < end; k++) {
		size_t m;
		if (cxx_is(p, k, CXX_P_COMMA) || cxx_is(p, k, CXX_P_SEMI))
			return k;
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET) || cxx_is(p, k, CXX_P_LBRACE)) &&
		    (m = group_end(p, k, end)) != SIZE_MAX)
			k = m;
		else if (cxx_is(p, k, CXX_P_LT) && p->t[k - 1].kind == CXX_TOK_IDENT &&
			 (m = cxx_angle_close(p, k, end)) != SIZE_MAX)
			k = m; /* Foo<A, B>(): the comma is not the declarator's */
	}
	return end;
}

/* The declarator at k: the index after it, or SIZE_MAX when there is none. */
static size_t declarator(const struct cxx_parser *p, size_t k, size_t end, struct ctor_declarator *d)
{
	size_t m;

	memset(d, 0, sizeof(*d));
	d->open = d->close = d->eq = d->init_end = SIZE_MAX;
	while (k < end) {
		if (cxx_is(p, k, CXX_P_STAR) || cxx_is(p, k, CXX_P_AMP) || cxx_is(p, k, CXX_P_AND))
			d->indirect = true;
		else if (!is_cv(p, k) && !is_dunder(p, k))
			break;
		k++;
	}
	if (k >= end || p->t[k].kind != CXX_TOK_IDENT)
		return SIZE_MAX;
	d->name = k++;
	d->bounds = d->bounds_end = k;
	while (k < end && cxx_is(p, k, CXX_P_LBRACKET) && (m = group_end(p, k, end)) != SIZE_MAX)
		k = d->bounds_end = m + 1;
	if (k < end && (cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACE)) &&
	    (m = group_end(p, k, end)) != SIZE_MAX) {
		d->open = k;
		d->close = m;
		return m + 1;
	}
	if (k < end && cxx_is(p, k, CXX_P_ASSIGN)) {
		d->eq = k;
		d->init_end = init_end(p, k + 1, end);
		return d->init_end;
	}
	return k;
}

/* Records a construction of type `ty`, its arguments between `open` and
 * `close` (open == SIZE_MAX: none, the construction ends at token `close`). */
static void record(struct cxx_parser *p, enum cxx_construct kind, size_t first, size_t type_end, size_t name,
		   size_t lt, size_t gt, size_t open, size_t close, int stmt)
{
	size_t idx = cxx_add_call(p, first, open, close, stmt);
	struct cxx_call *cl = &p->body->calls[idx];

	cl->constructs = kind;
	cl->callee = cxx_join(p->ol, p->t, first, type_end);
	cl->name = cxx_join(p->ol, p->t, name, name + 1);
	if (lt != SIZE_MAX)
		cl->template_args = cxx_template_args_text(p, lt, gt);
}

/* The construction a declarator makes, if any, then the calls of its
 * array bounds and initializer. */
static void declare(struct cxx_parser *p, const struct ctor_type *ty, const struct ctor_declarator *d, int stmt)
{
	bool object = !ty->scalar && !ty->no_object && !d->indirect;
	bool array = d->bounds_end > d->bounds;
	size_t open = SIZE_MAX, close = array ? d->bounds_end - 1 : d->name;

	if (d->open != SIZE_MAX) {
		/* `T f();` declares a function; an array's initializer makes aggregates */
		object = object && !array && !(cxx_is(p, d->open, CXX_P_LPAREN) && d->close == d->open + 1);
		open = d->open;
		close = d->close;
	} else if (d->eq != SIZE_MAX) {
		/* `T a = {args};` is list-initialisation; `T a = expr;` copies what expr makes */
		object = object && !array && cxx_is(p, d->eq + 1, CXX_P_LBRACE) &&
			 group_end(p, d->eq + 1, d->init_end) == d->init_end - 1;
		open = d->eq + 1;
		close = d->init_end - 1;
	}
	if (object)
		record(p, CXX_CONSTRUCT_DECLARATION, ty->first, ty->end, ty->name, ty->lt, ty->gt, open, close, stmt);
	if (array)
		cxx_parse_expr(p, d->bounds, d->bounds_end, stmt);
	if (d->open != SIZE_MAX)
		cxx_parse_expr(p, d->open + 1, d->close, stmt);
	else if (d->eq != SIZE_MAX)
		cxx_parse_expr(p, d->eq + 1, d->init_end, stmt);
}

bool cxx_parse_declaration(struct cxx_parser *p, size_t i, size_t end, int stmt)
{
	struct ctor_type ty;
	struct ctor_declarator d;
	size_t stop = end, k, j;

	if (!p->body || i >= end)
		return false;
	if (cxx_is(p, end - 1, CXX_P_SEMI))
		stop = end - 1;
	k = parse_type(p, i, stop, &ty);
	if (k == SIZE_MAX || k >= stop)
		return false;
	/* the whole declarator list must read, before anything is recorded */
	for (j = k;; j++) {
		j = declarator(p, j, stop, &d);
		if (j == SIZE_MAX || (j < stop && !cxx_is(p, j, CXX_P_COMMA)))
			return false;
		if (j >= stop)
			break;
	}
	ty.scalar = ty.scalar || is_scalar_name(p, ty.name);
	cxx_parse_expr(p, i, k, stmt); /* alignas(f()), Tensor<Size()> */
	for (j = k; j < stop; j++) {
		j = declarator(p, j, stop, &d);
		declare(p, &ty, &d, stmt);
	}
	return true;
}

void cxx_parse_head(struct cxx_parser *p, size_t i, size_t end, int stmt)
{
	for (size_t k = i; k < end; k++) {
		size_t m;
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET) || cxx_is(p, k, CXX_P_LBRACE)) &&
		    (m = group_end(p, k, end)) != SIZE_MAX) {
			k = m;
		} else if (cxx_is(p, k, CXX_P_SEMI)) {
			if (!cxx_parse_declaration(p, i, k + 1, stmt))
				cxx_parse_expr(p, i, k + 1, stmt);
			cxx_parse_expr(p, k + 1, end, stmt);
			return;
		}
	}
	cxx_parse_expr(p, i, end, stmt);
}

void cxx_parse_mem_inits(struct cxx_parser *p, size_t rp, size_t lb)
{
	size_t k, m;

	/* the ':' after the parameters (and noexcept(...), attributes) */
	for (k = rp + 1; k < lb && !cxx_is(p, k, CXX_P_COLON); k++)
		if ((cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACKET)) && (m = group_end(p, k, lb)) != SIZE_MAX)
			k = m;
	for (k++; k < lb;) {
		size_t first = k, name, lt, gt;
		k = qualified_name(p, k, lb, &name, &lt, &gt);
		if (k == SIZE_MAX || !(cxx_is(p, k, CXX_P_LPAREN) || cxx_is(p, k, CXX_P_LBRACE)) ||
		    (m = group_end(p, k, lb)) == SIZE_MAX)
			return;
		record(p, CXX_CONSTRUCT_INITIALIZER, first, k, name, lt, gt, k, m, CXX_NONE);
		cxx_parse_expr(p, k + 1, m, CXX_NONE);
		k = m + 1;
		if (k < lb && cxx_is(p, k, CXX_P_ELLIPSIS))
			k++; /* Bases(args)... */
		if (k >= lb || !cxx_is(p, k, CXX_P_COMMA))
			return;
		k++;
	}
}

size_t cxx_parse_new(struct cxx_parser *p, size_t k, size_t end, int stmt)
{
	struct ctor_type ty;
	size_t j = k + 1, m, open = SIZE_MAX, close;
	bool indirect = false, array = false;

	if (cxx_is(p, j, CXX_P_LPAREN) && (m = group_end(p, j, end)) != SIZE_MAX) {
		/* new (buf) T(args); `new (T)(args)` is left to the expression parse */
		if (m + 1 >= end || !(p->t[m + 1].kind == CXX_TOK_IDENT || cxx_is(p, m + 1, CXX_P_SCOPE) ||
				      cxx_iskw(p, m + 1, CXX_KW_typename) || is_builtin_type(p, m + 1) ||
				      is_cv(p, m + 1)))
			return k + 1;
		cxx_parse_expr(p, j + 1, m, stmt);
		j = m + 1;
	}
	j = parse_type(p, j, end, &ty);
	if (j == SIZE_MAX)
		return k + 1;
	ty.scalar = ty.scalar || is_scalar_name(p, ty.name);
	while (j < end && cxx_is(p, j, CXX_P_STAR)) {
		indirect = true;
		j++;
	}
	close = j - 1;
	while (j < end && cxx_is(p, j, CXX_P_LBRACKET) && (m = group_end(p, j, end)) != SIZE_MAX) {
		array = true;
		cxx_parse_expr(p, j + 1, m, stmt);
		close = m;
		j = m + 1;
	}
	if (j < end && (cxx_is(p, j, CXX_P_LPAREN) || cxx_is(p, j, CXX_P_LBRACE)) &&
	    (m = group_end(p, j, end)) != SIZE_MAX) {
		open = j;
		close = m;
	}
	if (!ty.scalar && !indirect && !array)
		record(p, CXX_CONSTRUCT_NEW, ty.first, ty.end, ty.name, ty.lt, ty.gt, open, close, stmt);
	if (open == SIZE_MAX)
		return j;
	cxx_parse_expr(p, open + 1, close, stmt);
	return close + 1;
}

static int closes_angles(const struct cxx_parser *p, size_t i)
{
	return cxx_is(p, i, CXX_P_GT) || cxx_is(p, i, CXX_P_SHR) || cxx_is(p, i, CXX_P_GGG);
}

void cxx_brace_temporary(struct cxx_parser *p, size_t lo, size_t k, int stmt)
{
	size_t j, name, cs, lt = SIZE_MAX, gt = SIZE_MAX, m = cxx_partner(p, k);

	if (k == 0 || k - 1 < lo || m == CXX_NOMATCH)
		return;
	j = k - 1;
	if (closes_angles(p, j)) {
		size_t o = cxx_angle_open_back(p, j, lo);
		if (o == SIZE_MAX || o == 0 || o - 1 < lo)
			return;
		lt = o;
		gt = j;
		j = o - 1;
	}
	if (p->t[j].kind != CXX_TOK_IDENT || cxx_is_macro_name(p, j))
		return;
	name = cs = j;
	while (cs >= lo + 2 && cxx_is(p, cs - 1, CXX_P_SCOPE)) {
		size_t c = cs - 2, o;
		if (p->t[c].kind == CXX_TOK_IDENT)
			cs = c;
		else if (closes_angles(p, c) && (o = cxx_angle_open_back(p, c, lo)) != SIZE_MAX && o > lo &&
			 p->t[o - 1].kind == CXX_TOK_IDENT)
			cs = o - 1;
		else
			break;
	}
	if (cs > lo && cxx_is(p, cs - 1, CXX_P_SCOPE))
		cs--;
	if (cs > lo) {
		/* only where an expression goes: not `T a{...}`, `struct S {`,
		 * `obj.member{`, `f() -> T {` */
		const struct cxx_token *pv = &p->t[cs - 1];
		if (pv->kind == CXX_TOK_KEYWORD ? !(pv->sub == CXX_KW_return || pv->sub == CXX_KW_throw)
						: pv->kind != CXX_TOK_PUNCT || cxx_is(p, cs - 1, CXX_P_DOT) ||
							  cxx_is(p, cs - 1, CXX_P_ARROW) || cxx_is(p, cs - 1, CXX_P_RPAREN) ||
							  cxx_is(p, cs - 1, CXX_P_RBRACKET) || closes_angles(p, cs - 1))
			return;
	}
	record(p, CXX_CONSTRUCT_TEMPORARY, cs, k, name, lt, gt, k, m, stmt);
}
