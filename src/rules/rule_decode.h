/* Giving meaning to a parsed rules file: every statement is checked against
 * rule_statements.def and applied to the policy, with located errors. */
#ifndef AUTOTRACE_RULE_DECODE_H
#define AUTOTRACE_RULE_DECODE_H

#include "rule_ast.h"
#include "rule_policy.h"

/* Called for `include "name";`: loads and applies the named file. `loc` is the
 * string. Returns the number of errors it reported. */
typedef unsigned (*rule_include_fn)(void *ctx, const char *name, struct src_loc loc);

/* Applies the statements of `root` (parsed from `file`) to `policy`, in order.
 * Returns the number of errors reported. */
unsigned rule_decode(struct rule_policy *policy, const struct src_file *file, const struct rule_node *root,
		     struct diag *diag, rule_include_fn include, void *include_ctx);

#endif
