/* `check` as a library step: the trace points of an operator directory (or
 * of some files) checked statically -- source shape, points, pairing, the
 * runtime's reachability, the root label and the GM parameters -- each
 * finding reported to the diag. cmd_check.c turns argv into check_opts and
 * prints the result's counts; `instrument` calls it on its staging copy. */
#ifndef AUTOTRACE_CHECK_RUN_H
#define AUTOTRACE_CHECK_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "cxx_pp.h"
#include "diag.h"

struct check_opts {
	const char *rules;            /* --rules, or NULL: found from opdir */
	const char *opdir;            /* the operator directory ("." with files) */
	const char *op;               /* --op (an operator directory only), or NULL */
	const char *const *files;     /* NULL: the operator directory; else these files */
	size_t nfiles;
	const char *const *include_dirs; /* -I, after the rules' include_dirs */
	size_t ninclude_dirs;
	struct cxx_macro_table *macros;  /* -D/-U (the rules' defines are added), or NULL */
	bool verbose;                 /* show the scanner's warnings about code it could not follow */
};

struct check_result {
	size_t nfiles, npoints;
	unsigned errors;              /* the checks' findings */
	bool clean;                   /* no finding and no other error reported */
};

/* 0 when the points were checked (r->errors findings), -1 when they could
 * not be (bad rules, an operator not there, sources that cannot be read),
 * after reporting why. */
int check_run(const struct check_opts *o, struct check_result *r, struct diag *diag);

#endif
