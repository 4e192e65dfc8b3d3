/* `apply` as a library step: the planned trace points of one operator (and
 * the runtime they need) computed, then written, shown or only counted.
 * cmd_apply.c turns argv into apply_opts and prints an apply_result;
 * `instrument` calls it on its staging copy and reads the result. */
#ifndef AUTOTRACE_APPLY_RUN_H
#define AUTOTRACE_APPLY_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "edit.h"
#include "plan.h"
#include "project_ops.h"
#include "rule_find.h"

enum apply_mode {
	APPLY_WRITE,                  /* write the files (under the tree's lock) */
	APPLY_SHOW,                   /* compute only: --dry-run prints the diffs */
	APPLY_COUNT,                  /* compute only: --check counts what would change */
};

struct apply_opts {
	const char *opdir;
	const char *rules;            /* --rules, or NULL: found from opdir */
	const char *op;               /* --op, or NULL */
	struct rule_cache *cache;     /* rules shared by several operators; NULL: loaded here */
	enum apply_mode mode;
};

/* One source the points change. */
struct apply_file {
	const char *path;             /* as the plan shows it */
	const char *fs_path;          /* as opened */
	const struct src_file *orig;  /* what was planned from */
	char *text;                   /* the new bytes */
	size_t len;
	unsigned points;
};

struct apply_result {
	struct plan *plan;            /* kept for the caller's reading; NULL when none */
	struct apply_file *files;     /* the sources that change */
	size_t nfiles;
	unsigned points;              /* inserted, in those files */
	struct edit_runtime runtime;  /* the runtime provided (path NULL: none) */
	bool written;                 /* APPLY_WRITE and every file written */
	bool internal;                /* the failure was ours, not the input's */
	struct rule_cache own_cache;  /* when opts->cache is NULL */
	struct project_op_choice choice;
};

/* Plans opdir and computes its edits; APPLY_WRITE writes them all together
 * (nothing, when one cannot be). 0, or -1 after reporting why (a refused
 * point, bad rules or sources, a file changed while planned, a write that
 * failed). The result holds what there is either way; release it. */
int apply_run(const struct apply_opts *o, struct apply_result *r, struct diag *diag);
void apply_result_release(struct apply_result *r);

#endif
