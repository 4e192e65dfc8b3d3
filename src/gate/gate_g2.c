/* G2: the profiling output is the last tensor output, in the same position,
 * in every layer (OpDef, infer, kernel __global__, kernel class Init, aclnn,
 * EXEC_NPU_CMD and the returned tuple); REQUIRED/OPTIONAL as the rules' mode
 * says; never a nullptr / c10::nullopt for a REQUIRED output; no second op
 * named *_profiling; infer sets its shape and dtype unconditionally. The
 * checks of each layer live in g2_*.c (g2_checks.h), the helpers they share
 * in g2_shared.c; here, the driver. */
#include <stdlib.h>
#include <string.h>

#include "g2_checks.h"
#include "g2_scope.h"
#include "gate_run.h"
#include "project_tokens.h"
#include "xalloc.h"

/* The checks read G2's own view of the project (g2_scope.h): every file
 * under the root that names the operator, wherever wire or the model found
 * theirs, so that a layer wire missed is a finding and never a pass. */
void gate_g2(struct project_model *p, struct gate_report *r)
{
	struct g2_scope s;
	struct diag d;
	struct gate_diag_capture cap = { .report = r, .rule = GATE_RULE_G2_LAYER };

	diag_init(&d, stderr, false);
	gate_diag_capture(&d, &cap);
	if (g2_scope_load(p, &s, &d) != 0)
		return;
	g2_check_opdef(&s.view, r);
	g2_check_infer(&s.view, r);
	g2_check_graph(&s.view, r);
	g2_check_tiling(&s, r);
	g2_check_kernel(&s.view, r);
	g2_check_aclnn(&s.view, r);
	g2_check_binding(&s.view, r);
	g2_check_autograd(&s.view, r);
	g2_check_decls(&s, r);
	g2_check_calls(&s.view, r);
	g2_check_fakes(&s, r);
	g2_scope_release(&s);
}
