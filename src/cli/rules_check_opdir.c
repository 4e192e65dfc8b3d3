/* autotrace rules check OPDIR: the rules an operator directory is planned
 * with, checked, then tried on its sources: the rules of its own files that
 * match nothing, or that a later rule always overrides, are warnings. */
#include <stdio.h>
#include <stdlib.h>

#include "exit_status.h"
#include "plan.h"
#include "project_ops.h"
#include "rule_find.h"
#include "rules_check_opdir.h"

/* The planner's errors reach the user, its warnings and notes (density,
 * code it skips) do not: the check is about the rules. A note that follows
 * an error goes with it. */
struct errors_only {
	struct diag *to;
	bool after_error;
};

static void forward_errors(void *ctx, const struct diag_msg *m)
{
	struct errors_only *e = ctx;

	if (m->level == DIAG_WARNING || (m->level == DIAG_NOTE && !e->after_error)) {
		e->after_error = false;
		return;
	}
	e->after_error = m->level == DIAG_ERROR;
	if (m->loc.file)
		diag_at(e->to, m->level, m->loc, "%s", m->text);
	else if (m->path)
		diag_pos(e->to, m->level, m->path, m->line, m->col, "%s", m->text);
	else
		diag_plain(e->to, m->level, "%s", m->text);
}

int rules_check_opdir(const char *opdir, const char *rules, struct diag *diag)
{
	char *path = rule_find_path(rules, opdir);
	struct rule_policy *p = rule_find_and_load(rules, opdir, diag);
	struct project_op_choice op = { NULL, NULL, NULL, 0, -1, -1 };
	struct errors_only fwd = { diag, false };
	struct diag quiet;
	struct plan *pl = NULL;
	int status = EXIT_BAD_INPUT;

	if (!p)
		goto out;
	printf("%s: ok (%zu trace rules from %zu file%s)\n", path ? path : opdir, p->nrules, p->nsources,
	       p->nsources == 1 ? "" : "s");
	diag_init(&quiet, diag->out, diag->color);
	quiet.sink = forward_errors;
	quiet.sink_ctx = &fwd;
	if (project_op_select(opdir, p, NULL, &op, &quiet) != 0)
		goto out;
	pl = plan_build(p, opdir, op.entry, &quiet);
	if (!pl || quiet.errors)
		goto out;
	if (pl->nunits == 0) {
		diag_plain(diag, DIAG_ERROR, "rules check: %s has no kernel sources (in '%s'): the rules were tried on nothing",
			   opdir, p->kernel.value);
		goto out;
	}
	plan_warn_idle_rules(pl, opdir, diag);
	status = EXIT_OK;
out:
	fflush(stdout);
	project_op_choice_release(&op);
	plan_free(pl);
	rule_policy_free(p);
	free(path);
	return status;
}
