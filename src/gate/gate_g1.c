/* G1: the build script runs the preprocessor on the build-tree copy, in a
 * hook block placed right (hook_verify), and a point_map.json found in a
 * build tree was written from the current sources (its build stamp). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gate_run.h"
#include "hook_block.h"
#include "hook_setup.h"
#include "path_glob.h"
#include "point_map.h"
#include "preprocess.h"
#include "xalloc.h"

/* The build stamp `autotrace preprocess` would write for the build-tree copy
 * of the kernel sources: the copy holds OPDIR/KERNEL as KERNEL/ at its root
 * (CopyOps copies op_host/ and op_kernel/ into the project), so the points
 * of OPDIR/KERNEL/x.h are stamped as "KERNEL/x.h". Returns 0, or -1 after
 * reporting. */
static int tree_stamp(const char *opdir, const char *kernel, uint64_t *out, struct diag *diag)
{
	char *root = path_join(opdir, kernel);
	int rc = pp_tree_stamp(root, kernel, out, diag);

	free(root);
	return rc;
}

static char *find_script(struct project_model *p, struct gate_report *r)
{
	char *path = NULL;
	struct diag d;
	struct gate_diag_capture cap = { .report = r, .rule = GATE_RULE_G1_SCRIPT,
					 .hint = "name the build script with --script FILE (gate, hook install, instrument), or set "
					 "the rules' 'build' patterns (or 'project \"DIR\";')" };

	bool absent = false;
	struct diag quiet;

	if (p->opts->script)
		return xstrdup(p->opts->script);
	diag_init_quiet(&quiet);
	if (project_build_script_or_absent(&p->root, &p->policy->build, &path, &absent, &quiet) != 0 && absent) {
		/* a project with no build script of the operator: the layer is
		   absent, G1 not run, said in its note (never passed); a point map
		   given (--point-map) is still read */
		r->gates[GATE_G1].run = p->opts->point_map != NULL;
		free(r->gates[GATE_G1].note);
		r->gates[GATE_G1].note = xasprintf("absent: no build script of the operator (the rules' build patterns, "
						   "under %s): whoever builds these sources runs 'autotrace preprocess' "
						   "on the copy it compiles (autotrace hook install --script FILE)",
						   p->root.path);
		return NULL;
	}
	if (!path) {
		gate_diag_capture(&d, &cap);
		project_build_script(&p->root, &p->policy->build, &path, &d);
	}
	return path;
}

static void check_hook(struct project_model *p, struct gate_report *r)
{
	char *path = find_script(p, r), *fix = NULL;
	struct src_file *f;
	struct diag d, td;
	struct gate_diag_capture cap = { .report = r, .rule = GATE_RULE_G1_HOOK };
	struct gate_diag_capture tcap = { .report = r, .rule = GATE_RULE_G1_TOOL };

	if (!path)
		return;
	f = src_file_load(path);
	if (!f) {
		gate_add(r, GATE_RULE_G1_SCRIPT, DIAG_ERROR, gate_loc_path(path, 0, 0), NULL,
			 "cannot read the build script: %s", strerror(errno));
		free(path);
		return;
	}
	gate_diag_capture(&d, &cap);
	gate_diag_capture(&td, &tcap);
	{
		/* the same context as `hook install|verify` makes: they agree */
		struct hook_setup hs;
		struct hook_invocation inv = { p->opts->rules, path, p->opts->tree, p->opts->opdir };
		int n = -1;
		if (hook_setup_init(&hs, &inv, p->policy, &d) == 0) {
			/* what fixes a finding, unless the finding says better: the install command */
			fix = xstrdup(hs.fix);
			cap.fix = fix;
			hs.ctx.tool_diag = &td;
			n = hook_verify(f, &hs.ctx, &d);
			hook_setup_release(&hs);
		}
		if (n < 0 && d.errors == 0)
			gate_set_fix(gate_add(r, GATE_RULE_G1_HOOK, DIAG_ERROR, gate_loc_path(path, 1, 0), NULL,
					      "the build script cannot be followed"),
				     cap.fix);
		free(fix);
	}
	src_file_free(f);
	free(path);
}

static bool is_point_map(const char *rel)
{
	const char *b = strrchr(rel, '/');

	return strcmp(b ? b + 1 : rel, "point_map.json") == 0;
}

static void check_map(struct project_model *p, struct gate_report *r, const char *path, bool *have_stamp,
		      uint64_t *stamp, bool *tried)
{
	struct diag d;
	struct gate_diag_capture cap = { .report = r, .rule = GATE_RULE_G1_STALE,
					 .hint = "rebuild: the build writes a new point_map.json" };
	struct point_map *m;

	gate_diag_capture(&d, &cap);
	m = point_map_load(path, &d);
	if (!m)
		return;
	if (!m->has_stamp) {
		gate_add(r, GATE_RULE_G1_STALE, DIAG_WARNING, gate_loc_path(path, 0, 0),
			 "rebuild with the hook: 'autotrace preprocess' writes the stamp",
			 "point_map.json has no build stamp: cannot tell whether it matches the current sources");
	} else {
		if (!*tried) {
			struct diag q;
			struct gate_diag_capture qc = { .report = r, .rule = GATE_RULE_G1_STALE };
			*tried = true;
			gate_diag_capture(&q, &qc);
			*have_stamp = tree_stamp(p->opts->opdir, p->policy->kernel.value, stamp, &q) == 0;
		}
		if (*have_stamp && *stamp != m->build_stamp)
			gate_add(r, GATE_RULE_G1_STALE, DIAG_ERROR, gate_loc_path(path, 0, 0),
				 "rebuild: the build's hook preprocesses the copy and writes a matching point_map.json",
				 "point_map.json is stale: rebuild (its build stamp %016llx, the current sources' %016llx)",
				 (unsigned long long)m->build_stamp, (unsigned long long)*stamp);
	}
	point_map_free(m);
}

static void check_stale(struct project_model *p, struct gate_report *r)
{
	char **all = NULL;
	size_t n = 0;
	bool have = false, tried = false;
	uint64_t stamp = 0;
	size_t found = 0;
	struct diag d;
	struct gate_diag_capture cap = { .report = r, .rule = GATE_RULE_G1_STALE };

	if (p->opts->point_map) {
		check_map(p, r, p->opts->point_map, &have, &stamp, &tried);
		return;
	}
	gate_diag_capture(&d, &cap);
	if (path_walk(p->opts->opdir, &all, &n, &d) != 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (is_point_map(all[i])) {
			char *path = path_join(p->opts->opdir, all[i]);
			check_map(p, r, path, &have, &stamp, &tried);
			free(path);
			found++;
		}
	path_glob_free(all, n);
	/* the hook was compared; the map it writes was not: said, never passed */
	if (!found && !r->gates[GATE_G1].note)
		r->gates[GATE_G1].note = xasprintf("point map not yet: no point_map.json under %s (the build's hook writes "
						   "it; rerun the gate after a build, or give it with --point-map)",
						   p->opts->opdir);
}

void gate_g1(struct project_model *p, struct gate_report *r)
{
	check_hook(p, r);
	if (r->gates[GATE_G1].run)
		check_stale(p, r);
}
