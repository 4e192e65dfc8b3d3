/* Locating the rules file for a command. */
#include "rule_find.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rule_load.h"
#include "path_glob.h"
#include "xalloc.h"

/* An uninstalled autotrace (run from its build tree) finds the shipped
 * files next to the binary: <dir of the binary>/<sub>. */
const char *rule_find_data_dir(const char *env_name, const char *installed, const char *sub)
{
	static char found[2][PATH_MAX];
	static const char *subs[2];
	const char *env = getenv(env_name);
	char exe[PATH_MAX];
	ssize_t n;
	int slot = strcmp(sub, "rules") == 0 ? 0 : 1;

	if (env && *env)
		return env;
	if (access(installed, F_OK) == 0)
		return installed;
	if (subs[slot])
		return found[slot];
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(found[slot], sizeof(found[slot]), "%.*s/%s", PATH_MAX - 64, exe, sub);
			if (access(found[slot], F_OK) == 0) {
				subs[slot] = sub;
				return found[slot];
			}
		}
	}
	return installed;
}

const char *rule_find_rules_dir(void)
{
	return rule_find_data_dir("AUTOTRACE_RULES_DIR", RULESDIR, "rules");
}

char *rule_find_path(const char *explicit_path, const char *opdir)
{
	char *local;

	if (explicit_path)
		return xstrdup(explicit_path);
	/* named "./autotrace.rules" in the current directory, so that messages
	 * tell the operator's own rules from the shipped default */
	local = opdir && strcmp(opdir, ".") != 0 ? path_join(opdir, "autotrace.rules") : xstrdup("./autotrace.rules");
	if (access(local, F_OK) == 0)
		return local;
	free(local);
	return path_join(rule_find_rules_dir(), "moe.rules");
}

struct rule_policy *rule_find_and_load(const char *explicit_path, const char *opdir, struct diag *diag)
{
	char *path = rule_find_path(explicit_path, opdir);
	struct rule_policy *p = rule_load(path, rule_find_rules_dir(), opdir, diag);
	free(path);
	return p;
}

const struct rule_policy *rule_cache_get(struct rule_cache *c, const char *explicit_path, const char *opdir,
					 struct diag *diag)
{
	char *path = rule_find_path(explicit_path, opdir);

	if (c->policy && strcmp(c->path, path) == 0) {
		free(path);
		return c->policy;
	}
	rule_cache_release(c);
	c->policy = rule_load(path, rule_find_rules_dir(), opdir, diag);
	c->path = path;
	return c->policy;
}

void rule_cache_release(struct rule_cache *c)
{
	rule_policy_free(c->policy);
	free(c->path);
	c->policy = NULL;
	c->path = NULL;
}
