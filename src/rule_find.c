/* Locating the rules file for a command. */
#include "rule_find.h"

#include <stdlib.h>
#include <unistd.h>

#include "rule_load.h"
#include "xalloc.h"

const char *rule_find_rules_dir(void)
{
	const char *env = getenv("AUTOTRACE_RULES_DIR");
	return env && *env ? env : RULESDIR;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *s = xmalloc(n);
	snprintf(s, n, "%s/%s", dir, name);
	return s;
}

char *rule_find_path(const char *explicit_path, const char *opdir)
{
	char *local;

	if (explicit_path)
		return xstrdup(explicit_path);
	local = join(opdir ? opdir : ".", "autotrace.rules");
	if (access(local, F_OK) == 0)
		return local;
	free(local);
	return join(rule_find_rules_dir(), "moe.rules");
}

struct rule_policy *rule_find_and_load(const char *explicit_path, const char *opdir, struct diag *diag)
{
	char *path = rule_find_path(explicit_path, opdir);
	struct rule_policy *p = rule_load(path, rule_find_rules_dir(), diag);
	free(path);
	return p;
}
