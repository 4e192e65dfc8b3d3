/* The G1 hook block in a build script: where it belongs, what it preprocesses,
 * its text, and finding, checking and removing it.
 *
 * Two forms. Copy: the script copies the sources into a build tree (the call
 * matching the rules' `hook after`) and builds that copy; the block goes
 * right after the copy call, in the flow that runs it, and preprocesses the
 * copy's destination -- what the copy really writes to: the destination
 * operand of cp / rsync, or, for a helper function of the script, the
 * argument its cp / rsync writes to. In place: the script builds the sources
 * where they are (no copy call at all, a build step matching `hook before`);
 * the block goes right before the build step and preprocesses the operator
 * directory as the script sees it there, keeping the original files and
 * putting them back when the script ends (an EXIT trap). That directory is
 * found by following the flow to the build step from where the script
 * starts (sh_start.h, sh_eval.h): after `cd csrc` it is written "mc2/op",
 * after `cd "${ROOT_DIR}/csrc"` it is "${ROOT_DIR}/csrc/mc2/op", with no cd
 * at all it is named from the script's own directory. Every tree written is
 * a plain path, single-quoted (sh_word_literal), or quoted text and $NAME
 * expansions (sh_word.h); a path that holds a newline is refused. */
#ifndef AUTOTRACE_HOOK_BLOCK_H
#define AUTOTRACE_HOOK_BLOCK_H

#include <stdbool.h>

#include "diag.h"
#include "rule_regex.h"
#include "sh_scan.h"
#include "sh_start.h"
#include "src_file.h"

#define HOOK_MARK_START "# TRACE_PREPROCESSOR_HOOK_START"
#define HOOK_MARK_END "# TRACE_PREPROCESSOR_HOOK_END"
/* The script's own directory, as the in-place block names it when nothing
 * changes the directory before the build step. */
#define HOOK_SCRIPT_DIR_WORD "\"$(cd \"$(dirname \"${BASH_SOURCE[0]:-$0}\")\" && pwd)\""
/* Lines of a replaced preprocessor call, kept in the block for `hook remove`. */
#define HOOK_REPLACED "# autotrace replaced: "

/* What the placement needs to know beyond the script (hook_setup.h fills it). */
struct hook_ctx {
	const struct rule_regex *after, *before;
	const char *opdir_rel;        /* the operator directory from the script's directory ("mc2/op"),
	                                 for the in-place form; NULL when unknown */
	const char *opdir_abs;        /* the same, absolute; NULL when unknown */
	const char *root_abs;         /* the project root, absolute; NULL when unknown */
	const struct sh_start *start; /* where the script starts; NULL: in its own directory */
	const char *tree;             /* the tree given (--tree, the rules' hook tree), checked by
	                                 sh_word_check_at, as given; or NULL: found from the script */
	struct src_loc tree_loc;      /* where it was given */
	bool installing;              /* install: a given tree that names another directory than the
	                                 operator's is warned about */
	const char *fix_replace;      /* the command that installs the hook in another preprocessor's
	                                 place, for the fix of that finding; or NULL */
	const char *fix_tree;         /* the same with --tree WORD, for a tree the hook cannot tell; or NULL */
	struct diag *tool_diag;       /* where the finding that the autotrace the block runs is missing
	                                 on this machine goes (a fact of the machine, not of the script:
	                                 gate's G1.tool); NULL: with the others */
};

/* Where the block goes. */
struct hook_place {
	bool in_place;        /* the in-place form */
	size_t copy_cmd;      /* copy form: the call that copies the sources */
	size_t build_cmd;     /* the build step (after the copy, in the same flow) */
	uint32_t insert_at;   /* copy: just past the copy call's logical line; in place: the build step's line */
	char *indent;         /* the anchor's indentation; owned */
	char *dest;           /* the tree to preprocess, as a shell word (its expansions quoted); owned */
	/* in place: the trees of other operators the block preprocesses too (the
	   script builds them all in one step: one block, one tree each), shell
	   words kept from the block being replaced; owned */
	char **also;
	size_t nalso;
	size_t dest_at;       /* where `dest` stands among them all (the block's own order kept) */
	char *tree_why;       /* how the tree was found, for messages; owned */
	bool from_start;      /* the tree is found from the directory the script starts in */
	/* an unmarked preprocessor call between copy and build (the field's
	   trace_preprocessor.py), which would run after the block; or none */
	bool has_foreign;
	size_t foreign_cmd;
	uint32_t foreign_start, foreign_end; /* its whole lines */
};

