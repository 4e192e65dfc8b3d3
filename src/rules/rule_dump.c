/* Rendering the resolved policy as JSON with cJSON (insertion order is kept,
 * so the key order below is the format). */
#include "rule_dump.h"

#include "xalloc.h"

char *rule_loc_text(struct src_loc loc)
{
	char buf[4096];

	if (!loc.file)
		return xstrdup("default");
	snprintf(buf, sizeof(buf), "%s:%zu", loc.file->path, src_file_line(loc.file, loc.start));
	return xstrdup(buf);
}

static void add_regex(cJSON *obj, const char *key, const struct rule_regex *re)
{
	char *s;

	if (!re) {
		cJSON_AddNullToObject(obj, key);
		return;
	}
	s = rule_regex_text(re);
	cJSON_AddStringToObject(obj, key, s);
	free(s);
}

static void add_list(cJSON *obj, const char *key, const struct rule_strlist *l)
{
	cJSON *arr = cJSON_AddArrayToObject(obj, key);
	for (size_t i = 0; i < l->n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(l->v[i]));
}

static void add_loc(cJSON *obj, struct src_loc loc)
{
	char *s = rule_loc_text(loc);
	cJSON_AddStringToObject(obj, "at", s);
	free(s);
}

static void add_opt_string(cJSON *obj, const char *key, const char *value)
{
	if (value)
		cJSON_AddStringToObject(obj, key, value);
	else
		cJSON_AddNullToObject(obj, key);
}

static cJSON *dump_rule(const struct rule_trace_rule *r)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "kind", rule_kind_name(r->kind));
	cJSON_AddStringToObject(o, "target", rule_target_name(r->target));
	if (r->kind == RULE_phase)
		cJSON_AddStringToObject(o, "phase", r->phase);
	bool run = r->kind == RULE_region || r->target == RULE_TARGET_region;

	add_regex(o, run ? "from" : "match", r->match);
	if (r->nth)
		cJSON_AddNumberToObject(o, "nth", r->nth);
	if (run)
		add_regex(o, "to", r->until);
	if (r->until_nth)
		cJSON_AddNumberToObject(o, "to_nth", r->until_nth);
	if (r->until_end)
		cJSON_AddTrueToObject(o, "to_end");
	if (r->from_after)
		cJSON_AddTrueToObject(o, "from_after");
	if (r->mark)
		cJSON_AddTrueToObject(o, "mark");
	if (r->calls)
		add_regex(o, "calls", r->calls);
	if (r->kind != RULE_phase && r->kind != RULE_skip && r->kind != RULE_merge && r->kind != RULE_transparent)
		add_opt_string(o, "label", r->label ? r->label->text : NULL);
	if (r->else_label)
		add_opt_string(o, "else", r->else_label->text);
	if (r->steps)
		add_opt_string(o, "steps", r->steps->text);
	if (r->kind == RULE_function || r->kind == RULE_loop || r->kind == RULE_wrap || r->kind == RULE_branch ||
	    r->kind == RULE_region) {
		add_opt_string(o, "index", r->index);
		add_opt_string(o, "extra", r->extra);
	}
	if (r->sync)
		cJSON_AddTrueToObject(o, "sync");
	if (r->opaque)
		cJSON_AddTrueToObject(o, "opaque");
	if (r->whole)
		cJSON_AddTrueToObject(o, "whole");
	if (r->in) {
		cJSON *in = cJSON_AddArrayToObject(o, "in");
		for (const struct rule_in *b = r->in; b; b = b->up) {
			cJSON *e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "target", rule_target_name(b->target));
			add_regex(e, "match", b->match);
			cJSON_AddItemToArray(in, e);
		}
	}
	add_loc(o, r->loc);
	return o;
}

