/* The planner's fallback for a thin plan. Where an operator's rules time
 * nothing below the root (a kernel the policy does not describe: none of
 * its stage names, no waits between cores), the plan is walked a second
 * time with the shipped fallback rules under the policy: they decide only
 * the functions the policy's rules leave undecided, and place no function
 * point deeper than their own `depth` (autotrace-rules(5), FALLBACK). */
#include <stdlib.h>

#include "diag.h"
#include "path_glob.h"
#include "plan_int.h"
#include "rule_find.h"
#include "rule_load.h"
#include "xalloc.h"

const struct rule_policy *plan_fallback_policy(void)
{
	/* read once per process and kept to its end: every plan of a run that
	   needs it borrows the same rules */
	static struct rule_policy *fallback;
	static bool tried;

	if (!tried) {
		char *path = path_join(rule_find_rules_dir(), "fallback.rules");
		struct diag quiet;
		tried = true;
		diag_init_quiet(&quiet);
		fallback = rule_load(path, NULL, NULL, &quiet);
		free(path);
	}
	return fallback;
}

bool plan_thin(const struct plan *pl)
{
	return pl->density[0] + pl->density[1] < PLAN_THIN_LABELS;
}
