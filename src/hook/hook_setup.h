/* What the G1 hook's placement needs from outside the script, made the same
 * way for `hook install|verify`, gate's G1 and instrument's report, so that
 * the three agree: the operator directory as seen from the script, the
 * project root, where the script starts (sh_start.h), the tree given by the
 * user (--tree, else the rules' `hook tree`), and the commands that fix a
 * finding, written as the user would type them.
 *
 * Ownership: struct hook_setup owns everything its ctx points to. */
#ifndef AUTOTRACE_HOOK_SETUP_H
#define AUTOTRACE_HOOK_SETUP_H

#include "hook_block.h"
#include "rule_policy.h"
#include "sh_start.h"

/* How the command at hand was asked for: paths as the user wrote them. */
struct hook_invocation {
	const char *rules;            /* --rules, or NULL */
	const char *script;           /* the build script */
	const char *tree;             /* --tree as given (checked with hook_tree_option), or NULL */
	const char *opdir;            /* the operator directory */
};

struct hook_setup {
	struct hook_ctx ctx;
	struct sh_start start;
	char *opdir_rel, *opdir_abs, *root_abs;
	char *fix;                    /* the command that installs (or moves) the block */
	char *fix_replace;            /* the same, taking another preprocessor's place */
	char *fix_tree;               /* the same, naming the tree: --tree WORD */
	struct src_file *tree_src;    /* --tree as a source, for its locations */
};

/* Fills `hs` for the build script and operator of `inv` under the rules `p`
 * (the anchors, the project root, the rules' tree). Returns 0, or -1 after
 * reporting (a project root that cannot be found). */
int hook_setup_init(struct hook_setup *hs, const struct hook_invocation *inv, const struct rule_policy *p,
		    struct diag *diag);
void hook_setup_release(struct hook_setup *hs);

/* Checks the argument of --tree (sh_word_check_at, located at the option:
 * "--tree:1:COL"). Returns 0, or -1 after reporting. */
int hook_tree_option(const char *word, struct diag *diag);

/* `autotrace hook install [--rules R] --script S [--tree T] [--replace] OPDIR`,
 * every word shell-quoted. Newly allocated. */
char *hook_install_command(const struct hook_invocation *inv, bool replace);

#endif
