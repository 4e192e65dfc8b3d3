/* The preprocessor layer of the C++ scanner: #include directives, the
 * #if/#ifdef/#elif/#else/#endif structure and the choice of branches, #define
 * and #undef. Macros are never expanded; they only decide branches and are
 * outlined as macros.
 *
 * How branches are chosen (the documented default):
 *  - a condition is evaluated with the macros known: -D/-U (fixed, files
 *    cannot change them), then the #define/#undef met so far in the files
 *    scanned with the same table, then earlier assumptions;
 *  - the first branch whose condition is true is taken; false ones are not;
 *  - a condition that cannot be decided (it uses a macro nobody defined) is
 *    taken if no earlier branch of its group was, and it is then assumed
 *    true: `#ifdef X` taken assumes X defined, so a later `#ifndef X` in any
 *    file scanned with the same table is not taken (this keeps #if branches
 *    that split braces consistent);
 *  - except: a group none of whose conditions can be decided, each arm of
 *    which is whole statements (balanced, ending at ';' or '}') with no
 *    directive inside, has every arm taken, one after the other, and assumes
 *    nothing: the build may take any of them (`#ifdef SYNC_MODE` with
 *    `// #define SYNC_MODE` commented out), so each is scanned and planned;
 *  - `#if 0` is never taken, `#else` only when no branch before it was.
 * To scan the other side of `#if defined(__DAV_C310__)`, pass -U __DAV_C310__. */
#ifndef AUTOTRACE_CXX_PP_H
#define AUTOTRACE_CXX_PP_H

#include <stdbool.h>
#include <stddef.h>

#include "cxx_outline.h"
#include "cxx_token.h"
#include "diag.h"

struct cxx_macro_table;

struct cxx_macro_table *cxx_macros_new(void);
void cxx_macros_free(struct cxx_macro_table *mt);

/* `NAME` or `NAME=VALUE` as given to -D: fixed for the whole scan. Returns -1
 * when NAME is not an identifier. */
int cxx_macros_define(struct cxx_macro_table *mt, const char *spec);
/* `NAME` as given to -U: fixed as undefined. Returns -1 when not an identifier. */
int cxx_macros_undef(struct cxx_macro_table *mt, const char *name);

/* True when `name` (of `len` bytes) is a function-like macro, defined in a
 * file, whose replacement starts with `else` (it continues an if chain). */
bool cxx_macros_is_else(const struct cxx_macro_table *mt, const char *name, size_t len);

/* A #define found by cxx_pp_run: token indices into the full token array. */
struct cxx_pp_define {
	size_t body_begin; /* first token of the replacement list */
	size_t body_end;   /* its PP_END token */
};

/* Runs the preprocessor layer over `all` (the tokens of ol->file): fills
 * ol->includes, ol->conds and ol->macros (names, ranges; not bodies), puts
 * the code tokens of the chosen branches, without directives, into `active`
 * (a group named in `choices` takes the branch given there, whatever its
 * condition)
 * (EOF-terminated), and returns in `*defs` one entry per ol->macros entry
 * (caller frees). Warnings go to `diag` (may be NULL). */
void cxx_pp_run(struct cxx_outline *ol, const struct cxx_tokens *all, struct cxx_macro_table *mt,
		const struct cxx_branch_choice *choices, size_t nchoices, struct cxx_tokens *active,
		struct cxx_pp_define **defs, struct diag *diag);

#endif
