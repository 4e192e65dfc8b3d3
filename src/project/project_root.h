/* The project an operator directory belongs to. The torch binding, the
 * samples and tests and the build script of a real project often sit outside
 * the operator directory (csrc/torch_binding.cpp, tests/e2e/..., a
 * compile_ascend_proj.sh at the top), so these project-level layers are
 * searched from a project root: the directory `--project DIR` names on the
 * command line, else the rules' `project "DIR";` (relative to the operator
 * directory), else the git top level above the operator directory, else the
 * operator directory itself. A tree is untrusted (a branch anyone may push):
 * what it says never widens the tree autotrace edits, so the rules' setting
 * must lie within the git checkout (or, outside git, within the operator
 * directory), and no root is ever "/".
 *
 * Ownership: struct project_root owns its strings. */
#ifndef AUTOTRACE_PROJECT_ROOT_H
#define AUTOTRACE_PROJECT_ROOT_H

#include "diag.h"
#include "rule_policy.h"

enum project_root_how {
	PROJECT_ROOT_RULES,        /* operator { project "DIR"; } */
	PROJECT_ROOT_GIT,          /* the git top level */
	PROJECT_ROOT_BUILD_SCRIPT, /* no git: the operator directory, holding a build script */
	PROJECT_ROOT_NAMED,        /* --project DIR */
	PROJECT_ROOT_OPDIR,        /* no git: the operator directory */
};

struct project_root {
	char *path;                /* as paths are written here: relative to the working
	                              directory when it is inside or below the root */
	char *abs;                 /* absolute */
	char *opdir_abs;           /* the operator directory, absolute */
	char *opdir_rel;           /* the operator directory relative to the root ("." itself) */
	enum project_root_how how;
};

/* Finds the root of `opdir`'s project. Returns 0, or -1 after reporting (a
 * `project` setting that is not a directory holding the operator directory,
 * or one outside the git checkout; --project not holding it; "/"). */
int project_root_find(const char *opdir, const struct rule_policy *p, struct project_root *out, struct diag *diag);
/* Makes every later project_root_find take `dir` (a directory named on the
 * command line, --project) as the root; NULL undoes it. */
void project_root_name(const char *dir);
/* The widest project a directory (absolute) may belong to: the root
 * --project names when it holds the directory, else the git top level
 * above it; NULL when neither (newly allocated). The tree lock is taken
 * there (edit_journal.h). */
char *project_root_bound(const char *abs);

void project_root_release(struct project_root *r);

/* "git top level", "the rules' project setting", ... for messages. */
const char *project_root_how_text(enum project_root_how how);

/* Makes every later project_root_find answer `abs` (an absolute directory
 * that holds the operator directories asked about), saying it was found as
 * `how` says (the staging copy of a real project stands for it); NULL undoes
 * it. */
void project_root_force(const char *abs, enum project_root_how how);

/* The build script of the operator: among the files under the root matching
 * `globs`, the one in the nearest directory on the way from the operator
 * directory up to the root; among scripts equally near, the one that names
 * the operator directory. Sets *out (a path as the root's are written) and
 * returns 0; returns -1 after reporting when there is none or the choice is
 * ambiguous (both say what was looked at). */
int project_build_script(const struct project_root *r, const struct rule_strlist *globs, char **out,
			 struct diag *diag);
/* The same; *absent is true when the project has no build script of the
 * operator (none matches, or none on the way up: the layer is absent),
 * false when the choice is ambiguous or the tree cannot be read. */
int project_build_script_or_absent(const struct project_root *r, const struct rule_strlist *globs, char **out,
				   bool *absent, struct diag *diag);

#endif
