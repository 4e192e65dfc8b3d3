/* Labels of planned points: the values of the template variables ({phase},
 * {name}, {parent}, {core}, {class}; {Name} and {Class} as the source writes
 * them) and the expansion of a rule's label. */
#include <stdlib.h>
#include <string.h>

#include "plan_walk.h"
#include "xalloc.h"

/* The last name of `scope` as written ("ns::Tiler<T>" -> "Tiler"). */
static char *last_scope_name(const char *scope)
{
	const char *s, *last;

	for (s = last = scope; *s; s++)
		if (s[0] == ':' && s[1] == ':')
			last = s + 2;
	return xstrndup(last, strcspn(last, "<"));
}

char *plan_func_name_var(const struct cxx_func *fn)
{
	char scope[512];

	if (strcmp(fn->name, "operator()") == 0 && plan_func_scope(fn, scope, sizeof(scope))[0])
		return last_scope_name(scope);
	return xstrdup(fn->name[0] == '~' ? fn->name + 1 : fn->name);
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
			while (ident_start(*p) || (*p >= '0' && *p <= '9'))
				p++;
			if (p[0] == ':' && p[1] == ':')
				continue;
			return xstrndup(s, (size_t)(p - s));
		}
		p++;
	}
	return xstrdup("");
}

char *plan_class_var(const struct cxx_func *fn)
{
	char scope[512];

	return last_scope_name(plan_func_scope(fn, scope, sizeof(scope)));
}

char *plan_kebab_var(char *written)
{
	char *k = rule_kebab_case(written);

	free(written);
	return k;
}

char *plan_make_label(struct plan_walker *w, const struct rule_trace_rule *r, const struct rule_template *t,
		      const struct plan_ctx *ctx, const char *name, unsigned core, const struct cxx_func *fn)
{
	struct rule_tvalues v;
	const char *parent = ctx->parent >= 0 ? w->pl->nodes[ctx->parent].label : "";
	char *cls = t && (rule_template_uses(t, RULE_TVAR_class) || rule_template_uses(t, RULE_TVAR_Class))
			    ? plan_class_var(fn)
			    : NULL;
	char *kcls = cls ? rule_kebab_case(cls) : NULL, *kname = rule_kebab_case(name ? name : "");
	char *label;
	/* a stage function names its own phase: "{phase} {core} {name}" of GMM1 is "gmm1 aic" */
	bool own_phase = ctx->phase && strcmp(kname, ctx->phase) == 0 && t && rule_template_uses(t, RULE_TVAR_phase);

	(void)r;
	memset(&v, 0, sizeof(v));
	v.v[RULE_TVAR_class] = kcls;
	v.v[RULE_TVAR_Class] = cls;
	v.v[RULE_TVAR_phase] = ctx->phase;
	v.v[RULE_TVAR_name] = own_phase ? "" : kname;
	v.v[RULE_TVAR_Name] = own_phase ? "" : name;
	v.v[RULE_TVAR_parent] = parent;
	v.v[RULE_TVAR_core] = core == PLAN_CORE_AIC ? "aic" : core == PLAN_CORE_AIV ? "aiv" : "mix";
	if (t)
		label = rule_template_expand(t, &v);
	else
		label = xasprintf("%s%s%s", parent, parent[0] ? " " : "", kname);
	free(cls);
	free(kcls);
	free(kname);
	{
		char *fit = plan_label_fit(label, PLAN_LABEL_MAX);
		free(label);
		return fit;
	}
}
