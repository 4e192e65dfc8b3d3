/* The G1 hook block in a build script: where it belongs (right after the call
 * that copies the sources into the build tree, in the flow that runs, before
 * the build step), its text, and finding, checking and removing it. */
#ifndef AUTOTRACE_HOOK_BLOCK_H
#define AUTOTRACE_HOOK_BLOCK_H

#include <stdbool.h>

#include "diag.h"
#include "rule_regex.h"
#include "sh_scan.h"
#include "src_file.h"

#define HOOK_MARK_START "# TRACE_PREPROCESSOR_HOOK_START"
#define HOOK_MARK_END "# TRACE_PREPROCESSOR_HOOK_END"

/* Where the block goes. */
struct hook_place {
	size_t copy_cmd;      /* the call that copies the sources */
	size_t build_cmd;     /* the build step that follows it in the same flow */
	uint32_t insert_at;   /* just past the copy call's logical line */
	char *indent;         /* the copy call's indentation; owned */
	char *dest;           /* the copy destination as written (a shell word); owned */
};

/* An existing block: the byte range of its lines, markers included. */
struct hook_found {
	bool present;
	uint32_t start, end;  /* start of the START line, end of the END line (newline included) */
	uint32_t start_mark;  /* offset of the START marker text */
};

/* Finds the placement in `f` (already scanned into `sh`). On failure reports
 * a located error and returns -1. */
int hook_find_place(const struct src_file *f, const struct sh_script *sh, const struct rule_regex *after,
		    const struct rule_regex *before, struct hook_place *out, struct diag *diag);
void hook_place_release(struct hook_place *p);

/* Finds the marked block. A START without END (or the reverse, or two blocks)
 * is reported and returns -1. */
int hook_find_block(const struct src_file *f, struct hook_found *out, struct diag *diag);

/* The block text for a placement (newly allocated). With `allow_missing`, a
 * missing autotrace prints a warning instead of failing the build. */
char *hook_block_text(const struct hook_place *p, bool allow_missing);

#endif

/* Checks the block of `f` (G1): present, placed after the copy call and before
 * the build step in the same flow, preprocessing the copy destination with a
 * preprocessor that exists. Reports each finding; returns their number, or -1
 * when the script itself cannot be followed (reported too). */
int hook_verify(const struct src_file *f, const struct rule_regex *after, const struct rule_regex *before,
		struct diag *diag);

/* `f`'s text without the block `b` (newly allocated, length in *len). */
char *hook_text_without(const struct src_file *f, const struct hook_found *b, size_t *len);

/* Reports an unclosed quote or group that keeps the scanner from following
 * the script; returns -1 then, else 0. */
int hook_check_scannable(const struct src_file *f, const struct sh_script *sh, struct diag *diag);
