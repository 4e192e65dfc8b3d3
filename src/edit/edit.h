/* The editor: what `apply` inserts into a file, as a sorted list of
 * byte-offset insertions applied to the original buffer (the source is
 * never re-printed), and what `strip` removes again.
 *
 * Everything apply writes is tagged so that strip finds exactly it:
 *  - a whole line ending in `// autotrace`: a point, an added `}`, an added
 *    #include, or `return autotraceRet;`;
 *  - ` { // autotrace` at the end of a line: a `{` added after a header
 *    (`if (x)`, `for (...)`, `else`) whose body is on the next line;
 *  - `{ // autotrace split` at the end of a line: a `{` added before a body
 *    that was on the header's line; the body was moved to the next line and
 *    given the indentation of the line it now starts, which strip removes;
 *  - `/[*]autotrace:[*]/ ... /[*]:autotrace[*]/` (without the brackets): anything
 *    inserted inside a line where no line of its own fits;
 *  - `decltype(auto) autotraceRet =` in place of the keyword `return` of a
 *    `return expr;` whose value is computed before the E points are
 *    recorded (followed by the E lines and `return autotraceRet;`).
 * Ownership: an edit_list owns its fragments' text. */
#ifndef AUTOTRACE_EDIT_H
#define AUTOTRACE_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "plan.h"

#define EDIT_TAG "// autotrace"
#define EDIT_TAG_SPLIT "{ // autotrace split"
#define EDIT_INLINE_OPEN "/*autotrace:*/"
#define EDIT_INLINE_CLOSE "/*:autotrace*/"
#define EDIT_HOIST "decltype(auto) autotraceRet ="
#define EDIT_HOIST_VAR "autotraceRet"

/* Fragments at the same offset are ordered by band (0 closers, 1 openers,
 * 2 the indentation of a split body), then by k1, k2, then insertion order. */
struct edit_frag {
	uint32_t off;
	uint32_t del;      /* bytes of the original replaced (the `return` keyword), else 0 */
	int band;
	int k1, k2;
	unsigned seq;
	char *text;
};

struct edit_list {
	struct edit_frag *v;
	size_t n, cap;
	unsigned seq;
};

void edit_list_init(struct edit_list *l);
void edit_list_release(struct edit_list *l);
void edit_list_add(struct edit_list *l, uint32_t off, uint32_t del, int band, int k1, int k2, const char *text);

/* One replacement of the bytes [start, end) of a buffer by `text` (an
 * insertion when start == end). */
struct edit_span {
	uint32_t start, end;
	const char *text;
};

/* Splices the `n` spans, sorted by start (those at one offset in the order
 * given), into the `len` bytes of `data`: the result is newly allocated in
 * *out, NUL-terminated, *out_len bytes; at[i], when `at` is not NULL, is
 * where span i's text landed. A span that starts inside what an earlier one
 * replaced, or ends before its start or past the data, is refused: -1 with
 * *bad its index, nothing allocated. Skipping it instead would drop an
 * edit (a trace point, a brace) without a word, and the result would not
 * be what was planned: apply and wire both stop there. Returns 0. */
int edit_splice(const char *data, size_t len, const struct edit_span *v, size_t n, char **out, size_t *out_len,
		size_t *at, size_t *bad);

/* The text of `f` with the edits applied (newly allocated, NUL-terminated).
 * Returns 0, or -1 after reporting overlapping edits (a bug of apply). */
int edit_list_apply(struct edit_list *l, const struct src_file *f, char **out, size_t *out_len, struct diag *diag);

/* The edits apply makes to unit `u` of the plan. Returns 0, or -1 after
 * reporting why the file cannot be edited (it must not be written). */
int edit_unit(const struct plan *pl, size_t u, struct edit_list *out, struct diag *diag);

/* A tag of apply's in a source that is not what apply writes: a line of
 * the user's ending in `// autotrace`, `/[*]autotrace:[*]/ 5 /[*]:autotrace[*]/`,
 * `decltype(auto) autotraceRet =` without its `return autotraceRet;` line
 * (strip leaves them as they are), or a brace of apply's, which it writes
 * in pairs, without its pair (`broken`: strip cannot take one brace out
 * without the other). */
