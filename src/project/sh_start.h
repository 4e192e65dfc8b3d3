/* Where a build script starts: the working directory it is run from, taken
 * from what in the project runs it -- another shell script (`bash
 * csrc/build_aclnn.sh`, after its own `cd`s), a Python file (setup.py's
 * subprocess call, its `cwd=`), CMake (`execute_process` /
 * `add_custom_command` / `add_custom_target` with WORKING_DIRECTORY), a CI
 * file (`run:` steps of .github/workflows, .gitlab-ci.yml, their
 * `working-directory:`), a Makefile recipe -- else the project root. The
 * relative `cd`s of the script are followed from there (sh_eval.h), and the
 * reports say which directory was taken and why.
 *
 * Ownership: struct sh_start owns its strings. */
#ifndef AUTOTRACE_SH_START_H
#define AUTOTRACE_SH_START_H

#include <stddef.h>

struct sh_start {
	char *dir;                    /* absolute */
	char *runner;                 /* the file whose call decided it, relative to the root; NULL: none */
	size_t line;                  /* its line */
	char *why;                    /* why `dir`, for messages ("setup.py:12 runs it there: `bash
	                                 csrc/build_aclnn.sh`", "nothing in the project runs
	                                 csrc/build_aclnn.sh: the project root") */
};

/* Finds where `script` (a path from the working directory) starts, looking
 * at the files under `root_abs` (the project root, absolute). Never fails:
 * the project root when nothing tells. */
void sh_start_find(const char *root_abs, const char *script, struct sh_start *out);
void sh_start_release(struct sh_start *s);

/* What the text `f` of file `rel` (under the root, its kind told by its name)
 * says of where the script at `script_abs` starts: out->dir when one of its
 * calls of the script tells, else NULL (and out->why when a call does not
 * tell). For the fuzz target: the search of sh_start_find, one file. */
struct src_file;
void sh_start_scan_text(const char *root_abs, const char *script_abs, const char *rel, const struct src_file *f,
			struct sh_start *out);

#endif
