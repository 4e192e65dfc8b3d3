/* Where the rules come from: --rules, else autotrace.rules in the operator
 * directory, else the shipped default moe.rules. */
#ifndef AUTOTRACE_RULE_FIND_H
#define AUTOTRACE_RULE_FIND_H

#include "diag.h"
#include "rule_policy.h"

/* A directory of shipped files: $ENV_NAME, else `installed` when it exists,
 * else <directory of the running binary>/<sub> when that exists (an
 * uninstalled build), else `installed`. */
const char *rule_find_data_dir(const char *env_name, const char *installed, const char *sub);

/* The directory of the shipped rules: rule_find_data_dir() of
 * $AUTOTRACE_RULES_DIR, the installed RULESDIR and rules/ beside the binary. */
const char *rule_find_rules_dir(void);

/* The rules file to use (newly allocated): `explicit_path` when given, else
 * OPDIR/autotrace.rules when it exists, else the shipped moe.rules. */
char *rule_find_path(const char *explicit_path, const char *opdir);

/* rule_find_path + rule_load. NULL after reporting errors. */
struct rule_policy *rule_find_and_load(const char *explicit_path, const char *opdir, struct diag *diag);

/* The rules of a run over several operators: those of the file the last
 * operator used are used again when the next one resolves to the same file
 * (the shipped default, or --rules). */
struct rule_cache {
	char *path;
	struct rule_policy *policy;
};

/* The policy for OPDIR (owned by the cache), or NULL after reporting errors. */
const struct rule_policy *rule_cache_get(struct rule_cache *c, const char *explicit_path, const char *opdir,
					 struct diag *diag);
void rule_cache_release(struct rule_cache *c);

#endif