/* An existing block: the byte range of its lines, markers included. */
struct hook_found {
	bool present;
	uint32_t start, end;  /* start of the START line, end of the END line (newline included) */
	uint32_t start_mark;  /* offset of the START marker text */
	bool ours;            /* it runs `autotrace preprocess` (else: another preprocessor's block) */
	bool replaced;        /* it keeps what it took the place of (HOOK_REPLACED lines) */
};

/* Finds the placement in `f` (already scanned into `sh`). On failure reports
 * a located error and returns -1. */
int hook_find_place(const struct src_file *f, const struct sh_script *sh, const struct hook_ctx *ctx,
		    struct hook_place *out, struct diag *diag);
void hook_place_release(struct hook_place *p);

/* The absolute path the placement's tree names where the block stands (the
 * flow followed from where the script starts), or NULL when it depends on
 * something the script does not say. `f` and `sh` are the script without a
 * block. Newly allocated. */
char *hook_tree_path(const struct src_file *f, const struct sh_script *sh, const struct hook_place *place,
		     const struct hook_ctx *ctx);

/* Finds the marked block. A START without END (or the reverse, or two blocks)
 * is reported and returns -1. */
int hook_find_block(const struct src_file *f, struct hook_found *out, struct diag *diag);

/* The block text for a placement (newly allocated). With `allow_missing`, a
 * missing autotrace prints a warning instead of failing the build.
 * `replaced` (or NULL) is text the block takes the place of: kept in it,
 * commented, so that hook_text_without puts it back. NULL when a tree of the
 * placement is not a word hook_tree_word_ok accepts (the placement makes
 * none such: a last guard). */
char *hook_block_text(const struct hook_place *p, bool allow_missing, const char *replaced, size_t replaced_len);

/* Checks the block of `f` (G1): present, placed right, preprocessing the tree
 * the build compiles with a preprocessor that exists, and no unmarked
 * preprocessor call that would undo it. Reports each finding (located at a
 * line); returns their number, or -1 when the script itself cannot be
 * followed (reported too). */
int hook_verify(const struct src_file *f, const struct hook_ctx *ctx, struct diag *diag);

/* The trees an in-place block of ours preprocesses, as shell words (newly
 * allocated, *n of them; none for the copy form or another's block). */
void hook_block_trees(const struct src_file *f, const struct hook_found *b, char ***trees, size_t *n);

/* True when `word` is a tree word autotrace writes into a block: a safe shell
 * word (sh_word.h: what sh_word_literal, sh_word_for and sh_word_requote
 * write, quoted text with $NAME expansions, a leading ~ or ~USER), or
 * HOOK_SCRIPT_DIR_WORD followed by "/" and one. */
bool hook_tree_word_ok(const char *word);

/* True when the shell word `word` names the tree `place` preprocesses, in
 * the script `clean` (without its block). */
bool hook_same_tree(const struct src_file *clean, const struct sh_script *sh, const struct hook_place *place,
		    const struct hook_ctx *ctx, const char *word);

/* `f`'s text without the block `b`, with what the block replaced put back
 * (newly allocated, length in *len). */
char *hook_text_without(const struct src_file *f, const struct hook_found *b, size_t *len);

/* Reports an unclosed quote or group that keeps the scanner from following
 * the script; returns -1 then, else 0. */
int hook_check_scannable(const struct src_file *f, const struct sh_script *sh, struct diag *diag);

/* The operator directory `opdir` as seen from the directory of `script`
 * (newly allocated), or NULL when either cannot be resolved. */
char *hook_opdir_rel(const char *script, const char *opdir);

#endif
