/* The resolved policy as JSON, in a stable key order (what tests compare). */
#ifndef AUTOTRACE_RULE_DUMP_H
#define AUTOTRACE_RULE_DUMP_H

#include <cjson/cJSON.h>

#include "rule_policy.h"

/* A new cJSON tree; the caller deletes it. */
cJSON *rule_dump_json(const struct rule_policy *p);

/* "file:line" of a location, or "default" when it has no file; allocated. */
char *rule_loc_text(struct src_loc loc);

#endif
