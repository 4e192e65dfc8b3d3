/* Loading an operator's kernel sources for the planner: the scan of the
 * kernel root under the policy (include dirs, define/undef), the followed
 * includes of each file, the base headers and what reaches them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_pp.h"
#include "cxx_scan.h"
#include "kernel_scan.h"
#include "path_glob.h"
#include "plan_int.h"
#include "runtime_embed.h"
#include "src_file.h"
#include "xalloc.h"

static size_t find_unit(struct plan_map *paths, const char *path)
{
	const size_t *a;
	const int *b;

	if (plan_map_get(paths, path, &a, &b) == 0)
		return SIZE_MAX;
	return a[0];
}

struct plan *plan_build(const struct rule_policy *p, const char *opdir, const char *entry, struct diag *diag)
{
	struct kernel_scan_opts ko = { .policy = p, .opdir = opdir, .entry = entry, .shown_under_root = true,
					.reached = true };
	struct kernel_scan ks;
	struct cxx_scan *scan;
	struct cxx_unit *u;
	struct plan_unit *units = NULL;
	struct plan_map *paths = plan_map_new();
	size_t nunits = 0, cap = 0;
	struct plan *pl = NULL;
	bool failed = false;

	if (kernel_scan_open(&ks, &ko, diag, diag) != 0) {
		failed = true;
		goto out;
	}
	scan = ks.scan;
	while ((u = cxx_scan_next(scan)) != NULL) {
		struct plan_unit *pu;
		XGROW(units, cap, nunits + 1);
		pu = &units[nunits];
		memset(pu, 0, sizeof(*pu));
		pu->path = strcmp(p->kernel.value, ".") != 0 ? path_join(p->kernel.value, u->path) : xstrdup(u->path);
		pu->file = u->file;
		pu->outline = u->outline;
		plan_map_add(paths, u->path, nunits, 0);
		u->file = NULL;
		u->outline = NULL;
		cxx_unit_free(u);
		nunits++;
	}
	if (cxx_scan_errors(scan)) {
		failed = true;
		goto out;
	}
	/* followed includes, as unit indices */
	for (size_t i = 0; i < nunits; i++) {
		const struct cxx_outline *ol = units[i].outline;
		for (size_t k = 0; k < ol->nincludes; k++) {
			size_t to;
			if (ol->includes[k].status != CXX_INC_FOLLOWED || !ol->includes[k].resolved)
				continue;
			to = find_unit(paths, ol->includes[k].resolved);
			if (to == SIZE_MAX)
				continue;
			units[i].incs = xrealloc(units[i].incs, (units[i].nincs + 1) * sizeof(size_t));
			units[i].incs[units[i].nincs++] = to;
		}
	}
	pl = plan_from_units(p, opdir, units, nunits, diag);
	units = NULL;
	nunits = 0;
out:
	if (failed) {
		for (size_t i = 0; i < nunits; i++) {
			cxx_outline_free(units[i].outline);
			src_file_free(units[i].file);
			free(units[i].path);
			free(units[i].incs);
		}
		free(units);
	}
	plan_map_free(paths);
	kernel_scan_close(&ks);
	return pl;
}

/* Marks the closure of `from` (through followed includes) with `stamp`. */
static void closure_mark(struct plan *pl, size_t from, unsigned *seen, unsigned stamp, size_t *stack)
{
	size_t n = 0;

	stack[n++] = from;
	seen[from] = stamp;
	while (n > 0) {
		const struct plan_unit *u = &pl->units[stack[--n]];
		for (size_t k = 0; k < u->nincs; k++) {
			if (seen[u->incs[k]] != stamp) {
				seen[u->incs[k]] = stamp;
				stack[n++] = u->incs[k];
			}
		}
	}
}

/* Does unit u hold the trace point runtime itself (a MoeTracing with a
 * body, or the macro)? Its functions get no points. */
static bool holds_runtime(const struct plan_unit *u)
{
	const struct cxx_outline *ol = u->outline;

	for (size_t i = 0; i < ol->nfuncs; i++)
		if (strncmp(ol->funcs[i].name, "MoeTracing", 10) == 0 && ol->funcs[i].def == CXX_DEF_BODY)
			return true;
	for (size_t i = 0; i < ol->nmacros; i++)
		if (strcmp(ol->macros[i].name, "MoeTracing") == 0)
			return true;
	return false;
}

