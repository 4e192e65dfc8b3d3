/* The C++ expressions of `index EXPR` and `extra EXPR`: a variable name, or
 * an expression in quotes, which apply writes into each trace point's call.
 * The lexer asks how much of the text after the keyword is one unquoted
 * expression; the decoder asks whether a quoted one can be written there. */
#ifndef AUTOTRACE_RULE_EXPR_H
#define AUTOTRACE_RULE_EXPR_H

#include <stdbool.h>
#include <stddef.h>

/* `text` (len bytes, no ';', '{', '}', '"', '#' or newline in it) follows
 * `index` or `extra`. Returns the length of what the clause takes: a C++
 * identifier followed by nothing, a word or a comma (*identifier true), or
 * else an unquoted expression up to the next clause keyword (index, extra,
 * sync, opaque, else) or the end, trailing blanks left out (*identifier
 * false: the rules must quote it). */
size_t rule_expr_unquoted(const char *text, size_t len, bool *identifier);

/* Why the quoted expression `e` cannot be written into a trace point's call
 * (empty, a ';', a comment, a newline, brackets that do not pair), or NULL. */
const char *rule_expr_problem(const char *e);

#endif
