/* Label templates: "{phase} aic", "{parent} {name}", "{phase} {Name}".
 * Checked at load time, expanded by the planner. */
#ifndef AUTOTRACE_RULE_TEMPLATE_H
#define AUTOTRACE_RULE_TEMPLATE_H

#include "diag.h"

/* The template variables, kept in step with their documentation by one list. */
#define RULE_TEMPLATE_VARS(X)                                                          \
	X(phase, "the phase name given by a 'phase' rule for the file or function")    \
	X(name, "the function, loop variable or callee name in kebab-case")            \
	X(parent, "the label of the enclosing trace point")                            \
	X(core, "the core type of the path: aic, aiv or mix")                            \
	X(class, "the class of the function the construct is in, in kebab-case")    \
	X(Name, "the name of {name} as the source writes it, its case kept")         \
	X(Class, "the class of {class} as the source writes it, its case kept")

enum rule_tvar {
#define X(n, doc) RULE_TVAR_##n,
	RULE_TEMPLATE_VARS(X)
#undef X
	RULE_TVAR_COUNT
};

struct rule_template_part {
	int var;      /* an enum rule_tvar, or -1 for literal text */
	char *text;   /* literal text (var == -1) */
};

struct rule_template {
	char *text;   /* as written */
	struct rule_template_part *parts;
	size_t nparts;
	struct src_loc loc;
};

/* Values for expansion; NULL or "" leaves the variable empty. */
struct rule_tvalues {
	const char *v[RULE_TVAR_COUNT];
};

/* Parses `text` (the decoded string whose literal spans `loc`). Reports
 * unknown variables, unclosed braces, empty labels; returns NULL on error. */
struct rule_template *rule_template_parse(const char *text, struct src_loc loc, struct diag *diag);

/* The label for `values`, spaces collapsed and trimmed; newly allocated. */
char *rule_template_expand(const struct rule_template *t, const struct rule_tvalues *values);

/* True when the template uses `var`. */
int rule_template_uses(const struct rule_template *t, enum rule_tvar var);

const char *rule_tvar_name(enum rule_tvar var);

/* "SendCoreFunc" -> "send-core-func", "AICProcess" -> "aic-process",
 * "moe_process" -> "moe-process"; newly allocated. */
char *rule_kebab_case(const char *name);

void rule_template_free(struct rule_template *t);

#endif