/* The units matching the rules' 'base' patterns (candidates for the
 * operator's base header, see choose_base), and the units that hold the
 * runtime. A base header is instrumented like any other file: only the
 * runtime is not. */
static void find_bases(struct plan *pl, struct diag *diag)
{
	char **found = NULL;
	size_t n = 0;
	struct plan_map *paths = plan_map_new();

	for (size_t i = 0; i < pl->nunits; i++)
		plan_map_add(paths, pl->units[i].path, i, 0);
	if (path_glob(pl->opdir, pl->policy->base.v, pl->policy->base.n, &found, &n, diag) == 0) {
		for (size_t i = 0; i < n; i++) {
			size_t u = find_unit(paths, found[i]);
			if (u == SIZE_MAX)
				continue;
			pl->bases = xrealloc(pl->bases, (pl->nbases + 1) * sizeof(size_t));
			pl->bases[pl->nbases++] = u;
		}
	}
	path_glob_free(found, n);
	plan_map_free(paths);
	for (size_t i = 0; i < pl->nunits; i++)
		pl->units[i].runtime = holds_runtime(&pl->units[i]);
}

/* Sets reaches_base on every unit whose #include closure holds `base`: a
 * walk back along the include edges from it. */
static void mark_reaching(struct plan *pl, size_t base)
{
	size_t *first = xcalloc(pl->nunits + 2, sizeof(*first)), *from, *stack, n = 0, edges = 0;
	bool *seen = xcalloc(pl->nunits + 1, sizeof(*seen));

	for (size_t u = 0; u < pl->nunits; u++)
		for (size_t k = 0; k < pl->units[u].nincs; k++)
			first[pl->units[u].incs[k] + 1]++, edges++;
	for (size_t u = 0; u < pl->nunits; u++)
		first[u + 1] += first[u];
	from = xmalloc((edges + 1) * sizeof(*from));
	{
		size_t *fill = xcalloc(pl->nunits + 1, sizeof(*fill));
		for (size_t u = 0; u < pl->nunits; u++)
			for (size_t k = 0; k < pl->units[u].nincs; k++) {
				size_t t = pl->units[u].incs[k];
				from[first[t] + fill[t]++] = u;
			}
		free(fill);
	}
	stack = xmalloc((pl->nunits + 1) * sizeof(*stack));
	stack[n++] = base;
	seen[base] = true;
	while (n > 0) {
		size_t t = stack[--n];
		pl->units[t].reaches_base = true;
		for (size_t k = first[t]; k < first[t + 1]; k++)
			if (!seen[from[k]]) {
				seen[from[k]] = true;
				stack[n++] = from[k];
			}
	}
	free(stack);
	free(from);
	free(first);
	free(seen);
}

/* Does unit u define the trace point runtime (MoeTracing as a function or a
 * macro, or autotrace's embedded copy, also when the scan passed over it
 * because another operator's base defined its include guard first), or
 * include autotrace's runtime header (moe_tracing.h, from the include path)? */
static bool defines_runtime(const struct plan_unit *u)
{
	const struct cxx_outline *ol = u->outline;

	if (runtime_embedded(u->file->data, u->file->len))
		return true;

	for (size_t i = 0; i < ol->nincludes; i++) {
		const char *name = ol->includes[i].name, *slash = strrchr(name, '/');
		if (ol->includes[i].active && strcmp(slash ? slash + 1 : name, "moe_tracing.h") == 0)
			return true;
	}
	for (size_t i = 0; i < ol->nfuncs; i++)
		if (strcmp(ol->funcs[i].name, "MoeTracing") == 0 && ol->funcs[i].def == CXX_DEF_BODY)
			return true;
	for (size_t i = 0; i < ol->nmacros; i++)
		if (strcmp(ol->macros[i].name, "MoeTracing") == 0)
			return true;
	return false;
}

/* "dir/stem" of a path: without the extension. */
static char *path_stem(const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');

	if (!dot || (slash && dot < slash))
		return xstrdup(path);
	return xstrndup(path, (size_t)(dot - path));
}

/* The operator's base header: in the #include closure of a kernel entry
 * (a unit holding a root), else `<entry>_base.h` beside the entry among the
 * base matches, else a new `<entry>_base.h` to create. */
