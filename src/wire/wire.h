/* `autotrace wire`: the edits that thread the profiling output through an
 * operator project (OpDef, infer, kernel entry / Init / base runtime, aclnn,
 * pybind, samples), as one set of byte-range replacements per file.
 *
 * The layers are read with the gate's readers (project_load); each
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
#include "project_autograd.h"
#include "project_model.h"
#include "project_tokens.h"
#include "src_file.h"
#include "undo_journal.h"

#define WIRE_UNDO_NAME "wire-undo"                 /* the journal: OPDIR/.autotrace/wire-undo/ */
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
	const struct src_file *f;     /* borrowed: path and original bytes (empty when created) */
	bool create;                  /* the file does not exist yet: wire creates it */
	struct wire_edit *v;
	size_t n, cap;
};

struct wire {
	struct project_model *p;       /* borrowed */
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
	char *base_path;              /* the operator's base header (wire_base), or NULL */
	struct src_file **extra;      /* files wire read itself (aclnn headers, base headers) */
	size_t nextra;
	struct autograd_cache ag;     /* headers holding the autograd Functions bindings apply */
	/* direct launch: the values the host function being wired returns
	   without the profiling tensor (its own; two launched operators of one
	   directory return different counts), -1 outside that function */
	long fn_main;
};

/* Adds an edit of `f`; `what` is printf-style. */
void wire_edit(struct wire *w, const struct src_file *f, uint32_t start, uint32_t end, const char *text,
	       const char *what, ...) __attribute__((format(printf, 6, 7)));
/* Reports a step wire cannot do safely (an error at the location; exit 1). */
void wire_manual(struct wire *w, const struct src_file *f, uint32_t start, uint32_t end, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Calls each(w, path, ctx) for every file of the project: the operator
 * directory's (paths under it), then the rest under the project root (paths
 * under the root), as the model writes its paths. */
void wire_each_project_file(struct wire *w, void (*each)(struct wire *w, const char *path, void *ctx), void *ctx);
/* A file wire reads on its own (kept until wire_release). NULL after reporting. */
const struct src_file *wire_load(struct wire *w, const char *path);
/* wire_load of a Python file (*.py) that names one of the op's torch.ops
 * names as a word; NULL for any other file (read only to look). */
const struct src_file *wire_load_py_naming_op(struct wire *w, const char *path);
/* A file wire creates, with `text` as its whole content; `what` for the listing. */
void wire_create(struct wire *w, const char *path, const char *text, const char *what);
void wire_release(struct wire *w);

/* The new text of a file with its edits applied (newly allocated); -1 when
 * two edits overlap (an internal error, reported). */
int wire_file_result(struct wire *w, struct wire_file *wf, char **out, size_t *len);

/* A file the plan changes (or creates), with its new text. */
struct wire_result {
	struct wire_file *wf;
	char *text;
	size_t len;
};

/* Plans every layer's edits of the loaded project `p` (its operator
 * directory `opdir` as given) into `w`, writing nothing: *res then holds the
 * files whose text changes or that are created (*nres of them, freed with
 * wire_results_free; `w` with wire_release). Manual steps are reported to
 * `diag` and counted in w->manual. 0, or -1 on an internal error (reported). */
int wire_plan(struct wire *w, struct project_model *p, const char *opdir, struct diag *diag, struct wire_result **res,
	      size_t *nres);
void wire_results_free(struct wire_result *res, size_t n);

/* `wire` as a library step (wire_run.c): the project of opdir loaded, the
 * plan made, and unless dry_run written all together through the undo
 * journal (OPDIR/.autotrace/wire-undo[.<op>]/). 0, or -1 after reporting
 * (bad input, a write that failed; r->internal: an error of ours). Manual
 * steps are reported and counted in r->manual; they are not a failure. */
struct wire_run_opts {
	const char *opdir, *rules, *op;
	const char *without;          /* --without LAYERS, or NULL */
	bool dry_run;
};
struct wire_run_result {
	struct project_model *project;
	struct wire w;                /* its mode (w.required) and name (w.prof) */
	struct wire_result *files;    /* the files that change, with their new text */
	size_t nfiles;
	size_t nedits;
	unsigned manual;
	bool planned, written, internal;
};
int wire_run(const struct wire_run_opts *o, struct wire_run_result *r, struct diag *diag);
void wire_run_release(struct wire_run_result *r);
/* The line of edit k of r in its new text. */
size_t wire_edit_line(const struct wire_result *r, size_t k);

/* The layers. Each returns nothing: edits and manual steps go to `w`. */
void wire_opdef(struct wire *w);
void wire_infer(struct wire *w);
void wire_graph(struct wire *w);
void wire_kernel(struct wire *w);
void wire_base(struct wire *w);
void wire_aclnn(struct wire *w);
void wire_pybind(struct wire *w);
void wire_launch(struct wire *w);
void wire_samples(struct wire *w);
/* The Python fake / meta implementations registered for the torch.ops names
 * take the tensor (mode A) or return it last (mode B), as the schema does. */
