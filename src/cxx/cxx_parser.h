/* Internals shared by the files of the C++ scanner (cxx_outline.c,
 * cxx_pp.c, cxx_parser_*.c); other modules use cxx_outline.h. */
#ifndef AUTOTRACE_CXX_PARSER_H
#define AUTOTRACE_CXX_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cxx_outline.h"
#include "cxx_pp.h"
#include "cxx_token.h"
#include "diag.h"

#define CXX_NOMATCH UINT32_MAX
#define CXX_MAX_DEPTH 200 /* nesting beyond this is not followed */

/* The outline's string arena. */
struct cxx_arena *cxx_arena_new(void);
void cxx_arena_free(struct cxx_arena *a);
void *cxx_arena_alloc(struct cxx_arena *a, size_t n);

/* The normalised text of tokens [a, b): their spellings, one space wherever
 * the source had blanks, comments or line breaks between them. */
const char *cxx_join(struct cxx_outline *ol, const struct cxx_token *t, size_t a, size_t b);

/* A located warning, counted in ol->warnings. `diag` may be NULL. */
void cxx_warn(struct cxx_outline *ol, struct diag *diag, uint32_t start, uint32_t end, const char *fmt,
	      ...) __attribute__((format(printf, 5, 6)));
void cxx_note(struct cxx_outline *ol, struct diag *diag, uint32_t start, uint32_t end, const char *fmt,
	      ...) __attribute__((format(printf, 5, 6)));

/* Pairs ( ) [ ] { } of t[0..n): match[i] is the partner index or CXX_NOMATCH.
 * A closer that does not match the innermost opener closes the nearest
 * matching one, leaving those in between unmatched. */
void cxx_match_brackets(const struct cxx_token *t, size_t n, uint32_t *match);

struct cxx_parser {
	struct cxx_outline *ol;
	struct diag *diag;
	const char *src;
	const struct cxx_token *t; /* t[n] is EOF */
	size_t n;
	uint32_t *match;
	const struct cxx_macro_table *mt;

	struct cxx_body *body;     /* being filled; NULL outside bodies */
	size_t stmt_cap, call_cap, point_cap;
	int lambda;                /* innermost LAMBDA statement */
	int *jumps;                /* enclosing FOR/WHILE/DO/SWITCH statements */
	size_t njumps, jumps_cap;
	int depth;
	bool failed;               /* the current function cannot be followed */

	int func;                  /* the function whose body is being read, CXX_NONE */
	size_t type_cap;
	char *scope;               /* "ns::Cls" of the declarations being read */
	size_t scope_len, scope_cap;
	size_t func_cap;
};

/* cxx_parser_decl.c: declarations of [i, end) at namespace or class scope. */
void cxx_parse_scope(struct cxx_parser *p, size_t i, size_t end, bool in_class, bool extern_c);

/* cxx_parser_type.c: the alias declaration (`using`, `typedef`, after any
 * `template <...>` at tpl_lt..tpl_gt, SIZE_MAX when none) starting at i;
 * returns the index after its ';'. */
size_t cxx_parse_alias(struct cxx_parser *p, size_t i, size_t end, size_t tpl_lt, size_t tpl_gt);
/* Records the class whose key is at ck, body [lb, rb], template header at
 * tpl_lt..tpl_gt (SIZE_MAX when none), starting at `first`. */
void cxx_record_class(struct cxx_parser *p, size_t first, size_t ck, size_t lb, size_t rb, size_t tpl_lt,
		      size_t tpl_gt);

/* cxx_parser_stmt.c: the statements of [i, end), children of `parent`. */
void cxx_parse_stmts(struct cxx_parser *p, size_t i, size_t end, int parent);
/* One statement from i; returns the index after it. */
size_t cxx_parse_stmt(struct cxx_parser *p, size_t i, size_t end, int parent);
int cxx_add_stmt(struct cxx_parser *p, enum cxx_stmt_kind kind, int parent, size_t first, size_t last);

