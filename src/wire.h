/* `autotrace wire`: the edits that thread the profiling output through an
 * operator project (OpDef, infer, kernel entry / Init / base runtime, aclnn,
 * pybind, samples), as one set of byte-range replacements per file.
 *
 * The layers are read with the gate's readers (gate_project_load); each
 * layer function only adds edits (wire_edit) or manual steps (wire_manual)
 * to the context. cmd_wire applies them: sorted per file, each file written
 * atomically after the undo journal (.autotrace/wire-undo/ in the operator
 * directory) holds its original bytes.
 *
 * Ownership: struct wire owns its edit lists and texts; it borrows the
 * project (files, scans), which must outlive it. */
#ifndef AUTOTRACE_WIRE_H
#define AUTOTRACE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "gate_project.h"
#include "gate_tokens.h"
#include "src_file.h"

#define WIRE_UNDO_DIR ".autotrace/wire-undo"
#define WIRE_RUNTIME_BEGIN "// AUTOTRACE-RUNTIME-BEGIN (moe_tracing.h; generated, edit device/moe_tracing.h instead)"
#define WIRE_RUNTIME_END "// AUTOTRACE-RUNTIME-END"
/* The upper bound the profiling tensor is sized from, named once per file. */
#define WIRE_BOUND_EXPR "MAX_INFER_GETBLOCKNUM_UB * MIX_AIC_1_2_SLOTS_PER_GROUP * PROF_SIZE_PER_CORE"

/* Replace [start, end) of the file's original text by `text`. */
struct wire_edit {
	uint32_t start, end;
	char *text;
	char *what;                   /* for the listing */
	size_t seq;                   /* insertion order, for edits at one offset */
	size_t new_at;                /* where the text landed in the result */
};

struct wire_file {
	const struct src_file *f;     /* borrowed: path and original bytes */
	struct wire_edit *v;
	size_t n, cap;
};

struct wire {
	struct gate_project *p;       /* borrowed */
	const char *opdir;
	const char *prof;             /* "profiling_data" */
	char *prof_camel;             /* "profilingData": the C++ parameter name */
	bool required;                /* mode B */
	const char *runtime_path;     /* device/moe_tracing.h */
	const char *device_dir;
	struct wire_file *files;
	size_t nfiles;
	size_t seq;
	unsigned manual;              /* steps left to the user */
	struct diag *diag;
	struct src_file **extra;      /* files wire read itself (aclnn headers, base headers) */
	size_t nextra;
};

/* Adds an edit of `f`; `what` is printf-style. */
void wire_edit(struct wire *w, const struct src_file *f, uint32_t start, uint32_t end, const char *text,
	       const char *what, ...) __attribute__((format(printf, 6, 7)));
/* Reports a step wire cannot do safely (an error at the location; exit 1). */
void wire_manual(struct wire *w, const struct src_file *f, uint32_t start, uint32_t end, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A file wire reads on its own (kept until wire_release). NULL after reporting. */
const struct src_file *wire_load(struct wire *w, const char *path);
void wire_release(struct wire *w);

/* The new text of a file with its edits applied (newly allocated); -1 when
 * two edits overlap (an internal error, reported). */
int wire_file_result(struct wire *w, struct wire_file *wf, char **out, size_t *len);

/* The layers. Each returns nothing: edits and manual steps go to `w`. */
void wire_opdef(struct wire *w);
void wire_infer(struct wire *w);
void wire_kernel(struct wire *w);
void wire_base(struct wire *w);
void wire_aclnn(struct wire *w);
void wire_pybind(struct wire *w);
void wire_samples(struct wire *w);

/* Number of outputs of the op before wiring (without the profiling output). */
size_t wire_main_outputs(const struct wire *w);
/* Position of the profiling output among the outputs (existing or to be). */
size_t wire_prof_index(const struct wire *w);

/* Text helpers shared by the layers. */
/* Offset of the start of the line holding `off`. */
uint32_t wire_line_start(const struct src_file *f, uint32_t off);
/* The indentation (spaces / tabs) of the line holding `off`, newly allocated. */
char *wire_indent_at(const struct src_file *f, uint32_t off);
/* printf into a new string. */
char *wire_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True when the identifier `id` occurs in text [start, end) of f as a whole word. */
bool wire_has_word(const struct src_file *f, uint32_t start, uint32_t end, const char *id);

/* The first `{` after `off` (before any `;`) and its match: 0, or -1. */
int wire_body_after(const struct tok_view *tv, uint32_t off, size_t *open, size_t *close);

/* The undo journal. */
/* Saves the original bytes of every file about to change (files already in
 * the journal keep their first original). Returns 0 or -1 (reported). */
int wire_journal_save(struct wire *w, const char *const *paths, const struct src_file *const *orig, size_t n);
/* Adds to `b`, the batch that writes the files, the records of `texts` as
 * what wire wrote to each (N.wired), for the files whose text before this
 * run (`orig`) was the journal's original or its last record; a file
 * edited by hand in between keeps its old record, so --undo refuses to
 * discard those edits. In the batch, the records and the files change
 * together or not at all. 0 or -1 (reported). */
struct edit_batch;
int wire_journal_wired(struct wire *w, struct edit_batch *b, const char *const *paths,
		       const struct src_file *const *orig, const char *const *texts, const size_t *lens, size_t n);
/* Restores every file of the journal and removes it; all or nothing. A file
 * edited since wire wrote it is an error (exit 2, nothing restored) unless
 * `force`; with `dry_run` a warning, and the diff is printed. Returns an exit
 * status. `lock` is the operator directory's (edit_journal.h), NULL with
 * `dry_run`. */
struct edit_lock;
int wire_undo(struct edit_lock *lock, const char *opdir, bool dry_run, bool force, struct diag *diag);

#endif
