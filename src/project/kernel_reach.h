/* The files of a whole kernel directory that the planner and the project
 * model hold: those its kernel entries reach. Holding the outline of every
 * file made a tree of 100,000 small files that nothing includes cost
 * gigabytes (issue 33). A first scan of the whole directory looks at each
 * file once, one at a time, and keeps of it only its includes and the
 * names it defines (functions, the classes and namespaces they are members
 * of, types, macros). The files then read are
 *  - the #include closure of the files that define a __global__ entry or a
 *    function a `root ... at function /RE/` names, and of the files that
 *    include those (the translation units they are part of);
 *  - the base headers the rules name, and their closure;
 *  - then, as the planner resolves a call by name among all the kernel's
 *    sources (the scanner's choice of #if branches and the include paths it
 *    cannot see make the #include closure an approximation), every file
 *    that defines a name some identifier of a file read spells, with its
 *    closure, until no more are added.
 * They are read in the order of the whole directory's scan, so that the
 * macro table sees them in the same order; a file left out defines nothing
 * those files name, so its macros cannot change what they hold. */
#ifndef AUTOTRACE_KERNEL_REACH_H
#define AUTOTRACE_KERNEL_REACH_H

#include <stdbool.h>
#include <stddef.h>

#include "cxx_scan.h"
#include "diag.h"
#include "rule_policy.h"

struct kernel_reach {
	bool whole;      /* no entry and no root there: scan the whole directory */
	char **files;    /* KERNEL/PATH, in scan order; owned */
	bool *named;     /* named by the rules (a base header): read it, whatever its size */
	size_t n;
	size_t nfiles;   /* the files of the whole directory */
};

/* Fills `r` for the kernel directory `kernel` (as so->root) of operator
 * directory `opdir`. The first scan runs on `macros`, a table of its own
 * (the rules' defines: kernel_scan_macros; the include guards it defines
 * are not the next scan's), and reports nothing but the files a walk found
 * that the size bound leaves unread (to `skipped_diag`): the scan that
 * follows says the rest. Never fails: when the first scan cannot be made,
 * `whole` is set. */
void kernel_reach_files(const struct rule_policy *p, const struct cxx_scan_opts *so, struct cxx_macro_table *macros,
			const char *kernel, const char *opdir, struct kernel_reach *r, struct diag *skipped_diag);
void kernel_reach_release(struct kernel_reach *r);

#endif