static void choose_base(struct plan *pl)
{
	size_t entry = SIZE_MAX;
	unsigned *seen = xcalloc(pl->nunits + 1, sizeof(*seen));
	size_t *stack = xmalloc((pl->nunits + 1) * sizeof(*stack));

	pl->base = SIZE_MAX;
	for (size_t i = 0; i < pl->nnodes && entry == SIZE_MAX; i++)
		if (pl->nodes[i].kind == PLAN_root)
			entry = pl->nodes[i].unit;
	if (entry != SIZE_MAX) {
		/* the base nearest the entry, breadth first along its includes (as wire
		   chooses): a header the entry shares with another operator may include
		   that operator's base too */
		size_t head = 0, tail = 0;
		bool *is_base = xcalloc(pl->nunits + 1, sizeof(*is_base));
		for (size_t b = 0; b < pl->nbases; b++)
			is_base[pl->bases[b]] = true;
		stack[tail++] = entry;
		seen[entry] = 1;
		while (head < tail && pl->base == SIZE_MAX) {
			const struct plan_unit *u = &pl->units[stack[head]];
			if (is_base[stack[head]])
				pl->base = stack[head];
			head++;
			for (size_t k = 0; k < u->nincs; k++)
				if (seen[u->incs[k]] != 1) {
					seen[u->incs[k]] = 1;
					stack[tail++] = u->incs[k];
				}
		}
		free(is_base);
		if (pl->base == SIZE_MAX) {
			char *stem = path_stem(pl->units[entry].path);
			char *want = xasprintf("%s_base.h", stem);
			for (size_t b = 0; b < pl->nbases && pl->base == SIZE_MAX; b++)
				if (strcmp(pl->units[pl->bases[b]].path, want) == 0)
					pl->base = pl->bases[b];
			if (pl->base == SIZE_MAX)
				pl->base_new = want;
			else
				free(want);
			free(stem);
		}
	} else if (pl->nbases == 1) {
		pl->base = pl->bases[0]; /* no entry: the only base there is */
	}
	if (pl->base != SIZE_MAX) {
		closure_mark(pl, pl->base, seen, 2, stack);
		for (size_t u = 0; u < pl->nunits && !pl->base_has_runtime; u++)
			if (seen[u] == 2 && defines_runtime(&pl->units[u]))
				pl->base_has_runtime = true;
		mark_reaching(pl, pl->base);
	}
	/* a header shared with another operator that reaches that operator's base,
	   with its runtime, has the runtime already (one text, one include guard) */
	for (size_t b = 0; b < pl->nbases; b++) {
		unsigned stamp = 3 + (unsigned)b;
		bool rt = false;
		if (pl->bases[b] == pl->base)
			continue;
		closure_mark(pl, pl->bases[b], seen, stamp, stack);
		for (size_t u = 0; u < pl->nunits && !rt; u++)
			rt = seen[u] == stamp && defines_runtime(&pl->units[u]);
		if (rt)
			mark_reaching(pl, pl->bases[b]);
	}
	free(stack);
	free(seen);
}

/* Frees what a walk made (the arrays of nodes and unresolved calls are
 * kept, empty, for the next walk). */
static void drop_walk(struct plan *pl)
{
	for (size_t i = 0; i < pl->nnodes; i++) {
		free(pl->nodes[i].label);
		free(pl->nodes[i].base);
		free(pl->nodes[i].why);
		free(pl->nodes[i].rule_label);
	}
	pl->nnodes = 0;
	for (size_t i = 0; i < pl->nunmatched; i++)
		free(pl->unmatched[i].what);
	for (size_t i = 0; i < pl->nshadowed; i++) {
		free(pl->shadowed[i].what);
		free(pl->shadowed[i].by_what);
	}
	free(pl->unmatched);
	free(pl->shadowed);
	pl->unmatched = pl->shadowed = NULL;
	pl->nunmatched = pl->nshadowed = 0;
	for (size_t i = 0; i < pl->nunresolved; i++) {
		free(pl->unresolved[i].callee);
		free(pl->unresolved[i].why);
	}
	pl->nunresolved = 0;
	free(pl->hand);
	pl->hand = NULL;
	pl->nhand = 0;
}