struct edit_foreign {
	uint32_t off, end;            /* the tag's bytes in the source */
	const char *why;
	bool broken;
};
#define EDIT_FOREIGN_MAX 64

/* What strip leaves of `data`: exactly what apply inserts removed, found by
 * its tags in the shapes apply writes them (edit.h above); with `all` also
 * every line that holds only a MoeTracing(...) statement. Returns the new
 * text (newly allocated); *removed counts the points taken out; the tags
 * in other shapes, left in the text, are in `foreign` (at most
 * EDIT_FOREIGN_MAX of them, *nforeign counts them all; NULL: not wanted). */
char *edit_strip(const char *data, size_t len, bool all, size_t *out_len, unsigned *removed,
		 struct edit_foreign *foreign, size_t *nforeign);

/* The runtime apply provides (edit_runtime.c): when the operator's base
 * header lacks MoeTracing, device/moe_tracing.h embedded in it, or a new base
 * created, both as runtime_embed.h makes them for apply (strip takes them
 * back with runtime_strip_apply). */
struct edit_runtime {
	char *path;                   /* the file to write (as opened), NULL: nothing to do */
	char *shown;                  /* relative to the operator directory */
	char *text;
	size_t len;
	bool created;                 /* a new file */
};

/* What the plan's points need: *out stays empty when the base has the
 * runtime or nothing is inserted. 0, or -1 after reporting. */
int edit_runtime_provide(const struct plan *pl, const char *runtime_path, struct edit_runtime *out,
			 struct diag *diag);
void edit_runtime_release(struct edit_runtime *r);

/* A batch of file replacements, all or nothing, even across a kill: each
 * edit_batch_add writes its temporary file next to the target at once (so
 * a large tree is written streaming), named first in the journal of the
 * tree whose lock the caller holds (edit_journal.h), and keeps each
 * original it replaces or removes reachable (a hard link next to it, else
 * a copy); edit_batch_commit makes them durable (fsync of each file and of
 * the journal, unless EDIT_BATCH_NO_SYNC), marks the batch committed and
 * renames them all, then syncs their directories and removes the backups;
 * a rename that fails half-way rolls the batch back at once (the originals
 * put back, reported as "nothing changed"); edit_batch_abort removes them,
 * leaving every target untouched. Symbolic links are followed (the target replaced,
 * the link kept) within the lock's tree only; a device or FIFO is refused,
 * and so is a target a rename could not replace (edit_write.c). Add and commit return 0, or
 * -1 after reporting with the path; a batch is freed by commit or abort. */
/* EDIT_BATCH_READONLY_OK: a file without write permission is replaced too
 * (preprocess --in-place, on a build's copy of read-only sources); else it
 * is refused, like an immutable one, before anything is written. */
enum { EDIT_BATCH_NO_SYNC = 1, EDIT_BATCH_READONLY_OK = 2 };
struct edit_batch;
struct edit_lock;
struct edit_batch *edit_batch_new(struct edit_lock *lock, unsigned flags);
int edit_batch_add(struct edit_batch *b, const char *path, const char *text, size_t len, struct diag *diag);
/* The same for an output the user named on the command line (preprocess
 * --map), which may lie outside the lock's tree. */
int edit_batch_add_given(struct edit_batch *b, const char *path, const char *text, size_t len, struct diag *diag);
/* The file at `path` is removed by the commit, with the renames (nothing
 * when it does not exist). */
int edit_batch_remove(struct edit_batch *b, const char *path, struct diag *diag);
int edit_batch_commit(struct edit_batch *b, struct diag *diag);
void edit_batch_abort(struct edit_batch *b);

/* Replaces each of `n` files with its new text as one batch under `lock`.
 * Returns 0, or -1 after reporting: no file replaced then (but when a
 * rollback itself failed, which the report says, and the next run on the
 * tree finishes). */
int edit_write_files(struct edit_lock *lock, const char *const *paths, const char *const *texts, const size_t *lens,
		     size_t n, struct diag *diag);

#endif
