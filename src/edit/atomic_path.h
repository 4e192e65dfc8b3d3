/* The two primitives every write of a file stands on, with no lock or
 * journal behind them: where a replacement of a path must happen (links
 * followed, streams written in place), and all of a buffer to a descriptor.
 * atomic_write.c, edit_write.c and edit_journal.c use them. */
#ifndef AUTOTRACE_ATOMIC_PATH_H
#define AUTOTRACE_ATOMIC_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* Where a replacement of `path` must happen. A symbolic link to a regular
 * file is followed, so the link stays and its target is replaced; `*target`
 * gets the path to write (newly allocated). `*in_place` is set for what
 * cannot be replaced by a rename and is written directly, through the path
 * as given: an existing device, FIFO or socket (-o /dev/null), and the
 * descriptor paths /dev/stdout, /dev/stderr, /dev/fd/N and /proc/PID/fd/N
 * (into a pipe or a file the shell opened). A link to a missing file gets that file created. -1 after
 * reporting a directory or a loop of links. */
int atomic_resolve(const char *path, char **target, bool *in_place, struct diag *diag);

/* Writes all `len` bytes to `fd` (short writes and EINTR retried). 0, or -1
 * with errno set. */
int atomic_write_fd(int fd, const char *data, size_t len);

#endif