/* Drops what a walk made, so that the plan can be walked again. */
static void forget_walk(struct plan *pl)
{
	drop_walk(pl);
	pl->nroots = 0;
	pl->errors = 0; /* (a walk is forgotten only when it had none) */
	pl->density[0] = pl->density[1] = 0;
	plan_index_free(pl->index, pl->nunits);
	plan_index_build(pl);
}

struct plan *plan_from_units(const struct rule_policy *p, const char *opdir, struct plan_unit *units,
			     size_t nunits, struct diag *diag)
{
	struct plan *pl = xcalloc(1, sizeof(*pl));

	pl->policy = p;
	pl->opdir = xstrdup(opdir);
	pl->kernel_dir = path_join(opdir, p->kernel.value);
	pl->units = units;
	pl->nunits = nunits;
	for (size_t i = 0; i < nunits; i++) {
		if (!units[i].fs_path)
			units[i].fs_path = path_join(opdir, units[i].path);
		/* diagnostics name the file as it can be opened from here */
		free(units[i].file->path);
		units[i].file->path = xstrdup(units[i].fs_path);
	}
	find_bases(pl, diag);
	plan_index_build(pl);
	plan_walk(pl, diag, NULL, 0);
	if (pl->nroots && !pl->errors && plan_thin(pl) && plan_fallback_policy()) {
		/* the policy does not describe this kernel: walk again with the
		   fallback rules under it, a level less while that is denser than
		   the policy's density allows (the first walk printed nothing: a
		   walk's only messages are about a missing root and errors) */
		const struct rule_policy *fb = plan_fallback_policy();
		unsigned thin[2] = { pl->density[0], pl->density[1] };
		int depth;
		for (depth = fb->depth;; depth--) {
			forget_walk(pl);
			plan_walk(pl, diag, fb, depth);
			if (depth <= 2 || ((int)pl->density[0] <= p->density_max && (int)pl->density[1] <= p->density_max))
				break;
		}
		if (pl->errors) {
			/* a point the fallback cannot write: the plan of the rules alone */
			forget_walk(pl);
			plan_walk(pl, diag, NULL, 0);
		} else {
			pl->fallback = fb->sources[0]->path;
			pl->fallback_depth = depth;
			pl->thin_density[0] = thin[0];
			pl->thin_density[1] = thin[1];
		}
	}
	/* a rule whose regex gave up decided nothing: the plan is not one */
	pl->errors += rule_regex_limits_report(diag);
	choose_base(pl);
	pl->unit_first = xcalloc(nunits + 2, sizeof(size_t));
	pl->by_unit = xcalloc(pl->nnodes + 1, sizeof(int));
	for (size_t i = 0; i < pl->nnodes; i++)
		pl->unit_first[pl->nodes[i].unit + 1]++;
	for (size_t u = 0; u < nunits; u++)
		pl->unit_first[u + 1] += pl->unit_first[u];
	{
		size_t *fill = xcalloc(nunits + 1, sizeof(size_t));
		for (size_t i = 0; i < pl->nnodes; i++) {
			size_t u = pl->nodes[i].unit;
			pl->by_unit[pl->unit_first[u] + fill[u]++] = (int)i;
		}
		free(fill);
	}
	return pl;
}

size_t plan_unit_nodes(const struct plan *pl, size_t u, const int **nodes)
{
	*nodes = pl->by_unit + pl->unit_first[u];
	return pl->unit_first[u + 1] - pl->unit_first[u];
}

/* Frees its own fields, like every *_free (py_module_free has the same
 * shape over other fields). */
void plan_free(struct plan *pl)
{
	if (!pl)
		return;
	drop_walk(pl);
	free(pl->nodes);
	free(pl->unit_first);
	free(pl->by_unit);
	free(pl->unresolved);
	plan_index_free(pl->index, pl->nunits);
	for (size_t i = 0; i < pl->nunits; i++) {
		cxx_outline_free(pl->units[i].outline);
		src_file_free(pl->units[i].file);
		free(pl->units[i].path);
		free(pl->units[i].fs_path);
		free(pl->units[i].incs);
	}
	free(pl->units);
	free(pl->bases);
	free(pl->base_new);
	free(pl->kernel_dir);
	free(pl->opdir);
	free(pl);
}

