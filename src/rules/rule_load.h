/* Loading a rules file with its includes into a checked policy. */
#ifndef AUTOTRACE_RULE_LOAD_H
#define AUTOTRACE_RULE_LOAD_H

#include "diag.h"
#include "rule_policy.h"

/* Reads `path`, follows its includes (relative to the including file, then
 * `rules_dir`, which may be NULL) and returns the policy, or NULL after
 * reporting every error found to `diag`. The caller frees the policy.
 *
 * Rules files come with the trees they describe, which anyone may push, so
 * an include is read only when the file it names (links resolved) lies under
 * the directory of `path`, the git top level above it, `rules_dir`, or the
 * operator directory `opdir` (NULL for none) and the git top level above
 * that; any other is refused before it is opened, unless
 * rule_load_allow_anywhere(true) was called. */
struct rule_policy *rule_load(const char *path, const char *rules_dir, const char *opdir, struct diag *diag);

/* Lets includes name files anywhere (--allow-include-anywhere). */
void rule_load_allow_anywhere(bool yes);

/* The same for a file held in memory (tests and fuzzing); includes are
 * resolved against `rules_dir` only and must lie under it. */
struct rule_policy *rule_load_buffer(const char *name, const char *data, size_t len, const char *rules_dir,
				     struct diag *diag);

#endif
