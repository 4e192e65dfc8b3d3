/* Labels of planned points: the values of the template variables ({phase},
 * {name}, {parent}, {core}, {class}; {Name} and {Class} as the source writes
 * them) and the expansion of a rule's label. */
#include <stdlib.h>
#include <string.h>

#include "c_ident.h"
#include "plan_walk.h"
#include "rule_template.h"
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

/* Method names that every stage class has: they say nothing of the work. */
bool plan_generic_method(const char *name)
{
	static const char *const words[] = { "Process", "process", "Launch", "Run",  "run",       "Compute",
					     "Execute", "Apply",   "Main",   "main", "operator()" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(words[i], name) == 0)
			return true;
	return false;
}

char *plan_call_name_var(const struct cxx_call *c)
{
	const char *o = c->object, *last, *end;

	if (!c->name)
		return xstrdup("");
	if (!o || !plan_generic_method(c->name))
		return xstrdup(c->name);
	/* the object's own name: this->mmAic_ -> mmAic, ops[i].quant -> quant */
	for (last = o; *o; o++)
		if (*o == '.' || *o == '>' || *o == ':')
			last = o + 1;
	end = last + strcspn(last, "[(");
	while (end > last && end[-1] == '_')
		end--;
	if (end - last > 2 && last[0] == 'm' && last[1] == '_')
		last += 2;
	return end > last ? xstrndup(last, (size_t)(end - last)) : xstrdup(c->name);
}

/* Words of a condition that say which core runs it, which the label says
 * already ({core}), or nothing at all. */
static bool says_nothing(const char *s, size_t n)
{
	static const char *const words[] = { "ASCEND_IS_AIC", "ASCEND_IS_AIV", "g_coreType", "AIC", "AIV",
					     "AscendC",       "this",          "constexpr",  "true", "false" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && memcmp(words[i], s, n) == 0)
			return true;
	return false;
}

/* The first name of `text` from `p` on that says something: a qualifier
 * (ns::) is passed over, a member chain (a.b->c) gives its last member, a
 * core-type word is left out. Sets *end past it; NULL when there is none. */
static char *first_name(const char *text, const char *p, const char **end)
{
	while (*p) {
		const char *s, *e;
		if (!c_ident_start(*p) || (p > text && c_ident_char(p[-1]))) {
			p++;
			continue;
		}
		s = p;
		while (c_ident_char(*p))
			p++;
		e = p;
		if (p[0] == ':' && p[1] == ':')
			continue;
		/* a member chain: its last member names the thing */
		while ((p[0] == '.' && c_ident_start(p[1])) || (p[0] == '-' && p[1] == '>' && c_ident_start(p[2]))) {
			p += p[0] == '.' ? 1 : 2;
			s = p;
			while (c_ident_char(*p))
				p++;
			e = p;
		}
		if (says_nothing(s, (size_t)(e - s)))
			continue;
		*end = p;
		return xstrndup(s, (size_t)(e - s));
	}
	return NULL;
}

char *plan_cond_name_var(const char *text)
{
	const char *end;
	const char *t = text ? text : "";
	char *name = first_name(t, t, &end);

	return name ? name : xstrdup("");
}

/* Words after which an extent's name says how many, not of what
 * (expertNumInOneRank: "expert"). */
static bool count_word(const char *w, size_t n)
{
	static const char *const words[] = { "num", "nums", "count", "cnt", "size", "len", "length", "total",
					     "end", "dim", "max", "limit", "loop", "loops", "n" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && memcmp(words[i], w, n) == 0)
			return true;
	return false;
}

/* A loop variable that names nothing: a letter or two (i, e, s2) or a
 * generic counter. */
static bool says_no_what(const char *var)
{
	static const char *const words[] = { "idx", "index", "loop", "loopIdx", "iter", "it", "cnt", "count" };

	if (strlen(var) <= 2)
		return true;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(words[i], var) == 0)
			return true;
	return false;
}

/* What the extent `bound` counts: its kebab-case words up to the first that
 * says how many ("expert-num-in-one-rank" -> "expert"), or those after it
 * when it comes first ("num-experts" -> "experts"); NULL when none is left. */
static char *counted(const char *bound)
{
	char *k = rule_kebab_case(bound), *out = NULL;
	size_t n = strlen(k), start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && k[i] != '-')
			continue;
		if (count_word(k + start, i - start)) {
			if (start > 0)
				out = xstrndup(k, start - 1);
			else if (i < n && !count_word(k + i + 1, strcspn(k + i + 1, "-")))
				out = xstrndup(k + i + 1, strcspn(k + i + 1, "-"));
			break;
		}
		start = i + 1;
	}
	free(k);
	return out;
}

char *plan_loop_name_var(const char *var, const char *head)
{
	const char *cond, *p, *end;
	size_t vn;

	if (!var)
		return xstrdup("");
	if (!says_no_what(var) || !head || !(cond = strchr(head, ';')))
		return xstrdup(var);
	/* the bound the variable is compared with in the condition */
	vn = strlen(var);
	for (p = strstr(cond, var); p; p = strstr(p + 1, var)) {
		const char *q = p + vn;
		char *bound, *what;
		if ((p > head && c_ident_char(p[-1])) || c_ident_char(*q))
			continue;
		while (*q == ' ')
			q++;
		if (!(*q == '<' || (*q == '!' && q[1] == '=')) || q[1] == '<')
			continue;
		q += q[1] == '=' ? 2 : 1;
		bound = first_name(q, q, &end);
		what = bound ? counted(bound) : NULL;
		free(bound);
		if (what && *what)
			return what;
		free(what);
		break;
	}
	return xstrdup(var);
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
	/* (where nothing names a phase, the root's label does: "processing aiv wait-loop") */
	char *label, *phase = ctx->phase ? plan_phase_fit(ctx->phase) : w->root_label ? xstrdup(w->root_label) : NULL;
	/* a stage function names its own phase: "{phase} {core} {name}" of GMM1 is "gmm1 aic" */
	char *kphase = ctx->phase ? rule_kebab_case(ctx->phase) : NULL; /* (a phase "{Name}" is as written) */
	bool own_phase = ctx->phase && (strcmp(kname, ctx->phase) == 0 || strcmp(kname, kphase) == 0) && t &&
			 rule_template_uses(t, RULE_TVAR_phase);

	(void)r;
	memset(&v, 0, sizeof(v));
	v.v[RULE_TVAR_class] = kcls;
	v.v[RULE_TVAR_Class] = cls;
	v.v[RULE_TVAR_phase] = phase;
	v.v[RULE_TVAR_name] = own_phase ? "" : kname;
	v.v[RULE_TVAR_Name] = own_phase ? "" : name;
	v.v[RULE_TVAR_parent] = parent;
	/* code both core types run has no core segment: experts write none ("processing") */
	v.v[RULE_TVAR_core] = core == PLAN_CORE_AIC ? "aic" : core == PLAN_CORE_AIV ? "aiv" : "";
	if (t)
		label = rule_template_expand(t, &v);
	else
		label = xasprintf("%s%s%s", parent, parent[0] ? " " : "", kname);
	free(cls);
	free(kcls);
	free(kname);
	free(kphase);
	free(phase);
	{
		char *fit = plan_label_fit(label, PLAN_LABEL_MAX);
		free(label);
		return fit;
	}
}
