/* The macro table's entries, shared by the preprocessor's files: the
 * directive pass (cxx_pp.c), the #if expressions (cxx_pp_expr.c) and the
 * table itself (cxx_macros.c). Outside them the table is opaque (cxx_pp.h). */
#ifndef AUTOTRACE_CXX_MACROS_H
#define AUTOTRACE_CXX_MACROS_H

#include <stdbool.h>
#include <stddef.h>

#include "cxx_pp.h"
#include "cxx_token.h"

enum macro_state { M_DEFINED, M_UNDEFINED };
enum macro_origin { M_NEW, M_FILE, M_ASSUMED, M_FIXED }; /* M_NEW: just added */

struct macro {
	char *name;
	size_t len;
	unsigned char state;
	unsigned char origin;
	bool has_value;
	bool else_body;
	long long value;
};

/* The entry of macro s[0, len), or NULL; cxx_macro_add adds it (undefined,
 * origin M_NEW) when missing. */
struct macro *cxx_macro_find(const struct cxx_macro_table *mt, const char *s, size_t len);
struct macro *cxx_macro_add(struct cxx_macro_table *mt, const char *s, size_t len);
/* A name in a directive: an identifier or a keyword (`#define if ...`). */
static inline bool cxx_pp_tok_word(const struct cxx_token *t)
{
	return t->kind == CXX_TOK_IDENT || t->kind == CXX_TOK_KEYWORD;
}

/* Parses a preprocessor integer (suffixes ignored); false when it is not one. */
bool cxx_pp_parse_int(const char *s, size_t len, long long *out);

#endif
