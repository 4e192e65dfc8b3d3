/* Loading a rules file with its includes into a checked policy. */
#ifndef AUTOTRACE_RULE_LOAD_H
#define AUTOTRACE_RULE_LOAD_H

#include "diag.h"
#include "rule_policy.h"

/* Reads `path`, follows its includes (relative to the including file, then
 * `rules_dir`, which may be NULL) and returns the policy, or NULL after
 * reporting every error found to `diag`. The caller frees the policy. */
struct rule_policy *rule_load(const char *path, const char *rules_dir, struct diag *diag);

/* The same for a file held in memory (tests and fuzzing); includes are
 * resolved against `rules_dir` only. */
struct rule_policy *rule_load_buffer(const char *name, const char *data, size_t len, const char *rules_dir,
				     struct diag *diag);

#endif
