/* The fix gate offers for the findings wire would fix: gate finds G2, G4
 * and G5 findings on its own (it never trusts wire), and a finding in a file
 * that wire's plan changes gets the command `autotrace wire ... OPDIR` (with
 * the gate's --rules, --op and --without) as its fix. Only when wire would
 * make every step itself: with manual steps left, wire would not finish,
 * and the findings keep their hints alone. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "project_cmdline.h"
#include "sh_word.h"
#include "wire.h"
#include "wire_fixes.h"
#include "xalloc.h"

static bool wire_fixes_gate(enum gate_id g)
{
	return g == GATE_G2 || g == GATE_G4 || g == GATE_G5;
}

/* Does any error the gates wire's layers are about carry no fix yet? */
static bool wants_fixes(const struct gate_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].level == DIAG_ERROR && !r->v[i].fix && r->v[i].loc.path &&
		    wire_fixes_gate(gate_rule_gate(r->v[i].rule)))
			return true;
	return false;
}

/* Offers cmd as the fix of each error without one, of the gates above, in
 * one of the files `reals` (real paths; NULL entries skipped). */
static void attach(struct gate_report *r, char **reals, size_t n, const char *cmd)
{
	for (size_t i = 0; i < r->n; i++) {
		struct gate_finding *fd = &r->v[i];
		char *real;
		if (fd->level != DIAG_ERROR || fd->fix || !fd->loc.path || !wire_fixes_gate(gate_rule_gate(fd->rule)))
			continue;
		if (!(real = realpath(fd->loc.path, NULL)))
			continue;
		for (size_t k = 0; k < n; k++)
			if (reals[k] && strcmp(reals[k], real) == 0) {
				gate_set_fix(fd, cmd);
				break;
			}
		free(real);
	}
}

void wire_offer_fixes(struct gate_report *r, const struct project_opts *gate_opts)
{
	struct project_opts o;
	struct project_model *p;
	struct diag quiet;
	struct wire w;
	struct wire_result *res = NULL;
	size_t nres = 0;
	int planned;

	if (!wants_fixes(r))
		return;
	memset(&o, 0, sizeof(o));
	o.opdir = gate_opts->opdir;
	o.rules = gate_opts->rules;
	o.op = gate_opts->op;
	o.without = gate_opts->without;
	diag_init_quiet(&quiet);
	p = project_load(&o, &quiet);
	if (!p)
		return;
	if (quiet.errors > 0) {
		project_free(p);
		return;
	}
	planned = wire_plan(&w, p, o.opdir, &quiet, &res, &nres);
	if (planned == 0 && w.manual == 0 && quiet.errors == 0 && nres > 0) {
		char *opts = project_cmd_options(&o, true), *qo = sh_quote(o.opdir);
		char *cmd = xasprintf("autotrace wire%s %s", opts, qo);
		char **reals = xcalloc(nres, sizeof(*reals));
		for (size_t k = 0; k < nres; k++)
			if (!res[k].wf->create)
				reals[k] = realpath(res[k].wf->f->path, NULL);
		attach(r, reals, nres, cmd);
		for (size_t k = 0; k < nres; k++)
			free(reals[k]);
		free(reals);
		free(cmd);
		free(qo);
		free(opts);
	}
	wire_results_free(res, nres);
	wire_release(&w);
	project_free(p);
}
