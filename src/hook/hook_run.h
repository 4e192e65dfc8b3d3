/* `hook install` and `hook remove` as library steps over one session: the
 * rules, the build script (--script, else the nearest one under the project
 * root) and what the hook must preprocess (hook_setup.h). cmd_hook.c turns
 * argv into hook_opts and prints the results; `instrument` runs the install
 * on its staging copy and reads the result. */
#ifndef AUTOTRACE_HOOK_RUN_H
#define AUTOTRACE_HOOK_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "hook_setup.h"
#include "rule_policy.h"
#include "rule_regex.h"
#include "src_file.h"

struct hook_opts {
	const char *rules;            /* --rules, or NULL */
	const char *opdir;
	const char *script;           /* --script, or NULL: found */
	const char *tree;             /* --tree (checked with hook_tree_option), or NULL */
	const char *after, *before;   /* --after / --before regexes, or NULL: the rules' */
	bool allow_missing, replace, dry_run;
};

struct hook_session {
	struct rule_policy *policy;
	char *script;                 /* the build script's path */
	struct src_file *file;        /* its bytes */
	struct hook_setup setup;
	bool have_setup;
	struct rule_regex *after, *before;
	struct src_file *after_src, *before_src;
};

/* Loads the rules, finds and reads the script and sets up what the hook
 * preprocesses. 0, or -1 after reporting; close it either way. */
int hook_session_open(struct hook_session *s, const struct hook_opts *o, struct diag *diag);
void hook_session_close(struct hook_session *s);

enum hook_done { HOOK_ALREADY, HOOK_INSTALLED, HOOK_MOVED };

struct hook_install_result {
	enum hook_done done;
	bool in_place;                /* the block preprocesses the tree before the build step */
	size_t build_line;            /* the build step's line (copy form: in the new script) */
	size_t copy_line;             /* copy form: the line the block follows */
	char *dest;                   /* what it preprocesses: the tree, or the copy's target */
	char *tree_why;               /* in place: how the tree was found (NULL: given) */
	char *start_dir, *start_why;  /* ... from where the script was taken to start, or NULL */
	bool others_kept;             /* in place: the other operators' trees kept in the block */
	bool replaced;                /* another preprocessor's call is kept in it, commented */
	char *text;                   /* the new script (also for a dry run's diff) */
	size_t len;
};

/* Installs (or moves) the G1 hook block in the session's script, written
 * unless dry_run. 0, or -1 after reporting (a script the hook cannot be
 * placed in, a foreign block without --replace, a write that failed). */
int hook_install_run(struct hook_session *s, const struct hook_opts *o, struct hook_install_result *r,
		     struct diag *diag);
void hook_install_result_release(struct hook_install_result *r);

struct hook_remove_result {
	bool present;                 /* there was a block */
	size_t first_line, last_line;
	char *text;                   /* the script without it */
	size_t len;
};

/* Removes the block, written unless dry_run. 0, or -1 after reporting. */
int hook_remove_run(struct hook_session *s, const struct hook_opts *o, struct hook_remove_result *r,
		    struct diag *diag);
void hook_remove_result_release(struct hook_remove_result *r);

#endif
