/* #if conditions (cxx_pp_expr.c). */
#ifndef AUTOTRACE_CXX_PP_EXPR_H
#define AUTOTRACE_CXX_PP_EXPR_H

#include <stddef.h>

#include "cxx_outline.h"
#include "cxx_pp.h"
#include "cxx_token.h"

/* Evaluates the condition of directive `name` ("if", "elif", "ifdef", ...)
 * over tokens t[a, b) of src; when it cannot be decided, `assume` 1 (0)
 * records in mt the assumptions that make it true (false), -1 none. */
enum cxx_cond_value cxx_pp_decide(const struct cxx_token *t, const char *src, struct cxx_macro_table *mt,
				  const char *name, size_t a, size_t b, int assume);

#endif
