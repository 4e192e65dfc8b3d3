/* Printing a plan: the tree of points with their fates (text), the same as
 * JSON, the density table and the calls that could not be followed. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "plan_int.h"
#include "xalloc.h"

size_t plan_node_line(const struct plan *pl, const struct plan_node *n)
{
	const struct plan_unit *u = &pl->units[n->unit];

	if (n->func < 0 || n->kind == PLAN_macro)
		return src_file_line(u->file, n->scope.start);
	if (n->stmt < 0)
		return src_file_line(u->file, u->outline->funcs[n->func].name_range.start);
	return src_file_line(u->file, u->outline->funcs[n->func].body.stmts[n->stmt].range.start);
}

static bool is_point(const struct plan_node *n)
{
	return n->fate == PLAN_FATE_INSERT || n->fate == PLAN_FATE_PRESENT || n->fate == PLAN_FATE_FOLDED ||
	       (n->fate == PLAN_FATE_REFUSED && n->rule);
}

/* "moe.rules:72": where a rule was written ("default": built in). Returns buf. */
static const char *loc_at(struct src_loc loc, char *buf, size_t size)
{
	if (!loc.file) {
		snprintf(buf, size, "default");
	} else {
		const char *path = loc.file->path, *base = strrchr(path, '/');
		snprintf(buf, size, "%s:%zu", base ? base + 1 : path, src_file_line(loc.file, loc.start));
	}
	return buf;
}

/* Where the rule that placed a point was written (loc_at). */
static const char *rule_at(const struct plan *pl, const struct plan_node *n, char *buf, size_t size)
{
	struct src_loc loc = { 0 };

	if (n->rule) {
		loc = n->rule->loc;
	} else if (n->kind == PLAN_root && n->func >= 0) {
		struct plan_fref f = { n->unit, n->func };
		loc = pl->policy->roots[pl->index->info[plan_fid(pl, f)].root_rule].loc;
	}
	return loc_at(loc, buf, size);
}

/* The name a callee ends with: "DataCopy" of "AscendC::DataCopy", "Init" of "op.Init". */
static const char *last_name(const char *callee)
{
	const char *s = callee, *last = callee;

	for (; *s; s++)
		if ((s[0] == ':' && s[1] == ':') || (s[0] == '-' && s[1] == '>'))
			last = s + 2;
		else if (*s == '.')
			last = s + 1;
	return last;
}

/* Is a function of this name defined in the kernel sources? (Else the call
 * is the Ascend C library's or the toolchain's.) */
static bool defined_here(const struct plan *pl, const char *callee)
{
	const size_t *a;
	const int *b;
	char name[256];
	const char *n = last_name(callee);
	size_t len = strcspn(n, "<");

	size_t k, ql;

	if (len >= sizeof(name))
		return false;
	memcpy(name, n, len);
	name[len] = '\0';
	if (plan_map_get(pl->index->macros, name, &a, &b) > 0)
		return true;
	k = plan_map_get(pl->index->by_name, name, &a, &b);
	/* Ns::Name(...): a definition in a scope ending with Ns */
	ql = n > callee + 2 && n[-1] == ':' ? (size_t)(n - 2 - callee) : 0;
	for (size_t i = 0; i < k; i++) {
		struct plan_fref f = { a[i], b[i] };
		char scope[512];
		size_t sl;
		if (!ql)
			return true;
		sl = strlen(plan_func_scope(plan_func(pl, f), scope, sizeof(scope)));
		if (sl >= ql && strncmp(scope + sl - ql, callee, ql) == 0 && (sl == ql || scope[sl - ql - 1] == ':'))
			return true;
	}
	return false;
}

static void indent(FILE *out, int level)
{
	for (int i = 0; i < level; i++)
		fputs("  ", out);
}

/* The #if branches the points are balanced under too, beside the scan's. */
static void print_branches(FILE *out, const struct plan *pl)
{
	bool head = false;

	for (size_t u = 0; u < pl->nunits; u++) {
		struct plan_branch *br;
		size_t n = plan_untaken_branches(pl, u, &br);
		for (size_t i = 0; i < n; i++) {
			const struct cxx_cond_branch *b = &pl->units[u].outline->conds[br[i].cond].branches[br[i].branch];
			if (!head)
				fputs("balanced under the #if branches the scan did not take, too (their returns, breaks and "
				      "continues get E points; nothing inside them is planned):\n", out);
			head = true;
			fprintf(out, "  %s:%zu  #%s%s%s\n", pl->units[u].path, src_file_line(pl->units[u].file, b->range.start),
				b->directive, b->condition[0] ? " " : "", b->condition);
		}
		free(br);
	}
}

