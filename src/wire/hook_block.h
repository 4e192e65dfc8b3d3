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
 * putting them back when the script ends (an EXIT trap). */
#ifndef AUTOTRACE_HOOK_BLOCK_H
#define AUTOTRACE_HOOK_BLOCK_H

#include <stdbool.h>

#include "diag.h"
#include "rule_regex.h"
#include "sh_scan.h"
#include "src_file.h"

#define HOOK_MARK_START "# TRACE_PREPROCESSOR_HOOK_START"
#define HOOK_MARK_END "# TRACE_PREPROCESSOR_HOOK_END"
/* Lines of a replaced preprocessor call, kept in the block for `hook remove`. */
#define HOOK_REPLACED "# autotrace replaced: "

/* What the placement needs to know beyond the script. */
struct hook_ctx {
	const struct rule_regex *after, *before;
	const char *opdir_rel;        /* the operator directory from the script's directory ("mc2/op"),
	                                 for the in-place form; NULL when unknown */
	const char *tree;             /* --tree: the tree to preprocess as a shell word, or NULL */
};

/* Where the block goes. */
struct hook_place {
	bool in_place;        /* the in-place form */
	size_t copy_cmd;      /* copy form: the call that copies the sources */
	size_t build_cmd;     /* the build step (after the copy, in the same flow) */
	uint32_t insert_at;   /* copy: just past the copy call's logical line; in place: the build step's line */
	char *indent;         /* the anchor's indentation; owned */
	char *dest;           /* the tree to preprocess, as a shell word; owned */
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
};

/* Finds the placement in `f` (already scanned into `sh`). On failure reports
 * a located error and returns -1. */
int hook_find_place(const struct src_file *f, const struct sh_script *sh, const struct hook_ctx *ctx,
		    struct hook_place *out, struct diag *diag);
void hook_place_release(struct hook_place *p);

/* Finds the marked block. A START without END (or the reverse, or two blocks)
 * is reported and returns -1. */
int hook_find_block(const struct src_file *f, struct hook_found *out, struct diag *diag);

/* The block text for a placement (newly allocated). With `allow_missing`, a
 * missing autotrace prints a warning instead of failing the build.
 * `replaced` (or NULL) is text the block takes the place of: kept in it,
 * commented, so that hook_text_without puts it back. */
char *hook_block_text(const struct hook_place *p, bool allow_missing, const char *replaced, size_t replaced_len);

/* Checks the block of `f` (G1): present, placed right, preprocessing the tree
 * the build compiles with a preprocessor that exists, and no unmarked
 * preprocessor call that would undo it. Reports each finding (located at a
 * line); returns their number, or -1 when the script itself cannot be
 * followed (reported too). */
int hook_verify(const struct src_file *f, const struct hook_ctx *ctx, struct diag *diag);

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
