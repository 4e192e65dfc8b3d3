/* `learn` as a step: the rules file that puts an operator's existing points
 * back, and how well it does (learn_run.c). */
#ifndef AUTOTRACE_LEARN_RUN_H
#define AUTOTRACE_LEARN_RUN_H

#include "diag.h"

struct learn_opts {
	const char *opdir;
	const char *base;             /* --rules BASE, or NULL: the shipped moe.rules */
	const char *op;               /* --op NAME, or NULL */
	const char *entry;            /* the kernel entry of that operator, or NULL */
	const char *out_dir;          /* the directory the file goes to: BASE is included from there */
};

struct learn_result {
	char *text;                   /* the rules file (newly allocated) */
	unsigned statements;          /* written after the base's include */
	unsigned pairs, planned;      /* existing pairs; those the learned plan puts back under their label */
	unsigned hand, same, more;    /* the proof: B points in the sources; put back one to one on the
	                                 stripped copy; more points apply put there */
};

/* 0, or -1 after reporting why (bad base rules, sources that cannot be
 * planned, a scratch directory that cannot be made). The pairs the learned
 * rules do not put back are warnings, located. */
int learn_run(const struct learn_opts *o, struct learn_result *r, struct diag *diag);

#endif