cJSON *rule_dump_json(const struct rule_policy *p)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *files, *op, *prof, *defs, *tr, *rootlabel, *density, *rules, *gate, *hook, *col, *cores;

	cJSON_AddNumberToObject(root, "rules_version", p->version);
	files = cJSON_AddArrayToObject(root, "files");
	for (size_t i = 0; i < p->nsources; i++)
		cJSON_AddItemToArray(files, cJSON_CreateString(p->sources[i]->path));

	op = cJSON_AddObjectToObject(root, "operator");
	add_opt_string(op, "name", p->name.value);
	add_opt_string(op, "project", p->project.value);
	cJSON_AddStringToObject(op, "kernel", p->kernel.value);
	add_list(op, "base", &p->base);
	add_list(op, "host", &p->host);
	add_list(op, "infer", &p->infer);
	add_list(op, "graph", &p->graph);
	add_list(op, "aclnn", &p->aclnn);
	add_list(op, "pybind", &p->pybind);
	add_list(op, "samples", &p->samples);
	add_list(op, "build", &p->build);
	{
		cJSON *wo = cJSON_AddArrayToObject(op, "without");
		if (p->without_binding)
			cJSON_AddItemToArray(wo, cJSON_CreateString("binding"));
		if (p->without_samples)
			cJSON_AddItemToArray(wo, cJSON_CreateString("samples"));
	}
	add_list(op, "include_dirs", &p->include_dirs);
	defs = cJSON_AddArrayToObject(op, "defines");
	for (size_t i = 0; i < p->ndefines; i++) {
		cJSON *d = cJSON_CreateObject();
		cJSON_AddStringToObject(d, "name", p->defines[i].name);
		add_opt_string(d, "value", p->defines[i].value);
		add_loc(d, p->defines[i].loc);
		cJSON_AddItemToArray(defs, d);
	}
	prof = cJSON_AddObjectToObject(op, "profiling");
	cJSON_AddStringToObject(prof, "name", p->profiling.value);
	cJSON_AddStringToObject(prof, "mode", p->mode == RULE_MODE_REQUIRED   ? "required"
					      : p->mode == RULE_MODE_OPTIONAL ? "optional"
									      : "auto");

	tr = cJSON_AddObjectToObject(root, "trace");
	rootlabel = cJSON_AddArrayToObject(tr, "roots");
	for (size_t i = 0; i < p->nroots; i++) {
		cJSON *r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "label", p->roots[i].label);
		cJSON_AddStringToObject(r, "place", p->roots[i].at ? "function" : "kernel");
		add_regex(r, "match", p->roots[i].at);
		add_loc(r, p->roots[i].loc);
		cJSON_AddItemToArray(rootlabel, r);
	}
	cJSON_AddNumberToObject(tr, "depth", p->depth);
	density = cJSON_AddObjectToObject(tr, "density");
	cJSON_AddNumberToObject(density, "min", p->density_min);
	cJSON_AddNumberToObject(density, "max", p->density_max);
	rules = cJSON_AddArrayToObject(tr, "rules");
	for (size_t i = 0; i < p->nrules; i++)
		cJSON_AddItemToArray(rules, dump_rule(&p->rules[i]));

	gate = cJSON_AddObjectToObject(root, "gate");
	hook = cJSON_AddObjectToObject(gate, "hook");
	add_regex(hook, "after", p->hook_after);
	add_regex(hook, "before", p->hook_before);
	add_opt_string(hook, "tree", p->hook_tree.value);
	add_opt_string(gate, "build", p->gate_build.value);

	col = cJSON_AddObjectToObject(root, "collect");
	cJSON_AddStringToObject(col, "layout", p->layout ? p->layout : "auto");
	cJSON_AddNumberToObject(col, "clock_hz", (double)p->clock_hz);
	cores = cJSON_AddArrayToObject(col, "cores");
	for (size_t i = 0; i < p->ncores; i++) {
		cJSON *c = cJSON_CreateObject();
		cJSON_AddStringToObject(c, "type", p->cores[i].type);
		cJSON_AddNumberToObject(c, "count", p->cores[i].count);
		cJSON_AddItemToArray(cores, c);
	}
	cJSON_AddNumberToObject(col, "slot_words", p->slot_words);
	return root;
}
