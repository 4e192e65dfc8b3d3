/* What the G2 checks of every layer share (g2_checks.h): the fix text of a
 * misplaced profiling output, workspace-like names, the note pointing at the
 * OpDef, the profiling parameter of an aclnn function. */
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "gate_run.h"
#include "project_tokens.h"
#include "xalloc.h"

const char *const g2_fix_last =
	"make it the last output: inputs 1..N, outputs 1..M, then profiling_data (workspace and tiling may follow in the kernel)";

bool g2_workspace_like(const char *name)
{
	char *k;
	bool yes;

	if (!name)
		return false;
	k = tv_name_key(name);
	yes = strstr(k, "workspace") || strstr(k, "tiling");
	free(k);
	return yes;
}

void g2_relate_opdef(struct gate_finding *fd, const struct project_model *p)
{
	long k;

	if (!p->op || !p->op_file || p->prof_out < 0 || (k = opdef_output(p->op, (size_t)p->prof_out)) < 0)
		return;
	gate_relate(fd, gate_loc_at(p->op_file, p->op->params[k].chain.start, p->op->params[k].chain.end),
		    "the OpDef declares '%s' here: output %ld of %zu, after %zu inputs", p->op->params[k].name,
		    p->prof_out + 1, p->op->noutputs, p->op->ninputs);
}

long g2_aclnn_prof_param(const struct aclnn_func *fn, const char *prof)
{
	for (size_t i = 0; i < fn->nparams; i++)
		if (tv_names_profiling(fn->params[i].name, prof))
			return (long)i;
	return -1;
}

