/* The policy structure: defaults, setters and release. */
#include "rule_policy.h"

#include <string.h>

#include "xalloc.h"

static const char *const kind_names[] = {
#define X(n) #n,
	RULE_KINDS(X)
#undef X
};

static const char *const target_names[] = {
#define X(n) #n,
	RULE_TARGETS(X)
#undef X
};

const char *rule_kind_name(enum rule_kind k)
{
	return kind_names[k];
}

const char *rule_target_name(enum rule_target t)
{
	return target_names[t];
}

void rule_str_set(struct rule_str *s, const char *value, struct src_loc loc)
{
	free(s->value);
	s->value = xstrdup(value);
	s->loc = loc;
}

void rule_strlist_clear(struct rule_strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void rule_strlist_add(struct rule_strlist *l, const char *value)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(value);
}

static void set_list(struct rule_strlist *l, const char *a, const char *b)
{
	rule_strlist_add(l, a);
	if (b)
		rule_strlist_add(l, b);
}

static struct rule_regex *default_regex(const char *pattern)
{
	struct diag quiet;
	struct rule_regex *re;

	diag_init(&quiet, stderr, false);
	re = rule_regex_compile(pattern, "", src_loc_make(NULL, 0, 0), &quiet);
	if (!re)
		abort(); /* the built-in patterns are constants */
	return re;
}

struct rule_policy *rule_policy_new(void)
{
	struct rule_policy *p = xcalloc(1, sizeof(*p));
	struct src_loc none = src_loc_make(NULL, 0, 0);

	p->version = 1;
	rule_str_set(&p->kernel, "op_kernel", none);
	set_list(&p->base, "op_kernel/*_base.h", NULL);
	set_list(&p->host, "op_host/*.cpp", "op_host/*_def.h");
	set_list(&p->infer, "op_host/*infer*.cpp", "op_host/*proto*.cpp");
	rule_strlist_add(&p->infer, "op_graph/*plugin*.cpp");
	set_list(&p->graph, "op_graph/*proto*.h", "op_host/*proto*.h");
	rule_strlist_add(&p->graph, "op_host/*proto*.cpp");
	set_list(&p->aclnn, "**/aclnn_*.cpp", NULL);
	set_list(&p->pybind, "**/*.cpp", "**/*.h");
	rule_strlist_add(&p->pybind, "**/*.hpp");
	set_list(&p->samples, "**/examples/*_sample.py", "**/test_*.py");
	rule_strlist_add(&p->samples, "**/*_test.py");
	set_list(&p->build, "**/compile_ascend_proj.sh", "**/build_aclnn.sh");
	rule_str_set(&p->profiling, "profiling_data", none);
	p->mode = RULE_MODE_AUTO;
	p->roots = xcalloc(1, sizeof(*p->roots));
	p->roots[0].label = xstrdup("processing");
	p->roots[0].loc = none;
	p->nroots = 1;
	p->depth = 7;
	p->density_min = 10;
	p->density_max = 30;
	p->hook_after = default_regex("CopyOps|copy_ops");
	p->hook_before = default_regex("(^|[\\s/])build\\.sh\\b|cmake\\s+--build");
	p->layout = NULL;
	p->clock_hz = 50000000;
	p->cores = xcalloc(2, sizeof(*p->cores));
	p->cores[0].type = xstrdup("aic");
	p->cores[0].count = 24;
	p->cores[1].type = xstrdup("aiv");
	p->cores[1].count = 48;
	p->ncores = 2;
	p->slot_words = 2048;
	return p;
}

void rule_policy_clear_roots(struct rule_policy *p)
{
	for (size_t i = 0; i < p->nroots; i++) {
		free(p->roots[i].label);
		rule_regex_free(p->roots[i].at);
	}
	free(p->roots);
	p->roots = NULL;
	p->nroots = 0;
}

void rule_trace_rule_clear(struct rule_trace_rule *r)
{
	rule_regex_free(r->match);
	rule_regex_free(r->until);
	rule_regex_free(r->calls);
	rule_template_free(r->label);
	rule_template_free(r->else_label);
	rule_template_free(r->steps);
	free(r->phase);
	free(r->index);
	free(r->extra);
	memset(r, 0, sizeof(*r));
}

int rule_policy_defined(const struct rule_policy *p, const char *name)
{
	int state = -1;

	for (size_t i = 0; i < p->ndefines; i++)
		if (strcmp(p->defines[i].name, name) == 0)
			state = p->defines[i].value != NULL;
	return state;
}

void rule_policy_free(struct rule_policy *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nsources; i++)
		src_file_free(p->sources[i]);
	free(p->sources);
	free(p->name.value);
	free(p->project.value);
	free(p->kernel.value);
	rule_strlist_clear(&p->base);
	rule_strlist_clear(&p->host);
	rule_strlist_clear(&p->infer);
	rule_strlist_clear(&p->graph);
	rule_strlist_clear(&p->aclnn);
	rule_strlist_clear(&p->pybind);
	rule_strlist_clear(&p->samples);
	rule_strlist_clear(&p->build);
	rule_strlist_clear(&p->include_dirs);
	cmake_defines_release(&p->build_defines);
	for (size_t i = 0; i < p->ndefines; i++) {
		free(p->defines[i].name);
		free(p->defines[i].value);
	}
	free(p->defines);
	free(p->profiling.value);
	rule_policy_clear_roots(p);
	for (size_t i = 0; i < p->nins; i++) {
		rule_regex_free(p->ins[i]->match);
		free(p->ins[i]);
	}
	free(p->ins);
	for (size_t i = 0; i < p->nrules; i++)
		rule_trace_rule_clear(&p->rules[i]);
	free(p->rules);
	rule_regex_free(p->hook_after);
	rule_regex_free(p->hook_before);
	free(p->hook_tree.value);
	free(p->gate_build.value);
	for (size_t i = 0; i < p->ncores; i++)
		free(p->cores[i].type);
	free(p->cores);
	free(p);
}