/* cxx_parser_expr.c: records the calls, points and lambdas in [i, end)
 * (groups are followed), attributing them to statement `stmt`. */
void cxx_parse_expr(struct cxx_parser *p, size_t i, size_t end, int stmt);
/* The '>' closing the template argument list opened by the '<' at `lt`, or
 * SIZE_MAX when `<` is better read as less-than ("failed but recoverable").
 * A `>>` or `>>>` closer counts as two or three brackets. */
size_t cxx_angle_close(const struct cxx_parser *p, size_t lt, size_t end);
/* The '<' opening the template argument list closed at `gt`, or SIZE_MAX. */
size_t cxx_angle_open_back(const struct cxx_parser *p, size_t gt, size_t begin);
/* Splits [a, b) at its top-level commas (template argument lists are kept
 * whole when `<` reads as a bracket): cuts[k] is where argument k starts;
 * returns the number of arguments (at most maxcuts; extra commas are kept). */
size_t cxx_split_args(const struct cxx_parser *p, size_t a, size_t b, size_t *cuts, size_t maxcuts);
/* A new call of the body being read, from token `first`, its arguments
 * between the brackets at `open` and `close` (open == SIZE_MAX: none, the
 * call ends with token `close`); range, arguments and statement are set, the
 * rest is the caller's. Returns its index (the calls array may move). */
size_t cxx_add_call(struct cxx_parser *p, size_t first, size_t open, size_t close, int stmt);
/* The template arguments between `lt` and `gt`, a `>>` closer's extra
 * brackets kept: "A<B>" of `X<A<B>>`. */
const char *cxx_template_args_text(struct cxx_parser *p, size_t lt, size_t gt);
/* Index after the end of the statement-ish run from i: the ';' included, or
 * before a keyword that can only start a statement. */
size_t cxx_skip_to_semi(const struct cxx_parser *p, size_t i, size_t end);

/* cxx_parser_ctor.c: constructions of objects, recorded as calls. */
/* When [i, end) is a declaration of variables (to its ';'), records the
 * constructions it makes and the calls of its initializers, attributed to
 * `stmt`, and returns true; false (nothing recorded) for anything else. */
bool cxx_parse_declaration(struct cxx_parser *p, size_t i, size_t end, int stmt);
/* A loop or if header [i, end), which may start with an init-statement
 * (`for (T it(x); ...)`, `if (T a(x); ...)`): its calls and constructions. */
void cxx_parse_head(struct cxx_parser *p, size_t i, size_t end, int stmt);
/* The mem-initializers of the function whose parameter list closes at rp
 * and whose body opens at lb, when it has any (`: disp_(t), Base{t}`). */
void cxx_parse_mem_inits(struct cxx_parser *p, size_t rp, size_t lb);
/* The new-expression whose `new` is at k: the construction and the calls of
 * its placement and initializer. Returns the index after it (k + 1 when
 * what follows is not read as a type). */
size_t cxx_parse_new(struct cxx_parser *p, size_t k, size_t end, int stmt);
/* A `T{args}` temporary whose '{' is at k, in an expression that starts at
 * lo: recorded when the tokens before it name a type in an expression. */
void cxx_brace_temporary(struct cxx_parser *p, size_t lo, size_t k, int stmt);

static inline bool cxx_is(const struct cxx_parser *p, size_t i, enum cxx_punct op)
{
	return cxx_tok_punct(&p->t[i], op);
}

static inline bool cxx_iskw(const struct cxx_parser *p, size_t i, enum cxx_keyword kw)
{
	return cxx_tok_kw(&p->t[i], kw);
}

/* Partner of the bracket at i, or CXX_NOMATCH. */
static inline size_t cxx_partner(const struct cxx_parser *p, size_t i)
{
	return p->match[i];
}

bool cxx_ident_is(const struct cxx_parser *p, size_t i, const char *lit);
/* An identifier spelt in capitals, digits and '_' (a macro by convention). */
bool cxx_is_macro_name(const struct cxx_parser *p, size_t i);

#endif