/* Calls no definition was found for: those of names the kernel sources
 * define (worth a look: a type the planner could not follow), listed; those
 * of names defined nowhere in them (the Ascend C library, the toolchain),
 * counted. */
static void print_unresolved(FILE *out, const struct plan *pl)
{
	size_t here = 0, lib = 0, shown = 0;
	unsigned libcalls = 0;

	for (size_t i = 0; i < pl->nunresolved; i++) {
		if (defined_here(pl, pl->unresolved[i].callee))
			here++;
		else
			lib++, libcalls += pl->unresolved[i].count;
	}
	if (here) {
		fprintf(out, "calls not followed (a function of that name is in the kernel sources, but the planner could "
			     "not tell that this call reaches it): %zu\n", here);
		for (size_t i = 0; i < pl->nunresolved; i++) {
			const struct plan_unresolved *r = &pl->unresolved[i];
			if (defined_here(pl, r->callee))
				fprintf(out, "  %s  x%u  (%s:%zu)%s%s\n", r->callee, r->count, pl->units[r->unit].path,
					src_file_line(pl->units[r->unit].file, r->off), r->why ? ": " : "", r->why ? r->why : "");
		}
	}
	if (lib) {
		fprintf(out, "calls of functions defined nowhere in the kernel sources (the Ascend C library, the "
			     "toolchain): %zu name%s, %u call%s:", lib, lib == 1 ? "" : "s", libcalls, libcalls == 1 ? "" : "s");
		for (size_t i = 0; i < pl->nunresolved && shown < 12; i++)
			if (!defined_here(pl, pl->unresolved[i].callee))
				fprintf(out, "%s %s", shown++ ? "," : "", pl->unresolved[i].callee);
		fputs(lib > shown ? ", ... (--format json lists them all)\n" : "\n", out);
	}
}

/* The existing pairs no planned point took. */
static size_t plan_kept(const struct plan *pl)
{
	size_t n = 0;

	for (size_t i = 0; i < pl->nhand; i++)
		n += pl->hand[i].node < 0;
	return n;
}

void plan_print_tree(FILE *out, const struct plan *pl)
{
	unsigned count[PLAN_FATE_COUNT] = { 0 };

	if (pl->nnodes == 0)
		fputs("(no trace points: no function matches the root pattern)\n", out);
	for (size_t i = 0; i < pl->nnodes; i++) {
		const struct plan_node *n = &pl->nodes[i];
		const char *path = pl->units[n->unit].path;
		size_t line = plan_node_line(pl, n);
		count[n->fate]++;
		if (is_point(n)) {
			indent(out, n->depth - 1);
			fprintf(out, "%s  (%s %s:%zu, %s, depth %d", n->label, plan_kind_name(n->kind), path, line,
				plan_core_name(n->core), n->depth);
			if (n->extra)
				fprintf(out, ", extra %s", n->extra);
			if (n->index)
				fprintf(out, ", index %s", n->index);
			if (n->span) {
				const struct cxx_func *fn = &pl->units[n->unit].outline->funcs[n->func];
				fprintf(out, ", from line %zu",
					src_file_line(pl->units[n->unit].file, fn->body.stmts[n->span_first].range.start));
			}
			if (n->sync)
				fputs(", sync", out);
			{
				char where[256];
				fprintf(out, ", %s", rule_at(pl, n, where, sizeof(where)));
			}
			fputc(')', out);
			if (n->fate == PLAN_FATE_PRESENT)
				fputs(" present", out);
			else if (n->fate != PLAN_FATE_INSERT)
				fprintf(out, " %s: %s", plan_fate_name(n->fate), n->why ? n->why : "");
			fputc('\n', out);
		} else {
			indent(out, n->depth);
			fprintf(out, "- %s %s '%s' (%s:%zu): %s\n", plan_fate_name(n->fate), plan_kind_name(n->kind),
				n->label ? n->label : "", path, line, n->why ? n->why : "");
		}
	}
	fprintf(out, "\ndensity (distinct labels per core type, wanted %d-%d):\n", pl->policy->density_min,
		pl->policy->density_max);
	fprintf(out, "  aic  %u\n  aiv  %u\n", pl->density[0], pl->density[1]);
	if (pl->fallback) {
		const char *base = strrchr(pl->fallback, '/');
		char depth[96] = "";
		if (plan_fallback_policy() && pl->fallback_depth < plan_fallback_policy()->depth)
			snprintf(depth, sizeof(depth), ", to depth %d: depth %d gave more labels than the density allows",
				 pl->fallback_depth, pl->fallback_depth + 1);
		fprintf(out, "thin under the rules (%u distinct label%s on AIC, %u on AIV)%s (%s%s)%s\n", pl->thin_density[0],
			pl->thin_density[0] == 1 ? "" : "s", pl->thin_density[1],
			plan_thin(pl) ? ", and under the fallback rules" : ": the functions near the root are timed by the fallback rules",
			base ? base + 1 : pl->fallback, depth, plan_thin(pl) ? " too: nothing they time is reached" : "");
	}
	fprintf(out, "points: %u to insert, %u present, %u folded; %u skipped, %u merged, %u left alone, %u refused\n",
		count[PLAN_FATE_INSERT], count[PLAN_FATE_PRESENT], count[PLAN_FATE_FOLDED], count[PLAN_FATE_SKIPPED],
		count[PLAN_FATE_MERGED], count[PLAN_FATE_MACRO], count[PLAN_FATE_REFUSED]);
	if (plan_kept(pl)) {
		fprintf(out, "existing pairs kept as they are (no rule plans a point there): %zu\n", plan_kept(pl));
		for (size_t i = 0; i < pl->nhand; i++) {
			const struct plan_hand *h = &pl->hand[i];
			if (h->node >= 0)
				continue;
			fprintf(out, "  %s  (%s:%zu-%zu)\n", h->label, pl->units[h->unit].path,
				src_file_line(pl->units[h->unit].file, h->b), src_file_line(pl->units[h->unit].file, h->e));
		}
	}
	print_branches(out, pl);
	if (pl->nunmatched) {
		fprintf(out, "rules that match nothing in these sources (a name or a form the code does not have):\n");
		for (size_t i = 0; i < pl->nunmatched; i++)
			fprintf(out, "  %s\n", pl->unmatched[i].what);
	}
	if (pl->nshadowed) {
		fprintf(out, "rules always overridden by a later rule in these sources (they never decide):\n");
		for (size_t i = 0; i < pl->nshadowed; i++)
			fprintf(out, "  %s: by %s\n", pl->shadowed[i].what, pl->shadowed[i].by_what);
	}
	print_unresolved(out, pl);
}

