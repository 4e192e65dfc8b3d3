/* A scan of kernel sources: the files and directories given, then the
 * #include closure under the kernel root, one file at a time so that memory
 * follows the largest file, not the tree. Include resolution: "name" relative
 * to the including file, then the include dirs in order; <name> in the
 * include dirs only. Found under the root: followed; found outside: listed
 * only; "name" not found: a warning (once per name and scan); <name> not
 * found: a toolchain header, silently. A file over the size bound of
 * src_file_load is an error located at the #include that names it, or where
 * nothing names it (a file a directory walk found), skipped with a warning. */
#ifndef AUTOTRACE_CXX_SCAN_H
#define AUTOTRACE_CXX_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "cxx_outline.h"
#include "diag.h"
#include "src_file.h"

struct cxx_macro_table;
struct cxx_scan;

struct cxx_scan_opts {
	const char *root;                 /* kernel root; NULL: the current directory */
	const char *const *include_dirs;  /* -I, in order */
	size_t ninclude_dirs;
	struct cxx_macro_table *macros;   /* borrowed (-D/-U applied); NULL: a private table */
	const char *shown_prefix;         /* diagnostics name files PREFIX/PATH (the root as the
					   * user can open it); NULL: PATH, relative to the root */
	const char *bound;                /* the tree symbolic links may lead into (the operator
					   * directory; path_glob.h's policy); NULL: the root */
	struct diag *skipped_diag;        /* the warnings about files skipped for their size;
					   * NULL: the scan's diag */
};

/* One scanned file; the caller owns it and frees it with cxx_unit_free. */
struct cxx_unit {
	size_t index;                 /* position in the scan, from 0 */
	char *path;                   /* relative to the root ("../x.h" outside it); owned */
	struct src_file *file;        /* owned */
	struct cxx_outline *outline;  /* owned; include statuses and resolved paths filled */
};

/* Returns NULL (with an error on `diag`) when the root or an include dir
 * does not exist. `diag` is borrowed for the scan's lifetime. */
struct cxx_scan *cxx_scan_new(const struct cxx_scan_opts *opts, struct diag *diag);
void cxx_scan_free(struct cxx_scan *s);

/* Queues a file, or every C/C++ source under a directory (sorted by path,
 * dot-files skipped). Returns -1 with an error when it cannot be read. */
int cxx_scan_add(struct cxx_scan *s, const char *path);
/* Queues a file as one a walk found: one over the size bound is skipped
 * with a warning unless a file the scan reads includes it. */
int cxx_scan_add_found(struct cxx_scan *s, const char *path);

/* Outlines the next queued file, queueing the includes it follows. NULL when
 * the queue is empty. A file that cannot be read is reported (located at the
 * #include that named it), counted in cxx_scan_errors, and skipped. */
struct cxx_unit *cxx_scan_next(struct cxx_scan *s);
void cxx_unit_free(struct cxx_unit *u);

unsigned cxx_scan_errors(const struct cxx_scan *s);

/* After the scan: the files seen (in scan order), which of them define
 * __global__ kernels, and the include closure of a file (itself first, then
 * breadth first through followed includes). */
size_t cxx_scan_nfiles(const struct cxx_scan *s);
const char *cxx_scan_path(const struct cxx_scan *s, size_t i);
size_t cxx_scan_nkernels(const struct cxx_scan *s, size_t i);
const char *cxx_scan_kernel(const struct cxx_scan *s, size_t i, size_t k);
/* Fills *out (caller frees) with file indices; returns their number. */
size_t cxx_scan_closure(const struct cxx_scan *s, size_t i, size_t **out);
/* Sets reached[i] (cxx_scan_nfiles entries) for every file in the closure
 * of the files whose from[i] is set -- with `includers`, of those files and
 * every file that includes one of them, transitively (the translation
 * units they are part of) -- and returns how many are newly reached. */
size_t cxx_scan_reach(const struct cxx_scan *s, const bool *from, bool includers, bool *reached);
/* The files file i includes and the scan followed, in the order of its
 * #include lines (a file named twice, twice): their number; *out is the
 * scan's. */
size_t cxx_scan_includes(const struct cxx_scan *s, size_t i, const size_t **out);
/* The index of the file at `path` (a path that opens from here), or
 * SIZE_MAX when the scan has no such file. */
size_t cxx_scan_index(const struct cxx_scan *s, const char *path);

#endif
