/* A Python scanner for the samples and tests of an operator: tokens (strings
 * with any prefix, f-strings with nested quotes, triple quotes, comments,
 * backslash and bracket continuations), logical lines grouped into
 * statements by indentation (compound headers, inline bodies, `;`-separated
 * statements, decorators), function definitions, calls with their arguments
 * and assignments with their targets (`a, b = ...`, `*head, _ = ...`,
 * `x.attr = ...`).
 *
 * It never fails: text it cannot close (a string, a bracket) is noted in
 * `unclosed` and the rest is read as well as it can be.
 *
 * Every location is a byte range into the text given (which the module
 * borrows and must outlive it). Ownership: py_module_free releases the rest. */
#ifndef AUTOTRACE_PY_SCAN_H
#define AUTOTRACE_PY_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PY_NONE (-1)

struct py_range {
	uint32_t start, end;
};

enum py_tok_kind { PY_TOK_EOF, PY_TOK_NAME, PY_TOK_NUMBER, PY_TOK_STRING, PY_TOK_OP, PY_TOK_NEWLINE };

enum {
	PY_TF_BOL = 1,      /* first token of a logical line */
	PY_TF_FSTRING = 2,  /* an f-string */
	PY_TF_UNTERM = 4,   /* a string that runs to the end of its line or of the file */
};

struct py_token {
	uint32_t start, end;
	uint32_t indent;    /* BOL tokens: the line's indentation (tabs to multiples of 8) */
	uint8_t kind;
	uint8_t flags;
};
_Static_assert(offsetof(struct py_token, start) == 0, "token_search.h reads the start offset first");

enum py_stmt_kind {
	PY_STMT_SIMPLE,     /* expression, assignment, pass, import, ... */
	PY_STMT_RETURN,
	PY_STMT_DECORATOR,
	PY_STMT_DEF,
	PY_STMT_CLASS,
	PY_STMT_IF,
	PY_STMT_ELIF,
	PY_STMT_ELSE,
	PY_STMT_FOR,
	PY_STMT_WHILE,
	PY_STMT_WITH,
	PY_STMT_TRY,
	PY_STMT_EXCEPT,
	PY_STMT_FINALLY,
	PY_STMT_MATCH,      /* match / case headers */
};

struct py_stmt {
	enum py_stmt_kind kind;
	int parent;               /* the compound statement whose body holds it, or PY_NONE */
	int func;                 /* the innermost enclosing def, or PY_NONE */
	size_t tok_start, tok_end;/* its tokens; a compound statement: its header up to ':' */
	struct py_range range;    /* the same as bytes */
	struct py_range block;    /* a compound statement: header start to the end of its body */
	uint32_t indent;
};

struct py_arg {
	struct py_range range;    /* the whole argument */
	struct py_range value;    /* after `name=` or `*` */
	const char *keyword;      /* NULL for a positional argument */
	bool star, dstar;
	size_t tok_start, tok_end;/* the value's tokens */
};

struct py_call {
	struct py_range range;    /* callee start to ')' */
	struct py_range callee;   /* the callee expression */
	struct py_range args_range; /* inside the parentheses */
	const char *callee_text;  /* tokens of the callee without spaces: "torch_npu.npu.synchronize" */
	const char *name;         /* the last name of the callee, or "" */
	struct py_arg *args;
	size_t nargs;
	size_t open_tok;          /* the '(' token */
	int stmt;
};

struct py_target {
	struct py_range range;
	const char *text;         /* as written, without spaces */
	bool starred;
};

struct py_assign {
	int stmt;
	struct py_target *targets;/* of the first target list (a = b = v: the one of `a`) */
	size_t ntargets;
	bool unpacks;             /* a tuple/list target: `a, b = ...`, `(a, *b) = ...` */
	struct py_range target_range;
	struct py_range value;
	size_t value_tok_start, value_tok_end;
	int call;                 /* the value is exactly this call, or PY_NONE */
};

struct py_func {
	const char *name;
	int stmt;                 /* its def statement */
	int parent;               /* enclosing function, or PY_NONE */
	struct py_range name_range, params_range; /* parentheses included */
	const char **params;      /* parameter names (without * / ** / defaults) */
	size_t nparams;
	const char **decorators;  /* decorator expressions, without the '@' */
	size_t ndecorators;
};

struct py_arena;

struct py_module {
	const char *data;         /* borrowed */
	size_t len;
	struct py_token *toks;    /* toks[ntoks] is EOF */
	size_t ntoks;
	size_t *match;            /* matching bracket token, or SIZE_MAX */
	struct py_stmt *stmts;
	size_t nstmts;
	struct py_func *funcs;
	size_t nfuncs;
	struct py_call *calls;    /* in order of their '(' */
	size_t ncalls;
	struct py_assign *assigns;
	size_t nassigns;
	uint32_t unclosed;        /* offset of an unclosed string or bracket, or UINT32_MAX */
	const char *unclosed_what;
	struct py_arena *arena;
};

struct py_module *py_scan(const char *data, size_t len);
void py_module_free(struct py_module *m);

/* The text of tokens [i, j) without spaces (strings as written); arena-owned. */
const char *py_text(struct py_module *m, size_t i, size_t j);
/* The value of a string token without prefix and quotes (escapes as written);
 * newly allocated. NULL when the token is not a string. */
char *py_string_value(const struct py_module *m, size_t tok);
/* The token starting at byte `off`, or the first after it. */
size_t py_tok_at(const struct py_module *m, uint32_t off);
bool py_tok_is(const struct py_module *m, size_t i, const char *lit);

/* True when statement `a` runs before `b` on every path through their
 * function that reaches `b`: same function, `a` earlier, and `a`'s block
 * (through try / with bodies) encloses `b`. */
bool py_dominates(const struct py_module *m, int a, int b);
/* True when statement `s` lies in the body of compound statement `outer`. */
bool py_stmt_within(const struct py_module *m, int s, int outer);

const char *py_stmt_kind_name(enum py_stmt_kind k);

#endif
