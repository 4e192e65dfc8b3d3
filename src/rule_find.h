/* Where the rules come from: --rules, else autotrace.rules in the operator
 * directory, else the installed default (DESIGN §7). */
#ifndef AUTOTRACE_RULE_FIND_H
#define AUTOTRACE_RULE_FIND_H

#include "diag.h"
#include "rule_policy.h"

/* A directory of shipped files: $ENV_NAME, else `installed` when it exists,
 * else <directory of the running binary>/<sub> when that exists (an
 * uninstalled build), else `installed`. */
const char *rule_find_data_dir(const char *env_name, const char *installed, const char *sub);

/* The directory of the shipped rules ($AUTOTRACE_RULES_DIR, RULESDIR, ./rules). */
const char *rule_find_rules_dir(void);

/* The rules file to use (newly allocated): `explicit_path` when given, else
 * OPDIR/autotrace.rules when it exists, else the shipped moe.rules. */
char *rule_find_path(const char *explicit_path, const char *opdir);

/* rule_find_path + rule_load. NULL after reporting errors. */
struct rule_policy *rule_find_and_load(const char *explicit_path, const char *opdir, struct diag *diag);

#endif
