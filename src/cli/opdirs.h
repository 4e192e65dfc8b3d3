/* Several operator directories for one command, and the undo journal of
 * one operator of a directory (opdirs.c). */
#ifndef AUTOTRACE_OPDIRS_H
#define AUTOTRACE_OPDIRS_H

#include <stdbool.h>

#include "diag.h"

/* The command's work on one operator directory; returns its exit status. */
typedef int (*opdir_fn)(const char *opdir, void *ctx, struct diag *diag);

/* Runs one() on each of dirs[0..n) (on "." when n is 0). With several, each
 * operator's output is headed by "== DIR" and a last line counts the
 * operators and those that failed (json: the outputs make one JSON array);
 * every operator is run, and the status is the one that tells most (3, 2,
 * 1, 0). */
int opdirs_run(const char *cmd, int n, char *const *dirs, bool json, opdir_fn one, void *ctx, struct diag *diag);

/* The undo journal `base` ("wire-undo", "instrument-undo") of operator `op`
 * (--op, maybe NULL) of opdir under the rules `rules` (maybe NULL): `base`
 * in a directory of one operator, "base.<snake_case>" in one of several
 * (project_ops.h), newly allocated in *name. 0, or -1 after reporting bad
 * rules, an operator that is not there, or several and none named (exit 2). */
int opdirs_journal(const char *opdir, const char *rules, const char *op, const char *base, char **name,
		   struct diag *diag);

/* The project root of opdir under the rules `rules` (maybe NULL), absolute
 * and newly allocated: the tree wire and instrument may change, locked
 * with the operator directory (edit_lock_acquire_within) and the bound of
 * their undo journals. NULL after reporting (bad rules, a bad `project`). */
char *opdirs_project_top(const char *opdir, const char *rules, struct diag *diag);

#endif
