/* The #if branches of a unit that the scan did not take: the code between
 * one branch's directive and the next, for the plan's listing and for the
 * edits that must hold in every configuration. */
#include <stdlib.h>
#include <string.h>

#include "cxx_nav.h"
#include "plan_int.h"
#include "xalloc.h"

/* A branch whose condition the rules decide (define/undef of a macro it
 * names), or `#if 0`: not a configuration to balance. */
static bool rules_decide(const struct rule_policy *p, const char *cond)
{
	const char *s = cond;

	if (strcmp(cond, "0") == 0)
		return true;
	while (*s) {
		if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_') {
			const char *w = s;
			char name[128];
			while ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')
				s++;
			if ((size_t)(s - w) < sizeof(name)) {
				memcpy(name, w, (size_t)(s - w));
				name[s - w] = '\0';
				if (strcmp(name, "defined") != 0 && rule_policy_defined(p, name) >= 0)
					return true;
			}
			continue;
		}
		s++;
	}
	return false;
}

size_t plan_untaken_branches(const struct plan *pl, size_t u, struct plan_branch **out)
{
	const struct cxx_outline *ol = pl->units[u].outline;
	const int *un;
	size_t nun = plan_unit_nodes(pl, u, &un), n = 0, cap = 0;

	*out = NULL;
	for (size_t c = 0; c < ol->nconds; c++) {
		const struct cxx_cond *cd = &ol->conds[c];
		bool inside = false;
		for (size_t i = 0; i < nun && !inside; i++) {
			const struct plan_node *nd = &pl->nodes[un[i]];
			inside = nd->fate == PLAN_FATE_INSERT && nd->scope.start < cd->range.start && cd->range.end <= nd->scope.end;
		}
		if (!inside)
			continue;
		for (size_t k = 0; k < cd->nbranches; k++) {
			struct cxx_range code = cxx_cond_branch_code(cd, k);
			if (cd->branches[k].taken || code.end <= code.start || rules_decide(pl->policy, cd->branches[k].condition))
				continue;
			XGROW(*out, cap, n + 1);
			(*out)[n].cond = c;
			(*out)[n].branch = (unsigned)k;
			n++;
		}
	}
	return n;
}
