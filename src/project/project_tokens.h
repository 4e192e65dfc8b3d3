/* Token helpers shared by the host-side C++ readers (project_opdef, project_infer,
 * project_aclnn, project_pybind): a view of a file's tokens without preprocessor
 * directives, with matched brackets, text comparisons, normalised texts, a
 * table of integer constants (constexpr / const / enum / #define) and a small
 * evaluator of constant expressions over it. */
#ifndef AUTOTRACE_PROJECT_TOKENS_H
#define AUTOTRACE_PROJECT_TOKENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cxx_token.h"

#define TV_NONE ((size_t)-1)

struct tok_view {
	const char *data;
	size_t len;
	struct cxx_tokens all;   /* every token, directives included */
	struct cxx_token *v;     /* tokens outside directives; v[n] is EOF */
	size_t n;
	size_t *match;           /* matching bracket of ( [ { and ) ] }, or TV_NONE */
};

void tok_view_init(struct tok_view *tv, const char *data, size_t len);
void tok_view_release(struct tok_view *tv);

/* The first token starting at or after byte `off` (n when none). */
size_t tv_at(const struct tok_view *tv, uint32_t off);
/* True when token i's text is `lit`. */
bool tv_is(const struct tok_view *tv, size_t i, const char *lit);
bool tv_punct(const struct tok_view *tv, size_t i, enum cxx_punct p);
bool tv_ident(const struct tok_view *tv, size_t i);
/* The token's text, newly allocated; a string literal without its quotes
 * (escapes kept as written) when `unquote`. */
char *tv_tok_text(const struct tok_view *tv, size_t i, bool unquote);
/* Tokens [i, j) joined with one space between word-like neighbours only:
 * "ge::DT_INT64", "a * b", "context->GetOutputShape(2)". Newly allocated. */
char *tv_text(const struct tok_view *tv, size_t i, size_t j);
/* Splits the tokens between brackets open and match[open] at top-level
 * commas: fills starts/ends (token indices, caller frees) and returns the
 * count (0 for empty parentheses). */
size_t tv_split_args(const struct tok_view *tv, size_t open, size_t **starts, size_t **ends);

/* Integer constants of one file. */
struct tv_const {
	char *name;
	int64_t value;
	uint32_t at;            /* where it is defined */
};

struct tv_consts {
	struct tv_const *v;
	size_t n, cap;
};

/* Collects `constexpr T N = e;`, `const T N = e;`, `enum [class] [E] {A [= e], ...}`
 * and object-like `#define N e` whose values evaluate. */
void tv_consts_collect(const struct tok_view *tv, struct tv_consts *out);
void tv_consts_release(struct tv_consts *c);
const struct tv_const *tv_consts_find(const struct tv_consts *c, const char *name, size_t len);

/* Evaluates tokens [i, j) as an integer constant expression (literals, names
 * in `c` -- the last component of a qualified name --, + - * / % << >> ~ and
 * parentheses, casts). Returns 0, or -1 when it is not constant. */
int tv_eval(const struct tok_view *tv, size_t i, size_t j, const struct tv_consts *c, int64_t *out);

/* True when the n bytes at s are one C identifier ("outs", not "outs[0]"). */
bool tv_text_is_ident(const char *s, size_t n);

/* Normalised name for comparing parameter names across layers:
 * lowercase, underscores removed ("profiling_data" == "profilingData"). */
char *tv_name_key(const char *s);
/* True when `name` names the profiling output `profiling` (same key, or the
 * key followed by a suffix such as "Gm"). */
bool tv_names_profiling(const char *name, const char *profiling);
/* An argument written as "no tensor": nullptr, NULL, std::nullopt /
 * c10::nullopt, at::Tensor(), {}. */
bool tv_is_null_text(const char *s);

/* snake_case of a CamelCase name (newly allocated). */
char *project_snake(const char *camel);
/* camelCase of a snake_case name, "profiling_data" -> "profilingData"
 * (newly allocated): the C++ parameter name of a profiling output. */
char *project_camel(const char *snake);

#endif