cJSON *plan_json(const struct plan *pl)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *points, *dens, *unres;

	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "kernel", pl->policy->kernel.value);
	cJSON_AddNumberToObject(root, "depth", pl->policy->depth);
	points = cJSON_AddArrayToObject(root, "points");
	for (size_t i = 0; i < pl->nnodes; i++) {
		const struct plan_node *n = &pl->nodes[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "id", (double)i);
		if (n->parent >= 0)
			cJSON_AddNumberToObject(o, "parent", n->parent);
		else
			cJSON_AddNullToObject(o, "parent");
		cJSON_AddStringToObject(o, "label", n->label ? n->label : "");
		cJSON_AddStringToObject(o, "kind", plan_kind_name(n->kind));
		cJSON_AddStringToObject(o, "fate", plan_fate_name(n->fate));
		cJSON_AddStringToObject(o, "file", pl->units[n->unit].path);
		cJSON_AddNumberToObject(o, "line", (double)plan_node_line(pl, n));
		cJSON_AddStringToObject(o, "core", plan_core_name(n->core));
		cJSON_AddNumberToObject(o, "depth", n->depth);
		if (n->extra)
			cJSON_AddStringToObject(o, "extra", n->extra);
		if (n->index)
			cJSON_AddStringToObject(o, "index", n->index);
		if (n->why)
			cJSON_AddStringToObject(o, "why", n->why);
		if (is_point(n)) {
			char where[256];
			cJSON_AddStringToObject(o, "rule", rule_at(pl, n, where, sizeof(where)));
			if (n->sync)
				cJSON_AddTrueToObject(o, "sync");
		}
		cJSON_AddItemToArray(points, o);
	}
	dens = cJSON_AddObjectToObject(root, "density");
	cJSON_AddNumberToObject(dens, "aic", pl->density[0]);
	cJSON_AddNumberToObject(dens, "aiv", pl->density[1]);
	cJSON_AddNumberToObject(dens, "min", pl->policy->density_min);
	cJSON_AddNumberToObject(dens, "max", pl->policy->density_max);
	if (pl->fallback) {
		/* the plan of the rules alone was thin: the fallback rules timed more */
		cJSON *fb = cJSON_AddObjectToObject(root, "fallback");
		cJSON_AddStringToObject(fb, "rules", pl->fallback);
		cJSON_AddNumberToObject(fb, "depth", pl->fallback_depth);
		cJSON_AddNumberToObject(fb, "aic", pl->thin_density[0]);
		cJSON_AddNumberToObject(fb, "aiv", pl->thin_density[1]);
	} else {
		cJSON_AddNullToObject(root, "fallback");
	}
	unres = cJSON_AddArrayToObject(root, "unresolved");
	for (size_t i = 0; i < pl->nunresolved; i++) {
		const struct plan_unresolved *r = &pl->unresolved[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "callee", r->callee);
		cJSON_AddNumberToObject(o, "count", r->count);
		cJSON_AddStringToObject(o, "file", pl->units[r->unit].path);
		cJSON_AddNumberToObject(o, "line", (double)src_file_line(pl->units[r->unit].file, r->off));
		cJSON_AddBoolToObject(o, "defined_in_sources", defined_here(pl, r->callee));
		if (r->why)
			cJSON_AddStringToObject(o, "why", r->why);
		cJSON_AddItemToArray(unres, o);
	}
	unres = cJSON_AddArrayToObject(root, "kept");
	for (size_t i = 0; i < pl->nhand; i++) {
		const struct plan_hand *h = &pl->hand[i];
		cJSON *o;
		if (h->node >= 0)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "label", h->label);
		cJSON_AddStringToObject(o, "file", pl->units[h->unit].path);
		cJSON_AddNumberToObject(o, "line", (double)src_file_line(pl->units[h->unit].file, h->b));
		cJSON_AddNumberToObject(o, "end_line", (double)src_file_line(pl->units[h->unit].file, h->e));
		cJSON_AddItemToArray(unres, o);
	}
	unres = cJSON_AddArrayToObject(root, "unmatched_rules");
	for (size_t i = 0; i < pl->nunmatched; i++) {
		const struct rule_trace_rule *r = pl->unmatched[i].rule;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "rule", pl->unmatched[i].what);
		cJSON_AddStringToObject(o, "file", r->loc.file ? r->loc.file->path : "");
		cJSON_AddNumberToObject(o, "line", r->loc.file ? (double)src_file_line(r->loc.file, r->loc.start) : 0);
		cJSON_AddItemToArray(unres, o);
	}
	unres = cJSON_AddArrayToObject(root, "shadowed_rules");
	for (size_t i = 0; i < pl->nshadowed; i++) {
		cJSON *o = cJSON_CreateObject();
		char where[512];
		cJSON_AddStringToObject(o, "rule", pl->shadowed[i].what);
		cJSON_AddStringToObject(o, "at", loc_at(pl->shadowed[i].rule->loc, where, sizeof(where)));
		cJSON_AddStringToObject(o, "by", loc_at(pl->shadowed[i].by->loc, where, sizeof(where)));
		cJSON_AddStringToObject(o, "by_rule", pl->shadowed[i].by_what);
		cJSON_AddItemToArray(unres, o);
	}
	return root;
}

