/* The scan of an operator's kernel sources as its rules see them -- the one
 * place it is set up, for plan, apply, strip, check, the project model and
 * wire alike: the kernel directory (the rules' `kernel`, under the operator
 * directory), the rules' include_dirs (relative to the operator directory)
 * then any the caller adds, the rules' define/undef on the macro table, and
 * for one operator of several (project_ops.h) only the files that define
 * its __global__ entry and what they include; for the planner and the
 * project model, of a whole kernel directory only what its entries reach
 * (kernel_reach.h). */
#ifndef AUTOTRACE_KERNEL_SCAN_H
#define AUTOTRACE_KERNEL_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "cxx_pp.h"
#include "cxx_scan.h"
#include "diag.h"
#include "rule_policy.h"

struct kernel_scan_opts {
	const struct rule_policy *policy;
	const char *opdir;
	const char *entry;            /* one operator of several: its entry; NULL: the whole kernel directory */
	const char *root;             /* NULL: OPDIR/<kernel>; else the root the paths are relative to */
	const char *const *files;     /* NULL: the kernel directory (or the entry's files); else these */
	size_t nfiles;
	const char *const *include_dirs; /* after the rules' include_dirs (check -I) */
	size_t ninclude_dirs;
	struct cxx_macro_table *macros;  /* NULL: a table of the rules' defines; else the rules'
	                                    defines are added to it (the caller's -D/-U kept) */
	bool shown_under_root;        /* diagnostics name files ROOT/PATH (as the user opens them) */
	bool reached;                 /* the whole kernel directory (entry and files NULL): only
	                                 what its entries, roots and base headers reach */
	struct diag *skipped_diag;    /* the warnings about files a walk found that the size
	                                 bound leaves unread; NULL: the scan's diag */
};

struct kernel_scan {
	char *root;                   /* the directory the scan's paths are relative to */
	char **idirs;                 /* every include directory, in order */
	size_t nidirs;
	struct cxx_macro_table *macros;
	bool own_macros;
	struct cxx_scan_opts so;      /* how it was set up, for another scan of the same tree */
	struct cxx_scan *scan;        /* with its files added; cxx_scan_next gives the units */
	struct diag quiet;            /* what is said once already */
};

/* Sets up the scan (its messages to `scan_diag`; errors of the setup -- a
 * kernel directory that cannot be read, an entry no file defines -- to
 * `diag`). 0, or -1 after reporting; close it either way. */
int kernel_scan_open(struct kernel_scan *ks, const struct kernel_scan_opts *o, struct diag *scan_diag,
		     struct diag *diag);
void kernel_scan_close(struct kernel_scan *ks);

/* The build's defines (its CMakeLists.txt), then the rules' define/undef
 * statements, applied to a macro table, and a new
 * table holding them (fixed for the whole scan; cxx_macros_free). */
void kernel_scan_defines(const struct rule_policy *p, struct cxx_macro_table *macros);
struct cxx_macro_table *kernel_scan_macros(const struct rule_policy *p);

/* The files under `kernel` (the kernel root, as so->root) that define the
 * __global__ kernel entry `entry` (or the same name but for case and
 * underscores), as KERNEL/PATH (newly allocated, path_glob_free). The scan
 * that finds them has macros of its own (the headers' include guards must
 * not be defined for the scan that follows, whatever so->macros holds) and
 * shows no warning: the other operators' files are not this operator's
 * business. 0, or -1 after reporting that no file defines it, with the
 * entries there are. */
int kernel_scan_entry_files(const struct rule_policy *p, const struct cxx_scan_opts *so, const char *kernel,
			    const char *entry, char ***files, size_t *n, struct diag *diag);

#endif
