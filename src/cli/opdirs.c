/* Running a per-operator command (plan, apply, strip) on several operator
 * directories in one process: `autotrace apply ops/NAME...` does every
 * operator of a repository in one run. And the other way round, the undo
 * journal of one operator of a directory that holds several. */
#include <stdio.h>

#include "exit_status.h"
#include "opdirs.h"
#include "project_ops.h"
#include "project_root.h"
#include "rule_find.h"

/* The exit status that tells most: internal failure, bad input, findings, ok. */
static int worse(int a, int b)
{
	static const int rank[] = { [EXIT_OK] = 0, [EXIT_FINDINGS] = 1, [EXIT_BAD_INPUT] = 2, [EXIT_INTERNAL] = 3 };
	int ra = a >= 0 && a <= EXIT_INTERNAL ? rank[a] : 3, rb = b >= 0 && b <= EXIT_INTERNAL ? rank[b] : 3;

	return rb > ra ? b : a;
}

int opdirs_run(const char *cmd, int n, char *const *dirs, bool json, opdir_fn one, void *ctx, struct diag *diag)
{
	int status = EXIT_OK;
	unsigned failed = 0;

	if (n <= 1)
		return one(n == 1 ? dirs[0] : ".", ctx, diag);
	if (json)
		fputs("[\n", stdout);
	for (int i = 0; i < n; i++) {
		int s;
		if (json && i > 0)
			fputs(",\n", stdout);
		else if (!json)
			printf("%s== %s\n", i > 0 ? "\n" : "", dirs[i]);
		fflush(stdout); /* the heading comes before the operator's diagnostics */
		s = one(dirs[i], ctx, diag);
		if (s == EXIT_BAD_INPUT || s == EXIT_INTERNAL) {
			failed++;
			diag_plain(diag, DIAG_ERROR, "%s: %s failed (exit %d)", cmd, dirs[i], s);
		}
		status = worse(status, s);
	}
	if (json)
		fputs("]\n", stdout);
	else
		printf("\n%s: %d operators, %u failed\n", cmd, n, failed);
	if (fflush(stdout) != 0 || ferror(stdout))
		status = worse(status, EXIT_INTERNAL);
	return status;
}

int opdirs_journal(const char *opdir, const char *rules, const char *op, const char *base, char **name,
		   struct diag *diag)
{
	struct rule_policy *p = rule_find_and_load(rules, opdir, diag);
	struct project_op_choice c;
	int rc = -1;

	*name = NULL;
	if (p && project_op_select(opdir, p, op, &c, diag) == 0) {
		*name = project_op_journal(&c, base);
		project_op_choice_release(&c);
		rc = 0;
	}
	rule_policy_free(p);
	return rc;
}

char *opdirs_project_top(const char *opdir, const char *rules, struct diag *diag)
{
	struct rule_policy *p = rule_find_and_load(rules, opdir, diag);
	struct project_root r;
	char *top = NULL;

	if (p && project_root_find(opdir, p, &r, diag) == 0) {
		top = r.abs;
		r.abs = NULL;
		project_root_release(&r);
	}
	rule_policy_free(p);
	return top;
}
