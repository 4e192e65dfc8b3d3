/* Labels of planned points: the values of the template variables ({phase},
 * {name}, {parent}, {core}) and the expansion of a rule's label; a second
 * point of one label under one parent is told apart by a number. */
#include <stdlib.h>
#include <string.h>

#include "plan_walk.h"
#include "xalloc.h"

/* The kebab-case of the last name of `scope` ("ns::Tiler<T>" -> "tiler"). */
static char *last_scope_kebab(const char *scope)
{
	const char *s, *last;
	char *tmp, *out;

	for (s = last = scope; *s; s++)
		if (s[0] == ':' && s[1] == ':')
			last = s + 2;
	tmp = xstrndup(last, strcspn(last, "<"));
	out = rule_kebab_case(tmp);
	free(tmp);
	return out;
}

char *plan_func_name_var(const struct cxx_func *fn)
{
	char scope[512];

	if (strcmp(fn->name, "operator()") == 0 && plan_func_scope(fn, scope, sizeof(scope))[0])
		return last_scope_kebab(scope);
	return rule_kebab_case(fn->name[0] == '~' ? fn->name + 1 : fn->name);
}

static bool ident_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

char *plan_cond_name_var(const char *text)
{
	const char *p = text ? text : "";

	while (*p) {
		if (ident_start(*p)) {
			const char *s = p;
			char *id, *out;
			while (ident_start(*p) || (*p >= '0' && *p <= '9'))
				p++;
			if (p[0] == ':' && p[1] == ':')
				continue;
			id = xstrndup(s, (size_t)(p - s));
			out = rule_kebab_case(id);
			free(id);
			return out;
		}
		p++;
	}
	return xstrdup("");
}

char *plan_class_var(const struct cxx_func *fn)
{
	char scope[512];

	return last_scope_kebab(plan_func_scope(fn, scope, sizeof(scope)));
}

char *plan_make_label(struct plan_walker *w, const struct rule_trace_rule *r, const struct rule_template *t,
		      const struct plan_ctx *ctx, const char *name, unsigned core, const struct cxx_func *fn)
{
	struct rule_tvalues v;
	const char *parent = ctx->parent >= 0 ? w->pl->nodes[ctx->parent].label : "";
	char *cls = t && rule_template_uses(t, RULE_TVAR_class) ? plan_class_var(fn) : NULL;
	char *label;

	(void)r;
	memset(&v, 0, sizeof(v));
	v.v[RULE_TVAR_class] = cls;
	v.v[RULE_TVAR_phase] = ctx->phase;
	/* a stage function names its own phase: "{phase} {core} {name}" of GMM1 is "gmm1 aic" */
	v.v[RULE_TVAR_name] = name && ctx->phase && strcmp(name, ctx->phase) == 0 && t &&
					      rule_template_uses(t, RULE_TVAR_phase)
				      ? ""
				      : name;
	v.v[RULE_TVAR_parent] = parent;
	v.v[RULE_TVAR_core] = core == PLAN_CORE_AIC ? "aic" : core == PLAN_CORE_AIV ? "aiv" : "mix";
	if (t)
		label = rule_template_expand(t, &v);
	else
		label = xasprintf("%s%s%s", parent, parent[0] ? " " : "", name ? name : "");
	free(cls);
	{
		char *fit = plan_label_fit(label, PLAN_LABEL_MAX);
		free(label);
		return fit;
	}
}
