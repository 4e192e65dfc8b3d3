/* Printing a plan: the tree of points with their fates (text), the same as
 * JSON, the density table and the calls that could not be followed. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "plan_int.h"
#include "xalloc.h"

const char *plan_kind_name(enum plan_kind k)
{
	static const char *const names[] = {
#define X(n) #n,
		PLAN_KINDS(X)
#undef X
	};
	return (unsigned)k < PLAN_KIND_COUNT ? names[k] : "?";
}

const char *plan_fate_name(enum plan_fate f)
{
	static const char *const names[] = {
#define X(id, name) name,
		PLAN_FATES(X)
#undef X
	};
	return (unsigned)f < PLAN_FATE_COUNT ? names[f] : "?";
}

const char *plan_core_name(unsigned core)
{
	switch (core & PLAN_CORE_MIX) {
	case PLAN_CORE_AIC:
		return "aic";
	case PLAN_CORE_AIV:
		return "aiv";
	case PLAN_CORE_MIX:
		return "mix";
	default:
		return "none";
	}
}

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

static void indent(FILE *out, int level)
{
	for (int i = 0; i < level; i++)
		fputs("  ", out);
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
	fprintf(out, "points: %u to insert, %u present, %u folded; %u skipped, %u merged, %u left alone, %u refused\n",
		count[PLAN_FATE_INSERT], count[PLAN_FATE_PRESENT], count[PLAN_FATE_FOLDED], count[PLAN_FATE_SKIPPED],
		count[PLAN_FATE_MERGED], count[PLAN_FATE_MACRO], count[PLAN_FATE_REFUSED]);
	if (pl->nunresolved) {
		fprintf(out, "calls not followed (no definition found in the kernel sources): %zu\n", pl->nunresolved);
		for (size_t i = 0; i < pl->nunresolved; i++) {
			const struct plan_unresolved *r = &pl->unresolved[i];
			fprintf(out, "  %s  x%u  (%s:%zu)\n", r->callee, r->count, pl->units[r->unit].path,
				src_file_line(pl->units[r->unit].file, r->off));
		}
	}
}

void plan_print_json(FILE *out, const struct plan *pl)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *points, *dens, *unres;
	char *text;

	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "kernel", pl->policy->kernel.value ? pl->policy->kernel.value : ".");
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
		cJSON_AddItemToArray(points, o);
	}
	dens = cJSON_AddObjectToObject(root, "density");
	cJSON_AddNumberToObject(dens, "aic", pl->density[0]);
	cJSON_AddNumberToObject(dens, "aiv", pl->density[1]);
	cJSON_AddNumberToObject(dens, "min", pl->policy->density_min);
	cJSON_AddNumberToObject(dens, "max", pl->policy->density_max);
	unres = cJSON_AddArrayToObject(root, "unresolved");
	for (size_t i = 0; i < pl->nunresolved; i++) {
		const struct plan_unresolved *r = &pl->unresolved[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "callee", r->callee);
		cJSON_AddNumberToObject(o, "count", r->count);
		cJSON_AddStringToObject(o, "file", pl->units[r->unit].path);
		cJSON_AddNumberToObject(o, "line", (double)src_file_line(pl->units[r->unit].file, r->off));
		cJSON_AddItemToArray(unres, o);
	}
	text = cJSON_Print(root);
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
