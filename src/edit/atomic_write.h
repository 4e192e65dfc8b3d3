/* Writing a file so that readers see either the old or the new contents, never
 * a half-written file: a temporary file in the same directory, fsync, rename. */
#ifndef AUTOTRACE_ATOMIC_WRITE_H
#define AUTOTRACE_ATOMIC_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "atomic_path.h"
#include "diag.h"

/* Replaces (or creates) `path` with `len` bytes of `data`. An existing file
 * keeps its permission bits; a new one gets 0644 less the umask. Errors are
 * reported to `diag` with the path; returns 0 or -1 (nothing changed then).
 * Paths are resolved as atomic_resolve says. Under a tree lock this process
 * holds (edit_journal.h), the write is a batch of one file in the tree's
 * journal; otherwise a fatal signal removes the temporary file. */
int atomic_write(const char *path, const char *data, size_t len, struct diag *diag);

/* atomic_write with flags. ATOMIC_WRITE_NO_SYNC skips the fsync: readers
 * still see the old or the new file, never a mix, but a crash may lose the
 * new one. For files rebuilt anyway, such as a build tree's copy of the
 * sources (preprocess rewrites thousands of them: fsync would cost seconds). */
enum { ATOMIC_WRITE_NO_SYNC = 1 };
int atomic_write_flags(const char *path, const char *data, size_t len, unsigned flags, struct diag *diag);

#endif