void plan_print_json(FILE *out, const struct plan *pl)
{
	cJSON *root = plan_json(pl);
	char *text = cJSON_Print(root);

	fputs(text, out);
	fputc('\n', out);
	free(text);
	cJSON_Delete(root);
}

void plan_warn_density(const struct plan *pl, struct diag *diag)
{
	static const char *const names[2] = { "AIC", "AIV" };

	if (pl->nroots == 0)
		return;
	for (int c = 0; c < 2; c++) {
		if ((int)pl->density[c] < pl->policy->density_min)
			diag_plain(diag, DIAG_WARNING, "%u distinct labels on %s paths: fewer than %d, the trace is coarse",
				   pl->density[c], names[c], pl->policy->density_min);
		else if ((int)pl->density[c] > pl->policy->density_max)
			diag_plain(diag, DIAG_WARNING, "%u distinct labels on %s paths: more than %d, the trace is dense",
				   pl->density[c], names[c], pl->policy->density_max);
	}
}

void plan_warn_idle_rules(const struct plan *pl, const char *opdir, struct diag *diag)
{
	for (size_t i = 0; i < pl->nunmatched; i++)
		diag_at(diag, DIAG_WARNING, pl->unmatched[i].rule->loc,
			"this rule matches nothing in the sources of %s (a name or a form the code does not have)",
			opdir);
	for (size_t i = 0; i < pl->nshadowed; i++) {
		diag_at(diag, DIAG_WARNING, pl->shadowed[i].rule->loc,
			"this rule is always overridden in the sources of %s: %s takes all it matches", opdir,
			pl->shadowed[i].by_what);
		diag_at(diag, DIAG_NOTE, pl->shadowed[i].by->loc, "the rule that overrides it");
	}
}