void wire_fakes(struct wire *w);
/* Mode B: the project's other Python calls of the op (no sample) that unpack
 * its result on the spot take one more value, `_` (wire_callers.c). */
void wire_callers(struct wire *w);
/* After wire_pybind: each declaration of a binding function it changed changes with it. */
void wire_decls(struct wire *w);

/* Shared by the binding layers (wire_pybind.c, wire_launch.c). Mode B:
 * 'at::Tensor profiling_data = at::zeros(...)' (at::empty for a function
 * that only describes the output) first thing in fn's body, sized from the
 * bound named once per file (*consts_done); a manual step when fn has no
 * tensor parameter to take the options from. */
void wire_alloc_profiling(struct wire *w, const struct src_file *f, const struct pybind_func *fn, bool zeros,
			  bool *consts_done);
/* The same, the bound named at `consts_at` (UINT32_MAX: before fn), e.g.
 * before the class of a method. */
void wire_alloc_profiling_at(struct wire *w, const struct src_file *f, const struct pybind_func *fn, bool zeros,
			     bool *consts_done, uint32_t consts_at);
/* The tensor allocated already in fn: the bound's constants it uses that the
 * file no longer defines, named again before fn (once per file, *consts_done). */
void wire_bound_kept(struct wire *w, const struct src_file *f, const struct pybind_func *fn, bool *consts_done);
/* Mode B: every return of binding function fi gives the profiling tensor
 * last (wire_main_outputs values before it), its std::tuple one longer. */
void wire_mode_b_returns(struct wire *w, const struct src_file *f, const struct pybind_file *pb, long fi);

/* The device runtime for one operator, on its own (autotrace apply uses it
 * too): for each __global__ entry under the rules' kernel directory, the base
 * header its #include closure reaches (one matching the rules' 'base'
 * patterns, or one that holds the AUTOTRACE-RUNTIME markers) gets
 * device/moe_tracing.h embedded between the markers (or refreshed there);
 * when the entry reaches none, <kernel>_base.h is created beside it (include
 * guard, ENABLE_MOE_PROFILING 1, the runtime) and the entry includes it.
 * The plan holds byte-range edits of the current files and whole new files;
 * nothing is written. */
struct wire_runtime_edit {
	char *path;                   /* as the operator directory's paths are written */
	bool create;                  /* a new file: `text` is all of it */
	uint32_t start, end;          /* else: replace [start, end) of its bytes by `text` */
	char *text;
	char *what;                   /* one line for a listing */
};

struct wire_runtime {
	char *base;                   /* the operator's base header (existing or to be created) */
	struct wire_runtime_edit *v;
	size_t n;
};

/* Plans the runtime of operator `opdir` under `policy` (kernel, base);
 * `runtime_path` NULL means wire_runtime_default(). `entry`: the kernel
 * entry of the one operator of several (project_ops.h), whose base header
 * alone gets the runtime; NULL: every entry's. Returns 0 with the plan (no
 * edits: up to date), or -1 after reporting a located reason it cannot be
 * done safely (a header with a runtime of its own, unpaired markers, no
 * kernel entry). wire_runtime_release frees the plan. */
int wire_runtime_plan(const char *opdir, const struct rule_policy *policy, const char *runtime_path,
		      const char *entry, struct wire_runtime *out, struct diag *diag);
void wire_runtime_release(struct wire_runtime *r);
/* device/moe_tracing.h of this autotrace ($AUTOTRACE_DEVICE_DIR, the installed
 * or the source tree's device directory). */
const char *wire_runtime_default(void);

/* A direct kernel launch in the operator's host sources (EXEC_KERNEL_CMD,
 * ACLRT_LAUNCH_KERNEL): true with its file (kept by wire) and range. */
bool wire_direct_launch(struct wire *w, const struct src_file **f, uint32_t *start, uint32_t *end);

/* Number of outputs of the op before wiring (without the profiling output). */
size_t wire_main_outputs(const struct wire *w);
/* Number of values a Python call of the op gives before the profiling
 * tensor: what its binding returns (project_model.h, py_main), else the
 * op's outputs. The binding, its schema, fakes and samples count these. */
size_t wire_py_outputs(const struct wire *w);
/* Position of the profiling output among the outputs (existing or to be). */
size_t wire_prof_index(const struct wire *w);

/* Text helpers shared by the layers. */
/* Offset of the start of the line holding `off`. */
uint32_t wire_line_start(const struct src_file *f, uint32_t off);
/* The indentation (spaces / tabs) of the line holding `off`, newly allocated. */
char *wire_indent_at(const struct src_file *f, uint32_t off);
/* True when the identifier `id` occurs in text [start, end) of f as a whole word. */
bool wire_has_word(const struct src_file *f, uint32_t start, uint32_t end, const char *id);

/* The first `{` after `off` (before any `;`) and its match: 0, or -1. */
int wire_body_after(const struct tok_view *tv, uint32_t off, size_t *open, size_t *close);

#endif
